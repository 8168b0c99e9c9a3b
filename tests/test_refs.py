"""Recognising pasted citations and judging matches (paperlist.refs): reference lines in the common
styles, BibTeX entries read and written as typed, title similarity that forgives case, LaTeX,
punctuation, hyphens and typos but not a word more, and a verdict that prefers "ambiguous" to a guess."""

from __future__ import annotations

import bibtexparser
import pytest

from paperlist.refs import parse_citation
from paperlist.refs.bib import entry_citation, read_bib, value_plain
from paperlist.refs.match import Candidate, title_similarity, venue_agreement, verdict
from paperlist.refs.parse import Citation, parse_reference
from paperlist.refs.rewrite import published

LSTM = "Long short-term memory"


@pytest.mark.parametrize(("line", "title", "family", "year"), [
    # ACL / natbib
    ("Sepp Hochreiter and Jürgen Schmidhuber. 1997. Long short-term memory. Neural Computation, "
     "9(8):1735–1780.", LSTM, "Hochreiter", 1997),
    ("Ashish Vaswani, Noam Shazeer, Niki Parmar, et al. 2017. Attention is all you need. In Advances in "
     "Neural Information Processing Systems 30, pages 5998–6008.", "Attention is all you need", "Vaswani",
     2017),
    # APA
    ("Hochreiter, S., & Schmidhuber, J. (1997). Long short-term memory. Neural Computation, 9(8), 1735-1780.",
     LSTM, "Hochreiter", 1997),
    # IEEE, numbered
    ('[12] S. Hochreiter and J. Schmidhuber, "Long short-term memory," Neural Comput., vol. 9, no. 8, '
     "pp. 1735–1780, 1997.", LSTM, "Hochreiter", 1997),
    ("3. K. He, X. Zhang, S. Ren, and J. Sun, “Deep residual learning for image recognition,” in Proc. CVPR, "
     "2016.", "Deep residual learning for image recognition", "He", 2016),
    # LNCS
    ("Devlin, J., Chang, M.W., Lee, K., Toutanova, K.: BERT: Pre-training of deep bidirectional transformers "
     "for language understanding. In: NAACL-HLT (2019)",
     "BERT: Pre-training of deep bidirectional transformers for language understanding", "Devlin", 2019),
    # Authors. Title. Venue, Year.
    ("G. Brunner et al. On Identifiability in Transformers. International Conference on Learning "
     "Representations, 2020.", "On Identifiability in Transformers", "Brunner", 2020),
    ("K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016.",
     "Deep residual learning for image recognition", "He", 2016),
    # family-first initials, then a title with a colon
    ("Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, 2015.",
     "Adam: A method for stochastic optimization", "Kingma", 2015),
    ("Diederik P. Kingma and Jimmy Ba. Adam: A method for stochastic optimization. arXiv preprint "
     "arXiv:1412.6980, 2014.", "Adam: A method for stochastic optimization", "Kingma", 2014),
    # Google Scholar's MLA and APA
    ('Vaswani, Ashish, et al. "Attention is all you need." Advances in neural information processing systems '
     "30 (2017).", "Attention is all you need", "Vaswani", 2017),
    ("Radford, A., Kim, J. W., Hallacy, C., Ramesh, A., Goh, G., Agarwal, S., ... & Sutskever, I. (2021, "
     "July). Learning transferable visual models from natural language supervision. In International "
     "conference on machine learning (pp. 8748-8763). PMLR.",
     "Learning transferable visual models from natural language supervision", "Radford", 2021),
    # a short quoted title (IEEE), lower-cased as a style left it: four letters are a title
    ('[6] Y. S. Abu-Mostafa, "hints," in Neural Computation, 1995.', "hints", "Abu-Mostafa", 1995),
    ('[6] Y. S. Abu-Mostafa, "Hints," Neural Computation, vol. 7, no. 4, pp. 639-671, 1995.', "Hints",
     "Abu-Mostafa", 1995),
    # a quoted word inside an ACL-style title is not the title (the year comes before it)
    ("Marzena Karpinska, Katherine Thai, Kyle Lo. 2024. One Thousand and One Pairs: A “novel” challenge "
     "for long-context language models. In Proceedings of EMNLP.",
     "One Thousand and One Pairs: A “novel” challenge for long-context language models", "Karpinska", 2024),
    # LNCS with a Title Case title: the words after "D.:" are not more names
    ("Goyal, Y., Khot, T., Agrawal, A., Summers-Stay, D., Batra, D., Parikh, D.: Making the V in VQA "
     "Matter: Elevating the Role of Image Understanding in Visual Question Answering. In: Int. J. Comput. "
     "Vis. (2019)", "Making the V in VQA Matter: Elevating the Role of Image Understanding in Visual "
     "Question Answering", "Goyal", 2019),
    # Vancouver
    ("Ho J, Jain A, Abbeel P. Denoising diffusion probabilistic models. Adv Neural Inf Process Syst. "
     "2020;33:6840-51.", "Denoising diffusion probabilistic models", "Ho", 2020),
    ("Mildenhall B, Srinivasan PP, Tancik M, et al. Nerf: Representing scenes as neural radiance fields for "
     "view synthesis. In ECCV 2020.",
     "Nerf: Representing scenes as neural radiance fields for view synthesis", "Mildenhall", 2020),
])
def test_reference_lines_in_common_styles(line: str, title: str, family: str, year: int) -> None:
    c = parse_citation(line)
    assert c is not None and c.kind == "reference"
    assert c.title == title
    assert family in c.authors[0]
    assert c.year == year


@pytest.mark.parametrize("query", [
    "attention is all you need", "attention is all you need 2017", "graph neural networks for molecules",
    'author:"Kaiming He" year:2015..2017 deep residual', "venue:neurips diffusion 2024",
    "Long short-term memory", "What is the best way to do X? An empirical study. 2021",
    "扩散语言模型 2024 年的论文", "BERT: pre-training of deep bidirectional transformers",
    "-survey \"large language models\" 2023", "",
])
def test_plain_queries_are_not_citations(query: str) -> None:
    assert parse_citation(query) is None


def test_a_pasted_bibtex_entry_is_a_citation() -> None:
    c = parse_citation("@inproceedings{x, title={Deep Residual Learning for Image {R}ecognition}, "
                       "author={He, Kaiming and Zhang, Xiangyu}, year={2016}, booktitle={CVPR}, "
                       "doi={10.1109/CVPR.2016.90}}")
    assert c is not None and c.kind == "bibtex"
    assert (c.title, c.year, c.venue) == ("Deep Residual Learning for Image Recognition", 2016, "CVPR")
    assert c.authors == ["He, Kaiming", "Zhang, Xiangyu"] and c.ids == {"doi": "10.1109/CVPR.2016.90"}


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Long short-term memory", "Long Short-Term Memory", True),                       # case
    ("Pre-training of deep transformers", "Pretraining of Deep Transformers", True),  # hyphenation
    ("{BERT}: Pre-training", "BERT: pre-training", True),
    (value_plain('{\\"U}ber {M}odelle'), "Über Modelle", True),                       # LaTeX accents
    ("Attention is all you need!", "Attention Is All You Need", True),                # punctuation
    ("Convolutional sequence to sequence learnign", "Convolutional Sequence to Sequence Learning", True),
    ("Attention is not Explanation", "Attention is not not Explanation", False),      # a word more
    ("Long short-term memory", "Gating out sensory noise in a spike-based Long Short-Term Memory", False),
    ("Graph attention networks", "Graph convolutional networks", False),
])
def test_title_similarity(a: str, b: str, same: bool) -> None:
    assert (title_similarity(a, b) >= 0.93) is same, title_similarity(a, b)


def test_venue_agreement_reads_long_and_abbreviated_names() -> None:
    assert venue_agreement("Advances in Neural Information Processing Systems 30", "neurips") is True
    assert venue_agreement("Proc. NeurIPS", "neurips") is True
    assert venue_agreement("J. Mach. Learn. Res.", "jmlr") is True
    assert venue_agreement("Proceedings of the 2019 Conference on Empirical Methods in Natural Language "
                           "Processing", "emnlp") is True
    assert venue_agreement("International Conference on Learning Representations", "neurips") is False
    assert venue_agreement("arXiv preprint arXiv:1907.11692", "iclr") is None
    assert venue_agreement("", "iclr") is None
    workshops = "IEEE/CVF Conference on Computer Vision and Pattern Recognition Workshops"
    assert venue_agreement(workshops, "cvprw") is True
    assert venue_agreement(workshops, "cvpr") is False     # the workshop paper is not the conference's
    assert venue_agreement("CVPR", "cvprw") is False


def _c(pid: str, title: str, authors: list[str], year: int, venue: str, accepted: bool = True) -> Candidate:
    return Candidate(id=pid, title=title, authors=authors, year=year, venue=venue, accepted=accepted)


LSTM_PAPER = _c("lstm", "Long Short-Term Memory", ["Sepp Hochreiter", "Jürgen Schmidhuber"], 1997, "neco")
GATING = _c("gating", "Gating out sensory noise in a spike-based Long Short-Term Memory network",
            ["Davide Zambrano", "Isabella Pozzi"], 2018, "neurips")


def test_verdicts_put_precision_first() -> None:
    cited = Citation(title=LSTM, authors=["Hochreiter, Sepp", "Schmidhuber, Jürgen"], year=1997,
                     venue="Neural Computation")
    status, found = verdict(cited, [GATING, LSTM_PAPER])
    assert status == "matched" and found[0][0].id == "lstm"
    # not in the library: the other paper is never taken for it
    assert verdict(cited, [GATING])[0] == "not_found"
    # the same title by other people: not this paper (it cannot say which, without a venue; cited in
    # a journal, the conference paper is not it: "not in the library")
    other = _c("other", "Long Short-Term Memory", ["Ann Other"], 2021, "iclr")
    assert verdict(Citation(title=LSTM, authors=cited.authors, year=1997), [other])[0] == "ambiguous"
    assert verdict(cited, [other])[0] == "not_found"
    # a looser title is taken only when the authors and the year agree
    loose = Citation(title="Long short term memory networks", authors=["S. Hochreiter"], year=1997)
    assert verdict(loose, [LSTM_PAPER])[0] == "matched"
    assert verdict(Citation(title="Long short term memory networks", year=1997), [LSTM_PAPER])[0] != "matched"
    # two papers it cannot tell apart
    twin = _c("twin", "Long Short-Term Memory", [], 1997, "neurips")
    twin2 = _c("t2", LSTM, [], 1997, "icml")
    assert verdict(Citation(title=LSTM, year=1997), [twin, twin2])[0] == "ambiguous"


@pytest.mark.parametrize("journal", ["IEEE TPAMI", "IEEE Transactions on Pattern Analysis and Machine "
                                     "Intelligence", "Nature", "Int. J. Comput. Vis.", "Neural Computation"])
def test_a_journal_version_we_lack_is_not_its_conference_paper(journal: str) -> None:
    """Issue 44 item 6: a reference to a journal paper the library does not hold resolves to "not in
    the library", never to the conference paper of the same title (SPP, ECCV 2014 and TPAMI 2015),
    which stays as a near candidate. Cited at the conference, or at no venue, it is that paper."""
    title = "Spatial Pyramid Pooling in Deep Convolutional Networks for Visual Recognition"
    names = ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
    eccv = _c("eccv2014-spp", title, names, 2014, "eccv")
    status, near = verdict(Citation(title=title, authors=names, year=2015, venue=journal), [eccv])
    assert status == "not_found" and near[0][0].id == "eccv2014-spp"
    for venue in ("ECCV", "European Conference on Computer Vision", "", "arXiv preprint arXiv:1406.4729"):
        got = verdict(Citation(title=title, authors=names, year=2014, venue=venue), [eccv])[0]
        assert got == "matched", venue


def test_versions_equal_in_score_go_to_the_venue_cited() -> None:
    """A real miss (RIFF's custom.bib): DuoRC cited at ACL 2018; our ACL record has no authors, its
    ICLR 2018 submission has them, and both scored 1.01: the ICLR one was taken. At equal scores
    the version at the venue the citation names comes first."""
    title = "DuoRC: Towards Complex Language Understanding with Paraphrased Reading Comprehension"
    names = ["Amrita Saha", "Rahul Aralikatte", "Mitesh M. Khapra", "Karthik Sankaranarayanan"]
    cited = Citation(title=title, authors=names, year=2018, venue="Proceedings of the 56th Annual Meeting of "
                     "the Association for Computational Linguistics (Volume 1: Long Papers)")
    iclr, acl = _c("iclr2018-x", title, names, 2018, "iclr"), _c("acl2018-x", title, [], 2018, "acl")
    for order in ([iclr, acl], [acl, iclr]):
        status, found = verdict(cited, order)
        assert status == "matched" and found[0][0].id == "acl2018-x"


def test_bibtex_is_read_per_entry_and_written_back_as_typed() -> None:
    text = ('@string{nc = "Neural Computation"}\n'
            '@article{lstm, title = {Long Short-Term Memory}, author = "Hochreiter, Sepp and Schmidhuber, '
            'J{\\"u}rgen", journal = nc, month = jan, year = 1997}\n'
            "@article{broken, title = {no closing brace\n"
            "@misc{ok, title = {Still read}}\n")
    blocks = read_bib(text)
    entries = [b for b in blocks if b.is_entry]
    errors = [b for b in blocks if b.error]
    assert [b.key for b in entries] == ["lstm", "ok"] and len(errors) == 1
    c = entry_citation(entries[0])
    assert c.authors == ["Hochreiter, Sepp", "Schmidhuber, Jürgen"] and c.year == 1997
    pub = ("@inproceedings{hochreiter1997, title = {Long {Short-Term} Memory}, author = {Sepp Hochreiter and "
           "J\\\"urgen Schmidhuber}, booktitle = {Conference (C 1997)}, pages = {1735--1780}, year = {1997}, "
           "doi = {10.1162/neco.1997.9.8.1735}}")
    out, changed = published(entries[0], pub, same_venue=False)
    lib = bibtexparser.parse_string(out)
    e = lib.entries[0]
    assert not lib.failed_blocks and e.key == "lstm" and e.entry_type == "inproceedings"
    assert e["title"] == "Long Short-Term Memory"                  # the user's title: the same one
    assert e["author"] == 'Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen'   # the user's accents, as typed
    assert e["doi"] == "10.1162/neco.1997.9.8.1735" and e["pages"] == "1735--1780"
    assert "journal" not in e.fields_dict and "month" not in e.fields_dict
    assert {"entry type", "doi", "journal", "booktitle"} <= set(changed)


def test_arxiv_entries_lose_their_preprint_fields() -> None:
    [b] = read_bib("@article{v, title={Attention Is All You Need}, author={Vaswani, Ashish}, "
                   "journal={arXiv preprint arXiv:1706.03762}, eprint={1706.03762}, archivePrefix={arXiv}, "
                   "year={2017}, note={cited a lot}}")
    out, _ = published(b, "@inproceedings{x, title={Attention is All you Need}, author={Ashish Vaswani}, "
                          "booktitle={NeurIPS}, year={2017}}", same_venue=False)
    e = bibtexparser.parse_string(out).entries[0]
    assert e.entry_type == "inproceedings" and e["booktitle"] == "NeurIPS"
    assert not {"journal", "eprint", "archivePrefix"} & set(e.fields_dict)
    assert e["note"] == "cited a lot"              # a field it cannot improve is kept


def test_a_rewrite_restores_capitals_and_drops_empty_fields() -> None:
    """Issue 44, "Why" item 6: the resolver left a lower-cased title as typed where the library has
    the real capitals (ViT), and copied ``pages = {}``. A title that lost capitals takes the
    paper's; one with as many (braces and accents as typed) stays; an empty field goes, whoever
    wrote it."""
    [b] = read_bib("@inproceedings{d, title={vit: vision transformers at scale}, "
                   "author={Dosovitskiy, Alexey}, booktitle={ICLR}, pages={}, year={2021}, note={ }}")
    pub = ("@inproceedings{x, title={{ViT}: Vision Transformers at Scale}, author={Alexey Dosovitskiy}, "
           "booktitle={International Conference on Learning Representations}, year={2021}, volume={}}")
    out, changed = published(b, pub, same_venue=True)
    lib = bibtexparser.parse_string(out)
    e = lib.entries[0]
    assert not lib.failed_blocks and e["title"] == "{ViT}: Vision Transformers at Scale"
    assert not {"pages", "note", "volume"} & {k.lower() for k in e.fields_dict}
    assert "= {}" not in out and {"title", "pages", "note"} <= set(changed)
    # the same title with its capitals (even more of them) is the user's, as typed
    [b] = read_bib("@inproceedings{d, title={{ViT}: Vision Transformers At Scale}, "
                   "author={Dosovitskiy, Alexey}}")
    out, changed = published(b, pub, same_venue=True)
    assert bibtexparser.parse_string(out).entries[0]["title"] == "{ViT}: Vision Transformers At Scale"
    assert "title" not in changed


def test_reference_line_ids_are_found() -> None:
    c = parse_reference("A. Vaswani et al. Attention is all you need. arXiv:1706.03762v5, 2017. "
                        "https://doi.org/10.5555/3295222.3295349")
    assert c is not None and c.ids["arxiv"] == "1706.03762" and c.ids["doi"] == "10.5555/3295222.3295349"


def test_versions_of_one_work_are_not_ambiguous() -> None:
    """The NeurIPS paper and its IJCAI sister-track version (one work key, the same authors): the
    citation's venue picks one; a preprint citation takes the main-venue version."""
    authors = ["Aviv Tamar", "Yi Wu", "Garrett Thomas"]
    neurips = _c("neurips2016-s7yu7u55", "Value Iteration Networks", authors, 2016, "neurips")
    ijcai = _c("ijcai2017-s7yu7u55", "Value Iteration Networks", authors, 2017, "ijcai")
    cited = Citation(title="Value iteration networks", authors=["Tamar, Aviv", "Wu, Yi"], year=2017,
                     venue="Proceedings of the International Joint Conference on Artificial Intelligence")
    assert verdict(cited, [neurips, ijcai]) == ("matched", verdict(cited, [ijcai])[1])
    preprint = Citation(title="Value iteration networks", authors=["Tamar, Aviv"], year=2016,
                        venue="arXiv preprint arXiv:1602.02867")
    status, found = verdict(preprint, [ijcai, neurips])
    assert status == "matched" and found[0][0].id == "neurips2016-s7yu7u55"
    # one title by other people is no version of it
    other = _c("iclr2017-s7yu7u55", "Value Iteration Networks", ["Somebody Else"], 2017, "iclr")
    assert verdict(Citation(title="Value iteration networks", year=2017), [other, neurips])[0] == "ambiguous"
