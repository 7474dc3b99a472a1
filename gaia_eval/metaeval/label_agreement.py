"""How well a correct/incorrect verdict agrees with people's: agreement, Cohen's kappa, false accepts (the scorer
says correct, people said incorrect) and false rejects, with 95 % percentile bootstrap intervals that draw items
(questions), not answers, since one question's answers by several systems are not independent. Also each match
mode's verdicts on labelled answers, and the two baselines every matcher should beat: a normalised expected
answer equal to the normalised answer (exact match), or inside it (substring), normalised as SQuAD does
(lower case, no punctuation, no articles, single spaces).
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Sequence
from typing import Any

from gaia_eval.artifacts.answer_agreement import LabelFigures
from gaia_eval.errors import GaiaEvalError
from gaia_eval.metaeval.labels import LabelledAnswer
from gaia_eval.metaeval.stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CONFIDENCE

BASELINES = ("substring", "exact_match")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def _np() -> Any:
    import numpy  # lazy: meta-eval only

    return numpy


def normalise(text: str) -> str:
    """SQuAD's answer normalisation: lower case, punctuation and articles removed, whitespace collapsed."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split())


def baseline_verdict(baseline: str, expected: Sequence[str], output: str) -> bool:
    """`substring`: some normalised expected answer lies inside the normalised answer; `exact_match`: equals it."""
    answer = normalise(output)
    golds = [g for g in (normalise(e) for e in expected) if g]
    if baseline == "exact_match":
        return answer in golds
    return bool(answer) and any(g in answer for g in golds)


def mode_verdicts(rows: Sequence[LabelledAnswer], mode: str, **options: Any) -> list[bool]:
    """The verdict of match mode `mode` on every answer (any expected answer may match; the question is passed
    to a mode that reads it). A mode that cannot run here (an optional extra missing, a setting it needs, an
    expected answer it cannot read) raises its GaiaEvalError: the caller reports the mode as not measured."""
    from gaia_eval.registry import MATCH_MODES
    from gaia_eval.scoring.answers import match_answer

    # a MatchMode names the options it takes; a bare function registered as a mode takes none
    reads_question = mode in MATCH_MODES and "question" in getattr(MATCH_MODES.entry(mode), "options", ())
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gaia-official warns on every list of unequal length
        for row in rows:
            extra = {"question": row.question} if reads_question else {}
            out.append(match_answer(list(row.expected), row.output, mode, **options, **extra).correct)
    return out


def try_mode_verdicts(rows: Sequence[LabelledAnswer], mode: str, **options: Any) -> tuple[list[bool] | None, str]:
    """`mode_verdicts`, or None and the reason the mode could not be measured."""
    try:
        return mode_verdicts(rows, mode, **options), ""
    except GaiaEvalError as exc:
        return None, exc.message


def item_indices(rows: Sequence[LabelledAnswer]) -> Any:
    """Each answer's item as a number 0..items-1, in order of first appearance."""
    order: dict[str, int] = {}
    return _np().array([order.setdefault(r.item, len(order)) for r in rows], dtype=int)


def _kappa(agree: Any, n: Any, scorer_yes: Any, human_yes: Any) -> Any:
    np = _np()
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = agree / n
        ps, ph = scorer_yes / n, human_yes / n
        chance = ps * ph + (1 - ps) * (1 - ph)
        # Undefined (NaN) when chance agreement is total: one side said the same thing of every answer.
        return np.where(1 - chance > 1e-12, (observed - chance) / np.where(1 - chance > 1e-12, 1 - chance, 1), np.nan)


def _interval(values: Any) -> tuple[float, float] | None:
    np = _np()
    values = values[~np.isnan(values)]
    if len(values) < BOOTSTRAP_RESAMPLES // 2:
        return None  # undefined on most resamples: no honest interval
    tail = (1 - CONFIDENCE) / 2 * 100
    return float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))


def figures(scorer: Sequence[bool] | Any, human: Sequence[bool] | Any, items: Any, *, intervals: bool = True,
            seed: int = BOOTSTRAP_SEED) -> LabelFigures:
    """The scorer's verdicts against the people's on these answers (`items`: each answer's item number), with
    bootstrap intervals over items when `intervals` and there are at least two items."""
    np = _np()
    s, h = np.asarray(scorer, dtype=bool), np.asarray(human, dtype=bool)
    n = len(s)
    agree = int((s == h).sum())
    kappa = float(_kappa(np.float64(agree), np.float64(n), np.float64(s.sum()), np.float64(h.sum())))
    agreement_ci = kappa_ci = None
    _, groups = np.unique(np.asarray(items), return_inverse=True)
    n_groups = int(groups.max()) + 1 if n else 0
    if intervals and n_groups >= 2:
        per_group = np.stack([np.bincount(groups, weights=w, minlength=n_groups)
                              for w in (np.ones(n), (s == h).astype(float), s.astype(float), h.astype(float))])
        rng = np.random.default_rng(seed)
        drawn = rng.integers(0, n_groups, size=(BOOTSTRAP_RESAMPLES, n_groups))
        offsets = (np.arange(BOOTSTRAP_RESAMPLES)[:, None] * n_groups + drawn).ravel()
        weights = np.bincount(offsets, minlength=BOOTSTRAP_RESAMPLES * n_groups).reshape(BOOTSTRAP_RESAMPLES,
                                                                                          n_groups)
        total, agreeing, scorer_yes, human_yes = (weights @ per_group.T).T
        agreement_ci = _interval(agreeing / total)
        kappa_ci = _interval(_kappa(agreeing, total, scorer_yes, human_yes))
    return LabelFigures(
        n=n,
        human_correct=int(h.sum()),
        scorer_correct=int(s.sum()),
        agreement=agree / n if n else 0.0,
        agreement_ci=agreement_ci,
        kappa=None if np.isnan(kappa) else kappa,
        kappa_ci=kappa_ci,
        false_accepts=int((s & ~h).sum()),
        false_rejects=int((~s & h).sum()),
    )


def by_system(rows: Sequence[LabelledAnswer], scorer: Sequence[bool], *,
              intervals: bool = True) -> tuple[LabelFigures, dict[str, LabelFigures]]:
    """The figures over every answer, and per answering system (in order of first appearance)."""
    np = _np()
    human = np.array([r.correct for r in rows], dtype=bool)
    verdicts = np.asarray(scorer, dtype=bool)
    items = item_indices(rows)
    systems = np.array([r.system for r in rows], dtype=object)
    per_system = {}
    for system in dict.fromkeys(r.system for r in rows):
        keep = systems == system
        per_system[system] = figures(verdicts[keep], human[keep], items[keep], intervals=intervals)
    return figures(verdicts, human, items, intervals=intervals), per_system
