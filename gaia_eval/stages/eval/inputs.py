"""What `eval` scores: experiment files and filled response templates, found in a folder or given one by one,
each read as an experiment with the fingerprint of what it was made from."""

from __future__ import annotations

from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.groundtruth import GroundTruth
from gaia_eval.artifacts.inputs import refuse_special_file
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.response_template import TEMPLATE_SUFFIXES, is_response_template, template_stem
from gaia_eval.artifacts.store import fingerprint, fingerprint_file
from gaia_eval.artifacts.streamed import StreamedExperiment, read_experiment
from gaia_eval.errors import InputError, UsageError
from gaia_eval.stages.experiment.inputs import load_groundtruth_file

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
        raise InputError(
            "holds no *.experiment.json files and no filled *.template.{json,csv,jsonl,xml}",
            file=root,
            fix=_no_experiments_fix(root),
        )
    return files


def _no_experiments_fix(root: Path) -> str:
    """The command that makes what `eval -d root` needs, from what the folder does hold."""
    if next(root.rglob("*.eval.json"), None) is not None:
        return f"this folder holds evaluations: write the report with `gaia-eval report -d {root}`"
    inputs = next(root.rglob("*.groundtruth.json"), None) or next(root.rglob("*.txt"), None)
    if inputs is not None:  # ground truth or documents: the input of batch-experiment, not its output
        return (f"this folder holds the models' inputs: run them with `gaia-eval batch-experiment -i {root} -o "
                f"experiments` and score with `gaia-eval eval -d experiments`, or make a template to fill with "
                f"`gaia-eval create-template -d {root} -o templates`")
    return (f"run `gaia-eval batch-experiment -i GROUNDTRUTH_OR_DOCUMENTS -o {root}` first, or fill a template from "
            f"`gaia-eval create-template -o {root}`")


def unevaluated_experiments(experiments: Path | None, output_dir: Path) -> list[str]:
    """Names of the experiment files (under a folder, or one file) with no evaluation file in `output_dir`."""
    root = Path(experiments) if experiments is not None else None
    if root is None or not root.exists():
        return []
    found = [root] if root.is_file() else sorted(root.rglob("*" + EXPERIMENT_SUFFIX))
    rel = (lambda p: Path(p.name)) if root.is_file() else (lambda p: p.relative_to(root))
    return [
        p.name
        for p in found
        if not (Path(output_dir) / rel(p).with_name(p.name.removesuffix(".json") + ".eval.json")).exists()
    ]


def evaluation_name(path: Path, experiment: Experiment | StreamedExperiment) -> str:
    """`X.experiment.json` -> `X.experiment.eval.json`; a template is named after the system it holds."""
    if is_template(path):
        stem = file_stem(experiment.experiment_name, what="template name", style="slug", file=path)
        return f"{stem}.experiment.eval.json"
    return path.name.removesuffix(".json") + ".eval.json"


def load_scorable(path: Path, groundtruth: Path | None) -> tuple[Experiment | StreamedExperiment, list[str], str]:
    """(experiment, test_ids whose response is empty, fingerprint of its inputs). An experiment file is streamed:
    its items are read (and validated) on each pass over them, never all held."""
    if not is_template(path):
        experiment = read_experiment(path)
        check_use_case_matches_items(path, experiment)
        return experiment, [], fingerprint_file(path)
    if is_response_template(path):
        from gaia_eval.stages.templates.responses import experiment_from_template

        return experiment_from_template(path, groundtruth)
    from gaia_eval.stages.templates.answers import answer_template_experiment

    experiment, inputs = answer_template_experiment(path, groundtruth)
    empty = [i.item_id for i in experiment.items if i.status == "error"]
    return experiment, empty, fingerprint(inputs)


def check_use_case_matches_items(path: Path, experiment: Experiment | StreamedExperiment) -> None:
    """An experiment of a use case that asks questions holds answers to them, one of a use case that writes
    summaries holds summaries: an experiment whose `use_case` says otherwise would be scored by the wrong rubric."""
    qa = usecases.get(experiment.use_case).asks_questions
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


def experiment_files(experiment_dir: Path | None, experiment_file: Path | None) -> tuple[Path, list[Path]]:
    """Experiment files and filled templates (`*.template.{json,csv,jsonl,xml}`) to score. A template whose
    imported experiment sits beside it is scored once, as that experiment."""
    # -f wins over -d (the reference tool's -f was silently ignored because -d had a default).
    if experiment_file is not None:
        path = Path(experiment_file)
        refuse_special_file(path, "an experiment file")
        if not path.is_file():
            raise InputError("not found", file=path, fix="check -f/--file, or run `gaia-eval batch-experiment` first")
        return path.parent, [path]
    if experiment_dir is None:
        raise UsageError("no experiments given", fix="pass -d FOLDER or -f FILE.experiment.json")
    root = Path(experiment_dir)
    if root.is_file():
        raise InputError("is a file, not a folder", file=root, field="-d/--directory", fix=f"pass it with -f {root}")
    if not root.is_dir():
        raise InputError(
            "folder not found", file=root, fix="check -d/--directory, or run `gaia-eval batch-experiment` first"
        )
    return root, find_scorable_files(root)


def groundtruth_paths(groundtruth: Path | list[Path] | tuple[Path, ...] | None) -> list[Path]:
    if groundtruth is None:
        return []
    if isinstance(groundtruth, (list, tuple)):
        return [Path(p) for p in groundtruth]
    return [Path(groundtruth)]


def load_external(paths: list[Path]) -> tuple[dict[str, dict[str, GroundTruth]], str]:
    """Ground truth from -g (several files merge, e.g. a shell glob of consolidated_*.json), by use case and item
    id: import-groundtruth gives a document's summaries and its questions the same item id."""
    if not paths:
        return {}, "none"
    found: dict[str, dict[str, GroundTruth]] = {}
    for path in paths:
        for gt in load_groundtruth_file(path):
            found.setdefault(gt.use_case, {})[gt.item_id] = gt
    fps = [fingerprint_file(p) for p in paths]
    return found, fps[0] if len(fps) == 1 else fingerprint(fps)


def external_of(by_use_case: dict[str, dict[str, GroundTruth]], use_case: str) -> dict[str, GroundTruth]:
    """The -g ground truth an experiment of `use_case` is scored against: its own and its kin's (summarization and
    email share theirs), in the registry's order of use cases."""
    shares = usecases.get(use_case).shares_data_with
    kin = [name for name in usecases.names() if shares(name)]
    return {item_id: gt for uc in kin for item_id, gt in by_use_case.get(uc, {}).items()}


def external_for(source: str, external: dict[str, GroundTruth]) -> GroundTruth | None:
    """By the document's id, or by its file stem when the experiment ran on a folder with subfolders
    (`emails/customer_support_email` is ground truth `customer_support_email`)."""
    return external.get(source) or external.get(source.rsplit("/", 1)[-1])
