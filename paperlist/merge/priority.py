"""Per-field source priority: which source a merged field comes from, most trusted first."""

from __future__ import annotations

# Per-field source priority, most trusted first. Sources not listed come last.
FIELD_PRIORITY: dict[str, tuple[str, ...]] = {
    # Titles: the wording comes from the published record ("published_title"), the spelling from
    # the source that keeps LaTeX best ("title"); see _pick_title.
    "published_title": ("acl", "mlanthology", "openreview", "papercopilot"),
    "title": ("acl", "papercopilot", "openreview", "mlanthology"),
    "venue": ("acl", "papercopilot", "openreview", "mlanthology"),
    "track": ("acl", "papercopilot", "openreview", "mlanthology"),
    "status": ("openreview", "papercopilot", "acl", "mlanthology"),
    "authors": ("acl", "mlanthology", "openreview", "papercopilot"),
    "abstract": ("acl", "openreview", "papercopilot", "mlanthology"),
    "primary_area": ("openreview", "papercopilot", "acl", "mlanthology"),
    "bibtex": ("acl", "papercopilot", "openreview", "mlanthology"),
    "tldr": ("openreview", "papercopilot", "acl", "mlanthology"),
    "summary_zh": ("openreview", "papercopilot", "acl", "mlanthology"),
    "award": ("papercopilot", "openreview", "acl", "mlanthology"),
    "links": ("acl", "papercopilot", "openreview", "mlanthology"),
    "keywords": ("openreview", "papercopilot", "acl", "mlanthology"),
    "biblio": ("acl", "mlanthology", "papercopilot", "openreview"),
}

_RANKS = {fld: {src: i for i, src in enumerate(order)} for fld, order in FIELD_PRIORITY.items()}


def _rank(fld: str, source: str) -> int:
    r = _RANKS[fld]
    return r.get(source, len(r))
