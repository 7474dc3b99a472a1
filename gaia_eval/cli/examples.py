"""One worked example per command, shown at the end of its `--help` (a test parses every one against the
command's options, so an example cannot drift from the command it documents)."""

from __future__ import annotations

import click

EXAMPLES: dict[str, tuple[str, ...]] = {
    "generate": (
        "gaia-eval generate --meeting-transcript -o my_data/meetings --meeting-types standup,client_call "
        "--count-per-type 2",
    ),
    "groundtruth": ("gaia-eval groundtruth -d test_data/meetings -u summarization -o groundtruth/summarization",),
    "batch-experiment": (
        "gaia-eval batch-experiment -c configs/basic_qa.json -i groundtruth/qa -o experiments/qa",
        "gaia-eval batch-experiment -c configs/basic_qa.json -i groundtruth/qa -o experiments/qa --shard 1/4",
    ),
    "cluster-run": (
        "gaia-eval cluster-run --shards 4 --address auto -- batch-experiment -c configs/basic_qa.json -i "
        "groundtruth/qa -o experiments/qa",
    ),
    "eval": (
        "gaia-eval eval -d experiments/qa -o evaluation/qa",
        "gaia-eval eval -d my_data/exp -g my_data/gt/consolidated_qa_groundtruth.json -o my_data/eval --match-mode "
        "lenient",
        "gaia-eval eval -d experiments/summarization -o evaluation/summarization --judge anthropic:claude-sonnet-4-5",
    ),
    "report": ("gaia-eval report -d evaluation -o reports/report.md",),
    "quickstart": ("gaia-eval quickstart -o quickstart",),
    "import-groundtruth": ("gaia-eval import-groundtruth refs.jsonl --source-file '{item_id}.txt' -o my_data/gt",),
    "import-outputs": (
        "gaia-eval import-outputs outputs.jsonl -g my_data/gt/consolidated_summarization_groundtruth.json -o "
        "my_data/exp",
    ),
    "import-results": (
        "gaia-eval import-results logs/2026-11-28T10-00-00_capitals_abc.eval -o my_data/imported",
        "gaia-eval import-results promptfoo_results.json --target-var answer -o my_data/imported",
    ),
    "create-template": ("gaia-eval create-template -d groundtruth/qa --use-case qa --format csv -o templates",),
    "import-template": ("gaia-eval import-template templates/qa.template.csv -o experiments/templates",),
    "summarize": ("gaia-eval summarize -i test_data/meetings/standup_meeting.txt --styles brief action_items",),
    "bench": ("gaia-eval bench arithmetic --runner builtin:calculator",),
    "check-answer": ("gaia-eval check-answer 1927 'FINAL ANSWER: 1,927'",),
    "visualize": ("gaia-eval visualize --workspace quickstart --port 0",),
    "meta-eval": (
        "gaia-eval meta-eval ratings.jsonl --exclude-system A -o evaluation/meta_eval.json",
        "gaia-eval meta-eval --evaluations evaluation -u summarization",
        "gaia-eval meta-eval answer_labels.jsonl --cross-validate -o evaluation/answer_agreement.json",
    ),
    "annotate": ("gaia-eval annotate -e evaluation -u summarization --rater alice --size 30",),
}


def add_examples(group: click.Group) -> None:
    """Append each command's examples to its help (`\\b` keeps click from re-wrapping the lines)."""
    for name, command in group.commands.items():
        lines = EXAMPLES.get(name)
        if lines:
            example = "Example:" if len(lines) == 1 else "Examples:"
            command.epilog = "\b\n" + example + "\n" + "\n".join(f"  {line}" for line in lines)
