"""Known-item evaluation: does the paper a user half remembers come first?

Samples real titles from the store (fixed seed), perturbs each the way people misremember or
mistype them, searches, and reports hit@1 and MRR@10 per perturbation and overall:

    lowercased   the title in lower case
    dropped      a quarter of the words left out (at least one)
    typo         one edit (delete, insert, substitute, swap) inside one word of 5+ letters
    shuffled     the words in random order
    author       the first author's surname and two random content words of the title

Duplicate titles: several papers can share a title (a workshop version and the conference
version, or a generic title used twice). A query made only of title words cannot tell them
apart, so a hit also counts when the first result has the same title key as the target (and,
for the author query, the same first-author surname); "strict" counts only the target itself.
For every sampled target with such twins, the script also checks that the target itself is
reachable: its exact title plus ``venue:`` and ``year:`` finds it first.

Ambiguity of the author kind: "Li Visual Recognition" may fit several papers. Independently of
the engine (plain sets of title words and first-author surnames over the whole store), a query
is *ambiguous* when at least two different titles (title keys: twins count once) have a first
author with that surname and both words in their title (a word is in a title when its letter
and digit runs, lower-cased, all are: "large" is in "Large-Margin"; "property" is not in
"Properties", though the engine's stemming treats them alike); the script reports how many author
queries are, and hit@1 on the others and on them. As a reference for the ambiguous ones it also
reports how often the *Bayes pick* is right: the fitting title with the fewest content words, the
most likely source of the query given only what the query says (see ``bayes_pick``); no ranking
can beat it on average without information the query does not carry.

    .venv/bin/python benchmarks/search_eval.py --home /tmp/search-home [--n 400] [--seed 7] [--failures]
    .venv/bin/python benchmarks/search_eval.py --home /tmp/search-home --only-from aitopconf,orgroups,webconf,explorer,papercept
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paperlist.index.analyzers import STOP_WORDS
from paperlist.search import Hit, Searcher, SearchRequest, SearchResult
from paperlist.search.weights import DEFAULT_WEIGHTS
from paperlist.store import Store
from paperlist.text import title_key

KINDS = ("lowercased", "dropped", "typo", "shuffled", "author")
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")
_RUN = re.compile(r"[^\W_]+")


def title_words(title: str) -> list[str]:
    """The words a user would type: whitespace-separated, outer punctuation stripped."""
    return [w for w in (_EDGE.sub("", t) for t in title.split()) if w]


def content_words(title: str) -> list[str]:
    """The title words the author query draws from: distinct, not stop words, 3+ letters."""
    return [w for w in dict.fromkeys(title_words(title)) if w.lower() not in STOP_WORDS and len(w) >= 3]


def surname(name: str) -> str:
    parts = title_words(name)
    return parts[-1] if parts else ""


def typo(word: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(word))          # people rarely get the first letter wrong
    op = rng.choice(("delete", "insert", "substitute", "swap"))
    letters = "abcdefghijklmnopqrstuvwxyz"
    if op == "delete":
        return word[:i] + word[i + 1:]
    if op == "insert":
        return word[:i] + rng.choice(letters) + word[i:]
    if op == "substitute":
        return word[:i] + rng.choice([c for c in letters if c != word[i].lower()]) + word[i + 1:]
    if i == len(word) - 1:
        i -= 1
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def perturb(kind: str, title: str, authors: list[str], rng: random.Random) -> str | None:
    words = title_words(title)
    if kind == "lowercased":
        return title.lower()
    if kind == "dropped":
        k = max(1, round(len(words) / 4))
        keep = sorted(rng.sample(range(len(words)), len(words) - k))
        return " ".join(words[i] for i in keep)
    if kind == "typo":
        cands = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if not cands:
            return None
        i = rng.choice(cands)
        return " ".join(words[:i] + [typo(words[i], rng)] + words[i + 1:])
    if kind == "shuffled":
        out = words[:]
        while len(out) > 1 and out == words:
            rng.shuffle(out)
        return " ".join(out)
    if kind == "author":
        content = content_words(title)
        if not authors or len(content) < 2 or not surname(authors[0]):
            return None
        pick = sorted(rng.sample(range(len(content)), 2))
        return " ".join([surname(authors[0])] + [content[i] for i in pick])
    raise ValueError(kind)


def sample(store: Store, n: int, seed: int, only_from: list[str] | None = None
           ) -> list[tuple[str, str, list[str], str, int]]:
    """(id, plain title, authors, venue, year) of n papers whose titles have 4+ words (with
    ``only_from``: papers that only these sources list, the papers they added)."""
    rows = store.plain_titles()
    rows = [r for r in rows if len(title_words(r[1])) >= 4]
    if only_from:
        added = store.papers_only_from(only_from)
        rows = [r for r in rows if r[0] in added]
    picked = random.Random(seed).sample(rows, n)
    out = []
    for pid, title, venue, year in picked:
        authors = store.paper_author_names(pid)
        out.append((pid, title, authors, venue, year))
    return out


def fitting_titles(store: Store, queries: dict[str, tuple[str, str, str]]) -> dict[str, dict[str, str]]:
    """For each author query (id -> (surname, word, word)): the different titles (title key ->
    plain title) in the store whose first author has that surname and whose title has both
    words, case-insensitively. Computed with plain sets, not with the search engine."""
    first = {pid: surname(name).lower() for pid, name in store.first_author_names().items()}
    wanted = {w for _, a, b in queries.values() for w in (*_runs(a), *_runs(b))}
    by_word: dict[str, set[str]] = defaultdict(set)
    keys: dict[str, str] = {}
    for pid, title, _, _ in store.plain_titles():
        words = set(_runs(title)) & wanted
        for w in words:
            by_word[w].add(pid)
        if words:
            keys[pid] = title
    out = {}
    for qid, (name, a, b) in queries.items():
        pids = set.intersection(*(by_word[w] for w in (*_runs(a), *_runs(b))))
        out[qid] = {title_key(keys[p]): keys[p] for p in sorted(pids) if first.get(p) == name.lower()}
    return out


def bayes_pick(titles: dict[str, str]) -> str:
    """The title key a query's own information favours among the titles that fit it: the sample
    draws 4+-word titles uniformly and two of their content words at random, so a fitting title
    with k content words produced the query with probability 1/C(k, 2), and the shortest wins.
    The engine does not use this; it is the reference for what any ranking can reach."""
    def weight(t: str) -> float:
        k = len(content_words(t))
        return 0.0 if len(title_words(t)) < 4 or k < 2 else 2 / (k * (k - 1))
    return max(sorted(titles), key=lambda key: weight(titles[key]))


def _runs(text: str) -> list[str]:
    return _RUN.findall(text.lower())


def baseline(searcher: Searcher, q: str) -> SearchResult:
    """The anchor: tantivy's own query parser, OR of the words over the text fields, BM25."""
    gen = searcher._generation()
    query = gen.index.parse_query_lenient(q, ["title", "authors", "text"])[0]
    hits = []
    for _, addr in gen.searcher.search(query, 10).hits:
        d = orjson.loads(gen.searcher.doc(addr).get_first("doc"))
        hits.append(Hit(id=d["id"], title=d["title"], title_html="", authors=d["authors"], author_keys=[],
                        venue=d["venue"], venue_short="", year=d["year"], status=None, accepted=True, track=None,
                        citations=None, abstract_html="", score=0.0))
    return SearchResult(request=SearchRequest(q=q), total=len(hits), hits=hits, facets={}, took_ms=0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", default="data")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--failures", action="store_true", help="print every miss")
    ap.add_argument("--baseline", action="store_true",
                    help="rank with a plain tantivy OR query (title, authors, keywords, abstract) instead")
    ap.add_argument("--mode", default="keyword", choices=["auto", "keyword", "semantic", "hybrid"],
                    help="search mode (auto = hybrid for queries of 4+ words when vectors exist)")
    ap.add_argument("--only-from", default="", metavar="SOURCES",
                    help="sample only papers that these sources alone list (comma-separated reader names, e.g."
                         " aitopconf,orgroups,webconf,explorer,papercept: the 2026 sources of issue 15)")
    ap.add_argument("--set", action="append", default=[], metavar="WEIGHT=VALUE",
                    help="override a ranking weight (paperlist.search.weights.Weights), for tuning")
    args = ap.parse_args()
    home = Path(args.home)
    store = Store(home / "paperlist.db", readonly=True)
    overrides = {k: type(getattr(DEFAULT_WEIGHTS, k))(v) for k, v in (x.split("=", 1) for x in args.set)}
    searcher = Searcher(home, weights=replace(DEFAULT_WEIGHTS, **overrides))
    items = sample(store, args.n, args.seed, [s for s in args.only_from.split(",") if s] or None)
    key_count: dict[str, int] = defaultdict(int)
    for _, t, _, _ in store.plain_titles():
        key_count[title_key(t)] += 1
    first_surname = {pid: surname(a[0]).lower() if a else "" for pid, _, a, _, _ in items}

    stats: dict[str, dict[str, float]] = {k: defaultdict(float) for k in (*KINDS, "overall")}
    queries = {(pid, kind): perturb(kind, title, authors, random.Random(f"{args.seed}:{pid}:{kind}"))
               for pid, title, authors, _, _ in items for kind in KINDS}
    author_queries: dict[str, tuple[str, str, str]] = {}
    for (pid, kind), q in queries.items():
        if kind == "author" and q:
            name, a, b = q.split()        # surname and title words hold no spaces (title_words)
            author_queries[pid] = (name, a, b)
    fits = fitting_titles(store, author_queries)
    ambiguity: dict[bool, list[bool]] = {True: [], False: []}
    bayes: list[bool] = []          # the Bayes pick was the target's title (ambiguous queries)
    times: list[float] = []
    for pid, title, authors, venue, year in items:
        for kind in KINDS:
            q = queries[(pid, kind)]
            if q is None:
                stats[kind]["skipped"] += 1
                continue
            t0 = time.perf_counter()
            res = (baseline(searcher, q) if args.baseline else
                   searcher.search(SearchRequest(q=q, per_page=10, facets=False, snippets=False, mode=args.mode)))
            times.append(time.perf_counter() - t0)
            ids = [h.id for h in res.hits]
            rank = ids.index(pid) + 1 if pid in ids else None
            top = res.hits[0] if res.hits else None
            twin = bool(top and top.id != pid and title_key(top.title) == title_key(title) and (
                kind != "author" or (top.authors and surname(top.authors[0]).lower() == first_surname[pid])))
            hit = rank == 1 or twin
            if kind == "author":
                ambiguity[len(fits[pid]) >= 2].append(hit)
                if len(fits[pid]) >= 2:
                    bayes.append(bayes_pick(fits[pid]) == title_key(title))
            for bucket in (kind, "overall"):
                s = stats[bucket]
                s["n"] += 1
                s["hit"] += hit
                s["strict"] += rank == 1
                s["rr"] += 1.0 if hit else (1.0 / rank if rank else 0.0)
                s["twin"] += twin
            if not hit and args.failures:
                got = f"{top.title!r} ({top.venue} {top.year})" if top else "nothing"
                fit = f" fits={len(fits[pid])}" if kind == "author" else ""
                print(f"MISS {kind:<10} rank={rank}{fit} q={q!r}\n     want {title!r} ({venue} {year})\n     got  {got}")

    # reachability of targets that have title twins
    twins = [(pid, title, venue, year) for pid, title, _, venue, year in items if key_count[title_key(title)] > 1]
    reachable = 0
    for pid, title, venue, year in twins:
        res = searcher.search(SearchRequest(q=f"{title.lower()} venue:{venue} year:{year}", per_page=5,
                                            facets=False, snippets=False))
        reachable += bool(res.hits and res.hits[0].id == pid)

    print(f"known-item evaluation: {len(items)} titles (seed {args.seed}), store {home}, index {searcher.generation}")
    print(f"{'perturbation':<12} {'n':>5} {'hit@1':>7} {'strict':>7} {'MRR@10':>7} {'twins':>6} {'skipped':>8}")
    for kind in (*KINDS, "overall"):
        s = stats[kind]
        n = s["n"] or 1
        print(f"{kind:<12} {int(s['n']):>5} {s['hit'] / n:>7.3f} {s['strict'] / n:>7.3f} {s['rr'] / n:>7.3f}"
              f" {int(s['twin']):>6} {int(s['skipped']):>8}")
    amb, clear = ambiguity[True], ambiguity[False]
    print(f"author queries that fit 2+ different titles (first-author surname and both words in the title): "
          f"{len(amb)}/{len(amb) + len(clear)}; hit@1 on the unambiguous {sum(clear) / max(1, len(clear)):.3f} "
          f"({sum(clear)}/{len(clear)}), on the ambiguous {sum(amb) / max(1, len(amb)):.3f} ({sum(amb)}/{len(amb)}); "
          f"the Bayes pick (fewest content words) on the ambiguous {sum(bayes) / max(1, len(bayes)):.3f}")
    times.sort()
    print(f"targets with title twins: {len(twins)}; reachable first with venue: and year: {reachable}/{len(twins)}")
    if times:
        print(f"search time per query: median {times[len(times) // 2] * 1000:.2f} ms, "
              f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
