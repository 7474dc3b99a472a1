"""How far a question-answering pass rate can be trusted: the default matcher's agreement with people on
short, sentence and paragraph answers, measured on public data and packaged (data/answer_agreement.json,
made by scripts/measure_answer_agreement.py), until the user's own labels replace it (`gaia-eval meta-eval
LABELS.jsonl -o evaluation/answer_agreement.json`, read for the match mode the evaluation used).

An answer's shape: short (at most SHORT_WORDS words), a sentence (longer, one sentence), a paragraph (more than
one sentence, or lines apart). The packaged figures carry the matcher's fingerprint: a matcher changed since they
were measured is said to be, so nobody reads stale figures as current."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.answer_agreement import AnswerAgreement, PackagedAnswerAgreement
from gaia_eval.artifacts.store import read_artifact

SHAPES = ("short", "sentence", "paragraph")
SHORT_WORDS = 5
PACKAGED_FILE = "answer_agreement.json"
OWN_FILE = "answer_agreement.json"  # in the evaluation folder, written by meta-eval LABELS -o
REGENERATE = "python scripts/measure_answer_agreement.py --datasets ../shared/datasets"
# A sentence ends at . ! or ? (after any closing quote or bracket) before more text; a blank line parts paragraphs.
_SENTENCE_BREAK = re.compile(r"[.!?][\"')\]]*\s+\S|\n\s*\n\s*\S")


def answer_shape(text: str) -> str:
    """short, sentence or paragraph."""
    text = text.strip()
    if len(text.split()) <= SHORT_WORDS:
        return "short"
    return "paragraph" if _SENTENCE_BREAK.search(text) else "sentence"


@lru_cache(maxsize=1)
def matcher_fingerprint() -> str:
    """A hash of the answer matcher's code (scoring/answers and the reading of number words): what the packaged
    figures were measured with."""
    package = resources.files("gaia_eval")
    digest = hashlib.sha256()
    files = sorted((f for f in package.joinpath("scoring").joinpath("answers").iterdir() if f.name.endswith(".py")),
                   key=lambda f: f.name)
    for f in [*files, package.joinpath("number_words.py")]:
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def packaged_file() -> Path:
    return Path(str(resources.files("gaia_eval").joinpath("data").joinpath(PACKAGED_FILE)))


def packaged_answer_trust(mode: str) -> dict[str, Any] | None:
    """The packaged figures of match mode `mode` for the report: dataset, n and agreement per shape, the
    substring baseline beside them, and whether the matcher has changed since they were measured; None when the
    file is absent or did not measure that mode."""
    path = packaged_file()
    if not path.is_file():
        return None
    packaged = read_artifact(path, PackagedAnswerAgreement)
    shapes = [s for s in packaged.shapes if s.mode == mode]
    if not shapes:
        return None
    return {
        "dataset": packaged.dataset,
        "n_answers": packaged.n_answers,
        "mode": mode,
        "measured": packaged.measured,
        "stale": packaged.matcher_fingerprint != matcher_fingerprint(),
        "regenerate": packaged.command,
        "shapes": [{"shape": s.shape, "n": s.figures.n, "agreement": s.figures.agreement,
                    "false_accepts": s.figures.false_accepts, "false_rejects": s.figures.false_rejects,
                    "substring": s.substring.agreement} for s in shapes],
        # whether longer answers fare worse than short ones (the report says so only when the figures do)
        "longer_lower": any(s.figures.agreement < shapes[0].figures.agreement for s in shapes[1:])
        if shapes[0].shape == "short" else False,
    }


def own_answer_trust(eval_dir: Path, mode: str) -> dict[str, Any] | None:
    """The user's own labels' figures for match mode `mode` (answer_agreement.json in the evaluation folder), with
    the substring baseline beside them; None when there is no such file or it did not measure that mode."""
    path = Path(eval_dir) / OWN_FILE
    if not path.is_file():
        return None
    result = read_artifact(path, AnswerAgreement)
    row, substring = result.result(mode), result.result("substring")
    if row is None:
        return None
    return {"file": path.name, "labels_file": result.labels_file, "mode": mode, "n": row.overall.n,
            "n_systems": len(result.systems), "agreement": row.overall.agreement,
            "agreement_ci": row.overall.agreement_ci, "kappa": row.overall.kappa,
            "false_accepts": row.overall.false_accepts, "false_rejects": row.overall.false_rejects,
            "substring": substring.overall.agreement if substring else None}
