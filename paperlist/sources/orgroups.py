"""Groupings of a conference's papers by OpenReview id (alickzhu/icml2026-papers: ICML 2026):

* ``categories.json``: a list of ``{name, count, oral_count, paper_ids: [OpenReview ids], …}``:
  34 topic categories with Chinese names ("LLM 推理与思维链"), each paper in one;
* ``orgs.json``: a list of ``{name, type, paper_count, lead_paper_ids, papers_by_category}``: the
  institutions of the papers' authors ("lead" = the first author's), without the authors.

Neither file has titles: each row becomes an *annotation* of the paper whose OpenReview id it
names (``Record.annotation``), which the merge attaches to the paper another source lists
(ai-top-conf-jsons for ICML 2026) and never shows as a paper of its own. Categories become
keywords, in English (our own translation below, so that search and the topic assignment read
them; the Chinese name stays in ``extra``); institutions become the paper's ``institutions``, the
lead institution first. Venue and year come from the folder (``icml2026/categories.json``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..text import clean
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile

_FOLDER = re.compile(r"([a-z]+)[-_]?((?:19|20)\d{2})[/\\][^/\\]*$", re.I)
_FORUM_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")

# The categories' names in English (ours): search, facets and the topic assignment read English.
CATEGORIES_EN = {
    "优化与学习理论": "optimization and learning theory",
    "AI for Science": "AI for science",
    "LLM 推理与思维链": "LLM reasoning and chain of thought",
    "AI 安全与对抗": "AI safety and adversarial robustness",
    "LLM 智能体与工具使用": "LLM agents and tool use",
    "LLM 推理加速": "LLM inference acceleration",
    "扩散与流模型": "diffusion and flow models",
    "RLHF 与对齐": "RLHF and alignment",
    "强化学习": "reinforcement learning",
    "可解释性": "interpretability",
    "多模态 LLM": "multimodal LLMs",
    "模型架构与注意力": "model architectures and attention",
    "表征学习与自监督": "representation learning and self-supervised learning",
    "贝叶斯与概率方法": "Bayesian and probabilistic methods",
    "隐私与联邦学习": "privacy and federated learning",
    "LLM 预训练与 Scaling": "LLM pre-training and scaling laws",
    "机器人与具身智能": "robotics and embodied AI",
    "图学习与 GNN": "graph learning and graph neural networks",
    "视觉理解与检测": "visual understanding and object detection",
    "时间序列与预测": "time series forecasting",
    "视觉-语言模型": "vision-language models",
    "医疗 AI": "medical AI",
    "图像生成": "image generation",
    "代码生成": "code generation",
    "持续学习": "continual learning",
    "3D 生成与重建": "3D generation and reconstruction",
    "离线强化学习与世界模型": "offline reinforcement learning and world models",
    "视频生成": "video generation",
    "因果推断": "causal inference",
    "公平性与偏见": "fairness and bias",
    "长上下文与记忆": "long context and memory",
    "上下文学习与提示": "in-context learning and prompting",
    "语音与音频": "speech and audio",
    "检索增强生成 (RAG)": "retrieval-augmented generation (RAG)",
}


class OrGroupsReader:
    name = "orgroups"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        return self._layout(src) is not None

    @staticmethod
    def _layout(src: SourceFile) -> str | None:
        head = src.data[:4096].lstrip()
        if not head.startswith(b"["):
            return None
        if b'"paper_ids"' in head and b'"name"' in head and b'"title"' not in head:
            return "categories"
        if b'"lead_paper_ids"' in head and b'"name"' in head:
            return "orgs"
        return None

    def file_key(self, src: SourceFile) -> str:
        venue, year = _venue_year(src)
        return f"orgroups:{venue}{year}-{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        layout = self._layout(src)
        if layout is None:
            raise SourceError("not a categories or institutions list (a JSON list with 'paper_ids' or "
                              "'lead_paper_ids')")
        venue, year = _venue_year(src)
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
        if not isinstance(data, list):
            raise SourceError("expected a JSON list")
        fkey = self.file_key(src)
        col = Collector()
        rows = _categories(data, col) if layout == "categories" else _orgs(data, col)
        for pid, facts in rows.items():
            col.add(f"paper {pid}", partial(
                nz.record, source=self.name, file=fkey, key=pid, venue=venue, year=year, title="", authors=[],
                ids={"openreview": pid}, annotation=True, **facts))
        return col.out


def _ids(value: object) -> list[str]:
    return [x for x in value
            if isinstance(x, str) and _FORUM_ID.fullmatch(x)] if isinstance(value, list) else []


def _categories(data: list[Any], col: Collector) -> dict[str, dict[str, Any]]:
    """OpenReview id -> keywords (the category in English) and the Chinese name."""
    out: dict[str, dict[str, Any]] = {}
    for i, c in enumerate(data):
        name = clean(c.get("name")) if isinstance(c, dict) else ""
        if not name:
            col.skip(f"category {i}", "no name" if isinstance(c, dict) else "expected an object")
            continue
        ids = _ids(c.get("paper_ids"))
        if not ids:
            col.skip(f"category {i}", f"{name!r} lists no OpenReview ids")
        en = CATEGORIES_EN.get(name, name)
        for pid in ids:
            facts = out.setdefault(pid, {"keywords": [], "extra": {"categories_zh": []}})
            if en not in facts["keywords"]:
                facts["keywords"].append(en)
                facts["extra"]["categories_zh"].append(name)
    return out


def _orgs(data: list[Any], col: Collector) -> dict[str, dict[str, Any]]:
    """OpenReview id -> institutions: the lead (first author's) institution first, then the others
    by how many of the conference's papers they have."""
    papers: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for i, o in enumerate(data):
        name = clean(o.get("name")) if isinstance(o, dict) else ""
        if not name:
            col.skip(f"institution {i}", "no name" if isinstance(o, dict) else "expected an object")
            continue
        lead = set(_ids(o.get("lead_paper_ids")))
        by_cat = o.get("papers_by_category")
        members = set(lead)
        if isinstance(by_cat, dict):
            for ids in by_cat.values():
                members.update(_ids(ids))
        size = o.get("paper_count") if isinstance(o.get("paper_count"), int) else len(members)
        for pid in members:
            papers[pid].append((0 if pid in lead else 1, -size, name))
    out: dict[str, dict[str, Any]] = {}
    for pid, rows in papers.items():
        rows.sort()
        out[pid] = {"institutions": [n for _, _, n in rows],
                    "extra": {"lead_institution": rows[0][2]} if rows[0][0] == 0 else {}}
    return out


def _venue_year(src: SourceFile) -> tuple[str, int]:
    m = _FOLDER.search(src.name)
    if not m:
        raise SourceError("cannot tell the venue and year: expected the file in a <venue><year> folder "
                          "(e.g. icml2026/categories.json)")
    return venues.canonical(m.group(1)), int(m.group(2))
