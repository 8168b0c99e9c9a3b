"""Reading lists' addresses are capabilities: whoever knows one may read (and with a private link,
change) the list. So they leave no trace: every response on a list path (``/lists/…``,
``/shared/…``, and the same under ``/en`` and ``/api/v1``) says ``Cache-Control: no-store`` and
``Referrer-Policy: no-referrer`` (a link followed from a list page does not tell the other site
where it came from), and uvicorn's access log, when it is on, writes those paths with the token
replaced by ``…``."""

from __future__ import annotations

import logging
import re

PRIVATE = re.compile(r"^(?:/en)?(?:/api/v1)?/(?:lists|shared)(?:/|$)")
_TOKEN = re.compile(r"(/(?:lists|shared)/)[A-Za-z0-9_-]{8,}")


def is_private(path: str) -> bool:
    return bool(PRIVATE.match(path))


def redact(text: str) -> str:
    return _TOKEN.sub(r"\1…", text)


class RedactTokens(logging.Filter):
    """Removes list tokens from log records (uvicorn's access log passes the path in ``args``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
