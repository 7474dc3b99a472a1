"""The meta-evaluation against a user's own ratings as markdown: per dimension every scorer over the rated
outputs (with the model-level columns when there are enough models), the raters' agreement as the ceiling, the
pairwise preferences each scorer reproduces, and each rater's consistency on repeats."""

from __future__ import annotations

from gaia_eval.artifacts.metaeval import HumanEstimate, MetaEvaluation, PreferenceAgreement, ScorerAgreement
from gaia_eval.safe_text import markdown_text


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _with_ci(value: float | None, ci: tuple[float, float] | None) -> str:
    return "–" if value is None else f"{value:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def _name(row: ScorerAgreement | PreferenceAgreement) -> str:
    return f"{row.scorer} (baseline)" if getattr(row, "baseline", False) else row.scorer


def _range(ci: tuple[float, float]) -> str:
    return f"{ci[0]:.1f}–{ci[1]:.1f}"


def estimate_sentence(e: HumanEstimate) -> str:
    """"people would rate K 3.9 (3.6–4.2) on relevance; from 10 of your ratings and the grade on 50 outputs"."""
    h = e.human_estimate
    return (f"people would rate {e.system} {h.value:.1f} ({_range(h.ci95)}) on {e.dimension}; from {h.n_rated} of "
            f"your ratings and {'the grade' if e.scorer == 'grade' else e.scorer} on {h.n_outputs} outputs")


def estimates_markdown(result: MetaEvaluation) -> list[str]:
    """Each model's estimated mean human rating beside the ratings alone, and which differences are sure."""
    if not result.human_estimates:
        return []
    lines = [
        "## What people would rate each model (1–5, over all its outputs)",
        "",
        "The automatic score on every output, corrected by your ratings of the sample (PPI++: valid whatever the "
        "score's quality, narrower when it agrees with you), beside your ratings alone; 95 % intervals.",
        "",
        "| Model | Dimension | Estimate [95 % CI] | Your ratings alone [95 % CI] | Rated / outputs | Corrected score |",
        "|---|---|---|---|---|---|",
    ]
    for e in result.human_estimates:
        h, o = e.human_estimate, e.human_only
        lines.append(f"| {markdown_text(e.system)} | {e.dimension} | {h.value:.2f} [{h.ci95[0]:.2f}, {h.ci95[1]:.2f}] "
                     f"| {o.value:.2f} [{o.ci95[0]:.2f}, {o.ci95[1]:.2f}] | {h.n_rated} / {h.n_outputs} | "
                     f"{markdown_text(e.scorer)} |")
    lines += [""] + [f"- {markdown_text(estimate_sentence(e))}" for e in result.human_estimates] + [""]
    if result.system_differences:
        lines += ["| Models | Dimension | Difference [95 % CI] | Your ratings alone [95 % CI] | Sure? |",
                  "|---|---|---|---|---|"]
        for d in result.system_differences:
            h, o = d.human_estimate, d.human_only
            sure = "yes" if h.ci95[0] > 0 or h.ci95[1] < 0 else "no (the interval holds 0)"
            lines.append(f"| {markdown_text(d.a)} − {markdown_text(d.b)} | {d.dimension} | {h.value:+.2f} "
                         f"[{h.ci95[0]:+.2f}, {h.ci95[1]:+.2f}] | {o.value:+.2f} [{o.ci95[0]:+.2f}, {o.ci95[1]:+.2f}] "
                         f"| {sure} |")
        lines.append("")
    return lines


def own_markdown(result: MetaEvaluation) -> str:
    lines = [
        "# Your ratings against gaia-eval's scores",
        "",
        f"{markdown_text(result.ratings_file)}: {result.n_summaries} rated outputs of {result.n_items} items × "
        f"{result.n_systems} "
        f"models, by {len(result.raters)} rater(s) ({', '.join(markdown_text(r) for r in result.raters)})"
        + (
            f"; {result.stale_ratings} rating(s) of outputs that changed since were left out (stale)"
            if result.stale_ratings
            else ""
        )
        + ".",
        "Output level: Kendall τ between each score and your rating over every rated output, with a 95 % bootstrap "
        f"interval over items ({int(result.bootstrap.get('resamples', 0))} resamples). Model level: each model's mean "
        "score against its mean rating (needs 3 models); pairwise: share of model pairs ordered as you order them. "
        "A score that does not beat `length` has learnt nothing about that dimension.",
        "",
    ]
    for dimension in result.dimensions:
        rows = sorted((r for r in result.results if r.dimension == dimension),
                      key=lambda r: -(r.output_kendall if r.output_kendall is not None else -2.0))
        lines += [f"## {dimension}", "",
                  "| Score | Output-level τ [95 % CI] | Outputs | Model-level τ | Model pairs ordered as you do |",
                  "|---|---|---|---|---|"]
        for r in rows:
            lines.append(f"| {_name(r)} | {_with_ci(r.output_kendall, r.output_kendall_ci)} | {r.n_outputs} | "
                         f"{_with_ci(r.system_kendall, r.system_kendall_ci)} | {_num(r.pairwise_accuracy)} |")
        human = result.annotator_agreement.get(dimension)
        if human is not None and human.krippendorff_alpha is not None:
            lines += ["", f"Raters' agreement ({human.n_annotators} raters): Krippendorff's α (ordinal) "
                          f"{human.krippendorff_alpha:.2f}: the ceiling a score can reach."]
        if dimension in result.best_withheld:
            lines += ["", f"On {dimension}: {result.best_withheld[dimension]}."]
        elif dimension in result.best:
            best = next(r for r in rows if r.scorer == result.best[dimension])
            length = next((r for r in rows if r.scorer == "length"), None)
            caveat = ""
            if (
                length
                and length.output_kendall is not None
                and best.output_kendall is not None
                and best.output_kendall <= length.output_kendall
            ):
                caveat = " — but not above the length baseline"
            lines += [
                "",
                f"Agrees best with you on {dimension}: **{best.scorer}** (τ "
                f"{_with_ci(best.output_kendall, best.output_kendall_ci)}, {best.n_outputs} rated outputs){caveat}.",
            ]
        lines.append("")
    lines += estimates_markdown(result)
    if result.preferences:
        lines += [
            "## Pairwise preferences",
            "",
            "| Score | Your preferences it reproduces [95 % CI] | Preferences |",
            "|---|---|---|",
        ]
        for p in sorted(result.preferences, key=lambda p: -(p.share if p.share is not None else -1.0)):
            lines.append(f"| {_name(p)} | {_with_ci(p.share, p.share_ci)} | {p.preferences} |")
        lines.append("")
    if result.rater_consistency:
        lines += [
            "## Rater consistency (the same output shown twice)",
            "",
            "| Rater | Pairs | Same rating | Within one |",
            "|---|---|---|---|",
        ]
        for c in result.rater_consistency:
            lines.append(f"| {markdown_text(c.rater)} | {c.pairs} | {_num(c.exact)} | {_num(c.within_one)} |")
        lines.append("")
    if result.notes:
        lines += ["Notes:", ""] + [f"- {note}" for note in result.notes] + [""]
    return "\n".join(lines)
