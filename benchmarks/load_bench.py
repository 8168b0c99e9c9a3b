"""The hardened server under overload and hostile clients (issue 22): `paperlist serve` in one run,
phase after phase.

    apt-get install wrk        # the load generator (Debian package)
    .venv/bin/python benchmarks/load_bench.py --home /tmp/h22 --workers 2
    .venv/bin/python benchmarks/load_bench.py --home HOME --quick --json     # seconds, for the tests

Phases, against one server:
- ``normal``: wrk, 8 keep-alive connections, a mix of distinct searches (60%), the venue list (20%)
  and the English home page (20%): requests/s, p50/p99, statuses.
- ``overload``: the same mix at 200 and 1,000 connections with wrk's 2 s timeout: every request
  must be answered within 2 s (no timeouts), by a result or a 503 with Retry-After; then 20
  requests one after the other (``after``) must be 200 and fast.
- ``slow``: 500 slowloris clients sending a header line every 10 s (``--quick``: 100, every
  0.3 s, header timeout 1 s): when the server drops them (s after connecting) and with what,
  while a probe's normal requests (a fresh connection each) keep their p50/p99.
- ``bombs``: 4 connections each sending up to 100 MB of request headers (``--quick``: 10 MB):
  bytes the server took before refusing, its answer, and the workers' RSS growth (peak - before).
- ``hostile``: a small corpus of malformed and hostile requests, one connection each: the status
  of each, any 5xx, whether a forged Host came back, and that the server still answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORDS = (
    "diffusion transformer graph kv cache reinforcement policy vision language model attention robust "
    "federated contrastive sparse quantization retrieval agent reasoning optimization kernel bayesian "
    "causal token video point cloud speech protein"
).split()
# The end of every wrk script here: statuses counted, 503s without Retry-After, one RESULT line.
LUA_DONE = """function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if status == 503 and headers["retry-after"] == nil then noretry = noretry + 1 end
end
function done(summary, latency, requests)
  local all = {}
  local missing = 0
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do all[k] = (all[k] or 0) + v end
    missing = missing + t:get("noretry")
  end
  local s = ""
  for k, v in pairs(all) do s = s .. " s" .. k .. "=" .. v end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d timeouts=%d errors=%d p50=%d p99=%d max=%d noretry=%d%s\\n",
    summary.requests, e.timeout, e.connect + e.read + e.write,
    latency:percentile(50), latency:percentile(99), latency.max, missing, s))
end
"""
LUA = """
local words = {WORDS}
local threads = {}
local counter = 0
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {}; noretry = 0; math.randomseed(os.time() + counter); counter = counter + 1 end
request = function()
  local r = math.random(10)
  if r <= 6 then
    return wrk.format("GET", "/api/v1/search?q=" .. words[math.random(#words)] .. "+" ..
                      words[math.random(#words)] .. "&page=" .. math.random(3))
  elseif r <= 8 then return wrk.format("GET", "/api/v1/conferences")
  else return wrk.format("GET", "/en/") end
end
LUA_DONE""".replace("WORDS", ",".join(f'"{w}"' for w in WORDS)).replace("LUA_DONE", LUA_DONE)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`paperlist serve` in a subprocess; its worker processes' RSS from /proc."""

    def __init__(self, home: Path, workers: int, header_timeout: float,
                 cmd: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        """``cmd`` (with ``{port}``): another server to run instead (the bare endpoint)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).parent / "paperlist"
        argv = [str(exe), "--home", str(home), "serve", "--port", str(self.port),
                "--workers", str(workers), "--header-timeout", str(header_timeout)]
        if cmd is not None:
            argv = [a.format(port=self.port) for a in cmd]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True, env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 120
        while not ok(self.url + "/healthz"):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise SystemExit("paperlist serve did not start")
            time.sleep(0.3)
        time.sleep(3 if workers > 1 else 1)  # both workers up, page warm-up done

    def workers(self) -> list[int]:
        kids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                cmd = (stat.parent / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid and b"resource_tracker" not in cmd:
                kids.append(int(stat.parent.name))
        return kids or [self.proc.pid]

    def rss_mb(self) -> float:
        return sum(self.worker_rss_mb().values())

    def worker_rss_mb(self) -> dict[int, float]:
        """Each worker process's resident memory, MB."""
        out = {}
        for pid in self.workers():
            try:
                m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
            except OSError:
                continue
            out[pid] = int(m[1]) / 1024 if m else 0.0
        return out

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return bool(r.status == 200)
    except (OSError, urllib.error.HTTPError):
        return False


def timed_get(url: str) -> tuple[int, float]:
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            r.read()
            code = r.status
    except urllib.error.HTTPError as e:
        code = e.code
    except OSError:
        code = 0
    return code, (time.perf_counter() - t0) * 1000


def wrk(url: str, connections: int, seconds: float, lua: Path) -> dict[str, Any]:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "2s", "-s", str(lua), url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    ).stdout
    m = re.search(r"^RESULT (.*)$", out, re.MULTILINE)
    if not m:
        raise SystemExit("wrk gave no result:\n" + out)
    fields = dict(kv.split("=") for kv in m[1].split())
    statuses = {k[1:]: int(v) for k, v in fields.items() if k.startswith("s")}
    return {
        "connections": connections,
        "requests": int(fields["requests"]),
        "timeouts": int(fields["timeouts"]),
        "socket_errors": int(fields["errors"]),
        "rps": round(int(fields["requests"]) / seconds, 1),
        "p50_ms": int(fields["p50"]) / 1000,
        "p99_ms": int(fields["p99"]) / 1000,
        "max_ms": int(fields["max"]) / 1000,
        "statuses": statuses,
        "503_without_retry_after": int(fields["noretry"]),
    }


def after(url: str) -> dict[str, Any]:
    """Right after a load: 20 requests one after the other."""
    runs = [timed_get(f"{url}/api/v1/search?q=after+{i}+{time.time_ns()}") for i in range(20)]
    times = sorted(t for _c, t in runs)
    return {
        "statuses": sorted({c for c, _t in runs}),
        "first_ms": round(runs[0][1], 1),
        "p50_ms": round(statistics.median(times), 1),
        "max_ms": round(times[-1], 1),
    }


async def slow_clients(port: int, n: int, interval: float, seconds: float) -> dict[str, Any]:
    """``n`` slowloris clients and a probe of normal requests meanwhile."""
    dropped: list[float] = []
    answers: dict[str, int] = {}

    async def slow(i: int) -> None:
        t0 = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            answers["connect-failed"] = answers.get("connect-failed", 0) + 1
            return
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        first = b""
        try:
            for k in range(int(seconds / interval) + 1):
                try:
                    first = await asyncio.wait_for(reader.read(100), timeout=interval)
                    break  # an answer or the close
                except TimeoutError:
                    writer.write(b"X-Slow-%d: %d\r\n" % (k, i))
        except OSError:
            pass
        dropped.append(time.monotonic() - t0)
        kind = first.split(b"\r\n", 1)[0].decode("latin-1") or "closed"
        answers[kind] = answers.get(kind, 0) + 1
        writer.close()

    async def probe() -> list[float]:
        times = []
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            t0 = time.perf_counter()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            head = f"GET /api/v1/search?q=probe+{i} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            writer.write(head.encode())
            await reader.read()
            writer.close()
            times.append((time.perf_counter() - t0) * 1000)
            i += 1
            await asyncio.sleep(0.02)
        return times

    tasks = [asyncio.create_task(slow(i)) for i in range(n)]
    await asyncio.sleep(0.5)
    times = sorted(await probe())
    await asyncio.gather(*tasks)
    return {
        "clients": n,
        "line_every_s": interval,
        "dropped": len(dropped),
        "answers": answers,
        "dropped_after_s": {
            "min": round(min(dropped), 2),
            "median": round(statistics.median(dropped), 2),
            "max": round(max(dropped), 2),
        },
        "probe": {
            "n": len(times),
            "p50_ms": round(times[len(times) // 2], 1),
            "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1),
            "max_ms": round(times[-1], 1),
        },
    }


def bombs(server: Server, n: int, megabytes: int) -> dict[str, Any]:
    """``n`` connections each sending up to ``megabytes`` MB of headers, at once."""
    before = server.rss_mb()
    peak = [before]
    results: list[dict[str, Any]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], server.rss_mb())
            time.sleep(0.02)

    def bomb() -> None:
        t0 = time.monotonic()
        sent = 0
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            chunk = b"X-Bomb: " + b"b" * (2**20 - 10) + b"\r\n"
            try:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while sent < megabytes * 2**20:
                    s.sendall(chunk)
                    sent += len(chunk)
            except OSError:
                pass
            try:
                answer = s.recv(200).split(b"\r\n", 1)[0].decode("latin-1") or "closed"
            except OSError:
                answer = "reset"
        results.append(
            {"sent_mb": round(sent / 2**20, 1), "answer": answer, "s": round(time.monotonic() - t0, 2)}
        )

    sampler = threading.Thread(target=sample)
    sampler.start()
    threads = [threading.Thread(target=bomb) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(0.3)
    stop.set()
    sampler.join()
    return {
        "connections": n,
        "mb_each": megabytes,
        "results": results,
        "rss_before_mb": round(before, 1),
        "rss_growth_mb": round(peak[0] - before, 1),
        "healthy_after": ok(server.url + "/healthz"),
    }


HOSTILE: list[tuple[str, bytes]] = [
    ("no version", b"GET /\r\n\r\n"),
    ("garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 50),
    ("bad method", b"G\x00T / HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("header without colon", b"GET / HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n"),
    ("obs-fold", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n continued\r\n\r\n"),
    ("NUL in header", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n"),
    (
        "CL + TE",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ),
    ("two CL", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"),
    ("negative CL", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
    ("huge CL", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n"),
    ("bad chunk", b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
    ("POST to API", b"POST /api/v1/search HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"),
    ("TRACE", b"TRACE / HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("CONNECT", b"CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n"),
    ("absolute-form", b"GET http://evil.example/api/v1/stats HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
    ("forged Host feed", b"GET /api/v1/search?q=model&format=atom HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
    ("forged Host csv", b"GET /api/v1/search?q=model&format=csv HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
    (
        "X-Forwarded-Host",
        b"GET /api/v1/search?q=model&format=atom HTTP/1.1\r\nHost: x\r\n"
        b"X-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: gopher\r\n\r\n",
    ),
    ("bad percent-encoding", b"GET /search?q=%ZZ%E4 HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("overlong UTF-8 path", b"GET /papers/%C0%AE%C0%AE/etc HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("path traversal static", b"GET /static/..%2f..%2fpaperlist.db HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("URL 20 KB", b"GET /api/v1/search?q=" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("URL 100 KB", b"GET /api/v1/search?q=" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
    ("header 1 MB", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 2**20 + b"\r\n\r\n"),
    ("20,000 headers", b"GET / HTTP/1.1\r\nHost: x\r\n" + b"a: b\r\n" * 20_000 + b"\r\n"),
    (
        "query 1,000 params",
        b"GET /api/v1/search?"
        + b"&".join(b"q=%d" % i for i in range(1000))
        + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    ),
    ("per_page huge", b"GET /api/v1/search?q=a&per_page=99999999999999999999 HTTP/1.1\r\nHost: x\r\n\r\n"),
    (
        "websocket upgrade",
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    ),
    (
        "h2c upgrade",
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
        b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
    ),
    ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
    ("pipelined 50", b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 50),
]


def hostile(server: Server) -> dict[str, Any]:
    rows = []
    for name, data in HOSTILE:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            try:
                s.sendall(data)
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            answer = b""
            try:
                while len(answer) < 2_000_000 and (chunk := s.recv(65536)):
                    answer += chunk
            except OSError:
                pass
        first = answer.split(b"\r\n", 1)[0].decode("latin-1")
        code = int(first.split()[1]) if first.startswith("HTTP/1.1 ") else 0
        rows.append(
            {
                "request": name,
                "status": code or "closed",
                "responses": answer.count(b"HTTP/1.1 "),
                "host_reflected": b"evil.example" in answer or b"gopher" in answer,
            }
        )
    return {
        "requests": rows,
        "server_errors": sum(
            1 for r in rows if isinstance(r["status"], int) and r["status"] >= 500 and r["status"] != 503
        ),
        "host_reflected": sum(1 for r in rows if r["host_reflected"]),
        "healthy_after": ok(server.url + "/healthz"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=15, help="each wrk run")
    ap.add_argument("--quick", action="store_true", help="seconds, not minutes (the tests)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    a = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    seconds = 2 if a.quick else a.seconds
    slow_n, slow_every, header_timeout, bomb_mb = (100, 0.3, 1.0, 10) if a.quick else (500, 10.0, 10.0, 100)
    server = Server(a.home, a.workers, header_timeout)
    out: dict[str, Any] = {
        "home": str(a.home.resolve()),
        "workers": a.workers,
        "header_timeout_s": header_timeout,
    }
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lua = Path(tmp) / "mix.lua"
            lua.write_text(LUA)
            out["normal"] = wrk(server.url, 8, seconds, lua)
            out["overload"] = []
            for c in (200, 1000):
                run = wrk(server.url, c, seconds, lua)
                run["after"] = after(server.url)
                out["overload"].append(run)
        out["slow"] = asyncio.run(
            slow_clients(server.port, slow_n, slow_every, header_timeout + 2 * slow_every + 1)
        )
        out["bombs"] = bombs(server, 4, bomb_mb)
        out["hostile"] = hostile(server)
        out["rss_end_mb"] = round(server.rss_mb(), 1)
    finally:
        server.stop()
    if a.json:
        print(json.dumps(out))
        return
    print(f"paperlist serve --workers {a.workers} over {out['home']} (header timeout {header_timeout:g} s)")
    for run in [out["normal"], *out["overload"]]:
        print(
            f"  {run['connections']:>5} connections: {run['rps']:>7.0f} req/s  p50 {run['p50_ms']:7.1f} ms  "
            f"p99 {run['p99_ms']:7.1f} ms  max {run['max_ms']:7.1f} ms  timeouts {run['timeouts']}  "
            f"statuses {run['statuses']}  503 without Retry-After {run['503_without_retry_after']}"
        )
        if "after" in run:
            print(f"        right after: {run['after']}")
    print(f"  slow clients: {json.dumps(out['slow'])}")
    print(f"  header bombs: {json.dumps(out['bombs'])}")
    h = out["hostile"]
    print(
        f"  hostile corpus: {len(h['requests'])} requests, 5xx (not 503) {h['server_errors']}, "
        f"forged Host reflected {h['host_reflected']}, healthy after {h['healthy_after']}"
    )
    for r in h["requests"]:
        print(
            f"    {r['request']:<24} {r['status']}"
            + (f" ({r['responses']} responses)" if r["responses"] > 1 else "")
        )
    print(f"  workers' RSS at the end: {out['rss_end_mb']} MB")


if __name__ == "__main__":
    main()
