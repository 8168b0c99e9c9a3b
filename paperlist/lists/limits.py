"""How much one private link may hold: refused with a clear 4xx beyond these (``ListFull`` 409,
``BadListInput`` 400). The request rate per client is the site's (web/limits.py)."""

from __future__ import annotations

MAX_LISTS = 50               # lists per private link
MAX_ITEMS = 5_000            # papers per list
MAX_NOTE = 4_000             # characters of a note
MAX_NAME = 120               # characters of a list's name
MAX_SEEN = 200_000           # papers marked seen per private link (a whole corpus year is ~30k)
MAX_IMPORT = 2_000           # entries read from one imported file
