"""Chinese words our glossary lacks, learned from the papers that have a Chinese summary.

A source gives some papers a Chinese summary beside their English title and abstract (the ICLR
2026 export: 4,241 papers once the summaries' template lines are left out). That is a bilingual
corpus about exactly our subject. For a Chinese word the glossary does not know
(``search.glossary`` asks ``Bridge.learn``), the English word or two- or three-word phrase most
associated with it is the one whose papers overlap most with the papers whose summary contains
the word: Dunning's log-likelihood ratio (G²) of the 2×2 table "summary has the Chinese word" ×
"English text has the term", over these papers only, with an overlap floor (see ``_guess``).
遥感 gives "remote sensing", 奖励黑客 "reward hacking"; the glossary's own entries, hidden from
it, are recovered at the rates ``benchmarks/bridge_eval.py`` measures.

Built with each index generation (``write``, into ``<generation>/zh_bridge``: the summaries'
Chinese text, one line per paper, and a paper × term matrix), read lazily by the searcher
(``Bridge``). A guess needs evidence: at least ``MIN_PAPERS`` summaries with the word and
``MIN_SHARED`` of them with the term, and a ratio that chance would give once in ~10⁵ tables; the
searcher shows every guess as one, so a wrong one can be seen and corrected.
"""

from __future__ import annotations

import bisect
import itertools
import logging
import re
import threading
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..text import HAN, to_simplified_chinese
from .analyzers import STOP_WORDS

log = logging.getLogger(__name__)
DIR = "zh_bridge"
MIN_PAPERS = 3          # summaries that contain the Chinese word
MIN_SHARED = 3          # ... and whose English text has the term
MIN_G2 = 20.0           # log-likelihood ratio: p < 1e-5 for one degree of freedom
MAX_SHARE = 0.5         # a term in more of all papers than this is too common to be a translation
MIN_OCHIAI = 0.3        # shared / sqrt(papers with the word × papers with the term): see _guess
# a word in more of the summaries than this is too general to stand for a subject
MAX_WORD_SHARE = 0.75
# a summary line that this many summaries have word for word is their template's ("- 核心思路是什么？"),
# not the paper's: left out, else its words would "translate" to whatever those papers share
TEMPLATE_LINE = 20
MIN_CHARS = 2           # one Chinese character is too ambiguous alone (流: flow, 流程 pipeline)
MAX_SPLIT = 8           # longer words are not tried as parts (Bridge.learn)
_MORE_STOP = frozenset(["we", "our", "using", "via", "based", "from", "can", "which", "towards", "toward",
                        "new", "its", "over", "under", "between", "through", "than", "while", "both",
                        "also", "each", "when", "how", "what", "show", "propose", "proposed"])
_STOP = STOP_WORDS | _MORE_STOP
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")
_CLAUSE = re.compile(r"[^\w\s-]+|\n")        # punctuation, and the line between title and abstract
_MARKS = re.compile(r"^[\s\-*•>#]*(?:\d+[.)、]\s*)?")
_NOT_CJK = re.compile(f"[^{HAN}]+")
# what a damaged or half-copied bridge raises when it is read
_BROKEN = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def english_terms(text: str) -> tuple[set[str], set[str]]:
    """The words (hyphenated ones whole) and two- and three-word phrases of an English text, no stop words,
    phrases only within a clause ("language models (LLMs)" has no phrase "models llms"); and
    which of its words are written as acronyms (LLMs, MoE, PDE)."""
    out: set[str] = set()
    acronyms: set[str] = set()
    for clause in _CLAUSE.split(text):
        written = _WORD.findall(clause)
        toks = [w.lower() for w in written]
        out.update(t for t in toks if len(t) > 1 and t not in _STOP)
        for n in (2, 3):
            out.update(" ".join(g) for g in zip(*(toks[k:] for k in range(n)), strict=False)
                       if all(len(t) > 1 and t not in _STOP for t in g) and len(set(g)) == n)
        acronyms.update(w.lower() for w in written if len(w) <= 6 and sum(c.isupper() for c in w) >= 2)
    return out, acronyms


def _line(line: str) -> str:
    """A summary line as its template would repeat it: without list marks and numbering."""
    return _MARKS.sub("", line).strip()


def chinese_text(summary: str) -> str:
    """A summary's Chinese, simplified, its runs separated by one space (a word never spans two)."""
    return " ".join(_NOT_CJK.split(to_simplified_chinese(summary))).strip()


def write(papers: Iterable[tuple[str, str, str]], path: Path) -> int:
    """Write the bridge of ``(paper id, Chinese summary, English text)`` into ``path``; returns
    the number of papers. Terms fewer than ``MIN_SHARED`` papers have are left out (no guess can
    use them)."""
    ids: list[str] = []
    lines: list[str] = []
    docs: list[set[str]] = []
    df: dict[str, int] = {}
    as_acronym: dict[str, int] = {}
    given = list(papers)
    seen: dict[str, int] = {}
    for _, zh, _ in given:
        for line in {_line(x) for x in zh.splitlines()}:
            seen[line] = seen.get(line, 0) + 1
    template = {line for line, n in seen.items() if n >= TEMPLATE_LINE and line}
    for pid, zh, en in given:
        text = chinese_text("\n".join(x for x in zh.splitlines() if _line(x) not in template))
        if text:
            terms, acronyms = english_terms(en)
            ids.append(pid)
            lines.append(text)
            docs.append(terms)
            for t in terms:
                df[t] = df.get(t, 0) + 1
            for t in acronyms:
                as_acronym[t] = as_acronym.get(t, 0) + 1
    if not lines:           # no paper has a Chinese summary: no bridge (Bridge.available is False)
        return 0
    vocab = sorted(t for t, n in df.items() if n >= MIN_SHARED and n <= MAX_SHARE * len(docs))
    col = {t: i for i, t in enumerate(vocab)}
    indptr = [0]
    indices: list[int] = []
    for d in docs:
        indices.extend(sorted(col[t] for t in d if t in col))
        indptr.append(len(indices))
    path.mkdir(parents=True, exist_ok=True)
    (path / "zh.txt").write_text("\n".join(lines), "utf-8")
    (path / "ids.txt").write_text("\n".join(ids), "utf-8")
    # a term most of whose papers write it as an acronym is marked (a tab and "A"): see _prefer
    (path / "terms.txt").write_text("\n".join(t + ("\tA" if 2 * as_acronym.get(t, 0) > df[t] else "")
                                              for t in vocab), "utf-8")
    np.savez(path / "matrix.npz", indptr=np.asarray(indptr, dtype=np.int64),
             indices=np.asarray(indices, dtype=np.int32))
    return len(lines)


CACHE_SIZE = 4096          # guesses a searcher remembers (then it starts again)
QUERY_GUESSES = 16         # guesses (not remembered before) one query may make: 2-7 ms each


@dataclass(slots=True)
class Budget:
    """How many more words one query may have guessed (Bridge.guess)."""

    left: int = QUERY_GUESSES


def problem(path: Path) -> str | None:
    """Why the bridge at ``path`` cannot be used, or None (also when there is none: a corpus
    without Chinese summaries has none). Cheaper than loading it: the parts must agree."""
    if not path.exists():
        return None
    try:
        summaries = (path / "zh.txt").read_text("utf-8").count("\n") + 1
        ids = (path / "ids.txt").read_text("utf-8").count("\n") + 1
        with (path / "matrix.npz").open("rb") as f, np.load(f) as m:
            rows = len(m["indptr"]) - 1
    except _BROKEN as e:
        return f"unreadable ({e})"
    return None if summaries == ids == rows else f"{summaries} summaries, {ids} ids and {rows} rows"


@dataclass(frozen=True, slots=True)
class Guess:
    zh: str
    en: str
    papers: int          # summaries with the Chinese word
    shared: int          # ... of them with the English term


class Bridge:
    """The bridge of one index generation, loaded on its first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._loaded = False
        self._text = ""
        self._starts: list[int] = []
        self._terms: list[str] = []
        self._acronyms: set[int] = set()
        self.ids: list[str] = []          # the paper of each row
        self.error: str | None = None
        self._rows: list[np.ndarray] = []
        self._df = np.zeros(0)
        self._cache: dict[tuple[str, tuple[str, ...]], Guess | None] = {}

    @property
    def available(self) -> bool:
        return (self.path / "matrix.npz").is_file()

    def load(self) -> bool:
        """Read the files once; False (and ``error`` says why) when there are none or they are
        unreadable: searches then report the Chinese they cannot translate, as without a bridge."""
        with self._lock:
            if not self._loaded and self.error is None and self.available:
                try:
                    self._read()
                    self._loaded = True
                except _BROKEN as e:   # broken: no bridge
                    self.error = f"{self.path}: {e}"
                    log.warning("Chinese bridge unreadable, not used: %s", self.error)
            return self._loaded

    def _read(self) -> None:
        text = (self.path / "zh.txt").read_text("utf-8")
        ids = (self.path / "ids.txt").read_text("utf-8").split("\n")
        lines = (self.path / "terms.txt").read_text("utf-8").split("\n")
        with (self.path / "matrix.npz").open("rb") as f, np.load(f) as m:   # our handle: closed on error
            indptr, indices = m["indptr"], m["indices"]
        starts = [0, *itertools.accumulate(len(line) + 1 for line in text.split("\n")[:-1])]
        if not (len(starts) == len(ids) == len(indptr) - 1) or (len(indices) and indices.max() >= len(lines)):
            raise ValueError(f"{len(starts)} summaries, {len(ids)} ids, {len(indptr) - 1} rows and "
                             f"{len(lines)} terms do not match")
        self._rows = [indices[indptr[i]:indptr[i + 1]] for i in range(len(starts))]
        self._df = np.bincount(indices, minlength=len(lines)).astype(np.float64)
        self._terms = [t.partition("\t")[0] for t in lines]
        self._acronyms = {i for i, t in enumerate(lines) if t.endswith("\tA")}
        self._text, self._starts, self.ids = text, starts, ids

    def lines(self) -> list[str]:
        """Each summary's Chinese (simplified, its runs separated by spaces), by row."""
        return self._text.split("\n") if self.load() else []

    def guess(self, zh: str, inside: tuple[str, ...] = (), budget: Budget | None = None) -> Guess | None:
        """``_guess``, remembered (up to CACHE_SIZE words); with a ``budget``, a word not
        remembered is guessed only while the budget lasts (else None, and it is not remembered:
        a later query may guess it)."""
        key = (zh, inside)
        if key in self._cache:
            return self._cache[key]
        if budget is not None:
            if budget.left <= 0:
                return None
            budget.left -= 1
        g = self._guess(zh, inside)
        with self._lock:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = g
        return g

    @property
    def remembered(self) -> int:
        return len(self._cache)

    def forget(self) -> None:
        """Drop the remembered guesses (benchmarks time them uncached)."""
        with self._lock:
            self._cache.clear()

    def learn(self, zh: str, inside: Callable[[str], tuple[str, ...]] = lambda _: (),
              budget: Budget | None = None) -> tuple[str, int] | None:
        """``search.glossary``'s Learn: the English for a Chinese word and the number of summaries
        that have it (``inside(w)``: the known longer words that contain ``w``). A word with no
        guess of its own may be two that have one (生成对抗网络: 生成对抗 + 网络, each perhaps two
        again), split where the weaker part has the most evidence; words of more than
        ``MAX_SPLIT`` characters are not split (the number of parts to try grows fast). A query
        passes one ``budget`` to all its calls: a hostile one (hundreds of unknown characters)
        costs at most its guesses, ~3 ms each."""
        zh = to_simplified_chinese(zh)
        memo: dict[str, tuple[str, int] | None] = {}

        def parts(w: str) -> tuple[str, int] | None:
            if w in memo:
                return memo[w]
            g = self.guess(w, inside(w), budget)
            best = (g.en, g.papers) if g is not None else None
            if best is None and len(w) <= MAX_SPLIT:
                for k in range(MIN_CHARS, len(w) - MIN_CHARS + 1):
                    a, b = parts(w[:k]), parts(w[k:])
                    if a is not None and b is not None and (best is None or min(a[1], b[1]) > best[1]):
                        en = a[0] if b[0] in a[0] else b[0] if a[0] in b[0] else f"{a[0]} {b[0]}"
                        best = (en, min(a[1], b[1]))
            memo[w] = best
            return best

        return parts(zh)

    def papers_with(self, zh: str, inside: tuple[str, ...] = ()) -> list[int]:
        """The rows whose summary contains ``zh`` (simplified Chinese), not counting where it is
        part of one of the longer words ``inside`` (化学, chemistry, in 强化学习)."""
        rows: list[int] = []
        text, starts = self._text, self._starts
        within = [(w, o) for w in inside for o in _offsets(w, zh)]
        i = text.find(zh)
        while i >= 0:
            if any(text.startswith(w, i - o) for w, o in within if i >= o):
                i = text.find(zh, i + 1)
                continue
            row = bisect.bisect_right(starts, i) - 1
            rows.append(row)
            nxt = starts[row + 1] if row + 1 < len(starts) else len(text)
            i = text.find(zh, nxt)
        return rows

    def _guess(self, zh: str, inside: tuple[str, ...] = ()) -> Guess | None:
        """The English term for a Chinese word, or None without enough evidence.

        Two tests. G² ranks the terms by how unlikely their overlap with the word's papers is by
        chance. But the papers whose summary has a word share a subject too, and a rare English
        term of that subject can overlap by more than chance without being the word ("attack
        success" for 大型语言模型, whose summaries happen to include jailbreak papers). So a term
        must also be one that the word's papers and the term's papers mostly share: the Ochiai
        coefficient (shared / sqrt(papers × term papers)) at least MIN_OCHIAI."""
        zh = to_simplified_chinese(zh)
        if len(zh) < MIN_CHARS or not self.load():
            return None
        rows = self.papers_with(zh, inside)
        n, total = len(rows), len(self._starts)
        if n < MIN_PAPERS or n > MAX_WORD_SHARE * total:
            return None
        shared = np.bincount(np.concatenate([self._rows[r] for r in rows]),
                             minlength=len(self._terms)).astype(np.float64)
        g2 = _g2(shared, self._df, n, total)
        with np.errstate(divide="ignore", invalid="ignore"):
            ochiai = shared / np.sqrt(n * self._df)
        g2[(shared < MIN_SHARED) | (shared * total <= self._df * n) | ~(ochiai >= MIN_OCHIAI)] = 0.0
        top = np.argpartition(-g2, 32)[:32] if len(g2) > 32 else np.arange(len(g2))   # (unordered)
        # equal evidence (the same papers): the longer phrase, the more specific ("continual
        # learning" and "continual" in the same papers), then by name, so a guess is stable
        best = sorted((int(i) for i in top if g2[i] >= MIN_G2),
                      key=lambda i: (-round(float(g2[i]), 6), -self._terms[i].count(" "), self._terms[i]))[:8]
        if not best:
            return None
        pick = _prefer(best, [self._terms[i] for i in best], g2, shared, self._acronyms, len(zh))
        return Guess(zh, self._terms[pick], n, int(shared[pick]))


def _offsets(word: str, part: str) -> list[int]:
    """Where ``part`` starts in ``word``, each place."""
    return [i for i in range(len(word) - len(part) + 1) if word.startswith(part, i)]


def _g2(a: np.ndarray, df: np.ndarray, n: int, total: int) -> np.ndarray:
    """Dunning's G² for each term: ``a`` of the ``n`` papers with the word have it, ``df`` of all."""
    b, c = n - a, df - a
    d = (total - n) - c
    cells = ((a, n, df), (b, n, total - df), (c, total - n, df), (d, total - n, total - df))
    out = np.zeros_like(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        for obs, row, colsum in cells:
            exp = row * colsum / total
            out += np.where(obs > 0, obs * np.log(obs / exp), 0.0)
    return 2 * out


def _prefer(best: list[int], names: list[str], g2: np.ndarray, shared: np.ndarray, acronyms: set[int],
            chars: int) -> int:
    """Of the strongest terms, the one to search: a close phrase that contains the top word
    ("continual" → "continual learning"), a spelled-out term over an acronym ("llms" → "large
    language models", as the glossary writes them)."""
    top, name = best[0], names[0]
    # the phrase most of the word's papers write ("catastrophic forgetting" is not: 遗忘 is
    # forgetting in general); a word of four characters or more is mostly two in English
    # (扩散模型: "diffusion models", not "diffusion"), so fewer of them need to write it
    phrase_share = 0.7 if chars < 4 else 0.35
    for i, other in zip(best[1:], names[1:], strict=False):
        if (g2[i] >= 0.3 * g2[top] and shared[i] >= phrase_share * shared[top]
                and f" {name} " in f" {other} " and other != name):
            return i
        if (top in acronyms and i not in acronyms and g2[i] >= 0.3 * g2[top]
                and shared[i] >= 0.5 * shared[top]):
            return i
    return top
