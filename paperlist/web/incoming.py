"""What an API route reads from its request: the home the app serves, and a body read with a
limit (refused as soon as it passes it, even when no Content-Length says how large it is: a
chunked upload is counted as it arrives, never held whole first)."""

from __future__ import annotations

from starlette.requests import Request

from ..service import Home


def home(request: Request) -> Home:
    """The home (store, index, lists) the app serves."""
    h: Home = request.app.state.home
    return h


async def read_limited(request: Request, limit: int) -> bytes | None:
    """The body, or None as soon as it passes ``limit`` bytes (the caller says why it refuses)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
