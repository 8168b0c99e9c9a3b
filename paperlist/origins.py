"""Where the corpus comes from: the shared data folder when there is one, else the public origins.

The project never ships paper data. On this team's machines the sources sit in ../shared/data;
anywhere else ``paperlist corpus`` downloads the same files from their public repositories.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

PAPERCOPILOT_RAW = "https://raw.githubusercontent.com/papercopilot/paperlists/main"
PAPERCOPILOT_TREE = "https://api.github.com/repos/papercopilot/paperlists/git/trees/main?recursive=1"

# The papercopilot files known when this was written (directory -> years), used when the GitHub
# API cannot be asked (rate limits). Our own list of file names, not data.
KNOWN_PAPERCOPILOT: dict[str, str] = {
    "3dv": "2025", "aaai": "2021-2022", "acl": "2021-2022", "acml": "2010-2024", "acmmm": "2024",
    "ai4x": "2025", "aistats": "1995,1997,1999,2001,2003,2005,2007,2009-2025", "alt": "2025",
    "automl": "2022-2024", "coling": "2020,2022,2025", "colm": "2024-2025", "colt": "2011-2024",
    "corl": "2021-2025", "cvpr": "2013-2025", "eccv": "2018,2020,2022,2024", "emnlp": "2021-2023",
    "iccv": "2013,2015,2017,2019,2021,2023,2025", "iclr": "2013-2014,2017-2023", "icml": "2013-2025",
    "icra": "2000-2023", "ijcai": "2020-2024", "iros": "2000-2023", "kdd": "2023-2024",
    "naacl": "2021-2022,2024", "nips": "1987-2024", "rss": "2005-2025", "siggraph": "2010-2025",
    "siggraphasia": "2018-2024", "uai": "2019-2024", "wacv": "2020-2025", "www": "2024-2025",
}


def _years(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def papercopilot_urls(tree_url: str = PAPERCOPILOT_TREE, raw_base: str = PAPERCOPILOT_RAW,
                      timeout: float = 30.0) -> list[str]:
    """Every ``<conf>/<conf><year>.json`` in papercopilot/paperlists, as raw download URLs.
    Asks the GitHub tree API; falls back to KNOWN_PAPERCOPILOT when it cannot."""
    paths: list[str] = []
    try:
        req = urllib.request.Request(tree_url, headers={"User-Agent": "paperlist/0.1"})
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - fixed https URL
            tree = json.load(resp).get("tree", [])
        for item in tree:
            m = re.fullmatch(r"([a-z0-9]+)/([a-z0-9]+?)(\d{4})\.json", item.get("path", ""))
            if m and m.group(1) == m.group(2):
                paths.append(m.group(0))
    except (OSError, ValueError, AttributeError):
        paths = []
    if not paths:
        paths = [f"{conf}/{conf}{y}.json" for conf, spec in KNOWN_PAPERCOPILOT.items() for y in _years(spec)]
    return [f"{raw_base}/{p}" for p in sorted(paths)]


def default_data_dir() -> Path | None:
    """../shared/data next to the working directory or to this checkout, when it exists."""
    here = Path(__file__).resolve().parents[1]
    for cand in (Path.cwd() / ".." / "shared" / "data", here.parent / "shared" / "data"):
        if cand.is_dir():
            return cand.resolve()
    return None


def corpus_targets(data_dir: Path | None) -> list[str]:
    """What `paperlist corpus` ingests: the shared folder, or the public URLs."""
    if data_dir is not None:
        return [str(data_dir)]
    return papercopilot_urls()
