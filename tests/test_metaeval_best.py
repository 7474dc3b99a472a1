"""A "best" score against a user's own ratings is named only when the ratings show it (issue 28, item 4): enough
rated outputs, above every baseline, and separated from the runner-up by a paired bootstrap interval. The case
that prompted it: 20 rated QA answers, `reference_overlap` perfect on the 4 outputs (of 2 items) it applied to, the
grade below the ROUGE-1 recall baseline over all 20."""

from __future__ import annotations

import math

import numpy as np

from gaia_eval.artifacts.metaeval import ScorerAgreement
from gaia_eval.metaeval.best import MIN_BEST_OUTPUTS, pick_best
from gaia_eval.metaeval.own import output_level


def _results(scores: dict[str, list[float]], human: list[float], items: list[str], baselines=()) -> list:
    out = []
    for name, values in scores.items():
        tau, ci, n = output_level(values, human, items)
        out.append(ScorerAgreement(scorer=name, dimension="correctness", baseline=name in baselines,
                                   system_kendall=None, system_spearman=None, system_pearson=None,
                                   summary_level=None, pairwise_accuracy=None, output_kendall=tau,
                                   output_kendall_ci=ci, n_outputs=n))
    return out


def test_the_reported_case_names_no_best_score_and_says_why_with_the_n():
    rng = np.random.default_rng(0)
    items = [f"q{i // 2}" for i in range(20)]  # 10 questions x 2 models
    human = [float(v) for v in rng.integers(1, 6, 20)]
    overlap = [math.nan] * 20
    for i in range(4):  # long-form answers of 2 questions: the only outputs it scores, in the rater's order
        overlap[i] = human[i] + 0.1 * i
    rouge = [h + rng.normal(0, 0.6) for h in human]  # the baseline follows the ratings closely
    grade = [h + rng.normal(0, 3.0) for h in human]  # the grade, loosely
    scores = {"reference_overlap": overlap, "grade": grade, "rouge1_recall": rouge, "length": list(rng.random(20))}
    results = _results(scores, human, items, baselines=("rouge1_recall", "length"))
    best, withheld = pick_best(results, scores, {"correctness": human}, items, ["correctness"])
    assert best == {}
    assert "reference_overlap" in withheld["correctness"] and "4 rated outputs" in withheld["correctness"]
    # with reference_overlap out of the way, the grade is measured against the baseline that beats it
    del scores["reference_overlap"]
    results = _results(scores, human, items, baselines=("rouge1_recall", "length"))
    best, withheld = pick_best(results, scores, {"correctness": human}, items, ["correctness"])
    assert best == {} and "the baseline rouge1_recall agrees at least as well" in withheld["correctness"]
    assert "over 20 rated outputs" in withheld["correctness"]


def _case(noise_second: float, n: int = 60, seed: int = 1):
    rng = np.random.default_rng(seed)
    items = [f"d{i // 3}" for i in range(n)]
    human = [float(v) for v in rng.integers(1, 6, n)]
    scores = {"grade": [h + rng.normal(0, 0.3) for h in human],
              "other": [h + rng.normal(0, noise_second) for h in human],
              "length": list(rng.random(n))}
    results = _results(scores, human, items, baselines=("length",))
    return pick_best(results, scores, {"correctness": human}, items, ["correctness"])


def test_a_clear_lead_over_enough_outputs_is_named():
    best, withheld = _case(noise_second=5.0)
    assert best == {"correctness": "grade"} and withheld == {}


def test_a_lead_the_interval_does_not_separate_is_withheld():
    best, withheld = _case(noise_second=0.35)
    assert best == {} and "not separated from other" in withheld["correctness"]


def test_fewer_outputs_than_the_minimum_are_never_enough():
    best, withheld = _case(noise_second=5.0, n=MIN_BEST_OUTPUTS - 1)
    assert best == {} and f"over {MIN_BEST_OUTPUTS - 1} rated outputs" in withheld["correctness"]


def test_many_outputs_of_two_items_are_not_enough():
    # 12 systems' answers to 2 questions: 24 rated outputs, but the item bootstrap has 2 items to resample (3
    # distinct draws), so any lead "separates" — the 4-outputs-of-2-items case again, with more systems.
    rng = np.random.default_rng(3)
    items = [f"q{i // 12}" for i in range(24)]
    human = [float(v) for v in rng.integers(1, 6, 24)]
    scores = {"grade": [h + rng.normal(0, 0.05) for h in human],
              "other": [h + rng.normal(0, 3.0) for h in human], "length": list(rng.random(24))}
    results = _results(scores, human, items, baselines=("length",))
    best, withheld = pick_best(results, scores, {"correctness": human}, items, ["correctness"])
    assert best == {} and "2 rated items" in withheld["correctness"]
