"""Request limits: the per-client token bucket (429 + Retry-After, exports cost more, loopback
exempt unless configured), and size limits on paths, query strings and bodies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from paperlist.store import Store
from paperlist.web.limits import EXPORT_COST, MAX_QUERY_BYTES, RateLimit, TokenBuckets


def _client(web_home: Any, web_store: Store, limit: RateLimit, host: str = "203.0.113.7") -> Any:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    return TestClient(create_app(Settings(home=web_home, store=web_store, rate_limit=limit)),
                      client=(host, 5000))


@pytest.fixture
def limited(web_home: Any, web_store: Store) -> Iterator[Any]:
    with _client(web_home, web_store, RateLimit(rate=0.01, burst=12)) as c:
        yield c


def test_429_with_retry_after(limited: Any) -> None:
    codes = [limited.get("/api/v1/stats").status_code for _ in range(13)]
    assert codes == [200] * 12 + [429]
    r = limited.get("/api/v1/search?q=x")
    assert r.status_code == 429 and r.headers["content-type"] == "application/problem+json"
    assert int(r.headers["retry-after"]) >= 1
    body = r.json()
    assert body["type"] == "/api#problem-rate-limited" and "retry in" in body["detail"]
    assert limited.get("/static/site.css").status_code == 200 and limited.get("/healthz").status_code == 200


def test_exports_cost_more(limited: Any) -> None:
    assert limited.get("/api/v1/search?q=graphs&format=csv").status_code == 200
    assert limited.get("/api/v1/search?q=graphs&format=csv").status_code == 429     # 2 x 10 > 12
    assert limited.get("/api/v1/stats").status_code == 200


def test_loopback_exempt_unless_configured(web_home: Any, web_store: Store) -> None:
    with _client(web_home, web_store, RateLimit(rate=0.01, burst=2), host="127.0.0.1") as c:
        assert {c.get("/api/v1/stats").status_code for _ in range(5)} == {200}
    with _client(web_home, web_store, RateLimit(rate=0.01, burst=2, loopback=True), host="::1") as c:
        assert [c.get("/api/v1/stats").status_code for _ in range(3)] == [200, 200, 429]


def test_default_settings_limit_remote_clients_only() -> None:
    from paperlist.web.app import Settings

    s = Settings()
    assert s.rate_limit.rate > 0 and not s.rate_limit.loopback


def test_token_bucket_refills() -> None:
    b = TokenBuckets(RateLimit(rate=2.0, burst=4))
    assert [b.take("a", now=0.0) for _ in range(4)] == [0.0] * 4
    assert b.take("a", now=0.0) == pytest.approx(0.5)          # one token in half a second
    assert b.take("a", now=0.5) == 0.0
    assert b.take("b", now=0.5) == 0.0                         # clients are separate
    assert b.take("c", cost=EXPORT_COST, now=0.0) == 0.0       # a full bucket allows one costly request


def test_size_limits(client: Any) -> None:
    r = client.get("/api/v1/search?q=" + "x" * (MAX_QUERY_BYTES + 1))
    assert r.status_code == 414 and r.json()["type"] == "/api#problem-uri-too-long"
    assert client.get("/en/search?q=" + "x" * (MAX_QUERY_BYTES + 1)).status_code == 414
    assert client.get("/papers/" + "x" * 3000).status_code == 414
    r = client.post("/api/v1/search", content=b"x" * 100_000)
    assert r.status_code == 413 and r.json()["type"] == "/api#problem-request-too-large"
