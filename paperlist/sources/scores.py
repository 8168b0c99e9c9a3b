"""Review scores of every submission, as three community trackers saved them: one reader, three layouts.

* ``iclr2024.db`` (weigq/iclr2024_stats): SQLite, table ``submissions`` with each public submission
  by OpenReview forum id (``url_id``), its title and keywords, and each reviewer's rating at three
  dates (``r_0``, ``r_1``, ``r_2``: "3, 3, 5, 5"). The newest snapshot is the score; its date is the
  tracker's (below), before decisions.
* ``iclr2026_submissions_ratings.jsonl`` (imczxx/ICLR2026ReviewTracker): one line per submission
  ``{forum, number, title, primary_area, venue, withdrawn, ratings, confidences, soundness,
  presentation, contribution, paper_mdate, …}``, a snapshot after reviews were released and before
  decisions; its date is the newest ``paper_mdate``. The tracker's per-paper files (``{id, content,
  replies, withdrawn}``, the replies as OpenReview's API gives them) are read too.
* ``iclr_2026_accepted.parquet`` (hazirliver/iclr_2026_analysis): the accepted papers with their
  final scores as native lists (``rating``, ``confidence``, ``soundness`` …) beside papercopilot-style
  ``*_avg`` pairs, status Oral / Poster / Conditional, abstract and keywords.

The two snapshots list every public submission of their year (``census``): a submission no source
accepted was not accepted, and the merge says its "rejected" is inferred. A withdrawn flag is the
tracker's at its date. Scores taken before decisions carry their date (``Review.as_of``).
"""

from __future__ import annotations

import io
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Record
from ..text import clean
from . import normalize as nz
from . import reviews as rv
from .base import Collector, Parsed, SourceError, SourceFile
from .openreview_api import replies_review, value

SOURCE = "scores"
_SQLITE = b"SQLite format 3\x00"
_PARQUET = b"PAR1"
_NAME = re.compile(r"([a-z]+)[_-]?((?:19|20)\d{2})", re.IGNORECASE)
_VENUE_YEAR = re.compile(r"\b([A-Za-z]+)\s+((?:19|20)\d{2})\b")
# The dates of weigq's three snapshots (r_0, r_1, r_2), as its repository's history gives them.
_DB_SNAPSHOTS = {("iclr", 2024): ("2023-11-11", "2023-11-25", "2023-12-03")}
_DIMS = ("soundness", "presentation", "contribution")


class ScoresReader:
    name = SOURCE
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        return self._layout(src) is not None

    def file_key(self, src: SourceFile) -> str:
        return f"{SOURCE}:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        layout = self._layout(src)
        if layout is None:
            raise SourceError(
                "not a review-score tracker's file (an SQLite db of submissions, a JSON lines "
                "snapshot, a per-paper file, or a parquet table of accepted papers)"
            )
        rows: Iterator[tuple[str, Any]] = getattr(self, f"_{layout}_rows")(src)
        fkey = self.file_key(src)
        col = Collector()
        make = getattr(self, f"_{layout}")
        # where the file's papers belong: its name for the two tables, each paper's venue text else
        place = _file_place(src) if layout in ("db", "parquet") else None
        snapshot = _snapshot_date(src, layout)
        for where, row in rows:
            col.add(where, partial(make, row, fkey, snapshot, place))
        return col.out

    @staticmethod
    def _layout(src: SourceFile) -> str | None:
        head = src.data[:4096]
        if head.startswith(_SQLITE):
            return "db" if b"submissions" in src.data[:65536] and b"url_id" in src.data[:65536] else None
        if head.startswith(_PARQUET):
            return "parquet"
        text = head.lstrip()
        if (
            text.startswith(b"{")
            and b'"forum"' in text[:200]
            and b'"ratings"' in text
            and b"\n" in src.data[:200_000]
        ):
            return "lines"
        if (
            text.startswith(b"{")
            and b'"replies"' in src.data
            and b'"content"' in text[:600]
            and b'"withdrawn"' in src.data[-400:]
        ):
            return "paper"
        return None

    # --- the SQLite snapshots ------------------------------------------------------------------

    def _db_rows(self, src: SourceFile) -> Iterator[tuple[str, dict[str, Any]]]:
        conn = sqlite3.connect(":memory:")
        try:
            conn.deserialize(src.data)
            conn.row_factory = sqlite3.Row
            rows = [dict(r) for r in conn.execute("SELECT * FROM submissions ORDER BY url_id")]
        except sqlite3.DatabaseError as e:
            raise SourceError(f"not a readable SQLite database ({e})") from None
        finally:
            conn.close()
        for i, r in enumerate(rows):
            yield f"row {i}", r

    def _db(self, r: dict[str, Any], fkey: str, snapshot: str | None, place: tuple[str, int]) -> Record:
        venue, year = place
        dates = _DB_SNAPSHOTS.get((venue, year), (None, None, str(year - 1)))
        ratings, as_of = [], None
        for k, date in zip(("r_2", "r_1", "r_0"), reversed(dates), strict=True):
            if ratings := rv.scores(str(r.get(k) or "").replace(",", ";")):
                as_of = date
                break
        oid = clean(r.get("url_id"))
        return self._record(
            fkey,
            oid,
            venue,
            year,
            r.get("title"),
            keywords=nz.keywords(clean(r.get("keywords")), ","),
            status="withdrawn" if r.get("withdraw") else None,
            review=rv.review_of_lists(ratings, [], {}, as_of),
        )

    # --- the JSON lines snapshot ---------------------------------------------------------------

    def _lines_rows(self, src: SourceFile) -> Iterator[tuple[str, Any]]:
        for n, line in enumerate(src.data.splitlines(), 1):
            if not line.strip():
                continue
            try:
                yield f"line {n}", orjson.loads(line)
            except orjson.JSONDecodeError as e:
                yield f"line {n}", f"not valid JSON: {str(e).splitlines()[0]}"

    def _lines(self, p: Any, fkey: str, snapshot: str | None, place: None) -> Record:
        if isinstance(p, str):
            raise nz.RecordError(p)
        if not isinstance(p, dict):
            raise nz.RecordError(f"expected an object, found {type(p).__name__}")
        venue, year = _text_place(p.get("venue"))
        dims = {d: vals for d in _DIMS if (vals := _numbers(p.get(d)))}
        review = rv.review_of_lists(
            _numbers(p.get("ratings")), _numbers(p.get("confidences")), dims, snapshot
        )
        return self._record(
            fkey,
            clean(p.get("forum")),
            venue,
            year,
            p.get("title"),
            primary_area=p.get("primary_area"),
            status="withdrawn" if p.get("withdrawn") is True else None,
            review=review,
        )

    # --- a tracker's per-paper file --------------------------------------------------------------

    def _paper_rows(self, src: SourceFile) -> Iterator[tuple[str, Any]]:
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
        yield "paper", data

    def _paper(self, p: Any, fkey: str, snapshot: str | None, place: None) -> Record:
        if not isinstance(p, dict) or not isinstance(p.get("content"), dict):
            raise nz.RecordError("expected a submission: an object with 'content'")
        c = p["content"]
        venue, year = _text_place(value(c, "venue"))
        review = replies_review(p.get("replies") or [])
        if review is not None:
            review.as_of = snapshot
        kw = value(c, "keywords")
        return self._record(
            fkey,
            clean(p.get("id")),
            venue,
            year,
            value(c, "title"),
            abstract=value(c, "abstract"),
            primary_area=value(c, "primary_area"),
            keywords=nz.keywords(kw if isinstance(kw, list) else [], ";"),
            status="withdrawn" if p.get("withdrawn") is True else None,
            review=review,
        )

    # --- the parquet table of accepted papers ----------------------------------------------------

    def _parquet_rows(self, src: SourceFile) -> Iterator[tuple[str, Any]]:
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise SourceError("reading parquet needs pyarrow (pip install pyarrow)") from None
        try:
            table = pq.read_table(io.BytesIO(src.data))
        except Exception as e:  # noqa: BLE001 - pyarrow raises several kinds for a damaged file
            raise SourceError(f"not a readable parquet file ({str(e).splitlines()[0][:120]})") from None
        for i, r in enumerate(table.to_pylist()):
            yield f"row {i}", r

    def _parquet(self, r: dict[str, Any], fkey: str, snapshot: str | None, place: tuple[str, int]) -> Record:
        venue, year = place
        dims = {d: vals for d in _DIMS if (vals := _numbers(r.get(d)))}
        review = rv.review_of_lists(_numbers(r.get("rating")), _numbers(r.get("confidence")), dims, None)
        oid = clean(r.get("openreview_id")) or nz.openreview_id(r.get("site")) or ""
        status = nz.status(r.get("status"))
        if status is None or status not in ("oral", "spotlight", "poster", "accepted"):
            raise nz.RecordError(f"status {clean(r.get('status'))!r} is not an acceptance")
        kw = r.get("keywords")
        return self._record(
            fkey,
            oid,
            venue,
            year,
            r.get("title"),
            abstract=r.get("abstract"),
            primary_area=r.get("primary_area"),
            keywords=nz.keywords(kw if isinstance(kw, list) else [], ";"),
            status=status,
            review=review,
            census=False,
            status_raw=clean(r.get("status")),
        )

    # --- shared ---------------------------------------------------------------------------------

    def _record(
        self,
        fkey: str,
        oid: str,
        venue: str,
        year: int,
        title: object,
        *,
        status: str | None,
        review: Any,
        abstract: object = None,
        primary_area: object = None,
        keywords: list[str] | None = None,
        census: bool = True,
        status_raw: str = "",
    ) -> Record:
        if not re.fullmatch(r"[A-Za-z0-9_-]{5,30}", oid or ""):
            raise nz.RecordError(f"OpenReview id {oid!r} is not one")
        extra = {"status_raw": status_raw} if status_raw and status_raw.lower() != (status or "") else {}
        return nz.record(
            source=self.name,
            file=fkey,
            key=oid,
            venue=venue,
            year=year,
            title=title,
            authors=[],
            abstract=nz.abstract(abstract),
            status=status,
            ids={"openreview": oid},
            keywords=keywords or [],
            primary_area=nz.text_or_none(primary_area),
            review=review,
            census=census and status is None,
            extra=extra,
        )


def _numbers(v: object) -> list[float]:
    """A list of scores as the trackers write them: a list of numbers, or text "6, 4, 4"."""
    if isinstance(v, list):
        return [x for item in v for x in rv.scores(item)]
    if isinstance(v, str):
        return rv.scores(v.replace(",", ";"))
    return []


def _text_place(text: object) -> tuple[str, int]:
    m = _VENUE_YEAR.search(clean(text))
    if not m:
        raise nz.RecordError(f"venue {clean(text)[:60]!r} names no venue and year")
    return venues.canonical(m.group(1)), int(m.group(2))


def _file_place(src: SourceFile) -> tuple[str, int]:
    m = _NAME.search(src.stem)
    if not m:
        raise SourceError(f"file name {src.basename!r} names no venue and year (e.g. iclr2024.db)")
    return venues.canonical(m.group(1).lower()), int(m.group(2))


def _snapshot_date(src: SourceFile, layout: str) -> str | None:
    """A JSON lines snapshot's date: the newest modification of a paper in it (the tracker ran then);
    a per-paper file's: its own last modification."""
    if layout not in ("lines", "paper"):
        return None
    newest = 0
    if layout == "lines":
        for m in re.finditer(rb'"paper_mdate":\s*(\d{12,14})', src.data):
            newest = max(newest, int(m.group(1)))
    else:
        for m in re.finditer(rb'"mdate":\s*(\d{12,14})', src.data):
            newest = max(newest, int(m.group(1)))
    return datetime.fromtimestamp(newest / 1000, UTC).date().isoformat() if newest else None
