"""Every script in benchmarks/ run for real, so that none rots unnoticed: each one in a subprocess
(``sys.executable benchmarks/X.py ...``), on a small home built from the test fixtures, with the
smallest parameters it accepts. Each test checks that the script exits 0 and prints what it should:
every figure present and sane (counts match the home, percentiles in order, rates > 0).

Each script works on its own copy of a session home (they are a few hundred kB): some write to
theirs (``search_bench.py --build`` publishes a new index generation), and the session homes are
shared read-only by the rest of the suite. The semantic benchmark needs the semantic extra,
api_bench.py needs wrk; each is skipped, with the reason, when it is missing."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from paperlist.index.encoder import missing_reason
from paperlist.store import Store
from tests.conftest import PAPERCOPILOT

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
NUM = r"([\d.]+)"


def run_bench(script: str, *args: object, timeout: float = 300) -> str:
    """Run ``benchmarks/SCRIPT ARGS...`` and return its stdout; fails (with both streams) unless it
    exits 0. The script runs in a process group of its own, so that on a timeout the servers and
    workers it started go down with it."""
    proc = subprocess.Popen([sys.executable, str(BENCHMARKS / script), *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=os.environ | {"HF_HUB_OFFLINE": "1"})
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"{script} did not finish in {timeout:.0f} s\n--- stdout\n{out}\n--- stderr\n{err}")
    finally:
        if proc.poll() is None:         # interrupted (Ctrl-C): take its process group down too
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        with contextlib.suppress(ProcessLookupError):   # and anything of it left running
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, f"{script} exited {proc.returncode}\n--- stdout\n{out}\n--- stderr\n{err}"
    return out


def copy_home(src: Path, dst: Path) -> Path:
    return Path(shutil.copytree(src, dst))


def count_papers(home: Path) -> int:
    store = Store(home / "paperlist.db", readonly=True)
    try:
        return store.count_papers()
    finally:
        store.close()


def floats(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"[\d,]*\d(?:\.\d+)?", text)]


@pytest.fixture
def bench_home(search_home: Path, tmp_path: Path) -> Path:
    """A private copy of the session's search home: the papercopilot and search fixtures ingested,
    topics assigned, the search index built."""
    return copy_home(search_home, tmp_path / "home")


def _vectors_missing() -> str | None:
    for mod in ("numpy", "usearch"):
        if importlib.util.find_spec(mod) is None:
            return f"{mod} is not installed (pip install 'paperlist[semantic]')"
    return None


@pytest.fixture(scope="module")
def vec_home(search_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the search home with a published vector for every paper (random unit vectors: the
    benchmarks that read vectors measure speed and agreement, whatever the vectors say)."""
    reason = _vectors_missing()
    if reason:
        pytest.skip(f"vectors need the semantic extra: {reason}")
    import numpy as np

    from paperlist.index.vectors import content_hash, publish

    home = copy_home(search_home, tmp_path_factory.mktemp("bench-vec") / "home")
    store = Store(home / "paperlist.db", readonly=True)
    rng = np.random.default_rng(0)
    rows, cache = [], {}
    try:
        for pid, venue, year, title, _abstract in store.iter_embed_items():
            v = rng.normal(size=384)
            h = content_hash(title, 128)
            rows.append((pid, venue, year, h))
            cache[h] = (v / np.linalg.norm(v)).astype(np.float32)
    finally:
        store.close()
    publish(home, rows, cache, 128)
    return home


# --- the scripts -----------------------------------------------------------------------------------
def test_venue_counts(bench_home: Path, tmp_path: Path) -> None:
    saved = tmp_path / "counts.json"
    out = run_bench("venue_counts.py", "--home", bench_home, "--save", saved)
    counts: dict[str, int] = json.loads(saved.read_text())
    total = sum(counts.values())
    assert counts and all(n > 0 for n in counts.values()) and total == count_papers(bench_home)
    assert f"{len(counts)} venue-years, {total:,} papers -> {saved}" in out

    out = run_bench("venue_counts.py", "--home", bench_home, "--compare", saved)
    assert "whose count changed (before -> now):\n  none\n" in out
    assert "new venue-years: 0, 0 papers" in out and f"total {total:,} -> {total:,} papers" in out

    # an earlier store with twice the papers in one venue-year, without another
    grown, fresh, *_ = sorted(counts)
    before = {k: n for k, n in counts.items() if k != fresh} | {grown: 2 * counts[grown]}
    saved.write_text(json.dumps(before))
    out = run_bench("venue_counts.py", "--home", bench_home, "--compare", saved)
    changed = rf"^  {re.escape(grown)}\s+{before[grown]:,} ->\s+{counts[grown]:,}\s+-50\.00%  \(over 1%\)$"
    assert re.search(changed, out, re.MULTILINE), out
    assert f"new venue-years: 1, {counts[fresh]:,} papers" in out
    assert re.search(rf"^  {re.escape(fresh)}\s+{counts[fresh]:,}$", out, re.MULTILINE), out
    assert f"total {sum(before.values()):,} -> {total:,} papers" in out


def test_search_bench(bench_home: Path) -> None:
    out = run_bench("search_bench.py", "--home", bench_home, "--rounds", "1", "--build", "1")
    assert f"index build ({count_papers(bench_home):,} papers, 1 runs): wall median" in out, out
    rows = {m[0]: (int(m[1]), *map(float, m[2:])) for m in re.findall(
        rf"^(topical|author|title|filtered|typing|all)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}$",
        out, re.MULTILINE)}
    assert set(rows) == {"topical", "author", "title", "filtered", "typing", "all"}, out
    for kind, (n, w50, w95, w99, c50, c95, c99) in rows.items():
        assert n > 0 and 0 < w50 <= w95 <= w99 and 0 <= c50 <= c95 <= c99, (kind, out)
    total = rows["all"][0]
    assert total == sum(r[0] for k, r in rows.items() if k != "all")
    assert f"search: {total} queries x 1 rounds, full call" in out, out


def test_ab_bench(bench_home: Path, tmp_path: Path) -> None:
    """This tree against itself (the other tree is a copy): every kind timed in both workers, the
    same number of searches each, the ratio of the medians, the slowest queries slowest first; a
    folder that is no tree is refused."""
    other = shutil.copytree(ROOT / "paperlist", tmp_path / "tree" / "paperlist",
                            ignore=shutil.ignore_patterns("__pycache__"))
    out = run_bench("ab_bench.py", "--home", bench_home, "--before", other.parent,
                    "--before-home", bench_home, "--rounds", "2", "--slowest", "3")
    rows = {m[0]: (int(m[1]), *map(float, m[2:])) for m in re.findall(
        rf"^(topical|author|title|filtered|typing|all)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}$",
        out, re.MULTILINE)}
    assert set(rows) == {"topical", "author", "title", "filtered", "typing", "all"}, out
    for kind, (n, b50, b95, b99, a50, a95, a99, ratio) in rows.items():
        assert n > 0 and 0 < b50 <= b95 <= b99 and 0 < a50 <= a95 <= a99, (kind, out)
        # (the medians are printed to 0.01 ms, the ratio from the unrounded ones)
        assert abs(ratio - a50 / b50) <= 0.006 * (1 / b50 + a50 / b50 ** 2) + 0.001, (kind, out)
    assert rows["all"][0] == sum(r[0] for k, r in rows.items() if k != "all")
    slowest = [tuple(map(float, m)) for m in re.findall(rf"^  .+?\s+{NUM}\s+{NUM}\s+{NUM}$",
                                                        out.split("the 3 slowest here")[1], re.MULTILINE)]
    assert len(slowest) == 3, out
    assert [a for _, a, _ in slowest] == sorted((a for _, a, _ in slowest), reverse=True), out
    for b, a, ratio in slowest:
        assert abs(ratio - a / b) <= 0.006 * (1 / b + a / b ** 2) + 0.001, out
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "ab_bench.py"), "--home", str(bench_home),
                           "--before", str(tmp_path)], capture_output=True, text=True, check=False)
    assert proc.returncode != 0 and "is not a paperlist tree" in proc.stderr
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "ab_bench.py"), "--home", str(bench_home),
                           "--before", str(other.parent), "--before-home", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode != 0 and f"{tmp_path} is not a paperlist home" in proc.stderr


@pytest.mark.skipif(missing_reason() is not None, reason=f"semantic extra not installed: {missing_reason()}")
def test_embed_subset(bench_home: Path) -> None:
    from paperlist.search import Searcher

    out = run_bench("embed_subset.py", "--home", bench_home, "--top", "3")
    m = re.search(r"^papers wanted: ([\d,]+) \(landmark pool ([\d,]+)\); to embed ([\d,]+), cached before 0$",
                  out, re.MULTILINE)
    assert m, out
    wanted, embedded = int(m[1].replace(",", "")), int(m[3].replace(",", ""))
    assert 0 < embedded <= wanted, out
    m = re.search(r"^embedded ([\d,]+) in \d+ s; published \S+: ([\d,]+) of ([\d,]+) papers$", out,
                  re.MULTILINE)
    assert m and int(m[1].replace(",", "")) == embedded, out
    published, papers = int(m[2].replace(",", "")), int(m[3].replace(",", ""))
    assert embedded <= published < papers == count_papers(bench_home), out
    assert Searcher.open(bench_home).semantic.unavailable() is None      # the partial vectors serve
    again = run_bench("embed_subset.py", "--home", bench_home, "--top", "3")
    assert f"to embed 0, cached before {embedded:,}" in again, again
    assert f": {published:,} of {papers:,} papers" in again, again


def test_vector_cost(vec_home: Path, search_home: Path) -> None:
    out = run_bench("vector_cost.py", "--home", vec_home, "--rounds", "2", "--titles", "3")
    rows = {m[0]: (int(m[1]), *map(float, m[2:])) for m in re.findall(
        rf"^(topical|author|title|filtered|typing|all)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}"
        rf"\s+([+-][\d.]+)$", out, re.MULTILINE)}
    assert set(rows) == {"topical", "author", "title", "filtered", "typing", "all"}, out
    for kind, (n, v50, v95, v99, o50, o95, o99, diff) in rows.items():
        assert n > 0 and 0 < v50 <= v95 <= v99 and 0 < o50 <= o95 <= o99, (kind, out)
        assert abs(diff - (v50 - o50)) < 0.011, (kind, out)      # the medians' difference
    m = re.search(r"^vector cost: (\d+) queries x 2 rounds, .*with vectors, (\d+) of (\d+) searches", out,
                  re.MULTILINE)
    assert m and int(m[3]) == 2 * int(m[1]) == rows["all"][0], out
    assert int(m[2]) > 0, out          # the multi-word topics rank by meaning on the vector side
    # a home without vectors has nothing to compare: a one-line message and a failure
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "vector_cost.py"), "--home", str(search_home),
                           "--rounds", "1"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode != 0 and "has no usable vectors" in proc.stderr, proc.stderr


@pytest.mark.parametrize("args", [[], ["--baseline", "--only-from", "papercopilot"]],
                         ids=["engine", "tantivy-baseline"])
def test_search_eval(bench_home: Path, args: list[str]) -> None:
    n = 3
    out = run_bench("search_eval.py", "--home", bench_home, "--n", n, "--failures", *args)
    assert f"known-item evaluation: {n} titles (seed 7), store {bench_home}, index g" in out, out
    kinds = ("lowercased", "dropped", "typo", "shuffled", "author")
    table = rf"^({'|'.join(kinds)}|overall)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}\s+(\d+)\s+(\d+)$"
    rows = {m[0]: (int(m[1]), float(m[2]), float(m[3]), float(m[4]), int(m[5]), int(m[6]))
            for m in re.findall(table, out, re.MULTILINE)}
    assert set(rows) == {*kinds, "overall"}, out
    for kind, (count, hit, strict, mrr, _twins, skipped) in rows.items():
        assert 0 <= strict <= hit <= mrr <= 1, (kind, out)
        if kind != "overall":
            assert count + skipped == n, (kind, out)
    assert rows["overall"][0] == sum(rows[k][0] for k in kinds) > 0
    assert re.search(rf"search time per query: median {NUM} ms, p95 {NUM} ms", out), out
    assert "targets with title twins:" in out and "author queries that fit 2+ different titles" in out


@pytest.mark.parametrize("variant", ["words", "vectors"])
def test_topics_eval(variant: str, request: pytest.FixtureRequest) -> None:
    from paperlist.topics.source_labels import held_out, label

    home: Path = request.getfixturevalue("bench_home" if variant == "words" else "vec_home")
    split = "held-out" if variant == "words" else "all"
    args = ["--vectors", "--split", "all"] if variant == "vectors" else []
    store = Store(home / "paperlist.db", readonly=True)
    try:
        docs = list(store.iter_topic_docs())
    finally:
        store.close()
    want: dict[str, int] = {}
    for d in docs:
        lab = label(d)
        if lab is not None and (split == "all" or held_out(d.id)):
            want[lab.kind] = want.get(lab.kind, 0) + 1
    assert want, "the fixtures should hold labelled papers on this split"

    out = run_bench("topics_eval.py", "--home", home, *args)
    m = re.search(r"^assign, full corpus: ([\d,]+) papers .*\(([\d.]+)% with topics\)$", out, re.MULTILINE)
    assert m and int(m[1].replace(",", "")) == len(docs) and 0 < float(m[2]) <= 100, out
    assert f"split: {split}" in out
    assert re.search(r"^text probe fitted on [\d,]+ training-side labelled papers", out, re.MULTILINE), out
    if variant == "vectors":
        assert f"vectors: {len(docs):,} papers; probe fitted on" in out, out
    got = {m[0]: (int(m[1].replace(",", "")), float(m[2])) for m in re.findall(
        rf"^(area|keyword)\s+all\s+n=\s*([\d,]+)\s+precision@1 {NUM}", out, re.MULTILINE)}
    assert {k: n for k, (n, _p) in got.items()} == want, out
    assert all(0 <= p <= 1 for _n, p in got.values()), out
    for kind in want:
        for what in (rf"blind, any of 3 n=\s*[\d,]+\s+precision@3 {NUM}",
                     rf"as on the site\s+n=\s*[\d,]+\s+precision@1 {NUM}"):
            assert re.search(rf"^{kind}\s+{what}", out, re.MULTILINE), (kind, what, out)
    assert out.count("   weakest labels: ") == len(want), out


def test_topics_knn(vec_home: Path) -> None:
    out = run_bench("topics_knn.py", "--home", vec_home, "--k", "1", "--weights", "0")
    m = re.search(r"labelled papers with vectors: (\d+) \(train (\d+), (\d+) confirmed; held out (\d+)\)",
                  out)
    assert m, out
    labelled, train, confirmed, test = map(int, m.groups())
    assert labelled == train + test and 1 < confirmed <= train and test > 0, out
    for name in ("words only", "vote alone"):
        line = re.search(rf"^k=1\s+{name}\s+(.*)$", out, re.MULTILINE)
        assert line, (name, out)
        parts = re.findall(rf"(area|keyword) {NUM} \(n=(\d+)\)", line[1])
        assert parts and sum(int(n) for _k, _p, n in parts) == test, (name, out)
        assert all(0 <= float(p) <= 1 for _k, p, _n in parts), (name, out)


@pytest.mark.skipif(missing_reason() is not None, reason=f"semantic extra not installed: {missing_reason()}")
def test_semantic_bench(vec_home: Path) -> None:
    from paperlist.index.vectors import ANN_MIN_ROWS

    papers = count_papers(vec_home)
    # tiled up to the size at which the HNSW graph is built, so that its figures are measured too
    out = run_bench("semantic_bench.py", "--home", vec_home, "--embed-sample", "1", "--queries", "2",
                    "--full-size", ANN_MIN_ROWS)
    assert re.search(r"^encoder precision: (float32|bfloat16)$", out, re.MULTILINE), out
    for budget in (256, 128, 64):
        m = re.search(rf"^embed  title\+abstract  max {budget:>3} tokens\s+{NUM} docs/s", out, re.MULTILINE)
        assert m and float(m[1]) > 0, (budget, out)
    m = re.search(rf"^embed  titles only\s+{NUM} docs/s", out, re.MULTILINE)
    assert m and float(m[1]) > 0, out
    assert f"published vectors: {papers:,} vectors, 2 queries" in out, out
    assert f"(tiled to {ANN_MIN_ROWS:,} rows and built the HNSW graph in" in out, out
    assert f"full-corpus size (tiled): {ANN_MIN_ROWS:,} vectors, 2 queries" in out, out
    m = re.search(rf"HNSW int8 \+ rescore p50\s+{NUM} ms\s+p95\s+{NUM} ms\s+recall@10 {NUM}", out)
    assert m and 0 <= float(m[3]) <= 1, out
    assert re.search(r"^Searcher\.search hybrid .*: p50 [\d.]+ ms  p95 [\d.]+ ms$", out, re.MULTILINE), out
    pairs = re.findall(rf"p50\s+{NUM} ms\s+p95\s+{NUM} ms", out)
    # encode, exact, total on the published vectors; the same and the graph when tiled; hybrid
    assert len(pairs) == 8, out
    assert all(0 <= float(a) <= float(b) for a, b in pairs), out
    m = re.search(r"exact top 10 shared with float32's: ([\d.]+)", out)
    assert m is None or 0 <= float(m[1]) <= 1, out


def test_web_bench(web_home: Path, tmp_path: Path) -> None:
    home = copy_home(web_home, tmp_path / "home")
    n = 3
    out = json.loads(run_bench("web_bench.py", "--home", home, "--requests", n, "--json"))
    assert out["home"] == str(home.resolve()) and out["papers"] == count_papers(home) > 0
    assert set(out["routes"]) == {"/papers/{id}", "/search?q=…", "/conferences/{venue}/{year}/stats",
                                  "/conferences/{venue}/{year}",
                                  "/conferences/{venue}/{year}?per_page=all",
                                  "/topics/{slug}"}, out        # no topic of the fixture has six pages
    assert out["stats_page"] == "/conferences/iclr/2024/stats"          # the fixture's newest ICLR year
    timings = [out["search_engine_ms"]]
    for name, route in out["routes"].items():
        assert route["gzip_kb_median"] > 0, name
        timings += [route["server_ms"], route["http_ms"]]
    for s in timings:
        assert s["n"] >= n and 0 < s["p50"] <= s["p95"] <= s["p99"] <= s["max"], out


def test_ingest_bench(pc_store: Store) -> None:
    out = run_bench("ingest_bench.py", PAPERCOPILOT, "--runs", "1", "--jobs", "1")
    assert f"ingest + search index {PAPERCOPILOT}  (1 runs, " in out, out
    m = re.search(r"papers ([\d,]+)  records ([\d,]+)  venues (\d+)  with abstract ([\d,]+)", out)
    assert m, out
    papers, records, venues, with_abstract = (int(x.replace(",", "")) for x in m.groups())
    assert papers == pc_store.count_papers() and records >= papers and venues > 0 and with_abstract <= papers
    for what in (r"wall time   median", r"peak PSS    median", r"peak RSS    median", r"re-ingest   median",
                 r"throughput "):
        line = re.search(rf"^  {what}(.*)$", out, re.MULTILINE)
        assert line and floats(line[1]) and floats(line[1])[0] > 0, (what, out)


def test_api_bench(bench_home: Path) -> None:
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    # the repo itself as the baseline: the `before` servers and the side-by-side table run too
    out = run_bench("api_bench.py", "--home", bench_home, "--no-datasette", "--seconds", "1",
                    "--workers", "1", "--query", "diffusion", "--baseline", ROOT)
    names = ("ours", "ours-nocache", "before", "before-nocache")
    url = r"http://127\.0\.0\.1:\d+/api/v1/search\?q=\{q\}"
    for name in names:
        assert re.search(rf"^{name}\s+{url}$", out, re.MULTILINE), (name, out)
    rows = {m[0]: tuple(map(float, m[1:4])) + (int(m[4]),) for m in re.findall(
        rf"^  'diffusion'\s+(\S+)\s+{NUM} req/s  p50\s+{NUM} ms  p99\s+{NUM} ms  errors (\d+)  load [\d.]+"
        r"   \(total [1-9][\d,]*, [1-9]\d* hits, facets, snippets\)$", out, re.MULTILINE)}
    assert set(rows) == set(names), out
    for name, (rps, p50, p99, errors) in rows.items():
        assert rps > 0 and 0 < p50 <= p99 and errors == 0, (name, out)
    m = re.search(r"^\| diffusion \| (.*) \|$", out, re.MULTILINE)
    assert m and len(m[1].split(" | ")) == 6, out
    assert "datasette" not in out


def test_distinct_bench(bench_home: Path) -> None:
    """Distinct queries side by side: ours, the bare endpoint and the bare endpoint doing our
    visible work (facets, snippets), in one run, with the ratios."""
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    out = json.loads(run_bench("distinct_bench.py", "--home", bench_home, "--seconds", "1",
                               "--connections", "2", "--workers", "1", "--mixes", "vocab", "titles",
                               "--no-nocache", "--warmup", "1", "--json"))
    got = {(r["mix"], r["server"]): r for r in out["rows"]}
    sides = ("ours", "bare", "bare-full")
    assert set(got) == {(m, s) for m in ("vocab", "titles") for s in sides}, got.keys()
    for (mix, server), r in got.items():
        assert r["rps"] > 0 and r["requests"] > 0, (mix, server, r)
        if server != "bare":        # (tantivy's own parser rejects some titles: 400s)
            assert r["non_2xx"] == 0, (mix, server, r)
    for t in out["table"]:
        assert t["ratio"] == round(t["ours_rps"] / t["bare_rps"], 2), t
        assert t["ratio_full"] == round(t["ours_rps"] / t["bare-full_rps"], 2), t


def test_same_results(bench_home: Path, tmp_path: Path) -> None:
    """The answers saved by one run are found the same by the next, and one changed answer fails."""
    saved = tmp_path / "before.jsonl"
    args = ("--home", bench_home, "--mixes", "vocab", "zh", "--queries", "40")
    assert "saved 80 answers" in run_bench("same_results.py", *args, "--save", saved)
    out = run_bench("same_results.py", *args, "--check", saved)
    assert re.search(r"^vocab\s+40 of 40 the same$", out, re.MULTILINE), out
    assert re.search(r"^zh\s+40 of 40 the same$", out, re.MULTILINE), out
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    rows[3]["answer"] = "200 0000"
    saved.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "same_results.py"), *map(str, args),
                           "--check", saved], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout
    assert re.search(r"^vocab\s+39 of 40 the same$", proc.stdout, re.MULTILINE), proc.stdout


def test_fault_bench() -> None:
    out = run_bench("fault_bench.py", "--trials", 2)
    reference = r"^reference: ingest .*/tests/fixtures in [\d.]+s: [1-9]\d* papers, [1-9]\d* indexed$"
    assert re.search(reference, out, re.MULTILINE), out
    for kind in ("ingest", "index"):
        trials = re.findall(rf"^{kind} trial\s+\d+: (killed|exited \d+ first) at\s+[\d.]+s, \d+ workers "
                            rf"\(0 left\)  -> converged$", out, re.MULTILINE)
        assert len(trials) == 2, out
        summary = rf"^{kind}: converged 2/2  \(killed \d/2, orphan workers 0\)$"
        assert re.search(summary, out, re.MULTILINE), out


def test_load_bench(web_home: Path, tmp_path: Path) -> None:
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    home = copy_home(web_home, tmp_path / "home")
    out = json.loads(run_bench("load_bench.py", "--home", home, "--workers", "1", "--quick", "--json"))
    for run in [out["normal"], *out["overload"]]:
        assert run["requests"] > 0 and set(run["statuses"]) <= {"200", "503"}, run
        assert run["503_without_retry_after"] == 0, run
        assert 0 < run["p50_ms"] <= run["p99_ms"] <= run["max_ms"], run
    assert [r["connections"] for r in out["overload"]] == [200, 1000]
    assert all(r["after"]["statuses"] == [200] for r in out["overload"]), out["overload"]
    slow = out["slow"]
    assert slow["dropped"] == slow["clients"] == 100, slow
    assert slow["answers"] == {"HTTP/1.1 408 Request Timeout": 100}, slow
    after_s = slow["dropped_after_s"]
    assert 0.9 <= after_s["min"] <= after_s["max"] < 5 and slow["probe"]["n"] > 0
    bombs = out["bombs"]
    assert len(bombs["results"]) == 4 and bombs["healthy_after"], bombs
    for r in bombs["results"]:
        assert r["answer"] in ("HTTP/1.1 431 Request Header Fields Too Large", "closed", "reset"), bombs
        assert r["sent_mb"] < bombs["mb_each"], bombs
    hostile = out["hostile"]
    assert len(hostile["requests"]) > 25 and hostile["healthy_after"], hostile
    assert hostile["server_errors"] == 0 and hostile["host_reflected"] == 0, hostile
    by_name = {r["request"]: r["status"] for r in hostile["requests"]}
    assert by_name["URL 100 KB"] == 414 and by_name["20,000 headers"] == 431 and by_name["header 1 MB"] == 431


@pytest.mark.skipif(missing_reason() is not None, reason=f"semantic extra not installed: {missing_reason()}")
def test_embed_load_bench(icra_home: Path) -> None:
    if shutil.which("wrk") is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    def files() -> list[tuple[str, float]]:
        return sorted((str(p), p.stat().st_mtime) for p in icra_home.rglob("*") if p.is_file())

    before = files()
    out = json.loads(run_bench("embed_load_bench.py", "--home", icra_home, "--seconds", "1",
                               "--mixes", "vocab", "--json"))
    assert files() == before                   # the bench works on a copy of the home
    phases = {r["phase"]: r for r in out["rows"]}
    assert list(phases) == ["alone", "job", "job+vectors"], out
    for r in phases.values():
        assert r["requests"] > 0 and r["non_2xx"] == 0 and 0 < r["p50_ms"] <= r["p99_ms"], r
    assert phases["alone"]["job_rate"] is None and phases["alone"]["share"] == 0
    assert 0 < phases["job+vectors"]["share"] <= 1, phases


def test_bridge_eval(tmp_path: Path) -> None:
    """The bridge against the hidden glossary, and the Chinese topic queries three ways, on a
    home whose summaries teach one word (tests/test_bridge.py's records)."""
    from tests.test_bridge import _records
    from tests.webdata import build_store

    build_store(tmp_path, extra=_records()).close()
    out = json.loads(run_bench("bridge_eval.py", "--home", tmp_path, "--json"))
    entries = out["entries"]
    assert out["summaries"] == 28 and out["guessable"] == sum(v for k, v in entries.items() if k != "rare")
    assert out["guessable"] == len(out["rows"]) > 400          # every glossary entry, guessed or not
    assert {"same", "overlap", "other", "no guess"} >= {v for *_, v in out["rows"]}
    assert out["queries"] == len(out["per_query"]) >= 20
    assert out["ndcg"]["dropped"] <= out["ndcg"]["glossary"]
    assert out["unknown_zh"]["queries"] == len(out["unknown_rows"]) == 15
    empty = tmp_path / "empty"
    build_store(empty).close()       # the site's corpus: two summaries, no word to learn, still a bridge
    assert json.loads(run_bench("bridge_eval.py", "--home", empty, "--json"))["summaries"] == 2


def _judgments(path: Path, rows: list[tuple[str, str, int]]) -> Path:
    path.write_text("qid\tpaper_id\tgrade\tcanonical\ttitle\n"
                    + "".join(f"{q}\t{p}\t{g}\t0\tt\n" for q, p, g in rows), encoding="utf-8")
    return path


def _agreement_rows(out: str) -> dict[str, list[float]]:
    """group -> [queries, pairs, agreement, kappa, ceiling second->first, first->second]"""
    return {m.group(1).strip(): [float(x) for x in m.group(2).split()[:6]]
            for m in re.finditer(r"^(en|zh|en broad|held-out)\s+(\d.*)$", out, re.M)}


def test_rater_agreement(tmp_path: Path) -> None:
    """Agreement, kappa and the ceiling (a ranking perfect for one rater, scored by the other),
    checked against figures worked by hand, then on the repository's two judgment files."""
    first = _judgments(tmp_path / "a.tsv", [("en01", "p1", 2), ("en01", "p2", 1),
                                            ("zh01", "p1", 2), ("zh01", "p2", 2)])
    second = _judgments(tmp_path / "b.tsv", [("en01", "p1", 1), ("en01", "p2", 2),
                                             ("zh01", "p1", 2), ("zh01", "p2", 0)])
    rows = _agreement_rows(run_bench("rater_agreement.py", "--first", first, "--second", second))
    # en01: no grade agrees (kappa -1); the second's order (p2, p1) scores (1 + 3/log2 3) / (3 + 1/log2 3)
    # (and the first's order, p1 then p2, the same for the second)
    assert rows["en"] == pytest.approx([1, 2, 0.0, -1.0, 0.797, 0.797], abs=1e-3)
    # zh01: the second's order is perfect for the first; the first's tie (both 2) is worth, in any
    # order, the mean gain 1.5 at both places for the second: 1.5 (1 + 1/log2 3) / 3
    assert rows["zh"] == pytest.approx([1, 2, 0.5, 0.0, 1.0, 0.815], abs=1e-3)
    real = _agreement_rows(run_bench("rater_agreement.py"))
    for name in ("en", "zh", "held-out"):
        n, pairs, agree, kappa, up, down = real[name]
        assert n > 0 and pairs > 10 * n and 0.5 < agree <= 1 and 0 < kappa <= agree
        assert 0.5 < up <= 1 and 0.5 < down <= 1
