"""What a link in a reading list names: a paper id (arXiv, OpenReview, DOI, ACL Anthology) or a
proceedings page key (NeurIPS hash, PMLR volume and key, CVF file stem) that our papers' own links
share. The same function reads both sides, so "abs" and "pdf", "html" and ".pdf", "nips.cc" and
"neurips.cc" of one paper give one key."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

_ARXIV_NEW = re.compile(r"^/(?:abs|pdf|html|format)/(\d{4}\.\d{4,5})(?:v\d+)?(?:\.pdf)?/?$")
_ARXIV_OLD = re.compile(r"^/(?:abs|pdf)/([a-z-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$", re.I)
_DOI = re.compile(r"(10\.\d{4,9}/[^\s?#]+)")
_ACL_NEW = re.compile(r"^/?(\d{4}\.[a-z0-9-]+\.\d+)(?:\.pdf)?/?$", re.I)
_ACL_OLD = re.compile(r"^/?([a-z]\d{2}-\d{4})(?:\.pdf)?/?$", re.I)
_NIPS_HASH = re.compile(r"/hash/([0-9a-f]{32})-")
_NIPS_OLD = re.compile(r"^/paper/(\d{4,5})-")
_PMLR = re.compile(r"^/(v\d+)/([a-z0-9_-]+?)(?:/[a-z0-9_-]+\.pdf|\.html|\.pdf)?/?$", re.I)
_CVF = re.compile(r"/([^/]+_paper)\.(?:html|pdf)$", re.I)


def ids_of(url: str) -> list[tuple[str, str]]:
    """The (kind, value) ids and page keys a URL names; empty for anything else. Kinds are those
    of ``paper_ids`` (arxiv, openreview, doi, acl) and ``page`` for a proceedings page key."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path)
    if host.endswith("arxiv.org"):
        m = _ARXIV_NEW.match(path) or _ARXIV_OLD.match(path)
        return [("arxiv", m.group(1).lower())] if m else []
    if host == "openreview.net":
        value = parse_qs(parts.query).get("id", [""])[0]
        return [("openreview", value)] if re.fullmatch(r"[A-Za-z0-9_-]{6,20}", value) else []
    if host in ("aclanthology.org", "aclweb.org"):
        tail = path.removeprefix("/anthology")
        m = _ACL_NEW.match(tail) or _ACL_OLD.match(tail)
        return [("acl", m.group(1) if "." in m.group(1) else m.group(1).upper())] if m else []
    if host in ("doi.org", "dx.doi.org") or (host == "dl.acm.org" and "/doi/" in path):
        m = _DOI.search(path)
        return [("doi", m.group(1).lower().rstrip(".").removesuffix(".pdf"))] if m else []
    if host.endswith(("nips.cc", "neurips.cc")):
        m = _NIPS_HASH.search(path)
        if m:
            return [("page", f"neurips:{m.group(1)}")]
        m = _NIPS_OLD.match(path)
        return [("page", f"nips:{m.group(1)}")] if m else []
    if host == "proceedings.mlr.press":
        m = _PMLR.match(path)
        return [("page", f"pmlr:{m.group(1).lower()}/{m.group(2).lower()}")] if m else []
    if host == "openaccess.thecvf.com":
        m = _CVF.search(path)
        return [("page", f"cvf:{m.group(1).lower()}")] if m else []
    return []
