"""Other forms of a query word that mean the same: its singular or plural, and the few words the
stemmer keeps apart though papers use them alike ("Generative Adversarial Nets" is the paper a
search for "generative adversarial networks" wants)."""

from __future__ import annotations

from functools import lru_cache

from ..index import analyzers

# stem -> stems searched with it (both ways); keep this list short and certain
SAME: dict[str, tuple[str, ...]] = {
    "network": ("net",),
    "net": ("network",),
}


@lru_cache(maxsize=8192)
def number_forms(word: str) -> tuple[str, ...]:
    """The word and its singular or plural, where both have the same stem ("model", "models";
    "strategy", "strategies"); the stem check keeps "news" from "new"."""
    if len(word) < 3 or not word.isalpha():
        return (word,)
    if word.endswith("ies"):
        cands = [word[:-3] + "y"]
    elif word.endswith(("ches", "shes", "xes", "sses")):
        cands = [word[:-2]]
    elif word.endswith("s") and not word.endswith("ss"):
        cands = [word[:-1]]
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        cands = [word[:-1] + "ies"]
    elif word.endswith(("ch", "sh", "x", "ss")):
        cands = [word + "es"]
    else:
        cands = [word + "s"]
    stem = analyzers.stem(word)
    return (word, *(c for c in cands if c != word and analyzers.stem(c) == stem))


def same_stems(stem: str) -> tuple[str, ...]:
    """Other stems searched as this one (see SAME)."""
    return SAME.get(stem, ())
