"""The PaperPlaza program reader (papercept): the text and HTML layouts on real excerpts of the
ICRA 2026 program (tests/fixtures/papercept), the two layouts against each other, broken copies
for the error paths, and the real files."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from paperlist.models import Record
from paperlist.sources import SourceError, detect, expand, load_path
from paperlist.sources.papercept import PaperceptReader, person_name
from paperlist.text import title_key

from .conftest import FIXTURES, shared_data

PC = FIXTURES / "papercept"
TUE_TXT, TUE_HTML = PC / "icra2026-titles-tue.txt", PC / "icra2026-program-tuesday.html"
THU_TXT, THU_HTML = PC / "icra2026-titles-thu.txt", PC / "icra2026-program-thursday.html"
READER = PaperceptReader()
TUESDAY = ["TuI1I.1", "TuI1I.2", "TuI1I.3", "TuI1I.4", "TuI1I.18", "TuI1I.156", "TuI1I.224", "TuI1LB.9",
           "TuAT1.1", "TuAT1.2"]


def parse(path: Path) -> tuple[list[Record], list[str]]:
    src = load_path(path)
    assert detect(src).name == "papercept"
    p = READER.parse(src)
    return p.records, p.skipped


def by_key(path: Path) -> dict[str, Record]:
    return {r.key: r for r in parse(path)[0]}


def copy(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def listing(r: Record) -> tuple[str, str, tuple[tuple[str, str | None], ...]]:
    return r.key, r.title, tuple((a.name, a.affiliation) for a in r.authors)


@pytest.mark.parametrize("path", [TUE_TXT, TUE_HTML])
def test_papers_sessions_and_authors(path: Path) -> None:
    recs, skipped = parse(path)
    assert [r.key for r in recs] == TUESDAY                      # keynote and panel sessions list no papers
    assert {(r.source, r.venue, r.year, r.status) for r in recs} == {("papercept", "icra", 2026, "accepted")}
    assert skipped == [(f"line {87 if path == TUE_TXT else 725}: a test entry of the program, not a paper "
                       "('Test Paper - Please Ignore - Testing a Workflow')")]
    r = recs[0]
    assert r.title == ("Real-Time Sit-To-Stand Phase Classification with a Mobile Assistive Robot from Close "
                       "Proximity Utilizing 3D Visual Skeleton Recognition")
    assert [(a.name, a.affiliation) for a in r.authors][:3] == [
        ("Anas Mahdi", "University of Waterloo"), ("Zonghao Dong", "Tohoku University"),
        ("Jonathan Feng-Shun Lin", "University of Waterloo")]
    assert r.extra == {"session": "TuI1I", "session_type": "Interactive Session", "room": "Hall C",
                       "session_title": "Interactive Session 1", "time": "09:00-10:30", "day": "Tuesday",
                       "date": "2026-06-02"}
    keyed = {r.key: r for r in recs}
    sahin = next(a for a in keyed["TuI1I.156"].authors if a.key == "hurkan-sahin")
    assert sahin.name == "Hürkan Şahin"          # "Şahin" is an entity in the HTML, "ü" a windows-1252 byte
    assert sahin.affiliation == "Universität Paderborn"
    assert "Perception–Action Coupling" in keyed["TuI1I.224"].title
    lbr = keyed["TuI1LB.9"]
    assert (lbr.track == "late-breaking-results"
            and lbr.extra["session_type"] == "Late Breaking Results Session")
    assert {"Krzysztof Tadeusz Walas", "Jan Węgrzynowski"} <= {a.name for a in lbr.authors}
    assert [k for k, r in keyed.items() if r.award] == ["TuAT1.1", "TuAT1.2"]
    assert keyed["TuAT1.2"].award == "award finalist"
    assert keyed["TuAT1.2"].extra["session_title"] == "Award Finalists 1"
    assert keyed["TuAT1.2"].extra["time"] == "11:10-11:20" and keyed["TuAT1.2"].extra["room"] == "Hall A2"


def test_the_html_adds_abstracts_keywords_and_links() -> None:
    html, text = by_key(TUE_HTML), by_key(TUE_TXT)
    r = html["TuI1I.1"]
    assert r.keywords == ["Physically Assistive Devices", "Physical Human-Robot Interaction"]
    assert r.abstract and r.abstract.startswith("Sit-to-stand (STS) transfer is a fundamental")
    assert "older adults’ daily activities" in r.abstract                     # byte 0x92 of windows-1252
    assert r.links == {"site": "https://ras.papercept.net/conferences/conferences/ICRA26/program/"
                               "ICRA26_ContentListWeb_3.html#tui1i_01"}
    abstract = html["TuI1I.3"].abstract or ""
    assert "low latency and high dynamic range. The researches" in abstract   # a <p> break mid-sentence
    assert "<p>" not in abstract and "\n" not in abstract
    assert html["TuI1I.18"].keywords == ["SLAM", "Localization", "Field Robots"]
    assert html["TuI1I.18"].abstract is None                                  # keywords only
    assert all(r.abstract is None and r.keywords == [] and r.links == {} for r in text.values())


@pytest.mark.parametrize("txt, html", [(TUE_TXT, TUE_HTML), (THU_TXT, THU_HTML)])
def test_text_and_html_give_the_same_papers(txt: Path, html: Path) -> None:
    """Same codes, titles, author names and affiliations, sessions: the merge joins them. The
    Thursday HTML of the corpus ends inside ThI2LB.14, so the later papers are in the text only."""
    text, page = by_key(txt), by_key(html)
    assert {listing(r) for r in page.values()} <= {listing(r) for r in text.values()}
    only_text = sorted(text.keys() - page.keys())
    assert only_text == ([] if txt == TUE_TXT else ["ThBT1.1", "ThI2LB.15"])
    for key, r in page.items():
        assert r.extra == text[key].extra and (r.track, r.award) == (text[key].track, text[key].award)
    if txt == THU_TXT:
        assert (page["ThI2LB.14"].abstract
                and page["ThI2LB.14"].abstract.endswith("reachable for the task, and the"))


def test_a_paper_listed_twice_is_kept_once() -> None:
    for path in (THU_TXT, THU_HTML):
        recs, skipped = parse(path)
        assert (len(skipped) == 1
                and "lists the same paper as an earlier record (kept the first)" in skipped[0])
        assert ([r.key for r in recs if r.title.startswith("Design and Optimization of a Tensioner")]
                == ["ThI1LB.1"])


def _unhead(data: bytes, *marks: bytes) -> bytes:
    """The copy without the session header rows that hold ``marks`` (their class removed)."""
    for mark in marks:
        at = data.rfind(b'<tr class="sHdr">', 0, data.index(mark))
        data = data[:at] + b"<tr>" + data[at + len(b'<tr class="sHdr">'):]
    return data


def test_wrapped_session_titles_and_curly_quotes_agree(tmp_path: Path) -> None:
    """ThI1P's title wraps over two lines in the text and has curly quotes (bytes 0x93/0x94 in the
    HTML). Without ThI1LB's header, ThI1LB.1 falls under it in both layouts."""
    text = THU_TXT.read_bytes().replace(b"ThI1LB  Late Breaking Results Session, Hall C\t"
                                        b"Add to My Program \r\n"
                                        b"Late Breaking Results 5\t \r\n", b"", 1)
    html = _unhead(THU_HTML.read_bytes(), b'<a name="thi1lb">', b'#thi1lb" title=')
    panel = ("Panels 5 - \u201cRobots for All\u201d in a Fragmented World: Competing Global Visions "
             "and Shared Futures from Europe, Asia, and the United States")
    for data, name in ((text, THU_TXT.name), (html, THU_HTML.name)):
        rec = READER.parse(load_path(copy(tmp_path, name, data))).records[0]
        assert rec.key == "ThI1LB.1" and rec.track is None
        assert {k: rec.extra[k] for k in ("session", "session_type", "room", "session_title")} == {
            "session": "ThI1P", "session_type": "Keynote Session", "room": "Hall A1 (Plenary)",
            "session_title": panel}


def test_person_names() -> None:
    assert person_name("Milford, Michael J") == "Michael J Milford"
    assert person_name("Walas, Krzysztof, Tadeusz") == "Krzysztof Tadeusz Walas"
    assert person_name("Wu, Yecheng, Yecheng") == "Yecheng Wu"
    assert person_name("Nakka, Rushiil, Rushiil Nakka") == "Rushiil Nakka"
    assert person_name("King, Martin Luther, Jr.") == "Martin Luther King Jr."
    assert person_name("Plato") == "Plato" and person_name(" , ") == ""


def test_venue_and_year_from_the_page_when_the_name_does_not_tell(tmp_path: Path) -> None:
    """The repository's own names (raw/paper_titles/tue.txt, raw/program_html/tuesday.html):
    not sniffed (the name is part of the check), read with --format papercept."""
    for fixture, name in ((TUE_TXT, "tue.txt"), (TUE_HTML, "tuesday.html")):
        src = load_path(copy(tmp_path, name, fixture.read_bytes()))
        assert not READER.sniff(src)
        recs = READER.parse(src).records
        assert {(r.venue, r.year) for r in recs} == {("icra", 2026)} and len(recs) == 10
        assert READER.file_key(src) == f"papercept:{name.split('.')[0]}"


def test_gzip_and_an_html_copy_in_utf8(tmp_path: Path) -> None:
    gz = copy(tmp_path, "icra2026-program-tuesday.html.gz", gzip.compress(TUE_HTML.read_bytes()))
    assert READER.file_key(load_path(gz)) == "papercept:icra2026-program-tuesday"
    assert [listing(r) for r in parse(gz)[0]] == [listing(r) for r in parse(TUE_HTML)[0]]
    # The same page saved in UTF-8 (its meta still says windows-1252): the bytes decide.
    utf8 = copy(tmp_path, "icra2026-program-tuesday.html",
                TUE_HTML.read_bytes().decode("cp1252").encode("utf-8"))
    assert ([(listing(r), r.abstract) for r in parse(utf8)[0]]
            == [(listing(r), r.abstract) for r in parse(TUE_HTML)[0]])


def test_bad_papers_are_skipped_with_where_and_why(tmp_path: Path) -> None:
    text = TUE_TXT.read_bytes().replace(b" Manydepth2: Motion-Aware Self-Supervised Monocular Depth "
                                        b"Estimation in Dynamic Scenes\r\n", b"", 1)
    p = READER.parse(load_path(copy(tmp_path, "icra2026-titles-tue.txt", text)))
    assert "line 36: record has no title" in p.skipped and "TuI1I.2" not in {r.key for r in p.records}
    html = TUE_HTML.read_bytes().replace(b">09:00-10:30, Paper TuI1I.2<", b">Paper TuI1I.2<", 1)
    html = html.replace(b">FAST-LIEO: Fast and Real-Time LiDAR-Inertial-Event-Visual Odometry<", b"><", 1)
    p = READER.parse(load_path(copy(tmp_path, "icra2026-program-tuesday.html", html)))
    assert ([m.split(": ", 1)[1] for m in p.skipped[:2]]
            == ["paper header without 'HH:MM-HH:MM, Paper <code>'", "record has no title"])
    assert len(p.records) == 8


@pytest.mark.parametrize("name, data, message", [
    ("icra2026-titles-tue.txt",
     "Technical Program for Tuesday\r\nAdd to My Program\r\nCaf\xe9".encode("latin-1"),
     "not UTF-8 text (byte 53)"),
    ("icra2026-titles-tue.txt", (b"Technical Program for Tuesday June 2, 2026\r\n"
                                 b"TuI1P  Keynote Session, Hall A1\tAdd to My Program \r\nPanel\t \r\n"),
     "no papers found in the text program"),
    ("icra2026-program-tuesday.html", (b'<html><head><meta charset="windows-1252"></head><body><table>'
     b'<tr class="pHdr"><td>09:00-10:30, Paper A.1</td></tr><tr><td>\x81</td></tr></table></body></html>'),
     "neither UTF-8 nor the windows-1252 it declares (byte 122)"),
    ("icra2026-program-tuesday.html", b'<html><head><meta charset="x-klingon"></head><body class="pHdr">\xff',
     "not UTF-8 and its charset 'x-klingon' is unknown"),
    ("icra2026-program-tuesday.html", b'<p class="pHdr"></p>', "no papers found in the html program"),
    ("icra2026-program-tuesday.html",
     b"<html><body>Technical Program for Tuesday, Add to My Program</body></html>",
     "not a PaperPlaza program"),
    ("tue.txt", (b"Technical Program for Tuesday\r\nAdd to My Program\r\n"
                 b"09:00-10:30, Paper A.1\tAdd to My Program\r\n"
                 b" A title\r\nDoe, Jane\tMIT\r\n"), "no venue and year in the file name 'tue.txt'"),
])
def test_file_errors_are_one_line(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(SourceError) as e:
        READER.parse(load_path(copy(tmp_path, name, data)))
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


@pytest.mark.parametrize("path", [TUE_TXT, TUE_HTML, THU_HTML])
def test_hostile_copies_raise_nothing_but_source_errors(tmp_path: Path, path: Path) -> None:
    raw = path.read_bytes()
    rng = random.Random(path.name)
    for n in range(60):
        data = bytearray(raw[: rng.randrange(len(raw))] if n % 2 else raw)
        for _ in range(rng.randrange(1, 40)):
            if data:
                data[rng.randrange(len(data))] = rng.choice(b"\t\r\n<>\"&;,:\x00\x02\x81\x92\xe9 ")
        src = load_path(copy(tmp_path, path.name, bytes(data)))
        try:
            parsed = READER.parse(src)
        except SourceError as e:
            assert "\n" not in str(e)
        else:
            assert all(r.key and r.title for r in parsed.records)


def test_deep_nesting_is_not_a_crash(tmp_path: Path) -> None:
    html = b'<html><body><table><tr class="pHdr"><td>09:00-10:30, Paper A.1</td></tr><tr><td>' \
           + b"<b>" * 50_000 + b"x" + b"</b>" * 50_000 + b"</td></tr></table></body></html>"
    try:
        READER.parse(load_path(copy(tmp_path, "icra2026-program-tuesday.html", html)))
    except SourceError:
        pass


def test_sniff_claims_only_its_fixtures(tmp_path: Path) -> None:
    claimed = sorted(p.relative_to(FIXTURES).as_posix() for _, p in expand(str(FIXTURES))
                     if p is not None and READER.sniff(load_path(p)))
    assert claimed == ["papercept/icra2026-program-thursday.html", "papercept/icra2026-program-tuesday.html",
                       "papercept/icra2026-titles-thu.txt", "papercept/icra2026-titles-tue.txt"]
    # the layout must match the name: text named as HTML and HTML named as text are refused
    assert not READER.sniff(load_path(copy(tmp_path, "icra2026-program-tue.txt", TUE_TXT.read_bytes())))
    assert not READER.sniff(load_path(copy(tmp_path, "icra2026-titles-tuesday.html", TUE_HTML.read_bytes())))


# --- the real files ------------------------------------------------------------------------------

# (entries in the file, records, skipped): Tuesday's PaperCept test entry and one paper listed
# twice on Wednesday and on Thursday are skipped; the Thursday HTML copy ends inside ThI2LB.14.
REAL = {
    "icra2026-titles-tue.txt.gz": (991, 990, 1), "icra2026-titles-wed.txt.gz": (992, 991, 1),
    "icra2026-titles-thu.txt.gz": (981, 980, 1),
    "icra2026-program-tuesday.html.gz": (991, 990, 1), "icra2026-program-thursday.html.gz": (937, 936, 1),
}


@pytest.fixture(scope="module")
def real() -> dict[str, tuple[list[Record], list[str]]]:
    root = shared_data("icra2026")
    return {name: parse(root / name) for name in REAL}


@pytest.mark.corpus
def test_the_real_program_days(real: dict[str, tuple[list[Record], list[str]]]) -> None:
    for name, (entries, n, nskipped) in REAL.items():
        recs, skipped = real[name]
        assert (len(recs), len(skipped), len(recs) + len(skipped)) == (n, nskipped, entries), name
        assert all(r.authors and all(a.affiliation for a in r.authors) for r in recs), name
        assert not [a.name for r in recs for a in r.authors if "," in a.name], name
        if name.endswith(".html.gz"):
            assert sum(r.abstract is not None for r in recs) >= 0.9 * n, name
            assert sum(bool(r.keywords) for r in recs) >= 0.95 * n, name
    assert sum(r.award is not None for rs, _ in real.values() for r in rs) == 18 * 3  # Tue text + HTML, Wed


@pytest.mark.corpus
def test_the_real_text_and_html_agree(real: dict[str, tuple[list[Record], list[str]]]) -> None:
    def keys(name: str) -> set[tuple[str, str, tuple[str, ...]]]:
        return {(r.key, title_key(r.title), tuple(a.key for a in r.authors)) for r in real[name][0]}

    assert keys("icra2026-titles-tue.txt.gz") == keys("icra2026-program-tuesday.html.gz")
    text, page = keys("icra2026-titles-thu.txt.gz"), keys("icra2026-program-thursday.html.gz")
    missing = sorted(k[0] for k in text - page)
    assert page <= text and missing == sorted([f"ThI2LB.{i}" for i in range(15, 23)]
                                              + [f"ThBT{s}.{i}" for s in range(1, 5) for i in range(1, 10)])


@pytest.mark.corpus
def test_sniff_claims_only_the_icra_program_files_of_the_corpus() -> None:
    root = shared_data()
    claimed = sorted(p.relative_to(root).as_posix() for _, p in expand(str(root))
                     if p is not None and READER.sniff(load_path(p)))
    assert claimed == sorted(f"icra2026/{name}" for name in REAL)
