"""Titles and abstracts as HTML: LaTeX math to MathML, LaTeX text commands and markdown to HTML,
anything unparseable as readable text."""

from __future__ import annotations

import pytest

from paperlist.richtext import math_html, render_block, render_inline


@pytest.mark.parametrize("text,expected", [
    (r"up to $2\times$ faster", "<mn>2</mn><mo>×</mo>"),
    (r"$\ell_1$-regression", "<msub><mi>ℓ</mi><mn>1</mn></msub></mrow></math></span>-regression"),
    (r"\(\frac{a}{b}\)", "<mfrac>"),
    (r"$$\sum_i x_i$$", 'display="block"'),
    (r"\[x^2\]", 'class="math display"'),
    (r"\begin{equation}E=mc^2\end{equation}", 'display="block"'),
    (r"$\mathbb{R}^d$", "<mi>ℝ</mi>"),
    (r"We propose \textbf{CARL} (\textbf{C}ompetence)",
     "<strong>CARL</strong> (<strong>C</strong>ompetence)"),
    (r"both \emph{EAGLE3} and \textit{MTP}", "<em>EAGLE3</em> and <em>MTP</em>"),
    (r"{\bf bold part} rest", "<strong>bold part</strong> rest"),
    (r"\texttt{code} and \underline{u}", "<code>code</code> and <u>u</u>"),
    ("a phenomenon termed *knowledge conflict*", "termed <em>knowledge conflict</em>"),
    ("we call **late-layer reversal**", "<strong>late-layer reversal</strong>"),
    ("snake_case_names stay", "snake_case_names stay"),
    ("costs $5 and $10 today", "costs $5 and $10 today"),
    (r"about 56\% fewer", "about 56% fewer"),
    (r"the final ~40\% of layers", "the final ~40% of layers"),
    ("``earlier is always better,'' we find", "\u201cearlier is always better,\u201d we find"),
    ("past--future and a---b", "past\u2013future and a\u2014b"),
    (r"Gon{\c{c}}alo and \'ecole", "Gonçalo and école"),
    (r"\alpha-tests", "α-tests"),
    (r"see \url{https://example.org/x_y}", '<a href="https://example.org/x_y" rel="nofollow noopener">'),
    (r"\href{https://example.org}{the site}",
     '<a href="https://example.org" rel="nofollow noopener">the site</a>'),
    (r"Code at \url{javascript:alert(1)}", "Code at javascript:alert(1)"),
    ("[docs](https://example.org)", '<a href="https://example.org" rel="nofollow noopener">docs</a>'),
    (r"as shown\cite{smith2020} here", "as shown here"),
    (r"a \unknowncmd{kept text} b", "a kept text b"),
    ("A* search and B* trees", "A* search and B* trees"),
    ("5 < 6 & 7 > 3", "5 &lt; 6 &amp; 7 &gt; 3"),
])
def test_render_inline(text: str, expected: str) -> None:
    assert expected in render_inline(text)


def test_unparseable_math_is_readable_source() -> None:
    out = math_html(r"\text{<b>}")
    assert out.startswith('<code class="tex">') and "&lt;b&gt;" in out


def test_paragraphs_and_broken_input() -> None:
    html = render_block("First $x$.\n\nSecond with an unclosed $ dollar and $\\frac{a}{b$.")
    assert html.count("<p>") == 2
    assert "unclosed $ dollar" in html


def test_empty() -> None:
    assert render_inline(None) == "" and render_block("") == ""


def test_seed_abstracts_render(tmp_path: object) -> None:
    """Every abstract of the captured seed pages renders, and no raw \\textbf or $…$ is left."""
    import json
    from pathlib import Path

    rows = json.loads((Path(__file__).parent / "fixtures" / "web" / "neurips2026.json").read_text("utf-8"))
    for r in rows:
        html = render_block(r["abstract"])
        assert "\\textbf" not in html and "\\emph" not in html, r["title"]
        assert "*knowledge conflict*" not in html
