"""Searching a real tantivy index built from the fixtures: ranking, typos, prefixes, filters,
facets, sorting, browse mode, caps and safe highlighting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperlist.search import InvalidRequest, NoIndex, Searcher, SearchRequest, SearchResult
from paperlist.text import title_key


@pytest.fixture(scope="module")
def searcher(search_home: Path) -> Searcher:
    return Searcher.open(search_home)


def run(s: Searcher, q: str = "", **kw: object) -> SearchResult:
    return s.search(SearchRequest(q=q, **kw))  # type: ignore[arg-type]


def titles(res: SearchResult) -> list[str]:
    return [h.title for h in res.hits]


# --- ranking ------------------------------------------------------------------------------------

def test_exact_title_comes_first_and_ties_go_to_the_newer_paper(searcher: Searcher) -> None:
    res = run(searcher, "deep sets")
    assert titles(res)[:2] == ["Deep Sets", "Deep Sets"]
    assert [h.year for h in res.hits[:2]] == [2023, 2017]          # identical papers: newer first
    res = run(searcher, "attention is all you need")
    assert titles(res)[:2] == ["Attention Is All You Need"] * 2


@pytest.mark.parametrize("q, first", [
    ("Attention Is All You Need", "Attention Is All You Need"),
    ("ATTENTION is all YOU need!", "Attention Is All You Need"),
    ("need you all attention", "Attention Is All You Need"),                        # shuffled
    ("graph networks molecule", "Graph Neural Networks for Molecule Generation"),      # words dropped
    ("Bengio molecule generation", "Graph Neural Networks for Molecule Generation"),   # surname + title words
    ("Yoshua Bengio", "Graph Neural Networks for Molecule Generation"),                # a person's name
    ("diffusion robot manipulation", "Diffusion Policies for Robot Manipulation"),     # more words beat fewer
    ("schrodinger bridges", "Schrödinger Bridges for Image Restoration"),              # accents folded
    ("Zhihua Zhou deep forest", "Deep Forest: Towards an Alternative to Deep Neural Networks"),
])
def test_known_item(searcher: Searcher, q: str, first: str) -> None:
    assert titles(run(searcher, q))[0] == first


def test_a_pasted_paper_id_finds_the_paper(searcher: Searcher) -> None:
    pid = run(searcher, "deep sets").hits[0].id
    res = run(searcher, f" {pid} ")
    assert res.total == 1 and res.hits[0].id == pid


def test_title_matches_beat_abstract_matches(searcher: Searcher) -> None:
    res = run(searcher, "diffusion models")
    assert res.hits[0].title == "Denoising Diffusion Models Are Strong Learners"
    assert "Robust Learning" in res.hits[1].title                 # has both words, in its abstract only
    assert res.hits[1].score < res.hits[0].score / 5


@pytest.mark.parametrize("q, first", [
    ("atention is all you need", "Attention Is All You Need"),
    ("contrastive lerning visual", "Contrastive Learning of Visual Representations"),
    ("graph nueral networks molecule", "Graph Neural Networks for Molecule Generation"),
    ("difusion policies", "Diffusion Policies for Robot Manipulation"),
    ("yoshua bengoi", "Graph Neural Networks for Molecule Generation"),
])
def test_typos_are_forgiven(searcher: Searcher, q: str, first: str) -> None:
    res = run(searcher, q)
    assert res.hits and res.hits[0].title == first


def test_did_you_mean(searcher: Searcher) -> None:
    assert run(searcher, "difusion").suggestion == "diffusion"
    assert run(searcher, "attention is all you need").suggestion is None
    res = run(searcher, "xqzzvk")
    assert res.total == 0 and res.hits == [] and res.suggestion is None


@pytest.mark.parametrize("q, expected", [
    ("graph neur", "Graph Neural Networks for Molecule Generation"),
    ("contrast", "Contrastive Learning of Visual Representations"),
    ("schrod", "Schrödinger Bridges for Image Restoration"),
    ("Neural Radiance Fi", "Neural Radiance Fields for Dynamic Scenes"),
    ("yoshua beng", "Graph Neural Networks for Molecule Generation"),
])
def test_last_word_matches_as_prefix(searcher: Searcher, q: str, expected: str) -> None:
    res = run(searcher, q)
    assert expected in titles(res)[:2]
    assert res.interpreted.get("prefix")


def test_no_prefix_after_a_finished_word(searcher: Searcher) -> None:
    res = run(searcher, "deep ")
    assert "prefix" not in res.interpreted and {h.title for h in res.hits} >= {"Deep Sets"}
    res = run(searcher, "dee")                                              # still typing
    assert res.interpreted.get("prefix") == ["dee"] and "Deep Sets" in titles(res)


def test_abbreviations_complete_anywhere(searcher: Searcher) -> None:
    res = run(searcher, "neur radiance fields")            # "neur" is no word: read as a prefix
    assert res.hits[0].title == "Neural Radiance Fields for Dynamic Scenes" and res.suggestion is None


def test_most_words_when_no_paper_has_all(searcher: Searcher) -> None:
    res = run(searcher, "contrastive learning visual quokkas")
    assert res.hits[0].title == "Contrastive Learning of Visual Representations"
    assert res.interpreted["match"] == "most"


def test_any_word_as_a_last_resort(searcher: Searcher) -> None:
    res = run(searcher, "diffusion quokkas")
    assert res.total >= 2 and res.interpreted["match"] == "any"


# --- query language ---------------------------------------------------------------------------

def test_phrase_and_exclusion(searcher: Searcher) -> None:
    llm = {h.title for h in run(searcher, '"large language models"').hits}
    assert llm == {"Machine Translation with Large Language Models", "Large Language Models Can Reason",
                   "A Survey of Large Language Models"}
    assert {h.title for h in run(searcher, '"large language models" -survey').hits} == llm - {
        "A Survey of Large Language Models"}
    assert run(searcher, '"language large models"').total == 0


@pytest.mark.parametrize("q", ['author:"Zhi-Hua Zhou"', 'author:"Zhou, Zhi-Hua"', "author:zhihua-zhou",
                               'author:"Zhihua Zhou"'])
def test_author_forms(searcher: Searcher, q: str) -> None:
    got = {h.title for h in run(searcher, q).hits}
    assert got == {"Deep Forest: Towards an Alternative to Deep Neural Networks",
                   "Learning with D'Oro & Friends", "$\\ell_1$-regression with Heavy-tailed Distributions"}


def test_author_surname_and_newest_first(searcher: Searcher) -> None:
    res = run(searcher, "author:zhou")
    assert "Large Language Models Can Reason" in titles(res)       # Denny Zhou
    assert [h.year for h in res.hits] == sorted((h.year for h in res.hits), reverse=True)


def test_field_clauses(searcher: Searcher) -> None:
    assert {h.title for h in run(searcher, "title:diffusion").hits} == {
        "Denoising Diffusion Models Are Strong Learners", "Diffusion Policies for Robot Manipulation"}
    assert ("<script>alert('x')</script> Robust Learning & \"Evaluation\""
            in titles(run(searcher, "abstract:diffusion")))
    assert titles(run(searcher, "keyword:molecules")) == ["Graph Neural Networks for Molecule Generation"]


# --- filters --------------------------------------------------------------------------------------

@pytest.mark.parametrize("q, venues", [
    ("venue:nips", {"neurips"}), ("venue:NeurIPS", {"neurips"}), ("venue:neurips,iclr", {"neurips", "iclr"}),
    ("venue:acl", {"acl"}), ("family:acl", {"acl", "findings-acl"}), ("venue:findings-acl", {"findings-acl"}),
    ("venue:foobar", {"foobar"}),
])
def test_venue_filters(searcher: Searcher, q: str, venues: set[str]) -> None:
    res = run(searcher, q, per_page=100)
    assert res.total > 0 and {h.venue for h in res.hits} == venues


def test_request_filters_resolve_aliases(searcher: Searcher) -> None:
    a = run(searcher, "", venues=["nips"], per_page=100)
    b = run(searcher, "venue:neurips", per_page=100)
    assert a.total == b.total > 0 and [h.id for h in a.hits] == [h.id for h in b.hits]
    assert run(searcher, "", venues=["no-such-venue"]).total == 0


def test_year_status_accepted_track_filters(searcher: Searcher) -> None:
    res = run(searcher, "year:2023..2024", per_page=100)
    assert res.total > 0 and all(2023 <= h.year <= 2024 for h in res.hits)
    assert all(h.status == "oral" for h in run(searcher, "status:oral", per_page=100).hits)
    rej = run(searcher, "accepted:false", per_page=100).hits
    assert rej and all(not h.accepted and h.status in ("rejected", "withdrawn", "desk-rejected") for h in rej)
    assert titles(run(searcher, "track:datasets-and-benchmarks")) == ["Datasets for Robot Learning"]
    assert all(h.venue != "neurips" for h in run(searcher, "-venue:neurips", per_page=100).hits)
    r = run(searcher, "transformers", year_from=2024, year_to=2024, statuses=["poster"])
    assert set(titles(r)) == {"Efficient Transformers with Sparse Attention",
                              "Point Cloud Segmentation with Transformers"}


# --- facets ---------------------------------------------------------------------------------------

def test_facets_count_the_whole_match_set(searcher: Searcher) -> None:
    res = run(searcher, "learning", per_page=1)
    for dim in ("venue", "year"):
        assert sum(v.count for v in res.facets[dim]) == res.total
    years = [int(v.value) for v in res.facets["year"]]
    assert years == sorted(years, reverse=True)
    labels = {v.value: v.label for v in run(searcher, "", per_page=1).facets["venue"]}
    assert labels["neurips"] == "NeurIPS" and labels["findings-acl"] == "Findings of ACL"


def test_facets_of_a_filtered_dimension_ignore_that_filter(searcher: Searcher) -> None:
    res = run(searcher, "venue:iclr", per_page=100)
    venue = {v.value: v for v in res.facets["venue"]}
    assert venue["iclr"].selected and venue["iclr"].count == res.total
    assert venue["neurips"].count > 0 and not venue["neurips"].selected     # other venues stay choosable
    assert sum(v.count for v in res.facets["status"]) <= res.total
    statuses = [v.value for v in res.facets["status"]]
    order = ["oral", "spotlight", "highlight", "poster", "accepted", "rejected", "withdrawn", "desk-rejected"]
    assert statuses == [s for s in order if s in statuses]


def test_no_facets_when_not_asked(searcher: Searcher) -> None:
    assert run(searcher, "learning", facets=False).facets == {}


# --- browse mode and sorting ----------------------------------------------------------------------

def test_browse_mode_lists_by_status_then_title(searcher: Searcher) -> None:
    res = run(searcher, "venue:iclr", per_page=100)
    assert res.interpreted["mode"] == "browse"
    order = ["oral", "spotlight", "highlight", "poster", "accepted", None, "rejected", "withdrawn",
             "desk-rejected"]
    keys = [(order.index(h.status), title_key(h.title)) for h in res.hits]
    assert keys == sorted(keys) and res.total == len(res.hits) == 11


@pytest.mark.parametrize("sort", ["newest", "oldest", "title", "citations"])
def test_sorts(searcher: Searcher, sort: str) -> None:
    hits = run(searcher, "learning", sort=sort, per_page=100).hits
    assert len(hits) > 3
    if sort == "newest":
        assert [h.year for h in hits] == sorted((h.year for h in hits), reverse=True)
    elif sort == "oldest":
        assert [h.year for h in hits] == sorted(h.year for h in hits)
    elif sort == "title":
        keys = [" ".join(re.findall(r"[a-z0-9]+", h.title.lower())) for h in hits]
        assert keys == sorted(keys)
    else:
        cites = [h.citations if h.citations is not None else -1 for h in hits]
        assert cites == sorted(cites, reverse=True)


@pytest.mark.parametrize("sort", ["relevance", "newest", "oldest", "title", "citations"])
@pytest.mark.parametrize("q", ["learning", ""])
def test_pages_add_up_to_the_whole_list(searcher: Searcher, sort: str, q: str) -> None:
    whole = run(searcher, q, sort=sort, per_page=100)
    paged = [h.id for p in range(1, 100) for h in run(searcher, q, sort=sort, per_page=3, page=p).hits
             if p <= (whole.total + 2) // 3]
    assert paged == [h.id for h in whole.hits]
    assert run(searcher, q, sort=sort, per_page=3, page=whole.total).hits == []


# --- caps -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [
    {"per_page": 101}, {"per_page": 0}, {"page": 0}, {"page": 101, "per_page": 100},
    {"page": 10_001, "per_page": 1},
    {"sort": "random"}, {"mode": "magic"}, {"year_from": "2020"}, {"page": True}, {"venues": "neurips"},
    {"statuses": [1]}, {"accepted": "yes"},
])
def test_out_of_range_requests_raise_a_client_error(searcher: Searcher, kw: dict[str, object]) -> None:
    with pytest.raises(InvalidRequest):
        run(searcher, "learning", **kw)
    with pytest.raises(InvalidRequest):
        searcher.search(SearchRequest(q=None))  # type: ignore[arg-type]
    assert issubclass(InvalidRequest, ValueError)


def test_largest_allowed_window(searcher: Searcher) -> None:
    res = run(searcher, "", page=100, per_page=100)
    assert res.hits == [] and res.total == 38 and res.pages == 1


def test_semantic_mode_without_vectors_answers_with_keywords_and_says_so(searcher: Searcher) -> None:
    res = run(searcher, "diffusion", mode="hybrid")
    assert res.total == run(searcher, "diffusion").total and "unavailable" in res.interpreted["notes"][0]
    assert res.interpreted["mode"] == "keyword" and res.interpreted["semantic"]["unavailable"]


def test_empty_filter_values_are_no_filter(searcher: Searcher) -> None:
    assert run(searcher, "", venues=[""], statuses=[" "]).total == run(searcher, "").total


# --- hits and highlighting --------------------------------------------------------------------------

def test_hit_fields(searcher: Searcher) -> None:
    h = run(searcher, "graph neural networks molecule generation").hits[0]
    assert h.id.startswith("neurips2023-") and h.venue == "neurips" and h.venue_short == "NeurIPS"
    assert (h.authors == ["Yoshua Bengio", "Emmanuel Bengio"]
            and h.author_keys == ["yoshua-bengio", "emmanuel-bengio"])
    assert (h.year, h.status, h.accepted, h.track, h.citations) == (2023, "spotlight", True, "main", 120)
    assert h.score > 0
    assert h.title_html.startswith("<mark>Graph</mark> <mark>Neural</mark> <mark>Networks</mark>")
    assert "<mark>molecules</mark>" in h.abstract_html


def _only_mark_tags(fragment: str) -> bool:
    return "<" not in fragment.replace("<mark>", "").replace("</mark>", "")


def test_hostile_text_is_escaped(searcher: Searcher) -> None:
    res = run(searcher, "robust learning evaluation script")
    h = next(x for x in res.hits if "alert" in x.title)
    assert h.title.startswith("<script>")                                 # display form is raw data
    assert h.title_html.startswith("&lt;<mark>script</mark>&gt;alert(&#x27;x&#x27;)")
    assert "&amp;" in h.title_html and "&quot;<mark>Evaluation</mark>&quot;" in h.title_html
    for frag in (h.title_html, h.abstract_html):
        assert _only_mark_tags(frag)
    assert "&lt;img src=x onerror=alert(1)&gt;" in h.abstract_html


@pytest.mark.parametrize("q", ["learning", "<script>", "\"<b>\"", "diffusion models", "schrödinger",
                               "x" * 50])
def test_every_snippet_is_safe(searcher: Searcher, q: str) -> None:
    for h in run(searcher, q, per_page=100).hits:
        assert _only_mark_tags(h.title_html) and _only_mark_tags(h.abstract_html)


def test_highlight_follows_stems_accents_and_corrections(searcher: Searcher) -> None:
    h = run(searcher, "schrodinger").hits[0]
    assert "<mark>Schrödinger</mark>" in h.title_html and "<mark>Schrödinger</mark>" in h.abstract_html
    h = run(searcher, "network").hits[0]
    assert "<mark>Networks</mark>" in h.title_html
    h = run(searcher, "contrastive lerning").hits[0]
    assert "<mark>Learning</mark>" in h.title_html


def test_long_abstracts_are_cut_around_matches() -> None:
    from paperlist.search.highlight import Highlighter

    text = "Filler words here. " * 40 + "Here is the graph result. " + "More filler. " * 40
    out = Highlighter({"graph"}).snippet(text, max_chars=120)
    assert out.startswith("…") and out.endswith("…") and "<mark>graph</mark>" in out and len(out) < 200


def test_no_snippets_when_not_asked(searcher: Searcher) -> None:
    h = run(searcher, "graph", snippets=False).hits[0]
    assert h.abstract_html == "" and "<mark>" not in h.title_html


# --- contracts ------------------------------------------------------------------------------------

def test_ranker_contract(searcher: Searcher) -> None:
    ranked = searcher.rank("graph neural networks", limit=5)
    assert 0 < len(ranked) <= 5 and all(isinstance(i, str) and isinstance(s, float) for i, s in ranked)
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert searcher.rank("venue:iclr") == []          # nothing to rank: browse is not a ranker's job


def test_result_serializes(searcher: Searcher) -> None:
    import orjson

    d = run(searcher, "diffusion").to_dict()
    assert orjson.loads(orjson.dumps(d))["total"] == d["total"] and d["pages"] >= 1
    assert {"request", "hits", "facets", "suggestion", "interpreted", "took_ms"} <= set(d)


def test_no_index(tmp_path: Path) -> None:
    with pytest.raises(NoIndex):
        Searcher.open(tmp_path)
    s = Searcher(tmp_path)
    with pytest.raises(NoIndex):
        s.search(SearchRequest(q="x"))


def test_concurrent_searches_equal_one_at_a_time(search_home: Path) -> None:
    """Searches from many threads at once (one of them ranking its page on the spare thread, the
    others counting first) answer exactly as one thread without the spare does."""
    from concurrent.futures import ThreadPoolExecutor

    queries = ["graph neural networks", "diffusion", "learning year:2023..2024", "venue:iclr", "transfomer",
               "language models -survey", "robust learning evaluation", "neural"] * 3
    seq = Searcher.open(search_home)
    seq.parallel = False

    def answer(s: Searcher, q: str) -> tuple[int, list[str], dict[str, list[tuple[str, int]]]]:
        r = s.search(SearchRequest(q=q, per_page=5, page=2 if "neural" in q else 1))
        return (r.total, [h.id for h in r.hits],
                {k: [(v.value, v.count) for v in vs] for k, vs in r.facets.items()})

    expected = [answer(seq, q) for q in queries]
    par = Searcher.open(search_home)
    par.spare.require_idle = False
    with ThreadPoolExecutor(max_workers=6) as ex:
        got = list(ex.map(lambda q: answer(par, q), queries))
    assert got == expected
    assert par._pool is not None        # the spare thread was used
