"""Curated reading lists ("awesome" lists): which papers the field's own lists include, and under which
headings. Not a paper source: the lists' entries are matched to the papers we hold (match.py), and
that evidence ranks and is shown (the index's prior and ``listed`` field, the paper page)."""
