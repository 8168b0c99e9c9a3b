"""Chinese queries: AI terms translated to English with our glossary (glossary.tsv).

The corpus is English, so ``扩散模型 图像编辑`` is searched as ``diffusion model image editing``.
Traditional characters are folded to simplified first (擴散模型 = 扩散模型), full-width forms to
ASCII; each run of Chinese characters is then translated greedily, longest glossary entry first
(大语言模型 before 语言模型 before 模型). Latin text is kept as typed, so mixed queries such as
``Transformer 剪枝`` work. Field values (``author:张伟``) are left alone, and characters no entry
covers are dropped and reported, never silently searched as noise.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from .model import Translated

# Simplified + traditional pairs for the characters of our glossary (and a few common function
# words): enough to fold traditional input onto the glossary's simplified keys.
_PAIRS = (
    "与與专專个個临臨为為么麼义義乐樂习習于於云雲价價优優会會传傳伦倫伪偽侦偵体體关關冲衝决決准準击擊"
    "划劃别別务務动動励勵势勢区區医醫协協单單卖賣历歷压壓参參双雙发發变變叶葉号號后後启啟员員响響图圖"
    "场場声聲处處复復奖獎学學实實对對导導尔爾层層库庫应應开開异異张張强強归歸征徵径徑忆憶态態户戶扩擴"
    "护護报報拟擬择擇损損换換据據敛斂数數断斷无無时時显顯机機杂雜权權极極构構标標树樹样樣检檢气氣汇匯"
    "泼潑测測溅濺满滿滤濾潜潛灵靈灾災点點状狀狱獄环環现現电電疗療监監码碼础礎确確离離种種积積签簽类類"
    "红紅约約级級纳納线線练練组組细細终終经經结結络絡统統绪緒续續维維综綜编編缩縮网網联聯脉脈脑腦脸臉"
    "节節荐薦药藥虚虛补補见見规規视視觉覺计計认認训訓记記论論设設证證评評识識词詞译譯试試话話语語误誤"
    "说說读讀调調谣謠谱譜贝貝质質资資赌賭踪蹤车車轨軌转轉轮輪轻輕辆輛辐輻辑輯输輸达達迁遷过過运運连連"
    "迹跡适適选選递遞逻邏遗遺采採释釋链鏈长長门門问問间間阅閱队隊阵陣阶階随隨隐隱难難雾霧预預领領频頻"
    "风風馈饋馏餾马馬驶駛驾駕验驗鲁魯鸟鳥齐齊们們这這来來里裡台臺几幾着著误誤侧側"
)
_TO_SIMPLIFIED = {_PAIRS[i + 1]: _PAIRS[i] for i in range(0, len(_PAIRS), 2)}
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_FIELD_VALUE = re.compile(r"[A-Za-z_]+:(?:\"[^\"]*\"?|\S+)")
_PUNCT = str.maketrans({"，": " ", "。": " ", "、": " ", "；": " ", "：": ":", "（": " ", "）": " ",
                        "？": " ", "！": " ", "“": '"', "”": '"', "《": " ", "》": " ", "·": " "})


@dataclass(slots=True)
class Translation:
    query: str                                   # what is searched
    terms: list[tuple[str, str]] = field(default_factory=list)   # (Chinese as typed, English)
    unknown: list[str] = field(default_factory=list)             # Chinese runs no entry covered

    @property
    def changed(self) -> bool:
        return bool(self.terms or self.unknown)

    def to_dict(self, original: str) -> Translated:
        return {"from": original, "to": self.query, "terms": [{"zh": z, "en": e} for z, e in self.terms],
                "unknown": self.unknown}


@lru_cache(maxsize=1)
def glossary() -> dict[str, str]:
    """Simplified Chinese term -> English words ('' = drop), from glossary.tsv."""
    out: dict[str, str] = {}
    text = resources.files("paperlist.search").joinpath("glossary.tsv").read_text("utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        zh, _, en = line.partition("\t")
        out[to_simplified(zh.strip())] = en.strip()
    return out


@lru_cache(maxsize=1)
def _max_len() -> int:
    return max(len(k) for k in glossary())


def to_simplified(text: str) -> str:
    return "".join(_TO_SIMPLIFIED.get(c, c) for c in text)


def has_chinese(text: str) -> bool:
    return bool(_CJK.search(text or ""))


def translate(q: str) -> Translation:
    """The query with its Chinese terms in English (unchanged when it has no Chinese)."""
    if not has_chinese(q):
        return Translation(q)
    norm = unicodedata.normalize("NFKC", q.translate(_PUNCT))
    out = Translation("")
    parts: list[str] = []
    pos = 0
    for m in _FIELD_VALUE.finditer(norm):           # field values are kept verbatim
        parts.append(_translate_text(norm[pos:m.start()], out))
        parts.append(f" {m.group(0)} ")
        pos = m.end()
    parts.append(_translate_text(norm[pos:], out))
    out.query = " ".join("".join(parts).split())
    return out


def _translate_text(text: str, out: Translation) -> str:
    def run(m: re.Match[str]) -> str:
        en = _translate_run(m.group(0), out)
        # a space only where the neighbour is a word: `-综述` -> `-survey`,
        # `"对比学习"` -> `"contrastive learning"`
        before = " " if m.start() > 0 and text[m.start() - 1].isalnum() else ""
        after = " " if m.end() < len(text) and text[m.end()].isalnum() else ""
        return before + en + after
    return _CJK.sub(run, text)


def _translate_run(typed: str, out: Translation) -> str:
    """Greedy longest-match translation of one run of Chinese characters."""
    gl = glossary()
    s = to_simplified(typed)
    words: list[str] = []
    unknown = ""
    i = 0
    while i < len(s):
        for n in range(min(_max_len(), len(s) - i), 0, -1):
            en = gl.get(s[i:i + n])
            if en is not None:
                if unknown:
                    out.unknown.append(unknown)
                    unknown = ""
                if en:
                    words.append(en)
                    out.terms.append((typed[i:i + n], en))
                i += n
                break
        else:
            unknown += typed[i]
            i += 1
    if unknown:
        out.unknown.append(unknown)
    return " ".join(words)
