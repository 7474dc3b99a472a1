"""The report's data model: per use case, the models ranked with their criteria, judge, cost and timing, built
only from evaluation files. The report stage renders it; the viewer shows it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path, PurePosixPath
from typing import Any

from gaia_eval import cells
from gaia_eval.artifacts.evaluation import NOT_APPLICABLE, RATINGS, Evaluation, JudgeSummary
from gaia_eval.artifacts.recorded import recorded_path
from gaia_eval.artifacts.store import fingerprint_file, read_artifact
from gaia_eval.errors import InputError
from gaia_eval.metaeval.answer_trust import own_answer_trust, packaged_answer_trust
from gaia_eval.metaeval.trust import packaged_trust, trust_for
from gaia_eval.reporting import use_case_view
from gaia_eval.reporting.extra import add_extra_criteria
from gaia_eval.reporting.provenance import groundtruth_identity, groundtruth_origin
from gaia_eval.scoring import rubric
from gaia_eval.scoring.judge import criterion_labels

MIN_ITEMS_FOR_RANKING = 30
# Below this many items shared by the best two models, the report never calls the lead clear, whatever the paired
# interval says: a bootstrap over 2 or 3 differences is all-positive by chance too often to mean anything.
MIN_ITEMS_FOR_CLEAR_LEAD = 10


def load_evaluations(eval_dir: Path) -> list[tuple[Path, Evaluation]]:
    eval_dir = Path(eval_dir)
    if not eval_dir.is_dir():
        raise InputError("folder not found", file=eval_dir, fix="pass the folder `gaia-eval eval` wrote (-o)")
    files = sorted(eval_dir.rglob("*.experiment.eval.json"))
    if not files:
        unscored = next(eval_dir.rglob("*.experiment.json"), None) or next(eval_dir.rglob("*.template.*"), None)
        fix = (
            f"this folder holds experiments, not evaluations: run `gaia-eval eval -d {eval_dir} -o evaluation`, "
            "then `gaia-eval report -d evaluation`"
            if unscored is not None
            else "run `gaia-eval eval -d EXPERIMENTS -o FOLDER` first and pass that FOLDER with -d"
        )
        raise InputError("holds no *.experiment.eval.json files", file=eval_dir, fix=fix)
    return [(p, read_artifact(p, Evaluation)) for p in files]


def _criterion_score(counts: dict[str, int]) -> float:
    return round(rubric.quality_score(counts), 1)


def _criterion_rating(counts: dict[str, int]) -> str:
    """A criterion's rating is the documented band of its own score, like the grade's, so a cell never reads
    "Excellent (82)" beside a "Good" grade of 82.5; every item N/A (nothing to check) reads N/A."""
    if not any(counts.get(r) for r in RATINGS):
        return "N/A" if counts.get("N/A") else "—"
    return rubric.rating_band(rubric.quality_score(counts))


def _item_points(ev: Evaluation) -> dict[str, float]:
    names = [c.criterion for c in ev.criteria]
    return {item.item_id: rubric.item_points(item, names) for item in ev.items}


def _share(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f} %"


def _alpha(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


# Below this agreement with the deterministic rubric (Krippendorff's alpha over items rated by both, from at least
# JUDGE_TRUST_MIN_PAIRS of them), or above this share of unscored items, the report says in words that the judge's
# grades are not to be trusted. 0.4 is a low bar (0.667 is the usual floor for tentative conclusions): a judge
# below it disagrees with plain checks about as often as chance would.
JUDGE_TRUST_MIN_ALPHA = 0.4
JUDGE_TRUST_MIN_PAIRS = 5
JUDGE_TRUST_MAX_UNSCORED = 0.2


def _judge_distrust(judge: JudgeSummary) -> list[str]:
    """Why the judge's grades should not be trusted, in words; empty when nothing says so."""
    reasons = []
    versus = judge.judge_vs_rubric
    if versus is not None and versus.pairs >= JUDGE_TRUST_MIN_PAIRS:
        alpha = versus.krippendorff_alpha
        if alpha is None or alpha < JUDGE_TRUST_MIN_ALPHA:
            shown = f"{alpha:.2f}" if alpha is not None else "undefined"
            reasons.append(f"its ratings agree with the deterministic rubric at Krippendorff's α {shown} over "
                           f"{versus.pairs} ratings (trust needs at least {JUDGE_TRUST_MIN_ALPHA})")
    rated = judge.judged_items + judge.unscored_items
    if rated and judge.unscored_items / rated > JUDGE_TRUST_MAX_UNSCORED:
        reasons.append(f"it could not score {judge.unscored_items} of {rated} items")
    return reasons


def _judge_row(judge: JudgeSummary | None) -> dict[str, Any] | None:
    """The judge's numbers for one model, kept apart from the deterministic ones and from the model's cost."""
    if judge is None:
        return None
    labels = criterion_labels()
    grade = judge.grade
    agreement = judge.agreement
    versus = judge.judge_vs_rubric
    return {
        "spec": judge.spec,
        "mode": judge.mode,
        "standalone": judge.mode == "standalone",
        "samples_per_item": judge.samples_per_item,
        "median_rule": judge.median_rule,
        "quality_score": round(grade.quality_score, 1) if grade is not None else None,
        "overall_rating": rubric.rating_band(grade.quality_score) if grade is not None else None,
        "judged_items": judge.judged_items,
        "unscored_items": judge.unscored_items,
        "failed_samples": judge.failed_samples,
        "excerpted_items": judge.excerpted_items,
        "criteria": {
            c.criterion: {
                "label": labels.get(c.criterion, c.criterion),  # a user's own criterion (--judge-criteria)
                "score": _criterion_score(c.counts) if sum(c.counts.values()) else None,
                "rating": _criterion_rating(c.counts) if sum(c.counts.values()) else None,
                "counts": c.counts,
            }
            for c in judge.criteria
        },
        "samples": {
            "items_compared": agreement.items_compared,
            "unanimous_share": agreement.unanimous_share,
            "alpha": agreement.krippendorff_alpha,
            "alpha_note": agreement.alpha_note,
            "text": "— (1 sample per item)"
            if judge.samples_per_item < 2
            else "— (no item with two scored samples)"
            if agreement.items_compared == 0
            else f"unanimous {_share(agreement.unanimous_share)}, α {_alpha(agreement.krippendorff_alpha)}",
        },
        "vs_rubric": None
        if versus is None
        else {
            "pairs": versus.pairs,
            "exact_agreement": versus.exact_agreement,
            "within_one": versus.within_one,
            "alpha": versus.krippendorff_alpha,
            "alpha_note": versus.alpha_note,
            "text": "— (no item rated by both)"
            if versus.pairs == 0
            else f"exact {_share(versus.exact_agreement)}, within one {_share(versus.within_one)}, "
            f"α {_alpha(versus.krippendorff_alpha)}",
        },
        "cost_usd": judge.cost_usd,
        "cost_status": judge.cost_status,
        "cost_text": cells.cost_text(judge.cost_usd, judge.cost_status),
        "input_tokens": judge.usage.input_tokens,
        "output_tokens": judge.usage.output_tokens,
        "calls": judge.calls,
        "distrust": _judge_distrust(judge),
    }


def _model_row(path: Path, ev: Evaluation, eval_dir: Path) -> dict[str, Any]:
    # A model that answered nothing has no cost or latency to show: "—", not "$0 (local)" or 0.000 s; answers
    # nobody timed (a filled template, imported outputs) have no latency either (see gaia_eval.cells).
    answered, timed = cells.answered(ev), cells.timed(ev)
    points = list(_item_points(ev).values())
    ci = rubric.bootstrap_ci(points)
    return {
        "experiment_name": ev.experiment_name,
        "provider": ev.provider,
        "model": ev.model,
        "model_label": cells.model_label(ev.provider, ev.model),
        "mode": ev.mode,
        "quality_score": round(ev.grade.quality_score, 1),
        "ci_low": round(ci[0], 1) if ci else None,
        "ci_high": round(ci[1], 1) if ci else None,
        "overall_rating": rubric.rating_band(ev.grade.quality_score),  # the documented band, whatever wrote the file
        "n_items": ev.grade.n_items,
        "errors": ev.grade.n_errors,
        "pass_rate": ev.grade.pass_rate,
        # the items the pass rate is over (as rubric.aggregate counts them): not a long-form answer's
        "pass_rate_items": sum(1 for i in ev.items if i.status == "error" or i.passed is not None),
        "criteria": {
            c.criterion: {
                "label": use_case_view.criterion_label(ev.use_case, c.criterion),
                "score": _criterion_score(c.counts),
                "rating": _criterion_rating(c.counts),
                "counts": c.counts,
                "mean_value": round(c.mean_value, 3) if c.mean_value is not None else None,
            }
            for c in ev.criteria
        },
        "cost_usd": ev.inference.cost_usd if answered else None,
        "cost_status": ev.inference.cost_status if answered else "no answers",
        "cost_text": cells.model_cost_text(ev),
        "cost_per_item_text": cells.cost_per_item_text(ev),
        "latency_text": cells.latency_text(ev),
        "latency_mean_s": ev.inference.latency_mean_s if timed else None,
        "latency_p95_s": ev.inference.latency_p95_s,
        "timing": {
            "min_s": ev.inference.latency_min_s, "max_s": ev.inference.latency_max_s,
            "mean_s": ev.inference.latency_mean_s, "p50_s": ev.inference.latency_p50_s,
            "p95_s": ev.inference.latency_p95_s,
        } if timed else None,
        "cost_per_item_usd": (round(ev.inference.cost_usd / ev.inference.items_answered, 6)
                              if answered and ev.inference.cost_usd is not None and ev.inference.items_answered
                              else None),
        "input_tokens": ev.inference.usage.input_tokens,
        "output_tokens": ev.inference.usage.output_tokens,
        "time_to_success_p50_s": ev.inference.time_to_success_p50_s,
        "time_to_success_p95_s": ev.inference.time_to_success_p95_s,
        "retried_items": ev.inference.retried_items,
        "batched_items": ev.inference.batched_items,
        "evaluation_file": path.relative_to(eval_dir).as_posix(),
        "evaluation_fingerprint": fingerprint_file(path),
        "experiment_file": ev.experiment_file,
        "experiment_fingerprint": ev.experiment_fingerprint,
        "groundtruth_source": ev.groundtruth_source,
        "groundtruth_origin": groundtruth_origin(ev, eval_dir),
        "judge": _judge_row(ev.judge),
        # Per item, the rubric's 0-100 points (the grade is their mean over ratings): for the distribution chart.
        "item_scores": [round(v, 1) for v in _item_points(ev).values()],
    }


def _comparison(best: Evaluation, other: Evaluation, other_name: str | None = None) -> dict[str, Any]:
    """Paired comparison on the items both models were scored on: mean difference and its bootstrap interval.
    (`lead_is_clear`, not `clear`: jinja2 would resolve `cmp.clear` to the dict method, which is always true.)"""
    a, b = _item_points(best), _item_points(other)
    shared = sorted(set(a) & set(b))
    diffs = [a[i] - b[i] for i in shared]
    ci = rubric.bootstrap_ci(diffs)
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    return {
        "other": other_name or other.experiment_name,
        "shared_items": len(shared),
        "mean_difference": round(mean, 1),
        "abs_difference": round(abs(mean), 1),
        "direction": "higher" if mean >= 0 else "lower",
        "ci_low": round(ci[0], 1) if ci else None,
        "ci_high": round(ci[1], 1) if ci else None,
        "too_few_to_call": len(shared) < MIN_ITEMS_FOR_CLEAR_LEAD,
        "lead_is_clear": bool(ci and ci[0] > 0) and len(shared) >= MIN_ITEMS_FOR_CLEAR_LEAD,
        "runner_up_ahead": bool(ci and ci[1] < 0),  # possible when the two were scored on different item sets
    }


def _names(groups: dict[Any, list[str]], describe) -> str:
    return "; ".join(f"{', '.join(names)}: {describe(key)}" for key, names in groups.items())


def _comparability_warnings(
    entries: list[tuple[Path, Evaluation]], rows: list[dict[str, Any]], names: list[str]
) -> list[str]:
    """What makes the ranked grades not like for like: models scored on different items, or against different
    ground truth. Each warning names the models on each side."""
    if len(entries) < 2:
        return []
    warnings = []
    by_items: dict[frozenset[str], list[str]] = defaultdict(list)
    for (_, ev), name in zip(entries, names, strict=True):
        by_items[frozenset(i.item_id for i in ev.items)].append(name)
    if len(by_items) > 1:
        shared = frozenset.intersection(*by_items)
        warnings.append(
            f"the ranked models were scored on different items ({_names(by_items, lambda s: f'{len(s)} items')}; "
            f"{len(shared)} shared by all), so their grades are not over the same questions: compare them on the "
            "shared items (the per-item table) or score every model on the same ground truth")
    by_truth: dict[str, list[str]] = defaultdict(list)  # the file scored against -> the models
    described: dict[str, str] = {}
    for (path, ev), row, name in zip(entries, rows, names, strict=False):
        if ev.groundtruth_source == "none":  # standalone: no ground truth, so none to differ
            continue
        identity = groundtruth_identity(ev, path.parent)
        by_truth[identity].append(name)
        described.setdefault(identity, f"{ev.groundtruth_source}, {row['groundtruth_origin']}")
    if len(by_truth) > 1:
        warnings.append(
            f"the ranked models were scored against different ground truth ({_names(by_truth, described.get)}), "
            "so a higher grade may only mean an easier reference: score them against the same ground truth (eval -g)")
    return warnings


def _told_apart(entries: list[tuple[Path, Evaluation]], eval_dir: Path) -> list[str]:
    """Each ranked model's name in the report: its experiment's name, and where two evaluations in one ranking
    share a name (`baseline-textrank` run on ground truth and on raw documents, evaluated into two folders), the
    folder of each after it, so the ranking never lists one name twice for two different models."""
    counts: dict[str, int] = defaultdict(int)
    for _, ev in entries:
        counts[ev.experiment_name] += 1
    folder_name = PurePosixPath(recorded_path(eval_dir)).name  # `ev` of s3://bucket/run/ev, not its mirror's name
    return [
        f"{ev.experiment_name} ({(Path(folder_name) / path.relative_to(eval_dir)).parent.as_posix()})"
        if counts[ev.experiment_name] > 1 else ev.experiment_name
        for path, ev in entries
    ]


def _long_form(ev: Evaluation) -> bool:
    """An evaluation of answers to questions scored as long-form (free-text criteria against reference answers)."""
    return use_case_view.long_form(ev.use_case, (c.criterion for c in ev.criteria))


def _answer_trust(eval_dir: Path, entries: list[tuple[Path, Evaluation]]) -> dict[str, Any] | None:
    """How far the section's pass rates can be trusted: the user's own labels' figures for the match mode the
    evaluations used (answer_agreement.json beside them), else the packaged figures of that mode."""
    modes = sorted({ev.match_mode or "gaia" for _, ev in entries})
    own = [found for mode in modes if (found := own_answer_trust(eval_dir, mode)) is not None]
    if own:
        return {"own": own, "packaged": None}
    packaged = [found for mode in modes if (found := packaged_answer_trust(mode)) is not None]
    return {"own": [], "packaged": packaged} if packaged else None


def _covered(row: dict[str, Any], criterion: str | None) -> int:
    """The items of a model's row a headline column is over: its pass rate's (None), or a criterion's (not N/A)."""
    if criterion is None:
        return int(row["pass_rate_items"])
    counts = row["criteria"].get(criterion, {}).get("counts", {})
    return sum(n for rating, n in counts.items() if rating != NOT_APPLICABLE)


def _covers(rows: list[dict[str, Any]], criterion: str | None) -> str | None:
    """"24 of 25 items" when a headline column is over fewer items than a model has (a qa set mixing short and
    long-form answers: the pass rate is the short ones', the free-text criteria the long ones'); None otherwise."""
    pairs = sorted({(_covered(r, criterion), r["n_items"]) for r in rows})
    if all(covered in (0, n) for covered, n in pairs):
        return None  # over every item, or none (its cells all read N/A)
    if len(pairs) == 1:
        return f"{pairs[0][0]} of {pairs[0][1]} item{'s' if pairs[0][1] != 1 else ''}"
    return ", ".join(f"{covered}/{n}" for covered, n in pairs) + " items"


def _answer_kinds(rows: list[dict[str, Any]], criteria: list[str]) -> dict[str, int]:
    """How many of the (first-ranked) model's items have a long-form reference answer, and how many a short one."""
    row = rows[0]
    long_form = max((_covered(row, c) for c in criteria if c in rubric.REFERENCE_CRITERIA), default=0)
    return {"long_form": long_form, "short": max(0, int(row["n_items"]) - long_form)}


def _answers_kind(long_form: bool, rows: list[dict[str, Any]], criteria: list[str]) -> str:
    """The title's word on the answers: "long-form answers" only when they all are."""
    if not long_form or not rows:
        return ""
    kinds = _answer_kinds(rows, criteria)
    return " — long-form answers" if kinds["short"] == 0 else " — short and long-form answers"


def build_report_data(eval_dir: Path) -> dict[str, Any]:
    eval_dir = Path(eval_dir)
    loaded = load_evaluations(eval_dir)
    # One section per use case and mode: standalone scores (no ground truth) are on another scale than
    # comparative ones and are never ranked against them.
    # Long-form qa answers (scored with the free-text criteria) are on another scale than short ones, too.
    groups: dict[tuple[str, str, bool], list[tuple[Path, Evaluation]]] = defaultdict(list)
    for path, ev in loaded:
        groups[(ev.use_case, ev.mode, _long_form(ev))].append((path, ev))
    sections = []
    for use_case, mode, long_form in sorted(groups, key=lambda k: (use_case_view.section_order(k[0]), k[1], k[2])):
        asks_questions = use_case_view.asks_questions(use_case)
        entries = sorted(
            groups[(use_case, mode, long_form)], key=lambda pe: (-pe[1].grade.quality_score, pe[1].experiment_name)
        )
        rows = [_model_row(p, ev, eval_dir) for p, ev in entries]
        names = _told_apart(entries, eval_dir)
        for rank, (row, name) in enumerate(zip(rows, names, strict=True), 1):
            row["rank"], row["experiment_name"] = rank, name
        extra = add_extra_criteria([ev for _, ev in entries], rows)  # eval --scorer: beside the grade, not in it
        criteria = list(rows[0]["criteria"]) if rows else []
        item_ids = sorted({i.item_id for _, ev in entries for i in ev.items})
        by_id = [{i.item_id: i for i in reversed(ev.items)} for _, ev in entries]  # first wins; a scan was quadratic
        per_item = []
        for item_id in item_ids:
            row_cells = []
            for (_, ev), items in zip(entries, by_id, strict=True):
                item = items.get(item_id)
                if item is None:
                    row_cells.append("—")
                elif item.status == "error":
                    row_cells.append("error")
                elif asks_questions and item.passed is not None:
                    row_cells.append("pass" if item.passed else "fail")
                else:
                    row_cells.append(f"{rubric.item_points(item, [c.criterion for c in ev.criteria]):.0f}")
            per_item.append({"item_id": item_id, "cells": row_cells})
        modes = sorted({ev.mode for _, ev in entries})
        judged = [row for row in rows if row["judge"] is not None]
        judge_criteria: dict[str, str] = {}  # the union over judged models, in criterion order
        for row in judged:
            for cid, c in row["judge"]["criteria"].items():
                judge_criteria.setdefault(cid, c["label"])
        sections.append(
            {
                "use_case": use_case,
                "title": use_case_view.title(use_case) + (" (standalone)" if mode == "standalone" else "")
                + _answers_kind(long_form, rows, criteria),
                "answer_kinds": _answer_kinds(rows, criteria) if long_form else None,
                "long_form": long_form,
                "pass_fail_items": asks_questions and not long_form,  # per-item cells read pass/fail, not points
                "pass_rates": any(r["pass_rate"] is not None for r in rows),
                "modes": modes,
                "standalone": "standalone" in modes,
                "criteria": [{"id": c, "label": use_case_view.criterion_label(use_case, c), "covers": _covers(rows, c)}
                             for c in criteria],
                "pass_rate_covers": _covers(rows, None),
                "models": rows,
                "comparison": _comparison(entries[0][1], entries[1][1], names[1]) if len(entries) > 1 else None,
                "warnings": _comparability_warnings(entries, rows, names),
                "n_items": max(r["n_items"] for r in rows),
                "small_sample": max(r["n_items"] for r in rows) < MIN_ITEMS_FOR_RANKING,
                "per_item": per_item,
                "judged": bool(judged),
                "judge_standalone": any(row["judge"]["standalone"] for row in judged),
                "judge_criteria": [{"id": cid, "label": label} for cid, label in judge_criteria.items()],
                # a meta-evaluation is read for an installed use case only: what it applies to is the use case's say
                "trust": (trust := trust_for(eval_dir, use_case, mode) if use_case_view.registered(use_case) else None),
                # the free-text grade's agreement measured on public human ratings, until the user's own replaces it
                "packaged_trust": packaged_trust() if trust is None and "source_coverage" in criteria else None,
                # the answer matcher's agreement with people, under a table of pass rates: the user's labels, else
                # the packaged figures per shape of answer
                "answer_trust": _answer_trust(eval_dir, entries) if asks_questions and any(
                    r["pass_rate"] is not None for r in rows) else None,
                "groundtruth_origins": sorted({row["groundtruth_origin"] for row in rows}),
                **({"extra_criteria": extra} if extra else {}),
            }
        )
    return {
        "schema_version": 1,
        "kind": "report",
        "evaluation_dir": recorded_path(eval_dir),
        "total_evaluations": len(loaded),
        "min_items_for_ranking": MIN_ITEMS_FOR_RANKING,
        "min_items_for_clear_lead": MIN_ITEMS_FOR_CLEAR_LEAD,
        "sections": sections,
    }
