"""Chinese summaries (中文解读) as a chatbot wrote them -> the summary alone.

The ICLR 2026 export's ``explain_zh`` is a language model's answer: a markdown list of question
and answer, then often its own remarks about the answer — a word count ("（共 386 字）",
"（总字数：398）"), an end mark repeated ("（完）" twenty times), a note that it met the brief
("✅ 说明：本总结已满足…", "> 注：所有内容均基于摘要原文…"), an offer ("如需转为 PPT 汇报稿或视频
脚本，也可继续提供。") — and emoji that many fonts draw as a box. Some answers stop mid-sentence
(the model ran out of tokens). ``clean`` keeps the markdown of the summary itself, drops those
remarks and the emoji, and ends the text at its last complete sentence.
"""

from __future__ import annotations

import re

# A line that is a remark, not summary: a word count, a rule ("---"), a line starting with a check
# mark, a note, an end mark, an offer. Remarks separate the summary from what the model added
# around it (often the summary again, cut off: "✅ 最终输出如下：…").
_BOUNDARY = re.compile(
    r"^\s*(?:"
    r"[（(]\s*(?:约|共|总字数|总计|全文|字数)[^）)]{0,24}[）)]"            # （共 386 字） （总字数：398）
    r"|[（(][^）)]{0,30}(?:校验|要求|输出)[^）)]{0,30}[）)]"                  # （最终输出已通过校验…）
    r"|[（(]\s*(?:注|备注|说明)\s*[:：]"                                   # （注：以上内容…）
    r"|(?:嗯|好的|首先|接下来|让我|我需要|我应该|我得|用户(?:要求|希望|提供|特别|需要))"  # its reasoning
    r"|[（(]\s*完\s*[）)]"                                                  # （完）
    r"|-{3,}|\*{3,}|_{3,}"                                                   # ---
    r"|[\u2705\u2714\u2611]"                                              # ✅ ✔ ☑
    r"|>?\s*(?:注|备注|说明|提示)\s*[:：]"                                   # > 注：  说明：
    r"|.*(?:如需|如果需要|若需要|需要的话).*(?:提供|转为|生成|调整|优化|告诉我)"
    r"|(?:以上|本)(?:总结|内容|输出).*(?:满足|符合|基于|遵循)"
    r")")
# Emoji and pictographs (🔍 ✨ …), and the joiners and selectors that build them.
_EMOJI = re.compile(" ?[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D\u20E3]+")
_SENTENCE_END = "。！？!?.…）)」』”\"：:；;"
# A question heading ("- **5) 创新点是什么？**（相对已有工作的新意）"), as a last line: its answer is missing.
_QUESTION = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?[^。！!]*[？?]\s*(?:[（(][^）)]*[）)])?"
                       r"\s*(?:\*\*)?[:：]?\s*$")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


_CJK = re.compile(r"[\u4e00-\u9fff]")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.+?)\s*#*\s*$")        # "### 结构化总结：" -> bold


def clean(text: str | None) -> str | None:
    """The summary without the model's remarks, emoji or a cut-off last sentence; None if
    nothing is left. The text is cut at every remark line; of the pieces, the summary is the one
    with the most list items, then the most Chinese (the summary is a list; a preamble of links,
    the model's reasoning or a remark section is prose)."""
    if not text:
        return None
    pieces: list[list[str]] = [[]]
    for line in text.replace("\r\n", "\n").split("\n"):
        if _BOUNDARY.match(line):
            pieces.append([])
        else:
            pieces[-1].append(_HEADING.sub(r"**\1**", _EMOJI.sub("", line).rstrip()))
    kept = max(pieces, key=lambda lines: (sum(bool(_LIST_MARK.match(x)) for x in lines),
                                          len(_CJK.findall("".join(lines)))))
    _trim(kept)
    if kept:
        kept[-1] = _complete(kept[-1])
        _trim(kept)
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
    return out or None


def _trim(lines: list[str]) -> None:
    """Drop trailing blank lines and a last question left without its answer ("5) 创新点是什么？")."""
    while lines and (not lines[-1].strip() or _QUESTION.match(lines[-1])):
        lines.pop()


def _complete(line: str) -> str:
    """The line up to its last complete sentence (a line already ending one is kept whole; a
    list item or line with no sentence end at all is dropped)."""
    body = line.rstrip()
    if not body or body[-1] in _SENTENCE_END:
        return line
    cut = max(body.rfind(c) for c in "。！？!?；;")
    if cut < 0 or (m := _LIST_MARK.match(body)) and cut < m.end():
        return ""
    return body[:cut + 1]
