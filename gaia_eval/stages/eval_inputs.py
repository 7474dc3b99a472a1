"""What `eval` scores: experiment files and filled response templates, found in a folder or given one by one,
each read as an experiment with the fingerprint of what it was made from."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.response_template import TEMPLATE_SUFFIXES, is_response_template, template_stem
from gaia_eval.artifacts.store import fingerprint_file
from gaia_eval.artifacts.streamed import StreamedExperiment, read_experiment
from gaia_eval.errors import InputError

EXPERIMENT_SUFFIX = ".experiment.json"


def is_template(path: Path) -> bool:
    return path.name.endswith(TEMPLATE_SUFFIXES)


def find_scorable_files(root: Path) -> list[Path]:
    """Every *.experiment.json and *.template.<fmt> under `root`; a template already imported (its
    `<stem>.experiment.json` beside it) is left to that experiment."""
    experiments = sorted(root.rglob("*" + EXPERIMENT_SUFFIX))
    imported = {p.parent / p.name.removesuffix(EXPERIMENT_SUFFIX) for p in experiments}
    templates = sorted(
        p for p in root.rglob("*.template.*")
        if is_template(p) and p.is_file() and p.parent / template_stem(p) not in imported
    )
    files = sorted(experiments + templates)
    if not files:
        evaluations = next(root.rglob("*.eval.json"), None) is not None
        raise InputError(
            "holds no *.experiment.json files and no filled *.template.{json,csv,jsonl,xml}",
            file=root,
            fix=f"this folder holds evaluations: write the report with `gaia-eval report -d {root}`"
            if evaluations
            else f"run `gaia-eval batch-experiment -i GROUNDTRUTH_OR_DOCUMENTS -o {root}` first, or fill a template "
            f"from `gaia-eval create-template -o {root}`",
        )
    return files


def evaluation_name(path: Path, experiment: Experiment | StreamedExperiment) -> str:
    """`X.experiment.json` -> `X.experiment.eval.json`; a template is named after the system it holds."""
    if is_template(path):
        return f"{experiment.safe_name}.experiment.eval.json"
    return path.name.removesuffix(".json") + ".eval.json"


def load_scorable(path: Path, groundtruth: Path | None) -> tuple[Experiment | StreamedExperiment, list[str], str]:
    """(experiment, test_ids whose response is empty, fingerprint of its inputs). An experiment file is streamed:
    its items are read (and validated) on each pass over them, never all held."""
    if not is_template(path):
        experiment = read_experiment(path)
        check_use_case_matches_items(path, experiment)
        return experiment, [], fingerprint_file(path)
    if is_response_template(path):
        from gaia_eval.stages.response_template import experiment_from_template

        return experiment_from_template(path, groundtruth)
    from gaia_eval.artifacts.store import fingerprint
    from gaia_eval.stages.template import answer_template_experiment

    experiment, inputs = answer_template_experiment(path, groundtruth)
    empty = [i.item_id for i in experiment.items if i.status == "error"]
    return experiment, empty, fingerprint(inputs)


def check_use_case_matches_items(path: Path, experiment: Experiment | StreamedExperiment) -> None:
    """A qa experiment holds answers to questions, a summarization or email one holds summaries: an
    experiment whose `use_case` says otherwise would be scored by the wrong rubric."""
    qa = experiment.use_case == "qa"
    for item in experiment.items:
        if item.status != "ok":
            continue
        if qa and (item.summaries is not None or item.query is None):
            found = "summaries" if item.summaries is not None else "no question"
        elif not qa and (item.answer is not None or item.query is not None):
            found = "a question and answer"
        else:
            continue
        raise InputError(
            f"says use_case '{experiment.use_case}' but item '{item.item_id}' holds {found}",
            file=path,
            field="use_case",
            fix="set use_case to what the items are, or re-run batch-experiment to remake the file",
        )
