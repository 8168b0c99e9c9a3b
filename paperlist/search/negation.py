"""Negations: a spelling correction must never add or remove one."""

from __future__ import annotations

# Words that negate: a correction must never add or remove one ("llm cant self correct" is not
# "llm can self correct"), so a word is never corrected into or out of this set.
NEGATIONS = frozenset({
    "not", "no", "nor", "never", "neither", "none", "non", "without", "cannot", "cant", "dont", "doesnt",
    "didnt", "isnt", "arent", "wasnt", "werent", "wont", "wouldnt", "shouldnt", "couldnt", "hasnt",
    "havent", "hadnt", "aint",
})


def keeps_meaning(word: str, fix: str) -> bool:
    """Whether correcting ``word`` to ``fix`` keeps the query's sense: a negation is never
    corrected (cant -> can, dont -> don), and a short word never becomes one (nit -> not); a
    longer misspelling of one still is ("wihtout" -> "without")."""
    w, f = word.lower().replace("'", ""), fix.lower().replace("'", "")
    return w not in NEGATIONS and (f not in NEGATIONS or len(w) >= 5)
