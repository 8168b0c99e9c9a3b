"""The real ACL Anthology and OpenReview files in ../shared/data: every file parses, with the
record counts the files hold (skipped with a reason when the corpus is absent)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from paperlist.models import Record
from paperlist.sources import READERS, SourceError, companion, detect, expand, load_path

from .conftest import shared_data

pytestmark = pytest.mark.corpus

# Papers per Anthology collection in the shared snapshot (frontmatter excluded).
ACL_COUNTS = {
    "2022.acl": 774, "2022.coling": 632, "2022.emnlp": 941, "2022.findings": 1132, "2022.naacl": 538,
    "2023.acl": 1249, "2023.eacl": 335, "2023.emnlp": 1182, "2023.findings": 2158, "2023.tacl": 98,
    "2024.acl": 1030, "2024.eacl": 281, "2024.emnlp": 1447, "2024.findings": 1429, "2024.lrec": 1567,
    "2024.naacl": 662, "2024.tacl": 95, "2025.coling": 848, "2025.findings": 1861, "2025.naacl": 903,
    "2025.tacl": 33,
}
OPENREVIEW_COUNTS = {
    "openreview:ICLR_cc_2024_Conference": 2260, "openreview:ICML_cc_2024_Conference": 2610,
    "openreview:robot-learning_org_CoRL_2024_Conference": 265,
    "openreview:robot-learning_org_CoRL_2025_Conference": 263,
    "openreview:iclr2025-decisions": 11672, "openreview:iclr2026-orals": 224,
}


def _parse_dir(root: Path, reader_name: str, skip: tuple[str, ...] = ()) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    failures: list[str] = []
    for name, path in expand(str(root)):
        assert path is not None
        if path.relative_to(root).parts[0] in skip:
            continue
        try:
            src = load_path(path)
            reader = detect(src)
            assert reader.name == reader_name, name
            parsed = reader.parse(src)
        except SourceError as e:
            failures.append(f"{name}: {e}")
            continue
        assert parsed.skipped == [], (name, parsed.skipped[:3])
        out[reader.file_key(src)] = parsed.records
    assert failures == []
    return out


@pytest.fixture(scope="module")
def acl() -> dict[str, list[Record]]:
    return _parse_dir(shared_data("acl-anthology"), "acl")


@pytest.fixture(scope="module")
def openreview() -> dict[str, list[Record]]:
    # icml2026/ holds categories and institutions: the orgroups reader's (test_aitopconf.py);
    # iclr2026-apiv2/ is OpenReview API v2 notes (test_openreview_api.py); the rating folders are
    # review scores, not paper lists of this reader's
    return _parse_dir(shared_data("openreview-exports"), "openreview",
                      skip=("icml2026", "iclr2026-apiv2", "iclr2026-reviews", "iclr2024-ratings",
                            "iclr2026-accepted-ratings"))


def test_every_acl_collection_parses_with_its_papers(acl: dict[str, list[Record]]) -> None:
    counts = {k.removeprefix("acl:"): len(v) for k, v in acl.items()}
    assert set(counts) == set(ACL_COUNTS)
    for coll, n in ACL_COUNTS.items():
        assert counts[coll] >= n, coll
    recs = [r for rs in acl.values() for r in rs]
    assert len({r.key for r in recs}) == len(recs) >= 19195
    assert all(r.status == "accepted" and r.ids["acl"] == r.key and r.biblio.get("bibkey") for r in recs)
    assert all(r.links["pdf"] == f"https://aclanthology.org/{r.key}.pdf" for r in recs)
    assert sum(r.abstract is not None for r in recs) >= 19000
    assert sum(any(a.orcid for a in r.authors) for r in recs) >= 5000


def test_every_acl_volume_is_mapped(acl: dict[str, list[Record]]) -> None:
    """Each (venue, track) the real volumes produce: nothing falls through to a guessed track."""
    pairs = Counter((r.venue, r.track) for rs in acl.values() for r in rs)
    tracks = {t for _, t in pairs}
    assert tracks == {"main", "long", "short", "srw", "demo", "industry", "tutorial", "journal"}
    assert {v for v, _ in pairs} == {"acl", "emnlp", "naacl", "eacl", "coling", "lrec-coling", "tacl",
                                     "findings-acl", "findings-emnlp", "findings-naacl", "findings-eacl",
                                     "findings-aacl"}
    assert pairs[("tacl", "journal")] == 98 + 95 + 33 and pairs[("lrec-coling", "main")] == 1554


def test_every_openreview_file_parses_with_its_records(openreview: dict[str, list[Record]]) -> None:
    for key, n in OPENREVIEW_COUNTS.items():
        assert len(openreview[key]) == n, key
    accepted_csv = {k: v for k, v in openreview.items() if k.startswith("openreview:iclr2026-accepted-")}
    assert len(accepted_csv) == 12 and sum(len(v) for v in accepted_csv.values()) == 4302
    assert all(r.ids.get("openreview") for v in accepted_csv.values() for r in v)
    # every summary but the few where the model wrote only the questions, or nothing ("#NAME?")
    no_summary = [r for v in accepted_csv.values() for r in v if not r.summary_zh]
    assert len(no_summary) <= 60
    assert not any("（完）" in (r.summary_zh or "") or "✅" in (r.summary_zh or "")
                   for v in accepted_csv.values() for r in v)
    decisions = Counter(r.status for r in openreview["openreview:iclr2025-decisions"])
    assert decisions == {"rejected": 4959, "poster": 3113, "withdrawn": 2937, "spotlight": 380, "oral": 213,
                         "desk-rejected": 70}
    orals = openreview["openreview:iclr2026-orals"]
    assert sum("arxiv" in r.ids for r in orals) == 187 and all(r.authors for r in orals)
    iclr24 = openreview["openreview:ICLR_cc_2024_Conference"]
    assert Counter(r.status for r in iclr24) == {"poster": 1807, "spotlight": 367, "oral": 86}


def test_sniffers_route_the_whole_corpus() -> None:
    """The walk `paperlist ingest ../shared/data` makes: each data file is claimed by exactly one
    reader, and each folder by the readers made for it."""
    root = shared_data()
    claimed: Counter[tuple[str, str]] = Counter()
    unread: list[str] = []
    for name, path in expand(str(root)):
        assert path is not None
        folder = path.relative_to(root).parts[0]
        src = load_path(path)
        hits = [r.name for r in READERS.values() if r.sniff(src)]
        assert len(hits) <= 1, (name, hits)
        if hits:
            claimed[(folder, hits[0])] += 1
        elif companion(src):
            claimed[(folder, "companion")] += 1         # PROVENANCE.txt, conference.json, counts
        else:
            unread.append(path.relative_to(root).as_posix())
    assert claimed == Counter({
        ("acl-anthology", "acl"): 21, ("openreview-exports", "openreview"): 18,
        ("openreview-exports", "orgroups"): 2, ("openreview-exports", "openreview-api"): 2,
        ("openreview-exports", "scores"): 28,        # the db, the JSON lines, 25 per-paper files, the parquet
        ("openreview-exports", "companion"): 6,      # 4 PROVENANCE.txt, icml2026/meta.json, papers-meta.json
        ("ai-top-conf-jsons", "aitopconf"): 120, ("papercopilot", "papercopilot"): 277,
        ("mlanthology", "mlanthology"): claimed[("mlanthology", "mlanthology")],
        ("www2026", "webconf"): 6, ("iros2026", "explorer"): 1, ("icra2026", "papercept"): 5,
        ("neurips2026", "highlights"): 1, ("neurips2026", "companion"): 1,
        ("conference-navigator", "navigator"): 2, ("conference-navigator", "companion"): 4,
        ("cvmlpaper-atlas", "companion"): 1, ("cvmlpaper-atlas", "atlas"): 2,
    })
    assert claimed[("mlanthology", "mlanthology")] > 100
    # every file is read: the curated lists are not walked by the paper readers (paperlist/curated)
    assert unread == []
