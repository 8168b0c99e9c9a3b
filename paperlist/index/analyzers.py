"""Text analyzers shared by the index (at build time) and the query side (to pre-tokenize terms).

Both sides must tokenize identically, so the analyzers are defined once, here:

- ``en``: simple tokenizer (runs of letters and digits), lower case, ASCII folding, English
  (Porter/Snowball) stemming. For title, abstract and keywords: "networks" finds "network".
- ``words``: the same without stemming. For author names (stemming "Williams" to "william" or
  "Zhou" to anything would be wrong) and for an unstemmed copy of the title whose vocabulary
  gives "did you mean" suggestions and search-as-you-type completions in real words.

Tokens longer than 40 characters (base64 junk, URLs) are dropped. Stop words are kept in the
index, so exact titles such as "Attention Is All You Need" and quoted phrases still match; the
query side decides when to ignore them.
"""

from __future__ import annotations

import re
from functools import lru_cache

import tantivy
from tantivy import Filter, TextAnalyzer, TextAnalyzerBuilder, Tokenizer

MAX_TOKEN_CHARS = 40

# tantivy's built-in English stop word list, as a set for the query side.
STOP_WORDS = frozenset(["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into",
                        "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
                        "there", "these", "they", "this", "to", "was", "will", "with"])


@lru_cache(maxsize=1)
def en() -> TextAnalyzer:
    return (TextAnalyzerBuilder(Tokenizer.simple()).filter(Filter.remove_long(MAX_TOKEN_CHARS))
            .filter(Filter.lowercase()).filter(Filter.ascii_fold()).filter(Filter.stemmer("english")).build())


@lru_cache(maxsize=1)
def words() -> TextAnalyzer:
    return (TextAnalyzerBuilder(Tokenizer.simple()).filter(Filter.remove_long(MAX_TOKEN_CHARS))
            .filter(Filter.lowercase()).filter(Filter.ascii_fold()).build())


def register(index: tantivy.Index) -> None:
    """Register our analyzers on an index (needed for writing, and for tantivy-side snippets)."""
    index.register_tokenizer("en", en())
    index.register_tokenizer("words", words())


# The English stemmer merges the -alize family with unrelated words: "personalization" and
# "person", "localization" and "local", "normalization" and "normal", "visualization" and
# "visual". Such words are rewritten before stemming, in the index's stemmed fields and in queries
# alike, to a form of their own that the family shares ("personalized" -> "personalizat").
_ALIZE = re.compile(r"\b([^\W\d_]{2,}al)i[sz](?:e|es|ed|ing|ation|ations|er|ers)\b", re.IGNORECASE)


def protect(text: str) -> str:
    """``text`` with the words the stemmer would merge wrongly rewritten (see _ALIZE)."""
    return _ALIZE.sub(r"\1izat", text) if "ali" in text.lower() else text


_COMPOUND = re.compile(r"[^\W_]+(?:-[^\W_]+)+")


def hyphen_pairs(text: str) -> list[tuple[str, str]]:
    """The stems of each two words a hyphen joins in ``text``, in order: "Text-to-Image" gives
    (text, to) and (to, imag). In a title, the later word of such a pair is part of a compound
    ("Vision-Language Models" are not "language models")."""
    out = []
    for m in _COMPOUND.finditer(text):
        stems = [stem(p) for p in m.group(0).split("-")]
        out += [(a, b) for a, b in zip(stems, stems[1:], strict=False) if a and b]
    return out


def joined_tokens(text: str) -> list[tuple[str, bool]]:
    """``word_tokens`` of a text, each with whether a hyphen joins it to the next ("In-Context
    Learning": (in, True), (context, False), (learning, False))."""
    if "-" not in text:
        return [(w, False) for w in word_tokens(text)]
    out: list[tuple[str, bool]] = []
    at = 0
    for m in _COMPOUND.finditer(text):
        out += [(w, False) for w in word_tokens(text[at:m.start()])]
        parts = word_tokens(m.group(0))
        out += [(w, i < len(parts) - 1) for i, w in enumerate(parts)]
        at = m.end()
    return out + [(w, False) for w in word_tokens(text[at:])]


def en_tokens(text: str) -> list[str]:
    """``en`` tokens of a text, as the index's stemmed fields have them."""
    return en().analyze(protect(text))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The ``en`` form of one word ("Networks" -> "network"); "" when it has no token."""
    toks = en_tokens(word)
    return toks[0] if toks else ""


def content_stems(text: str) -> list[str]:
    """The stems of a text's words without its stop words, as a query's content words are."""
    return [x for x in (stem(w) for w in word_tokens(text) if w not in STOP_WORDS) if x]


def word_tokens(text: str) -> list[str]:
    """``words`` tokens of a text (lower case, folded, unstemmed)."""
    return words().analyze(text)


# words (and stems: they are their own) that papers write alike though neither stemming nor
# number joins them: "Generative Adversarial Nets" is the paper "generative adversarial networks"
# means; each maps to the form the pair shares (search/variants.py, index/pioneers.py)
ALIKE: dict[str, str] = {"net": "network"}


@lru_cache(maxsize=8192)
def number_forms(word: str) -> tuple[str, ...]:
    """The word and its singular or plural, where both have the same stem ("model", "models";
    "strategy", "strategies"); the stem check keeps "news" from "new"."""
    if len(word) < 3 or not word.isalpha():
        return (word,)
    if word.endswith("ies"):
        cands = [word[:-3] + "y"]
    elif word.endswith(("ches", "shes", "xes", "sses")):
        cands = [word[:-2]]
    elif word.endswith("s") and not word.endswith("ss"):
        cands = [word[:-1]]
    elif word.endswith("y") and word[-2:-1] not in "aeiou":
        cands = [word[:-1] + "ies"]
    elif word.endswith(("ch", "sh", "x", "ss")):
        cands = [word + "es"]
    else:
        cands = [word + "s"]
    own = stem(word)
    return (word, *(c for c in cands if c != word and stem(c) == own))
