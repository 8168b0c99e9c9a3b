"""The hardened server (issue 22): `paperlist serve` as a real process on a real port, probed with raw
sockets — header size and count limits, head and keep-alive timeouts, load shedding with 503 +
Retry-After, 414 problem+json for long URLs, absolute URLs from the configured base URL (never the
Host header), the Host allow-list, X-Forwarded-For read only from trusted proxies, one Vary."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperlist.web.limits import is_loopback

BASE = "https://papers.example.org"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, home: Path, *args: str) -> None:
        self.port = _free_port()
        exe = Path(sys.executable).parent / "paperlist"
        self.proc = subprocess.Popen(
            [str(exe), "--home", str(home), "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONWARNINGS": ""},
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.stop()
                    raise AssertionError(self.output()) from None
                time.sleep(0.2)

    def output(self) -> str:
        return self.proc.stdout.read().decode() if self.proc.stdout and self.proc.poll() is not None else ""

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()

    def connect(self) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        return s

    def raw(self, data: bytes, timeout: float = 10) -> bytes:
        """Send ``data`` on a new connection (stopping when the server closes) and read the answer."""
        with self.connect() as s:
            s.settimeout(timeout)
            try:
                for i in range(0, len(data), 65536):
                    s.sendall(data[i : i + 65536])
            except OSError:
                pass
            return read_all(s)

    def get(self, target: str, *headers: str) -> bytes:
        head = "".join(h + "\r\n" for h in headers)
        if not any(h.lower().startswith("host:") for h in headers):
            head = "Host: 127.0.0.1\r\n" + head
        return self.raw(f"GET {target} HTTP/1.1\r\n{head}Connection: close\r\n\r\n".encode())


def read_all(s: socket.socket) -> bytes:
    out = b""
    try:
        while chunk := s.recv(65536):
            out += chunk
    except OSError:
        pass
    return out


def status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1]) if response.startswith(b"HTTP/1.1 ") else 0


def header_values(response: bytes, name: str) -> list[str]:
    head = response.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return [v.strip() for k, _, v in (h.partition(":") for h in head) if k.lower() == name]


def problem(response: bytes) -> dict[str, object]:
    assert header_values(response, "content-type") == ["application/problem+json"], response[:300]
    body = json.loads(response.split(b"\r\n\r\n", 1)[1])
    assert isinstance(body, dict)
    return body


@pytest.fixture(scope="module")
def server(web_home: Path) -> Iterator[Server]:
    srv = Server(web_home, "--header-timeout", "1", "--keep-alive", "1", "--base-url", BASE + "/")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def guarded(web_home: Path) -> Iterator[Server]:
    """One worker taking on one request at a time; trusts 127.0.0.1 as a proxy; rate-limits
    (loopback exempt); answers only Host papers.example.org and 127.0.0.1."""
    srv = Server(
        web_home,
        "--max-inflight",
        "1",
        "--forwarded-allow-ips",
        "127.0.0.1",
        "--rate-limit",
        "0.01",
        "--rate-burst",
        "2",
        "--allowed-hosts",
        "papers.example.org,127.0.0.1",
    )
    yield srv
    srv.stop()


# --- head limits -------------------------------------------------------------------------------------
def test_huge_header_refused_early_with_431(server: Server) -> None:
    t0 = time.monotonic()
    with server.connect() as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        try:
            while sent < 100 * 2**20:
                s.sendall(b"b" * 2**20)
                sent += 2**20
        except OSError:
            pass
        response = read_all(s)
    assert sent < 20 * 2**20 and time.monotonic() - t0 < 5  # refused long before 100 MB
    assert status(response) == 431 and problem(response)["type"] == "/api#problem-headers-too-large"
    assert header_values(response, "connection") == ["close"]


def test_too_many_headers_431(server: Server) -> None:
    response = server.raw(
        b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n"
    )
    assert status(response) == 431 and "100 headers" in str(problem(response)["detail"])
    ok = server.raw(
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-A: 1\r\n" * 90 + b"Connection: close\r\n\r\n"
    )
    assert status(ok) == 200


@pytest.mark.parametrize("size", [20_000, 70_000, 1_000_000])
def test_long_url_414_problem(server: Server, size: int) -> None:
    response = server.get("/api/v1/search?q=" + "a" * size)
    assert status(response) == 414 and problem(response)["type"] == "/api#problem-uri-too-long"


def test_invalid_request_400_problem(server: Server) -> None:
    response = server.raw(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    assert status(response) == 400 and problem(response)["type"] == "/api#problem-bad-request"


# --- timeouts ----------------------------------------------------------------------------------------
def test_slow_client_dropped_after_header_timeout(server: Server) -> None:
    """Slowloris: a header line every 0.3 s never completes the head; the server answers 408 and
    closes after --header-timeout (1 s) while normal requests are served meanwhile."""
    results: list[tuple[float, bytes]] = []

    def slow() -> None:
        with server.connect() as s:
            t0 = time.monotonic()
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            try:
                for i in range(30):
                    time.sleep(0.3)
                    s.sendall(b"X-%d: 1\r\n" % i)
            except OSError:
                pass
            results.append((time.monotonic() - t0, read_all(s)))

    threads = [threading.Thread(target=slow) for _ in range(20)]
    for t in threads:
        t.start()
    for _ in range(10):
        assert status(server.get("/healthz")) == 200
        time.sleep(0.05)
    for t in threads:
        t.join(timeout=15)
    assert len(results) == 20
    for elapsed, response in results:
        assert 0.9 < elapsed < 3, elapsed
        assert status(response) == 408 and problem(response)["type"] == "/api#problem-request-timeout"


def test_idle_connections_closed(server: Server) -> None:
    with server.connect() as s:  # never sends a byte
        t0 = time.monotonic()
        assert read_all(s) == b"" and 0.9 < time.monotonic() - t0 < 3
    with server.connect() as s:  # keep-alive after a response
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        t0 = time.monotonic()
        response = read_all(s)
        assert status(response) == 200 and 0.9 < time.monotonic() - t0 < 3


# --- absolute URLs and the Host header ---------------------------------------------------------------
@pytest.mark.parametrize(
    "target",
    [
        "/api/v1/search?q=model&format=atom",
        "/en/api/v1/search?q=model&format=atom",
        "/api/v1/search?q=model&format=csv",
        "/api/v1/search?q=model&format=jsonl",
        "/api/v1/search?q=model",
        "/en/search?q=model",
        "/",
        "/openapi.json",
        "/api/v1/nothing",
        "/en/papers/nothing",
    ],
)
def test_forged_host_never_in_response(server: Server, target: str) -> None:
    response = server.get(
        target, "Host: evil.example", "X-Forwarded-Host: evil2.example", "X-Forwarded-Proto: gopher"
    )
    assert status(response) in (200, 404), response[:300]
    assert b"evil" not in response and b"gopher" not in response
    if "atom" in target or "csv" in target:
        assert (BASE + "/").encode() in response and b"http://127.0.0.1" not in response


def test_allowed_hosts(guarded: Server) -> None:
    assert status(guarded.get("/healthz", "Host: evil.example")) == 400
    assert status(guarded.get("/healthz", "Host: papers.example.org")) == 200


# --- X-Forwarded-For and the rate limit ---------------------------------------------------------------
def test_forwarded_for_ignored_from_untrusted_peer(server: Server, web_home: Path) -> None:
    # server trusts no proxy: a loopback client stays exempt whatever it claims to be
    limited = Server(web_home, "--rate-limit", "0.01", "--rate-burst", "2")
    try:
        codes = [
            status(limited.get("/api/v1/stats", f"X-Forwarded-For: 203.0.113.{i % 2}")) for i in range(6)
        ]
        assert codes == [200] * 6
    finally:
        limited.stop()


def test_forwarded_for_from_trusted_proxy_is_the_client(guarded: Server) -> None:
    codes = [status(guarded.get("/api/v1/stats", "X-Forwarded-For: 203.0.113.50")) for _ in range(4)]
    assert codes == [200, 200, 429, 429]
    # a forged loopback name in the header is not an exempt address
    codes = [status(guarded.get("/api/v1/stats", "X-Forwarded-For: localhost.evil")) for _ in range(3)]
    assert codes == [200, 200, 429]


@pytest.mark.parametrize(
    ("host", "exempt"),
    [
        ("127.0.0.1", True),
        ("127.9.9.9", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("localhost.evil", False),
        ("localhost", False),
        ("127.evil", False),
        ("::1.evil", False),
        ("testclient", False),
        ("203.0.113.7", False),
        ("", False),
    ],
)
def test_loopback_is_an_address(host: str, exempt: bool) -> None:
    assert is_loopback(host) is exempt


# --- overload --------------------------------------------------------------------------------------
def test_overload_sheds_with_503_retry_after(guarded: Server) -> None:
    """50 requests at once at a worker that takes on one at a time: every one is answered, the
    ones beyond the bound at once with 503 problem+json + Retry-After; then service is normal."""
    socks = [guarded.connect() for _ in range(50)]
    for i, s in enumerate(socks):          # distinct queries: none is answered from the cache
        s.sendall(f"GET /api/v1/search?q=model+{i}&per_page=50 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Connection: close\r\n\r\n".encode())
    responses = []
    for s in socks:
        responses.append(read_all(s))
        s.close()
    codes = [status(r) for r in responses]
    assert set(codes) <= {200, 503} and codes.count(503) > 0 and codes.count(200) > 0, codes
    for r in responses:
        if status(r) == 503:
            assert (
                header_values(r, "retry-after") == ["1"] and problem(r)["type"] == "/api#problem-overloaded"
            )
    assert status(guarded.get("/api/v1/search?q=model")) == 200


# --- Vary ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["/en/", "/api/v1/stats", "/api/v1/search?q=model"])
def test_one_vary(server: Server, target: str) -> None:
    for encoding in ("gzip", "identity"):
        response = server.get(target, f"Accept-Encoding: {encoding}")
        assert status(response) == 200
        assert header_values(response, "vary") == ["Accept-Encoding"], (target, encoding)
