"""Citations of papers in the styles people ask for: CSL styles rendered by citeproc-py (``styles``),
from CSL-JSON made of our merged fields (``csl``), and RIS records written by rispy (``ris``).
BibTeX stays in ``paperlist.citation`` (the source's own entry when it parses)."""

from .styles import STYLES, Style, cite, cite_many

__all__ = ["STYLES", "Style", "cite", "cite_many"]
