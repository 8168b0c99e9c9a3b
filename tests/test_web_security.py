"""Paper data is untrusted: hostile titles, authors, abstracts, links, BibTeX and LaTeX render as
text, never as markup that runs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlist.richtext import math_html, render_block, render_inline
from paperlist.store import Store
from tests.webdata import html_tags as audit
from tests.webdata import paper_id

# What rendered paper text may contain: our formatting tags and MathML, nothing else.
TEXT_TAGS = {"p", "strong", "em", "code", "u", "sup", "sub", "span", "a", "s"}
MATH_TAGS = {"math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "mfrac",
             "msqrt", "mroot", "mstyle", "merror", "mpadded", "mphantom", "menclose", "munder", "mover",
             "munderover", "mtable", "mtr", "mtd", "mlabeledtr", "mmultiscripts", "mprescripts", "none",
             "semantics"}
SAFE_SCHEMES = ("http://", "https://")


def assert_inert_fragment(html: str) -> None:
    for tag, attrs in audit(html):
        assert tag in TEXT_TAGS | MATH_TAGS, (tag, html)
        for k, v in attrs.items():
            assert not k.startswith("on") and k not in ("style", "src", "srcdoc", "xlink:href"), (k, html)
            if k == "href":
                assert v and v.startswith(SAFE_SCHEMES), (v, html)


@pytest.mark.parametrize("tex", [
    r"\href{javascript:alert(1)}{x}", r"<img src=x onerror=alert(1)>", r"\text{<script>alert(1)</script>}",
    r"\style{color:red}{x}", r"\url{javascript:alert(1)}", r"\class{x}{y}", r"\unicode{60}script",
    "x</math><script>alert(1)</script>", r"\mathrm{\&lt;script\&gt;}", "\\frac{a}{b", r"\begin{array}x",
])
def test_hostile_latex_becomes_inert(tex: str) -> None:
    for display in (False, True):
        out = math_html(tex, display)
        assert_inert_fragment(out)
        body = re.sub(r' title="[^"]*"', "", out).lower()     # the escaped source in title="" is inert
        assert "<script" not in body and "javascript:" not in body


def test_math_source_kept_as_title_escaped() -> None:
    out = math_html("<b>x</b>")
    assert "<b>" not in out and "&lt;b&gt;" in out


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>", "[x](javascript:alert(1))", "<a href='javascript:alert(1)'>x</a>",
    "\\href{javascript:alert(1)}{x}", "\\url{data:text/html,<script>alert(1)</script>}",
    "**<img src=x onerror=alert(1)>**", "\\textbf{\\emph{<svg onload=alert(1)>}}", "`<script>`",
    "<https://ok.example/\"onmouseover=alert(1)>", "[x](https://ok.example/\" onmouseover=\"alert(1))",
    "\\href{https://ok.example/\"onmouseover=alert(1)}{x}",
])
def test_hostile_text_becomes_inert(text: str) -> None:
    for out in (render_inline(text), render_block(text)):
        assert_inert_fragment(out)
        assert "<script" not in out and "<img" not in out and "<svg" not in out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("<>\"'&$\\{}[]()*_`~:/= ajscriptonerorhfimgtx") + [
    "javascript:", "<script>", "onerror=", "\\href", "\\url", "\\textbf", "\\text", "$$", "\\(", "\\)",
    "https://", "**", "\n\n"]), max_size=40).map("".join))
def test_any_text_renders_inert(text: str) -> None:
    assert_inert_fragment(render_block(text))
    assert_inert_fragment(render_inline(text))


def assert_page_inert(path: str, html: str) -> None:
    """No element a payload could use to run: only our own scripts, no handlers, safe links."""
    for tag, attrs in audit(html):
        assert tag not in ("img", "iframe", "object", "embed", "style"), (path, tag, attrs)
        if tag == "script":
            assert (attrs.get("src") or "").startswith("/static/"), (path, attrs)
        for k, v in attrs.items():
            assert not k.startswith("on"), (path, tag, k, v)
            if k in ("href", "src", "action"):
                assert v and (v.startswith(("/", "#")) or v.startswith(SAFE_SCHEMES)), (path, tag, k, v)
                assert '"' not in v and " " not in v.strip(), (path, v)


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_xss_paper_page_is_inert(client: Any, web_store: Store, prefix: str) -> None:
    pid = paper_id(web_store, "xss")
    pages = [f"/papers/{pid}", "/conferences/neurips/2024", "/conferences/neurips/2024?q=Attack",
             "/authors/alan-turing", "/search?q=attack", f"/papers/{paper_id(web_store, 'spec')}"]
    for path in pages:
        r = client.get(prefix + path)
        assert r.status_code == 200, path
        assert_page_inert(path, r.text)
    page = client.get(f"{prefix}/papers/{pid}").text
    assert "&lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt;" in page   # shown, as text
    assert 'alert("author")' not in page.replace("&lt;", "<") or "&lt;img" in page
    assert "javascript:alert(&#39;pdf&#39;)" not in page and "javascript:alert('pdf')" not in page
    assert "&lt;/pre&gt;&lt;script&gt;" in page or "</pre><script>" not in page


def test_json_twin_is_json(client: Any, web_store: Store) -> None:
    pid = paper_id(web_store, "xss")
    r = client.get(f"/papers/{pid}?format=json")
    assert r.headers["content-type"] == "application/json"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.json()["title"].startswith("<script>")          # data stays data


@pytest.mark.parametrize("path", [
    "/papers/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/authors/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "/conferences/%3Csvg%20onload%3Dalert(1)%3E", "/search?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E",
    "/conferences/neurips/2024?q=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
    "/search?q=x&sort=%3Cscript%3E", "/no/%3Cscript%3Ealert(1)%3C/script%3E",
    "/search?q=%3Cscript%3E&venue=%3Cimg%20src%3Dx%3E",
])
def test_reflected_input_is_escaped(client: Any, path: str) -> None:
    for prefix in ("", "/en"):
        r = client.get(prefix + path)
        assert r.status_code in (200, 400, 404), path
        for tag, attrs in audit(r.text):
            assert tag not in ("img", "svg") or tag == "svg" and "onload" not in attrs, (path, tag)
            if tag == "script":
                assert (attrs.get("src") or "").startswith("/static/"), path
            assert not any(k.startswith("on") for k in attrs), (path, tag, attrs)


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_hostile_affiliations_institutions_and_countries_stay_text(client: Any, web_store: Store,
                                                                  prefix: str) -> None:
    """Institutions, countries and author names ranked on a stats page come from the sources as
    written (an affiliation, an institution, a country, an author that are markup): escaped."""
    from tests.webdata import XSS_AFFILIATION, XSS_COUNTRY, XSS_INSTITUTION

    pages = ["/conferences/iclr/2024/stats", "/conferences/neurips/2024/stats",
             f"/papers/{paper_id(web_store, 'iclr-oral')}", "/conferences/iclr"]
    for path in pages:
        r = client.get(prefix + path)
        assert r.status_code == 200, path
        assert_page_inert(path, r.text)
        for raw in (XSS_AFFILIATION, XSS_INSTITUTION, XSS_COUNTRY, '<img src=x onerror=alert("author")>'):
            assert raw not in r.text, (path, raw)
    t = client.get(prefix + "/conferences/iclr/2024/stats").text
    for raw in (XSS_AFFILIATION, XSS_INSTITUTION, XSS_COUNTRY):       # shown, as text
        shown = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
        assert shown in t, raw
    assert "&lt;img src=x onerror=alert(&#34;author&#34;)&gt;" in client.get(
        prefix + "/conferences/neurips/2024/stats").text
    twin = client.get(prefix + "/conferences/iclr/2024/stats?format=json")
    assert twin.headers["content-type"] == "application/json"
    assert XSS_INSTITUTION in {i["name"] for i in twin.json()["institutions"]}       # data stays data


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_xss_in_a_reading_list_is_inert(client: Any, web_store: Store, prefix: str) -> None:
    """A list's name and notes are shown as text on its private page and its share page, and stay
    data in the JSON twin and the API."""
    from tests.webdata import XSS_LIST_NAME, XSS_NOTE

    s = client.post("/api/v1/lists", json={"name": XSS_LIST_NAME}).json()
    token, lid = s["token"], s["lists"][0]["id"]
    for key in ("xss", "spec"):
        pid = paper_id(web_store, key)
        r = client.put(f"/api/v1/lists/{token}/lists/{lid}/papers/{pid}", json={"note": XSS_NOTE})
        assert r.status_code == 200
    share = s["lists"][0]["share_href"]
    for path in (f"/lists/{token}/{lid}", share, "/lists"):
        r = client.get(prefix + path)
        assert r.status_code == 200, path
        assert_page_inert(path, r.text)
        assert 'alert("note")' not in r.text and "<svg" not in r.text and 'alert("name")' not in r.text
    owner = client.get(f"{prefix}/lists/{token}/{lid}").text
    assert "&lt;/textarea&gt;&lt;script&gt;" in owner and "&#34;&gt;&lt;svg onload" in owner
    assert client.get(f"{prefix}/lists/{token}/{lid}?format=json").json()["entries"][0]["note"] == XSS_NOTE
    bib = client.get(f"/api/v1/lists/{token}/lists/{lid}?format=bib").text
    assert "annote" in bib and r"\& more" in bib          # LaTeX specials escaped in the export
