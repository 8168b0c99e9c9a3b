"""Review-score charts as data for inline SVG (the server computes the geometry; the CSP allows no
script or inline style): mean ratings in bins of 0.5 stacked by decision, and the acceptance rate
per bin ("what score gets in"). Both share one x scale, so a bin sits at the same place in each."""

from __future__ import annotations

from typing import Any

from ..stats.model import RatingBin
from .charts import axis, y_ticks

# Decisions in stacking order, bottom first: accepted papers rise from the axis.
STACK = ("oral", "spotlight", "highlight", "poster", "accepted", "under-review", "rejected", "withdrawn",
         "desk-rejected", "unknown")
LEFT, RIGHT = 64, 12


def _x_scale(bins: list[RatingBin], width: int) -> tuple[float, list[dict[str, Any]]]:
    """The width of one bin and the x-axis ticks at whole ratings (thinned to about ten)."""
    slot = (width - LEFT - RIGHT) / len(bins)
    edges = [b["from"] for b in bins] + [bins[-1]["to"]]
    whole = [(i, e) for i, e in enumerate(edges) if float(e).is_integer()]
    every = max(1, round(len(whole) / 10))
    ticks = [{"value": e, "x": round(LEFT + i * slot, 1)} for k, (i, e) in enumerate(whole) if k % every == 0]
    return slot, ticks


def rating_histogram(bins: list[RatingBin], width: int = 720, height: int = 280) -> dict[str, Any]:
    """Stacked bars of papers per mean-rating bin, a segment per decision (x, y, w, h, class,
    count), with the y ticks (papers), the x ticks (ratings) and the decisions present."""
    top, bottom = 30, 46
    plot_h = height - top - bottom
    if not bins:
        return {"width": width, "height": height, "bars": [], "ticks": [], "x_ticks": [], "series": []}
    slot, x_ticks = _x_scale(bins, width)
    top_v, tick_values = axis(max(b["papers"] for b in bins), intervals=4)
    bar_w = max(1.0, slot * 0.88)
    base = top + plot_h
    bars = []
    for i, b in enumerate(bins):
        x = LEFT + i * slot + (slot - bar_w) / 2
        y: float = base
        segs = []
        for s in STACK:
            n = b["by_status"].get(s, 0)
            if n:
                h = plot_h * n / top_v
                y -= h
                segs.append({"status": s, "cls": f"h-{s}", "count": n, "x": round(x, 1), "y": round(y, 1),
                             "w": round(bar_w, 1), "h": round(max(h, 0.5), 1)})
        bars.append({"from": b["from"], "to": b["to"], "papers": b["papers"], "segments": segs,
                     "hx": round(LEFT + i * slot, 1), "hw": round(slot, 1)})
    present = {s for b in bins for s, n in b["by_status"].items() if n}
    return {"width": width, "height": height, "left": LEFT, "right": width - RIGHT, "top": top,
            "bottom": base, "bars": bars, "x_ticks": [{**t, "y": base + 18} for t in x_ticks],
            "ticks": y_ticks(tick_values, top_v, base, plot_h),
            "x_label": {"x": round(LEFT + (width - LEFT - RIGHT) / 2, 1), "y": height - 6},
            "series": [{"status": s, "cls": f"h-{s}"} for s in STACK if s in present]}


def acceptance_curve(bins: list[RatingBin], overall: float | None, width: int = 720,
                     height: int = 220) -> dict[str, Any] | None:
    """The acceptance rate of each bin as a line (broken where a bin has no rate) with a dot per
    bin, and the conference-year's overall rate as a reference line; None when no bin has a rate."""
    if not any(b["acceptance_rate"] is not None for b in bins):
        return None
    top, bottom = 14, 46
    plot_h = height - top - bottom
    base = top + plot_h
    slot, x_ticks = _x_scale(bins, width)
    points: list[dict[str, Any]] = []
    lines: list[list[str]] = [[]]
    for i, b in enumerate(bins):
        rate = b["acceptance_rate"]
        if rate is None:
            if lines[-1]:
                lines.append([])
            continue
        x, y = round(LEFT + (i + 0.5) * slot, 1), round(base - plot_h * rate, 1)
        points.append({"from": b["from"], "to": b["to"], "rate": rate, "papers": b["papers"],
                       "accepted": b["accepted"], "x": x, "y": y})
        lines[-1].append(f"{x},{y}")
    return {"width": width, "height": height, "left": LEFT, "right": width - RIGHT, "top": top,
            "bottom": base, "points": points, "lines": [" ".join(p) for p in lines if len(p) > 1],
            "x_ticks": [{**t, "y": base + 18} for t in x_ticks],
            "ticks": [{"value": k / 4, "y": round(base - plot_h * k / 4, 1)} for k in range(5)],
            "overall": None if overall is None else {"rate": overall, "y": round(base - plot_h * overall, 1)},
            "x_label": {"x": round(LEFT + (width - LEFT - RIGHT) / 2, 1), "y": height - 6}}
