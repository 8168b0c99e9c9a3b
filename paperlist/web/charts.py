"""Charts as data for inline SVG: the server computes every rectangle, the template only draws them
(no chart library, no script, no inline style — the CSP forbids both)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..store.rows import VenueYear

# Stacked series of a venue's accepted papers per year: (name, statuses it sums, CSS class).
# Rejected submissions are not drawn: sources list them for some years only, so bars of
# everything listed would jump (ICLR: 11.7K in 2025, 5.4K in 2026).
SERIES = (
    ("oral", ("oral",), "s-oral"),
    ("spotlight", ("spotlight", "highlight"), "s-spot"),
    ("accepted", ("poster", "accepted", None), "s-acc"),
)


def nice_max(v: int) -> int:
    """The smallest 1/2/5 × 10^k at or above v."""
    if v <= 0:
        return 1
    k = 1
    while True:
        for m in (1, 2, 5):
            if m * k >= v:
                return m * k
        k *= 10


def axis(v: int, intervals: int = 5) -> tuple[int, list[int]]:
    """A count axis up to at least ``v``: (top, tick values), the ticks a 1/2/5 × 10^k step apart
    and at most ``intervals`` of them, so every label is a round number (0, 1K, 2K … 5K; never
    0, 1K, 2K, 4K, 5K from quarters of 5,000)."""
    step = nice_max(max(1, -(-v // intervals)))
    top = max(step, -(-v // step) * step)
    return top, list(range(0, top + 1, step))


def y_ticks(values: list[int], top: int, base: float, plot_h: float) -> list[dict[str, Any]]:
    return [{"value": t, "y": round(base - plot_h * t / top, 1)} for t in values]


def is_partial(year: int, today: dt.date | None = None) -> bool:
    """Whether a year's counts are still growing: the current year (and any later one) is not over."""
    return year >= (today or dt.date.today()).year


def year_bars(rows: list[VenueYear], width: int = 720, height: int = 220) -> dict[str, Any]:
    """A stacked bar chart of papers per year from ``venue_year_counts`` rows.

    Returns the viewBox size, y-axis ticks and one bar per year with its stacked segments
    (x, y, w, h, class, count), in SVG user units."""
    left, right, top, bottom = 44, 8, 10, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    if not rows:
        return {"width": width, "height": height, "bars": [], "ticks": [], "series": []}
    years = list(range(rows[0]["year"], rows[-1]["year"] + 1))
    by_year = {r["year"]: r for r in rows}
    top_v, tick_values = axis(max(sum(r["statuses"].get(s, 0) for _, sts, _ in SERIES for s in sts)
                                  for r in rows))
    slot = plot_w / len(years)
    bar_w = max(2.0, min(36.0, slot * 0.72))
    label_every = max(1, round(len(years) / 12))
    bars = []
    for i, year in enumerate(years):
        r = by_year.get(year)
        x = left + i * slot + (slot - bar_w) / 2
        segs: list[dict[str, Any]] = []
        y: float = top + plot_h
        if r:
            for name, statuses, cls in SERIES:
                n = sum(r["statuses"].get(s, 0) for s in statuses)
                if n:
                    h = plot_h * n / top_v
                    y -= h
                    segs.append({"name": name, "cls": cls, "count": n, "x": round(x, 1), "y": round(y, 1),
                                 "w": round(bar_w, 1), "h": round(max(h, 0.5), 1)})
        bars.append({"year": year, "total": sum(int(s["count"]) for s in segs), "segments": segs,
                     "partial": is_partial(year),
                     "label": year if (len(years) - 1 - i) % label_every == 0 else None,
                     "lx": round(x + bar_w / 2, 1), "ly": height - 8,
                     "hx": round(left + i * slot, 1), "hw": round(slot, 1)})
    ticks = y_ticks(tick_values, top_v, top + plot_h, plot_h)
    present = [name for name, statuses, _ in SERIES
               if any(r["statuses"].get(s, 0) for r in rows for s in statuses)]
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "bottom": top + plot_h, "bars": bars, "ticks": ticks,
            "partial_year": next((b["year"] for b in bars if b["partial"]), None),
            "series": [{"name": n, "cls": c} for n, _, c in SERIES if n in present]}
