"""What `eval` tells its user: the EvalSummary it returns (counts, standalone and long-form experiments, empty and
unfilled templates, damaged files, scorer failures) and the notes it adds (the judge's calls and cost, the index,
experiments not evaluated yet)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.evaluation import NOT_APPLICABLE, Evaluation
from gaia_eval.scoring.judge import JudgeOutcome, JudgeSettings
from gaia_eval.scoring.scorers import criteria_of
from gaia_eval.stages.common import StageSummary
from gaia_eval.stages.eval.index import Consolidation
from gaia_eval.stages.eval.inputs import unevaluated_experiments

SCORER = "deterministic"
STANDALONE_NOTE = "standalone — not verified against facts: scores check only what the source document can confirm"
COMPARATIVE_NOTE = "comparative — scored against ground truth"
LONG_FORM_NOTE = (
    "long-form answers: reference answers longer than a short phrase are scored with the free-text "
    "criteria (reference overlap, content coverage, consistency, conciseness), not the short-answer matcher"
)


@dataclass
class EvalSummary(StageSummary):
    standalone: int = 0
    long_form: int = 0  # qa evaluations with answers scored as long-form
    long_form_items: int = 0  # ... their answers scored as long-form
    question_items: int = 0  # ... and all their answers
    empty_responses: list[str] = field(default_factory=list)  # "<template>: test_id, ..." per template
    unfilled: list[str] = field(default_factory=list)  # templates with no response at all: not scored
    damaged: list[str] = field(default_factory=list)  # evaluation files left out of the index, with why
    scorer_errors: list[str] = field(default_factory=list)  # an extra scorer (--scorer) failed on an item: why

    def note_mode(self, evaluation: Evaluation) -> None:
        self.standalone += evaluation.mode == "standalone"
        use_case = usecases.get(evaluation.use_case)
        free_text = criteria_of(use_case, "comparative", free_text=True) if use_case.asks_questions else ()
        covered = [sum(n for rating, n in c.counts.items() if rating != NOT_APPLICABLE)
                   for c in evaluation.criteria if c.criterion in free_text]
        if covered:
            self.long_form += 1
            self.long_form_items += max(covered)
            self.question_items += evaluation.grade.n_items

    def line(self) -> str:
        line = super().line()
        if self.empty_responses:
            line += f"; empty responses (scored as errors): {'; '.join(self.empty_responses)}"
        if self.unfilled:
            line += f"; not scored, no response filled in yet: {', '.join(self.unfilled)}"
        return line


def judge_note(judge: JudgeSettings, outcomes: list[JudgeOutcome]) -> str:
    calls = sum(o.calls_made for o in outcomes)
    unscored = sum(o.summary.unscored_items for o in outcomes)
    costs = [o.summary.cost_usd for o in outcomes]
    if all(o.summary.cost_status == "local" for o in outcomes):
        cost = "$0 (local)"
    elif any(c is None for c in costs):
        cost = "unpriced"
    else:
        cost = f"${sum(c or 0.0 for c in costs):.4f}"
    return (
        f"judge {judge.spec}: {calls} calls made in this run; judge cost of these evaluations {cost} "
        f"(kept apart from model cost); {unscored} unscored item{'s' if unscored != 1 else ''}"
    )


def note_consolidated(summary: EvalSummary, result: Consolidation) -> None:
    read = "rebuilt from every evaluation file" if result.regenerated else "read from changed evaluation files"
    summary.notes.append(f"consolidated: {result.path} ({result.reread} of {result.entries} entries {read})")
    summary.damaged.extend(result.damaged)


def note_unevaluated(summary: EvalSummary, experiments: Path | None, output_dir: Path) -> None:
    """--regenerate-report scores nothing: say so when experiments beside it have no evaluation yet."""
    missing = unevaluated_experiments(experiments, output_dir)
    if missing and experiments is not None:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        folder = Path(experiments).parent if Path(experiments).is_file() else experiments
        summary.notes.append(f"not evaluated yet (--regenerate-report scores nothing): {', '.join(missing[:3])}{more}; "
                             f"score them with `gaia-eval eval -d {folder} -o {output_dir}`")
