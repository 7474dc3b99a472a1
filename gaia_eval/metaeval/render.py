"""The meta-evaluation as markdown: one table per human dimension, the annotators' ceiling under it."""

from __future__ import annotations

from gaia_eval.artifacts.metaeval import MetaEvaluation, ScorerAgreement
from gaia_eval.safe_text import markdown_code, markdown_text


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _with_ci(value: float | None, ci: tuple[float, float] | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def _name(row: ScorerAgreement) -> str:
    scorer = markdown_text(row.scorer)  # an extra scorer's name is the user's
    if row.baseline:
        return f"{scorer} (baseline)"
    if row.beats_length is False:
        return f"{scorer} ⚠ not above length"
    return scorer


def _order(row: ScorerAgreement) -> tuple[float, float]:
    return (-(row.system_kendall if row.system_kendall is not None else -2.0), -(row.summary_level or -2.0))


def meta_eval_markdown(result: MetaEvaluation) -> str:
    lines = [
        "# Meta-evaluation: agreement of each scorer with human ratings",
        "",
        f"{markdown_code(result.ratings_file)}: {result.n_summaries} summaries, {result.n_items} items × "
        f"{result.n_systems} systems"
        + (f" (left out: {', '.join(map(markdown_text, result.excluded_systems))})" if result.excluded_systems else "")
        + ".",
        "System level: each system's mean score over items against its mean human rating, with 95 % bootstrap "
        f"intervals over items ({int(result.bootstrap.get('resamples', 0))} resamples). Summary level: Kendall τ "
        "per item across systems, averaged over items. Pairwise: share of system pairs ordered as the humans order "
        "them. A scorer that does not beat the `length` baseline has learnt nothing about that dimension.",
        "",
    ]
    for dimension in result.dimensions:
        rows = sorted((r for r in result.results if r.dimension == dimension), key=_order)
        shown = markdown_text(dimension)  # the ratings file's column: text from data (HTML, images) made inert
        lines += [
            f"## {shown}",
            "",
            "| Scorer | System Kendall τ [95 % CI] | System Spearman ρ | System Pearson r | Summary-level τ | "
            "Pairwise accuracy |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            lines.append(
                f"| {_name(r)} | {_with_ci(r.system_kendall, r.system_kendall_ci)} | "
                f"{_with_ci(r.system_spearman, r.system_spearman_ci)} | "
                f"{_with_ci(r.system_pearson, r.system_pearson_ci)} "
                f"| {_num(r.summary_level)} | {_num(r.pairwise_accuracy)} |"
            )
        human = result.annotator_agreement.get(dimension)
        if human is not None and human.krippendorff_alpha is not None:
            ceiling = (
                f"Annotators ({human.n_annotators}): Krippendorff's α ({human.alpha_metric}) "
                f"{human.krippendorff_alpha:.2f}"
            )
            if human.loo_system_kendall is not None or human.loo_summary_level is not None:
                ceiling += (
                    f"; one annotator against the others' mean: system τ {_num(human.loo_system_kendall)}, "
                    f"summary-level τ {_num(human.loo_summary_level)} (the ceiling)"
                )
            lines += ["", ceiling + "."]
        elif human is not None:
            lines += ["", f"Annotators' agreement: not measured ({human.reason})."]
        lines += [f"\n⚠ {w}" for w in judge_warnings(rows)]
        if dimension in result.best:
            best = next(r for r in rows if r.scorer == result.best[dimension])
            caveat = " — but not above the length baseline" if best.beats_length is False else ""
            lines += [
                "",
                f"Best scorer for {shown}: **{markdown_text(best.scorer)}** (system τ {_num(best.system_kendall)})"
                f"{caveat}.",
            ]
        lines.append("")
    if result.notes:
        lines += ["Notes:", ""] + [f"- {markdown_text(note)}" for note in result.notes] + [""]
    return "\n".join(lines)


def judge_warnings(rows: list[ScorerAgreement]) -> list[str]:
    """In words, each judge scorer that agrees with the humans less than the deterministic grade (system or summary
    level) on this dimension."""
    grade = next((r for r in rows if r.scorer == "grade"), None)
    if grade is None:
        return []
    out = []
    for r in rows:
        if not r.scorer.startswith("judge:") or (r.scorer.count(":") > 1 and not r.scorer.endswith(":g-eval")):
            continue
        worse = [
            f"{level} τ {_num(mine)} against the grade's {_num(theirs)}"
            for level, mine, theirs in (("system", r.system_kendall, grade.system_kendall),
                                        ("summary-level", r.summary_level, grade.summary_level))
            if theirs is not None and (mine is None or mine < theirs)
        ]
        if worse:
            out.append(f"The judge {markdown_code(r.scorer)} agrees with the human {markdown_text(r.dimension)} "
                       "ratings less than the "
                       f"deterministic grade ({'; '.join(worse)}): trust the grade over this judge here.")
    return out
