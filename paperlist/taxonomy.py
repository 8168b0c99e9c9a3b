"""The topic taxonomy: research areas and their topics, read from ``taxonomy.toml``.

Areas are level 1 (e.g. Computer vision), topics level 2 (e.g. 3D vision). Papers are assigned
topics; an area's papers are the union of its topics' papers, and a filter on an area slug
(``topic:cv``) matches every topic under it.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

ASSIGNER_VERSION = 4          # bump when evidence.py or assign.py change how scores are computed
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class Topic:
    """An area (``parent`` None) or a topic under one."""

    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None = None
    terms: tuple[str, ...] = ()
    weak: tuple[str, ...] = ()
    title: tuple[str, ...] = ()          # counted only in titles and keywords
    areas: tuple[str, ...] = ()          # primary-area substrings pointing here
    generic: bool = False                # mentioned in passing by papers about other things

    @property
    def is_area(self) -> bool:
        return self.parent is None

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def desc(self, lang: str) -> str:
        return self.desc_zh if lang == "zh" else self.desc_en


@dataclass(frozen=True, slots=True)
class Taxonomy:
    areas: tuple[Topic, ...]
    topics: tuple[Topic, ...]                       # leaves, in file order (grouped by area)
    by_slug: dict[str, Topic] = field(default_factory=dict)
    version: str = ""

    def get(self, slug: str) -> Topic | None:
        return self.by_slug.get(slug)

    def children(self, area: str) -> list[Topic]:
        return [t for t in self.topics if t.parent == area]

    def leaves(self, slug: str) -> list[str]:
        """The topic slugs a slug stands for: itself for a topic, its topics for an area."""
        t = self.by_slug.get(slug)
        if t is None:
            return []
        return [c.slug for c in self.children(slug)] if t.is_area else [slug]

    def expand(self, slugs: list[str]) -> list[str]:
        """Topic slugs for a list of topic or area slugs (unknown slugs kept: they match nothing)."""
        out: list[str] = []
        for s in slugs:
            for leaf in self.leaves(s) or [s]:
                if leaf not in out:
                    out.append(leaf)
        return out


class TaxonomyError(ValueError):
    pass


def _topic(d: dict[str, object], parent: str | None) -> Topic:
    def strs(key: str) -> tuple[str, ...]:
        v = d.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise TaxonomyError(f"{d.get('slug')}: {key} must be a list of strings")
        return tuple(v)

    try:
        return Topic(slug=str(d["slug"]), en=str(d["en"]), zh=str(d["zh"]), desc_en=str(d["desc_en"]),
                     desc_zh=str(d["desc_zh"]), parent=parent, terms=strs("terms"), weak=strs("weak"),
                     title=strs("title"), areas=strs("areas"),
                     generic=bool(d.get("generic", False)))
    except KeyError as e:
        raise TaxonomyError(f"{d.get('slug', '?')}: missing {e.args[0]}") from None


def parse(text: str) -> Taxonomy:
    """A taxonomy from TOML text, checked: unique well-formed slugs, names and descriptions in
    both languages, every topic under a known area."""
    data = tomllib.loads(text)
    areas = tuple(_topic(a, None) for a in data.get("area", []))
    area_slugs = {a.slug for a in areas}
    topics = []
    for t in data.get("topic", []):
        parent = t.get("parent")
        if parent not in area_slugs:
            raise TaxonomyError(f"{t.get('slug')}: unknown parent {parent!r}")
        topics.append(_topic(t, parent))
    by_slug: dict[str, Topic] = {}
    for t in (*areas, *topics):
        if not _SLUG.match(t.slug):
            raise TaxonomyError(f"bad slug {t.slug!r}")
        if t.slug in by_slug:
            raise TaxonomyError(f"duplicate slug {t.slug!r}")
        for attr in ("en", "zh", "desc_en", "desc_zh"):
            if not getattr(t, attr).strip():
                raise TaxonomyError(f"{t.slug}: empty {attr}")
        by_slug[t.slug] = t
    for a in areas:
        if not any(t.parent == a.slug for t in topics):
            raise TaxonomyError(f"area {a.slug} has no topics")
    version = hashlib.sha1(f"{ASSIGNER_VERSION}\n{text}".encode()).hexdigest()[:12]
    return Taxonomy(areas, tuple(topics), by_slug, version)


@lru_cache(maxsize=1)
def taxonomy() -> Taxonomy:
    """The packaged taxonomy (parsed once)."""
    return parse(resources.files("paperlist").joinpath("taxonomy.toml").read_text("utf-8"))
