"""`paperlist embed` with the real model on a small fixture (34 papers): it embeds, publishes,
resumes after a real interruption (SIGINT to a running subprocess), skips unchanged papers, and
the vectors answer semantic queries, Chinese ones included. Skipped, with the reason, when the
semantic extra is not installed; CI installs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperlist.index.encoder import missing_reason

_reason = missing_reason()
pytestmark = pytest.mark.skipif(_reason is not None, reason=f"semantic extra not installed: {_reason}")


def _cli() -> list[str]:
    exe = Path(sys.executable).parent / "paperlist"
    return [str(exe)] if exe.exists() else [sys.executable, "-c", "from paperlist.cli import main; main()"]


def _run(home: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"HF_HUB_OFFLINE": "1"}
    return subprocess.run([*_cli(), "--home", str(home), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)


@pytest.fixture(scope="module")
def embed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.webdata import build_store

    home = tmp_path_factory.mktemp("embed")
    build_store(home).close()
    return home


def _cached_rows(home: Path) -> int:
    from paperlist.index.vectors import VectorCache

    return len(VectorCache(home, 128).load())


def test_embed_resumes_after_an_interruption(embed_home: Path) -> None:
    cache_dir = embed_home / "vectors" / "cache"
    env = os.environ | {"HF_HUB_OFFLINE": "1"}
    # One text per batch, interrupted as soon as the first is saved (the 28 left give the signal
    # time to land mid-job). The child gets SIGINT's default disposition back: a test run started
    # in the background (``./.ci/run &``) inherits SIGINT ignored, and Python then never turns it
    # into KeyboardInterrupt: that, not the code, once failed this test.
    proc = subprocess.Popen([*_cli(), "--home", str(embed_home), "embed", "--batch-size", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        if list(cache_dir.glob("*/c*.npz")):      # a batch is saved
            break
        time.sleep(0.002)
    assert proc.poll() is None, "embed finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, (out, err)
    assert "interrupted" in err
    done = _cached_rows(embed_home)
    assert 1 <= done < 34
    assert not (embed_home / "vectors" / "CURRENT").exists()      # nothing half-published

    r = _run(embed_home, "embed", "--json")
    assert r.returncode == 0, r.stderr
    import json
    rep = json.loads(r.stdout)
    assert rep["papers"] == 34 and rep["cached"] >= done and rep["embedded"] == 34 - rep["cached"]
    assert rep["published"] == 34 and rep["remaining"] == 0 and not rep["interrupted"]
    # the new vectors are topic evidence: topics reassigned, the index rebuilt to carry them
    assert rep["topics"]["vectors"] == 34 and not rep["topics"]["skipped"] and not rep["index"]["skipped"]
    # nothing changed: nothing to embed, nothing to reassign
    again = json.loads(_run(embed_home, "embed", "--json").stdout)
    assert again["embedded"] == 0 and again["cached"] == 34
    assert again["topics"]["skipped"] and again["index"]["skipped"]


def test_max_batches_stops_early_and_publishes_what_it_has(tmp_path: Path) -> None:
    from tests.webdata import build_store

    build_store(tmp_path, index=False).close()
    r = _run(tmp_path, "embed", "--batch-size", "5", "--max-batches", "1")
    assert r.returncode == 0, r.stderr
    assert "embedded 5" in r.stdout and "remaining 29" in r.stdout and "5 published" in r.stdout


def test_vectors_answer_semantic_and_chinese_queries(embed_home: Path) -> None:
    from paperlist.search import Searcher, SearchRequest
    from paperlist.search.similar import similar_papers
    from paperlist.store import Store

    if not (embed_home / "vectors" / "CURRENT").exists():
        assert _run(embed_home, "embed").returncode == 0
    s = Searcher.open(embed_home)
    res = s.search(SearchRequest(q="making a small draft model propose tokens to speed up LLM generation",
                                 mode="semantic"))
    assert res.interpreted["mode"] == "semantic"
    assert "Speculative Decoding" in res.hits[0].title
    zh = s.search(SearchRequest(q="投机解码 加速推理"))
    assert zh.interpreted["translated"]["to"].startswith("speculative decoding")
    assert any("Speculative" in h.title for h in zh.hits[:3])
    store = Store(embed_home / "paperlist.db", readonly=True)
    pid = next(i for i, t, *_ in store.plain_titles() if t.startswith("KV Packet"))
    paper = store.get_paper(pid)
    assert paper is not None
    got, method = similar_papers(s, paper, 5)
    assert method == "vectors" and got and pid not in [p for p, _ in got]
    titles = [store.get_paper(p).title for p, _ in got[:3]]    # type: ignore[union-attr]
    assert any("KV" in t or "Cache" in t or "Decoding" in t for t in titles), titles


def test_topics_use_vectors_when_published(embed_home: Path) -> None:
    from paperlist.store import Store
    from paperlist.topics.build import assign_topics

    if not (embed_home / "vectors" / "CURRENT").exists():
        assert _run(embed_home, "embed").returncode == 0
    rep = assign_topics(Store(embed_home / "paperlist.db"), embed_home)
    assert rep.vectors == 34 and rep.with_topics >= 20


def test_bfloat16_encoder_agrees_with_float32(embed_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from paperlist.index.encoder import PRECISION_ENV, PRECISIONS, Encoder
    from paperlist.store import Store

    texts = [t for _, t, *_ in Store(embed_home / "paperlist.db", readonly=True).plain_titles()][:12]
    texts += ["扩散模型", "", "a" * 5000, "GNN <script>alert(1)</script> ∑ x_i^2"]
    exact = Encoder(precision="float32")
    half = Encoder(precision="bfloat16")
    assert (exact.precision, half.precision) == ("float32", "bfloat16")
    a, b = exact.encode(texts), half.encode(texts)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert (a * b).sum(axis=1).min() >= 0.999
    # one query through the model's own modules is the batch path's row (bfloat16 rounds a
    # padded batch a little differently)
    for enc, rows, close in ((exact, a, 0.99999), (half, b, 0.9995)):
        one = np.stack([enc.encode_one(t) for t in texts])
        assert (one * rows).sum(axis=1).min() >= close
    auto = Encoder()
    assert auto.precision in PRECISIONS[1:]
    assert (auto.encode(texts[:3]) * a[:3]).sum(axis=1).min() >= 0.999
    monkeypatch.setenv(PRECISION_ENV, "float32")
    assert Encoder().precision == "float32"
    with pytest.raises(ValueError, match="float32, bfloat16"):
        Encoder(precision="int4")
