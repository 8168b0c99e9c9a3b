"""What a service call raises when it cannot answer: the resource is missing, the request is
malformed, search is not available yet, the address is an alias (``Moved``), or an external id
names several papers (``Ambiguous``).

Messages are short English sentences marked with ``N_`` for the site's catalogs (the site shows
them translated, the API and MCP as they are); ``detail`` says which value was wrong.
"""

from __future__ import annotations

from typing import TypedDict


def N_(message: str) -> str:
    """Marks a message for extraction into the site's catalogs; it is translated where shown."""
    return message


class Hint(TypedDict):
    """Where to go instead: a label (an ``N_`` message with ``%(name)s`` fields), its fields, a path."""

    label: str
    args: dict[str, str | int]
    href: str


class ServiceError(Exception):
    """A request the service cannot answer: its status (as HTTP says it), a message, a detail,
    and ``hints``, the pages that answer what was probably meant (the site links them)."""

    status = 500

    def __init__(self, message: str, detail: str = "", hints: list[Hint] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        self.hints = hints or []


class NotFound(ServiceError):
    status = 404


class BadRequest(ServiceError):
    status = 400


class TooLarge(ServiceError):
    """An upload larger than the service takes (a bibliography past its size or entry limit)."""

    status = 413


class Conflict(ServiceError):
    """A limit of a reading list reached (lists per link, papers per list, seen marks)."""

    status = 409


class Unavailable(ServiceError):
    """Search asked of a home whose index has not been built yet."""

    status = 503


class Ambiguous(NotFound):
    """An external id shared by several papers (``ids``)."""

    status = 300

    def __init__(self, ids: list[str]) -> None:
        super().__init__(N_("This id belongs to several papers."), ", ".join(ids[:20]))
        self.ids = ids


class Moved(Exception):
    """The resource lives at another, language-neutral path (an alias, another spelling, a
    retired or external id): permanent unless said otherwise."""

    def __init__(self, location: str, permanent: bool = True) -> None:
        super().__init__(location)
        self.location = location
        self.permanent = permanent
