"""Where the corpus comes from: the shared data folder when there is one, else the public origins.

The project never ships paper data. On this team's machines the sources sit in ../shared/data;
anywhere else ``paperlist corpus`` downloads the same kinds of files from their public GitHub
repositories into ``<home>/sources/`` (laid out like ../shared/data, so the same readers and file
keys apply) and ingests that folder. Downloads are resumable: finished files are kept, a partial
file is written under a temporary name and renamed only when complete.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import quote

from ..curated.folder import FOLDER
from ..curated.folder import catalog as lists_catalog
from ..text import slugify
from .bounded import max_file_bytes, too_large
from .errors import SourceError

# Mirrors (or a test server) can stand in for GitHub through these environment variables.
RAW = os.environ.get("PAPERLIST_GITHUB_RAW", "https://raw.githubusercontent.com")
API = os.environ.get("PAPERLIST_GITHUB_API", "https://api.github.com")
USER_AGENT = "paperlist/0.1 (+corpus download)"

# Our own lists of the file names each origin held when this was written: used when the GitHub
# API cannot be asked (it allows 60 unauthenticated calls an hour).
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
KNOWN_MLANTHOLOGY_PAPERS: dict[str, str] = {
    "aistats": "2019-2025", "alt": "2017-2025", "colt": "2019-2025", "corl": "2017-2025",
    "cvpr": "2013-2017,2021-2025", "dmlr": "2024-2025", "eccv": "2018,2020,2022,2024",
    "iccv": "2013,2015,2017,2021,2023,2025", "iclr": "2018-2025", "icml": "2013-2025", "jmlr": "2000-2025",
    "midl": "2023-2024", "neurips": "1987-2025", "tmlr": "2022-2026", "uai": "2019-2025", "wacv": "2020-2025",
}
KNOWN_MLANTHOLOGY_LEGACY = [
    "acml", "aistats", "alt", "automl", "chil", "clear", "collas", "colt", "cpal", "cvpr", "cvprw",
    "distill", "eccv", "eccvw", "ecml", "ecmlpkdd", "ftml", "iccv", "iccvw", "iclr", "iclrw", "icml",
    "icmlw", "isipta", "jair", "l4dc", "log", "mlhc", "mlj", "neco", "pgm", "uai", "wacv", "wacvw",
]
ACL_VENUES = ("acl", "emnlp", "naacl", "eacl", "aacl", "coling", "findings", "tacl", "lrec")
ACL_YEARS = range(2022, 2027)
ICLR2026_AREAS = (
    "alignment, fairness, safety, privacy, and societal considerations",
    "applications to computer vision, audio, language, and other modalities", "datasets and benchmarks",
    "foundation or frontier models, including LLMs", "generative models",
    "interpretability and explainable AI", "learning theory", "optimization",
    "probabilistic methods (Bayesian methods, variational inference, sampling, UQ, etc.)",
    "reinforcement learning", "transfer learning, meta learning, and lifelong learning",
    "unsupervised, self-supervised, semi-supervised, and supervised representation learning",
)
# Ruichen0424/ai-top-conf-jsons: <CONF>/<conf>_<year>.json, the folder upper/mixed-case (120 files).
KNOWN_AITOPCONF: dict[str, str] = {
    "AAAI": "2016-2026", "ACL": "2016-2026", "CVPR": "2016-2026", "ECCV": "2018,2020,2022,2024",
    "EMNLP": "2016-2025", "ICCV": "2017,2019,2021,2023,2025", "ICLR": "2020-2026", "ICML": "2016-2026",
    "IJCAI": "2016-2025", "IJCV": "2016-2025", "NeurIPS": "2016-2025", "TIP": "2016-2025",
    "TPAMI": "2016-2025",
}
ICML2026_GROUPS = ("categories", "orgs", "meta")     # alickzhu/icml2026-papers data/<name>.json
# thewebconf2026/www2026 accepted/Accepted papers - Main proceedings - <Track>.csv, spelled as there.
WWW2026_TRACKS = ("Industry", "Main Research track - rfp", "PhD Symposium", "Short Papers", "Web4Good",
                  "Workshops-papers")
# dennis-fast/conference-paper-navigator conferences/<id>/data/papers.json: the programmes we read
NAVIGATOR_CONFERENCES = ("ijcai-2026", "eacl-2026")
ICLR2026_APIV2 = ("paper_info_api_response.json", "paper_info_cleaned_reviews.json")
ICRA2026_TITLE_DAYS = ("tue", "wed", "thu")                     # raw/paper_titles/<day>.txt
ICRA2026_PROGRAM_DAYS = ("tuesday", "wednesday", "thursday")    # raw/program_html/<day>.html
# gisbi-kim/cvmlpaper-atlas by_venue/<VENUE>.xlsx: the venues whose counts the others lack (the NeurIPS,
# ICML and ICLR workbooks have almost no counts; CVPR's and ICCV's are too large for the snapshot)
ATLAS_VENUES = ("ECCV", "3DV")


def _years(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


@dataclass(frozen=True, slots=True)
class Origin:
    """One public repository: which of its files we want and where each goes locally."""

    repo: str
    ref: str
    local: Callable[[str], str | None]     # repository path -> local path under sources/, or None
    known: Callable[[], list[str]]         # repository paths to use when the listing fails
    listed: bool = True                    # False: ``known`` is the whole list (a pinned commit)


def _papercopilot_local(path: str) -> str | None:
    m = re.fullmatch(r"([a-z0-9]+)/([a-z0-9]+?)(\d{4})\.json", path)
    return f"papercopilot/{path}" if m and m.group(1) == m.group(2) else None


def _mlanthology_local(path: str) -> str | None:
    m = re.fullmatch(r"data/(papers/[a-z0-9]+-\d{4}\.json\.gz|legacy/[a-z0-9]+-legacy\.jsonl\.gz)", path)
    return f"mlanthology/{m.group(1)}" if m else None


def _acl_local(path: str) -> str | None:
    m = re.fullmatch(r"data/xml/((\d{4})\.([a-z]+)\.xml)", path)
    if m and int(m.group(2)) in ACL_YEARS and m.group(3) in ACL_VENUES:
        return f"acl-anthology/{m.group(1)}"
    return None


def _tables_local(path: str) -> str | None:
    m = re.fullmatch(r"ConferenceTables/((ICLR|ICML)_cc_2024_Conference"
                     r"|robot-learning_org_CoRL_\d{4}_Conference)\.csv", path)
    return f"openreview-exports/iclr2024-icml2024-corl/{path.split('/')[1]}" if m else None


def _iclr2026_local(path: str) -> str | None:
    m = re.fullmatch(r"iclr_paper/primary_area__(.+)\.csv", path)
    return f"openreview-exports/iclr2026/accepted-{slugify(m.group(1))}.csv" if m else None


def _aitopconf_local(path: str) -> str | None:
    m = re.fullmatch(r"([A-Za-z]+)/([a-z]+)_\d{4}\.json", path)
    ok = m and m.group(1) in KNOWN_AITOPCONF and m.group(2) == m.group(1).lower()
    return f"ai-top-conf-jsons/{path}" if ok else None


def _orgroups_local(path: str) -> str | None:
    m = re.fullmatch(r"data/([a-z]+)\.json", path)
    return f"openreview-exports/icml2026/{m.group(1)}.json" if m and m.group(1) in ICML2026_GROUPS else None


def _webconf_local(path: str) -> str | None:
    """``accepted/Accepted papers - Main proceedings - Main Research track - rfp.csv`` ->
    ``www2026/www2026-main-research-track---rfp.csv`` (every character but a-z0-9 becomes "-")."""
    m = re.fullmatch(r"accepted/Accepted papers - Main proceedings - ([^/]+)\.csv", path)
    return f"www2026/www2026-{re.sub(r'[^a-z0-9]', '-', m.group(1).lower())}.csv" if m else None


def _papercept_local(path: str) -> str | None:
    m = re.fullmatch(r"raw/(?:paper_titles/([a-z]+)\.txt|program_html/([a-z]+)\.html)", path)
    if not m:
        return None
    return f"icra2026/icra2026-titles-{m.group(1)}.txt" if m.group(1) else \
        f"icra2026/icra2026-program-{m.group(2)}.html"


def _navigator_local(path: str) -> str | None:
    m = re.fullmatch(r"conferences/([a-z0-9-]+)/data/papers\.json", path)
    ok = m is not None and m.group(1) in NAVIGATOR_CONFERENCES
    return f"conference-navigator/{m.group(1)}/papers.json" if m and ok else None


def _atlas_local(path: str) -> str | None:
    m = re.fullmatch(r"by_venue/([A-Za-z0-9]+)\.xlsx", path)
    return f"cvmlpaper-atlas/{m.group(1)}.xlsx" if m and m.group(1) in ATLAS_VENUES else None


ORIGINS: dict[str, list[Origin]] = {
    "papercopilot": [Origin(
        "papercopilot/paperlists", "main", _papercopilot_local,
        lambda: [f"{c}/{c}{y}.json" for c, spec in KNOWN_PAPERCOPILOT.items() for y in _years(spec)])],
    "mlanthology": [Origin(
        "rbnyng/mlanthology", "main", _mlanthology_local,
        lambda: [f"data/papers/{v}-{y}.json.gz" for v, s in KNOWN_MLANTHOLOGY_PAPERS.items()
                 for y in _years(s)]
        + [f"data/legacy/{v}-legacy.jsonl.gz" for v in KNOWN_MLANTHOLOGY_LEGACY])],
    "acl": [Origin(
        "acl-org/acl-anthology", "master", _acl_local,
        lambda: [f"data/xml/{y}.{v}.xml" for y in ACL_YEARS for v in ACL_VENUES])],
    "openreview": [
        Origin("dotd/NeurIPS2024Scrape", "main", _tables_local,
               lambda: [f"ConferenceTables/{n}.csv" for n in (
                   "ICLR_cc_2024_Conference", "ICML_cc_2024_Conference",
                   "robot-learning_org_CoRL_2024_Conference", "robot-learning_org_CoRL_2025_Conference")]),
        Origin("whitney-house/ICLR2025-OpenReview", "main",
               lambda p: ("openreview-exports/iclr2025/iclr2025-decisions.csv"
                          if p == "data/papers.csv" else None),
               lambda: ["data/papers.csv"]),
        Origin("alickzhu/iclr2026-papers", "main", _iclr2026_local,
               lambda: [f"iclr_paper/primary_area__{a}.csv" for a in ICLR2026_AREAS]),
        Origin("bmtlima/iclr-2026-oral", "main",
               lambda p: ("openreview-exports/iclr2026/orals-with-authors.json"
                          if p == "data/papers.json" else None),
               lambda: ["data/papers.json"]),
    ],
    "openreview-api": [Origin(
        "zhuanxv-G/ICLR-2025-Analysis", "main",
        lambda p: f"openreview-exports/iclr2026-apiv2/{p}" if p in ICLR2026_APIV2 else None,
        lambda: list(ICLR2026_APIV2))],
    "highlights": [Origin(
        "chpark-ML/neurips2026-medical-llm-rag", "main",
        lambda p: "neurips2026/highlights.json" if p == "data/highlights.json" else None,
        lambda: ["data/highlights.json"])],
    "navigator": [Origin(
        "dennis-fast/conference-paper-navigator", "main", _navigator_local,
        lambda: [f"conferences/{c}/data/papers.json" for c in NAVIGATOR_CONFERENCES])],
    "aitopconf": [Origin(
        "Ruichen0424/ai-top-conf-jsons", "main", _aitopconf_local,
        lambda: [f"{c}/{c.lower()}_{y}.json" for c, spec in KNOWN_AITOPCONF.items() for y in _years(spec)])],
    "orgroups": [Origin(
        "alickzhu/icml2026-papers", "main", _orgroups_local,
        lambda: [f"data/{n}.json" for n in ICML2026_GROUPS])],
    "webconf": [Origin(
        "thewebconf2026/www2026", "main", _webconf_local,
        lambda: [f"accepted/Accepted papers - Main proceedings - {t}.csv" for t in WWW2026_TRACKS])],
    "explorer": [Origin(
        "gisbi-kim/iros2026-explorer", "main",
        lambda p: "iros2026/iros2026-papers.json" if p == "output/papers.json" else None,
        lambda: ["output/papers.json"])],
    "papercept": [Origin(
        "gisbi-kim/icra2026-explorer", "main", _papercept_local,
        lambda: [f"raw/paper_titles/{d}.txt" for d in ICRA2026_TITLE_DAYS]
        + [f"raw/program_html/{d}.html" for d in ICRA2026_PROGRAM_DAYS])],
    "atlas": [Origin(
        "gisbi-kim/cvmlpaper-atlas", "main", _atlas_local,
        lambda: [f"by_venue/{v}.xlsx" for v in ATLAS_VENUES])],
}


def _curated_origins() -> list[Origin]:
    """The curated reading lists of our catalog (curated/catalog.tsv), each at its commit: their
    files go to ``curated-lists/<owner>+<repo>/`` as ../shared/data has them (uncompressed)."""
    out = []
    for row in lists_catalog():
        repo, files = row.get("repo") or "", [f for f in (row.get("files") or "").split(",") if f]
        if repo.count("/") != 1 or not files:
            continue
        out.append(Origin(repo, row.get("commit") or "HEAD", partial(_curated_local, repo, frozenset(files)),
                          partial(list, files), listed=False))
    return out


def _curated_local(repo: str, files: frozenset[str], path: str) -> str | None:
    return f"{FOLDER}/{repo.replace('/', '+', 1)}/{path}" if path in files else None


ORIGINS["curated"] = _curated_origins()


@dataclass(slots=True)
class Download:
    url: str
    local: str          # relative to the sources folder


def plan(sources: list[str] | None = None, api: str | None = None, raw: str | None = None,
         timeout: float = 30.0) -> list[Download]:
    """Every file to fetch: listed from each repository's tree (GitHub API), falling back to our
    known lists when the API cannot be asked."""
    api = api or os.environ.get("PAPERLIST_GITHUB_API") or API
    raw = raw or os.environ.get("PAPERLIST_GITHUB_RAW") or RAW
    out: list[Download] = []
    for name, origins in ORIGINS.items():
        if sources and name not in sources:
            continue
        for o in origins:
            tree = f"{api}/repos/{o.repo}/git/trees/{o.ref}?recursive=1"
            paths = (o.listed and _list_tree(tree, timeout)) or o.known()
            for p in sorted(paths):
                local = o.local(p)
                if local:
                    out.append(Download(f"{raw}/{o.repo}/{o.ref}/{quote(p, safe='/')}", local))
    return out


def _list_tree(url: str, timeout: float) -> list[str]:
    try:
        req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        with urllib.request.urlopen(req, timeout=timeout) as resp:      # fixed https URLs
            tree = json.load(resp).get("tree", [])
        return [t["path"] for t in tree if isinstance(t, dict) and t.get("type") == "blob" and "path" in t]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return []


@dataclass(slots=True)
class FetchReport:
    fetched: int = 0
    kept: int = 0                       # already complete from an earlier run
    missing: int = 0                    # 404: the origin no longer has it (fine for guessed names)
    failed: list[str] | None = None


def fetch(downloads: list[Download], dest: Path, progress: Callable[[int, int, str], None] | None = None,
          timeout: float = 120.0) -> FetchReport:
    """Download every file into ``dest`` (resumable: complete files are kept)."""
    rep = FetchReport(failed=[])
    cap = max_file_bytes()              # per download, like every file read (bounded.py)
    t0 = time.perf_counter()
    for n, d in enumerate(downloads, 1):
        target = dest / d.local
        if target.exists() and target.stat().st_size > 0:
            rep.kept += 1
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            part = target.with_name(target.name + ".part")
            try:
                req = urllib.request.Request(d.url, headers={"User-Agent": USER_AGENT})
                with urllib.request.urlopen(req, timeout=timeout) as resp, open(part, "wb") as f:
                    size = 0
                    while chunk := resp.read(1 << 20):
                        size += len(chunk)
                        if size > cap:
                            raise too_large(cap, " to download")
                        f.write(chunk)
                part.replace(target)
                rep.fetched += 1
            except SourceError as e:
                part.unlink(missing_ok=True)
                assert rep.failed is not None
                rep.failed.append(f"{d.url}: {e}")
            except urllib.error.HTTPError as e:
                part.unlink(missing_ok=True)
                if e.code == 404:
                    rep.missing += 1
                else:
                    assert rep.failed is not None
                    rep.failed.append(f"{d.url}: HTTP {e.code}")
            except (OSError, TimeoutError, ValueError) as e:     # ValueError: http.client.InvalidURL
                part.unlink(missing_ok=True)
                assert rep.failed is not None
                rep.failed.append(f"{d.url}: {getattr(e, 'reason', e)}")
        if progress:
            dt = time.perf_counter() - t0
            progress(n, len(downloads), f"{n / dt:.1f} files/s" if dt > 0 else "")
    return rep


def default_data_dir() -> Path | None:
    """../shared/data next to the working directory or to this checkout, when it exists."""
    here = Path(__file__).resolve().parents[2]          # the checkout: paperlist/sources/origins.py
    for cand in (Path.cwd() / ".." / "shared" / "data", here.parent / "shared" / "data"):
        if cand.is_dir():
            return cand.resolve()
    return None
