"""One name, several people (issue 20, item 11): an author page groups a shared name's papers by
co-authors and affiliations, and narrows to one group; one prolific person is not split."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from paperlist.service.namesakes import GROUPED_FROM, groups
from paperlist.store import Store
from tests.webdata import _rec, build_store


def _people(
    n_groups: int,
    per_group: int,
    crossing: float,
    rng: random.Random,
) -> list[tuple[str, int, str | None, list[str]]]:
    """``n_groups`` circles of co-authors; each paper has two co-authors from its circle, or with
    probability ``crossing`` one from another circle (one person working across circles)."""
    rows = []
    for g in range(n_groups):
        for i in range(per_group):
            other = rng.randrange(n_groups) if rng.random() < crossing else g
            co = [f"c{g}-{rng.randrange(5)}", f"c{other}-{rng.randrange(5)}"]
            rows.append((f"p{g}-{i}", 2010 + i % 10, f"Lab {g}" if i % 3 == 0 else None, co))
    return rows


def test_disjoint_circles_are_namesakes_and_a_crossing_person_is_one() -> None:
    rng = random.Random(7)
    apart = groups(_people(4, 15, 0.0, rng))
    assert len(apart) == 4 and all(len(g["ids"]) == 15 for g in apart)
    assert len({g["key"] for g in apart}) == 4  # keys are distinct
    for g in apart:  # each group is one circle
        assert len({pid.split("-")[0] for pid in g["ids"]}) == 1
        assert g["affiliation"] is not None and g["coauthors"][0].startswith("c" + g["ids"][0][1])
    assert groups(_people(4, 15, 0.6, rng)) == []  # circles that mix: one person
    assert groups(_people(2, (GROUPED_FROM - 1) // 2, 0.0, rng)) == []  # too few papers to split


def test_grouping_is_stable_whatever_the_row_order() -> None:
    rows = _people(3, 20, 0.0, random.Random(3))
    shuffled = rows[:]
    random.Random(1).shuffle(shuffled)
    assert groups(rows) == groups(shuffled)


@pytest.fixture(scope="module")
def namesake_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A home where two people named Wei Chen write with disjoint circles at two universities."""
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    home = tmp_path_factory.mktemp("namesakes")
    extra = []
    for g, (uni, circle) in enumerate(
        [
            ("Tsinghua University", ["Li Ming", "Zhang Hua", "Wang Fang"]),
            ("UC Berkeley", ["Ann Smith", "Bob Jones", "Cy Young"]),
        ]
    ):
        for i in range(24):
            names = ["Wei Chen", circle[i % 3], circle[(i + 1) % 3]]
            extra.append(
                _rec(
                    "test:namesakes",
                    f"ns{g}-{i}",
                    "icml",
                    2015 + i % 10,
                    f"Namesake Study {g} Number {i}",
                    names,
                    affiliations=[uni, uni, uni],
                    status="poster",
                )
            )
    build_store(home, index=False, extra=extra).close()
    store = Store(home / "paperlist.db", readonly=True)
    with TestClient(
        create_app(Settings(home=home, store=store)), follow_redirects=False, client=("127.0.0.1", 50001)
    ) as c:
        yield c


def test_an_author_page_offers_the_namesakes_and_narrows_to_one(namesake_client: Any) -> None:
    c = namesake_client
    d = c.get("/api/v1/authors/wei-chen").json()
    assert d["total"] == 48 and d["several_people"] is True
    assert sorted(g["papers"] for g in d["groups"]) == [24, 24]
    # a group's institution by its one name, whatever the spelling its papers use ("UC Berkeley")
    assert {g["affiliation"] for g in d["groups"]} == {
        "Tsinghua University",
        "University of California, Berkeley",
    }
    g = next(g for g in d["groups"] if g["affiliation"] == "University of California, Berkeley")
    one = c.get("/api/v1/authors/wei-chen", params={"group": g["key"]}).json()
    assert one["group"] == g["key"] and one["matching"] == 24 == len(one["papers"])
    assert all(p["title"].startswith("Namesake Study 1") for p in one["papers"])
    csv = c.get("/api/v1/authors/wei-chen", params={"group": g["key"], "format": "csv"}).text
    assert csv.count("Namesake Study 1") == 24 and "Namesake Study 0" not in csv
    assert c.get("/api/v1/authors/wei-chen", params={"group": "nobody"}).status_code == 422
    lost = c.get("/en/authors/wei-chen?group=nobody")
    assert lost.status_code == 400 and 'href="/en/authors/wei-chen"' in lost.text  # the way back
    page = c.get("/en/authors/wei-chen").text
    assert "likely covers several people" in page
    assert f'href="/en/authors/wei-chen?group={g["key"]}"' in page
    narrowed = c.get(f"/authors/wei-chen?group={g['key']}").text  # Chinese page
    assert narrowed.count("Namesake Study 1") == 24 and "Namesake Study 0" not in narrowed
    assert 'aria-current="true"' in narrowed
    solo = c.get("/api/v1/authors/li-ming").json()  # too few papers to split
    assert solo["several_people"] is False and solo["groups"] == []


def test_one_person_spelled_two_ways_is_one_group() -> None:
    """Issue 44 item 4: Yang Liu of UC Santa Cruz was three groups ("UC Santa Cruz", "University of
    California, Santa Cruz", and a company his UCSC co-authors share), Wei Wang two for UCLA."""
    rng = random.Random(3)
    rows: list[tuple[str, int, str | None, list[str]]] = []
    circle = ["Ann Lee", "Bo Li", "Cy Wu", "Di Xu"]
    for i in range(30):  # one person: three spellings, one circle
        aff = ("UC Santa Cruz", "University of California, Santa Cruz", "Gaussian Robotics Pte. Ltd.")[i % 3]
        rows.append((f"u{i:02d}", 2020 + i % 5, aff, rng.sample(circle, 3)))
    for n, (uni, names) in enumerate(
        (
            ("Tsinghua University", ["Ed Ma", "Fu Ye", "Gu Jo"]),
            ("Tsinghua University", ["Ho Ki", "Il Um", "Jo Yi"]),
        )
    ):
        rows += [(f"t{n}{i:02d}", 2020 + i % 5, uni, rng.sample(names, 2)) for i in range(15)]
    gs = groups(rows)
    by = {
        g["affiliation"]: sorted(len(x["ids"]) for x in gs if x["affiliation"] == g["affiliation"])
        for g in gs
    }
    assert by["University of California, Santa Cruz"] == [30]  # one group, all 30 papers
    assert by["Tsinghua University"] == [15, 15]  # one institution, no co-author in common: two people


def test_other_spellings_differ_by_more_than_case_or_punctuation() -> None:
    from collections import Counter

    from paperlist.service.authors import _spellings

    names = Counter(
        {"Wei Wang": 50, "wei Wang": 3, "Wei Wang.": 2, "W. Wang": 4, "Wang Wei": 1, "Wei  WANG": 1}
    )
    assert _spellings("Wei Wang", names) == ["W. Wang", "Wang Wei"]
