"""Topical evaluation: does a topic query ("batch normalization", "扩散模型") show the right papers?

Hand-judged, for issue 18. ``benchmarks/topical/queries.tsv`` holds English topic queries, broad
and specific, and Chinese twins of some of them; ``benchmarks/topical/judgments.tsv`` the grades
of the papers pooled from the systems' top 10s (and our positions 11-20), judged by reading title
and abstract: 2 = squarely about the topic, 1 = related (uses it, a variant, an application),
0 = off topic or only shares words. ``canonical`` is 0, or a number naming a canonical work of a
broad query (always graded 2): the ids with the same number in a query are records of one work
(OpenReview submission and venue version, arXiv or workshop twins), found once whichever shows.
``benchmarks/topical/heldout.tsv`` holds four broad queries written after the ranking's weights
were set (their canonical works chosen before any result was seen), judged in the same file:
run them with ``--queries benchmarks/topical/heldout.tsv``.

Two systems are compared on every query: ours (``Searcher``, ``--mode`` auto as the site runs it)
and a baseline, plain BM25 over title and abstract (``en_stem``, every word optional, default
field weights) in a separate tantivy index built from the store (in ``--workdir``, reused when
present, else a temporary directory). Chinese queries go to the baseline translated by our
glossary, so the comparison is of ranking, not of translation.

Per language and overall, for ours and the baseline: nDCG@10 (gains 2^grade-1, the ideal from
every judged paper of the query; unjudged papers count 0 and are counted), P@10 (grade >= 1),
the share of canonical works of broad queries in the top 10 (also split by whether a source gives
the work a citation count, the importance prior's main evidence), the works shown twice in a top 10
(ids of one canonical work, or lowercased alphanumeric titles with rapidfuzz ratio >= 95 and a
shared author; a record without authors, such as an anonymous OpenReview submission, counts as
sharing), and the median and p99 time per query (after one warm-up query per system).

    .venv/bin/python benchmarks/topical_eval.py --home /tmp/h22 [--workdir DIR] [--json] [--verbose]
    .venv/bin/python benchmarks/topical_eval.py --home /tmp/h22 --workdir DIR --pool [--pool-deep] > new.tsv
    .venv/bin/python benchmarks/topical_eval.py --home /tmp/h22 --queries benchmarks/topical/heldout.tsv
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import orjson
import tantivy
from rapidfuzz import fuzz

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paperlist.search import Searcher, SearchRequest, glossary
from paperlist.search.weights import DEFAULT_WEIGHTS

HERE = Path(__file__).resolve().parent / "topical"
_ALNUM = re.compile(r"[^a-z0-9]+")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        lines = [ln for ln in f if ln.strip() and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def open_db(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{home / 'paperlist.db'}?mode=ro", uri=True)


def baseline_index(db: sqlite3.Connection, workdir: Path) -> tantivy.Index:
    """The BM25 baseline: title and abstract of every paper, en_stem; built once per workdir."""
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("id", stored=True, tokenizer_name="raw")
    sb.add_text_field("title", tokenizer_name="en_stem")
    sb.add_text_field("abstract", tokenizer_name="en_stem")
    schema = sb.build()
    path = workdir / "bm25-index"
    done = path / "complete"
    if done.exists():
        return tantivy.Index(schema, path=str(path), reuse=True)
    path.mkdir(parents=True, exist_ok=True)
    index = tantivy.Index(schema, path=str(path), reuse=False)
    writer = index.writer(heap_size=400_000_000, num_threads=1)        # one thread: a deterministic layout
    rows = db.execute("SELECT id, COALESCE(title_plain, title), COALESCE(abstract_plain, abstract, '')"
                      " FROM papers ORDER BY id")
    for pid, title, abstract in rows:
        writer.add_document(tantivy.Document(id=pid, title=title or "", abstract=abstract or ""))
    writer.commit()
    writer.wait_merging_threads()
    done.touch()
    return tantivy.Index(schema, path=str(path), reuse=True)


def run_baseline(index: tantivy.Index, q: str, k: int = 10) -> list[str]:
    text = glossary.translate(q).query
    if not text:                                   # nothing the glossary knows: nothing to search
        return []
    searcher = index.searcher()
    query = index.parse_query(text, ["title", "abstract"])
    return [searcher.doc(addr)["id"][0] for _, addr in searcher.search(query, k).hits]


def run_ours(searcher: Searcher, q: str, k: int = 10, mode: str = "auto") -> list[str]:
    res = searcher.search(SearchRequest(q=q, per_page=k, mode=mode, facets=False, snippets=False))
    return [h.id for h in res.hits]


def ndcg(ids: list[str], grades: dict[str, int]) -> float:
    dcg = sum((2 ** grades.get(p, 0) - 1) / math.log2(i + 2) for i, p in enumerate(ids[:10]))
    ideal = sorted(grades.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


class Papers:
    """Titles, authors and the rest of the pooled papers, read from the store on demand."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.cache: dict[str, tuple[str, str, int, str, set[str]]] = {}

    def cited(self, pid: str) -> bool:
        """Whether a source gives the paper a citation count (the importance prior's main evidence)."""
        row = self.db.execute("SELECT citations FROM papers WHERE id = ?", (pid,)).fetchone()
        return bool(row and row[0] is not None)

    def get(self, pid: str) -> tuple[str, str, int, str, set[str]]:
        if pid not in self.cache:
            row = self.db.execute(
                "SELECT COALESCE(title_plain, title), venue, year, COALESCE(abstract_plain, abstract, '')"
                " FROM papers WHERE id = ?", (pid,)).fetchone() or ("", "", 0, "")
            authors = {r[0] for r in self.db.execute(
                "SELECT author_key FROM paper_authors WHERE paper_id = ?", (pid,))}
            self.cache[pid] = (*row, authors)
        return self.cache[pid]

    def same_work(self, a: str, b: str) -> bool:
        ta, _, _, _, aa = self.get(a)
        tb, _, _, _, ab = self.get(b)
        na, nb = _ALNUM.sub("", ta.lower()), _ALNUM.sub("", tb.lower())
        # a record with no authors (an anonymous OpenReview submission) cannot contradict the match
        return bool(na and nb and fuzz.ratio(na, nb) >= 95 and (aa & ab or not aa or not ab))


def twice(ids: list[str], work_of: dict[str, str], papers: Papers) -> int:
    """How many hits of a top 10 repeat a work shown above them."""
    n = 0
    for i, b in enumerate(ids):
        if any((b in work_of and work_of.get(a) == work_of[b]) or papers.same_work(a, b) for a in ids[:i]):
            n += 1
    return n


def pctl(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=Path("data"))
    ap.add_argument("--workdir", type=Path, default=None, help="keep (and reuse) the baseline index here")
    ap.add_argument("--queries", type=Path, default=HERE / "queries.tsv")
    ap.add_argument("--judgments", type=Path, default=HERE / "judgments.tsv")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--pool", action="store_true",
                    help="print the unjudged papers of the current top 10s (TSV)")
    ap.add_argument("--pool-deep", action="store_true", help="with --pool: also our positions 11-20")
    ap.add_argument("--verbose", action="store_true", help="print a per-query table")
    ap.add_argument("--set", action="append", default=[], metavar="WEIGHT=VALUE",
                    help="override a ranking weight (paperlist.search.weights.Weights): listed=0, pioneer=0")
    ap.add_argument("--mode", default="auto", choices=["auto", "keyword", "semantic", "hybrid"],
                    help="our search mode (auto, as the site runs it, is keyword search without vectors)")
    args = ap.parse_args()
    db = open_db(args.home)
    tmp = None
    if args.workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="topical-")
        args.workdir = Path(tmp.name)
    index = baseline_index(db, args.workdir)
    overrides = {k: type(getattr(DEFAULT_WEIGHTS, k))(v) for k, v in (x.split("=", 1) for x in args.set)}
    weights = replace(DEFAULT_WEIGHTS, **overrides)
    searcher = Searcher(args.home, weights)
    queries = read_tsv(args.queries)
    grades: dict[str, dict[str, int]] = defaultdict(dict)
    canon: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))   # qid -> work -> ids
    work_of: dict[str, str] = {}
    for j in read_tsv(args.judgments):
        grades[j["qid"]][j["paper_id"]] = int(j["grade"])
        if j["canonical"] not in ("", "0"):
            canon[j["qid"]][j["canonical"]].add(j["paper_id"])
            work_of[j["paper_id"]] = f"{j['qid']}:{j['canonical']}"
    papers = Papers(db)

    systems = ("ours", "bm25")
    rows = []
    times: dict[str, list[float]] = {s: [] for s in systems}
    pool: list[tuple[str, str]] = []
    run_ours(searcher, "warm up the query encoder", mode=args.mode)   # 4 words: hybrid loads the encoder
    run_baseline(index, "warm up")
    for q in queries:
        row = {"qid": q["qid"], "lang": q["lang"], "query": q["query"], "kind": q["kind"]}
        g = grades[q["qid"]]
        for s in systems:
            t0 = time.perf_counter()
            if s == "ours":
                ids = run_ours(searcher, q["query"], mode=args.mode)
            else:
                ids = run_baseline(index, q["query"])
            times[s].append(time.perf_counter() - t0)
            works = canon[q["qid"]]
            row[s] = {"ndcg": ndcg(ids, g), "p10": sum(g.get(p, 0) >= 1 for p in ids) / 10,
                      "unjudged": sum(p not in g for p in ids), "twice": twice(ids, work_of, papers),
                      "canon": sum(bool(ids_ & set(ids)) for ids_ in works.values()), "works": len(works),
                      # the same for the works a source gives a citation count (any of their records)
                      "canon_cited": sum(bool(ids_ & set(ids)) for ids_ in works.values()
                                         if any(map(papers.cited, ids_))),
                      "works_cited": sum(any(map(papers.cited, ids_)) for ids_ in works.values()),
                      "ids": ids}
            pool += [(q["qid"], p) for p in ids if p not in g]
        if args.pool and args.pool_deep:
            deep = run_ours(searcher, q["query"], 20, args.mode)[10:]
            pool += [(q["qid"], p) for p in deep if p not in g]
        rows.append(row)

    if args.pool:
        print("qid\tpaper_id\ttitle\tvenue\tyear\tabstract")
        for qid, pid in dict.fromkeys(pool):
            title, venue, year, abstract, _ = papers.get(pid)
            clean = " ".join(abstract.split())[:300]
            print(f"{qid}\t{pid}\t{' '.join(title.split())}\t{venue}\t{year}\t{clean}")
        return

    def summary(sel: list[dict]) -> dict:
        out = {"queries": len(sel)}
        for s in systems:
            broad = [r[s] for r in sel if r["kind"] == "broad"]
            out[s] = {"ndcg@10": sum(r[s]["ndcg"] for r in sel) / max(1, len(sel)),
                      "p@10": sum(r[s]["p10"] for r in sel) / max(1, len(sel)),
                      "canonical": f"{sum(b['canon'] for b in broad)}/{sum(b['works'] for b in broad)}",
                      "canonical_cited": f"{sum(b['canon_cited'] for b in broad)}/"
                                         f"{sum(b['works_cited'] for b in broad)}",
                      "canonical_uncited": f"{sum(b['canon'] - b['canon_cited'] for b in broad)}/"
                                           f"{sum(b['works'] - b['works_cited'] for b in broad)}",
                      "twice": sum(r[s]["twice"] for r in sel),
                      "unjudged": sum(r[s]["unjudged"] for r in sel)}
        return out

    groups = {"en": [r for r in rows if r["lang"] == "en"], "zh": [r for r in rows if r["lang"] == "zh"],
              "all": rows}
    figures = {k: summary(v) for k, v in groups.items()}
    for s in systems:
        figures[f"{s}_ms"] = {"median": pctl(times[s], 0.5) * 1000, "p99": pctl(times[s], 0.99) * 1000}
    if args.json:
        figures["per_query"] = [r | {s: {k: v for k, v in r[s].items() if k != "ids"} for s in systems}
                                for r in rows]
        print(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode())
        return
    n_judged = sum(len(g) for g in grades.values())
    print(f"topical evaluation: {len(queries)} queries, {n_judged} judgments, store {args.home}, "
          f"index {searcher.generation}")
    print(f"{'':<5} {'n':>3}  {'nDCG@10':>15}  {'P@10':>13}  {'canonical@10':>15}  {'twice':>9}"
          f"  {'unjudged':>11}")
    print(f"{'':<5} {'':>3}  {'ours':>7} {'bm25':>7}  {'ours':>6} {'bm25':>6}  {'ours':>7} {'bm25':>7}"
          f"  {'ours':>4} {'bm25':>4}  {'ours':>5} {'bm25':>5}")
    for k in groups:
        f, o, b = figures[k], figures[k]["ours"], figures[k]["bm25"]
        print(f"{k:<5} {f['queries']:>3}  {o['ndcg@10']:>7.3f} {b['ndcg@10']:>7.3f}  {o['p@10']:>6.3f} "
              f"{b['p@10']:>6.3f}  {o['canonical']:>7} {b['canonical']:>7}  {o['twice']:>4} {b['twice']:>4}"
              f"  {o['unjudged']:>5} {b['unjudged']:>5}")
    for k in groups:
        o, b = figures[k]["ours"], figures[k]["bm25"]
        if figures[k]["queries"]:
            print(f"canonical@10, {k}: works a source gives a citation count {o['canonical_cited']} "
                  f"(bm25 {b['canonical_cited']}), the others {o['canonical_uncited']} "
                  f"(bm25 {b['canonical_uncited']})")
    for s in systems:
        t = figures[f"{s}_ms"]
        print(f"time per query, {s}: median {t['median']:.1f} ms, p99 {t['p99']:.1f} ms")
    if args.verbose:
        print(f"\n{'qid':<6} {'query':<44} {'ours':>6} {'bm25':>6} {'canon o/b':>10} {'unj o/b':>8}")
        for r in rows:
            o, b = r["ours"], r["bm25"]
            can = f"{o['canon']}/{b['canon']} of {o['works']}" if o["works"] else ""
            print(f"{r['qid']:<6} {r['query'][:44]:<44} {o['ndcg']:>6.3f} {b['ndcg']:>6.3f} {can:>10}"
                  f" {o['unjudged']:>3}/{b['unjudged']:<3}")
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
