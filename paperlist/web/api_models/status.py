"""Search by meaning's state: coverage of the live vectors and the background job."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Model


class EmbedJob(Model):
    state: str = Field(description="starting, embedding, publishing, topics, done, stopped or failed.")
    running: bool
    covered: int = Field(description="Papers the job has embedded so far (published in steps).")
    papers: int
    share: float = Field(description="covered / papers, 0 to 1.")
    rate: float = Field(description="Papers embedded per second by the job.")
    eta_s: float | None = Field(description="Seconds of embedding left, when known.")


class SemanticStatus(Model):
    available: bool = Field(description="Search by meaning (mode=semantic, hybrid) and similar papers "
                                        "by vector can run now.")
    unavailable: Literal["setup", "vectors", "broken"] | None = Field(
        description="Why not: the server was set up without it, no paper vectors yet, or unreadable.")
    model: str | None = Field(description="The model of the live vectors (vectors of two models never mix).")
    generation: str | None
    papers: int
    covered: int = Field(description="Papers with a vector that search uses now (newest papers first).")
    share: float = Field(description="covered / papers, 0 to 1.")
    job: EmbedJob | None = Field(description="The background embedding job, when one has run here.")
