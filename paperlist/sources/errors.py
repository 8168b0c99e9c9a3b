"""The error of a whole input file."""

from __future__ import annotations


class SourceError(Exception):
    """A whole file cannot be read; the message is one line and names the problem."""
