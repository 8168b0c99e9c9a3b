"""Charts as data for inline SVG: the server computes every rectangle, the template only draws them
(no chart library, no script, no inline style — the CSP forbids both)."""

from __future__ import annotations

from typing import Any

from ..store.rows import VenueYear

# Stacked series of a venue's papers per year: (name, statuses it sums, CSS class).
SERIES = (
    ("oral", ("oral",), "s-oral"),
    ("spotlight", ("spotlight", "highlight"), "s-spot"),
    ("accepted", ("poster", "accepted", None), "s-acc"),
    ("rejected", ("rejected", "withdrawn", "desk-rejected"), "s-rej"),
)


def nice_max(v: int) -> int:
    """The smallest 1/2/5 × 10^k at or above v (axis top)."""
    if v <= 0:
        return 1
    k = 1
    while True:
        for m in (1, 2, 5):
            if m * k >= v:
                return m * k
        k *= 10


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
    top_v = nice_max(max(r["total"] for r in rows))
    slot = plot_w / len(years)
    bar_w = max(2.0, min(36.0, slot * 0.72))
    label_every = max(1, round(len(years) / 12))
    bars = []
    for i, year in enumerate(years):
        r = by_year.get(year)
        x = left + i * slot + (slot - bar_w) / 2
        segs = []
        y: float = top + plot_h
        if r:
            for name, statuses, cls in SERIES:
                n = sum(r["statuses"].get(s, 0) for s in statuses)
                if n:
                    h = plot_h * n / top_v
                    y -= h
                    segs.append({"name": name, "cls": cls, "count": n, "x": round(x, 1), "y": round(y, 1),
                                 "w": round(bar_w, 1), "h": round(max(h, 0.5), 1)})
        bars.append({"year": year, "total": r["total"] if r else 0, "segments": segs,
                     "label": year if (len(years) - 1 - i) % label_every == 0 else None,
                     "lx": round(x + bar_w / 2, 1), "ly": height - 8,
                     "hx": round(left + i * slot, 1), "hw": round(slot, 1)})
    ticks = [{"value": top_v * k // 4, "y": round(top + plot_h - plot_h * k / 4, 1)} for k in range(5)]
    present = [name for name, statuses, _ in SERIES
               if any(r["statuses"].get(s, 0) for r in rows for s in statuses)]
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top,
            "bottom": top + plot_h, "bars": bars, "ticks": ticks,
            "series": [{"name": n, "cls": c} for n, _, c in SERIES if n in present]}
