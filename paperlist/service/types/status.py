"""How far the library's derived parts have come: search by meaning's coverage and its job."""

from __future__ import annotations

from typing import Literal, TypedDict

Unavailable = Literal["setup", "vectors", "broken"]


class EmbedJob(TypedDict):
    state: str                  # starting, embedding, publishing, topics, done, stopped, failed
    running: bool
    covered: int                # papers with a vector in the job's cache (a published generation may lag)
    papers: int
    share: float                # covered / papers
    rate: float                 # papers per second
    eta_s: float | None


class SemanticStatus(TypedDict):
    available: bool             # search by meaning and vector neighbours can run now
    unavailable: Unavailable | None     # why not: set up without it, no vectors yet, unreadable
    model: str | None           # the live generation's model
    generation: str | None
    papers: int
    covered: int                # papers with a vector in the live generation (what search uses)
    share: float                # covered / papers
    job: EmbedJob | None        # the background job, when one has run here
