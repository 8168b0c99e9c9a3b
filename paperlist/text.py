"""Text cleanup shared by every source: entity decoding, whitespace, LaTeX/markdown to plain text,
and the folded keys used to match titles and names across sources."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

_WS = re.compile(r"\s+")
_NON_ALNUM = re.compile(r"[\W_]+")
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u200c\u200d\ufeff]")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]{1,31});")


def clean(value: object) -> str:
    """Decode HTML entities (sources sometimes double-encode them), drop control characters,
    fold whitespace and normalize to NFC. Non-strings become ""."""
    if not isinstance(value, str):
        return ""
    s = value
    if s.isascii() and s.isprintable() and "&" not in s and "  " not in s:
        return s.strip()          # the common case, without regexes
    for _ in range(3):          # "&amp;#x27;" -> "&#x27;" -> "'"
        if "&" not in s or not _ENTITY.search(s):
            break
        s = html.unescape(s)
    s = _CTRL.sub("", s)
    s = _WS.sub(" ", s).strip()
    return unicodedata.normalize("NFC", s)


def clean_multiline(value: object) -> str:
    """Like clean() but keeps paragraph breaks (for abstracts and summaries)."""
    if not isinstance(value, str):
        return ""
    paras = [clean(p) for p in re.split(r"\n\s*\n", value.replace("\r\n", "\n"))]
    return "\n\n".join(p for p in paras if p)


def fold(s: str) -> str:
    """ASCII-fold: strip accents and compatibility forms ("Jérémy" -> "Jeremy", "ℓ" -> "l")."""
    if s.isascii():
        return s
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


_ACCENTED = re.compile("[\u00c0-\u024f\u1e00-\u1eff]")     # Latin letters with diacritics


def has_accents(text: str) -> bool:
    """True when ``text`` has Latin letters with diacritics (which search highlighting folds).
    Unicode's quick check comes first: a text that NFKD leaves alone has none to fold, and
    answering that is 4x faster than scanning for the letters (abstracts with curly quotes and
    dashes are not ASCII, yet have no accents)."""
    return (not text.isascii() and not unicodedata.is_normalized("NFKD", text)
            and _ACCENTED.search(text) is not None)


_LATEX_HINT = re.compile(r"[\\$]")
# "*k*NN" is emphasis in CommonMark (a closing "*" may touch a word), "2*3*4" and "A* search" are not
# (an opening "*" may not follow a word character).
_MD_EMPH = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\*)")
_STYLE = re.compile(r"\\(?:text(?:bf|it|sc|tt|rm|sf|normal|up)?|emph|math(?:bf|rm|cal|bb|it|sf|tt|frak|scr)|"
                    r"operatorname|boldsymbol|bm|underline|hat|tilde|bar|vec|widehat|widetilde|overline|"
                    r"mbox|hbox|textsuperscript|textsubscript)\b\s*")
_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_DROP = re.compile(r"\\(?:cite[pt]?|ref|eqref|label|footnote|vspace|hspace)\*?\s*(?:\[[^\]]*\])?\{[^{}]*\}")
_URL = re.compile(r"\\(?:url|href)\s*\{([^{}]*)\}(?:\{([^{}]*)\})?")
_ACCENT = re.compile(r"\\(['`^\"~=.]|[cvuHk](?=[\s{]))\s*\{?\\?([a-zA-Z])\}?")
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
            ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "k": "\u0328"}
# escaped specials (\\$, \\%) are parked on private-use characters while $ { } are stripped
_PROTECT = {c: chr(0xE000 + i) for i, c in enumerate("%&#$_{}")}
_RESTORE = str.maketrans({v: k for k, v in _PROTECT.items()})
_MACRO = re.compile(r"\\([a-zA-Z]+)\*?(\s*)(?=(.?))")
_ESCAPED = re.compile(r"\\([%&#$_{}\\ ,;:!])")


@lru_cache(maxsize=1)
def _symbols() -> dict[str, str]:
    """Macro name -> text for LaTeX's argument-less symbols (\\alpha -> α), from pylatexenc's tables."""
    from pylatexenc.latex2text import get_default_latex_context_db

    db = get_default_latex_context_db()
    out: dict[str, str] = {}
    for cat in db.categories():
        for spec in db.iter_macro_specs([cat]):
            repl = getattr(spec, "simplify_repl", None)
            if isinstance(repl, str) and "%" not in repl and spec.macroname not in out:
                out[spec.macroname] = repl
    return out


def plain(s: str | None) -> str:
    """Plain text for indexing and snippets: LaTeX commands and math turned into text
    (\\alpha -> α, \\textbf{X} -> X, \\frac{a}{b} -> a/b), markdown emphasis markers dropped.
    Text without LaTeX or markdown is returned as is. Fast: regexes over pylatexenc's symbol table
    (its full parser costs ~0.6 ms per abstract, too slow for 200k papers)."""
    if not s:
        return ""
    for _ in range(3):          # "***x***" and "***M**oE*" need more than one pass
        if "*" not in s and "__" not in s:
            break
        s2 = _MD_EMPH.sub(lambda m: m.group(2) or m.group(3) or "", s)
        if s2 == s:
            break
        s = s2
    if not _LATEX_HINT.search(s):
        return s
    sym = _symbols()
    s = _DROP.sub("", s)
    s = _URL.sub(lambda m: m.group(2) or m.group(1), s)
    s = _STYLE.sub("", s)
    for _ in range(2):
        s = _FRAC.sub(r"\1/\2", s)
    s = _ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), s)
    s = _ESCAPED.sub(lambda m: " " if m.group(1) in "\\ ,;:!" else _PROTECT[m.group(1)], s)
    s = _MACRO.sub(lambda m: sym.get(m.group(1), m.group(1)) + (
        " " if m.group(2) or m.group(3).isalnum() or (m.group(3) == "{" and m.group(1) not in sym)
        else ""), s)
    s = s.replace("$", "").replace("{", "").replace("}", "").replace("~", " ").replace("\\", "")
    s = s.translate(_RESTORE)
    s = re.sub(r"\s+([,.;:)\]])", r"\1", s)
    return _WS.sub(" ", s).strip()


@lru_cache(maxsize=1 << 17)
def title_key(title: str) -> str:
    """The key two titles must share to be the same title: plain text, folded, lower case,
    letters and digits only ("$\\ell_1$-Regression" and "ℓ1 regression" agree)."""
    return _NON_ALNUM.sub("", fold(plain(title)).lower())


def words(s: str) -> list[str]:
    """Lower-case folded word tokens."""
    return re.findall(r"[a-z0-9]+", fold(s).lower())


def slugify(s: str, max_len: int = 80) -> str:
    return "-".join(words(s))[:max_len].strip("-")


def latex_symbol(name: str) -> str | None:
    """The text of an argument-less LaTeX macro (``alpha`` -> "α", ``ldots`` -> "…"), or None."""
    return _symbols().get(name)


def latex_accents(s: str) -> str:
    """LaTeX accent commands as composed characters (``\\'e`` -> "é", ``\\c{c}`` -> "ç")."""
    if "\\" not in s:
        return s
    return _ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), s)


# Simplified + traditional pairs for the characters of the Chinese glossary (search.glossary) and
# a few common function words: enough to fold traditional input onto its simplified keys.
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


# Han characters (CJK unified ideographs, extension A, compatibility ideographs): what the Chinese
# glossary translates (search.glossary) and the Chinese bridge reads (index.bridge)
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def to_simplified_chinese(text: str) -> str:
    """Traditional characters folded to simplified ones (those the glossary uses: 擴散 -> 扩散)."""
    return "".join(_TO_SIMPLIFIED.get(c, c) for c in text)


def latex_plain(value: str) -> str:
    """A BibTeX or LaTeX value as plain text: accents and commands resolved, braces dropped."""
    return clean(plain(value).replace("{", "").replace("}", "")) if value else ""
