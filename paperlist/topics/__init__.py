"""Topics: the curated taxonomy (taxonomy.toml), assigning 1-3 topics to every paper (a paper's
evidence per topic: evidence.py; the pipeline that adds probes and vectors: assign.py), and topic
statistics for pages and the API (stats.py)."""

from __future__ import annotations

from ..taxonomy import Taxonomy, TaxonomyError, Topic, taxonomy

__all__ = ["Taxonomy", "TaxonomyError", "Topic", "taxonomy"]
