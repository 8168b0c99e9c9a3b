"""Writing files whole or not at all."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomic(path: Path, write: Callable[[BinaryIO], object], durable: bool = True) -> None:
    """Write ``path`` through ``write(file)`` into a temporary file beside it (``.<name>.<random>.tmp``,
    flushed to disk when ``durable``), then rename it over ``path``: readers see the old file or
    the new one, and a crash leaves at most the temporary file, which the caller's cleanup may
    match by that name."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
