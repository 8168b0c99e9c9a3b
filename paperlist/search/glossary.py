"""Chinese queries: AI terms translated to English with our glossary (glossary.tsv).

The corpus is English, so ``扩散模型 图像编辑`` is searched as ``diffusion model image editing``.
Traditional characters are folded to simplified first (擴散模型 = 扩散模型), full-width forms to
ASCII; each run of Chinese characters is then translated greedily, longest glossary entry first
(大语言模型 before 语言模型 before 模型). Latin text is kept as typed, so mixed queries such as
``Transformer 剪枝`` work. Field values (``author:张伟``) are left alone. Characters no entry
covers are searched as the English that the papers' Chinese summaries teach (``index.bridge``,
shown as a guess) when they give enough evidence; otherwise they are dropped and reported, never
silently searched as noise.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ..text import to_simplified_chinese as to_simplified
from .model import Translated, TranslatedTerm

# Chinese (simplified) -> (English, summaries it was learned from), or None (the engine gives
# index.bridge.Bridge.learn, told which glossary entries contain a word: ``containing``)
Learn = Callable[[str], "tuple[str, int] | None"]
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_FIELD_VALUE = re.compile(r"[A-Za-z_]+:(?:\"[^\"]*\"?|\S+)")
_PUNCT = str.maketrans({"，": " ", "。": " ", "、": " ", "；": " ", "：": ":", "（": " ", "）": " ",
                        "？": " ", "！": " ", "“": '"', "”": '"', "《": " ", "》": " ", "·": " "})


@dataclass(slots=True)
class Translation:
    query: str                                   # what is searched
    # (Chinese as typed, English, 0 for a glossary entry or the number of Chinese summaries the
    # English was learned from)
    terms: list[tuple[str, str, int]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)             # Chinese runs no entry covered
    # papers whose Chinese summary has an unknown word, shown (with their neighbours) when nothing
    # else was left to search (search.seeds)
    seeded: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.terms or self.unknown)

    def to_dict(self, original: str) -> Translated:
        terms: list[TranslatedTerm] = [{"zh": z, "en": e, "learned": n > 0, "summaries": n}
                                       for z, e, n in self.terms]
        return {"from": original, "to": self.query, "terms": terms, "unknown": self.unknown,
                "seeded": self.seeded}


@lru_cache(maxsize=1)
def glossary() -> dict[str, str]:
    """Simplified Chinese term -> English words ('' = drop), from glossary.tsv."""
    out: dict[str, str] = {}
    text = resources.files("paperlist.search").joinpath("glossary.tsv").read_text("utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        zh, _, en = line.partition("\t")
        out[to_simplified(zh.strip())] = en.strip()
    return out


@lru_cache(maxsize=4096)
def containing(zh: str) -> tuple[str, ...]:
    """The glossary entries longer than ``zh`` in which it is not a word of its own, so that a
    text with the entry says nothing about ``zh``: 强化学习 (强 + 化学 + 习) for 化学, but not
    三维重建 (三维 + 重建) for 重建, whose other part is an entry too."""
    gl = glossary()
    out = []
    for k in gl:
        if len(k) > len(zh) and zh in k:
            for o in range(len(k) - len(zh) + 1):
                pre, suf = k[:o], k[o + len(zh):]
                if k.startswith(zh, o) and not ((not pre or pre in gl) and (not suf or suf in gl)):
                    out.append(k)
                    break
    return tuple(out)


@lru_cache(maxsize=1)
def _max_len() -> int:
    return max(len(k) for k in glossary())


def has_chinese(text: str) -> bool:
    return bool(_CJK.search(text or ""))


def translate(q: str, learn: Learn | None = None) -> Translation:
    """The query with its Chinese terms in English (unchanged when it has no Chinese). Chinese
    that no entry covers is passed to ``learn`` (simplified), which may give its English and the
    number of summaries that taught it, or None; without an answer it is reported unknown."""
    if not has_chinese(q):
        return Translation(q)
    norm = unicodedata.normalize("NFKC", q.translate(_PUNCT))
    out = Translation("")
    parts: list[str] = []
    pos = 0
    for m in _FIELD_VALUE.finditer(norm):           # field values are kept verbatim
        parts.append(_translate_text(norm[pos:m.start()], out, learn))
        parts.append(f" {m.group(0)} ")
        pos = m.end()
    parts.append(_translate_text(norm[pos:], out, learn))
    out.query = " ".join("".join(parts).split())
    return out


def _translate_text(text: str, out: Translation, learn: Learn | None) -> str:
    def run(m: re.Match[str]) -> str:
        en = _translate_run(m.group(0), out, learn)
        # a space only where the neighbour is a word: `-综述` -> `-survey`,
        # `"对比学习"` -> `"contrastive learning"`
        before = " " if m.start() > 0 and text[m.start() - 1].isalnum() else ""
        after = " " if m.end() < len(text) and text[m.end()].isalnum() else ""
        return before + en + after
    return _CJK.sub(run, text)


def _translate_run(typed: str, out: Translation, learn: Learn | None) -> str:
    """Greedy longest-match translation of one run of Chinese characters; a stretch no entry
    covers is asked of ``learn`` (words learned from the papers' Chinese summaries)."""
    gl = glossary()
    s = to_simplified(typed)
    words: list[str] = []
    start = -1                    # where the uncovered stretch began

    def uncovered(end: int) -> None:
        piece = typed[start:end]
        guess = learn(s[start:end]) if learn is not None else None
        if guess is None:
            out.unknown.append(piece)
        else:
            words.append(guess[0])
            out.terms.append((piece, guess[0], guess[1]))

    i = 0
    while i < len(s):
        for n in range(min(_max_len(), len(s) - i), 0, -1):
            en = gl.get(s[i:i + n])
            if en is not None:
                if start >= 0:
                    uncovered(i)
                    start = -1
                if en:
                    words.append(en)
                    out.terms.append((typed[i:i + n], en, 0))
                i += n
                break
        else:
            if start < 0:
                start = i
            i += 1
    if start >= 0:
        uncovered(len(s))
    return " ".join(words)
