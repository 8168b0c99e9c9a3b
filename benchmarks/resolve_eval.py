"""Pasted citations and whole bibliographies, on real bibliographies written by researchers.

Ground truth is not the resolver's own judgment: an entry's paper is known when an id the entry
carries (its DOI, an arXiv id in ``eprint``/``url``/``journal``, an ACL Anthology or OpenReview
URL) names exactly one paper of the store. The ids are then removed from what is searched or
resolved (``strip_ids``), so the resolver must find the paper from the text alone.

1. Reference lines: each truth entry is written as one line of a reference list in five styles
   (ACL/natbib, APA, IEEE with a number, LNCS, "A. Author et al."), pasted as a query through the
   service's search (``run_search``, what the site and API run) -> hit@1. The titles alone too.
   ``same title`` also counts a first hit with the target's title (a workshop and a conference
   version, a rejected submission and the published paper: the text cannot tell them apart).
2. Resolve: the whole bibliography, ids removed, through ``service.resolve`` -> of the truth
   entries, how many are matched to their paper (recall); of every entry rewritten, how many with
   the truth paper (precision; rewrites of entries without truth are listed for a person to check).

3. ``--sample N`` (a check of precision at scale, not on researchers' files): N papers drawn from
   the store (``--hard N``: N with titles of 4 words or fewer, and N of journals), each cited as a
   user would (its BibTeX, ids, URL and pages removed, title
   lower-cased, in one of the reference styles for the search); truth is the paper drawn, or a
   paper with the same title and first author (a twin the text cannot tell apart).

4. ``HAND``: reference lines typed by hand in the styles real reference lists use (ICML, ACL,
   LNCS, IEEE, Google Scholar's MLA and APA, Vancouver) for well-known papers, each with the title
   it cites: hit@1 when the library has that title.

    .venv/bin/python benchmarks/resolve_eval.py --home /tmp/h22 [FILE.bib ...] [--failures] [--sample 1000]
"""

from __future__ import annotations

import argparse
import glob
import re
import sys
import time
from pathlib import Path

from paperlist.refs.bib import BibBlock, entry_citation, read_bib, value_plain, write_entry
from paperlist.refs.match import family_names, title_key
from paperlist.service import Home, search_request
from paperlist.service.resolve import resolve
from paperlist.service.search import run_search

ID_FIELDS = {"doi", "url", "eprint", "archiveprefix", "primaryclass", "biburl", "bibsource", "pdf", "arxivid"}
LINE_SAMPLE = 400           # sampled papers also pasted as reference lines (5 styles) and titles
FAILURES = "--failures" in sys.argv
DEFAULT_BIBS = sorted(glob.glob(str(Path(__file__).resolve().parents[2] / "shared/data/bib/*.bib")))


def truth(home: Home, b: BibBlock) -> str | None:
    """The one paper the entry's ids name, or None."""
    found: set[str] = set()
    for kind, value in entry_citation(b).ids.items():
        found.update(home.store.papers_with_id(kind, value))
    return found.pop() if len(found) == 1 else None


def strip_ids(b: BibBlock) -> BibBlock:
    fields = [(k, v) for k, v in b.fields if k.lower() not in ID_FIELDS
              and not re.search(r"arxiv|abs/\d{4}\.", v, re.IGNORECASE) or k.lower() == "title"]
    raw = write_entry(b.entry_type, b.key, fields)
    return BibBlock(raw=raw, key=b.key, entry_type=b.entry_type, fields=fields, line=b.line)


def _given_initials(name: str) -> tuple[str, str]:
    if "," in name:
        fam, given = name.split(",", 1)
    else:
        parts = name.split()
        fam, given = (parts[-1], " ".join(parts[:-1])) if parts else ("", "")
    initials = " ".join(g[0] + "." for g in re.split(r"[\s-]+", given.strip()) if g[:1].isalpha())
    return fam.strip(), initials


def reference_lines(b: BibBlock) -> dict[str, str]:
    """The entry as a line of a reference list in five common styles."""
    c = entry_citation(b)
    names = [_given_initials(a) for a in c.authors if a.lower() != "others"]
    full = [a if "," not in a else f"{a.split(',', 1)[1].strip()} {a.split(',', 1)[0].strip()}"
            for a in c.authors if a.lower() != "others"]
    venue = c.venue or value_plain(b.get("publisher")) or "arXiv preprint"
    year = c.year or ""
    pages = value_plain(b.get("pages"))
    acl_authors = (", ".join(full[:-1]) + ", and " + full[-1]) if len(full) > 2 else " and ".join(full)
    apa = [f"{f}, {i}" for f, i in names]
    apa_authors = (", ".join(apa[:-1]) + ", & " + apa[-1]) if len(apa) > 1 else "".join(apa)
    ieee = [f"{i} {f}".strip() for f, i in names]
    ieee_authors = (", ".join(ieee[:-1]) + ", and " + ieee[-1]) if len(ieee) > 2 else " and ".join(ieee)
    lncs = ", ".join(f"{f}, {i}" for f, i in names)
    etal = f"{names[0][1]} {names[0][0]} et al." if len(names) > 2 else ieee_authors + "."
    return {
        "acl": f"{acl_authors}. {year}. {c.title}. In {venue}" + (f", pages {pages}." if pages else "."),
        "apa": f"{apa_authors} ({year}). {c.title}. {venue}" + (f", {pages}." if pages else "."),
        "ieee": f'[{len(c.title) % 40 + 1}] {ieee_authors}, "{c.title}," in {venue}, {year}'
                + (f", pp. {pages}." if pages else "."),
        "lncs": f"{lncs}: {c.title}. In: {venue} ({year})",
        "etal": f"{etal} {c.title}. {venue}, {year}.",
    }


def first(home: Home, q: str) -> tuple[str | None, str]:
    res = run_search(home, search_request(q=q, per_page=5, facets=False, snippets=False))
    return (res.hits[0].id, title_key(res.hits[0].title)) if res.hits else (None, "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bibs", nargs="*", default=DEFAULT_BIBS)
    ap.add_argument("--home", required=True)
    ap.add_argument("--failures", action="store_true", help="print every miss")
    ap.add_argument("--sample", type=int, default=0, help="also N papers drawn from the store")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--hard", type=int, default=0,
                    help="also N papers with short titles and N journal papers (the misses of issue 44)")
    args = ap.parse_args()
    if not args.bibs:
        sys.exit("no .bib files given (and none in ../shared/data/bib)")
    home = Home(args.home)
    hand_check(home)
    if args.sample:
        sample_check(home, args.sample, args.seed)
    if args.hard:
        sample_check(home, args.hard, args.seed, "short")
        sample_check(home, args.hard, args.seed, "journal")
    lines_hit: dict[str, list[int]] = {}
    for path in args.bibs:
        text = Path(path).read_text(encoding="utf-8")
        blocks = [b for b in read_bib(text) if b.is_entry]
        known = {b.key: pid for b in blocks if (pid := truth(home, b)) is not None}
        print(f"{Path(path).name}: {len(blocks)} entries, {len(known)} with an id that names one paper")
        stripped = [strip_ids(b) for b in blocks]
        by_key = {b.key: b for b in stripped}
        papers = {p.id: p for p in home.store.get_papers(sorted(set(known.values())))}
        titles = {pid: title_key(p.title_plain or p.title) for pid, p in papers.items()}
        t0 = time.perf_counter()
        for key, pid in known.items():
            b = by_key[key]
            queries = {"title": entry_citation(b).title, **reference_lines(b)}
            for style, q in queries.items():
                got, got_title = first(home, q)
                strict, same = got == pid, got == pid or got_title == titles[pid]
                lines_hit.setdefault(style, [0, 0, 0])
                lines_hit[style][0] += 1
                lines_hit[style][1] += strict
                lines_hit[style][2] += same
                if args.failures and not same:
                    print(f"  MISS {style:5} {key}: {q[:150]!r} -> {got}")
        took = time.perf_counter() - t0
        print(f"  searches: {sum(v[0] for v in lines_hit.values())} in {took:.1f} s")
        for style, (n, strict, same) in lines_hit.items():
            print(f"  hit@1 {style:6} {same / n:.3f} (same title; {strict / n:.3f} the id's paper itself), "
                  f"n={n}")
        refs = [v for s, v in lines_hit.items() if s != "title"]
        n, same = sum(v[0] for v in refs), sum(v[2] for v in refs)
        print(f"  hit@1 reference lines, all styles: {same / n:.3f} (n={n})")
        report = resolve(home, "\n\n".join(b.raw for b in stripped))
        entries = {e["key"]: e for e in report["entries"]}
        def paper_of(key: str) -> str | None:
            p = entries[key]["paper"]
            return p["id"] if p else None

        found = sum(1 for k, pid in known.items() if paper_of(k) == pid)
        rewritten = [e for e in report["entries"] if e["rewritten"]]
        right = sum(1 for e in rewritten if e["key"] in known and paper_of(e["key"]) == known[e["key"]])
        wrong = [e for e in rewritten if e["key"] in known and paper_of(e["key"]) != known[e["key"]]]
        unverified = [e for e in rewritten if e["key"] not in known]
        c = report["counts"]
        print(f"  resolve (ids removed): {c['entries']} entries: {c['matched']} matched, "
              f"{c['ambiguous']} ambiguous, "
              f"{c['not_found']} not found, {c['errors']} errors, {c['duplicates']} duplicates; "
              f"{c['rewritten']} rewritten; {report['took_ms'] / 1000:.2f} s")
        print(f"  matched to the id's paper: {found}/{len(known)} = {found / max(1, len(known)):.3f}")
        verified = right + len(wrong)
        print(f"  rewritten with the id's paper: {right}/{verified} = {right / max(1, verified):.3f} "
              f"(+{len(unverified)} rewrites of entries without an id, listed for checking by hand)")
        for e in wrong:
            print(f"  WRONG {e['key']}: {e['title'][:80]!r} -> {e['paper']['id'] if e['paper'] else None}")
        for e in unverified:
            p = e["paper"]
            assert p is not None
            b = by_key[e["key"]]
            cited = entry_citation(b)
            print(f"  CHECK {e['key']}: {cited.title[:70]!r} {family_names(cited.authors)[:2]} {cited.year}")
            print(f"        -> {p['title'][:70]!r} {family_names(p['authors'])[:2]} {p['venue_short']} "
                  f"{p['year']} conf {p['confidence']}")
        if args.failures:
            for k, pid in known.items():
                e = entries[k]
                if not (e["paper"] and e["paper"]["id"] == pid):
                    print(f"  NOT MATCHED {k} [{e['status']}]: {e['title'][:80]!r} (truth {pid})")


HAND = [
    ("Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, 2015.",
     "Adam: A Method for Stochastic Optimization"),
    ("Diederik P. Kingma and Jimmy Ba. Adam: A method for stochastic optimization. arXiv preprint "
     "arXiv:1412.6980, 2014.", "Adam: A Method for Stochastic Optimization"),
    ("Ian Goodfellow, Jean Pouget-Abadie, Mehdi Mirza, Bing Xu, David Warde-Farley, Sherjil Ozair, Aaron "
     "Courville, and Yoshua Bengio. Generative adversarial nets. Advances in neural information processing "
     "systems, 27, 2014.", "Generative Adversarial Nets"),
    ("Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of deep "
     "bidirectional transformers for language understanding. In Proceedings of the 2019 Conference of the "
     "North American Chapter of the Association for Computational Linguistics: Human Language Technologies, "
     "Volume 1 (Long and Short Papers), pages 4171–4186, Minneapolis, Minnesota.",
     "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"),
    ("He, K., Zhang, X., Ren, S., Sun, J.: Deep residual learning for image recognition. In: CVPR. pp. "
     "770–778 (2016)", "Deep Residual Learning for Image Recognition"),
    ("[1] J. Ho, A. Jain, and P. Abbeel, “Denoising diffusion probabilistic models,” Advances in neural "
     "information processing systems, vol. 33, pp. 6840–6851, 2020.", "Denoising Diffusion Probabilistic Models"),
    ("Radford, A., Kim, J. W., Hallacy, C., Ramesh, A., Goh, G., Agarwal, S., ... & Sutskever, I. (2021, July). "
     "Learning transferable visual models from natural language supervision. In International conference on "
     "machine learning (pp. 8748-8763). PMLR.",
     "Learning Transferable Visual Models From Natural Language Supervision"),
    ("Mildenhall B, Srinivasan PP, Tancik M, Barron JT, Ramamoorthi R, Ng R. Nerf: Representing scenes as "
     "neural radiance fields for view synthesis. In ECCV 2020.",
     "NeRF: Representing Scenes as Neural Radiance Fields for View Synthesis"),
    ('Vaswani, Ashish, et al. "Attention is all you need." Advances in neural information processing systems '
     "30 (2017).", "Attention is All you Need"),
    ('Liu, Ze, et al. "Swin transformer: Hierarchical vision transformer using shifted windows." Proceedings '
     "of the IEEE/CVF international conference on computer vision. 2021.",
     "Swin Transformer: Hierarchical Vision Transformer Using Shifted Windows"),
    ("Sepp Hochreiter and Jürgen Schmidhuber. 1997. Long short-term memory. Neural Computation, "
     "9(8):1735–1780.", "Long Short-Term Memory"),
    ("Ho J, Jain A, Abbeel P. Denoising diffusion probabilistic models. Adv Neural Inf Process Syst. "
     "2020;33:6840-51.", "Denoising Diffusion Probabilistic Models"),
    ("T. Mikolov, I. Sutskever, K. Chen, G. S. Corrado, and J. Dean. Distributed representations of words and "
     "phrases and their compositionality. In NIPS, pages 3111–3119, 2013.",
     "Distributed Representations of Words and Phrases and their Compositionality"),
    ("Kipf, T.N., Welling, M.: Semi-supervised classification with graph convolutional networks. In: ICLR "
     "(2017)", "Semi-Supervised Classification with Graph Convolutional Networks"),
    ("Alexey Dosovitskiy, Lucas Beyer, Alexander Kolesnikov, Dirk Weissenborn, Xiaohua Zhai, Thomas "
     "Unterthiner, Mostafa Dehghani, Matthias Minderer, Georg Heigold, Sylvain Gelly, et al. An image is worth "
     "16x16 words: Transformers for image recognition at scale. In International Conference on Learning "
     "Representations, 2021.",
     "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale"),
    ("Ouyang, L., Wu, J., Jiang, X., Almeida, D., Wainwright, C., Mishkin, P., Zhang, C., Agarwal, S., Slama, "
     "K., Ray, A., et al. Training language models to follow instructions with human feedback. Advances in "
     "Neural Information Processing Systems, 35:27730–27744, 2022.",
     "Training language models to follow instructions with human feedback"),
]


def hand_check(home: Home) -> None:
    held = {title_key(t) for _pid, t, _v, _y in home.store.plain_titles()}
    n = ok = 0
    for line, title in HAND:
        if title_key(title) not in held:
            print(f"  hand: not in the library: {title!r}")
            continue
        n += 1
        _top, top_title = first(home, line)
        ok += top_title == title_key(title)
        if top_title != title_key(title):
            print(f"  MISS hand {line[:120]!r}")
    print(f"hand-typed reference lines: hit@1 {ok}/{n} (of {len(HAND)}; the rest not in the library)")


def stratum(home: Home, kind: str) -> list[str]:
    """The papers a sample is drawn from: every accepted paper; those with short titles (4 words or
    fewer, where a reference's venue words outweigh the title's); those of journals (a classic
    journal paper beside conference papers of the same name)."""
    from paperlist import venues

    rows = home.store.db.execute("SELECT id, title, venue FROM papers WHERE accepted = 1 ORDER BY id")
    if kind == "all":
        return [r[0] for r in rows]
    if kind == "short":
        return [r[0] for r in rows if len(title_key(r[1]).split()) <= 4]
    journals = {v.key for v in venues.all_venues() if v.kind == "journal"}
    return [r[0] for r in rows if r[2] in journals]


def sample_check(home: Home, n: int, seed: int, kind: str = "all") -> None:
    import random

    from paperlist.citation import bibtex

    ids = stratum(home, kind)
    papers = home.store.get_papers(random.Random(seed).sample(ids, min(n, len(ids))))
    n = len(papers)
    blocks = []
    for i, p in enumerate(papers):
        [b] = [x for x in read_bib(bibtex(p)) if x.is_entry]
        fields = [(k, v.lower() if k.lower() == "title" else v) for k, v in b.fields
                  if k.lower() not in ID_FIELDS | {"pages", "volume", "number"}]
        blocks.append(BibBlock(raw=write_entry(b.entry_type, f"ref{i}", fields), key=f"ref{i}",
                               entry_type=b.entry_type, fields=fields))
    report = resolve(home, "\n\n".join(b.raw for b in blocks))
    truth = {f"ref{i}": p for i, p in enumerate(papers)}
    got = {e["key"]: e["paper"]["id"] for e in report["entries"] if e["paper"]}
    twins = {p.id for p in home.store.get_papers(sorted(set(got.values())))}
    by_id = {p.id: p for p in home.store.get_papers(sorted(twins))}

    def right(key: str) -> bool:
        p, q = truth[key], by_id.get(got[key])
        return q is not None and (q.id == p.id or (
            title_key(q.title_plain) == title_key(p.title_plain)
            and family_names([a.name for a in q.authors[:1]]) == family_names([a.name for a in p.authors[:1]])))

    rewritten = [e["key"] for e in report["entries"] if e["rewritten"]]
    ok = sum(1 for k in got if right(k))
    ok_rw = sum(1 for k in rewritten if right(k))
    c = report["counts"]
    print(f"sample of {n} library papers ({kind}, seed {seed}): {c['matched']} matched, {c['ambiguous']} ambiguous, "
          f"{c['not_found']} not found; matched right {ok}/{len(got)}, rewritten right {ok_rw}/{len(rewritten)}; "
          f"{report['took_ms'] / 1000:.2f} s")
    for k in got:
        if not right(k):
            print(f"  WRONG {k}: {truth[k].title_plain[:70]!r} ({truth[k].id}) -> {got[k]}")
    hits: dict[str, list[int]] = {}
    with_authors = [b for b in blocks if truth[b.key].authors]       # a reference always names its authors
    for b in with_authors[:LINE_SAMPLE]:
        p = truth[b.key]
        for style, q in {"title": p.title_plain, **reference_lines(b)}.items():
            top, top_title = first(home, q)
            ok_line = top == p.id or top_title == title_key(p.title_plain)
            hits.setdefault(style, []).append(ok_line)
            if not ok_line and FAILURES:
                print(f"  MISS {style:5} {q[:140]!r} -> {top}")
    line_hits = [x for s, v in hits.items() if s != "title" for x in v]
    print(f"  hit@1 on the first {min(LINE_SAMPLE, len(with_authors))} with authors: title {sum(hits['title']) / len(hits['title']):.3f}, "
          f"reference lines {sum(line_hits) / len(line_hits):.3f} (n={len(line_hits)}; "
          + ", ".join(f"{s} {sum(v) / len(v):.3f}" for s, v in hits.items() if s != "title") + ")")


if __name__ == "__main__":
    main()
