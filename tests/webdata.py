"""A small corpus written for the site's tests: papers with LaTeX and markdown abstracts, a Chinese
summary, source and generated BibTeX, shared authors, a journal paper, and one paper whose every
field is an XSS payload; review scores (ICLR 2024 lists every submission: rated, rejected, withdrawn,
a source's mean only, one without reviews, hostile affiliation / institution / country strings;
NeurIPS 2024 lists accepted papers only). Built as Records and merged like any ingest, then its
topics, statistics and index derived, so the pages read a real store."""

from __future__ import annotations

import hashlib
import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from paperlist.ingest import merge_pending
from paperlist.models import Record, Review
from paperlist.names import make_authors
from paperlist.store import Store, encode_record

XSS_TITLE = ('<script>alert("title")</script> Attack $\\href{javascript:alert(1)}{x}$ '
             '<img src=x onerror=alert(2)>')
XSS_ABSTRACT = (
    'Plain <script>alert("abstract")</script> text. Math $<img src=x onerror=alert(3)>$ and '
    '$\\text{<script>alert(4)</script>}$ and $\\href{javascript:alert(5)}{click}$. '
    'A \\url{javascript:alert(6)} and [link](javascript:alert(7)) and <a href="javascript:alert(8)">a</a>. '
    '\\href{javascript:alert(9)}{latex link} "><svg onload=alert(10)> onerror=alert(11) '
    '$$\\style{color:red}{x}$$ \\textbf{<b onmouseover=alert(12)>bold</b>}')

SPECULATIVE_ABSTRACT = (
    "Speculative decoding accelerates LLM inference by drafting future tokens with a small model. "
    "We identify a phenomenon we call \\textbf{attention drift}: as the drafter generates successive tokens, "
    "attention moves onto its own tokens. We observe this across both \\emph{EAGLE3} drafters and "
    "\\emph{MTP heads}. Our interventions improve acceptance length by up to $2\\times$ under template "
    "perturbation and $1.18\\times$ on long-context tasks, with $$\\mathcal{L} = \\sum_i \\log p(x_i)$$ "
    "as the objective and \\(O(\\sqrt{n})\\) overhead. Counter to ``earlier is always better,'' costs "
    "of $5 and $10 stay text; ~40\\% of layers; past--future windows.")

MARKDOWN_ABSTRACT = (
    "Language models ignore in-context evidence, a phenomenon termed *knowledge conflict*. "
    "We call this **late-layer reversal** and show `code` spans work.\n\n"
    "A second paragraph with a broken formula $\\frac{a}{b$ and an unclosed $ dollar.")

SOURCE_BIBTEX = ("@inproceedings{jin2024knowing,\n  title = {Knowing Without Saying},\n"
                 "  author = {Lovelace, Ada and Jin, Ruochen and Pang, Tianyu},\n  booktitle = {NeurIPS},\n"
                 "  year = {2024}\n}")


XSS_AFFILIATION = '"><img src=x onerror=alert("aff")>'
XSS_INSTITUTION = '<script>alert("inst")</script>'
XSS_COUNTRY = '"><svg onload=alert("country")>'
# Reading lists: what their owners type is as untrusted as any source.
XSS_NOTE = '</textarea><script>alert("note")</script><img src=x onerror=alert("note2")> "quoted" & more'
XSS_LIST_NAME = '"><svg onload=alert("listname")></title><script>alert("name")</script>'


def review(ratings: list[float], confidences: list[float], **dims: list[float]) -> Review:
    """Review scores as the papercopilot reader makes them: the means computed from the lists."""
    return Review(ratings=ratings, confidences=confidences, dims=dims, mean=sum(ratings) / len(ratings),
                  confidence_mean=sum(confidences) / len(confidences) if confidences else None,
                  count=len(ratings))


def _rec(file: str, key: str, venue: str, year: int, title: str, authors: list[str],
         affiliations: list[str] | None = None, **kw: Any) -> Record:
    return Record(source="test", file=file, key=key, venue=venue, year=year, title=title,
                  authors=make_authors(authors, affiliations), **kw)


SEED_2026 = Path(__file__).parent / "fixtures" / "web" / "neurips2026.json"


def seed_records() -> list[Record]:
    """20 NeurIPS 2026 papers as the seed site lists them (title, authors, markdown/LaTeX abstract)."""
    rows = json.loads(SEED_2026.read_text("utf-8"))
    return [_rec("test:neurips2026", f"seed{i}", "neurips", 2026, r["title"], r["authors"],
                 abstract=r["abstract"], status=r["status"], track="main",
                 links={"site": f"https://neurips.cc/virtual/2026/poster/{i}"})
            for i, r in enumerate(rows)]


def records() -> list[Record]:
    f24, f23 = "test:neurips2024", "test:neurips2023"
    return seed_records() + [
        _rec(f24, "spec", "neurips", 2024, "Attention Drift in Speculative Decoding: Why $2\\times$ Is Hard",
             ["Ada Lovelace", "Alan Turing", "Grace Hopper"], abstract=SPECULATIVE_ABSTRACT, status="oral",
             track="main", keywords=["speculative decoding", "LLM inference"],
             primary_area="Efficient inference",
             links={"pdf": "https://example.org/spec.pdf", "openreview": "https://openreview.net/forum?id=SPEC123",
                    "code": "https://github.com/example/spec"},
             ids={"openreview": "SPEC123", "arxiv": "2401.00001"},
             summary_zh="本文发现**注意力漂移**现象，并提出两种归一化改动，使接受长度最多提升 $2\\times$。",
             tldr="Drafters drift; normalize them.", citations=12,
             review=review([8, 7, 8, 6], [4, 3, 4, 4])),
        _rec(f24, "know", "neurips", 2024, "Knowing Without Saying: Contextual Evidence in Transformers",
             ["Ada Lovelace", "Ruochen Jin", "Tianyu Pang"], abstract=MARKDOWN_ABSTRACT, status="poster",
             track="main", bibtex=SOURCE_BIBTEX, links={"site": "https://neurips.cc/virtual/2024/poster/1"},
             review=review([6, 5, 7], [3, 4, 3])),
        _rec(f24, "xss", "neurips", 2024, XSS_TITLE, ['<img src=x onerror=alert("author")>', "Alan Turing"],
             abstract=XSS_ABSTRACT, status="poster", track='"><script>alert("track")</script>',
             keywords=['<b onmouseover=alert("kw")>kw</b>'], award='<svg onload=alert("award")>',
             links={"pdf": "javascript:alert('pdf')", "code": 'https://ok.example/"onmouseover=alert(1)',
                    "site": "data:text/html,<script>alert('site')</script>"},
             bibtex='@misc{x, title={</pre><script>alert("bib")</script>}}',
             summary_zh='<script>alert("zh")</script>中文摘要', tldr='<img src=x onerror=alert("tldr")>'),
        _rec(f24, "mom", "neurips", 2024, "Momentum Methods for Bandits", ["Grace Hopper"],
             status="spotlight", abstract="We study bandits.", track="Datasets and Benchmarks"),
        _rec(f24, "big", "neurips", 2024, "A Large Collaboration",
             [f"Member {c} Person" for c in "ABCDEFGHIJKLMNOPQR"],
             status="poster", abstract="Many hands."),
        _rec(f23, "old", "neurips", 2023, "An Older Paper on Transformers", ["Ada Lovelace", "Grace Hopper"],
             status="poster", abstract="Transformers, earlier."),
        _rec("test:iclr2024", "rej", "iclr", 2024, "A Rejected Idea About Graphs", ["Alan Turing"],
             status="rejected", abstract="Graphs are hard.",
             ids={"doi": "10.1234/tmlr.2023_1"},  # shared DOI
             review=review([3, 5, 3], [4, 4, 3], soundness=[2, 3, 2], presentation=[2, 2, 3])),
        *iclr_2024_reviewed(),
        _rec("test:tmlr2023", "jour", "tmlr", 2023, "Journal Paper: Sparse & Dense 100% of the Time",
             ["Emmy Noether"], abstract="A journal paper.", ids={"doi": "10.1234/tmlr.2023_1"}),
        _rec("test:acl2023", "acl", "acl", 2023, "Parsing With {BERT}", ["Noam Chomsky", "Ada Lovelace"],
             abstract="We parse.", status="accepted", ids={"acl": "2023.acl-long.1", "doi": "10.18653/v1/x"},
             biblio={"bibkey": "chomsky-2023-parsing", "pages": "1–10", "publisher": "ACL",
                     "booktitle": "Proceedings of ACL 2023", "address": "Toronto, Canada"}),
    ]


def iclr_2024_reviewed() -> list[Record]:
    """ICLR 2024 with its rejected and withdrawn submissions (the listing of every submission):
    an oral, two posters (one known by the source's mean only), a withdrawn paper and a rejected
    one without reviews, beside the rejected graph paper; affiliations, institutions and
    countries, one of each hostile."""
    f = "test:iclr2024"
    return [
        _rec(f, "iclr-oral", "iclr", 2024, "Scaling Sparse Graph Transformers",
             ["Hedy Lamarr", "John von Neumann"], affiliations=[XSS_AFFILIATION, "MIT CSAIL"],
             status="oral", abstract="Sparse graph transformers scale.",
             institutions=[XSS_INSTITUTION, "Massachusetts Institute of Technology"],
             countries=[XSS_COUNTRY, "USA"],
             review=review([8, 8, 6, 8], [4, 3, 4, 5], soundness=[3, 4, 3, 4], presentation=[3, 3, 4, 4])),
        _rec(f, "iclr-poster", "iclr", 2024, "Message Passing Without Messages",
             ["Hedy Lamarr", "Emmy Noether"], status="poster", abstract="Graphs without messages.",
             institutions=["MIT"], countries=["United States"],
             review=review([6, 6, 5, 8], [3, 3, 2, 4], soundness=[3, 3, 2, 3], presentation=[2, 3, 3, 3])),
        _rec(f, "iclr-mean", "iclr", 2024, "Graph Rewiring by the Mean", ["Katherine Johnson"],
             status="poster", abstract="Rewire graphs.", institutions=["Stanford University"],
             countries=["China"], review=Review(mean=5.5, confidence_mean=3.5, count=4, from_mean=True)),
        _rec(f, "iclr-wd", "iclr", 2024, "A Withdrawn Graph Paper", ["Barbara Liskov"], status="withdrawn",
             abstract="Withdrawn.",
             review=review([3, 3, 1], [5, 4, 4], soundness=[1, 2, 1], presentation=[2, 2, 2])),
        _rec(f, "iclr-norev", "iclr", 2024, "An Unreviewed Graph Paper", ["Barbara Liskov"],
             status="rejected", abstract="Nobody reviewed this."),
    ]


def build_store(home: Path, index: bool = True, extra: list[Record] | None = None) -> Store:
    """A store in ``home`` holding records() and ``extra``, merged, with its search index (unless
    index=False)."""
    store = Store(home / "paperlist.db")
    by_file: dict[str, list[Record]] = {}
    for r in records() + (extra or []):
        by_file.setdefault(r.file, []).append(r)
    for file, recs in by_file.items():
        rows = [encode_record(r) for r in recs]
        sha = hashlib.sha256(file.encode()).hexdigest()
        store.replace_file_records(file, "test", file, sha, 1, rows, 0)
    merge_pending(store)
    store.refresh_authors()
    store.sync_venues()
    from paperlist.topics.build import assign_topics

    assign_topics(store, home)
    from paperlist.stats import build_stats

    build_stats(store)
    store.checkpoint()
    if index:
        from paperlist.index import fulltext

        fulltext.build(store, home)
    return store


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def html_tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Every start tag of an HTML text with its attributes, in order."""
    p = _Tags()
    p.feed(html)
    p.close()
    return p.tags


def paper_id(store: Store, key: str) -> str:
    """The merged paper id of the fixture record with this key."""
    ids = store.resolve_id(key)
    assert len(ids) == 1, (key, ids)
    return ids[0]
