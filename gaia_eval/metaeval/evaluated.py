"""The outputs of one use case's evaluations, as a rater sees them and as each scorer scored them: per (item,
model) the output text, its fingerprint, the source and reference, and every score the evaluation gave it (the
grade, each rubric criterion, the judge and its criteria when the judge ran).

The evaluations are read from the evaluation folder; each output's text from the experiment the evaluation
scored (found by name under the experiments folder, or at the path the evaluation recorded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.evaluation import Evaluation, ItemEvaluation
from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.artifacts.remote import local_copy, remote_url
from gaia_eval.artifacts.store import fingerprint, read_artifact
from gaia_eval.errors import GaiaEvalError, InputError

GRADE = "grade"  # the evaluation's own score of an item (the rubric's points, 0..100): what the report ranks by
_SUMMARY_SECTIONS = (
    ("executive_summary", "Executive summary"),
    ("detailed_summary", "Detailed summary"),
    ("key_decisions", "Key decisions"),
    ("action_items", "Action items"),
    ("participants", "Participants"),
    ("topics_discussed", "Topics discussed"),
)


@dataclass(frozen=True)
class EvaluatedOutput:
    item_id: str
    model: str  # experiment name
    text: str  # the output as plain text (summaries: every section, one after the other)
    sections: list[dict[str, Any]]  # what the page shows: [{"title", "text"} or {"title", "items"}]
    fingerprint: str  # of the output itself: a rating of another version of it is stale
    source: str | None
    reference: str | None
    reference_sections: list[dict[str, Any]] | None
    query: str | None
    scores: dict[str, float]  # scorer -> value; a scorer that did not apply to this output is absent


@dataclass
class EvaluatedSet:
    use_case: str
    mode: str
    models: list[str]
    outputs: dict[tuple[str, str], EvaluatedOutput] = field(default_factory=dict)
    scorers: list[str] = field(default_factory=list)  # in a stable order: grade, criteria, judge
    judge: str | None = None  # "judge:<provider:model>" when the judge ran on every evaluation
    notes: list[str] = field(default_factory=list)

    def get(self, item_id: str, model: str) -> EvaluatedOutput | None:
        return self.outputs.get((item_id, model))


def summaries_sections(summaries: Summaries) -> list[dict[str, Any]]:
    """The sections a rater reads. A text that an earlier section already holds is shown once: an imported
    system's one output fills both summary styles (executive and detailed), and "X\n\nX" would be rated as
    another output than the one the system wrote."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for name, title in _SUMMARY_SECTIONS:
        value = getattr(summaries, name)
        if isinstance(value, str) and value.strip():
            if value.strip() in seen:
                continue
            seen.add(value.strip())
            out.append({"title": title, "text": value})
        elif isinstance(value, list) and value:
            out.append({"title": title, "items": list(value)})
    return out


def sections_text(sections: list[dict[str, Any]]) -> str:
    parts = []
    for section in sections:
        parts.append(section["text"] if "text" in section else "\n".join(section["items"]))
    return "\n\n".join(parts)


def _output(result: ItemResult) -> tuple[Any, list[dict[str, Any]]] | None:
    if result.status != "ok":
        return None
    if result.answer is not None:
        return result.answer, [{"title": "Answer", "text": result.answer}]
    if result.summaries is not None:
        return result.summaries.model_dump(), summaries_sections(result.summaries)
    return None


def _reference(result: ItemResult) -> tuple[str | None, list[dict[str, Any]] | None]:
    if result.groundtruth_answer is not None:
        return result.groundtruth_answer.answer, [
            {"title": "Expected answer", "text": result.groundtruth_answer.answer}
        ]
    if result.groundtruth_summaries is not None:
        sections = summaries_sections(result.groundtruth_summaries)
        return (sections_text(sections) or None), (sections or None)
    return None, None


def _item_scores(item: ItemEvaluation, criteria: list[str], judge: str | None) -> dict[str, float]:
    from gaia_eval.scoring import rubric
    from gaia_eval.scoring.judge import RANK

    scores = {GRADE: float(rubric.item_points(item, criteria))}
    for c in item.criteria:
        if c.value is not None and c.rating != "N/A" and math.isfinite(c.value):
            scores[c.criterion] = float(c.value)
    if judge and item.judge is not None and item.judge.status == "scored" and item.judge.criteria:
        ranks = [RANK[c.rating] for c in item.judge.criteria]
        scores[judge] = sum(ranks) / len(ranks)
        for judged in item.judge.criteria:
            scores[f"{judge}:{judged.criterion}"] = float(RANK[judged.rating])
    return scores


def _tail_match(path: Path, recorded: Path) -> int:
    n = 0
    for a, b in zip(reversed(path.parts), reversed(recorded.parts), strict=False):
        if a != b:
            break
        n += 1
    return n


def _find_experiment(ev: Evaluation, experiments_dir: Path | None) -> Experiment | None:
    """The experiment the evaluation scored: by file name under the experiments folder (the path that shares
    most of the recorded path first), else at the recorded path; it must hold the same experiment."""
    recorded = Path(ev.experiment_file)
    candidates = []
    if experiments_dir is not None and experiments_dir.is_dir():
        candidates += sorted(experiments_dir.rglob(recorded.name), key=lambda p: -_tail_match(p, recorded))
    url = remote_url(ev.experiment_file)  # a run on object storage recorded its URL: this machine's copy of it
    candidates.append((local_copy(url) or recorded) if url else recorded)
    for path in candidates:
        if not (path.is_file() and path.name.endswith(".experiment.json")):
            continue
        try:
            experiment = read_artifact(path, Experiment)
        except GaiaEvalError:
            continue
        if (experiment.experiment_name, experiment.use_case) == (ev.experiment_name, ev.use_case):
            return experiment
    return None


def evaluations_by_use_case(eval_root: Path) -> dict[str, list[tuple[Path, Evaluation]]]:
    """Every readable evaluation under the folder, by use case, then path."""
    found: dict[str, list[tuple[Path, Evaluation]]] = {}
    for path in sorted(Path(eval_root).rglob("*.experiment.eval.json")):
        try:
            evaluation = read_artifact(path, Evaluation)
        except GaiaEvalError:
            continue
        found.setdefault(evaluation.use_case, []).append((path, evaluation))
    return found


def use_cases_in(eval_root: Path) -> list[str]:
    return sorted(evaluations_by_use_case(eval_root))


def load_evaluated(eval_root: Path, use_case: str, experiments_dir: Path | None = None) -> EvaluatedSet:
    """Every answered output of the use case's evaluations with its scores. An evaluation whose experiment
    cannot be found is left out with a note; no evaluation at all is an InputError."""
    eval_root = Path(eval_root)
    evals = evaluations_by_use_case(eval_root).get(use_case, [])
    if not evals:
        raise InputError(
            f"holds no evaluation of use case '{use_case}'", file=eval_root,
            fix="run `gaia-eval eval` first, or pass the folder that holds the *.experiment.eval.json files",
        )
    judges = {ev.judge.spec if ev.judge else None for _, ev in evals}
    judge = f"judge:{judges.pop()}" if len(judges) == 1 and None not in judges else None
    result = EvaluatedSet(use_case=use_case, mode=evals[0][1].mode, models=[], judge=judge)
    names: dict[str, None] = {GRADE: None}
    for _, ev in evals:
        experiment = _find_experiment(ev, experiments_dir)
        if experiment is None:
            result.notes.append(f"{ev.experiment_name}: its experiment {ev.experiment_file} was not found (left out)")
            continue
        results = {r.item_id: r for r in experiment.items}
        criteria = [c.criterion for c in ev.criteria]
        result.models.append(ev.experiment_name)
        for item in ev.items:
            found = results.get(item.item_id)
            shown = _output(found) if found is not None and item.status == "scored" else None
            if found is None or shown is None:
                continue
            raw, sections = shown
            doc = experiment.sources.get(found.source)
            reference, reference_sections = _reference(found)
            scores = _item_scores(item, criteria, judge)
            names.update(dict.fromkeys(scores))
            result.outputs[(item.item_id, ev.experiment_name)] = EvaluatedOutput(
                item_id=item.item_id, model=ev.experiment_name, text=sections_text(sections), sections=sections,
                fingerprint=fingerprint(raw), source=doc.text if doc else None, reference=reference,
                reference_sections=reference_sections, query=found.query, scores=scores,
            )
    result.scorers = list(names)
    return result
