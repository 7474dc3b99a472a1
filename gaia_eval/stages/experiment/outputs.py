"""Where batch-experiment writes and what it runs by default: -o itself, a subfolder per input when a shell glob
gives several, a subfolder per use case when -o already holds experiments of these names for another one, and
the offline baselines when no -c is given; the consolidated report of the experiment files in a folder."""

from __future__ import annotations

from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import (
    ConsolidatedExperiments,
    Experiment,
    ExperimentConfig,
    ExperimentRunEntry,
    experiment_file,
)
from gaia_eval.artifacts.store import fingerprint_file
from gaia_eval.artifacts.streamed import read_experiment
from gaia_eval.errors import ArtifactError, InputError


def _other_use_case(path: Path, wanted: str) -> str | None:
    """The use case of the experiment already at `path` when it is not `wanted` (None: absent, damaged, same)."""
    if not path.exists():
        return None
    try:
        existing = read_experiment(path)  # its header: the items are not held
    except (ArtifactError, InputError):
        return None  # damaged: it will be redone
    return None if wanted == existing.use_case else existing.use_case


def output_dir_for_use_case(output_dir: Path, config: ExperimentConfig, use_case: str) -> tuple[Path, str | None]:
    """-o itself, unless it holds experiments of these names for another use case (the reference docs run
    workflow 1, summarization, then workflow 2, email, into one ./experiments): then -o/<use_case>, which
    `eval -d -o` finds too, with a note saying so. Never overwrites the other use case's results."""
    clashes = sorted({other for spec in config.experiments
                      if (other := _other_use_case(experiment_file(output_dir, spec.name), use_case))})
    if not clashes:
        return output_dir, None
    moved = output_dir / use_case
    return moved, (f"{output_dir} holds {', '.join(clashes)} experiments of these names: writing the {use_case} "
                   f"ones into {moved}")


def check_same_use_case(path: Path, use_case: str) -> None:
    existing = _other_use_case(path, use_case)
    if existing is not None:
        raise InputError(
            f"holds a {existing} experiment, but this input is {use_case}",
            file=path,
            fix="use another -o folder for this use case, or rename the experiment",
        )


def output_dirs_for_inputs(inputs: list[Path], output_dir: Path) -> list[tuple[Path, Path]]:
    """One input writes into -o itself; several (a shell glob such as consolidated_*.json) each write into a
    subfolder of -o named after the input's use case, so experiments of one name but other use cases never
    collide, and `eval -d OUTPUT` finds them all."""
    if len(inputs) == 1:
        return [(Path(inputs[0]), Path(output_dir))]
    names = []
    for path in inputs:
        stem = Path(path).name.removesuffix(".json")
        name = (
            stem.removeprefix("consolidated_").removesuffix("_groundtruth")
            if stem.startswith("consolidated_")
            else stem
        )
        names.append(name)
    if len(set(names)) != len(names):
        names = [Path(p).name.removesuffix(".json") for p in inputs]
    return [(Path(p), Path(output_dir) / n) for p, n in zip(inputs, names, strict=True)]


def default_config(use_case: str) -> ExperimentConfig:
    """What runs without -c (the reference docs' Method 1 and 2): the offline baselines for the use case, which
    cost nothing and need no key."""
    best = usecases.get(use_case).baseline
    return ExperimentConfig.model_validate(
        {
            "description": f"default for {use_case}: offline baselines",
            "experiments": [
                {"name": f"baseline-{best}", "provider": "baseline", "model": best},
                {"name": "baseline-lead", "provider": "baseline", "model": "lead"},
            ],
        }
    )


def consolidate_experiments(output_dir: Path, damaged: list[str] | None = None,
                            written: dict[str, Experiment] | None = None) -> ConsolidatedExperiments:
    """Rebuilt from the experiment files in the folder every time: cheap, and never out of step with them.
    A file that cannot be read is left out and, when `damaged` is given, named there with the reason. `written`:
    headers of files just written, by name, taken instead of scanning them back (0.2 s at 10,000 items)."""
    entries: list[ExperimentRunEntry] = []
    usage = Usage()
    cost: float | None = 0.0
    for path in sorted(Path(output_dir).glob("*.experiment.json")):
        try:
            exp = (written or {}).get(path.name) or read_experiment(path)  # a header: items are not held
        except (ArtifactError, InputError) as exc:
            if damaged is not None:
                damaged.append(exc.one_line())
            continue
        entries.append(
            ExperimentRunEntry(
                experiment_name=exp.experiment_name,
                file=path.name,
                fingerprint=fingerprint_file(path),
                provider=exp.spec.provider,
                model=exp.spec.model,
                use_case=exp.use_case,
                items=exp.totals.items,
                errors=exp.totals.errors,
                usage=exp.totals.usage,
                cost_usd=exp.totals.cost_usd,
                cost_status=exp.totals.cost_status,
                wall_time_s=exp.totals.wall_time_s,
            )
        )
        usage = usage + exp.totals.usage
        cost = None if cost is None or exp.totals.cost_usd is None else cost + exp.totals.cost_usd
    return ConsolidatedExperiments(
        inputs={e.file: e.fingerprint for e in entries},
        total_experiments=len(entries),
        total_usage=usage,
        total_cost_usd=round(cost, 6) if cost is not None else None,
        experiments=entries,
    )
