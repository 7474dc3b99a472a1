"""`answer_agreement.json`: how well each answer-matching mode agreed with people's correct/incorrect judgments
of real answers (written by `gaia-eval meta-eval LABELS.jsonl -o`; in an evaluation folder the report reads it
to say how far a question-answering pass rate can be trusted). The packaged figures of the default matcher on
public data (gaia_eval/data/answer_agreement.json) are a `PackagedAnswerAgreement`."""

from __future__ import annotations

from pydantic import Field

from gaia_eval.artifacts.base import Artifact, Count, Finite, Share, Strict


class LabelFigures(Strict):
    """One scorer's verdicts against the people's on a set of answers. Intervals: 95 % percentile bootstrap over
    items (questions); None when there are too few items, or kappa is undefined (one side always says the same)."""

    n: Count
    human_correct: Count  # answers people judged correct
    scorer_correct: Count  # answers the scorer accepted
    agreement: Share
    agreement_ci: tuple[Finite, Finite] | None = None
    kappa: Finite | None = None  # Cohen's kappa: agreement beyond chance
    kappa_ci: tuple[Finite, Finite] | None = None
    false_accepts: Count  # accepted, judged incorrect
    false_rejects: Count  # refused, judged correct


class ScorerLabelAgreement(Strict):
    scorer: str  # a match mode's name (options after a space, e.g. "f1 threshold=0.3"), or a baseline's
    baseline: bool = False  # substring or exact_match
    overall: LabelFigures
    systems: dict[str, LabelFigures] = Field(default_factory=dict)


class LabelFold(Strict):
    """One fold of the cross-validation: the rule chosen on the other folds, and how it did on this one."""

    fold: Count
    train_items: Count
    test_items: Count
    chosen: str
    train_agreement: Share
    held_out: LabelFigures


class LabelCrossValidation(Strict):
    folds: list[LabelFold]
    candidates: list[str]  # the rules chosen among (each mode, thresholds, the baselines)
    held_out: LabelFigures  # every answer judged by the rule chosen without its fold
    compared: dict[str, LabelFigures] = Field(default_factory=dict)  # fixed rules on the same answers


class AnswerAgreement(Artifact):
    labels_file: str
    n_items: Count
    n_answers: Count
    systems: list[str]
    human_correct: Count
    results: list[ScorerLabelAgreement]
    not_measured: dict[str, str] = Field(default_factory=dict)  # mode -> why it could not run here
    best: str | None = None  # the match mode with the highest overall agreement
    bootstrap: dict[str, float] = Field(default_factory=dict)  # resamples, seed, confidence
    cross_validation: LabelCrossValidation | None = None
    notes: list[str] = Field(default_factory=list)

    def result(self, scorer: str) -> ScorerLabelAgreement | None:
        return next((r for r in self.results if r.scorer == scorer), None)


class AnswerShapeFigures(Strict):
    """A match mode on answers of one shape (short, sentence, paragraph)."""

    mode: str
    shape: str
    figures: LabelFigures
    substring: LabelFigures  # the substring baseline on the same answers


class PackagedAnswerAgreement(Artifact):
    """The match modes measured on a public dataset of judged answers, per shape of answer, with the provenance
    that says when the figures are stale (the matcher's fingerprint)."""

    dataset: str
    source: str
    licence: str
    modes: list[str]  # the default first
    not_measured: dict[str, str] = Field(default_factory=dict)  # mode -> why it could not run there
    matcher_fingerprint: str
    measured: str  # the date, YYYY-MM-DD
    command: str  # how to measure them again
    n_answers: Count
    shapes: list[AnswerShapeFigures]
