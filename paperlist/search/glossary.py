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

from ..text import HAN
from ..text import to_simplified_chinese as to_simplified
from .model import Translated, TranslatedTerm

# Chinese (simplified) -> (English, summaries it was learned from), or None (the engine gives
# index.bridge.Bridge.learn, told which glossary entries contain a word: ``containing``)
Learn = Callable[[str], "tuple[str, int] | None"]
_CJK = re.compile(f"[{HAN}]+")
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


@lru_cache(maxsize=1)
def _mixed() -> re.Pattern[str] | None:
    """The entries that mix Chinese and Latin (文本到sql, 3d重建), longest first, matched in any
    case: a run of Chinese characters never holds them."""
    keys = sorted((k for k in glossary() if _CJK.search(k) and re.search(r"[0-9a-z]", k)),
                  key=len, reverse=True)
    return re.compile("|".join(map(re.escape, keys)), re.IGNORECASE) if keys else None


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
    mixed = _mixed()
    if mixed is not None:
        text = mixed.sub(lambda m: _spaced(text, m, _mixed_entry(m.group(0), out)), text)

    def run(m: re.Match[str]) -> str:
        return _spaced(text, m, _translate_run(m.group(0), out, learn))
    return _CJK.sub(run, text)


def _spaced(text: str, m: re.Match[str], en: str) -> str:
    """``en`` in place of the match, with a space only where the neighbour is a word: `-综述` ->
    `-survey`, `"对比学习"` -> `"contrastive learning"`."""
    before = " " if m.start() > 0 and text[m.start() - 1].isalnum() else ""
    after = " " if m.end() < len(text) and text[m.end()].isalnum() else ""
    return before + en + after


def _mixed_entry(typed: str, out: Translation) -> str:
    en = glossary()[to_simplified(typed).lower()]
    if en:
        out.terms.append((typed, en, 0))
    return en


def _translate_run(typed: str, out: Translation, learn: Learn | None) -> str:
    """Greedy longest-match translation of one run of Chinese characters; a stretch no entry
    covers is asked of ``learn`` (words learned from the papers' Chinese summaries), first
    together with the entries next to it: 奖励黑客 is "reward hacking", not 奖励 "reward" and 黑客."""
    s = to_simplified(typed)
    pieces = _pieces(s)
    words: list[str] = []
    k = 0
    while k < len(pieces):
        a, b, en = pieces[k]
        if en is not None:
            if en:
                words.append(en)
                out.terms.append((typed[a:b], en, 0))
            k += 1
            continue
        found = _learned(s, pieces, k, learn) if learn is not None else None
        if found is None:
            out.unknown.append(typed[a:b])
            k += 1
            continue
        (lo, hi), guess = found
        for _ in range(lo, k):   # the entries before are part of the learned word: take them back
            words.pop()
            out.terms.pop()
        words.append(guess[0])
        out.terms.append((typed[pieces[lo][0]:pieces[hi][1]], guess[0], guess[1]))
        k = hi + 1
    return " ".join(words)


def _pieces(s: str) -> list[tuple[int, int, str | None]]:
    """The run ``s`` (simplified) cut greedily into glossary entries (start, end, English) and
    the stretches no entry covers (English None)."""
    gl = glossary()
    pieces: list[tuple[int, int, str | None]] = []
    i = 0
    while i < len(s):
        for n in range(min(_max_len(), len(s) - i), 0, -1):
            en = gl.get(s[i:i + n])
            if en is not None:
                pieces.append((i, i + n, en))
                i += n
                break
        else:
            if pieces and pieces[-1][2] is None:
                pieces[-1] = (pieces[-1][0], i + 1, None)
            else:
                pieces.append((i, i + 1, None))
            i += 1
    return pieces


def _learned(s: str, pieces: list[tuple[int, int, str | None]], k: int,
             learn: Learn) -> tuple[tuple[int, int], tuple[str, int]] | None:
    """What ``learn`` knows of the uncovered piece ``k``: the pieces it spans (lo, hi) and its
    English with the summaries that taught it; None when it knows nothing of it."""
    # with the pieces around it (up to two more: 向量 + 数据 + 库 is 向量数据库), the
    # longest that the summaries know first; never across a dropped word (的, 基于)
    spans = sorted(((lo, hi) for lo in range(k - 2, k + 1) for hi in range(k, k + 3)
                    if 0 <= lo and hi < len(pieces) and hi - lo <= 2
                    and all(pieces[j][2] != "" for j in range(lo, hi + 1))),
                   key=lambda sp: (sp[0] - sp[1], sp[0]))
    for lo, hi in spans:
        if lo < k and any(pieces[j][2] is None for j in range(lo, k)):
            continue            # an uncovered stretch before was left unknown: keep it so
        guess = learn(s[pieces[lo][0]:pieces[hi][1]])
        if guess is not None:
            return (lo, hi), guess
    return None
