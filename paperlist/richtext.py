"""Titles and abstracts as safe HTML: LaTeX math to MathML, LaTeX text commands and markdown
emphasis to HTML, everything else escaped.

Paper text is untrusted. Every piece of output is built here from escaped text or from MathML that
was re-serialized through a whitelist of elements and attributes, so no source string can add an
element, an attribute or a URL scheme of its own. What does not parse is shown as readable text.

The pipeline: math spans ($…$, $$…$$, \\(…\\), \\[…\\]) and LaTeX text commands (\\textbf{…},
\\emph{…}, \\url{…} …) are cut out into numbered slots holding their finished HTML; the remaining
text goes through markdown-it (inline rules only, raw HTML off, http(s) links only), which escapes
it; the slots are put back last.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markupsafe import Markup

from .text import latex_accents, latex_symbol

_OPEN, _CLOSE = "\ue100", "\ue101"          # slot markers (private use; stripped from input)
_SLOT = re.compile(_OPEN + r"(\d+)" + _CLOSE)
_PRIVATE = re.compile("[\ue000-\uf8ff]")
_SAFE_URL = re.compile(r"^https?://[^\s<>\"'`]+$", re.I)

_MD = MarkdownIt("zero", {"html": False}).enable(
    ["escape", "backticks", "strikethrough", "emphasis", "link", "autolink", "entity"])
_MD.validateLink = lambda url: bool(_SAFE_URL.match(url))  # type: ignore[method-assign]


def _link_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("rel", "nofollow noopener")
    return self.renderToken(tokens, idx, options, env)


_MD.add_render_rule("link_open", _link_open)
# A backslash before a line break is markdown's hard break; in titles and abstracts it is an
# artefact of the source's LaTeX, and <br> is not among the tags rendered text may hold.
_MD.add_render_rule("hardbreak", lambda self, tokens, idx, options, env: " ")

# --- MathML ----------------------------------------------------------------------------------
_MATHML_TAGS = frozenset(
    "math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle merror mpadded"
    " mphantom menclose munder mover munderover mtable mtr mtd mlabeledtr mmultiscripts mprescripts none"
    " semantics".split())
_MATHML_ATTRS = frozenset(
    "display mathvariant stretchy fence separator lspace rspace accent accentunder movablelimits largeop"
    " symmetric minsize maxsize linethickness columnalign rowalign columnspacing rowspacing columnlines"
    " rowlines frame notation width height depth scriptlevel displaystyle form align".split())
_ATTR_VALUE = re.compile(r"^[\w .%#+-]{0,64}$")
_NS = "{http://www.w3.org/1998/Math/MathML}"


def _serialize(el: ET.Element, out: list[str]) -> None:
    tag = el.tag.removeprefix(_NS)
    if tag not in _MATHML_TAGS:
        raise ValueError(f"not MathML: {tag}")   # e.g. markup inside \\text{}: show the source instead
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in sorted(el.attrib.items())
                    if k in _MATHML_ATTRS and _ATTR_VALUE.match(v))
    if tag == "math":
        attrs = ' xmlns="http://www.w3.org/1998/Math/MathML"' + attrs
    out.append(f"<{tag}{attrs}>")
    if el.text:
        out.append(escape(el.text, quote=False))
    for child in el:
        _serialize(child, out)
        if child.tail:
            out.append(escape(child.tail, quote=False))
    out.append(f"</{tag}>")


@lru_cache(maxsize=8192)
def math_html(tex: str, display: bool = False) -> str:
    """One LaTeX formula as sanitized MathML, or as readable source text when it does not convert."""
    from latex2mathml.converter import convert

    tex = tex.strip()
    try:
        raw = convert(tex, display="block" if display else "inline")
        if "<!" in raw or "<?" in raw:
            raise ValueError("declarations in MathML")
        root = ET.fromstring(raw)
        out: list[str] = []
        _serialize(root, out)
        mathml = "".join(out)
    except Exception:  # noqa: BLE001 - any failure of the converter means "show the source"
        delim = ("$$", "$$") if display else ("$", "$")
        return f'<code class="tex">{escape(delim[0] + tex + delim[1])}</code>'
    # The source stays available to copy and to screen readers that lack MathML.
    if display:                  # a wide formula scrolls: by keyboard too (it takes focus)
        return f'<span class="math display" title="{escape(tex)}" tabindex="0">{mathml}</span>'
    return f'<span class="math" title="{escape(tex)}">{mathml}</span>'


# --- splitting math from text ----------------------------------------------------------------
_MATH_ENV = re.compile(r"\\begin\{(equation|align|gather|multline|eqnarray)(\*?)\}(.+?)\\end\{\1\2\}", re.S)


def _find_math(s: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, tex, display) of every math span, left to right. A $ opens inline math only
    when the next character is not a space and closes only when the previous one is not a space and
    the next is not a digit (pandoc's rule, so "costs $5 and $10" stays text)."""
    spans: list[tuple[int, int, str, bool]] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n:
            nxt = s[i + 1]
            if nxt in "([":
                close = "\\)" if nxt == "(" else "\\]"
                j = s.find(close, i + 2)
                if j > 0:
                    spans.append((i, j + 2, s[i + 2:j], nxt == "["))
                    i = j + 2
                    continue
            elif s.startswith("\\begin{", i):
                m = _MATH_ENV.match(s, i)
                if m:
                    spans.append((i, m.end(), m.group(3), True))
                    i = m.end()
                    continue
            i += 2                                    # an escaped character (\$) is never a delimiter
            continue
        if c == "$":
            if s.startswith("$$", i):
                j = s.find("$$", i + 2)
                if j > i + 2:
                    spans.append((i, j + 2, s[i + 2:j], True))
                    i = j + 2
                    continue
            elif i + 1 < n and not s[i + 1].isspace():
                j = i + 1
                while j < n:
                    j = s.find("$", j)
                    if j < 0:
                        break
                    if s[j - 1] == "\\":
                        j += 1
                        continue
                    if not s[j - 1].isspace() and not (j + 1 < n and s[j + 1].isdigit()):
                        break
                    j += 1
                if j > i + 1 and j < n:
                    spans.append((i, j + 1, s[i + 1:j], False))
                    i = j + 1
                    continue
        i += 1
    return spans


# --- LaTeX text commands -----------------------------------------------------------------------
_WRAP = {
    "textbf": ("<strong>", "</strong>"), "bf": ("<strong>", "</strong>"),
    "bfseries": ("<strong>", "</strong>"),
    "textit": ("<em>", "</em>"), "emph": ("<em>", "</em>"), "it": ("<em>", "</em>"),
    "em": ("<em>", "</em>"), "textsl": ("<em>", "</em>"), "itshape": ("<em>", "</em>"),
    "texttt": ("<code>", "</code>"), "tt": ("<code>", "</code>"),
    "underline": ("<u>", "</u>"), "uline": ("<u>", "</u>"),
    "textsc": ('<span class="sc">', "</span>"), "sc": ('<span class="sc">', "</span>"),
    "textsuperscript": ("<sup>", "</sup>"), "textsubscript": ("<sub>", "</sub>"),
    "textrm": ("", ""), "textsf": ("", ""), "textnormal": ("", ""), "mbox": ("", ""), "text": ("", ""),
}
_DROP = frozenset("cite citep citet citealp ref eqref label vspace hspace footnotemark".split())
_CMD = re.compile(r"\\([a-zA-Z]+)\*?")
_BARE_BRACE = re.compile(r"(?<!\\)[{}]")      # LaTeX grouping braces left in text


def _group(s: str, i: int) -> int:
    """Index just past the balanced {…} group starting at s[i] == '{', or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "\\":
            continue
        if s[j] == "{" and (j == 0 or s[j - 1] != "\\"):
            depth += 1
        elif s[j] == "}" and s[j - 1] != "\\":
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


class _Renderer:
    """One render call: its slots and the recursion over nested commands."""

    def __init__(self) -> None:
        self.slots: list[str] = []

    def slot(self, html: str) -> str:
        self.slots.append(html)
        return f"{_OPEN}{len(self.slots) - 1}{_CLOSE}"

    def text(self, s: str, depth: int = 0) -> str:
        """Text with LaTeX commands replaced by slots; markdown and escaping come later."""
        out: list[str] = []
        i = 0
        while True:
            m = _CMD.search(s, i)
            brace = s.find("{\\", i)
            if brace >= 0 and (m is None or brace < m.start()):
                # "{\bf X}" style: the switch applies to the rest of the group
                end = _group(s, brace)
                sw = _CMD.match(s, brace + 1)
                if end > 0 and sw and sw.group(1) in _WRAP:
                    out.append(s[i:brace])
                    pre, post = _WRAP[sw.group(1)]
                    out.append(self.slot(pre + self.inline(s[sw.end():end - 1].lstrip(), depth + 1) + post))
                    i = end
                    continue
            if m is None:
                out.append(s[i:])
                break
            out.append(s[i:m.start()])
            name, j = m.group(1), m.end()
            has_arg = j < len(s) and s[j] == "{"
            end = _group(s, j) if has_arg else -1
            arg = s[j + 1:end - 1] if end > 0 else None
            if arg is not None and depth < 8:
                out.append(self._command(name, arg, s, end, depth))
                i = end
                if name == "href" and end < len(s) and s[end] == "{":
                    i = _group(s, end) if _group(s, end) > 0 else end
                continue
            sym = latex_symbol(name)
            out.append(sym if sym is not None else m.group(0))
            i = j
        return "".join(out)

    def _command(self, name: str, arg: str, s: str, end: int, depth: int) -> str:
        if name in _WRAP:
            pre, post = _WRAP[name]
            return self.slot(pre + self.inline(arg, depth + 1) + post)
        if name in _DROP:
            return ""
        if name in ("url", "href"):
            label = arg
            if name == "href" and end < len(s) and s[end] == "{":
                close = _group(s, end)
                if close > 0:
                    label = s[end + 1:close - 1]
            url = arg.strip().replace("\\%", "%").replace("\\_", "_").replace("\\#", "#").replace("\\&", "&")
            label_html = self.inline(label, depth + 1) if name == "href" else escape(url)
            if _SAFE_URL.match(url):
                return self.slot(f'<a href="{escape(url)}" rel="nofollow noopener">{label_html}</a>')
            return self.slot(label_html)
        if name == "footnote":
            return self.slot(" (" + self.inline(arg, depth + 1) + ")")
        sym = latex_symbol(name)
        if sym is not None and len(arg) <= 2:       # accents: \'{e}, \c{c}
            return sym + arg
        return self.slot(self.inline(arg, depth + 1))   # unknown command: its argument as text

    def inline(self, s: str, depth: int = 0) -> str:
        """Text (math already in slots) to HTML: commands, LaTeX quotes and dashes, markdown."""
        s = _BARE_BRACE.sub("", self.text(s, depth))
        s = re.sub(r"``(.+?)''", "\u201c\\1\u201d", s)
        s = re.sub(r"(?<![`\w])`([^`'\n]+)'(?!')", "\u2018\\1\u2019", s)
        s = s.replace("---", "\u2014").replace("--", "\u2013").replace("\\\\", " ")
        s = s.replace("~", "\u00a0") if "~" in s and re.search(r"\w~\w", s) else s
        return _MD.renderInline(s).replace("\n", " ")

    def render(self, s: str) -> str:
        s = _PRIVATE.sub("", s)
        parts: list[str] = []
        last = 0
        for start, end, tex, display in _find_math(s):
            parts.append(s[last:start])
            parts.append(self.slot(math_html(tex, display)))
            last = end
        parts.append(s[last:])
        html = self.inline(latex_accents("".join(parts)))
        for _ in range(10):                         # nested slots resolve in a few rounds
            if _OPEN not in html:
                break
            html = _SLOT.sub(lambda m: self.slots[int(m.group(1))], html)
        return html.replace(_OPEN, "").replace(_CLOSE, "")


# Characters that math, LaTeX commands, quotes, dashes or markdown act on: a title without any
# of them (most titles) renders as its escaped text, without a parser.
_MARKUP = re.compile(r"[$\\{}*_`~\[\]<>&\n\r\0\ue000-\uf8ff]|--")


def _escape_html(s: str) -> str:
    """The escaping markdown-it applies to text (so both paths give the same HTML)."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# Bounded small: a long run of distinct queries shows ever new titles, and 100,000 cached titles
# grew each worker by ~40 MB over 10 minutes (benchmarks/soak_bench.py); the hot set is small.
@lru_cache(maxsize=8192)
def render_inline(text: str | None) -> Markup:
    """A title or a short line as safe inline HTML."""
    if not text:
        return Markup("")
    if not _MARKUP.search(text):
        return Markup(_escape_html(text))
    return Markup(_Renderer().render(text))


def render_block(text: str | None) -> Markup:
    """An abstract as safe HTML paragraphs (blank lines separate paragraphs)."""
    if not text:
        return Markup("")
    paras = [p.strip() for p in re.split(r"\n\s*\n", text.replace("\r\n", "\n")) if p.strip()]
    return Markup("".join(f"<p>{_Renderer().render(p)}</p>" for p in paras))


# Markdown with block structure (lists, quotes) for texts written as markdown, such as the
# Chinese summaries: the blocks come from markdown-it, each block's text from the renderer above
# (math, LaTeX commands, inline markdown), so the output holds only p, ul, ol, li, blockquote and
# the inline tags.
_MD_BLOCKS = MarkdownIt("zero", {"html": False}).enable(["list", "blockquote"])
_BLOCK_HTML = RendererHTML()


def render_markdown(text: str | None) -> Markup:
    """A markdown text (lists, quotes, paragraphs) as safe HTML."""
    if not text:
        return Markup("")
    tokens = _MD_BLOCKS.parse(_PRIVATE.sub("", text.replace("\r\n", "\n")))
    out: list[str] = []
    for i, t in enumerate(tokens):
        if t.type == "inline":
            out.append(_Renderer().render(t.content))
        else:
            out.append(_BLOCK_HTML.renderToken(tokens, i, _MD_BLOCKS.options, {}))
    return Markup("".join(out))
