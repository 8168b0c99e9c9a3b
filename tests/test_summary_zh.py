"""The Chinese summaries (中文解读) as a chatbot wrote them: the model's remarks, emoji, its
reasoning and a cut-off end are dropped at ingest, the summary's markdown is kept and rendered
(issue 20 item 2). The examples are written here in the shapes the ICLR 2026 export has."""

from __future__ import annotations

import pytest

from paperlist.richtext import render_markdown
from paperlist.sources.summary_zh import clean

SUMMARY = """- 解决的问题是什么？（一句话）
  - 如何让模型在长文本中找到关键证据。

- 方法是什么？
  - 提出分层检索 🔍，先粗后细。
  - 用 $O(\\log n)$ 的索引定位段落。"""


@pytest.mark.parametrize("tail", [
    "\n\n（总字数：398）",
    "\n\n（共 386 字）\n\n（完）\n\n（完）\n\n（完）",
    "\n\n---  \n✅ 说明：  \n- 严格依据摘要内容，未添加外部信息。  \n- 语言通俗。",
    "\n\n> 注：所有内容均基于摘要原文，未添加额外信息，符合“通俗易懂”与“结构化总结”要求。",
    "\n\n如需转为 PPT 汇报稿或视频脚本，也可继续提供。",
    "\n\n（注：以上内容严格基于摘要信息，符合要求。）",
    "\n\n---\n✅ 最终输出如下：\n\n- 解决的问题是什么？\n  - 如何让模型在长",
    "\n\n- 创新点是什么？（相对已有工作的新意）",
])
def test_remarks_after_the_summary_are_dropped(tail: str) -> None:
    out = clean(SUMMARY + tail)
    assert out is not None
    assert out == SUMMARY.replace(" 🔍", "")            # the summary, whole, without the emoji


def test_a_preamble_and_the_models_reasoning_are_not_the_summary() -> None:
    text = ("- 1 https://github.com/example/code\n\n---\n\n" + SUMMARY)
    assert clean(text) == SUMMARY.replace(" 🔍", "")
    reasoning = "嗯，用户要求我以研究员的身份解释一篇论文，总字数控制在450字之间。\n我需要先理解摘要。\n\n"
    assert clean(reasoning + SUMMARY) == SUMMARY.replace(" 🔍", "")


def test_a_summary_cut_mid_sentence_ends_at_its_last_sentence() -> None:
    cut = "- 结论是什么？\n  - 在五个基准上优于基线。数据越多，提升越"
    assert clean(cut) == "- 结论是什么？\n  - 在五个基准上优于基线。"
    # an item with no complete sentence goes, and then its question, left without an answer
    assert clean("- 方法是什么？\n  - 提出分层检索。\n- 结论是什么？\n  - 在五个基准上") == \
        "- 方法是什么？\n  - 提出分层检索。"
    assert clean("") is None and clean(None) is None and clean("#NAME?") is None
    assert clean("- 1) 解决的问题是什么？（一句话）\n- 2) 动机是什么？") is None     # questions, no answers


def test_the_summary_renders_as_lists_with_math() -> None:
    html = str(render_markdown(clean(SUMMARY)))
    assert html.count("<ul>") == 3 and html.count("<li>") == 5     # nested lists, not one paragraph
    assert "<math" in html and "🔍" not in html
    hostile = str(render_markdown("- <script>alert(1)</script>\n- [x](javascript:alert(1))"))
    assert "<script" not in hostile and "&lt;script&gt;" in hostile and "href" not in hostile
