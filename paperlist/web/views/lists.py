"""Reading-list pages: the start page (``/lists``), a private link's list (``/lists/{token}/{id}``,
every list of the link in tabs, notes and forms to change them) and a list's read-only share page
(``/shared/{share}``). The data are the service's list resources; the cards are the site's cards."""

from __future__ import annotations

from typing import Any

from ...cite import STYLES
from ...service import lists as sl
from ...service.errors import N_, NotFound
from .base import Ctx, card

INLINE_CITE = 100            # a list this long or shorter shows its bibliography in every style inline
STYLE_LABELS = {k: s.label for k, s in STYLES.items() if s.csl}


def _entries(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**e, "card": card(e["paper"]) if e["paper"] else None} for e in d["entries"]]


def _cite(ctx: Ctx, token: str | None, ref: str, count: int) -> list[dict[str, str]]:
    """The whole list in each citation style (inline for short lists; the exports otherwise)."""
    if not count or count > INLINE_CITE:
        return []
    out = []
    for style, label in STYLE_LABELS.items():
        _row, chunks = sl.list_export(ctx.home, token, ref, style, lambda pid: pid)
        out.append({"style": style, "label": label, "text": "".join(chunks).strip()})
    return out


def build_start(ctx: Ctx) -> dict[str, Any]:
    return {"page": "lists"}


def build_list(ctx: Ctx, token: str, list_id: str | None) -> dict[str, Any]:
    shelf = sl.shelf(ctx.home, token)
    if not shelf["lists"]:
        raise NotFound(N_("There is no such list at this link."))
    if list_id is None:
        list_id = shelf["lists"][0]["id"]
    d = sl.reading_list(ctx.home, token, list_id)
    return {"page": "reading_list", "shelf": shelf, "list": {k: v for k, v in d.items() if k != "entries"},
            "entries": _entries(dict(d)), "cite": _cite(ctx, token, list_id, d["count"]), "read_only": False,
            "styles": STYLE_LABELS, "token": token}


def build_shared(ctx: Ctx, share: str) -> dict[str, Any]:
    d = sl.shared_list(ctx.home, share)
    return {"page": "reading_list", "shelf": None, "list": {k: v for k, v in d.items() if k != "entries"},
            "entries": _entries(dict(d)), "cite": _cite(ctx, None, share, d["count"]), "read_only": True,
            "styles": STYLE_LABELS, "token": None}
