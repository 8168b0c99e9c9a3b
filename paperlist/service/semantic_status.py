"""Search by meaning's state, as every interface reports it (``/healthz``, the site's status line,
``GET /api/v1/status``): can it run now, over how many papers, and how far the background job
(``service.embedding``) has come."""

from __future__ import annotations

import threading
import time
from typing import Any

from ..index import embed_status
from ..index.embed_status import RUNNING, LiveInfo
from .home import Home
from .types.status import EmbedJob, SemanticStatus, Unavailable

TTL_S = 2.0                 # a page per request would otherwise read the job's record each time

_live: dict[str, LiveInfo] = {}
_memo: dict[str, tuple[float, SemanticStatus]] = {}
_lock = threading.Lock()


def unavailable_kind(reason: str | None) -> Unavailable | None:
    """Why search by meaning cannot run, as a reader is told it: ``setup`` (this server was set up
    without it), ``vectors`` (no paper vectors yet) or ``broken``; None when it runs."""
    if reason is None:
        return None
    if "not installed" in reason:
        return "setup"
    return "vectors" if "no paper vectors" in reason else "broken"


def _share(part: int, whole: int) -> float:
    return round(min(1.0, part / whole), 4) if whole else 0.0


def _job(rec: embed_status.JobRecord | None, papers: int) -> EmbedJob | None:
    if rec is None:
        return None
    state = str(rec.get("state") or "stopped")
    covered = int(rec.get("covered") or 0)
    total = int(rec.get("papers") or papers)
    eta: Any = rec.get("eta_s")
    return {"state": state, "running": state in RUNNING, "covered": covered, "papers": total,
            "share": _share(covered, total), "rate": float(rec.get("rate") or 0.0),
            "eta_s": round(float(eta), 1) if isinstance(eta, int | float) else None}


def semantic_status(home: Home) -> SemanticStatus:
    key = str(home.path)
    now = time.monotonic()
    memo = _memo.get(key)
    if memo is not None and now - memo[0] < TTL_S:
        return memo[1]
    with _lock:
        live_info = _live.setdefault(key, LiveInfo(home.path))
    live = live_info.get()
    papers = home.cache.get(("papers-count",), home.store.count_papers)
    searcher = home.searcher
    sem = searcher.semantic if searcher is not None else None
    reason = sem.unavailable() if sem is not None else "no paper vectors yet"
    covered = min(live["count"], papers) if reason is None else 0
    out: SemanticStatus = {"available": reason is None, "unavailable": unavailable_kind(reason),
                           "model": live["model"], "generation": live["generation"], "papers": papers,
                           "covered": covered, "share": _share(covered, papers),
                           "job": _job(embed_status.read(home.path), papers)}
    _memo[key] = (now, out)
    return out
