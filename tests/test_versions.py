"""Versions of one work (issue 18): which records are one work, and which is its published version."""

from __future__ import annotations

from paperlist.versions import Version, work_key, works


def v(pid: str, venue: str, year: int, authors: set[str], accepted: bool = True, status: str | None = None,
      citations: int | None = None, chars: int = 40) -> Version:
    return Version(pid, venue, year, status, accepted, citations, frozenset(authors), chars)


def ids(found: list[list[Version]]) -> list[list[str]]:
    return [[x.id for x in w] for w in found]


def test_a_rejected_submission_and_its_later_venue_are_one_work_published_first() -> None:
    found = works([v("iclr2021-zkg5n4vh", "iclr", 2021, {"a", "b"}, False, "rejected"),
                   v("iros2022-zkg5n4vh", "iros", 2022, {"b", "c"})])
    assert ids(found) == [["iros2022-zkg5n4vh", "iclr2021-zkg5n4vh"]]


def test_the_main_venue_beats_its_workshop_and_the_more_cited_of_two_main_versions() -> None:
    found = works([v("cvprw2024-x", "cvprw", 2024, {"a"}), v("cvpr2023-x", "cvpr", 2023, {"a"}),
                   v("jmlr2024-x", "jmlr", 2024, {"a"}, citations=50), v("iclr2023-x", "iclr", 2023, {"a"})])
    assert ids(found)[0][0] == "jmlr2024-x"                      # cited 50 times; the others unknown
    assert ids(found)[0][1:] == ["cvprw2024-x", "cvpr2023-x", "iclr2023-x"]      # then newest first
    no_citations = works([v("cvprw2024-y", "cvprw", 2024, {"a"}), v("cvpr2023-y", "cvpr", 2023, {"a"})])
    assert ids(no_citations) == [["cvpr2023-y", "cvprw2024-y"]]


def test_strangers_sharing_a_title_or_years_apart_are_separate_works() -> None:
    assert works([v("aaai2019-deep", "aaai", 2019, {"a"}), v("icml2019-deep", "icml", 2019, {"b"})]) == []
    assert works([v("aaai2010-deep", "aaai", 2010, {"a"}), v("icml2019-deep", "icml", 2019, {"a"})]) == []


def test_an_anonymous_submission_links_by_a_long_title_only() -> None:
    long = works([v("iclr2023-q", "iclr", 2023, set(), False, "withdrawn"),
                  v("iros2023-q", "iros", 2023, {"a"})])
    assert ids(long) == [["iros2023-q", "iclr2023-q"]]
    short = works([v("iclr2023-r", "iclr", 2023, set(), False, chars=12), v("iros2023-r", "iros", 2023, {"a"},
                                                                             chars=12)])
    assert short == []


def test_the_work_key_is_the_title_hash_of_the_id() -> None:
    assert work_key("neurips2020-nvy4us77") == "nvy4us77" == work_key("iclrw2022-nvy4us77")
