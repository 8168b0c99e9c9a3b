"""How well does the Chinese bridge (``paperlist.index.bridge``) stand in for the glossary?

The bridge guesses the English of a Chinese word the glossary lacks from the papers with a
Chinese summary. The glossary's own entries are the test: the bridge never reads the glossary,
so every entry is a word it has not been told. Two measures, on the bridge of the live index
generation of ``--home``:

1. **Entries recovered.** For each glossary entry of two or more characters with an English
   translation, the bridge's guess as a search makes it (``Bridge.learn``: the word, else its
   parts) against the entry, compared as ``en`` stems (the index's stemmer, stop words and
   hyphens ignored): *same* (the same stems), *overlap* (a stem in common, or a shared
   five-letter start: "molecular" for "molecule"), *other* (neither), *no guess* (too little
   evidence). How many entries fewer than ``bridge.MIN_PAPERS`` summaries have is said too.
   The entries of the glossary's last section, picked from this script's ``--candidates``, are
   left out: the bridge's own guesses helped choose them.
2. **Searches with the glossary hidden.** The Chinese topic queries of ``topical/queries.tsv``,
   judged in ``topical/judgments.tsv``, searched three ways in one run: as the glossary
   translates them (the site today), with every glossary term replaced by the bridge's guess for
   it (as if the glossary lacked them all), and with those terms dropped (no bridge: the query
   keeps only what is not Chinese). nDCG@10 as in ``topical_eval.py``, unjudged papers counting 0
   and counted.
3. **Chinese queries the glossary lacks.** ``topical/unknown_zh.tsv``: 15 queries of words
   the glossary does not have (遥感, 奖励黑客, 数独 …), judged in ``topical/unknown_zh_judgments.tsv``
   (the union of both top 10s), searched as the site does (keyword search, the bridge asked)
   and as the glossary alone translates them (what the site did before the bridge). nDCG@10
   and P@10 (grade >= 1).

With ``--candidates N`` it lists instead the N words (2 to 4 characters) that the most summaries
have where no glossary entry covers them, each with the bridge's guess: the candidates for new
glossary entries, to be checked by hand (most are general words: 性能, 框架).

    .venv/bin/python benchmarks/bridge_eval.py --home /tmp/h18 [--verbose] [--json]
    .venv/bin/python benchmarks/bridge_eval.py --home /tmp/h18 --candidates 300
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from topical_eval import HERE, ndcg, read_tsv, run_ours  # noqa: E402

from paperlist.index import analyzers, bridge, fulltext  # noqa: E402
from paperlist.search import Searcher, SearchRequest, glossary  # noqa: E402

CANDIDATES_SECTION = "# 常用子术语"


def stems(text: str) -> set[str]:
    return {t for t in analyzers.en_tokens(text.replace("-", " ")) if t not in analyzers.STOP_WORDS}


def verdict(guess: str | None, truth: str) -> str:
    """same: the same stems, hyphens aside (pre-trained = pretrained); overlap: a stem in common,
    or two stems that share their first five letters (molecular ~ molecule)."""
    if guess is None:
        return "no guess"
    g, t = stems(guess), stems(truth)
    if g == t or "".join(analyzers.en_tokens(guess.replace("-", ""))) == "".join(
            analyzers.en_tokens(truth.replace("-", ""))):
        return "same"
    if g & t or any(len(a) >= 5 and len(b) >= 5 and a[:5] == b[:5] for a in g for b in t):
        return "overlap"
    return "other"


def blind_entries() -> dict[str, str]:
    """The glossary entries written without the bridge's help: those after the section that
    ``--candidates`` proposed (CANDIDATES_SECTION) were chosen from its guesses, so they would
    flatter it."""
    out: dict[str, str] = {}
    text = (Path(glossary.__file__).parent / "glossary.tsv").read_text("utf-8")
    for line in text.splitlines():
        if line.startswith(CANDIDATES_SECTION):
            break
        if line.strip() and not line.startswith("#"):
            zh, _, en = line.partition("\t")
            out[glossary.to_simplified(zh.strip())] = en.strip()
    return out


def entries(b: bridge.Bridge) -> tuple[Counter[str], list[tuple[str, str, str | None, str]], float]:
    """Each glossary entry's verdict, guessed as a search guesses it (``Bridge.learn``: the word,
    else its parts); "rare" counts the entries fewer than MIN_PAPERS summaries have (their guess,
    if any, comes from parts). The median time of a guess, uncached (ms)."""
    counts: Counter[str] = Counter()
    rows = []
    times = []
    for zh, en in blind_entries().items():
        if len(zh) < bridge.MIN_CHARS or not en or not glossary.has_chinese(zh):
            continue
        counts["rare"] += len(b.papers_with(zh, glossary.containing(zh))) < bridge.MIN_PAPERS
        b.forget()
        t0 = time.perf_counter()
        g = b.learn(zh, glossary.containing)
        times.append((time.perf_counter() - t0) * 1000)
        v = verdict(g[0] if g else None, en)
        counts[v] += 1
        rows.append((zh, en, g[0] if g else None, v))
    times.sort()
    return counts, rows, times[len(times) // 2] if times else 0.0


def hidden(q: str, b: bridge.Bridge) -> tuple[str, str]:
    """The query with its glossary terms replaced by the bridge's guesses, and with them dropped."""
    tr = glossary.translate(q)
    guessed, dropped = tr.query, tr.query
    for zh, en, _ in tr.terms:
        g = b.learn(zh, glossary.containing)
        guessed = guessed.replace(en, g[0] if g else "", 1)
        dropped = dropped.replace(en, "", 1)
    return " ".join(guessed.split()), " ".join(dropped.split())


def uncovered(b: bridge.Bridge) -> Counter[str]:
    """How many summaries have each word (2 to 4 characters) where no glossary entry covers it."""
    counts: Counter[str] = Counter()
    for line in b.lines():
        seen: set[str] = set()
        for run in line.split(" "):
            for piece in glossary.translate(run).unknown:
                seen.update(piece[i:i + k] for k in (2, 3, 4) for i in range(len(piece) - k + 1))
        counts.update(seen)
    return counts


def candidates(b: bridge.Bridge, n: int, counts: Counter[str]) -> list[tuple[str, int, str]]:
    """The words no glossary entry covers that the most summaries have, with the bridge's guess."""
    out = []
    for zh, c in counts.most_common():
        g = b.learn(zh, glossary.containing)
        if g is not None:
            out.append((zh, c, g[0]))
            if len(out) == n:
                break
    return out


def unknown_words(searcher: Searcher) -> list[dict[str, Any]]:
    """Measure 3: each judged query with the bridge and with the glossary alone."""
    grades: dict[str, dict[str, int]] = {}
    for j in read_tsv(HERE / "unknown_zh_judgments.tsv"):
        grades.setdefault(j["qid"], {})[j["paper_id"]] = int(j["grade"])
    rows = []
    for q in read_tsv(HERE / "unknown_zh.tsv"):
        g = grades.get(q["qid"], {})
        alone = glossary.translate(q["query"]).query
        row: dict[str, Any] = {"qid": q["qid"], "query": q["query"], "glossary_only": alone}
        for name, ids in (("bridge", run_ours(searcher, q["query"], mode="keyword")),
                          ("glossary", run_ours(searcher, alone, mode="keyword") if alone.strip() else [])):
            row[name] = {"ndcg": ndcg(ids, g), "p10": sum(g.get(p, 0) >= 1 for p in ids) / 10,
                         "unjudged": sum(p not in g for p in ids)}
        rows.append(row)
    return rows


def latency(searcher: Searcher, b: bridge.Bridge, n: int) -> dict[str, dict[str, float]]:
    """Search times (ms, median and max) of ``n`` words the bridge guesses (the commonest
    uncovered ones), the first time (the guess made) and again (cached); and of ``n`` words in
    one or two summaries that it cannot guess (the seeded results)."""
    counts = uncovered(b)
    learned = [zh for zh, _, _ in candidates(b, n, counts)]
    seeded: list[str] = []
    for zh, c in sorted(counts.items()):        # (by the word: the same ones each run)
        if len(seeded) == n:
            break
        if c <= 2 and len(zh) >= 3 and b.learn(zh, glossary.containing) is None:
            seeded.append(zh)
    live = searcher._generation().bridge           # the bridge the searcher asks
    times: dict[str, list[float]] = {"learned, first": [], "learned, again": [], "seeded": []}
    searcher.search(SearchRequest(q="热身", per_page=20))
    for zh in learned:
        live.forget()
        for kind in ("learned, first", "learned, again"):
            t0 = time.perf_counter()
            searcher.search(SearchRequest(q=zh, per_page=20))
            times[kind].append((time.perf_counter() - t0) * 1000)
    for zh in seeded:
        t0 = time.perf_counter()
        searcher.search(SearchRequest(q=zh, per_page=20))
        times["seeded"].append((time.perf_counter() - t0) * 1000)
    return {k: {"p50": round(sorted(v)[len(v) // 2], 2), "max": round(max(v), 2), "n": len(v)}
            for k, v in times.items() if v}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=Path("data"))
    ap.add_argument("--verbose", action="store_true", help="list every entry and query")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--latency", type=int, default=30, metavar="N",
                    help="time searches of N learned words and N seeded ones")
    ap.add_argument("--candidates", type=int, default=0, metavar="N",
                    help="list N candidates for the glossary instead (see above)")
    args = ap.parse_args()
    root = fulltext.index_root(args.home)
    gen = fulltext.current_generation(root)
    if gen is None:
        sys.exit(f"no index in {args.home} (run 'paperlist index')")
    b = bridge.Bridge(root / gen / bridge.DIR)
    if not b.load():
        sys.exit(f"generation {gen} has no Chinese bridge (no paper has a Chinese summary, or it was "
                 f"built before bridges: run 'paperlist index')")
    if args.candidates:
        for zh, c, en in candidates(b, args.candidates, uncovered(b)):
            print(f"{zh}\t{c}\t{en}")
        return
    counts, rows, ms = entries(b)
    guessable = sum(v for k, v in counts.items() if k != "rare")

    searcher = Searcher(args.home)
    grades: dict[str, dict[str, int]] = {}
    for j in read_tsv(HERE / "judgments.tsv"):
        grades.setdefault(j["qid"], {})[j["paper_id"]] = int(j["grade"])
    queries = [q for q in read_tsv(HERE / "queries.tsv") if q["lang"] == "zh"]
    per_query: list[dict[str, Any]] = []
    for q in queries:
        g = grades.get(q["qid"], {})
        guessed, dropped = hidden(q["query"], b)
        row: dict[str, Any] = {"qid": q["qid"], "query": q["query"], "guessed": guessed,
                                  "dropped": dropped}
        for name, text in (("glossary", q["query"]), ("bridge", guessed), ("dropped", dropped)):
            ids = run_ours(searcher, text, mode="keyword") if text.strip() else []
            row[name] = ndcg(ids, g)
            row[name + "_unjudged"] = sum(p not in g for p in ids)
        per_query.append(row)

    def mean(k: str) -> float:
        return sum(float(r[k]) for r in per_query) / len(per_query)

    kinds = ("glossary", "bridge", "dropped")
    out: dict[str, Any] = {
        "generation": gen, "summaries": len(b.ids), "entries": dict(counts), "guessable": guessable,
        "guess_ms_p50": round(ms, 2), "queries": len(per_query),
        "ndcg": {k: round(mean(k), 3) for k in kinds},
        "unjudged": {k: sum(int(r[k + "_unjudged"]) for r in per_query) for k in kinds},
        "latency_ms": latency(searcher, b, args.latency)}
    unknown = unknown_words(searcher)
    out["unknown_zh"] = {
        k: {m: round(sum(r[k][m] for r in unknown) / len(unknown), 3) for m in ("ndcg", "p10")}
        | {"unjudged": sum(r[k]["unjudged"] for r in unknown)} for k in ("bridge", "glossary")}
    out["unknown_zh"]["queries"] = len(unknown)
    if args.json:
        print(orjson.dumps({**out, "rows": rows, "per_query": per_query, "unknown_rows": unknown}).decode())
        return
    print(f"bridge of {gen}: {out['summaries']:,} Chinese summaries; a guess takes {ms:.1f} ms (median)")
    print(f"glossary entries: {guessable} ({counts['rare']} in fewer than {bridge.MIN_PAPERS} summaries)")
    for k in ("same", "overlap", "other", "no guess"):
        print(f"  {k:9s} {counts[k]:4d}  {counts[k] / max(guessable, 1):6.1%}")
    print(f"Chinese topic queries ({len(per_query)}), nDCG@10 (unjudged in the top 10s):")
    for k in kinds:
        print(f"  {k:9s} {out['ndcg'][k]:.3f}  ({out['unjudged'][k]})")
    u = out["unknown_zh"]
    print(f"Chinese queries the glossary lacks ({u['queries']}, judged): nDCG@10 / P@10 (unjudged)")
    for k in ("bridge", "glossary"):
        print(f"  {k:9s} {u[k]['ndcg']:.3f} / {u[k]['p10']:.3f}  ({u[k]['unjudged']})")
    print("search time, ms (median / max):")
    for k, v in out["latency_ms"].items():
        print(f"  {k:15s} {v['p50']:7.2f} / {v['max']:7.2f}  ({v['n']} words)")
    if args.verbose:
        for zh, en, guess, v in rows:
            print(f"  {v:9s} {zh}\t{en}\t{guess}")
        for r in per_query:
            print(f"  {r['qid']} {r['query']}: bridge '{r['guessed']}' {r['bridge']:.3f}"
                  f" vs glossary {r['glossary']:.3f}")


if __name__ == "__main__":
    main()
