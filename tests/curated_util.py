"""A folder of curated reading lists laid out as ../shared/data/curated-lists is (MANIFEST.tsv,
TOPICS.tsv, ``<owner>+<repo>/README.md.gz``), written from markdown that a test gives."""

from __future__ import annotations

import gzip
from pathlib import Path

# Two lists over papers of tests/fixtures/papercopilot: ids (ACL Anthology, OpenReview) and titles.
FIXTURE_LISTS = {
    "someone/awesome-zero-shot": """# Awesome Zero-Shot Learning

## Zero-Shot Text Classification

- **Learn to Adapt for Generalized Zero-Shot Text Classification.** ACL 2022.
  [paper](https://aclanthology.org/2022.acl-long.39.pdf)

## Representations

- [Controllable Concept Transfer of Intermediate Representations](https://openreview.net/forum?id=UvziTI2JGP7)
- [A Paper We Do Not Hold At All](https://arxiv.org/abs/2101.00001)
""",
    "other/robust-regression-papers": """# Robust Regression

| Title | Venue | Link |
|---|---|---|
| $\\ell_1$-regression with Heavy-tailed Distributions | NeurIPS 2018 | [pdf](https://example.org/x.pdf) |
| Learn to Adapt for Generalized Zero-Shot Text Classification | ACL 2022 | [code](https://github.com/x/y) |
""",
}


def write_lists(root: Path, lists: dict[str, str] | None = None,
                kind_topics: dict[str, str] | None = None) -> Path:
    """Write the lists (name -> README markdown) under ``root``/curated-lists; returns that folder."""
    lists = FIXTURE_LISTS if lists is None else lists
    folder = root / "curated-lists"
    folder.mkdir(parents=True, exist_ok=True)
    manifest = ["repo\tcommit\tcommit_date\tlicense\tfiles_copied\tpaper_entries"]
    topics = ["repo\ttopic"]
    for name, text in lists.items():
        d = folder / name.replace("/", "+", 1)
        d.mkdir(parents=True, exist_ok=True)
        (d / "README.md.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
        manifest.append(f"{name}\t{'a' * 40}\t2026-01-02T03:04:05+00:00\tMIT License\tREADME.md\t0")
        topics.append(f"{name}\t{(kind_topics or {}).get(name, 'testing')}")
    (folder / "MANIFEST.tsv").write_text("\n".join(manifest) + "\n", encoding="utf-8")
    (folder / "TOPICS.tsv").write_text("\n".join(topics) + "\n", encoding="utf-8")
    return folder
