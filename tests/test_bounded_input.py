"""Hostile input files: a gzip bomb, /dev/zero, a FIFO, a device, a symbolic link loop, files and
downloads over the size cap. Each fails in one line that says what it is, with a non-zero exit,
fast and in bounded memory (the real command in a subprocess; peak RSS from getrusage)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from paperlist.sources import SourceError, load_path, load_url
from paperlist.sources.bounded import decompress
from paperlist.sources.origins import Download, fetch
from tests.conftest import PAPERCOPILOT, serve_dir

ROOT = Path(__file__).resolve().parents[1]
GOOD = PAPERCOPILOT / "nips" / "nips2018.json"

# Runs one command and prints its exit code, wall time and the peak RSS (kB) of it and its
# workers: a process of its own, so that no earlier child of the test run counts.
MEASURE = """
import resource, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(p.returncode, time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stdout.write(p.stdout + p.stderr)
"""


def ingest(home: Path, *targets: object, env: dict[str, str] | None = None,
           timeout: float = 60) -> tuple[int, float, int, str]:
    """``paperlist --home HOME ingest --no-index TARGETS`` in a subprocess: (exit code, seconds,
    peak RSS in MB, stdout + stderr)."""
    cmd = [sys.executable, "-c", MEASURE, sys.executable, "-m", "paperlist", "--home", str(home),
           "ingest", "--no-index", *map(str, targets)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                       env=os.environ | (env or {}))
    head, _, out = p.stdout.partition("\n")
    code, seconds, rss = head.split()
    return int(code), float(seconds), int(rss) // 1024, out


def problem_lines(out: str, name: str) -> list[str]:
    """The lines of a command's output that name the file ``name``."""
    return [ln for ln in out.splitlines() if name in ln]


def assert_one_line(out: str, name: str, what: str) -> None:
    assert "Traceback" not in out and "MemoryError" not in out, out
    lines = problem_lines(out, name)
    assert len(lines) == 1 and what in lines[0], out


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2 GiB of zeros as a 2 MB .json.gz (128 gzip members of 16 MiB each: a valid gzip file)."""
    member = gzip.compress(bytes(16 << 20), compresslevel=9)
    path = tmp_path_factory.mktemp("bomb") / "bomb.json.gz"
    path.write_bytes(member * 128)
    return path


def test_gzip_bomb_fails_fast_in_bounded_memory(bomb: Path, tmp_path: Path) -> None:
    assert bomb.stat().st_size < 3 << 20
    code, seconds, rss_mb, out = ingest(tmp_path / "home", bomb)
    assert code == 1
    assert_one_line(out, "bomb.json.gz", "larger than 256 MiB once decompressed")
    assert seconds < 5, seconds
    assert rss_mb < 600, rss_mb


def test_dev_zero_is_refused_as_a_device(tmp_path: Path) -> None:
    code, seconds, rss_mb, out = ingest(tmp_path / "home", "/dev/zero")
    assert code == 1 and seconds < 5 and rss_mb < 300
    assert_one_line(out, "/dev/zero", "a character device, not a regular file")


def test_fifo_symlink_loop_and_device_in_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "nips2018.json").write_bytes(GOOD.read_bytes())
    os.mkfifo(folder / "pipe.json")                       # nobody ever writes: opening must not wait
    (folder / "loop.json").symlink_to("loop.json")
    (folder / "null.json").symlink_to("/dev/null")
    code, seconds, _, out = ingest(tmp_path / "home", folder, timeout=30)
    assert code == 1 and seconds < 10
    assert_one_line(out, "pipe.json", "a FIFO (named pipe), not a regular file")
    assert_one_line(out, "loop.json", "a symbolic link loop")
    assert_one_line(out, "null.json", "a character device, not a regular file")
    assert "no such file" not in out
    assert "papers:  new 3" in out, out               # the regular file was ingested


def test_symlink_loop_named_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    code, _, _, out = ingest(tmp_path / "home", tmp_path / "a.json", tmp_path / "missing.json")
    assert code == 1
    assert_one_line(out, "a.json", "a symbolic link loop")
    assert_one_line(out, "missing.json", "no such file or directory")


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "gzip"])
def test_cap_is_configurable(tmp_path: Path, compressed: bool) -> None:
    data = GOOD.read_bytes()
    path = tmp_path / ("nips2018.json.gz" if compressed else "nips2018.json")
    path.write_bytes(gzip.compress(data) if compressed else data)
    code, _, _, out = ingest(tmp_path / "home", path, env={"PAPERLIST_MAX_FILE_BYTES": str(len(data) - 1)})
    assert code == 1
    assert_one_line(out, path.name, "(the limit is PAPERLIST_MAX_FILE_BYTES)")
    code, _, _, out = ingest(tmp_path / "home", path, env={"PAPERLIST_MAX_FILE_BYTES": str(len(data))})
    assert code == 0, out


def test_bad_cap_setting_is_one_line(tmp_path: Path) -> None:
    code, _, _, out = ingest(tmp_path / "home", GOOD, env={"PAPERLIST_MAX_FILE_BYTES": "lots"})
    assert code == 1
    assert_one_line(out, "nips2018.json", "PAPERLIST_MAX_FILE_BYTES='lots' is not a number of bytes")


# --- the library: streamed decompression, downloads ------------------------------------------
def test_one_gzip_member_stops_at_the_cap() -> None:
    raw = zlib.compress(bytes(64 << 20), 9, wbits=31)              # one member, 64 MiB of zeros
    t0 = time.perf_counter()
    with pytest.raises(SourceError, match="larger than 1 MiB once decompressed"):
        decompress(raw, 1 << 20)
    assert time.perf_counter() - t0 < 1.0
    assert len(decompress(raw, 64 << 20)) == 64 << 20


@pytest.mark.parametrize(("raw", "message"), [
    (gzip.compress(b"[1]")[:-6], "truncated or corrupt gzip data"),
    (gzip.compress(b"[1]") + b"junk", "trailing bytes"),
    (b"\x1f\x8bnot gzip at all", "truncated or corrupt gzip data"),
])
def test_broken_gzip_is_one_error(raw: bytes, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        decompress(raw, 1 << 20)


def test_members_and_padding_are_read_whole() -> None:
    raw = gzip.compress(b"[1,") + gzip.compress(b"2]") + b"\x00" * 8
    assert json.loads(decompress(raw, 100)) == [1, 2]


def test_load_path_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="a directory, not a regular file"):
        load_path(tmp_path)


def test_download_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    www = tmp_path / "www"
    www.mkdir()
    (www / "nips2018.json").write_bytes(GOOD.read_bytes())
    (www / "big.json.gz").write_bytes(gzip.compress(bytes(4 << 20)))
    monkeypatch.setenv("PAPERLIST_MAX_FILE_BYTES", str(1 << 20))
    with serve_dir(www) as url:
        assert load_url(f"{url}/nips2018.json").data == GOOD.read_bytes()
        with pytest.raises(SourceError, match="larger than 1 MiB once decompressed"):
            load_url(f"{url}/big.json.gz")                  # small compressed, too large inside
        monkeypatch.setenv("PAPERLIST_MAX_FILE_BYTES", "1000")
        with pytest.raises(SourceError, match="larger than 1000 bytes to download"):
            load_url(f"{url}/big.json.gz")
        downloads = [Download(f"{url}/big.json.gz", "big.json.gz"), Download(f"{url}/nips2018.json", "n")]
        rep = fetch(downloads, tmp_path / "dest")
    assert rep.fetched == 0 and rep.failed and len(rep.failed) == 2
    assert all("to download" in line for line in rep.failed), rep.failed
    assert not [p for p in (tmp_path / "dest").rglob("*") if p.is_file()]     # no partial files left
