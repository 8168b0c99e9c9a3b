"""Names the pages show for the model's codes (statuses, link kinds, venue kinds, sorts), marked
for translation; templates translate them with ``_(label)``."""

from __future__ import annotations

from ..service.errors import N_
from ..service.papers import LINK_LABELS

STATUS = {
    "oral": N_("Oral"),
    "spotlight": N_("Spotlight"),
    "highlight": N_("Highlight"),
    "poster": N_("Poster"),
    "accepted": N_("Accepted"),
    "rejected": N_("Rejected"),
    "withdrawn": N_("Withdrawn"),
    "desk-rejected": N_("Desk rejected"),
    "under-review": N_("Under review"),
    "unknown": N_("Status unknown"),
}

LINK = LINK_LABELS           # the link kinds (their names live with the paper resource)

# Which decisions a conference-year list shows (service.requests.DECISIONS).
DECISION = {
    "accepted": N_("Accepted papers"),
    "not-accepted": N_("Rejected or withdrawn"),
    "all": N_("All listed"),
}

# How a conference-year list may be ordered (service.requests.LIST_SORTS).
LIST_SORT = {
    "decision": N_("Decision"),
    "title": N_("Title"),
    "rating": N_("Rating"),
}

KIND = {
    "conference": N_("Conferences"),
    "journal": N_("Journals"),
    "workshop": N_("Workshops"),
}

SORT = {
    "relevance": N_("Relevance"),
    "newest": N_("Newest"),
    "oldest": N_("Oldest"),
    "title": N_("Title"),
    "citations": N_("Citations"),
    "rating": N_("Rating"),
    "listed": N_("Most listed"),
}

FACET = {
    "venue": N_("Venue"),
    "year": N_("Year"),
    "status": N_("Status"),
    "topic": N_("Topic"),
    "track": N_("Track"),
}


def status_key(status: str | None) -> str:
    """The label key of a status (None -> "unknown")."""
    return status if status in STATUS else "unknown"

# The stacked series of a venue's chart (charts.SERIES names).
SERIES = {
    "oral": N_("Oral"),
    "spotlight": N_("Spotlight / highlight"),
    "accepted": N_("Other accepted"),
}

# Review score dimensions besides rating and confidence, as sources name them.
DIMENSION = {
    "soundness": N_("Soundness"),
    "presentation": N_("Presentation"),
    "contribution": N_("Contribution"),
    "correctness": N_("Correctness"),
    "technical_novelty": N_("Technical novelty"),
    "empirical_novelty": N_("Empirical novelty"),
    "novelty": N_("Novelty"),
    "originality": N_("Originality"),
    "clarity": N_("Clarity"),
    "significance": N_("Significance"),
    "quality": N_("Quality"),
    "technical_quality": N_("Technical quality"),
    "excitement": N_("Excitement"),
    "reproducibility": N_("Reproducibility"),
    "scope": N_("Scope"),
    "limitations": N_("Limitations"),
    "strengths": N_("Strengths"),
    "suitability": N_("Suitability"),
}


def dimension_label(key: str) -> str:
    """The name of a score dimension (a label code the templates translate; an unknown key as
    words: "ethics_flag" -> "Ethics flag")."""
    return DIMENSION.get(key) or key.replace("_", " ").strip().capitalize()
