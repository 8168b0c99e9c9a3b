"""Source readers, one module per format, and format detection."""

from __future__ import annotations

from .acl import AclReader
from .base import Parsed, Reader, SourceError, SourceFile, expand, is_url, load_path, load_url
from .mlanthology import MlanthologyReader
from .openreview import OpenReviewReader
from .papercopilot import PapercopilotReader

# Sniffers are narrow (a file name pattern, a header or the XML root), so order only breaks ties.
READERS: dict[str, Reader] = {r.name: r for r in (PapercopilotReader(), MlanthologyReader(), AclReader(),
                                                   OpenReviewReader())}


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


__all__ = ["READERS", "Parsed", "Reader", "SourceError", "SourceFile", "detect", "expand", "is_url",
           "load_path", "load_url"]
