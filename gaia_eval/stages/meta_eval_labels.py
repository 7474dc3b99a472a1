"""Stage `meta-eval` on answers people judged correct or incorrect: every match mode (and the substring and
exact-match baselines) against the people's verdicts, overall and per answering system, optionally with a
cross-validated choice of rule; written as JSON (`answer_agreement.json` in an evaluation folder is what the
report reads) and markdown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.answer_agreement import AnswerAgreement, ScorerLabelAgreement
from gaia_eval.artifacts.store import atomic_write_text, fingerprint, fingerprint_file, write_artifact
from gaia_eval.errors import UsageError

# The file name in an evaluation folder the report reads for the pass rate's trust (reporting: answer_trust).
FILE_NAME = "answer_agreement.json"
DEFAULT_MODE = "gaia"
CALLS_A_MODEL = frozenset({"judge"})


@dataclass
class LabelMetaEvalRun:
    result: AnswerAgreement
    markdown: str
    outputs: list[Path] = field(default_factory=list)


def _selected_modes(metrics: list[str] | None) -> list[str]:
    from gaia_eval.metaeval.label_agreement import BASELINES
    from gaia_eval.registry import MATCH_MODES

    modes = MATCH_MODES.names()
    if not metrics:
        # a mode that asks a model (check-answer --mode judge) costs calls: measured only when --metrics names it
        return [m for m in modes if m not in CALLS_A_MODEL]
    unknown = [m for m in metrics if m not in modes and m not in BASELINES]
    if unknown:
        raise UsageError(f"--metrics {unknown[0]}: no such match mode", field="--metrics",
                         fix=f"with answer labels the scorers are match modes: {', '.join(modes)} (the baselines "
                             f"{' and '.join(BASELINES)} always run)")
    return [m for m in metrics if m in modes]


def _kept(rows: list, exclude: list[str], limit: int | None, seed: int, path: Path) -> tuple[list, str | None]:
    import random

    systems = list(dict.fromkeys(r.system for r in rows))
    unknown = [s for s in exclude if s not in systems]
    if unknown:
        raise UsageError(f"--exclude-system {unknown[0]}: no such system in {path}",
                         fix=f"systems are {', '.join(systems)}")
    rows = [r for r in rows if r.system not in exclude]
    if not rows:
        raise UsageError(f"{path}: every system excluded", fix="exclude fewer systems")
    items = sorted({r.item for r in rows})
    if limit is None or limit >= len(items):
        return rows, None
    chosen = set(random.Random(seed).sample(items, limit))
    return [r for r in rows if r.item in chosen], f"a sample of {limit} of {len(items)} questions (--seed {seed})"


def _verdicts(rows: list, modes: list[str], echo: Callable[[str], None]) -> tuple[dict[str, list[bool]],
                                                                                   dict[str, str]]:
    from gaia_eval.metaeval.label_agreement import BASELINES, baseline_verdict, try_mode_verdicts

    verdicts: dict[str, list[bool]] = {}
    not_measured: dict[str, str] = {}
    for mode in modes:
        echo(f"meta-eval: matching {len(rows)} answers with mode {mode}")
        found, why = try_mode_verdicts(rows, mode)
        if found is None:
            not_measured[mode] = why
        else:
            verdicts[mode] = found
    for baseline in BASELINES:
        verdicts[baseline] = [baseline_verdict(baseline, r.expected, r.output) for r in rows]
    return verdicts, not_measured


def _candidates(rows: list, verdicts: dict[str, list[bool]]) -> dict[str, list[bool]]:
    """The rules the cross-validation chooses among: every measured scorer and the thresholds of f1 and fuzzy."""
    from gaia_eval.metaeval.label_agreement import mode_verdicts
    from gaia_eval.metaeval.label_crossval import threshold_candidates

    out = dict(verdicts)
    for name, options in threshold_candidates(list(verdicts)):
        out[name] = mode_verdicts(rows, name.split()[0], **options)
    return out


def run_meta_eval_labels(
    labels: Path,
    *,
    metrics: list[str] | None = None,
    exclude_systems: list[str] | None = None,
    output: Path | None = None,
    markdown: Path | None = None,
    echo: Callable[[str], None] = lambda _line: None,
    cross_validate: bool = False,
    limit: int | None = None,
    seed: int = 0,
) -> LabelMetaEvalRun:
    """Load the labelled answers, judge each with every match mode (or those of `metrics`) and the baselines,
    and measure each against the people's verdicts. Writes `output` (JSON) and the markdown to `markdown`, or
    next to `output` as .md. `cross_validate` adds the rule chosen on training folds, measured on held-out ones."""
    from gaia_eval.metaeval.label_agreement import BASELINES, by_system
    from gaia_eval.metaeval.label_crossval import cross_validate as run_cross_validation
    from gaia_eval.metaeval.label_render import answer_agreement_markdown
    from gaia_eval.metaeval.labels import load_answer_labels
    from gaia_eval.stages.meta_eval import bootstrap_settings

    labels = Path(labels)
    exclude = list(dict.fromkeys(exclude_systems or []))
    modes = _selected_modes(metrics)
    rows, sample_note = _kept(load_answer_labels(labels), exclude, limit, seed, labels)
    verdicts, not_measured = _verdicts(rows, modes, echo)
    echo(f"meta-eval: comparing {len(verdicts)} scorers with the people's verdicts")
    results = []
    for name, found in verdicts.items():
        overall, systems = by_system(rows, found)
        results.append(ScorerLabelAgreement(scorer=name, baseline=name in BASELINES, overall=overall, systems=systems))
    measured_modes = [r for r in results if not r.baseline]
    best = max(measured_modes, key=lambda r: (r.overall.agreement, -r.overall.false_accepts), default=None)
    cross = None
    notes = [sample_note] if sample_note else []
    if cross_validate:
        cross = run_cross_validation(rows, _candidates(rows, verdicts),
                                     [m for m in (DEFAULT_MODE, *BASELINES) if m in verdicts])
        if cross is None:
            notes.append("cross-validation not run: fewer than 10 questions")
    settings: dict[str, Any] = {"metrics": modes, "exclude": exclude, "cross_validate": cross_validate,
                                **({"limit": limit, "seed": seed} if limit is not None else {})}
    result = AnswerAgreement(
        inputs={"labels": fingerprint_file(labels), "settings": fingerprint(settings)},
        labels_file=labels.name,
        n_items=len({r.item for r in rows}),
        n_answers=len(rows),
        systems=list(dict.fromkeys(r.system for r in rows)),
        human_correct=sum(r.correct for r in rows),
        results=results,
        not_measured=not_measured,
        best=best.scorer if best else None,
        bootstrap=bootstrap_settings(),
        cross_validation=cross,
        notes=notes,
    )
    text = answer_agreement_markdown(result)
    run = LabelMetaEvalRun(result, text)
    if output is not None:
        write_artifact(Path(output), result)
        run.outputs.append(Path(output))
        markdown = markdown or Path(output).with_suffix(".md")
    if markdown is not None:
        atomic_write_text(Path(markdown), text)
        run.outputs.append(Path(markdown))
    return run
