"""What each system wrote for an item, wherever it is kept: the experiment file of the same name and use case
under the experiments folder, or, for a system scored from a filled template (create-template -> fill -> eval),
the template the evaluation records as its `experiment_file` (it is not under the experiments folder, and its
answers showed as "—" beside their scores). Read-only."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.recorded import find_recorded_path
from gaia_eval.artifacts.streamed import StreamedExperiment, read_experiment
from gaia_eval.errors import GaiaEvalError
from gaia_eval.visualize.index import IndexRegistry, file_fingerprint


def _experiment_loader(_root: Path):
    def load(path: Path) -> Experiment | StreamedExperiment | None:
        """The experiment as a stream: its header now, an item or a source when asked for."""
        try:
            return read_experiment(path)
        except GaiaEvalError:
            return None

    return load


# Per folder, kept across requests and refreshed by file fingerprints (visualize/index.py).
experiment_index = IndexRegistry("*.experiment.json", _experiment_loader)


def experiments_by_name(exp_root: Path) -> dict[tuple[str, str], Experiment | StreamedExperiment]:
    """(experiment_name, use_case) -> the experiment; the first file by path wins, as the dashboard lists them."""
    found: dict[tuple[str, str], Experiment | StreamedExperiment] = {}
    for _path, exp in experiment_index(exp_root).current():
        found.setdefault((exp.experiment_name, exp.use_case), exp)
    return found


def result_of(exp: Experiment | StreamedExperiment, item_id: str) -> Any:
    if isinstance(exp, StreamedExperiment):
        return exp.items.find(item_id)  # one element parsed, not the whole file
    return next((r for r in exp.items if r.item_id == item_id), None)


def output_of(result: Any) -> Any:
    """An item result's answer (text) or summaries (a dict of sections); None when it has neither."""
    if result is None:
        return None
    if result.answer is not None:
        return result.answer
    return result.summaries.model_dump() if result.summaries is not None else None


_template_lock = threading.Lock()
_template_cache: dict[Path, tuple[Any, dict[str, dict[str, Any]]]] = {}  # path -> (fingerprint, answers by id)


def _read_template_answers(path: Path) -> dict[str, dict[str, Any]]:
    """item id -> {"output", "query"} from a filled template of either kind (response or answer template)."""
    from gaia_eval.artifacts.response_template import is_response_template, read_template

    if is_response_template(path):
        records = read_template(path).records
        return {r.test_id: {"output": r.response.strip() or None, "query": r.query} for r in records}
    from gaia_eval.artifacts.store import read_artifact
    from gaia_eval.artifacts.template import AnswerTemplate

    template = read_artifact(path, AnswerTemplate)
    return {i.item_id: {"output": i.answer.strip() or (i.summaries.model_dump() if i.summaries else None),
                        "query": i.query} for i in template.items}


def template_answers(ev: Evaluation, eval_root: Path) -> dict[str, dict[str, Any]]:
    """The answers of a system scored from a filled template, by item id, read from the template the evaluation
    names (again only when it changed); empty when it was scored from an experiment, or the template is gone or
    no longer readable."""
    if ".template." not in Path(ev.experiment_file).name:
        return {}
    path = find_recorded_path(ev.experiment_file, eval_root)
    if path is None or not path.is_file():
        return {}
    key = file_fingerprint(path)
    with _template_lock:
        cached = _template_cache.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
    try:
        answers = _read_template_answers(path)
    except (GaiaEvalError, OSError, ValueError):
        answers = {}  # edited since into something unreadable: no answers shown, never a broken page
    with _template_lock:
        _template_cache[path] = (key, answers)
    return answers
