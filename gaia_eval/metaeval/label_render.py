"""The answer-label meta-evaluation as markdown: each scorer over every answer, then per answering system, then
the cross-validation folds."""

from __future__ import annotations

from gaia_eval.artifacts.answer_agreement import AnswerAgreement, LabelFigures, ScorerLabelAgreement
from gaia_eval.safe_text import markdown_text


def _pct(value: float, ci: tuple[float, float] | None) -> str:
    return f"{value:.1%}" + (f" [{ci[0]:.1%}, {ci[1]:.1%}]" if ci else "")


def _two(value: float) -> str:
    return f"{value + 0.0:.2f}".replace("-0.00", "0.00")  # a kappa a hair below zero is no agreement, not "-0"


def _kappa(figures: LabelFigures) -> str:
    if figures.kappa is None:
        return "–"
    ci = figures.kappa_ci
    return _two(figures.kappa) + (f" [{_two(ci[0])}, {_two(ci[1])}]" if ci else "")


def figures_cells(figures: LabelFigures) -> str:
    return (f"{figures.n} | {_pct(figures.agreement, figures.agreement_ci)} | {_kappa(figures)} | "
            f"{figures.false_accepts} | {figures.false_rejects}")


def _name(row: ScorerLabelAgreement) -> str:
    return f"{markdown_text(row.scorer)} (baseline)" if row.baseline else markdown_text(row.scorer)


_HEADER = ["| Scorer | Answers | Agreement [95 % CI] | Cohen's κ [95 % CI] | False accepts | False rejects |",
           "|---|---|---|---|---|---|"]


def answer_agreement_markdown(result: AnswerAgreement) -> str:
    rows = sorted(result.results, key=lambda r: (-r.overall.agreement, r.overall.false_accepts))
    lines = [
        "# Meta-evaluation: answer matching against people's correct/incorrect judgments",
        "",
        f"`{markdown_text(result.labels_file)}`: {result.n_answers} answers to {result.n_items} questions by "
        f"{len(result.systems)} systems; people judged {result.human_correct} correct. A false accept is an answer "
        "the scorer accepts and people judged incorrect; a false reject the reverse. Intervals: 95 % bootstrap over "
        f"questions ({int(result.bootstrap.get('resamples', 0))} resamples).",
        "",
        "## All answers",
        "",
        *_HEADER,
        *(f"| {_name(r)} | {figures_cells(r.overall)} |" for r in rows),
    ]
    if result.best:
        lines += ["", f"Agrees best: `{markdown_text(result.best)}`."]
    for system in result.systems:
        lines += ["", f"## {markdown_text(system)}", "", *_HEADER]
        lines += [f"| {_name(r)} | {figures_cells(r.systems[system])} |" for r in rows if system in r.systems]
    if result.not_measured:
        lines += ["", "Not measured: " + "; ".join(f"`{markdown_text(m)}` ({markdown_text(why)})"
                                                    for m, why in result.not_measured.items()) + "."]
    lines += [f"\nNote: {markdown_text(note)}" for note in result.notes]
    if result.cross_validation is not None:
        lines += ["", cross_validation_markdown(result)]
    return "\n".join(lines) + "\n"


def cross_validation_markdown(result: AnswerAgreement) -> str:
    cv = result.cross_validation
    assert cv is not None
    lines = [
        "## Cross-validation: the rule chosen on the other folds, measured on the held-out fold",
        "",
        f"{len(cv.folds)} folds of questions; the candidates: {', '.join(markdown_text(c) for c in cv.candidates)}. "
        "Each fold's rule is the one with the highest agreement on the other folds (fewer false accepts break "
        "ties).",
        "",
        "| Fold | Questions (train / held out) | Chosen | Agreement on train | Answers held out | Agreement held out "
        "| κ held out | False accepts | False rejects |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for f in cv.folds:
        lines.append(f"| {f.fold} | {f.train_items} / {f.test_items} | {markdown_text(f.chosen)} | "
                     f"{f.train_agreement:.1%} | {figures_cells(f.held_out)} |")
    lines += ["", *_HEADER, f"| chosen per fold (held out) | {figures_cells(cv.held_out)} |"]
    lines += [f"| {markdown_text(name)} (fixed) | {figures_cells(f)} |" for name, f in cv.compared.items()]
    return "\n".join(lines)
