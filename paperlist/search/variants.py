"""Other forms of a query word that mean the same: its singular or plural, and the few words the
stemmer keeps apart though papers use them alike ("Generative Adversarial Nets" is the paper a
search for "generative adversarial networks" wants)."""

from __future__ import annotations

from ..index.analyzers import ALIKE, number_forms

__all__ = ["SAME", "number_forms", "same_stems"]

# stem -> stems searched with it (both ways): analyzers.ALIKE, short and certain
SAME: dict[str, tuple[str, ...]] = {
    **{a: (b,) for a, b in ALIKE.items()}, **{b: (a,) for a, b in ALIKE.items()}}


def same_stems(stem: str) -> tuple[str, ...]:
    """Other stems searched as this one (see SAME)."""
    return SAME.get(stem, ())
