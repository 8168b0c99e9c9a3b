"""Institution and country names folded so that one place counts once.

Sources write one institution many ways ("MIT", "Massachusetts Institute of Technology";
"Shanghai Jiaotong University", "Shanghai Jiao Tong University"; "School of Computer Science,
Carnegie Mellon University"; "ETHZ - ETH Zurich"). ``institution_key`` folds a name in four steps:

1. accents, case, punctuation, "&" and a leading "The" are ignored, and "at" between words
   ("University of Texas at Austin" = "University of Texas, Austin");
2. a department, school, faculty or institute written before its parent ("Institute of
   Automation, Chinese Academy of Sciences") yields to the parent, and a trailing country or
   city yields to the institution ("Stanford University, USA"), except where the part after the
   comma names a campus ("University of California, Berkeley");
3. a company is its name, whatever the lab ("Google Research", "Microsoft Research Asia",
   "Huawei Noah's Ark Lab"; Google DeepMind stays apart from Google);
4. known variants and abbreviations map to one name (names.toml).

The display name of a folded institution is the alias's, or else the form sources write most.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from importlib import resources

_NAMES = tomllib.loads(resources.files(__package__).joinpath("names.toml").read_text(encoding="utf-8"))
_COMPANIES: list[tuple[str, str]] = [(k, v) for k, v in _NAMES["companies"]]
_ALIASES: dict[str, str] = _NAMES["aliases"]
_COUNTRY_ALIASES: dict[str, str] = _NAMES["countries"]

# A name part before a comma that is a unit of what follows ("School of CS, CMU").
_UNIT = re.compile(r"^(department|dept|school|faculty|college of|institute of|lab|laboratory|laboratories|"
                   r"center|centre|division|graduate school|key laboratory|state key|research center|"
                   r"computer science|electrical|cs|eecs|csail)\b")
_ORG = re.compile(r"\b(university|universit[aäéy]|institute|college|academy|school|polytechnic|"
                  r"inc|ltd|corporation|laboratory|lab|labs|research|centre|center|hospital|foundation)\b")
# First segments whose campus after a comma is part of the name.
_CAMPUS_PARENTS = re.compile(r"^(university of california|university of illinois|university of texas|"
                             r"university of maryland|university of massachusetts|university of wisconsin|"
                             r"university of north carolina|university of colorado|university of minnesota|"
                             r"university of michigan|chinese university of hong kong|university of missouri|"
                             r"state university of new york|city university of new york|indiana university|"
                             r"purdue university|rutgers)")

# The University of California's campuses: "UC X", "UCX" and the acronyms are "University of
# California, X" (issue 44: one person was "UC Santa Cruz" on some papers and the long form on others).
_UC_CAMPUSES = {"berkeley": "Berkeley", "davis": "Davis", "irvine": "Irvine", "los angeles": "Los Angeles",
                "merced": "Merced", "riverside": "Riverside", "san diego": "San Diego",
                "san francisco": "San Francisco", "santa barbara": "Santa Barbara",
                "santa cruz": "Santa Cruz"}
_UC_ACRONYMS = {"ucb": "berkeley", "ucd": "davis", "uci": "irvine", "ucla": "los angeles", "ucm": "merced",
                "ucr": "riverside", "ucsd": "san diego", "ucsf": "san francisco", "ucsb": "santa barbara",
                "ucsc": "santa cruz"}
_UC = re.compile(r"^(?:uc|u c|univ of california|university of california)\s+(?:at\s+)?(" +
                 "|".join(_UC_CAMPUSES) + r")(?:\s+(" + "|".join(_UC_ACRONYMS) + r"))?$")


def _uc(key: str) -> str | None:
    """The display name of a UC campus written any of its ways, or None."""
    campus = _UC_ACRONYMS.get(key)
    if campus is None and (m := _UC.match(key)):
        campus = m.group(1)
    return f"University of California, {_UC_CAMPUSES[campus]}" if campus else None


_NOT_A_COUNTRY = {"unknown", "n a", "na", "none", ""}
_KNOWN_COUNTRIES = {
    "united states", "china", "united kingdom", "germany", "singapore", "south korea", "canada", "australia",
    "japan", "france", "switzerland", "india", "italy", "netherlands", "israel", "sweden", "austria", "spain",
    "united arab emirates", "denmark", "belgium", "finland", "czech republic", "vietnam", "poland", "turkiye",
    "new zealand", "russian federation", "brazil", "norway", "saudi arabia", "greece", "ireland",
    "luxembourg", "portugal", "iran", "south africa", "pakistan", "romania", "chile", "estonia", "malaysia",
    "egypt", "taiwan", "hong kong", "qatar", "mexico", "argentina", "hungary", "thailand", "indonesia",
}


def fold(text: str) -> str:
    """Accents, case, punctuation and '&' ignored; words joined by single spaces."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(ch for ch in t if not unicodedata.combining(ch)).casefold()
    t = t.replace("&", " and ").replace("’", "").replace("'", "")
    return " ".join(re.sub(r"[^\w]+", " ", t).replace("_", " ").split())


def _key(part: str) -> str:
    k = fold(part)
    k = re.sub(r"^the ", "", k)
    return re.sub(r" at ", " ", f" {k} ").strip()


def _is_country(part: str) -> bool:
    k = fold(part)
    return k in _KNOWN_COUNTRIES or k in _COUNTRY_ALIASES


def institution_key(name: str) -> tuple[str, str, bool]:
    """(folded key, display name, whether an alias or company rule fixed that name) of an
    institution as a source writes it; ("", "", False) for an empty name. Where nothing fixed the
    name, callers show the form written most often."""
    parts = [p.strip() for p in re.split(r"\s*[,;]\s*|\s+-\s+", name) if p.strip()]
    while len(parts) > 1 and _is_country(parts[-1]):
        parts.pop()
    whole = _key(" ".join(parts))
    if whole in _ALIASES:
        return _key(_ALIASES[whole]), _ALIASES[whole], True
    while len(parts) > 1 and _UNIT.match(fold(parts[0])) and any(
            _ORG.search(fold(p)) or _key(p) in _ALIASES for p in parts[1:]):   # "CSAIL, MIT" too
        parts.pop(0)
    if len(parts) > 1 and not _CAMPUS_PARENTS.match(_key(parts[0])) and _ORG.search(fold(parts[0])):
        parts = parts[:1]
    display = ", ".join(parts)
    key = _key(display)
    if not key:
        return "", "", False
    if key in _ALIASES:
        return _key(_ALIASES[key]), _ALIASES[key], True
    if uc := _uc(key) or _uc(_key(parts[-1])):
        return _key(uc), uc, True
    for prefix, company in _COMPANIES:
        if key == prefix or key.startswith(prefix + " "):
            return _key(company), company, True
    return key, display, False


def country(name: str) -> str | None:
    """A country as papercopilot writes it, folded ("USA" = "United States"); None for Unknown."""
    k = fold(name)
    if k in _NOT_A_COUNTRY or len(k) > 60:
        return None
    return _COUNTRY_ALIASES.get(k) or " ".join(name.split())
