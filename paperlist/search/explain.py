"""How a search understood its query (a result's ``interpreted``), for display and debugging: the
words, clauses and filters it read, how many words a paper had to match, the words it completed
or corrected, the translation, the mode it ran in and why another could not. Apart from engine.py,
which runs the search: this only reads what the search's steps decided.
"""

from __future__ import annotations

from .glossary import Translation
from .model import Interpreted, InterpretedClause, SearchRequest
from .paging import Plan


def explain(req: SearchRequest, plan: Plan, tr: Translation, mode: str, note: str | None, browse: bool,
            unavailable: str | None) -> Interpreted:
    """The whole ``interpreted`` of a result: ``understood`` with the mode run (``mode``), the
    translation, whether meaning was used (``unavailable``: why vectors cannot be, or None) and
    ``note``, when the requested mode could not run."""
    out = understood(plan, browse)
    if not browse:
        out["mode"] = mode
    if tr.changed:
        out["translated"] = tr.to_dict(req.q)
    out["semantic"] = {"requested": req.mode, "used": mode != "keyword" and not browse,
                       "unavailable": unavailable}
    if note:
        out.setdefault("notes", []).append(note)
    return out


def understood(plan: Plan, browse: bool) -> Interpreted:
    """How the query was understood: ``mode`` (keyword / browse), ``words``, ``clauses`` (phrases,
    field clauses, exclusions), ``filters``, ``match`` (all / most / any) with ``required_words``,
    ``fuzzy``, ``prefix`` and ``corrected`` words, and ``notes`` (degraded syntax, unknown filter
    values)."""
    t = plan.text
    out: Interpreted = {"mode": "browse" if browse else "keyword"}
    if plan.pq.words:
        out["words"] = plan.pq.words
    clauses: list[InterpretedClause] = [
        {"text": c.text, "field": c.field or "any", "phrase": c.phrase, "exclude": c.negated}
        for c in plan.pq.clauses]
    if clauses:
        out["clauses"] = clauses
    if plan.filters.any():
        out["filters"] = plan.filters.to_dict()
    if t.fuzzy:
        out["fuzzy"] = t.fuzzy
    if t.prefixes:
        out["prefix"] = t.prefixes
    if t.corrections:
        out["corrected"] = t.corrections
    if t.clauses:
        out["match"] = t.mode
        out["required_words"] = t.required
    if plan.pq.notes:
        out["notes"] = plan.pq.notes
    return out
