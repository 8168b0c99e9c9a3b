"""The CV+ML Paper Atlas's workbooks (sources/atlas.py): a small xlsx built here from real rows of
../shared/data/cvmlpaper-atlas/3DV.xlsx plus hostile rows, ingested beside the real Paper Copilot
records of the same 3DV 2025 papers; and broken workbooks."""

from __future__ import annotations

import gzip
import io
import json
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from paperlist.sources import READERS, SOURCE_TITLES, SourceError, detect, load_path
from paperlist.sources.atlas import AtlasReader
from paperlist.store import Store

from .conftest import run_cli, shared_data

READER = AtlasReader()
HEADER = ("venue", "year", "title", "authors", "abstract", "cited_by_count", "doi", "ee", "pages", "dblp_key",
          "openalex_id", "venues_all")


def atlas_rows() -> tuple[list[dict[str, Any]], bytes]:
    """The real 3DV workbook's rows (as dicts) and its docProps/core.xml."""
    path = shared_data("cvmlpaper-atlas/3DV.xlsx")
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = wb["papers"].iter_rows(values_only=True)
    header = next(rows)
    assert tuple(header) == HEADER
    out = [dict(zip(header, r, strict=True)) for r in rows]
    wb.close()
    with zipfile.ZipFile(path) as zf:
        core = zf.read("docProps/core.xml")
    return out, core


def write_xlsx(path: Path, rows: list[dict[str, Any]], header: tuple[str, ...] = HEADER,
               sheet: str = "papers", core: bytes | None = None) -> Path:
    """A workbook as the atlas writes it; ``core`` replaces its docProps/core.xml (openpyxl stamps
    the time of saving there, the real files their own)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet
    ws.append(list(header))
    for r in rows:
        ws.append([r.get(h) for h in header])
    buf = io.BytesIO()
    wb.save(buf)
    data = buf.getvalue()
    if core is not None:
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                dst.writestr(info, core if info.filename == "docProps/core.xml" else src.read(info))
        data = out.getvalue()
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def real() -> dict[str, Any]:
    """Three real 3DV 2025 rows that Paper Copilot's 3dv2025 also lists (two with a count, one
    without), one real row of a year we hold no 3DV paper of, one proceedings volume, and the
    Paper Copilot records of the three papers."""
    rows, core = atlas_rows()
    pc_path = shared_data("papercopilot/3dv/3dv2025.json.gz")
    pc = {p["title"].strip().lower(): p for p in json.loads(gzip.decompress(pc_path.read_bytes()))}
    both = [r for r in rows if r["year"] == 2025 and r["title"].strip().lower() in pc and r["doi"]]
    counted = [r for r in both if isinstance(r["cited_by_count"], int) and r["cited_by_count"] > 0][:2]
    uncounted = next(r for r in both if r["cited_by_count"] is None)
    other_year = next(r for r in rows if r["year"] == 2024 and r["cited_by_count"])
    volume = next(r for r in rows if r["dblp_key"] == "conf/3dim/2020")
    papers = [pc[r["title"].strip().lower()] for r in (*counted, uncounted)]
    return {"counted": counted, "uncounted": uncounted, "other_year": other_year, "volume": volume,
            "pc": papers, "core": core}


def hostile(real: dict[str, Any]) -> list[dict[str, Any]]:
    base = dict(real["counted"][0])
    return [
        {**base, "title": None, "dblp_key": "conf/3dim/NoTitle25"},                      # no title
        {**base, "year": None, "dblp_key": "conf/3dim/NoYear25"},                        # no year
        {**base, "year": "MMXXV", "dblp_key": "conf/3dim/Roman25"},                      # not a year
        # nothing to find it by
        {**base, "title": "<script>alert(1)</script>", "doi": None, "dblp_key": None},
        # a formula (written as one, read without a value): no title
        {**base, "title": "=HYPERLINK(\"http://evil.example\")", "dblp_key": "conf/3dim/Formula25"},
        # a count that is no number, for a paper no other source lists: nothing at all
        {**base, "title": "Evil Splatting: A Paper No One Lists", "cited_by_count": "lots",
         "doi": "10.1109/3DV.EVIL", "dblp_key": "conf/3dim/Evil25", "authors": "Eve Evil; Mal Lory"},
    ]


@pytest.fixture(scope="module")
def built(real: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The papercopilot file and the workbook ingested by the CLI into one home."""
    tmp = tmp_path_factory.mktemp("atlas")
    pc = tmp / "3dv2025.json"
    pc.write_text(json.dumps(real["pc"]), encoding="utf-8")
    rows = [*real["counted"], real["uncounted"], real["other_year"], real["volume"], *hostile(real)]
    xlsx = write_xlsx(tmp / "3DV.xlsx", rows, core=real["core"])
    home = tmp / "home"
    r = run_cli(home, "ingest", "--json", "--no-index", str(pc), str(xlsx))
    assert r.exit_code == 0, r.stderr
    return {"report": json.loads(r.stdout), "home": home, "xlsx": xlsx}


def papers(home: Path) -> dict[str, dict[str, Any]]:
    """Every paper by its lower-cased title."""
    db = sqlite3.connect(home / "paperlist.db")
    out = {}
    for title, venue, year, ids, cites, prov, biblio, sources in db.execute(
            "SELECT title, venue, year, ids, citations, provenance, biblio, sources FROM papers"):
        out[title.strip().lower()] = {
            "venue": venue, "year": year, "ids": json.loads(ids), "citations": cites,
            "provenance": json.loads(prov), "biblio": json.loads(biblio), "sources": json.loads(sources)}
    db.close()
    return out


def test_the_reader_is_registered_and_named() -> None:
    assert READERS["atlas"].name == "atlas"
    assert SOURCE_TITLES["atlas"] == "CV+ML Paper Atlas (DBLP, Semantic Scholar counts)"


def test_the_real_workbooks_are_recognised_and_read() -> None:
    for name, venue, least in (("3DV.xlsx", "3dv", 1600), ("ECCV.xlsx.gz", "eccv", 11500)):
        src = load_path(shared_data(f"cvmlpaper-atlas/{name}"))
        assert detect(src).name == "atlas"
        parsed = READER.parse(src)
        recs = parsed.records
        assert len(recs) >= least and {r.venue for r in recs} == {venue}
        assert all(r.annotation and r.ids.get("dblp") for r in recs)
        # the skipped rows are DBLP's proceedings volumes, each named
        assert parsed.skipped and all("a proceedings volume" in s for s in parsed.skipped)
        counted = [r for r in recs if r.citations is not None]
        assert len(counted) > 0.6 * len(recs)
        assert {r.citations_as_of for r in counted} == {"2026-04-27"}   # the workbook's own date (UTC)
        assert all(r.ids["doi"] == r.ids["doi"].lower() for r in recs if "doi" in r.ids)
    assert READER.file_key(src) == "atlas:ECCV"


def test_counts_dois_and_pages_go_to_the_papers_we_hold(real: dict[str, Any], built: dict[str, Any]) -> None:
    got = papers(built["home"])
    assert len(got) == len(real["pc"]) == 3              # the workbook made no paper of its own
    for row in real["counted"]:
        p = got[row["title"].strip().lower()]
        assert (p["venue"], p["year"]) == ("3dv", 2025)
        assert p["citations"] == row["cited_by_count"]
        assert p["provenance"]["citations"] == "atlas:3DV"
        assert p["provenance"]["citations_as_of"] == "2026-04-27"
        assert p["ids"]["doi"] == row["doi"].lower() and p["ids"]["dblp"] == row["dblp_key"]
        assert p["biblio"]["pages"] == row["pages"]
        assert any(s.startswith("atlas:3DV#") for s in p["sources"])
        assert p["provenance"]["title"].startswith("papercopilot:")      # an annotation gives no title
    # a row without a count still adds its DOI, and no count
    p = got[real["uncounted"]["title"].strip().lower()]
    assert p["citations"] is None and "citations" not in p["provenance"]
    assert p["ids"]["doi"] == real["uncounted"]["doi"].lower()


def test_unknown_papers_and_hostile_rows_make_nothing(real: dict[str, Any], built: dict[str, Any]) -> None:
    got = papers(built["home"])
    assert real["other_year"]["title"].strip().lower() not in got
    assert not any("hyperlink" in t or "script" in t or "evil" in t for t in got)
    (fr,) = [f for f in built["report"]["files"] if f["name"].endswith("3DV.xlsx")]
    assert fr["source"] == "atlas" and fr["status"] == "ingested"
    problems = fr["problems"]
    assert len(problems) == 6, problems
    assert len([p for p in problems if p.endswith("record has no title")]) == 2
    assert any(p.endswith("record has no year") for p in problems)
    assert any("'MMXXV' is not a number" in p for p in problems)
    assert any("neither a DOI nor a DBLP key" in p for p in problems)
    assert any("a proceedings volume (conf/3dim/2020)" in p for p in problems)
    # the counted rows, the uncounted one, the other year's and the one with a count that is no number
    assert fr["counts"]["new"] == 5 and fr["counts"]["skipped"] == 6


def test_reingest_changes_nothing(built: dict[str, Any]) -> None:
    before = papers(built["home"])
    r = run_cli(built["home"], "ingest", "--json", "--no-index", str(built["xlsx"]))
    assert r.exit_code == 0, r.stderr
    assert [f["status"] for f in json.loads(r.stdout)["files"]] == ["unchanged"]
    assert papers(built["home"]) == before


def test_sniff_reads_the_workbook_not_its_name(real: dict[str, Any], tmp_path: Path) -> None:
    xlsx = write_xlsx(tmp_path / "renamed.bin", real["counted"])
    assert detect(load_path(xlsx)).name == "atlas"
    # another workbook (another sheet, another header) is not the atlas's, whatever its name
    other = write_xlsx(tmp_path / "3DV.xlsx", real["counted"], sheet="Sheet1")
    with pytest.raises(SourceError, match="unrecognized file format"):
        detect(load_path(other))
    # and in a folder it is passed by, not a failure
    d = tmp_path / "folder"
    d.mkdir()
    write_xlsx(d / "budget.xlsx", [{"venue": "x"}], header=("venue", "amount"), sheet="Sheet1")
    r = run_cli(tmp_path / "home", "ingest", "--json", "--no-index", str(d))
    assert json.loads(r.stdout)["files"][0]["status"] == "ignored", r.stdout


NOT_A_ZIP = "not an xlsx workbook (not a zip file: File is not a zip file)"


def _truncated(real: dict[str, Any], p: Path) -> None:
    p.write_bytes(shared_data("cvmlpaper-atlas/3DV.xlsx").read_bytes()[:300_000])


@pytest.mark.parametrize(("name", "make", "fmt", "message"), [
    ("notzip.xlsx", lambda real, p: p.write_bytes(b"venue,year,title\nECCV,2024,A\n"), "atlas", NOT_A_ZIP),
    ("truncated.xlsx", _truncated, "atlas", NOT_A_ZIP),
    ("noheader.xlsx", lambda real, p: write_xlsx(p, real["counted"], header=HEADER[:3] + ("doi",)),
     "atlas", "the 'papers' sheet's header lacks authors, cited_by_count (not a CV+ML Paper Atlas workbook)"),
    ("nosheet.xlsx", lambda real, p: write_xlsx(p, real["counted"], sheet="Sheet1"), "atlas",
     "no sheet named 'papers' (found: Sheet1)"),
    ("notzip.xlsx", lambda real, p: p.write_bytes(b"\x00" * 100), None,
     "unrecognized file format (use --format to name it)"),
])
def test_a_broken_workbook_fails_with_one_line(real: dict[str, Any], tmp_path: Path, name: str, make: Any,
                                               fmt: str | None, message: str) -> None:
    path = tmp_path / name
    make(real, path)
    r = run_cli(tmp_path / "home", "ingest", "--no-index", *(["--format", fmt] if fmt else []), str(path))
    assert r.exit_code == 1
    failed = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert failed == [f"failed    {path}: {message}"], r.stderr


def test_a_header_in_the_first_strings_is_what_sniff_looks_for(real: dict[str, Any], tmp_path: Path) -> None:
    """A workbook with a 'papers' sheet but another header is the atlas's gone wrong: it fails with
    its reason rather than passing for some other format."""
    path = write_xlsx(tmp_path / "x.xlsx", real["counted"],
                      header=("venue", "year", "title", "cited_by_count"))
    src = load_path(path)
    assert READER.sniff(src)
    with pytest.raises(SourceError, match="header lacks authors"):
        READER.parse(src)


def test_a_workbook_without_its_date_gives_undated_counts(real: dict[str, Any], tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "x.xlsx", real["counted"], core=b"<coreProperties/>")
    recs = READER.parse(load_path(path)).records
    assert [r.citations for r in recs] == [r["cited_by_count"] for r in real["counted"]]
    assert {r.citations_as_of for r in recs} == {None}


def atlas_figures(db: sqlite3.Connection, venue: str, years: range) -> tuple[int, int, int]:
    """(papers, papers one of whose records is an atlas row with a count, papers whose shown count
    is the atlas's) of a venue's years."""
    ids = {pid: json.loads(prov).get("citations", "") for pid, prov in db.execute(
        "SELECT id, provenance FROM papers WHERE venue=? AND year BETWEEN ? AND ?",
        (venue, years.start, years.stop - 1))}
    counted = {pid for pid, data in db.execute(
        "SELECT paper_id, data FROM records WHERE source='atlas' AND paper_id IS NOT NULL")
        if pid in ids and json.loads(data).get("citations") is not None}
    shown = sum(1 for prov in ids.values() if prov.startswith("atlas:"))
    return len(ids), len(counted), shown


@pytest.mark.corpus
def test_eccv_papers_get_the_atlas_counts_in_the_whole_corpus(corpus_store: Store) -> None:
    """Measured on ECCV's own sources (papercopilot, mlanthology, ai-top-conf) with the atlas: of
    6,166 ECCV 2018-2024 papers, 3,394 get an atlas count and 1,439 show it (the merge shows each
    paper's largest count, and Paper Copilot's Google Scholar counts of 2018-2022 run higher); ECCV
    2024, which no other source counts, 670. The workbook's other rows are workshop papers DBLP
    files under ECCV: they add no paper."""
    papers_, counted, shown = atlas_figures(corpus_store.db, "eccv", range(2018, 2025))
    assert papers_ > 6000 and counted >= 3000 and shown >= 1300, (papers_, counted, shown)
    assert atlas_figures(corpus_store.db, "eccv", range(2024, 2025))[2] >= 600
    assert atlas_figures(corpus_store.db, "3dv", range(2025, 2026))[1:] == (118, 118)
