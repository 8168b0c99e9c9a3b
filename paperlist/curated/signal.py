"""What the lists that include a paper tell the ranking: how many (damped), and the headings above
it, which the index searches as the ``listed`` field (index/fulltext.py, search/proximity.py).

A list counts 1, less when it is large (a list of 4,000 entries is less of a choice than one of
200: sqrt(FULL_UNTIL / entries)), and a whole-conference dump DUMP_WEIGHT; the paper's ``listed``
is the sum over distinct lists. Its headings are those of its curated lists (not of dumps, whose
headings are conference names or the paper's title).

``PAPERLIST_CURATED`` (read when the index is built) is for evaluation: "all" (the default), "off"
(no list counts), or "heldout" (the lists chosen by ``held_out``, one in five by a hash of the name
fixed before any result was seen, are left out, so that an evaluation shows the signal
generalising to lists it did not see)."""

from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

MIN_AGREE = 2            # lists that must put a paper under a phrase for it to be the paper's topic
MAX_KEY_WORDS = 4
FULL_UNTIL = 1500        # entries: a list up to this size counts 1
DUMP_WEIGHT = 0.1
MODES = ("all", "off", "heldout")


def mode() -> str:
    m = os.environ.get("PAPERLIST_CURATED", "all").strip().lower() or "all"
    return m if m in MODES else "all"


def held_out(name: str) -> bool:
    """One list in five, by its name alone."""
    return int(hashlib.sha1(name.encode()).hexdigest(), 16) % 5 == 0


def weight(info: dict[str, Any] | None) -> float:
    """What one list counts (see the module doc)."""
    if not info:
        return 1.0
    if info.get("kind") == "dump":
        return DUMP_WEIGHT
    n = int(info.get("entries") or 0)
    return 1.0 if n <= FULL_UNTIL else math.sqrt(FULL_UNTIL / n)


@dataclass(slots=True)
class Listed:
    """A paper's part of the signal."""

    count: float                     # damped number of lists
    lists: int                       # distinct lists
    headings: list[str]              # per curated list: its topic, name and the headings above the paper
    topics: list[str] = field(default_factory=list)    # phrase keys that MIN_AGREE of those lists share


_NAME_NOISE = re.compile(r"(?i)\b(awesome|papers?|list|reading|must|read|collection|survey|resources?|and|of|"
                         r"the|for|with|on|in|a)\b")


def name_words(name: str) -> str:
    """A list's repository name as words of a topic: "chaoyanghe/Awesome-Federated-Learning" ->
    "Federated Learning"."""
    repo = name.rsplit("/", 1)[-1]
    words = re.sub(r"[-_.+]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", repo)
    return " ".join(_NAME_NOISE.sub(" ", words).split())


class Signal:
    """The lists' descriptions and the evaluation mode, applied to a paper's lists."""

    def __init__(self, lists: dict[str, dict[str, Any]], which: str | None = None,
                 words: Callable[[str], list[str]] | None = None) -> None:
        self.lists = lists
        self.mode = which or mode()
        self.words = words            # a heading's content words as the index stems them

    def counted(self, name: str) -> bool:
        return self.mode == "all" or (self.mode == "heldout" and not held_out(name))

    def of(self, memberships: Iterable[tuple[str, dict[str, Any]]]) -> Listed:
        """One ``headings`` value per curated list (so that a phrase's frequency counts lists):
        its topic tag, its name's words and the headings above the paper."""
        count, n, heads = 0.0, 0, []
        for name, row in memberships:
            if not self.counted(name):
                continue
            info = self.lists.get(name) or {}
            count += weight(info)
            n += 1
            if info.get("kind") == "dump":
                continue
            parts = [str(info.get("topic") or "").replace("-", " ").replace("/", " "), name_words(name)]
            for chain in row.get("headings", []):
                parts += chain
            heads.append(" ; ".join(dict.fromkeys(p for p in parts if p)))
        return Listed(round(count, 3), n, heads, topic_keys(heads, self.words) if self.words else [])


def topic_keys(texts: list[str], words: Callable[[str], list[str]]) -> list[str]:
    """The phrases (1 to MAX_KEY_WORDS content words in a row, as phrase keys "context learn") that
    at least MIN_AGREE of the texts (one per list) have: what several curated lists agree the paper
    is about. Each heading is its own run of words (a phrase never spans two headings)."""
    seen: dict[str, int] = {}
    for text in texts:
        keys: set[str] = set()
        for heading in text.split(" ; "):
            ws = words(heading)
            for i in range(len(ws)):
                for j in range(i + 1, min(len(ws), i + MAX_KEY_WORDS) + 1):
                    keys.add(" ".join(ws[i:j]))
        for k in keys:
            seen[k] = seen.get(k, 0) + 1
    return sorted(k for k, n in seen.items() if n >= MIN_AGREE)
