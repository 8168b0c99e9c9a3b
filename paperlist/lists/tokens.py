"""List capabilities: the private token of a set of lists (a "shelf") and the read-only share
token of each list.

A private token is 192 random bits (``secrets``), base64url: 32 characters. The store never holds
a token, only its SHA-256, and looks a shelf up by that digest: the lookup's timing depends on
the digest, which tells a guesser nothing about the tokens that exist, and the row found is then
compared with ``hmac.compare_digest``. A share token is derived from the private token and the
list's id (HMAC-SHA256), so the owner's page can show it again without the server storing it;
the store keeps its digest too. Guessing is infeasible: 2^192 private tokens, 2^192 share tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

TOKEN_BYTES = 24
TOKEN = re.compile(r"^[A-Za-z0-9_-]{32}$")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_list_id() -> str:
    return secrets.token_hex(8)


def digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def share_token(private: str, list_id: str) -> str:
    mac = hmac.new(private.encode(), b"share:" + list_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:TOKEN_BYTES]).decode()


def well_formed(token: str) -> bool:
    return bool(TOKEN.match(token))


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
