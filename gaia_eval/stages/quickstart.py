"""`quickstart`: all five stages, offline, on a small generated set; a second run skips everything."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gaia_eval.artifacts.store import write_json
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.report.run import run_report

MEETING_TYPES = ("standup", "budget_planning")
EMAIL_TYPES = ("project_update", "customer_support")
SUMMARY_CONFIG = {
    "description": "Quickstart: the two offline summarization baselines.",
    "experiments": [
        {"name": "baseline-textrank", "provider": "baseline", "model": "textrank"},
        {"name": "baseline-lead", "provider": "baseline", "model": "lead"},
    ],
}
QA_CONFIG = {
    "description": "Quickstart: the two offline question-answering baselines.",
    "experiments": [
        {"name": "baseline-retrieval", "provider": "baseline", "model": "retrieval"},
        {"name": "baseline-lead", "provider": "baseline", "model": "lead"},
    ],
}


def run_quickstart(output_dir: Path = Path("quickstart"), *, echo: Callable[[str], None] = print) -> Path:
    out = Path(output_dir)
    data = out / "test_data"
    for kind, summary in (
        ("meetings", run_generate("meeting", data / "meetings", types=MEETING_TYPES, count_per_type=2, seed=0)),
        ("emails", run_generate("email", data / "emails", types=EMAIL_TYPES, count_per_type=2, seed=0)),
    ):
        echo(f"{kind}: {summary.line()}")
    write_json(out / "configs" / "summarization.json", SUMMARY_CONFIG)
    write_json(out / "configs" / "qa.json", QA_CONFIG)

    runs = (
        ("summarization", data / "meetings", "summarization.json"),
        ("email", data / "emails", "summarization.json"),
        ("qa", data, "qa.json"),
    )
    for use_case, inputs, config in runs:
        gt_dir = out / "groundtruth" / use_case
        # Each line names its use case: three use cases run the same three stages.
        echo(f"{use_case}: {run_groundtruth(input_dir=inputs, use_case=use_case, output_dir=gt_dir).line()}")
        exp_dir = out / "experiments" / use_case
        made = run_batch_experiment(out / "configs" / config, gt_dir, exp_dir, show_progress=False)
        echo(f"{use_case}: {made.line()}")
        echo(f"{use_case}: {run_eval(experiment_dir=exp_dir, output_dir=out / 'evaluation' / use_case).line()}")
    report = out / "reports" / "report.md"
    echo(run_report(out / "evaluation", report).line())
    return report
