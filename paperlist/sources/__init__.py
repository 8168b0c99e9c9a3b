"""Source readers, one module per format, and format detection."""

from __future__ import annotations

from .acl import AclReader
from .aitopconf import AiTopConfReader
from .atlas import AtlasReader
from .base import Parsed, Reader, SourceError, SourceFile, expand, is_url, load_path, load_url
from .companions import companion
from .explorer import ExplorerReader
from .highlights import HighlightsReader
from .mlanthology import MlanthologyReader
from .navigator import NavigatorReader
from .openreview import OpenReviewReader
from .openreview_api import OpenReviewApiReader
from .orgroups import OrGroupsReader
from .papercept import PaperceptReader
from .papercopilot import PapercopilotReader
from .scores import ScoresReader
from .webconf import WebconfReader

# Sniffers are narrow (a file name pattern, a header or the XML root), so order only breaks ties;
# papercopilot's comes last because it also claims any JSON list of objects with a title.
READERS: dict[str, Reader] = {r.name: r for r in (
    MlanthologyReader(), AclReader(), OpenReviewReader(), OpenReviewApiReader(), AiTopConfReader(),
    OrGroupsReader(), WebconfReader(), ExplorerReader(), PaperceptReader(), HighlightsReader(),
    NavigatorReader(), ScoresReader(), AtlasReader(), PapercopilotReader())}

# What each source is called where pages and reports name it (proper names: not translated).
SOURCE_TITLES: dict[str, str] = {
    "papercopilot": "Paper Copilot", "mlanthology": "ML Anthology", "acl": "ACL Anthology",
    "openreview": "OpenReview exports", "aitopconf": "ai-top-conf-jsons (proceedings lists)",
    "orgroups": "ICML 2026 categories and institutions", "webconf": "The Web Conference's lists",
    "explorer": "IROS paper index", "papercept": "PaperPlaza program",
    "openreview-api": "OpenReview API v2", "highlights": "NeurIPS orals and spotlights (neurips.cc)",
    "navigator": "Conference programmes (IJCAI, EACL)",
    "scores": "Review-score trackers (every ICLR 2024 and 2026 submission)",
    "atlas": "CV+ML Paper Atlas (DBLP, Semantic Scholar counts)",
}


def detect(src: SourceFile, fmt: str | None = None) -> Reader:
    """The reader for a file: the one named by ``fmt``, else the first whose sniff accepts it."""
    if fmt:
        try:
            return READERS[fmt]
        except KeyError:
            raise SourceError(f"unknown format {fmt!r} (known: {', '.join(sorted(READERS))})") from None
    for reader in READERS.values():
        if reader.sniff(src):
            return reader
    raise SourceError("unrecognized file format (use --format to name it)")


__all__ = ["READERS", "SOURCE_TITLES", "Parsed", "Reader", "SourceError", "SourceFile", "companion", "detect",
           "expand", "is_url", "load_path", "load_url"]
