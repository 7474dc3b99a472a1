"""Agreement statistics: Krippendorff's ordinal alpha against published and independently computed values,
its undefined cases, and the simple shares the report prints."""

from __future__ import annotations

import pytest

from gaia_eval.scoring.judge.agreement import ordinal_alpha, paired_agreement, unanimous_share

N = None


def units_of(coders: list[list[int | None]]) -> list[tuple[int | None, ...]]:
    """Reliability data given coder by coder (rows), as units (columns)."""
    return list(zip(*coders, strict=True))


def test_worked_example_of_krippendorff_2011_gives_the_published_ordinal_alpha():
    # "Computing Krippendorff's Alpha-Reliability" (2011), section C: 4 observers, 12 units, missing values;
    # the paper reports alpha_ordinal = 0.815.
    coders = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
        [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
    ]
    alpha = ordinal_alpha(units_of(coders))
    assert alpha.value == pytest.approx(0.815, abs=5e-4)
    assert alpha.pairable_values == 40  # 41 values; unit 12 holds a single one and is not pairable
    assert alpha.reason is None


@pytest.mark.parametrize(
    ("coders", "expected"),
    [
        # Values computed with the `krippendorff` PyPI package 0.9.0 (level_of_measurement="ordinal").
        ([[3, 1, 4, 4, 4], [4, 2, 1, 4, 1]], -0.0851063829787233),
        ([[2, 3, 1, 3, N], [4, N, 2, 3, 3], [N, 4, N, 4, N], [1, 4, 2, 4, 4]], 0.3070152505446624),
        ([[N, N, 2, 4, N, 3, N], [3, 4, 3, N, N, 1, 4]], -0.41666666666666674),
    ],
)
def test_alpha_matches_an_independent_implementation(coders, expected):
    assert ordinal_alpha(units_of(coders)).value == pytest.approx(expected, abs=1e-9)


def test_perfect_agreement_is_one_and_order_of_coders_does_not_matter():
    units = [(1, 1, 1), (4, 4, 4), (2, 2, N), (3, 3, 3)]
    assert ordinal_alpha(units).value == pytest.approx(1.0)
    swapped = [(b, a) for a, b in [(1, 2), (3, 4), (4, 4), (2, 1)]]
    assert ordinal_alpha(swapped).value == ordinal_alpha([(1, 2), (3, 4), (4, 4), (2, 1)]).value


def test_ordinal_metric_penalizes_far_disagreements_more_than_near_ones():
    base = [(1, 1), (2, 2), (3, 3), (4, 4), (1, 1), (4, 4)]
    near = ordinal_alpha([*base, (3, 4)]).value
    far = ordinal_alpha([*base, (1, 4)]).value
    assert near is not None and far is not None and near > far


def test_alpha_is_undefined_with_a_reason_when_there_is_nothing_to_separate_from_chance():
    same = ordinal_alpha([(3, 3), (3, 3, 3)])
    assert same.value is None and "same value" in (same.reason or "")
    lonely = ordinal_alpha([(3, N), (N, 2), (4,)])
    assert lonely.value is None and "two or more" in (lonely.reason or "")
    assert ordinal_alpha([]).value is None


def test_unanimous_share_counts_only_groups_that_can_disagree():
    groups = [("Good", "Good"), ("Good", "Poor"), ("Excellent",), (("Good", "Fair"), ("Good", "Fair"))]
    assert unanimous_share(groups) == pytest.approx(2 / 3)
    assert unanimous_share([("Good",)]) is None


def test_paired_agreement_exact_and_within_one_step():
    exact, within = paired_agreement([(4, 4), (3, 4), (1, 4), (2, 2)])
    assert exact == pytest.approx(0.5) and within == pytest.approx(0.75)
    assert paired_agreement([]) == (None, None)
