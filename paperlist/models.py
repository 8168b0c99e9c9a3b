"""The types every layer shares: a source Record, a merged Paper, their Authors and Links.

A *Record* is one paper as one source file describes it, already normalized (canonical venue,
status, links, author keys). A *Paper* is one real paper: the merge of every Record that
describes it, with the provenance of each field.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

# Canonical statuses. Everything a source says maps onto one of these (or None = unknown).
ACCEPTED_STATUSES = ("oral", "spotlight", "highlight", "poster", "accepted")
REJECTED_STATUSES = ("rejected", "withdrawn", "desk-rejected")
# Not decided yet: a submission under review (ICLR's next year on OpenReview in the autumn).
PENDING_STATUSES = ("under-review",)
STATUSES = ACCEPTED_STATUSES + REJECTED_STATUSES + PENDING_STATUSES

# Link kinds, in the order a paper page lists them.
LINK_KINDS = (
    "pdf", "site", "openreview", "oa", "proceedings", "arxiv", "doi", "code", "project",
    "supplementary", "video", "slides", "poster", "reviews",
)


def is_accepted(status: str | None) -> bool:
    """A paper counts as accepted unless a source says it was rejected or withdrawn, or that it is
    still under review."""
    return status not in REJECTED_STATUSES and status not in PENDING_STATUSES


@dataclass(slots=True)
class Author:
    name: str                      # display form, e.g. "Zhi-Hua Zhou"
    key: str                       # stable normalized key, e.g. "zhihua-zhou"
    affiliation: str | None = None
    orcid: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "key": self.key}
        if self.affiliation is not None:
            d["affiliation"] = self.affiliation
        if self.orcid is not None:
            d["orcid"] = self.orcid
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Author:
        return cls(d["name"], d["key"], d.get("affiliation"), d.get("orcid"))


@dataclass(slots=True)
class Review:
    """What a paper's reviewers said, as one source gives it.

    ``ratings`` and ``confidences`` are the reviews' scores in the source's order; ``dims`` the
    other score dimensions a source gives per review (soundness, presentation, correctness,
    novelty …). ``mean`` is computed from ``ratings`` when the list is there; only a source that
    gives no list but a mean (ICLR 2026's export) sets it directly (``from_mean``). ``count`` is
    the number of ratings. ``as_of`` is the date of a snapshot taken while reviews could still
    change (before decisions: "scores as of 2025-11-22"); None for final scores. Unknown is None,
    never 0.
    """

    ratings: list[float] = field(default_factory=list)
    confidences: list[float] = field(default_factory=list)
    dims: dict[str, list[float]] = field(default_factory=dict)
    mean: float | None = None
    confidence_mean: float | None = None
    count: int | None = None
    from_mean: bool = False
    as_of: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"ratings": self.ratings, "confidences": self.confidences, "dims": self.dims,
                             "mean": self.mean, "confidence_mean": self.confidence_mean, "count": self.count}
        if self.from_mean:
            d["from_mean"] = True
        if self.as_of:
            d["as_of"] = self.as_of
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Review:
        return cls(ratings=list(d.get("ratings") or []), confidences=list(d.get("confidences") or []),
                   dims={k: list(v) for k, v in (d.get("dims") or {}).items()}, mean=d.get("mean"),
                   confidence_mean=d.get("confidence_mean"), count=d.get("count"),
                   from_mean=bool(d.get("from_mean")), as_of=d.get("as_of"))


@dataclass(slots=True)
class Record:
    """One paper as one source file describes it, normalized."""

    source: str                    # "papercopilot", "mlanthology", "acl", "openreview"
    file: str                      # file key, e.g. "papercopilot/nips/nips2018.json"
    key: str                       # unique within the file
    venue: str                     # canonical venue key, e.g. "neurips", "findings-acl"
    year: int
    title: str                     # display form (may hold LaTeX / markdown)
    authors: list[Author] = field(default_factory=list)
    abstract: str | None = None
    track: str | None = None
    status: str | None = None      # one of STATUSES or None when the source does not say
    keywords: list[str] = field(default_factory=list)
    primary_area: str | None = None
    links: dict[str, str] = field(default_factory=dict)   # kind -> url
    ids: dict[str, str] = field(default_factory=dict)     # doi / arxiv / openreview / acl -> id
    citations: int | None = None
    citations_as_of: str | None = None   # the day the count was read (YYYY-MM-DD), where the source says
    bibtex: str | None = None
    tldr: str | None = None
    summary_zh: str | None = None
    award: str | None = None
    # bibkey, booktitle, journal, volume, pages, publisher ...
    biblio: dict[str, str] = field(default_factory=dict)
    institutions: list[str] = field(default_factory=list)  # the authors' institutions, not tied to one author
    annotation: bool = False       # only adds facts to the paper its ids name; never a paper of its own
    review: Review | None = None   # review scores, where the source has them
    countries: list[str] = field(default_factory=list)     # the authors' countries (the source's list)
    # the source lists every public submission of its venue-year (a census): a paper it lists that no
    # source says was accepted was not (its status is inferred: "rejected")
    census: bool = False
    # the source lists the authors in alphabetical order, not the paper's (ICLR 2025's decisions CSV)
    authors_sorted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)   # source fields we do not model

    def to_dict(self) -> dict[str, Any]:
        """A shallow dict (values are shared, not copied: this runs once per record on ingest)."""
        d = {f: getattr(self, f) for f in _RECORD_FIELDS}
        d["authors"] = [a.to_dict() for a in self.authors]
        if self.review is not None:
            d["review"] = self.review.to_dict()
        # fields added later are written only when set, so older records keep their stored hash
        for f in _LATER_RECORD_FIELDS:
            if not d[f]:
                del d[f]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Record:
        d = dict(d)
        d["authors"] = [Author.from_dict(a) for a in d.get("authors", [])]
        if d.get("review") is not None:
            d["review"] = Review.from_dict(d["review"])
        return cls(**d)


@dataclass(slots=True)
class Paper:
    """One real paper: the merge of every Record that describes it."""

    id: str
    venue: str
    year: int
    title: str
    title_plain: str
    authors: list[Author] = field(default_factory=list)
    abstract: str | None = None
    abstract_plain: str | None = None
    track: str | None = None
    status: str | None = None
    accepted: bool = True
    keywords: list[str] = field(default_factory=list)
    primary_area: str | None = None
    links: list[tuple[str, str]] = field(default_factory=list)   # (kind, url), unioned
    ids: dict[str, str] = field(default_factory=dict)
    citations: int | None = None
    bibtex: str | None = None
    tldr: str | None = None
    summary_zh: str | None = None
    award: str | None = None
    biblio: dict[str, str] = field(default_factory=dict)         # unioned by field priority
    institutions: list[str] = field(default_factory=list)        # not tied to authors; unioned
    review: Review | None = None                                 # from one source (provenance "review")
    countries: list[str] = field(default_factory=list)           # unioned
    sources: list[str] = field(default_factory=list)             # record refs "source:file#key"
    # field -> "source:file"; "author_order": "alphabetical" when the only authors known are a source's
    # alphabetical list (the paper's order is not known); "status": "inferred:<file>" (merge.fields);
    # "citations": the file of the count, "citations_as_of": the day it was read, where known
    provenance: dict[str, str] = field(default_factory=dict)

    @property
    def author_order_known(self) -> bool:
        return self.provenance.get("author_order") != "alphabetical"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d = {f: getattr(self, f) for f in _PAPER_FIELDS}
        d["authors"] = [a.to_dict() for a in self.authors]
        d["links"] = [list(x) for x in self.links]
        d["review"] = self.review.to_dict() if self.review is not None else None
        return d


_RECORD_FIELDS = tuple(f.name for f in fields(Record))
_LATER_RECORD_FIELDS = ("institutions", "annotation", "review", "countries", "census", "authors_sorted",
                        "citations_as_of")
_PAPER_FIELDS = tuple(f.name for f in fields(Paper))
