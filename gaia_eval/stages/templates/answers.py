"""`create-template` and `import-template`: score a system gaia-eval cannot call, from answers a person fills in.

create-template writes the questions (qa) or documents to summarize, without the expected answers. Once the
answers are filled in, import-template turns the file into an ordinary experiment file with the ground
truth embedded, so `eval` and `report` treat it like any model. An item left blank is recorded as an error
("no answer filled in"), so it counts as Poor rather than leaving the denominator.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.experiment import Experiment, ExperimentSpec, ItemResult, experiment_file, safe_name
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES, Summaries
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint,
    fingerprint_file,
    freshness,
    read_artifact,
    write_artifact,
)
from gaia_eval.artifacts.template import AnswerTemplate, TemplateItem
from gaia_eval.errors import InputError
from gaia_eval.providers.pricing import lookup_price
from gaia_eval.stages.experiment.inputs import load_workload
from gaia_eval.stages.experiment.run import compute_totals


def template_path(output_dir: Path, name: str) -> Path:
    return Path(output_dir) / f"{file_stem(name, what='template name', style='slug', field='--name')}.template.json"


def run_create_template(groundtruth: Path, output_dir: Path, name: str, *, model: str = "manual") -> Path:
    workload = load_workload(Path(groundtruth))
    if workload.groundtruth != "embedded":
        raise InputError("holds no ground truth", file=groundtruth, fix="pass the output of `gaia-eval groundtruth`")
    file_stem(name, what="template name", style="slug", field="--name")  # refused before any work
    case = usecases.get(workload.use_case)
    items = [
        TemplateItem(
            item_id=i.item_id,
            source=i.source,
            query=i.query,
            summaries=None if case.asks_questions else Summaries(),
        )
        for i in workload.items
    ]
    template = AnswerTemplate(
        name=name,
        model=model,
        use_case=workload.use_case,
        instructions=usecases.answers_instructions(case),
        groundtruth_file=Path(groundtruth).as_posix(),
        groundtruth_fingerprint=workload.fingerprint(),
        documents={key: doc.text for key, doc in workload.sources.items()},
        items=items,
    )
    path = template_path(output_dir, name)
    if path.exists():
        raise InputError(
            "already exists; it may hold answers someone filled in",
            file=path,
            fix="fill that one in, or pass another --name or -o",
        )
    write_artifact(path, template)
    return path


def _filled(item: TemplateItem, asks_questions: bool) -> bool:
    if asks_questions:
        return bool(item.answer.strip())
    s = item.summaries
    return s is not None and any(bool(getattr(s, style)) for style in SUMMARY_STYLES)


def run_import_template(template_file: Path, output_dir: Path, *, groundtruth: Path | None = None) -> tuple[Path, int]:
    """Write `<name>.experiment.json` from a filled template of either kind; returns its path and the number of
    blank (error) items."""
    from gaia_eval.artifacts.response_template import is_response_template
    from gaia_eval.stages.templates.responses import experiment_from_template

    if is_response_template(Path(template_file)):
        experiment, empty, made_from = experiment_from_template(Path(template_file), groundtruth)
        inputs = {"template": made_from}
    else:
        experiment, inputs = answer_template_experiment(Path(template_file), groundtruth)
        empty = [i.item_id for i in experiment.items if i.status == "error"]
    path = experiment_file(output_dir, experiment.experiment_name, file=template_file, field="name")
    state, existing = freshness(path, Experiment, inputs)
    if state is Freshness.CURRENT and existing is not None:
        return path, existing.totals.errors  # already imported from these exact answers: nothing rewritten
    write_artifact(path, experiment.model_copy(update={"inputs": inputs}))
    return path, len(empty)


def answer_template_experiment(
    template_file: Path, groundtruth: Path | None = None
) -> tuple[Experiment, dict[str, str]]:
    """An `answer_template` (structured summaries per item) as an experiment, and the inputs it was made from."""
    template = read_artifact(Path(template_file), AnswerTemplate)
    gt_path = Path(groundtruth or template.groundtruth_file)
    workload = load_workload(gt_path)
    case = usecases.get(template.use_case, file=template_file, field="use_case")
    if not case.shares_data_with(workload.use_case):
        raise InputError(
            f"is a {template.use_case} template but {gt_path} is {workload.use_case} ground truth",
            file=template_file,
            fix="pass the ground truth the template was made from with -i",
        )
    answers: dict[str, TemplateItem] = {}
    for i in template.items:
        if i.item_id in answers:
            raise InputError(f"lists item '{i.item_id}' twice", file=template_file, field="items",
                             fix="keep one entry per item_id")
        answers[i.item_id] = i
    missing = [i.item_id for i in workload.items if i.item_id not in answers]
    if missing:
        raise InputError(
            f"has no entry for item '{missing[0]}' of {gt_path} ({len(missing)} missing)",
            file=template_file,
            fix="make a fresh template with `gaia-eval create-template` from this ground truth",
        )
    inputs = {"template": fingerprint_file(Path(template_file)), "workload": workload.fingerprint()}
    spec = ExperimentSpec(name=template.name, provider="manual", model=template.model)
    quote = lookup_price("manual", template.model)
    results: list[ItemResult] = []
    asks_questions = case.asks_questions
    for item in workload.items:
        filled = answers[item.item_id]
        ok = _filled(filled, asks_questions)
        results.append(
            ItemResult(
                item_id=item.item_id,
                source=item.source,
                fingerprint=fingerprint([item.content_fingerprint, fingerprint(filled)]),
                status="ok" if ok else "error",
                error=None if ok else "no answer filled in",
                query=item.query,
                answer=filled.answer.strip() if ok and asks_questions else None,
                summaries=filled.summaries if ok and not asks_questions else None,
                groundtruth_answer=item.expected_answer,
                groundtruth_summaries=item.expected_summaries,
                cost_status=quote.status,
            )
        )
    now = datetime.now(timezone.utc)
    experiment = Experiment(
        inputs=inputs,
        experiment_name=template.name,
        safe_name=safe_name(template.name),
        use_case=template.use_case,
        spec=spec,
        input_path=gt_path.as_posix(),
        groundtruth="embedded",
        pricing=quote.describe(),
        sources=workload.sources,
        items=results,
        totals=compute_totals(results, 0.0, quote),
        started_at=now,
        finished_at=now,
    )
    return experiment, inputs
