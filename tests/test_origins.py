"""Where the corpus comes from: the shared folder, or the public repositories (served here by a
real local HTTP server laid out like GitHub's API and raw file hosts)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperlist.sources import origins

from .conftest import FIXTURES, PAPERCOPILOT, SHARED_DATA, run_cli, serve_dir, shared_data


def fake_github(root: Path) -> None:
    """Two origins: papercopilot (listing + files) and mlanthology (listing only: files 404)."""
    trees = root / "repos" / "papercopilot" / "paperlists" / "git" / "trees"
    trees.mkdir(parents=True)
    (trees / "main").write_text(json.dumps({"tree": [
        {"path": "nips/nips2018.json", "type": "blob"}, {"path": "README.md", "type": "blob"},
        {"path": "kdd/kdd2024.json", "type": "blob"}, {"path": "nips/extra.json", "type": "blob"},
        {"path": "nips", "type": "tree"}]}))
    raw = root / "papercopilot" / "paperlists" / "main"
    shutil.copytree(PAPERCOPILOT / "nips", raw / "nips")
    shutil.copytree(PAPERCOPILOT / "kdd", raw / "kdd")
    mt = root / "repos" / "rbnyng" / "mlanthology" / "git" / "trees"
    mt.mkdir(parents=True)
    (mt / "main").write_text(json.dumps({"tree": [{"path": "data/papers/jmlr-2013.json.gz",
                                                    "type": "blob"}]}))
    shutil.copy(FIXTURES / "merge" / "mlanthology" / "papers" / "jmlr-2013.json",
                root / "jmlr-2013.json")      # not where the raw URL points: it must 404


def test_plan_lists_each_origin_and_maps_to_the_shared_layout(tmp_path: Path) -> None:
    fake_github(tmp_path)
    with serve_dir(tmp_path) as url:
        plan = origins.plan(["papercopilot", "mlanthology"], api=url, raw=url, timeout=5)
    assert [(d.url.removeprefix(url), d.local) for d in plan] == [
        ("/papercopilot/paperlists/main/kdd/kdd2024.json", "papercopilot/kdd/kdd2024.json"),
        ("/papercopilot/paperlists/main/nips/nips2018.json", "papercopilot/nips/nips2018.json"),
        ("/rbnyng/mlanthology/main/data/papers/jmlr-2013.json.gz", "mlanthology/papers/jmlr-2013.json.gz"),
    ]


def test_known_lists_when_the_api_cannot_be_reached() -> None:
    plan = origins.plan(["papercopilot", "openreview"], api="http://127.0.0.1:9", raw="https://raw.example",
                        timeout=2)
    pc = [d for d in plan if d.local.startswith("papercopilot/")]
    assert len(pc) == 277 and any(d.local == "papercopilot/3dv/3dv2025.json" for d in pc)
    locals_ = {d.local for d in plan} - {d.local for d in pc}
    assert "openreview-exports/iclr2025/iclr2025-decisions.csv" in locals_
    assert "openreview-exports/iclr2026/accepted-reinforcement-learning.csv" in locals_
    assert len([x for x in locals_ if x.startswith("openreview-exports/iclr2026/accepted-")]) == 12


def test_fetch_is_resumable_and_counts_what_is_missing(tmp_path: Path) -> None:
    www = tmp_path / "www"
    fake_github(www)
    dest = tmp_path / "sources"
    with serve_dir(www) as url:
        plan = origins.plan(["papercopilot", "mlanthology"], api=url, raw=url, timeout=5)
        first = origins.fetch(plan, dest)
        assert (first.fetched, first.kept, first.missing, first.failed) == (2, 0, 1, [])
        assert not list(dest.rglob("*.part"))
        again = origins.fetch(plan, dest)
        assert (again.fetched, again.kept, again.missing) == (0, 2, 1)
    assert (dest / "papercopilot" / "nips" / "nips2018.json").read_bytes() == \
        (PAPERCOPILOT / "nips" / "nips2018.json").read_bytes()


def test_corpus_command_ingests_a_folder(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "h", "corpus", "-q", "--data", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.stderr
    assert "papers:  new 16" in r.stdout
    bad = run_cli(tmp_path / "h", "corpus", "--data", str(tmp_path / "missing"))
    assert bad.exit_code == 2 and "no such folder" in bad.stderr


def test_corpus_folder_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERLIST_DATA", str(PAPERCOPILOT))      # what ./run.sh passes through
    r = run_cli(tmp_path / "h", "corpus", "-q")
    assert r.exit_code == 0, r.stderr
    assert "papers:  new 16" in r.stdout


def test_corpus_command_downloads_then_ingests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    www = tmp_path / "www"
    fake_github(www)
    home = tmp_path / "h"
    with serve_dir(www) as url:
        monkeypatch.setenv("PAPERLIST_GITHUB_API", url)
        monkeypatch.setenv("PAPERLIST_GITHUB_RAW", url)
        r = run_cli(home, "corpus", "--download", "--source", "papercopilot")
    assert r.exit_code == 0, r.stderr
    assert "downloads: 2 new, 0 kept, 0 not at the origin, 0 failed" in r.stderr
    assert "papers:  new 4" in r.stdout                       # nips2018 (3) + kdd2024 (1)
    assert (home / "sources" / "papercopilot" / "kdd" / "kdd2024.json").exists()


def test_file_names_with_spaces_and_commas_are_quoted_and_fetched(tmp_path: Path) -> None:
    """The ICLR 2026 exports are named after primary areas ("alignment, fairness, ..."): their
    raw URLs must be quoted, and the file lands under its own name."""
    www = tmp_path / "www"
    with serve_dir(www) as url:
        plan = origins.plan(["openreview"], api="http://127.0.0.1:9", raw=url, timeout=2)
        assert plan and all(" " not in d.url and "," not in d.url.removeprefix(url) for d in plan)
        spaced = next(d for d in plan if ", " in d.url.replace("%2C%20", ", ").removeprefix(url)
                      or "%20" in d.url)
        remote = www / spaced.url.removeprefix(url + "/").replace("%20", " ").replace("%2C", ",")
        remote.parent.mkdir(parents=True)
        remote.write_text("a,b\n1,2\n")
        rep = origins.fetch([spaced], tmp_path / "sources")
    assert (rep.fetched, rep.failed) == (1, [])
    assert (tmp_path / "sources" / spaced.local).read_text() == "a,b\n1,2\n"


# --- the 2026 origins ------------------------------------------------------------------------
# Each repository's tree as the GitHub API lists it: (path, type, local path we expect or None).
# The local names follow ../shared/data (see its README); None marks what must be ignored.
TREES_2026: dict[str, list[tuple[str, str, str | None]]] = {
    "Ruichen0424/ai-top-conf-jsons": [
        ("AAAI/aaai_2026.json", "blob", "ai-top-conf-jsons/AAAI/aaai_2026.json"),
        ("NeurIPS/neurips_2025.json", "blob", "ai-top-conf-jsons/NeurIPS/neurips_2025.json"),
        ("TPAMI/tpami_2016.json", "blob", "ai-top-conf-jsons/TPAMI/tpami_2016.json"),
        ("Readme.md", "blob", None), ("MANIFEST.json", "blob", None), ("config.json", "blob", None),
        ("index.html", "blob", None), ("AAAI", "tree", None),
        ("ICML/icml_2027.json", "tree", None),             # a directory, whatever its name
        ("AAAI/AAAI_2026.json", "blob", None), ("AAAI/aaai_2026.json.bak", "blob", None),
        ("ICML/icml_2026_old.json", "blob", None), ("CVPR/iccv_2025.json", "blob", None),
        ("NIPS/nips_2016.json", "blob", None),              # the folder's old name
    ],
    "alickzhu/icml2026-papers": [
        ("data/categories.json", "blob", "openreview-exports/icml2026/categories.json"),
        ("data/orgs.json", "blob", "openreview-exports/icml2026/orgs.json"),
        ("data/meta.json", "blob", "openreview-exports/icml2026/meta.json"),
        ("data/papers.json", "blob", None),                 # the very large per-paper file
        ("data", "tree", None), ("README.md", "blob", None), ("app.js", "blob", None),
        ("data/categories.json.bak", "blob", None), ("categories.json", "blob", None),
    ],
    "thewebconf2026/www2026": [
        ("accepted/Accepted papers - Main proceedings - Main Research track - rfp.csv", "blob",
         "www2026/www2026-main-research-track---rfp.csv"),
        ("accepted/Accepted papers - Main proceedings - Web4Good.csv", "blob",
         "www2026/www2026-web4good.csv"),
        ("accepted/Accepted papers - Main proceedings - PhD Symposium.csv", "blob",
         "www2026/www2026-phd-symposium.csv"),
        ("accepted/Accepted workshops & tutorials - Workshops.csv", "blob", None),
        ("accepted/industry.html", "blob", None), ("accepted", "tree", None), ("README.md", "blob", None),
        ("accepted/Accepted papers - Main proceedings - Industry.xlsx", "blob", None),
        ("Accepted papers - Main proceedings - Industry.csv", "blob", None),
    ],
    "gisbi-kim/iros2026-explorer": [
        ("output/papers.json", "blob", "iros2026/iros2026-papers.json"),
        ("output/iros2026_explorer.html", "blob", None), ("output/analysis/index.html", "blob", None),
        ("papers.json", "blob", None), ("output", "tree", None), ("README.md", "blob", None),
    ],
    "gisbi-kim/icra2026-explorer": [
        ("raw/paper_titles/wed.txt", "blob", "icra2026/icra2026-titles-wed.txt"),
        ("raw/paper_titles/tue.txt", "blob", "icra2026/icra2026-titles-tue.txt"),
        ("raw/program_html/wednesday.html", "blob", "icra2026/icra2026-program-wednesday.html"),
        ("raw/paper_titles", "tree", None), ("README.md", "blob", None),
        ("classification/fullaff_1.txt", "blob", None), ("scripts/parse_papers.py", "blob", None),
        ("raw/program_html/tuesday.htm", "blob", None), ("raw/paper_titles/tue.html", "blob", None),
    ],
    # the folders of 2026-12-07 (../shared/data/README.md: "The folders added on 2026-12-07 hold …")
    "chpark-ML/neurips2026-medical-llm-rag": [
        ("data/highlights.json", "blob", "neurips2026/highlights.json"),
        ("data/highlights.csv", "blob", None), ("data", "tree", None), ("README.md", "blob", None),
        ("highlights.json", "blob", None),
    ],
    "dennis-fast/conference-paper-navigator": [
        ("conferences/ijcai-2026/data/papers.json", "blob", "conference-navigator/ijcai-2026/papers.json"),
        ("conferences/eacl-2026/data/papers.json", "blob", "conference-navigator/eacl-2026/papers.json"),
        ("conferences/eacl-2026/conference.json", "blob", None),
        ("docs/eacl-2026/data/papers.json", "blob", None),         # the site's copy of the same file
        ("conferences/acl-2099/data/papers.json", "blob", None),   # a programme we do not read yet
        ("conferences/ijcai-2026/raw/accepted-papers.html", "blob", None),
    ],
    "zhuanxv-G/ICLR-2025-Analysis": [
        ("paper_info_api_response.json", "blob",
         "openreview-exports/iclr2026-apiv2/paper_info_api_response.json"),
        ("paper_info_cleaned_reviews.json", "blob",
         "openreview-exports/iclr2026-apiv2/paper_info_cleaned_reviews.json"),
        ("analysis.ipynb", "blob", None), ("data/paper_info_api_response.json", "blob", None),
    ],
}
NEW_SOURCES = ["aitopconf", "orgroups", "webconf", "explorer", "papercept", "highlights", "navigator",
               "openreview-api"]
# The source's folder under ../shared/data, and how many files it has there (for runs without it).
NEW_FOLDERS = {"aitopconf": ("ai-top-conf-jsons", 120), "orgroups": ("openreview-exports/icml2026", 3),
               "webconf": ("www2026", 6), "explorer": ("iros2026", 1), "papercept": ("icra2026", 5)}
ICRA_WEDNESDAY_HTML = "icra2026/icra2026-program-wednesday.html"   # too large for the shared copy


def fake_github_2026(root: Path) -> dict[str, bytes]:
    """The five repositories' trees and their raw files (each file's text names it); returns the
    content expected at each local path."""
    expected: dict[str, bytes] = {}
    for repo, entries in TREES_2026.items():
        trees = root / "repos" / repo / "git" / "trees"
        trees.mkdir(parents=True)
        (trees / "main").write_text(json.dumps({"tree": [{"path": p, "type": t} for p, t, _ in entries]}))
        for path, kind, local in entries:
            if kind != "blob":
                continue
            f = root / repo / "main" / path
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(body := f"{repo} {path}\n".encode())
            if local:
                expected[local] = body
    return expected


def test_new_origins_are_offered_under_their_readers_names() -> None:
    from paperlist.sources import READERS

    assert set(NEW_SOURCES) <= set(origins.ORIGINS)
    # the curated reading lists are no paper source: paperlist/curated reads them, not a reader
    assert set(origins.ORIGINS) - {"curated"} <= set(READERS)


def test_plan_maps_the_2026_repositories_to_the_shared_layout(tmp_path: Path) -> None:
    fake_github_2026(tmp_path)
    with serve_dir(tmp_path) as url:
        plan = origins.plan(NEW_SOURCES, api=url, raw=url, timeout=5)
    got = [(d.url.removeprefix(url), d.local) for d in plan]
    want = {(f"/{repo}/main/{path}".replace(" ", "%20"), local)
            for repo, entries in TREES_2026.items() for path, _, local in entries if local}
    assert len(got) == len(set(got)) and set(got) == want
    spaced = ("/thewebconf2026/www2026/main/accepted/Accepted%20papers%20-%20Main%20proceedings%20-%20"
              "Main%20Research%20track%20-%20rfp.csv")
    assert (spaced, "www2026/www2026-main-research-track---rfp.csv") in got
    assert all(" " not in d.url for d in plan)
    # Only the origins asked for are listed.
    with serve_dir(tmp_path) as url:
        only = origins.plan(["explorer"], api=url, raw=url, timeout=5)
    assert [d.local for d in only] == ["iros2026/iros2026-papers.json"]


def _shared_names(folder: str) -> set[str] | None:
    """The file names in ../shared/data/<folder> as a download names them (no ``.gz``), or None."""
    root = SHARED_DATA / folder
    if not root.is_dir():
        return None
    return {p.relative_to(SHARED_DATA).as_posix().removesuffix(".gz")
            for p in root.rglob("*") if p.is_file() and p.name != "MANIFEST.json"}


@pytest.mark.parametrize("source", NEW_SOURCES[:5])
def test_2026_known_lists_when_the_api_cannot_be_reached(source: str) -> None:
    plan = origins.plan([source], api="http://127.0.0.1:9", raw="https://raw.example", timeout=2)
    got = [d.local for d in plan]
    assert len(got) == len(set(got))
    folder, count = NEW_FOLDERS[source]
    extra = {ICRA_WEDNESDAY_HTML} if source == "papercept" else set()
    shared = _shared_names(folder)
    if shared is not None:
        assert set(got) == shared | extra
    assert len(got) == count + len(extra)
    assert all(x.startswith(folder + "/") for x in got)
    # Every raw URL is a quoted path of the origin's repository that maps back to the same file.
    (o,) = origins.ORIGINS[source]
    prefix = f"https://raw.example/{o.repo}/{o.ref}/"
    for d in plan:
        assert " " not in d.url and d.url.startswith(prefix)
        assert o.local(d.url.removeprefix(prefix).replace("%20", " ")) == d.local


def test_2026_known_lists_name_the_files_the_readme_names() -> None:
    """Independent of ../shared/data: the names its README gives for the small origins."""
    plan = origins.plan(["webconf", "papercept", "orgroups"], api="http://127.0.0.1:9", raw="https://r",
                        timeout=2)
    got = {d.local for d in plan}
    assert {x for x in got if x.startswith("www2026/")} == {
        f"www2026/www2026-{t}.csv" for t in ("industry", "main-research-track---rfp", "phd-symposium",
                                             "short-papers", "web4good", "workshops-papers")}
    assert {x for x in got if x.startswith("icra2026/")} == {
        *(f"icra2026/icra2026-titles-{d}.txt" for d in ("tue", "wed", "thu")),
        *(f"icra2026/icra2026-program-{d}.html" for d in ("tuesday", "wednesday", "thursday"))}
    assert {x for x in got if x.startswith("openreview-exports/")} == {
        f"openreview-exports/icml2026/{n}.json" for n in ("categories", "orgs", "meta")}


def test_december_known_lists_name_the_files_the_readme_names() -> None:
    """Without the GitHub API: the paper files of the folders added on 2026-12-07, and not their
    companions (PROVENANCE.txt, conference.json), which hold no papers."""
    plan = origins.plan(["highlights", "navigator", "openreview-api"], api="http://127.0.0.1:9",
                        raw="https://r", timeout=2)
    assert {d.local for d in plan} == {
        "neurips2026/highlights.json", "conference-navigator/ijcai-2026/papers.json",
        "conference-navigator/eacl-2026/papers.json",
        "openreview-exports/iclr2026-apiv2/paper_info_api_response.json",
        "openreview-exports/iclr2026-apiv2/paper_info_cleaned_reviews.json"}
    for d in plan:
        (o,) = origins.ORIGINS[next(k for k in ("highlights", "navigator", "openreview-api")
                                    if d.url.startswith(f"https://r/{origins.ORIGINS[k][0].repo}/"))]
        assert o.local(d.url.removeprefix(f"https://r/{o.repo}/{o.ref}/")) == d.local


def test_ai_top_conf_known_list_is_the_manifest() -> None:
    manifest = shared_data("ai-top-conf-jsons/MANIFEST.json")
    listed = {f"ai-top-conf-jsons/{f['source_path']}" for f in json.loads(manifest.read_text())["files"]}
    plan = origins.plan(["aitopconf"], api="http://127.0.0.1:9", raw="https://r", timeout=2)
    assert len(listed) == 120 and {d.local for d in plan} == listed
    assert {d.url.removeprefix("https://r/Ruichen0424/ai-top-conf-jsons/main/") for d in plan} == {
        f["source_path"] for f in json.loads(manifest.read_text())["files"]}


def test_fetch_of_the_2026_origins_lands_in_the_shared_layout(tmp_path: Path) -> None:
    www = tmp_path / "www"
    expected = fake_github_2026(www)
    dest = tmp_path / "sources"
    with serve_dir(www) as url:
        plan = origins.plan(NEW_SOURCES, api=url, raw=url, timeout=5)
        rep = origins.fetch(plan, dest)
    assert (rep.fetched, rep.kept, rep.missing, rep.failed) == (len(expected), 0, 0, [])
    assert {p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()} == set(expected)
    for local, body in expected.items():
        assert (dest / local).read_bytes() == body
    assert (dest / "www2026" / "www2026-main-research-track---rfp.csv").read_text() == \
        "thewebconf2026/www2026 accepted/Accepted papers - Main proceedings - Main Research track - rfp.csv\n"


def test_curated_lists_download_at_their_commits_and_read_without_a_manifest(tmp_path: Path) -> None:
    """The catalog names each list's commit and files: no GitHub API call (its 60 an hour would not
    cover 178 lists), each file from the raw host at that commit, into ``curated-lists/``, which
    ingest then reads with the catalog standing for the manifest."""
    import gzip

    from paperlist.curated.folder import catalog

    rows = {r["repo"]: r for r in catalog()}
    plan = origins.plan(["curated"], api="http://127.0.0.1:9", raw="https://r", timeout=2)
    assert len({d.local.split("/")[1] for d in plan}) == len(rows) >= 170
    some = next(d for d in plan if d.local.startswith("curated-lists/thunlp+GNNPapers/"))
    assert some.url == f"https://r/thunlp/GNNPapers/{rows['thunlp/GNNPapers']['commit']}/README.md"
    www = tmp_path / "www"
    commit = rows["thunlp/GNNPapers"]["commit"]
    (www / "thunlp" / "GNNPapers" / commit).mkdir(parents=True)
    src = shared_data("curated-lists/thunlp+GNNPapers/README.md.gz")
    (www / "thunlp" / "GNNPapers" / commit / "README.md").write_bytes(gzip.decompress(src.read_bytes()))
    dest = tmp_path / "sources"
    with serve_dir(www) as url:
        wanted = [d for d in origins.plan(["curated"], api=url, raw=url, timeout=5) if "GNNPapers" in d.url]
        rep = origins.fetch(wanted, dest)
    assert (rep.fetched, rep.failed) == (1, [])
    home = tmp_path / "home"
    r = run_cli(home, "ingest", "--json", str(PAPERCOPILOT), str(dest / "curated-lists"))
    assert r.exit_code == 0, r.output
    lists = json.loads(r.stdout)["lists"]
    assert (lists["lists"], lists["read"]) == (1, 1) and lists["entries"] > 400


def test_atlas_offers_the_eccv_and_3dv_workbooks_as_the_shared_folder_holds_them(tmp_path: Path) -> None:
    """gisbi-kim/cvmlpaper-atlas: of its by_venue/ workbooks only ECCV's and 3DV's (the others have
    almost no counts or are too large), listed or known, into cvmlpaper-atlas/ under the reader's name."""
    from paperlist.sources import READERS

    assert "atlas" in READERS and "atlas" in origins.ORIGINS
    want = {"cvmlpaper-atlas/ECCV.xlsx", "cvmlpaper-atlas/3DV.xlsx"}
    known = origins.plan(["atlas"], api="http://127.0.0.1:9", raw="https://r", timeout=2)
    assert {d.local for d in known} == want
    assert {d.url for d in known} == {f"https://r/gisbi-kim/cvmlpaper-atlas/main/by_venue/{v}.xlsx"
                                      for v in ("ECCV", "3DV")}
    trees = tmp_path / "repos" / "gisbi-kim" / "cvmlpaper-atlas" / "git" / "trees"
    trees.mkdir(parents=True)
    (trees / "main").write_text(json.dumps({"tree": [
        {"path": f"by_venue/{v}.xlsx", "type": "blob"} for v in ("ECCV", "3DV", "NeurIPS", "ICML")]
        + [{"path": "cvml_atlas_all.xlsx", "type": "blob"}, {"path": "by_venue", "type": "tree"}]}))
    with serve_dir(tmp_path) as url:
        listed = origins.plan(["atlas"], api=url, raw=url, timeout=5)
    assert {d.local for d in listed} == want
    shared = _shared_names("cvmlpaper-atlas")
    if shared is not None:
        assert shared - {"cvmlpaper-atlas/PROVENANCE.txt"} == want
