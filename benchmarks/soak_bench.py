"""A long mixed load of queries nobody asked before, side by side with the bare tantivy endpoint
(issue 22): does memory stay flat, and what does our API cost over the least a search can do?

    .venv/bin/python benchmarks/soak_bench.py --home /tmp/h22 --minutes 10
    .venv/bin/python benchmarks/soak_bench.py --home HOME --minutes 0.1 --json     # the tests

In one run, one after the other, each for ``--minutes`` at ``--connections`` keep-alive
connections (wrk, 2 threads, 2 s timeout), against 2-worker servers over the same home:

- ``ours``: ``paperlist serve``, a mix of distinct requests: ``/api/v1/search`` with three random
  words of a 120-word vocabulary (~1.7M combinations, so the per-worker cache rarely answers),
  a random page of 1–3, and for one request in four a venue or year filter; one in ten is a
  conference-year list page (``/en/conferences/{venue}/{year}``).
- ``bare``: ``benchmarks/bare_endpoint.py`` under uvicorn, ``/search`` with the same random words.

Each worker's RSS is sampled every ``--every`` seconds; growth is counted from the first sample
after warm-up (``--warmup`` seconds) to the end. It prints requests/s, p50/p99, non-2xx, socket
errors and timeouts, and RSS per worker, for both, and our req/s over the bare endpoint's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_bench import LUA_DONE, Server, wrk  # noqa: E402

VOCAB = (
    "diffusion transformer graph kv cache reinforcement policy vision language model attention robust "
    "federated contrastive sparse quantization retrieval agent reasoning optimization kernel bayesian "
    "causal token video point cloud speech protein neural network learning adversarial generative "
    "segmentation detection tracking pose depth estimation representation self supervised few shot "
    "zero meta continual transfer domain adaptation generalization uncertainty calibration fairness "
    "privacy differential clustering embedding hashing recommendation ranking search question answering "
    "dialogue translation summarization parsing entity relation extraction knowledge distillation "
    "pruning compression efficient inference scaling benchmark dataset evaluation alignment preference "
    "reward bandit exploration planning control robot navigation manipulation simulation physics "
    "molecule chemistry medical image 3d mesh rendering radiance field gaussian splatting sampling "
    "variational autoencoder flow matching score energy contrastive prompt instruction tuning lora"
).split()
VENUES = [("neurips", 2024), ("iclr", 2025), ("icml", 2024), ("cvpr", 2024), ("acl", 2024), ("emnlp", 2023)]

LUA = """
local words = {WORDS}
local venues = {VENUES}
local years = {YEARS}
local threads = {}
local counter = 0
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {}; noretry = 0; math.randomseed(os.time() * 1000 + counter); counter = counter + 1 end
local function q() return words[math.random(#words)] .. "+" .. words[math.random(#words)] .. "+" .. words[math.random(#words)] end
request = function()
  if MODE == "bare" then return wrk.format("GET", "/search?q=" .. q()) end
  local r = math.random(20)
  local v = math.random(#venues)
  if r <= 2 then return wrk.format("GET", "/en/conferences/" .. venues[v] .. "/" .. years[v]) end
  local path = "/api/v1/search?q=" .. q() .. "&page=" .. math.random(3)
  if r <= 5 then path = path .. "&venue=" .. venues[v] elseif r <= 7 then path = path .. "&year=" .. years[v] end
  return wrk.format("GET", path)
end
LUA_DONE"""


def lua(mode: str) -> str:
    return (LUA.replace("LUA_DONE", LUA_DONE).replace("{WORDS}", "{" + ",".join(f'"{w}"' for w in VOCAB) + "}")
            .replace("{VENUES}", "{" + ",".join(f'"{v}"' for v, _ in VENUES) + "}")
            .replace("{YEARS}", "{" + ",".join(str(y) for _, y in VENUES) + "}")
            .replace("MODE", f'"{mode}"'))


def soak(server: Server, mode: str, connections: int, seconds: float, every: float,
         warmup: float, tmp: Path) -> dict[str, Any]:
    script = tmp / f"{mode}.lua"
    script.write_text(lua(mode))
    samples: list[tuple[float, dict[int, float]]] = []
    result: dict[str, Any] = {}
    t0 = time.monotonic()
    runner = threading.Thread(target=lambda: result.update(wrk(server.url, connections, seconds, script)))
    runner.start()
    while runner.is_alive():
        samples.append((time.monotonic() - t0, server.worker_rss_mb()))
        runner.join(timeout=every)
    samples.append((time.monotonic() - t0, server.worker_rss_mb()))
    base = next((s for t, s in samples if t >= warmup), samples[-1][1])
    end = samples[-1][1]
    result["rss_mb"] = {str(pid): {"after_warmup": round(base.get(pid, 0.0), 1), "end": round(mb, 1),
                                   "growth": round(mb - base.get(pid, mb), 1)} for pid, mb in end.items()}
    result["max_growth_mb"] = max((v["growth"] for v in result["rss_mb"].values()), default=0.0)
    result["rss_curve_mb"] = [(round(t), round(sum(s.values()), 1)) for t, s in samples]
    result["non_2xx"] = sum(n for code, n in result["statuses"].items() if not code.startswith("2"))
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--every", type=float, default=30, help="seconds between RSS samples")
    ap.add_argument("--warmup", type=float, default=60, help="seconds before RSS growth is counted")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    seconds = max(2.0, a.minutes * 60)
    warmup = min(a.warmup, seconds / 3)
    every = min(a.every, seconds / 4)
    here = Path(__file__).resolve().parent
    bare_cmd = [sys.executable, "-m", "uvicorn", "bare_endpoint:app", "--app-dir", str(here), "--port", "{port}",
                "--workers", str(a.workers), "--no-access-log", "--log-level", "warning"]
    out: dict[str, Any] = {"home": str(a.home.resolve()), "minutes": a.minutes, "connections": a.connections,
                           "workers": a.workers}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("ours", "bare"):
            server = (Server(a.home, a.workers, 10.0) if mode == "ours" else
                      Server(a.home, a.workers, 10.0, cmd=bare_cmd, env={"PAPERLIST_HOME": str(a.home)}))
            try:
                out[mode] = soak(server, mode, a.connections, seconds, every, warmup, Path(tmp))
            finally:
                server.stop()
    out["ratio"] = round(out["ours"]["rps"] / (out["bare"]["rps"] or 1), 2)
    if a.json:
        print(json.dumps(out))
        return
    print(f"{a.minutes:g} min each at {a.connections} connections, {a.workers} workers, over {out['home']}")
    for mode in ("ours", "bare"):
        r = out[mode]
        print(f"  {mode:<5} {r['rps']:>7.0f} req/s  p50 {r['p50_ms']:7.1f} ms  p99 {r['p99_ms']:7.1f} ms  "
              f"max {r['max_ms']:7.1f} ms  non-2xx {r['non_2xx']}  socket errors {r['socket_errors']}  "
              f"timeouts {r['timeouts']}  statuses {r['statuses']}")
        print("        RSS per worker (after warm-up → end, MB): "
              + ", ".join(f"{v['after_warmup']}→{v['end']} ({v['growth']:+})" for v in r["rss_mb"].values()))
        print(f"        RSS total over time (s, MB): {r['rss_curve_mb']}")
    print(f"  ours / bare: {out['ratio']:.2f} of the bare endpoint's requests/s")


if __name__ == "__main__":
    main()
