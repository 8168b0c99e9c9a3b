"""The load event of a page in Debian Chromium (headless): a fresh browser context per load, one
warm-up load first, then the median and p95 of N loads, with the first byte, DOMContentLoaded, the
bytes transferred, and for a conference-year list the rows and the triage buttons built so far.

    URL='http://127.0.0.1:8155/en/conferences/neurips/2025?per_page=all'
    .venv/bin/python benchmarks/page_load_bench.py "$URL" 5

(a server over a full-corpus home: ``paperlist --home H serve --port 8155 --workers 1 --no-embed``)
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
    url = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(n + 1):                       # the first load warms the server and Chromium
            ctx = browser.new_context(viewport={"width": 1366, "height": 900})
            page = ctx.new_page()
            page.goto(url, wait_until="load", timeout=60_000)
            t = page.evaluate(_TIMINGS)
            ctx.close()
            if i:
                out.append(t)
        browser.close()
    loads = sorted(x["load"] for x in out)
    print(json.dumps({"url": url, "n": n, "load_ms": [round(x) for x in loads],
                      "load_median": round(statistics.median(loads)), "load_p95": round(pct(loads, 95)),
                      "dcl_median": round(statistics.median(x["dcl"] for x in out)),
                      "ttfb_median": round(statistics.median(x["ttfb"] for x in out)),
                      "rows": out[-1]["rows"], "buttons": out[-1]["buttons"],
                      "transfer": out[-1]["transfer"]}))


if __name__ == "__main__":
    main()
