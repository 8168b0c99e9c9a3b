"""Per-field source priority: which source a merged field comes from, most trusted first."""

from __future__ import annotations

# The conference programs (webconf, explorer, papercept) are the venue's own lists; ai-top-conf
# (aitopconf) lists titles and links scraped from proceedings sites, with scraping artifacts, so
# it comes after every source that has the same field; orgroups (ICML 2026 categories and
# institutions) only adds keywords and institutions.
_PROGRAMS = ("webconf", "explorer", "papercept", "navigator")
# OpenReview's own API (openreview-api) is the venue's record of an OpenReview conference: it comes
# before the community exports of it (openreview); the orals and spotlights of the virtual site
# (highlights) come next for what they have (decision, authors with affiliations).
_OR = ("openreview-api", "openreview", "highlights")

# Per-field source priority, most trusted first. Sources not listed come last.
FIELD_PRIORITY: dict[str, tuple[str, ...]] = {
    # Titles: the wording comes from the published record ("published_title"), the spelling from
    # the source that keeps LaTeX best ("title"); see _pick_title.
    "published_title": ("acl", "mlanthology", *_OR, "papercopilot", *_PROGRAMS, "aitopconf"),
    "title": ("acl", "papercopilot", *_OR, "mlanthology", *_PROGRAMS, "aitopconf"),
    "venue": ("acl", "papercopilot", *_OR, "mlanthology", *_PROGRAMS, "aitopconf"),
    "track": ("acl", "papercopilot", *_OR, "mlanthology", *_PROGRAMS, "aitopconf"),
    "status": (*_OR, "scores", "papercopilot", "acl", "mlanthology", *_PROGRAMS, "aitopconf"),
    "authors": ("acl", "mlanthology", *_OR, "papercopilot", *_PROGRAMS),
    "abstract": ("acl", *_OR, "papercopilot", "mlanthology", *_PROGRAMS),
    "primary_area": (*_OR, "papercopilot", "aitopconf", "acl", "mlanthology", *_PROGRAMS),
    "bibtex": ("acl", "papercopilot", *_OR, "mlanthology"),
    "tldr": (*_OR, "papercopilot", "acl", "mlanthology"),
    "summary_zh": (*_OR, "papercopilot", "acl", "mlanthology"),
    "award": ("papercopilot", *_OR, "acl", "mlanthology", *_PROGRAMS),
    "links": ("acl", "papercopilot", *_OR, "mlanthology", *_PROGRAMS, "aitopconf"),
    "keywords": (*_OR, "papercopilot", "acl", "mlanthology", *_PROGRAMS, "aitopconf", "orgroups"),
    "biblio": ("acl", "mlanthology", "papercopilot", *_OR, *_PROGRAMS, "aitopconf"),
    "institutions": (*_OR, "orgroups", "papercopilot", *_PROGRAMS),
    # Reviews: a source with each review's scores beats one with only their mean (see _pick_review).
    "review": ("papercopilot", "scores", *_OR),
    "countries": ("papercopilot", *_OR),
}

_RANKS = {fld: {src: i for i, src in enumerate(order)} for fld, order in FIELD_PRIORITY.items()}


def _rank(fld: str, source: str) -> int:
    r = _RANKS[fld]
    return r.get(source, len(r))
