"""Which tool wrote a results file, and its runs: an Inspect log, a promptfoo results file or lm-eval samples; a
folder is read whole (its logs, results files and samples files, in name order)."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.artifacts.inputs import parse_json, read_input_bytes
from gaia_eval.artifacts.store import read_prefix
from gaia_eval.errors import InputError
from gaia_eval.interop.inspect_log import is_inspect_log, read_inspect_log
from gaia_eval.interop.lm_eval import is_lm_eval_samples, read_lm_eval
from gaia_eval.interop.promptfoo import is_promptfoo_results, read_promptfoo
from gaia_eval.interop.records import ForeignRun

TOOLS = ("inspect", "promptfoo", "lm-eval")
FIX = "pass an Inspect .eval/.json log, a promptfoo results .json or lm-eval samples_*.jsonl (or a folder of them)"


def read_results(path: Path, tool: str | None = None, *, target_var: str | None = None) -> list[ForeignRun]:
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and _candidate(p))
        if not files:
            raise InputError("holds no results files", file=path, fix=FIX)
        return [run for file in files for run in read_results(file, tool, target_var=target_var)]
    runs = _read_file(path, tool or _detect(path), target_var)
    for run in runs:
        run.file = path
    return runs


def _read_file(path: Path, kind: str, target_var: str | None) -> list[ForeignRun]:
    if kind == "inspect":
        return read_inspect_log(path)
    if kind == "lm-eval":
        return read_lm_eval(path)
    data = parse_json(path, read_input_bytes(path, "a results file"), fix=FIX)
    if not is_promptfoo_results(data):
        raise InputError("is not a promptfoo results file (no results.prompts)", file=path, field="results", fix=FIX)
    return read_promptfoo(path, data, target_var=target_var)


def _candidate(path: Path) -> bool:
    return path.suffix == ".eval" or is_lm_eval_samples(path) or (
        path.suffix == ".json" and not path.name.startswith("results_") and not path.name.startswith("."))


def _detect(path: Path) -> str:
    if is_lm_eval_samples(path):
        return "lm-eval"
    head = read_prefix(path, 4096) or b""
    if is_inspect_log(path, head):
        return "inspect"
    if path.suffix == ".json" and b'"results"' in read_input_bytes(path, "a results file"):
        return "promptfoo"
    raise InputError("is not a results file gaia-eval reads", file=path, fix=FIX)
