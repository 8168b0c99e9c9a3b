"""Extracting UI strings and keeping the catalogs in step with the code.

``python -m paperlist.web.i18n`` extracts every string marked in the templates (``{{ _("…") }}``,
``{% trans %}``) and in the Python of paperlist/web and paperlist/service (``_()``, ``N_()``,
``ngettext()``: the service's error messages are shown on pages), merges them into
each language's .po (new English entries get their msgid as translation; new Chinese ones are left
empty and reported), and prints what still needs a translation. Tests call ``untranslated()``.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import LANGS, po_path

WEB_DIR = Path(__file__).resolve().parent.parent
SERVICE_DIR = WEB_DIR.parent / "service"
_METHODS = [("templates/**.html", "jinja2"), ("**.py", "python")]
_OPTIONS = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
_KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}


def extract() -> Catalog:
    """Every UI string in paperlist/web, as a template catalog."""
    cat = Catalog(project="paperlist", charset="utf-8")
    for root, prefix in ((WEB_DIR, ""), (SERVICE_DIR, "../service/")):
        for filename, lineno, message, comments, context in extract_from_dir(
                root, _METHODS, _OPTIONS, _KEYWORDS, strip_comment_tags=True):
            cat.add(message, None, [(prefix + filename, lineno)], auto_comments=comments, context=context)
    return cat


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def untranslated(lang: str) -> list[str]:
    """msgids used by the code that the language's catalog lacks, leaves empty, or marks fuzzy."""
    cat = read(lang)
    missing = []
    for msg in extract():
        if not msg.id:
            continue
        have = cat.get(msg.id)
        strings = have.string if have else None
        empty = not strings or (isinstance(strings, tuple) and not all(strings))
        if have is None or empty or have.fuzzy:
            missing.append(msg.id if isinstance(msg.id, str) else msg.id[0])
    return missing


def update() -> dict[str, list[str]]:
    """Merge the extracted strings into every catalog; returns what each still lacks."""
    template = extract()
    for lang in LANGS:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        cat = read(lang) if path.exists() else Catalog(locale=lang, project="paperlist", charset="utf-8")
        cat.update(template, no_fuzzy_matching=True)
        cat.fuzzy = False
        if lang == "en":
            for msg in cat:
                if (msg.id and isinstance(msg.id, tuple) and not all(msg.string or ())
                        or msg.id and not msg.string):
                    msg.string = msg.id
        cat.obsolete.clear()
        with path.open("wb") as f:
            write_po(f, cat, width=100, sort_output=True, include_previous=False)
    return {lang: untranslated(lang) for lang in LANGS}


def main() -> None:
    for lang, missing in update().items():
        print(f"{lang}: {len(missing)} untranslated")
        for m in missing:
            print(f"  {m!r}")


if __name__ == "__main__":
    main()
