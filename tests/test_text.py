"""Text cleanup, plain-text forms, title keys and author names: tables of real-data cases."""

from __future__ import annotations

import pytest

from paperlist.names import author_key, make_authors, split_author_string
from paperlist.text import clean, plain, title_key


@pytest.mark.parametrize("raw, expected", [
    ("Shin&#x27;ya Yamaguchi", "Shin'ya Yamaguchi"),
    ("Guido M. D&amp;#x27;Amely", "Guido M. D'Amely"),           # double-encoded entity
    ("Yu (&quot;Tony&quot;) Zhang", 'Yu ("Tony") Zhang'),
    ("  spaced \n\t out  ", "spaced out"),
    ("zero\u200bwidth\x07", "zerowidth"),
    ("AT&T labs", "AT&T labs"),                                    # a bare ampersand is text
    (None, ""), (42, ""),
])
def test_clean(raw: object, expected: str) -> None:
    assert clean(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    (r"$\ell_1$-regression with Heavy-tailed Distributions",
     "ℓ_1-regression with Heavy-tailed Distributions"),
    (r"improves by $2\times$ under 50% perturbation & more", "improves by 2× under 50% perturbation & more"),
    (r"We propose \textbf{CARL} (\textbf{C}ompetence-\emph{Aware})", "We propose CARL (Competence-Aware)"),
    (r"cost \$5 at 50\% and $\frac{1}{2}$", "cost $5 at 50% and 1/2"),
    (r"Schr\"{o}dinger's $\epsilon$-greedy \cite{x}", "Schrödinger's ϵ-greedy"),
    ("a *knowledge conflict* and **bold** text", "a knowledge conflict and bold text"),
    ("plain text stays", "plain text stays"),
    ("", ""),
])
def test_plain(raw: str, expected: str) -> None:
    assert plain(raw) == expected


@pytest.mark.parametrize("a, b", [
    (r"$\ell_1$-regression with Heavy-tailed Distributions", "ℓ1-Regression with heavy-tailed distributions"),
    ("Schrödinger Bridges", "Schrodinger bridges"),
    ("BERT: Pre-training of Deep Bidirectional Transformers",
     "BERT -- pre-training of deep bidirectional transformers"),
])
def test_title_key_agrees(a: str, b: str) -> None:
    assert title_key(a) == title_key(b) != ""


def test_title_key_keeps_different_titles_apart() -> None:
    assert title_key("Learning to Learn") != title_key("Learning to Learn II")


@pytest.mark.parametrize("raw, expected", [
    ("Lijun Zhang; Zhi-Hua Zhou", ["Lijun Zhang", "Zhi-Hua Zhou"]),
    ("Lijun Zhang, Zhi-Hua Zhou", ["Lijun Zhang", "Zhi-Hua Zhou"]),
    ("Hang Su;Salih Ertug Ovur", ["Hang Su", "Salih Ertug Ovur"]),
    ("Rodriguez, S.;Xinyu Tang", ["S. Rodriguez", "Xinyu Tang"]),           # "Last, First" inside ';' lists
    ("A B; C D; A B; C D", ["A B", "C D"]),                                 # list written twice (ICRA)
    ("Maximilian L. Ach,;O. Anatole von Lilienfeld", ["Maximilian L. Ach", "O. Anatole von Lilienfeld"]),
    ("Pierluca D&#x27;Oro, Aaron Courville", ["Pierluca D'Oro", "Aaron Courville"]),
    ("", []), (" ; ; ", []),
    ("Single Author", ["Single Author"]),
])
def test_split_author_string(raw: str, expected: list[str]) -> None:
    assert split_author_string(raw) == expected


@pytest.mark.parametrize("a, b", [
    ("Zhi-Hua Zhou", "Zhihua Zhou"),
    ("Jérémy Scheurer", "Jeremy Scheurer"),
    ("Pierluca D'Oro", "Pierluca DOro"),
    ("YASSER ABDELAZIZ", "Yasser Abdelaziz"),
    ("N.M. Amato", "N. M. Amato"),
])
def test_author_key_same_person(a: str, b: str) -> None:
    assert author_key(a) == author_key(b) != ""


@pytest.mark.parametrize("a, b", [
    ("Michael J. Black", "Michael Black"),      # never merge on less than the whole written name
    ("Yang Liu", "Yan Liu"),
    ("Wei Zhang", "Zhang Wei"),
])
def test_author_key_different_people(a: str, b: str) -> None:
    assert author_key(a) != author_key(b)


def test_author_key_keeps_non_latin_names() -> None:
    assert author_key("周志华") == "周志华"


@pytest.mark.parametrize("raw, expected", [
    ("called ***MixPi***, which", "called MixPi, which"),                      # <b><i>…</i></b> from ACL XML
    ("***M**oE-L**o**RA (MoLA)* for", "MoE-LoRA (MoLA) for"),                   # bold inside italics
    ("Model (*k*NN-CM) and *S*entiment", "Model (kNN-CM) and Sentiment"),      # CommonMark intra-word close
    ("A* search, p*q and 2*3*4", "A* search, p*q and 2*3*4"),                  # not emphasis
    ("(*) marks and (**) marks", "(*) marks and (**) marks"),
])
def test_plain_markdown_emphasis_nested_and_intraword(raw: str, expected: str) -> None:
    assert plain(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    # papercopilot and mlanthology glue the last two of "A, B, C and D" (issue 44's corpus BibTeX count
    # found 108 such names in 103 papers: one "author" page for two people)
    (["Aditay Tripathi", "Rajath R. Dani", "Anand Mishra and Anirban Chakraborty"],
     ["Aditay Tripathi", "Rajath R. Dani", "Anand Mishra", "Anirban Chakraborty"]),
    (["Zhenwei Dai and Reinhard Heckel"], ["Zhenwei Dai", "Reinhard Heckel"]),
    (["Evangelos and Zervas"], ["Evangelos and Zervas"]),           # not two full names: left as it is
    (["Sam Nickolay", "Vassilios Morellas and"], ["Sam Nickolay", "Vassilios Morellas"]),   # a list's joiner
    # LaTeX in a source's names (34 records)
    (["Yasin Yaz{\\i}c{\\i}", "Chuan-Sheng Foo"], ["Yasin Yazıcı", "Chuan-Sheng Foo"]),
    (["Gabriele D\\textsc\\char13Acunto"], ["Gabriele D'Acunto"]),
    (["J{\\\"u}rgen Schmidhuber"], ["Jürgen Schmidhuber"]),
])
def test_make_authors_splits_glued_names_and_decodes_latex(raw: list[str], expected: list[str]) -> None:
    authors = make_authors(raw, [f"Affiliation {i}" for i in range(len(raw))])
    assert [a.name for a in authors] == expected
    assert all(a.key == author_key(a.name) and "\\" not in a.name for a in authors)
    # a glued pair keeps the affiliation its source gave the pair
    assert authors[-1].affiliation == f"Affiliation {len(raw) - 1}"


def test_mlanthology_names_go_through_make_authors() -> None:
    """The fresh corpus after 5f23c9a still showed "Zhenwei Dai and Reinhard Heckel" and
    "Stéphan Clémen\\con": mlanthology built its authors without make_authors."""
    from paperlist.sources.mlanthology import _authors

    got = _authors([{"given": "Zhenwei Dai and Reinhard", "family": "Heckel"}, "Stéphan Clémen\\con",
                    {"given": "Gabriele", "family": "D\\textsc\\char13Acunto"}])
    assert [a.name for a in got] == ["Zhenwei Dai", "Reinhard Heckel", "Stéphan Clémencon",
                                     "Gabriele D'Acunto"]
