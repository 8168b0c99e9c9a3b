"""Per-field source priority: which source a merged field comes from, most trusted first."""

from __future__ import annotations

# The conference programs (webconf, explorer, papercept) are the venue's own lists; ai-top-conf
# (aitopconf) lists titles and links scraped from proceedings sites, with scraping artifacts, so
# it comes after every source that has the same field; orgroups (ICML 2026 categories and
# institutions) only adds keywords and institutions.
_PROGRAMS = ("webconf", "explorer", "papercept")

# Per-field source priority, most trusted first. Sources not listed come last.
FIELD_PRIORITY: dict[str, tuple[str, ...]] = {
    # Titles: the wording comes from the published record ("published_title"), the spelling from
    # the source that keeps LaTeX best ("title"); see _pick_title.
    "published_title": ("acl", "mlanthology", "openreview", "papercopilot", *_PROGRAMS, "aitopconf"),
    "title": ("acl", "papercopilot", "openreview", "mlanthology", *_PROGRAMS, "aitopconf"),
    "venue": ("acl", "papercopilot", "openreview", "mlanthology", *_PROGRAMS, "aitopconf"),
    "track": ("acl", "papercopilot", "openreview", "mlanthology", *_PROGRAMS, "aitopconf"),
    "status": ("openreview", "papercopilot", "acl", "mlanthology", *_PROGRAMS, "aitopconf"),
    "authors": ("acl", "mlanthology", "openreview", "papercopilot", *_PROGRAMS),
    "abstract": ("acl", "openreview", "papercopilot", "mlanthology", *_PROGRAMS),
    "primary_area": ("openreview", "papercopilot", "aitopconf", "acl", "mlanthology", *_PROGRAMS),
    "bibtex": ("acl", "papercopilot", "openreview", "mlanthology"),
    "tldr": ("openreview", "papercopilot", "acl", "mlanthology"),
    "summary_zh": ("openreview", "papercopilot", "acl", "mlanthology"),
    "award": ("papercopilot", "openreview", "acl", "mlanthology", *_PROGRAMS),
    "links": ("acl", "papercopilot", "openreview", "mlanthology", *_PROGRAMS, "aitopconf"),
    "keywords": ("openreview", "papercopilot", "acl", "mlanthology", *_PROGRAMS, "aitopconf", "orgroups"),
    "biblio": ("acl", "mlanthology", "papercopilot", "openreview", *_PROGRAMS, "aitopconf"),
    "institutions": ("openreview", "orgroups", "papercopilot", *_PROGRAMS),
    # Reviews: a source with each review's scores beats one with only their mean (see _pick_review).
    "review": ("papercopilot", "openreview"),
    "countries": ("papercopilot", "openreview"),
}

_RANKS = {fld: {src: i for i, src in enumerate(order)} for fld, order in FIELD_PRIORITY.items()}


def _rank(fld: str, source: str) -> int:
    r = _RANKS[fld]
    return r.get(source, len(r))
