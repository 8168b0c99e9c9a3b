"""Topic charts as data for inline SVG (the server computes the geometry; CSP allows no script):
a sparkline of papers per year, and papers per year stacked by venue."""

from __future__ import annotations

from typing import Any

from .charts import axis, is_partial, y_ticks

SERIES_CLASSES = ("v0", "v1", "v2", "v3", "v4", "v5", "v-other")


def sparkline(by_year: dict[int, int], years: list[int], width: int = 120,
              height: int = 28) -> dict[str, Any]:
    """A polyline of counts over ``years`` (missing years are 0), scaled to its own maximum."""
    vals = [by_year.get(y, 0) for y in years]
    top = max(vals) if vals and max(vals) > 0 else 1
    step = width / max(1, len(vals) - 1)
    pts = [(round(i * step, 1), round(height - 2 - (height - 4) * v / top, 1)) for i, v in enumerate(vals)]
    area = f"0,{height} " + " ".join(f"{x},{y}" for x, y in pts) + f" {width},{height}"
    return {"width": width, "height": height, "points": " ".join(f"{x},{y}" for x, y in pts), "area": area,
            "first": years[0] if years else None, "last": years[-1] if years else None,
            "peak": max(vals) if vals else 0, "partial": bool(years) and is_partial(years[-1])}


def _stacks(venue_years: dict[tuple[str, int], int],
            top: int) -> tuple[list[str], list[int], dict[int, dict[str, int]]]:
    """The ``top`` busiest venues, the years shown, and each year's papers per venue (the others'
    together as "other")."""
    totals: dict[str, int] = {}
    for (v, _y), n in venue_years.items():
        totals[v] = totals.get(v, 0) + n
    named = [v for v, _ in sorted(totals.items(), key=lambda kv: -kv[1])[:top]]
    per_total: dict[int, int] = {}
    for (_v, y), n in venue_years.items():
        per_total[y] = per_total.get(y, 0) + n
    # start where the topic starts: a few stray papers decades earlier would squeeze every bar
    floor = max(1, max(per_total.values()) // 50)
    ys = sorted(y for y, n in per_total.items() if n >= floor)
    years = list(range(ys[0], max(per_total) + 1))
    venue_years = {k: n for k, n in venue_years.items() if k[1] >= ys[0]}
    per_year: dict[int, dict[str, int]] = {y: {} for y in years}
    for (v, y), n in venue_years.items():
        key = v if v in named else "other"
        per_year[y][key] = per_year[y].get(key, 0) + n
    return named, years, per_year


def stacked_by_venue(venue_years: dict[tuple[str, int], int], labels: dict[str, str], top: int = 6,
                     width: int = 720, height: int = 240) -> dict[str, Any]:
    """Papers per year, each bar stacked by venue (the ``top`` busiest venues, then "other")."""
    left, right, top_pad, bottom = 44, 8, 10, 26
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    if not venue_years:
        return {"width": width, "height": height, "bars": [], "ticks": [], "series": []}
    named, years, per_year = _stacks(venue_years, top)
    top_v, tick_values = axis(max(sum(d.values()) for d in per_year.values()))
    slot = plot_w / len(years)
    bar_w = max(2.0, min(36.0, slot * 0.72))
    label_every = max(1, round(len(years) / 12))
    order = named + ["other"]
    cls = {v: SERIES_CLASSES[i] if i < len(named) else "v-other" for i, v in enumerate(order)}
    bars = []
    for i, year in enumerate(years):
        x = left + i * slot + (slot - bar_w) / 2
        y0 = float(top_pad + plot_h)
        segs = []
        for v in order:
            n = per_year[year].get(v, 0)
            if n:
                h = plot_h * n / top_v
                y0 -= h
                segs.append({"venue": v, "label": labels.get(v, v), "cls": cls[v], "count": n,
                             "x": round(x, 1), "y": round(y0, 1), "w": round(bar_w, 1),
                             "h": round(max(h, 0.5), 1)})
        bars.append({"year": year, "total": sum(per_year[year].values()), "segments": segs,
                     "partial": is_partial(year),
                     "label": year if (len(years) - 1 - i) % label_every == 0 else None,
                     "lx": round(x + bar_w / 2, 1), "ly": height - 8})
    ticks = y_ticks(tick_values, top_v, top_pad + plot_h, plot_h)
    present = [v for v in order if v in named or any("other" in d for d in per_year.values())]
    return {"width": width, "height": height, "left": left, "right": width - right, "top": top_pad,
            "bottom": top_pad + plot_h, "bars": bars, "ticks": ticks,
            "partial_year": next((b["year"] for b in bars if b["partial"]), None),
            "series": [{"venue": v, "label": labels.get(v, v), "cls": cls[v]} for v in present]}
