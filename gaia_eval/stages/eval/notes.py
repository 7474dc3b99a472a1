"""The eval stage's notes in words: what the judge cost in this run, and which experiments beside an index
rebuilt by --regenerate-report have no evaluation yet."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.scoring.judge import JudgeOutcome, JudgeSettings
from gaia_eval.stages.common import StageSummary
from gaia_eval.stages.eval.inputs import unevaluated_experiments


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


def note_unevaluated(summary: StageSummary, experiments: Path | None, output_dir: Path) -> None:
    """--regenerate-report scores nothing: say so when experiments beside it have no evaluation yet."""
    missing = unevaluated_experiments(experiments, output_dir)
    if missing and experiments is not None:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        folder = Path(experiments).parent if Path(experiments).is_file() else experiments
        summary.notes.append(f"not evaluated yet (--regenerate-report scores nothing): {', '.join(missing[:3])}{more}; "
                             f"score them with `gaia-eval eval -d {folder} -o {output_dir}`")
