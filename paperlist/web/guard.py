"""The server's guard at the connection level: uvicorn's httptools protocol with the limits that
uvicorn does not have, so that hostile or slow clients and overload cost a bounded amount.

Per connection:
- the request head (request line and headers) may have at most ``max_head_bytes``: beyond it the
  connection is answered 414 (the request line is the long part) or 431 and closed, as soon as the
  bytes arrive, so that a 100 MB header is never buffered;
- at most ``max_headers`` header lines (431);
- the whole head must arrive within ``header_timeout`` seconds of its first byte (or of the
  connection): slow clients (slowloris) get 408 and are closed; idle keep-alive connections are
  closed after uvicorn's ``timeout_keep_alive``.
Per worker process:
- at most ``max_connections`` open connections: the next one is answered 503 and closed;
- at most ``max_inflight`` requests parsed and not yet answered. The app's handlers run on the
  event loop, so waiting requests are uvicorn's tasks, not anything an ASGI middleware could count
  before they start: a request beyond the bound is answered 503 + Retry-After from here, at once,
  without entering the app, and the connection is kept;
- a request admitted but still waiting for the loop after ``max_queue_wait`` seconds is answered
  503 by the app's first middleware (web/overload.py; the protocol stamps the arrival time).
Every refusal is an RFC 9457 problem (``application/problem+json``) of problems.PROBLEMS.

``paperlist serve`` hands the limits to its workers in $PAPERLIST_SERVER_LIMITS (JSON) and names
this protocol as uvicorn's ``http`` class (cli/serve.py, through ``service.serving.uvicorn_options``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from functools import cache
from http import HTTPStatus
from typing import Any

import httptools
import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from ..service.serving import LIMITS_ENV, ServerLimits
from .overload import stamp
from .problems import DOCS_PATH, PROBLEM_MEDIA_TYPE, PROBLEMS


@cache
def _limits(raw: str | None) -> ServerLimits:
    return ServerLimits.from_env(raw)


def problem_response(status: int, kind: str, detail: str, *, close: bool, head: bool = False,
                     retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 response with a problem+json body, as bytes for the transport."""
    _code, title, _what = PROBLEMS[kind]
    body = orjson.dumps({"type": f"{DOCS_PATH}#problem-{kind}", "title": title, "status": status,
                         "detail": detail})
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"content-type: {PROBLEM_MEDIA_TYPE}",
             f"content-length: {len(body)}", "cache-control: no-store", "x-content-type-options: nosniff"]
    if retry_after is not None:
        lines.append(f"retry-after: {retry_after}")
    if close:
        lines.append("connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (b"" if head else body)


def nodelay(transport: asyncio.Transport) -> None:
    """Turn Nagle's algorithm off: asyncio does it only for sockets whose ``proto`` is TCP, which the
    sockets accepted from uvicorn's own listening socket (``--workers``) are not, and a response
    written in two parts would then wait for the client's delayed ACK (40 ms)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _Refused(Exception):
    """Raised from a parser callback to stop parsing a refused request."""


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with head size, header count, head deadline, connection and
    in-flight limits (see the module's text)."""

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = _limits(os.environ.get(LIMITS_ENV))
        self.head_timer: asyncio.TimerHandle | None = None
        self.in_head = False               # between a request's first byte and its headers' end
        self.head_bytes = 0
        self.header_count = 0
        self.header_bytes = 0
        self.received = False              # any byte since the head deadline was armed
        self.refusal: bytes | None = None

    # --- connection ----------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        nodelay(transport)
        if len(self.connections) > self.limits.max_connections:
            self.refuse(problem_response(503, "overloaded", "this server has too many open connections",
                                         close=True, retry_after=self.limits.retry_after))
            return
        self.arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_head_timer()
        super().connection_lost(exc)

    def refuse(self, response: bytes) -> None:
        self.cancel_head_timer()
        if not self.transport.is_closing():
            self.transport.write(response)
            self.transport.close()

    # --- the head deadline ---------------------------------------------------------------------
    def arm_head_timer(self) -> None:
        if self.head_timer is None:
            self.received = False
            self.head_timer = self.loop.call_later(self.limits.header_timeout, self.head_timeout)

    def cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timeout(self) -> None:
        self.head_timer = None
        if self.received:
            detail = f"the request head did not arrive within {self.limits.header_timeout:g} s"
            self.refuse(problem_response(408, "request-timeout", detail, close=True))
        elif not self.transport.is_closing():
            self.transport.close()

    # --- reading -------------------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        if self.cycle is None or self.cycle.response_complete:
            self.arm_head_timer()          # a new request's first bytes: its head has a deadline
        self.received = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError:
            if self.refusal is not None:
                self.refuse(self.refusal)
            else:
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("the request is not valid HTTP/1.1")
            return
        if self.in_head:
            self.head_bytes += len(data)
            if self.head_bytes > self.limits.max_head_bytes:
                self.refuse(self.head_too_large())

    def head_too_large(self) -> bytes:
        limit = self.limits.max_head_bytes
        if len(self.url) * 2 > self.head_bytes:          # the request line is the long part
            return problem_response(414, "uri-too-long",
                                    f"the request line may have at most {limit} bytes", close=True)
        return problem_response(431, "headers-too-large",
                                f"the request line and headers may have at most {limit} bytes", close=True)

    def eof_received(self) -> bool:  # type: ignore[override]  # asyncio.Protocol says bool | None
        """A client that half-closes after its request still gets the response (then the
        keep-alive timer closes the connection); an idle one is closed."""
        return self.cycle is not None and not self.cycle.response_complete

    def send_400_response(self, msg: str) -> None:
        self.refuse(problem_response(400, "bad-request", msg, close=True))

    # --- parser callbacks ----------------------------------------------------------------------
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head, self.head_bytes, self.header_count, self.header_bytes = True, 0, 0, 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_count += 1
        self.header_bytes += len(name) + len(value) + 4
        if self.header_count > self.limits.max_headers:
            self.refusal = problem_response(431, "headers-too-large",
                                            f"a request may have at most {self.limits.max_headers} headers",
                                            close=True)
            raise _Refused
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.in_head = False
        self.cancel_head_timer()
        # A head that arrived in one read is measured here (httptools cannot parse URLs over 64 KB).
        self.head_bytes = len(self.url) + self.header_bytes
        if self.head_bytes > self.limits.max_head_bytes:
            self.refusal = self.head_too_large()
            raise _Refused
        idle = self.cycle is None or self.cycle.response_complete
        if idle and len(self.tasks) >= self.limits.max_inflight:
            self.shed()
            return
        stamp(self.scope, time.monotonic(), self.limits.max_queue_wait, self.limits.retry_after)  # type: ignore[arg-type]
        super().on_headers_complete()

    def shed(self) -> None:
        """Answer 503 + Retry-After at once, without entering the app; keep the connection when
        the client wants it kept."""
        keep = self.parser.should_keep_alive()
        response = problem_response(
            503, "overloaded", "the server is busy; retry after Retry-After seconds", close=not keep,
            head=self.parser.get_method() == b"HEAD", retry_after=self.limits.retry_after)
        if not keep:
            self.refuse(response)
            return
        # A finished cycle, so that the request's body (if any) and its end are ignored.
        self.cycle = RequestResponseCycle(
            scope=self.scope, transport=self.transport, flow=self.flow, logger=self.logger,
            access_logger=self.access_logger, access_log=False,
            default_headers=self.server_state.default_headers, message_event=asyncio.Event(),
            expect_100_continue=False, keep_alive=True, on_response=self.on_response_complete)
        self.cycle.response_complete = True
        self.transport.write(response)
        self.on_response_complete()
