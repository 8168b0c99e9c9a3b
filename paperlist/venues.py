"""The venue registry: our own facts about every venue the sources bring.

Each venue has a canonical key (``neurips``, never ``nips``), a short display name, a full
name, a research field, a kind (conference / journal / workshop), aliases, and for sub-venues
(Findings of ACL, CVPR workshops) a parent. ``family`` is the venue whose records may describe
the same papers (papercopilot lists Findings papers inside its ACL files, so Findings of ACL
is in the ACL family; workshop papers are different publications, so CVPR workshops are not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# field slug -> (English, Chinese)
FIELDS: dict[str, tuple[str, str]] = {
    "ml": ("Machine Learning", "机器学习"),
    "cv": ("Computer Vision", "计算机视觉"),
    "nlp": ("Natural Language Processing", "自然语言处理"),
    "ai": ("Artificial Intelligence", "人工智能"),
    "robotics": ("Robotics", "机器人"),
    "graphics": ("Computer Graphics", "计算机图形学"),
    "data-mining": ("Data Mining", "数据挖掘"),
    "web": ("Web and Information Retrieval", "Web 与信息检索"),
    "theory": ("Learning Theory", "学习理论"),
    "multimedia": ("Multimedia", "多媒体"),
    "science": ("AI for Science", "AI 科学"),
    "health": ("Machine Learning for Health", "医疗与健康"),
}

KINDS = ("conference", "journal", "workshop")


@dataclass(frozen=True, slots=True)
class Venue:
    key: str
    short: str
    name: str
    field: str
    kind: str = "conference"
    aliases: tuple[str, ...] = ()
    parent: str | None = None
    in_parent_family: bool = False    # records may duplicate the parent's (Findings)
    known: bool = True                # False for venues derived from an unknown key

    @property
    def family(self) -> str:
        return self.parent if (self.parent and self.in_parent_family) else self.key


def _v(key: str, short: str, name: str, fld: str, kind: str = "conference", aliases: tuple[str, ...] = (),
       parent: str | None = None, in_parent_family: bool = False) -> Venue:
    return Venue(key, short, name, fld, kind, aliases, parent, in_parent_family)


_REGISTRY: tuple[Venue, ...] = (
    # machine learning
    _v("neurips", "NeurIPS", "Conference on Neural Information Processing Systems", "ml", aliases=("nips",)),
    _v("iclr", "ICLR", "International Conference on Learning Representations", "ml"),
    _v("icml", "ICML", "International Conference on Machine Learning", "ml"),
    _v("aistats", "AISTATS", "International Conference on Artificial Intelligence and Statistics", "ml"),
    _v("uai", "UAI", "Conference on Uncertainty in Artificial Intelligence", "ml"),
    _v("acml", "ACML", "Asian Conference on Machine Learning", "ml"),
    _v("automl", "AutoML", "International Conference on Automated Machine Learning", "ml",
       aliases=("automl-conf",)),
    _v("ecmlpkdd", "ECML-PKDD", "European Conference on Machine Learning and Principles and Practice of "
       "Knowledge Discovery in Databases", "ml", aliases=("ecml-pkdd", "ecml/pkdd")),
    _v("ecml", "ECML", "European Conference on Machine Learning", "ml"),
    _v("pgm", "PGM", "International Conference on Probabilistic Graphical Models", "ml"),
    _v("isipta", "ISIPTA",
       "International Symposium on Imprecise Probabilities: Theories and Applications", "ml"),
    _v("clear", "CLeaR", "Conference on Causal Learning and Reasoning", "ml"),
    _v("collas", "CoLLAs", "Conference on Lifelong Learning Agents", "ml"),
    _v("cpal", "CPAL", "Conference on Parsimony and Learning", "ml"),
    _v("log", "LoG", "Learning on Graphs Conference", "ml"),
    _v("l4dc", "L4DC", "Learning for Dynamics and Control Conference", "ml"),
    _v("tmlr", "TMLR", "Transactions on Machine Learning Research", "ml", "journal"),
    _v("jmlr", "JMLR", "Journal of Machine Learning Research", "ml", "journal"),
    _v("mloss", "JMLR MLOSS", "JMLR Machine Learning Open Source Software", "ml", "journal", parent="jmlr",
       in_parent_family=True),
    _v("dmlr", "DMLR", "Journal of Data-centric Machine Learning Research", "ml", "journal"),
    _v("mlj", "MLJ", "Machine Learning (journal)", "ml", "journal", aliases=("machine-learning",)),
    _v("neco", "Neural Computation", "Neural Computation", "ml", "journal"),
    _v("ftml", "FTML", "Foundations and Trends in Machine Learning", "ml", "journal"),
    _v("distill", "Distill", "Distill", "ml", "journal"),
    _v("iclrw", "ICLR Workshops", "ICLR Workshops", "ml", "workshop", parent="iclr"),
    _v("icmlw", "ICML Workshops", "ICML Workshops", "ml", "workshop", parent="icml"),
    # learning theory
    _v("colt", "COLT", "Conference on Learning Theory", "theory"),
    _v("alt", "ALT", "International Conference on Algorithmic Learning Theory", "theory"),
    # computer vision
    _v("cvpr", "CVPR", "IEEE/CVF Conference on Computer Vision and Pattern Recognition", "cv"),
    _v("iccv", "ICCV", "IEEE/CVF International Conference on Computer Vision", "cv"),
    _v("eccv", "ECCV", "European Conference on Computer Vision", "cv"),
    _v("wacv", "WACV", "IEEE/CVF Winter Conference on Applications of Computer Vision", "cv"),
    _v("3dv", "3DV", "International Conference on 3D Vision", "cv", aliases=("threedv",)),
    _v("tpami", "TPAMI", "IEEE Transactions on Pattern Analysis and Machine Intelligence", "cv", "journal",
       aliases=("pami", "t-pami", "ieee-tpami", "ieee-pami")),
    _v("ijcv", "IJCV", "International Journal of Computer Vision", "cv", "journal"),
    _v("tip", "TIP", "IEEE Transactions on Image Processing", "cv", "journal", aliases=("t-ip", "ieee-tip")),
    _v("cvprw", "CVPR Workshops", "CVPR Workshops", "cv", "workshop", parent="cvpr"),
    _v("iccvw", "ICCV Workshops", "ICCV Workshops", "cv", "workshop", parent="iccv"),
    _v("eccvw", "ECCV Workshops", "ECCV Workshops", "cv", "workshop", parent="eccv"),
    _v("wacvw", "WACV Workshops", "WACV Workshops", "cv", "workshop", parent="wacv"),
    # natural language processing
    _v("acl", "ACL", "Annual Meeting of the Association for Computational Linguistics", "nlp"),
    _v("emnlp", "EMNLP", "Conference on Empirical Methods in Natural Language Processing", "nlp"),
    _v("naacl", "NAACL", "Annual Conference of the North American Chapter of the ACL", "nlp"),
    _v("eacl", "EACL", "Conference of the European Chapter of the ACL", "nlp"),
    _v("aacl", "AACL", "Conference of the Asia-Pacific Chapter of the ACL", "nlp", aliases=("aacl-ijcnlp",)),
    _v("coling", "COLING", "International Conference on Computational Linguistics", "nlp"),
    _v("lrec-coling", "LREC-COLING", "Joint International Conference on Computational Linguistics, "
       "Language Resources and Evaluation", "nlp", aliases=("lrec", "lreccoling")),
    _v("colm", "COLM", "Conference on Language Modeling", "nlp"),
    _v("tacl", "TACL", "Transactions of the Association for Computational Linguistics", "nlp", "journal"),
    _v("findings-acl", "Findings of ACL", "Findings of the Association for Computational Linguistics: ACL",
       "nlp", parent="acl", in_parent_family=True, aliases=("acl-findings",)),
    _v("findings-emnlp", "Findings of EMNLP",
       "Findings of the Association for Computational Linguistics: EMNLP", "nlp", parent="emnlp",
       in_parent_family=True, aliases=("emnlp-findings",)),
    _v("findings-naacl", "Findings of NAACL",
       "Findings of the Association for Computational Linguistics: NAACL", "nlp", parent="naacl",
       in_parent_family=True, aliases=("naacl-findings",)),
    _v("findings-eacl", "Findings of EACL", "Findings of the Association for Computational Linguistics: EACL",
       "nlp", parent="eacl", in_parent_family=True, aliases=("eacl-findings",)),
    _v("findings-aacl", "Findings of AACL",
       "Findings of the Association for Computational Linguistics: AACL-IJCNLP", "nlp", parent="aacl",
       in_parent_family=True, aliases=("aacl-findings",)),
    # artificial intelligence
    _v("aaai", "AAAI", "AAAI Conference on Artificial Intelligence", "ai"),
    _v("ijcai", "IJCAI", "International Joint Conference on Artificial Intelligence", "ai"),
    _v("jair", "JAIR", "Journal of Artificial Intelligence Research", "ai", "journal"),
    # robotics
    _v("corl", "CoRL", "Conference on Robot Learning", "robotics"),
    _v("rss", "RSS", "Robotics: Science and Systems", "robotics"),
    _v("icra", "ICRA", "IEEE International Conference on Robotics and Automation", "robotics"),
    _v("iros", "IROS", "IEEE/RSJ International Conference on Intelligent Robots and Systems", "robotics"),
    # graphics
    _v("siggraph", "SIGGRAPH", "ACM SIGGRAPH Conference", "graphics"),
    _v("siggraphasia", "SIGGRAPH Asia", "ACM SIGGRAPH Asia Conference", "graphics",
       aliases=("siggraph-asia", "sigasia")),
    # data mining, web, multimedia
    _v("kdd", "KDD", "ACM SIGKDD Conference on Knowledge Discovery and Data Mining", "data-mining",
       aliases=("sigkdd",)),
    _v("www", "WWW", "The ACM Web Conference", "web", aliases=("thewebconf", "webconf")),
    _v("wwww", "WWW Workshops", "Workshops at The ACM Web Conference", "web", "workshop", parent="www",
       aliases=("www-workshops", "webconf-workshops")),
    _v("acmmm", "ACM MM", "ACM International Conference on Multimedia", "multimedia",
       aliases=("mm", "acm-mm")),
    # AI for science, health
    _v("ai4x", "AI4X", "International Conference on AI for X (AI for Science)", "science"),
    _v("midl", "MIDL", "Medical Imaging with Deep Learning", "health"),
    _v("mlhc", "MLHC", "Machine Learning for Healthcare Conference", "health"),
    _v("chil", "CHIL", "Conference on Health, Inference, and Learning", "health"),
)

_BY_KEY: dict[str, Venue] = {v.key: v for v in _REGISTRY}
_ALIASES: dict[str, str] = {}
for _venue in _REGISTRY:
    for _name in (_venue.key, _venue.short, *_venue.aliases):
        _ALIASES[re.sub(r"[\s_]+", "-", _name.strip().lower())] = _venue.key
        _ALIASES[re.sub(r"[^a-z0-9]", "", _name.lower())] = _venue.key


# The month a conference usually meets: which of one year's proceedings is the newest (NeurIPS in
# December after ICML in July). A venue not listed counts as mid-year.
MONTHS = {
    "aaai": 2, "wacv": 2, "eacl": 3, "iclr": 4, "www": 4, "aistats": 5, "icra": 5, "naacl": 6, "cvpr": 6,
    "icml": 7, "acl": 7, "uai": 7, "rss": 7, "colt": 7, "ijcai": 8, "kdd": 8, "siggraph": 8, "eccv": 9,
    "iccv": 10, "iros": 10, "colm": 10, "acmmm": 10, "emnlp": 11, "corl": 11, "neurips": 12,
    "siggraphasia": 12, "acml": 12, "coling": 1, "3dv": 3, "lrec-coling": 5, "aacl": 11,
}


# Venues that review on OpenReview: their group id for a year (update, and a search link for papers
# we know without their OpenReview id)
OPENREVIEW_GROUPS = {"neurips": "NeurIPS.cc/{y}/Conference", "iclr": "ICLR.cc/{y}/Conference",
                     "icml": "ICML.cc/{y}/Conference", "colm": "colmweb.org/COLM/{y}/Conference",
                     "corl": "robot-learning.org/CoRL/{y}/Conference"}


def month(key: str) -> int:
    """The month a venue usually meets (6 when we do not know)."""
    return MONTHS.get(get(key).family, 6)


def _norm(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def resolve(name: str) -> str | None:
    """The canonical key for a venue name or alias ("nips", "NeurIPS", "Findings of ACL"), or None."""
    if not isinstance(name, str) or not name.strip():
        return None
    n = _norm(name)
    hit = _ALIASES.get(n) or _ALIASES.get(re.sub(r"[^a-z0-9]", "", n))
    return hit


def canonical(name: str) -> str:
    """The canonical key for a name; unknown venues keep a cleaned key of their own."""
    return resolve(name) or re.sub(r"[^a-z0-9-]+", "-", _norm(name)).strip("-")


def get(key: str) -> Venue:
    """The registry entry; an unknown key gets a derived entry (display name in upper case)."""
    v = _BY_KEY.get(key) or _BY_KEY.get(resolve(key) or "")
    if v:
        return v
    short = key.upper() if len(key) <= 6 else key.replace("-", " ").title()
    return Venue(key, short, short, "ai", known=False)


def family(key: str) -> str:
    return get(key).family


def all_venues() -> list[Venue]:
    return list(_REGISTRY)


def children(key: str) -> list[str]:
    return [v.key for v in _REGISTRY if v.parent == key]
