"""A throwaway PostgreSQL server for tests: ``initdb`` into a temp dir and ``pg_ctl start`` on a unix
socket there (no TCP port), as an unprivileged user when the tests run as root (initdb refuses
root). ``fresh_database`` makes an empty database per test and drops it afterwards."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

RUN_AS = "nobody"


def find_bindir() -> Path | None:
    for pattern in ("/usr/lib/postgresql/*/bin",):
        for d in sorted(glob.glob(pattern), reverse=True):
            if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
                return Path(d)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


class PgCluster:
    """A cluster in a directory of its own under /tmp (outside pytest's temp tree, whose 0700
    directories an unprivileged server could not enter), removed by ``stop``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="paperlist-pg-"))
        os.chmod(self.root, 0o755)
        self.data = self.root / "data"
        self.sock = self.root / "sock"
        self.user = RUN_AS if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["setpriv", f"--reuid={self.user}", f"--regid={pwd.getpwnam(self.user).pw_gid}",
                   "--clear-groups", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self.sock.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            uid, gid = pwd.getpwnam(self.user).pw_uid, pwd.getpwnam(self.user).pw_gid
            for p in (self.root, self.sock):
                os.chown(p, uid, gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                  "--no-instructions")
        opts = f"-k {self.sock} -c listen_addresses='' -c fsync=on -c max_connections=100"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "start")

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://postgres@/{db}?host={quote(str(self.sock), safe='')}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def fresh_database(base_url: str) -> Iterator[str]:
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base_url.replace("/postgres?", f"/{name}?", 1)
    finally:
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
