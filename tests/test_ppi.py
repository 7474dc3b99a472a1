"""Human-scale estimates (gaia_eval/metaeval/ppi.py, estimate.py), checked against a known truth: simulated
ratings of every output of five systems, from which samples are drawn many times. The interval must cover the
all-output human mean as often as it says (95 %) with a good automatic score and with a useless one, and the good
one must narrow it. The sample `annotate` draws (strata of unequal size, disagreement picks, repeats) must be
weighted so the estimate stays unbiased where the plain mean of the rated outputs is not.

The seeds are fixed, so every run computes the same figures; the thresholds are also statistical certainties for
any seed: 2,000 intervals with a true coverage of 95 % fall below 92 % with probability < 1e-6 (binomial)."""

from __future__ import annotations

import numpy as np
import pytest

from gaia_eval.annotate.sample import draw_sample
from gaia_eval.metaeval import ppi
from gaia_eval.metaeval.estimate import human_estimates, strata_of
from gaia_eval.metaeval.evaluated import EvaluatedOutput, EvaluatedSet
from gaia_eval.metaeval.ratings import RatedOutput

SYSTEMS, ITEMS, RATED = 5, 50, 10


def population(seed: int = 1):
    """Five systems' 50 outputs each: a latent quality, the integer human rating 1-5 of each output, a good
    automatic score (the latent quality plus noise, on a 0-100 scale) and a useless one (noise)."""
    rng = np.random.default_rng(seed)
    latent = np.array([2.4, 2.9, 3.3, 3.7, 4.1])[:, None] + rng.normal(0, 0.9, (SYSTEMS, ITEMS))
    human = np.clip(np.rint(latent + rng.normal(0, 0.4, (SYSTEMS, ITEMS))), 1, 5)
    good = 20 * latent + rng.normal(0, 10, (SYSTEMS, ITEMS))
    useless = rng.normal(50, 10, (SYSTEMS, ITEMS))
    return human, good, useless


def coverage_and_width(human, score, draws: int, rated: int, seed: int = 7) -> tuple[float, float, float]:
    """Share of intervals that hold the all-output mean (PPI++ and human-only) and the mean width ratio."""
    rng = np.random.default_rng(seed)
    truth = human.mean(axis=1)
    hits = hits_alone = 0
    widths, widths_alone = [], []
    for _ in range(draws):
        picked = [rng.choice(ITEMS, rated, replace=False) for _ in range(SYSTEMS)]
        groups = [list(zip(human[k, p], score[k, p], strict=True)) for k, p in enumerate(picked)]
        lam = ppi.power_tuned_lambda(groups)
        prior, prior_alone = ppi.pooled_residual_variance(groups, lam), ppi.pooled_residual_variance(groups, 0.0)
        for k, p in enumerate(picked):
            stratum = [ppi.Stratum(ITEMS, float(score[k].sum()), human[k, p].tolist(), score[k, p].tolist())]
            est = ppi.estimate_mean(stratum, lam, prior_variance=prior)
            alone = ppi.estimate_mean(stratum, 0.0, prior_variance=prior_alone)
            hits += est.ci95[0] <= truth[k] <= est.ci95[1]
            hits_alone += alone.ci95[0] <= truth[k] <= alone.ci95[1]
            widths.append(est.ci95[1] - est.ci95[0])
            widths_alone.append(alone.ci95[1] - alone.ci95[0])
    n = draws * SYSTEMS
    return hits / n, hits_alone / n, float(np.mean(widths) / np.mean(widths_alone))


def test_a_good_and_a_useless_score_both_keep_coverage_and_the_good_one_narrows_it():
    human, good, useless = population()
    covered, covered_alone, ratio = coverage_and_width(human, good, draws=400, rated=RATED)
    assert covered >= 0.92 and covered_alone >= 0.92
    assert ratio <= 0.85  # the goal: 0.85x the human-only width with 10 ratings per system
    covered, _, ratio = coverage_and_width(human, useless, draws=400, rated=RATED)
    assert covered >= 0.92
    assert 0.95 <= ratio <= 1.05  # power tuning sets a useless score aside: no narrower, hardly wider


def test_a_score_on_another_scale_or_reversed_is_corrected_alike():
    human, good, _ = population()
    base = coverage_and_width(human, good, draws=100, rated=RATED)
    flipped = coverage_and_width(human, 3.0 - good / 100, draws=100, rated=RATED)  # same information
    assert flipped == pytest.approx(base)


def test_ten_equal_ratings_still_give_an_interval_from_the_pooled_variance():
    # a good system rated 5 ten times: its own variance is 0, its interval must not be
    stratum = [ppi.Stratum(ITEMS, 0.0, [5.0] * 10, [0.0] * 10)]
    assert ppi.estimate_mean(stratum, 0.0).ci95 == (5.0, 5.0)  # the degenerate interval the prior prevents
    est = ppi.estimate_mean(stratum, 0.0, prior_variance=0.8)
    assert est.value == 5.0 and est.ci95[0] < 4.75 and est.ci95[1] == 5.0  # clipped to the scale


def test_every_output_rated_gives_the_exact_mean_and_no_width():
    human, good, _ = population()
    stratum = [ppi.Stratum(ITEMS, float(good[0].sum()), human[0].tolist(), good[0].tolist())]
    est = ppi.estimate_mean(stratum, lam=0.03)
    assert est.value == pytest.approx(human[0].mean()) and est.ci95[1] - est.ci95[0] == pytest.approx(0.0)


def test_too_few_ratings_give_no_estimate_and_lambda_zero_is_the_weighted_mean():
    assert ppi.estimate_mean([ppi.Stratum(10, 50.0, [4.0, 3.0], [5.0, 4.0])], 0.5) is None
    # two strata of 40 and 10 outputs, each rated twice: the weights are 40/2 and 10/2
    strata = [ppi.Stratum(40, 0.0, [2.0, 2.0], [0.0, 0.0]), ppi.Stratum(10, 0.0, [5.0, 5.0], [0.0, 0.0])]
    assert ppi.estimate_mean(strata, 0.0).value == pytest.approx((40 * 2 + 10 * 5) / 50)


def test_a_difference_between_two_systems_holds_its_truth():
    human, good, _ = population()
    rng = np.random.default_rng(3)
    truth = human[4].mean() - human[0].mean()
    hits = 0
    for _ in range(200):
        found = []
        picks = [rng.choice(ITEMS, RATED, replace=False) for _ in (0, 4)]
        lam = ppi.power_tuned_lambda([list(zip(human[k, p], good[k, p], strict=True)) for k, p in zip((0, 4), picks,
                                                                                                        strict=True)])
        for k, p in zip((0, 4), picks, strict=True):
            found.append(ppi.estimate_mean([ppi.Stratum(ITEMS, float(good[k].sum()), human[k, p].tolist(),
                                                        good[k, p].tolist())], lam))
        diff = ppi.difference(found[1], found[0])
        hits += diff.ci95[0] <= truth <= diff.ci95[1]
    assert hits >= 180  # 95 % of 200: below 180 has probability < 1e-3


# --- the annotation sample's design --------------------------------------------------------------------------

def _evaluated(seed: int = 5) -> tuple[EvaluatedSet, dict[tuple[str, str], float]]:
    """Two models whose grades sit mostly in different bands (strata of very unequal size), a criterion that
    disagrees with the grade on some outputs (disagreement picks), and each output's true human value."""
    rng = np.random.default_rng(seed)
    outputs, truth = {}, {}
    for model, centre in (("strong", 75.0), ("weak", 35.0)):
        for i in range(60):
            grade = float(np.clip(centre + rng.normal(0, 15), 0, 100))
            other = float(rng.uniform(0, 1)) if i % 7 == 0 else grade / 100
            key = (f"doc{i:02d}", model)
            truth[key] = float(np.clip(np.rint(1 + grade / 25 + rng.normal(0, 0.6)), 1, 5))
            outputs[key] = EvaluatedOutput(item_id=key[0], model=model, text=f"{model} {i}", sections=[],
                                           fingerprint=f"{model}{i}", source=None, reference=None,
                                           reference_sections=None, query=None,
                                           scores={"grade": grade, "other": other})
    return EvaluatedSet(use_case="summarization", mode="comparative", models=["strong", "weak"], outputs=outputs,
                        scorers=["grade", "other"]), truth


def _rows(sample, truth, dimensions=("relevance",)) -> list[RatedOutput]:
    """The rater's rows as meta-eval builds them: one per output, repeats averaged into it."""
    rated = dict.fromkeys((u.item_id, u.model) for u in sample.units)
    return [RatedOutput(0, item, model, "", None, (), dict.fromkeys(dimensions, (truth[item, model],)))
            for item, model in rated]


def test_the_sample_design_is_weighted_so_the_estimate_stays_unbiased():
    evaluated, truth = _evaluated()
    target = {m: np.mean([v for k, v in truth.items() if k[1] == m]) for m in evaluated.models}
    estimates = {m: [] for m in evaluated.models}
    plain = {m: [] for m in evaluated.models}
    for seed in range(150):
        sample = draw_sample(evaluated, 24, seed, ["relevance"])
        assert {u.reason for u in sample.units} == {"stratified", "disagreement", "repeat"}
        found = human_estimates(evaluated, sample, _rows(sample, truth), ["relevance"], scorer="grade")
        for e in found.systems:
            estimates[e.system].append(e.human_only.value)
            rated = {(u.item_id, u.model) for u in sample.units if u.model == e.system}
            plain[e.system].append(np.mean([truth[k] for k in rated]))
    for model in evaluated.models:
        # unbiased: the mean of 150 estimates sits within 4 standard errors of the truth...
        spread = np.std(estimates[model]) / np.sqrt(len(estimates[model]))
        assert abs(np.mean(estimates[model]) - target[model]) < max(4 * spread, 0.03), model
    # ...while the plain mean of the rated outputs is pulled toward the small strata the draw over-samples
    biased = max(evaluated.models, key=lambda m: abs(np.mean(plain[m]) - target[m]))
    spread = np.std(plain[biased]) / np.sqrt(len(plain[biased]))
    assert abs(np.mean(plain[biased]) - target[biased]) > max(6 * spread, 0.1)


def test_strata_are_the_models_bands_and_the_disagreement_picks():
    evaluated, _ = _evaluated()
    sample = draw_sample(evaluated, 24, 0, ["relevance"])
    strata = strata_of(evaluated, sample)
    picked = {(u.item_id, u.model) for u in sample.units if u.reason == "disagreement"}
    assert picked and all(strata[k][1] == "disagreement" for k in picked)
    assert {s for k, s in strata.items() if k not in picked} <= {(m, f"band {b}") for m in evaluated.models
                                                                  for b in range(3)}


def test_a_rater_who_filled_some_dimensions_gets_estimates_for_those():
    evaluated, truth = _evaluated()
    sample = draw_sample(evaluated, 24, 0, ["relevance", "consistency"])
    found = human_estimates(evaluated, sample, _rows(sample, truth), ["relevance", "consistency"])
    assert {e.dimension for e in found.systems} == {"relevance"}
    assert {(d.a, d.b) for d in found.differences} == {("strong", "weak")}
    e = found.systems[0]
    assert e.human_estimate.method == "ppi++" and e.human_only.method == "human-only"
    assert e.human_estimate.n_outputs == 60 and e.human_estimate.n_rated == len(
        {u.item_id for u in sample.units if u.model == e.system})


def test_skewed_ratings_keep_coverage_where_the_plain_t_interval_does_not():
    """Most outputs rated 5 (a good system on consistency): ten ratings are often all 5."""
    rng = np.random.default_rng(11)
    human = np.where(rng.random((SYSTEMS, ITEMS)) < np.array([0.9, 0.85, 0.8, 0.75, 0.7])[:, None], 5.0,
                     rng.integers(1, 5, (SYSTEMS, ITEMS)).astype(float))
    score = human + rng.normal(0, 2.0, (SYSTEMS, ITEMS))
    covered, covered_alone, _ = coverage_and_width(human, score, draws=400, rated=RATED)
    assert covered >= 0.92 and covered_alone >= 0.92


def test_the_readme_prints_these_figures():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    human, good, useless = population()
    covered, _, ratio = coverage_and_width(human, good, draws=400, rated=RATED)
    covered_useless, _, ratio_useless = coverage_and_width(human, useless, draws=400, rated=RATED)
    assert (f"cover the all-output mean in **{100 * covered:.1f} %** of\ndraws with a good score (width "
            f"**{ratio:.2f}** × the human-only interval's) and **{100 * covered_useless:.1f} %** with a useless\n"
            f"one (width **{ratio_useless:.2f}** ×)") in readme


def test_a_sure_difference_reads_in_the_order_of_the_models():
    from gaia_eval.artifacts.metaeval import Interval, SystemDifference
    from gaia_eval.metaeval.trust import _difference_sentence

    def diff(value, low, high):
        interval = Interval(value=value, ci95=(low, high), method="ppi++", n_rated=20, n_outputs=100)
        return SystemDifference(a="A", b="B", dimension="relevance", scorer="grade", human_estimate=interval,
                                human_only=interval)

    assert _difference_sentence(diff(-0.8, -1.3, -0.3)) == "B above A on relevance by 0.8 (0.3–1.3)"
    assert _difference_sentence(diff(0.5, 0.1, 0.9)) == "A above B on relevance by 0.5 (0.1–0.9)"
