"""Reading lists against abuse: ids are capabilities (192 random bits, only digests stored, never
in a referrer, a cache or the log), state changes only by POST / PUT / DELETE from this site
(CSRF), writes and list creation rate-limited per client, bodies size-limited, no cookies."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from paperlist.lists import tokens
from paperlist.store import Store
from paperlist.web.limits import RateLimit
from paperlist.web.privacy import RedactTokens
from tests.test_lists import API, make_client, new_shelf
from tests.webdata import paper_id


@pytest.fixture
def lists_url(tmp_path: Path) -> str:
    """SQLite only: these test the web layer, the same over either backend."""
    return str(tmp_path / "lists" / "lists.db")


def test_tokens_are_random_and_only_their_digests_are_stored(
    web_home: Path, web_store: Store, lists_url: str
) -> None:
    with make_client(web_home, web_store, lists_url) as c:
        made = [new_shelf(c) for _ in range(20)]
        share = c.get(f"{API}/lists/{made[0][0]}").json()["lists"][0]["share_href"].rsplit("/", 1)[1]
    toks = [t for t, _ in made]
    assert len(set(toks)) == 20 and all(tokens.well_formed(t) for t in toks)
    assert tokens.TOKEN_BYTES * 8 >= 128  # 192 bits: guessing is infeasible
    raw = b"".join(p.read_bytes() for p in Path(lists_url).parent.glob("lists.db*"))
    assert not any(t.encode() in raw for t in [*toks, share])  # the file holds digests, not tokens
    assert tokens.digest(toks[0]).encode() in raw


def test_list_pages_are_private(web_home: Path, web_store: Store, lists_url: str) -> None:
    with make_client(web_home, web_store, lists_url) as c:
        token, lid = new_shelf(c)
        c.put(f"{API}/lists/{token}/lists/{lid}/papers/{paper_id(web_store, 'spec')}")
        share = c.get(f"{API}/lists/{token}").json()["lists"][0]["share_href"]
        paths = [
            "/lists",
            f"/lists/{token}",
            f"/lists/{token}/{lid}",
            f"/lists/{token}/{lid}?format=json",
            share,
            f"{API}/lists/{token}",
            f"{API}/lists/{token}/lists/{lid}?format=bib",
            f"{API}{share}",
            f"/lists/{'A' * 32}",
            f"{API}/lists/{'A' * 32}",
        ]
        for prefix in ("", "/en"):
            for path in paths:
                r = c.get(prefix + path if not path.startswith(API) else path)
                assert r.headers["cache-control"] == "no-store", path
                assert r.headers["referrer-policy"] == "no-referrer", path
                assert "etag" not in r.headers and "set-cookie" not in r.headers, path
        assert (
            c.get("/conferences/neurips/2024").headers["referrer-policy"] == "strict-origin-when-cross-origin"
        )
        robots = c.get("/robots.txt").text
        assert "Disallow: /lists" in robots and "Disallow: /shared" in robots


def test_cross_site_writes_are_refused(web_home: Path, web_store: Store, lists_url: str) -> None:
    with make_client(web_home, web_store, lists_url) as c:
        token, lid = new_shelf(c)
        pid = paper_id(web_store, "spec")
        evil = {"origin": "https://evil.example"}
        assert c.post("/lists/new", headers=evil).status_code == 403
        assert c.post(f"/lists/{token}/{lid}/add", data={"paper": pid}, headers=evil).status_code == 403
        assert (
            c.put(
                f"{API}/lists/{token}/lists/{lid}/papers/{pid}", headers={"sec-fetch-site": "cross-site"}
            ).status_code
            == 403
        )
        assert c.delete(f"{API}/lists/{token}/lists/{lid}", headers={"origin": "null"}).status_code == 403
        assert c.get(f"{API}/lists/{token}/lists/{lid}").json()["count"] == 0  # nothing changed
        ok = c.post(
            f"/lists/{token}/{lid}/add",
            data={"paper": pid},
            headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"},
        )
        assert ok.status_code == 303 and ok.headers["location"] == f"/lists/{token}/{lid}"
        assert c.get(f"/lists/{token}/{lid}/add").status_code == 405  # never by GET


def test_writes_and_creation_are_rate_limited(web_home: Path, web_store: Store, lists_url: str) -> None:
    rate = RateLimit(rate=1000, burst=1000, loopback=True, write_rate=0.5, write_burst=24)
    with make_client(web_home, web_store, lists_url, rate) as c:
        token, lid = new_shelf(c)  # creation costs 20 of the 24
        second = c.post(f"{API}/lists")
        assert second.status_code == 429 and int(second.headers["retry-after"]) >= 1
        pid = paper_id(web_store, "spec")
        codes = [c.put(f"{API}/lists/{token}/lists/{lid}/papers/{pid}").status_code for _ in range(6)]
        assert codes[:4] == [200] * 4 and codes[-1] == 429
        assert c.get(f"{API}/lists/{token}").status_code == 200  # reads still answer
        page = c.post("/lists/new")
        assert page.status_code == 429 and "retry-after" in page.headers


def test_bodies_are_size_limited(web_home: Path, web_store: Store, lists_url: str) -> None:
    with make_client(web_home, web_store, lists_url) as c:
        token, lid = new_shelf(c)
        pid = paper_id(web_store, "spec")
        big = c.put(
            f"{API}/lists/{token}/lists/{lid}/papers/{pid}",
            content=b'{"note": "' + b"x" * 20_000 + b'"}',
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413
        huge = c.post(f"{API}/lists/{token}/lists/{lid}/import", content=b"@misc{a,title={x}}\n" * 120_000)
        assert huge.status_code == 413
        assert c.get(f"{API}/lists/{token}/lists/{lid}").json()["count"] == 0


def test_the_access_log_never_shows_a_token() -> None:
    token = tokens.new_token()
    rec = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "PUT", f"/en/api/v1/lists/{token}/lists/0123456789abcdef/papers/x", "1.1", 200),
        None,
    )
    RedactTokens().filter(rec)
    line = rec.getMessage()
    assert token not in line and re.search(r"/lists/…/lists/", line)


def test_guessing_finds_nothing(web_home: Path, web_store: Store, lists_url: str) -> None:
    with make_client(web_home, web_store, lists_url) as c:
        new_shelf(c)
        assert all(c.get(f"{API}/lists/{tokens.new_token()}").status_code == 404 for _ in range(200))
        assert all(c.get(f"{API}/shared/{tokens.new_token()}").status_code == 404 for _ in range(50))


def test_an_unreachable_postgresql_fails_serve_in_one_line_without_its_password(web_home: Path) -> None:
    """`serve --lists-url postgresql://…` to a server nobody runs: exit 2 at once with the reason,
    the password masked (the pool used to retry for 30 s and log a line per attempt)."""
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as s:            # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).parent / "paperlist"
    t0 = time.monotonic()
    r = subprocess.run([str(exe), "--home", str(web_home), "serve", "--port", "0", "--lists-url",
                        f"postgresql://u:hunter2@127.0.0.1:{port}/lists"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and time.monotonic() - t0 < 15
    lines = [x for x in (r.stdout + r.stderr).splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: reading lists store postgresql://u:***@")
    assert "hunter2" not in r.stdout + r.stderr and "refused" in lines[0].lower()


def test_two_machines_share_one_write_budget_in_postgresql(web_home: Path, web_store: Store,
                                                           postgres_url: str) -> None:
    """With the lists in PostgreSQL, the write bucket is there too: a client whose writes a balancer
    spreads over two servers gets the budget of one, not of two (with SQLite each worker keeps its own)."""
    from tests.pgcluster import fresh_database

    rate = RateLimit(rate=1000, burst=1000, loopback=True, write_rate=0.5, write_burst=24)
    with fresh_database(postgres_url) as url, make_client(web_home, web_store, url, rate) as one, \
            make_client(web_home, web_store, url, rate) as two:
        token, lid = new_shelf(one)                      # 20 of the 24, taken on the first machine
        pid = paper_id(web_store, "spec")
        codes = [c.put(f"{API}/lists/{token}/lists/{lid}/papers/{pid}").status_code
                 for c in (two, one, two, one, two, one)]
        assert codes[:4] == [200] * 4 and codes[4:] == [429, 429]
        assert two.get(f"{API}/lists/{token}").status_code == 200     # reads still answer
