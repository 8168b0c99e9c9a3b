"""The resolve page: a pasted or uploaded bibliography (BibTeX, or references one per line), each
entry matched to the library (``service.resolve``), and the cleaned file to download."""

from __future__ import annotations

from typing import Any

from ...service.resolve import MAX_BYTES, MAX_ENTRIES, resolve
from ...service.types import ResolveReport
from .base import Ctx

EXAMPLE = ("@article{hochreiter1997, title={Long short-term memory}, author={Hochreiter, Sepp and "
           "Schmidhuber, J{\\\"u}rgen}, journal={Neural Computation}, year={1997}}")


def build_resolve(ctx: Ctx, text: str | None = None) -> dict[str, Any]:
    """The page's data: the empty form, or the report of ``text``."""
    data: dict[str, Any] = {"page": "resolve", "q": "", "max_bytes": MAX_BYTES, "max_entries": MAX_ENTRIES,
                            "example": EXAMPLE, "text": text or "", "report": None}
    if text is None:
        return data
    report: ResolveReport = resolve(ctx.home, text)
    return data | {"report": report}
