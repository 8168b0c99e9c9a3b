"""The shapes of what the service returns: plain dicts (sent as they are with orjson: no model is
built per response), typed here so that every layer that reads them is checked.

They are the JSON API's representations; ``web/api_models`` documents the same fields for the
OpenAPI document, and a test checks that the two agree.

One module per resource, as ``web/api_models``: ``common`` (format links, author and venue
references, a paper in a list, links, pagination), ``papers``, ``search``, ``venues`` (venues,
venue-years, coverage, stats), ``topics``, ``authors`` and ``reviews``. Every type is re-exported here.
"""

from .authors import AuthorDetail, AuthorGroup, AuthorVenue, Coauthor
from .common import AuthorRef, ExternalId, FormatLinks, Link, Pagination, PaperAuthor, PaperSummary, VenueRef
from .lists import (
    ImportReport,
    ListEntry,
    ListLimits,
    ListShelf,
    ReadingList,
    ReadingListInfo,
    SeenMarks,
    StarredPapers,
)
from .papers import CiteText, CuratedList, PaperDetail, PaperFields, PaperVenue, SimilarPaper, SimilarPapers
from .resolve import DuplicateGroup, ResolveCounts, ResolvedEntry, ResolvedPaper, ResolveReport
from .reviews import ConferenceStats, ReviewPlace, ReviewScores
from .search import EmptyReason, Facets, FacetValue, OtherVersion, SearchHit, SearchQuery, SearchResponse
from .status import EmbedJob, SemanticStatus
from .topics import (
    TopicArea,
    TopicDetail,
    TopicFilters,
    TopicList,
    TopicPaper,
    TopicRef,
    TopicSummary,
    VenueYearCount,
)
from .venues import (
    CountLink,
    Coverage,
    CoverageRow,
    CoverageSource,
    FeaturedProceedings,
    LatestProceedings,
    ListFilters,
    Stats,
    VenueDetail,
    VenueInfo,
    VenueList,
    VenueStatsRow,
    VenueSummary,
    VenueYearList,
    VenueYearRow,
    YearCoverage,
    YearSource,
)

__all__ = [
    "DuplicateGroup", "ResolveCounts", "ResolveReport", "ResolvedEntry", "ResolvedPaper",
    "ImportReport", "StarredPapers", "ListEntry", "ListLimits", "ListShelf", "ReadingList",
    "ReadingListInfo", "SeenMarks",
    "CiteText", "CuratedList",
    "EmbedJob", "SemanticStatus",
    "ConferenceStats", "ReviewPlace", "ReviewScores", "VenueStatsRow",
    "AuthorDetail",
    "AuthorGroup",
    "AuthorRef",
    "AuthorVenue",
    "Coauthor",
    "CountLink",
    "Coverage",
    "CoverageRow",
    "CoverageSource",
    "ExternalId",
    "FacetValue",
    "Facets",
    "FormatLinks",
    "FeaturedProceedings",
    "LatestProceedings",
    "Link",
    "ListFilters",
    "Pagination",
    "PaperAuthor",
    "PaperDetail",
    "PaperFields",
    "PaperSummary",
    "PaperVenue",
    "EmptyReason",
    "OtherVersion",
    "SearchHit",
    "SearchQuery",
    "SearchResponse",
    "SimilarPaper",
    "SimilarPapers",
    "Stats",
    "TopicArea",
    "TopicDetail",
    "TopicFilters",
    "TopicList",
    "TopicPaper",
    "TopicRef",
    "TopicSummary",
    "VenueDetail",
    "VenueInfo",
    "VenueList",
    "VenueRef",
    "VenueSummary",
    "VenueYearCount",
    "VenueYearList",
    "VenueYearRow",
    "YearCoverage",
    "YearSource",
]
