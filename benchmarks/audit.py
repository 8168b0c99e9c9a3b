"""An audit you can rerun: do the fields a paper's page shows come from its raw records?

For each source (the ``source`` of the stored records: papercopilot, mlanthology, acl, openreview,
aitopconf, ...) it samples N papers that have a record of that source (fixed seed), and checks each
displayed field against the records the paper was merged from:

- title: the shown title's ``title_key`` (paperlist/text.py) is some record's;
- authors: the shown authors' keys (``author_key``, paperlist/names.py), as a set, are some record's;
- author order: among papers whose author set is supported, the shown order is some record's order
  (a record flagged ``authors_sorted`` counts only when the page says the order is not known); papers
  whose author list comes only from an alphabetical source are counted apart (``alpha``);
- year, venue (its key), status (a status inferred from a census file is supported by that record);
- links: every link and external id the page shows is in some record (links compared by ``link_key``;
  the generated "Find on OpenReview" search link is left out);
- bibtex: the entry the page shows (paperlist/citation.py ``bibtex``) parses with bibtexparser v2 as
  one entry, has no empty field, no ``\\textbackslash``, balanced braces, and its title, year and
  author list are some record's (a sorted list's first author never names the key).

An *error* is a shown value that no record of the paper supports; a *disagreement* is a shown value
that this source's own record contradicts (it has the field, with another value) while another record
supports it: the merge choosing, not an error. A paper's record named by the provenance that does not
support the value is counted too (``prov``, in --json).

    .venv/bin/python benchmarks/audit.py --home H [--n 200] [--seed 7] [--json] [--failures]

Reads the store read-only: one scan of (source, paper id) and batched reads of the sampled papers and
their records.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import bibtexparser
import orjson

from paperlist.citation import bibtex as shown_bibtex
from paperlist.models import Paper, Record
from paperlist.names import author_key, flip_comma_name
from paperlist.service.papers import _links as shown_links
from paperlist.sources.normalize import link_key
from paperlist.store import Store
from paperlist.text import plain, title_key

FIELDS = ("title", "authors", "author_order", "year", "venue", "status", "links", "bibtex")
BATCH = 500


# --- reading ------------------------------------------------------------------------------------

def sample(store: Store, n: int, seed: int) -> dict[str, list[str]]:
    """source -> up to n paper ids that have a record of that source (one scan of the records)."""
    by_source: dict[str, set[str]] = defaultdict(set)
    for source, pid in store.db.execute("SELECT source, paper_id FROM records WHERE paper_id IS NOT NULL"):
        by_source[source].add(pid)
    rng = random.Random(seed)
    return {s: sorted(rng.sample(sorted(ids), min(n, len(ids)))) for s, ids in sorted(by_source.items())}


def read_records(store: Store, ids: list[str]) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = defaultdict(list)
    for i in range(0, len(ids), BATCH):
        chunk = ids[i:i + BATCH]
        marks = ",".join("?" * len(chunk))
        for pid, data in store.db.execute(
                f"SELECT paper_id, data FROM records WHERE paper_id IN ({marks}) ORDER BY file, key",  # noqa: S608
                chunk):
            out[pid].append(Record.from_dict(orjson.loads(data)))
    return out


# --- what a record supports -----------------------------------------------------------------------

def keys(names: list[str]) -> list[str]:
    return [k for k in (author_key(n) for n in names) if k]


def rec_keys(r: Record) -> list[str]:
    return keys([a.name for a in r.authors])


def bib_names(value: str) -> list[str]:
    """The names of a BibTeX author field, in "given family" order."""
    parts = [p.strip() for p in re.split(r"\s+and\s+", value, flags=re.IGNORECASE)]
    return [flip_comma_name(plain(p)) for p in parts if p and p.lower() != "others"]


def bib_text(value: str) -> str:
    """A BibTeX value as the text it prints (the escapes citation.escape_latex writes undone)."""
    return (value.replace("\\textasciicircum{}", "^").replace("\\textasciitilde{}", "~")
            .replace("\\nobreakdash", ""))


def bib_problems(text: str) -> tuple[list[str], dict[str, str]]:
    """What is wrong with an entry as text, and its fields (lower-case names)."""
    try:
        lib = bibtexparser.parse_string(text)
    except Exception as e:  # noqa: BLE001 - a failure to parse is what we count
        return [f"does not parse: {e}"], {}
    if len(lib.entries) != 1 or lib.failed_blocks:
        return [f"{len(lib.entries)} entries, {len(lib.failed_blocks)} failed blocks"], {}
    entry = lib.entries[0]
    fields = {f.key.lower(): str(f.value) for f in entry.fields}
    out = []
    for k, v in fields.items():
        s = v.strip()
        if not s or s in ("{}", '""'):
            out.append(f"{k} is empty")
        elif s.count("{") != s.count("}"):
            out.append(f"{k} has unbalanced braces")
        if "\\textbackslash" in s:
            out.append(f"{k} holds \\textbackslash")
    fields["_key"] = entry.key
    return out, fields


class Check:
    """One field of one paper: error (None when the page shows nothing), what was shown, why."""

    __slots__ = ("error", "prov", "shown", "why")

    def __init__(self, error: bool | None, shown: object = None, why: str = "", prov: bool = False):
        self.error, self.shown, self.why, self.prov = error, shown, why, prov


def check_paper(p: Paper, recs: list[Record]) -> dict[str, Check]:
    out: dict[str, Check] = {}
    prov = p.provenance

    def prov_bad(fld: str, ok: Any) -> bool:
        named = [r for r in recs if r.file == prov.get(fld)]
        return bool(named) and not any(ok(r) for r in named)

    tk = title_key(p.title)
    out["title"] = Check(not any(title_key(r.title) == tk for r in recs), p.title,
                         prov=prov_bad("title", lambda r: title_key(r.title) == tk))

    shown = keys([a.name for a in p.authors])
    alpha = not p.author_order_known
    if shown:
        same_set = [r for r in recs if sorted(rec_keys(r)) == sorted(shown)]
        out["authors"] = Check(not same_set, [a.name for a in p.authors],
                               prov=prov_bad("authors", lambda r: sorted(rec_keys(r)) == sorted(shown)))
        if same_set:
            ordered = [r for r in same_set if rec_keys(r) == shown]
            # a sorted list's order is only supported where the page says the order is not known
            ok = [r for r in ordered if not r.authors_sorted or alpha]
            why = "only an alphabetical record has this order" if ordered and not ok else ""
            out["author_order"] = Check(not ok, [a.name for a in p.authors], why)
        else:
            out["author_order"] = Check(None)
    else:
        out["authors"] = out["author_order"] = Check(None)

    out["year"] = Check(not any(r.year == p.year for r in recs), p.year)
    out["venue"] = Check(not any(r.venue == p.venue for r in recs), p.venue,
                         prov=prov_bad("venue", lambda r: r.venue == p.venue))
    if p.status:
        inferred = prov.get("status", "").startswith("inferred:")
        given = any(r.status == p.status for r in recs) or (inferred and any(r.census for r in recs))
        out["status"] = Check(not given, p.status, "" if given else "inferred" if inferred else "",
                              prov=not inferred and prov_bad("status", lambda r: r.status == p.status))
    else:
        out["status"] = Check(None)

    have_links = {link_key(u) for r in recs for u in r.links.values()}
    have_ids = {(k, v) for r in recs for k, v in r.ids.items()}
    missing = [lk["url"] for lk in shown_links(p) if lk["kind"] != "openreview-search"
               and link_key(lk["url"]) not in have_links]
    missing += [f"{k}:{v}" for k, v in p.ids.items() if (k, v) not in have_ids]
    out["links"] = Check(bool(missing), missing, "not in any record" if missing else "")

    bib = shown_bibtex(p)
    bad, fields = bib_problems(bib)
    if not bad:
        bt = title_key(bib_text(fields.get("title", "")))
        if "title" in fields and not any(title_key(r.title) == bt for r in recs):
            bad.append("title is no record's")
        if fields.get("year", "").strip() and not any(str(r.year) == fields["year"].strip() for r in recs):
            bad.append("year is no record's")
        if "author" in fields:
            bk = keys(bib_names(fields["author"]))
            if not any(rec_keys(r) == bk for r in recs if r.authors):
                bad.append("author list is no record's")
        elif shown:
            bad.append("no author field")
        if alpha and shown and fields["_key"].lower().startswith(p.authors[0].name.split()[-1].lower()):
            bad.append("key names the alphabetical first author")
    out["bibtex"] = Check(bool(bad), bib, "; ".join(bad))
    return out


def looks_sorted(p: Paper) -> bool:
    """Five or more authors in alphabetical order of given or of family name (2 in 120 by chance) on a
    page that says their order is known: what a sorting source leaves behind when the merge was not
    told (the ICLR 2025 CSV sorts by the written name, given name first)."""
    names = [author_key(a.name) for a in p.authors]
    fam = [k.rsplit("-", 1)[-1] for k in names]
    return p.author_order_known and len(names) >= 5 and (names == sorted(names) or fam == sorted(fam))


def disagrees(fld: str, p: Paper, own: list[Record]) -> bool:
    """This source's records give the field, and none gives the shown value."""
    if fld == "title":
        given = [r.title for r in own if r.title]
        return bool(given) and not any(title_key(t) == title_key(p.title) for t in given)
    if fld in ("authors", "author_order"):
        shown = keys([a.name for a in p.authors])
        lists = [rec_keys(r) for r in own if r.authors]
        if not lists or not shown:
            return False
        if fld == "authors":
            return not any(sorted(g) == sorted(shown) for g in lists)
        same = [g for g in lists if sorted(g) == sorted(shown)]
        return bool(same) and not any(g == shown for g in same)
    if fld == "year":
        return bool(own) and not any(r.year == p.year for r in own)
    if fld == "venue":
        given_v = [r.venue for r in own if r.venue]
        return bool(given_v) and p.venue not in given_v
    if fld == "status":
        given = [r.status for r in own if r.status]
        return bool(given) and p.status not in given
    if fld == "links":       # a link of this source's the page does not show
        on_page = {link_key(lk["url"]) for lk in shown_links(p)}
        return any(link_key(u) not in on_page for r in own for u in r.links.values())
    if fld == "bibtex":
        given = [r.bibtex.strip() for r in own if r.bibtex]
        return bool(given) and shown_bibtex(p) not in given
    return False


# --- the audit --------------------------------------------------------------------------------------

def audit(home: Path, n: int, seed: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    store = Store(home / "paperlist.db", readonly=True)
    try:
        picked = sample(store, n, seed)
        ids = sorted({pid for v in picked.values() for pid in v})
        papers = {p.id: p for i in range(0, len(ids), BATCH) for p in store.get_papers(ids[i:i + BATCH])}
        records = read_records(store, ids)
    finally:
        store.close()
    t_read = time.perf_counter() - t0
    checks = {pid: check_paper(p, records[pid]) for pid, p in papers.items()}

    def cell() -> dict[str, Any]:
        return {"n": 0, "errors": 0, "disagreements": 0, "prov": 0, "alpha": 0, "looks_sorted": 0,
                "failures": [], "disagreeing": []}

    per: dict[str, dict[str, dict[str, Any]]] = {}
    for source, pids in picked.items():
        row = {f: cell() for f in FIELDS}
        for pid in pids:
            p = papers.get(pid)
            if p is None:
                continue
            own = [r for r in records[pid] if r.source == source]
            for f in FIELDS:
                c = checks[pid][f]
                if c.error is None:
                    continue
                x = row[f]
                x["n"] += 1
                x["prov"] += c.prov
                if f in ("authors", "author_order") and not p.author_order_known:
                    x["alpha"] += 1
                if c.error:
                    x["errors"] += 1
                    if len(x["failures"]) < 5:
                        x["failures"].append({
                            "paper": pid, "shown": c.shown, "why": c.why,
                            "records": {f"{r.file}#{r.key}": record_value(f, r) for r in records[pid]}})
                elif disagrees(f, p, own):
                    x["disagreements"] += 1
                    if len(x["disagreeing"]) < 3:
                        x["disagreeing"].append({
                            "paper": pid, "shown": c.shown,
                            "records": {f"{r.file}#{r.key}": record_value(f, r) for r in own}})
                if f == "author_order" and looks_sorted(p):
                    x["looks_sorted"] += 1
        per[source] = row
    total = {f: cell() for f in FIELDS}
    for pid, cs in checks.items():
        for f in FIELDS:
            c = cs[f]
            if c.error is None:
                continue
            total[f]["n"] += 1
            total[f]["errors"] += bool(c.error)
            total[f]["prov"] += c.prov
            total[f]["alpha"] += f in ("authors", "author_order") and not papers[pid].author_order_known
            total[f]["looks_sorted"] += f == "author_order" and looks_sorted(papers[pid])
    for f in FIELDS:
        total[f]["disagreements"] = sum(per[s][f]["disagreements"] for s in per)
        del total[f]["failures"], total[f]["disagreeing"]
    return {"home": str(home), "n": n, "seed": seed, "papers": len(papers), "sources": per, "total": total,
            "read_seconds": round(t_read, 2), "seconds": round(time.perf_counter() - t0, 2)}


def record_value(fld: str, r: Record) -> object:
    if fld == "title":
        return r.title
    if fld in ("authors", "author_order"):
        return [a.name for a in r.authors] + (["(sorted)"] if r.authors_sorted else [])
    if fld == "year":
        return r.year
    if fld == "venue":
        return r.venue
    if fld == "status":
        census = " (census)" if r.census else ""
        return ((r.status or "") + census).strip() or None
    if fld == "links":
        return [*r.links.values(), *(f"{k}:{v}" for k, v in r.ids.items())]
    return r.bibtex


def rate(x: dict[str, Any], key: str = "errors") -> str:
    return f"{100 * x[key] / x['n']:.1f}%" if x["n"] else "-"


def print_table(res: dict[str, Any], failures: bool) -> None:
    w = 13
    head = "source".ljust(16) + "".join(f.rjust(w) for f in FIELDS)
    for title, key in (("errors (shown value no record supports): rate and n", "errors"),
                       ("disagreements (this source's record says otherwise, another supports it)",
                        "disagreements")):
        print(title)
        print(head)
        for source, row in res["sources"].items():
            print(source.ljust(16) + "".join(f"{rate(row[f], key)} {row[f]['n']}".rjust(w) for f in FIELDS))
        tot = res["total"]
        label = "all (unique)" if key == "errors" else "all (pooled)"
        if key == "errors":
            print(label.ljust(16) + "".join(f"{rate(tot[f], key)} {tot[f]['n']}".rjust(w) for f in FIELDS))
        else:
            pooled = {f: sum(r[f]["n"] for r in res["sources"].values()) for f in FIELDS}
            print(label.ljust(16) + "".join(
                (f"{100 * tot[f][key] / pooled[f]:.1f}%" if pooled[f] else "-").rjust(w) for f in FIELDS))
        print()
    tot = res["total"]
    worst = {f: max(res["sources"], key=lambda s: _r(res["sources"][s][f])) for f in FIELDS}
    print("worst source per field:", ", ".join(
        f"{f} {worst[f]} {rate(res['sources'][worst[f]][f])}" for f in FIELDS))
    print("provenance record not supporting the shown value: "
          + (", ".join(f"{f} {tot[f]['prov']}" for f in FIELDS if tot[f]["prov"]) or "none"))
    print(f"alphabetical-only author lists (page says order unknown): {tot['authors']['alpha']}"
          f" of {tot['authors']['n']} papers with authors")
    print("5+ authors in alphabetical order (given or family name), order said known: "
          + ", ".join(f"{s} {row['author_order']['looks_sorted']}" for s, row in res["sources"].items()
                      if row["author_order"]["looks_sorted"])
          + f"; all {tot['author_order']['looks_sorted']} of {tot['author_order']['n']}")
    print(f"{res['papers']} papers, {res['n']} per source, seed {res['seed']}; "
          f"read {res['read_seconds']} s, total {res['seconds']} s")
    if failures:
        for source, row in res["sources"].items():
            for f in FIELDS:
                for ex in row[f]["failures"]:
                    print(f"\n[{source} / {f}] {ex['paper']}  {ex['why']}")
                    print(f"  shown: {_short(ex['shown'])}")
                    for ref, v in ex["records"].items():
                        print(f"  {ref}: {_short(v)}")
                for ex in row[f]["disagreeing"]:
                    print(f"\n[{source} / {f}, disagreement] {ex['paper']}")
                    print(f"  shown: {_short(ex['shown'])}")
                    for ref, v in ex["records"].items():
                        print(f"  {ref}: {_short(v)}")


def _r(x: dict[str, Any]) -> float:
    return x["errors"] / x["n"] if x["n"] else -1.0


def _short(v: object, limit: int = 300) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    s = " ".join(s.split())
    return s if len(s) <= limit else s[:limit] + "…"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--n", type=int, default=200, help="papers per source")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--failures", action="store_true", help="print up to 5 examples per source and field")
    args = ap.parse_args(argv)
    res = audit(args.home, args.n, args.seed)
    if args.json:
        if not args.failures:
            for row in res["sources"].values():
                for x in row.values():
                    del x["failures"], x["disagreeing"]
        print(json.dumps(res, ensure_ascii=False, indent=1, default=str))
    else:
        print_table(res, args.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
