"""The load event of a page in Debian Chromium (headless): a fresh browser context per load, one
warm-up load first, then the median and p95 of N loads, with the first byte, DOMContentLoaded, the
bytes transferred, and for a conference-year list the rows and the triage buttons built so far.

    URL='http://127.0.0.1:8155/en/conferences/neurips/2025?per_page=all'
    .venv/bin/python benchmarks/page_load_bench.py "$URL" 5
    .venv/bin/python benchmarks/page_load_bench.py "$BEFORE" "$AFTER" 9     # side by side, interleaved

(a server over a full-corpus home: ``paperlist --home H serve --port 8155 --workers 1 --no-embed``;
for a before/after, a second server from a worktree of the older commit on another port). Several
URLs are loaded in turn, so that the machine's noise falls on all of them alike.
"""

from __future__ import annotations

import json
import statistics
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
_TIMINGS = """() => { const e = performance.getEntriesByType('navigation')[0];
    return {load: e.loadEventEnd, dcl: e.domContentLoadedEventEnd, ttfb: e.responseStart,
            transfer: e.transferSize, rows: document.querySelectorAll('[data-triage] li').length,
            buttons: document.querySelectorAll('[data-triage] button').length}; }"""


def pct(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def main() -> None:
    n = int(sys.argv[-1]) if len(sys.argv) > 2 and sys.argv[-1].isdigit() else 5
    urls = [a for a in sys.argv[1:] if not a.isdigit()]
    out: dict[str, list[dict]] = {u: [] for u in urls}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(n + 1):                       # the first load warms the server and Chromium
            for url in urls:
                ctx = browser.new_context(viewport={"width": 1366, "height": 900})
                page = ctx.new_page()
                page.goto(url, wait_until="load", timeout=60_000)
                t = page.evaluate(_TIMINGS)
                ctx.close()
                if i:
                    out[url].append(t)
        browser.close()
    for url, xs in out.items():
        loads = sorted(x["load"] for x in xs)
        print(json.dumps({"url": url, "n": n, "load_ms": [round(x) for x in loads],
                          "load_median": round(statistics.median(loads)), "load_p95": round(pct(loads, 95)),
                          "dcl_median": round(statistics.median(x["dcl"] for x in xs)),
                          "ttfb_median": round(statistics.median(x["ttfb"] for x in xs)),
                          "rows": xs[-1]["rows"], "buttons": xs[-1]["buttons"],
                          "transfer": xs[-1]["transfer"]}))


if __name__ == "__main__":
    main()
