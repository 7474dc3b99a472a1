"""Loading benchmark suites from committed offline files: native JSON/JSONL, GAIA metadata.jsonl, GSM8K JSONL.

Every bad record is a load-time error naming the file and line (or task index), so a broken suite never runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import jsonl_lines, parse_json, read_input_text, refuse_special_file
from gaia_eval.artifacts.store import fingerprint, load_json_file
from gaia_eval.bench.tasks import TaskSpec, TaskSpecError
from gaia_eval.errors import InputError, UsageError

BUILTIN_DIR = Path(__file__).parent / "suites"
SUITE_SUFFIXES = (".jsonl", ".json")
_NATIVE_KEYS = {"id", "prompt", "kind", "expected", "metadata"}
_GSM8K_FINAL = re.compile(r"####\s*(\S+)\s*$")
TASK_FORMAT_HINT = ("a task is {id, prompt, kind: numeric|contains|regex|exact or a match mode (gaia, f1, ...), "
                    "expected, metadata?}")


@dataclass(frozen=True)
class Suite:
    name: str
    tasks: tuple[TaskSpec, ...]
    path: Path | None = None

    @property
    def fingerprint(self) -> str:
        return suite_fingerprint(self.tasks)

    @property
    def default_baseline_path(self) -> Path | None:
        """`baselines/<name>.json` next to the suite file: where the CLI looks when no --baseline is given."""
        return self.path.parent / "baselines" / f"{self.name}.json" if self.path else None


def suite_fingerprint(tasks: tuple[TaskSpec, ...] | list[TaskSpec]) -> str:
    """sha256 of the normalized tasks: any change to a prompt, kind, expected value or metadata changes it."""
    return fingerprint([task.to_dict() for task in tasks])


def _native_task(record: dict[str, Any]) -> TaskSpec:
    unknown = sorted(set(record) - _NATIVE_KEYS)
    if unknown:
        raise TaskSpecError(f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(_NATIVE_KEYS))})")
    missing = [key for key in ("id", "prompt", "kind", "expected") if key not in record]
    if missing:
        raise TaskSpecError(f"missing key(s) {', '.join(missing)}")
    task_id = record["id"]
    return TaskSpec(
        id=str(task_id) if isinstance(task_id, int) and not isinstance(task_id, bool) else task_id,
        prompt=record["prompt"],
        kind=record["kind"],
        expected=record["expected"],
        metadata=record.get("metadata") or {},
    )


def _gaia_task(record: dict[str, Any]) -> TaskSpec:
    if str(record.get("Final answer", "?")).strip() in ("", "?"):
        # The test split ships "?" in place of the answer; only the validation split can be scored offline.
        raise TaskSpecError(f"GAIA task '{record['task_id']}' has no 'Final answer' (use the validation split)")
    metadata: dict[str, Any] = {"level": record.get("Level")}
    if record.get("file_name"):
        metadata["file_name"] = record["file_name"]
    return TaskSpec(
        id=str(record["task_id"]),
        prompt=record["Question"],
        kind="gaia",
        expected=str(record["Final answer"]),
        metadata=metadata,
    )


def _gsm8k_task(record: dict[str, Any], position: int) -> TaskSpec:
    answer = record["answer"]
    found = _GSM8K_FINAL.search(answer) if isinstance(answer, str) else None
    if found is None:
        raise TaskSpecError("GSM8K 'answer' must end with '#### N' (the final number)")
    task_id = record.get("id", f"gsm8k-{position:04d}")
    return TaskSpec(id=str(task_id), prompt=record["question"], kind="numeric", expected=found.group(1))


def task_from_record(record: Any, position: int) -> TaskSpec:
    """One task from a record of any supported format, detected by its keys. `position` is 1-based."""
    if not isinstance(record, dict):
        raise TaskSpecError(f"a task must be a JSON object, got {type(record).__name__}")
    if "task_id" in record and "Question" in record:
        return _gaia_task(record)
    if "question" in record and "answer" in record and "prompt" not in record:
        return _gsm8k_task(record, position)
    if "prompt" in record:
        return _native_task(record)
    raise TaskSpecError(
        "not a task: expected keys id/prompt/kind/expected, GAIA's task_id/Question/Final answer, "
        "or GSM8K's question/answer"
    )


def _read_text(path: Path) -> str:
    return read_input_text(path, "a suite file")


def _jsonl_records(path: Path) -> list[tuple[str, Any]]:
    records = []
    for line_no, line in enumerate(jsonl_lines(_read_text(path)), start=1):
        if not line.strip():
            continue
        records.append(
            (f"{path}:{line_no}", parse_json(Path(f"{path}:{line_no}"), line, fix="write one JSON task per line"))
        )
    return records


def _json_records(path: Path) -> list[tuple[str, Any]]:
    data = load_json_file(path)
    tasks = data.get("tasks") if isinstance(data, dict) else data
    if not isinstance(tasks, list):
        raise InputError(
            "a JSON suite must be a list of tasks or an object with a 'tasks' list",
            file=path,
            fix='write [{"id": ..., "prompt": ..., "kind": ..., "expected": ...}, ...]',
        )
    return [(f"{path}: tasks[{index}]", record) for index, record in enumerate(tasks)]


def load_suite(path: str | Path, name: str | None = None) -> Suite:
    """Read a suite file (JSON list, JSON {"tasks": [...]}, or JSONL of native, GAIA or GSM8K records)."""
    path = Path(path)
    records = _json_records(path) if path.suffix == ".json" else _jsonl_records(path)
    if not records:
        raise InputError("suite has no tasks", file=path, fix="add at least one task")
    tasks: list[TaskSpec] = []
    seen: dict[str, str] = {}
    for position, (where, record) in enumerate(records, start=1):
        try:
            task = task_from_record(record, position)
        except TaskSpecError as exc:
            raise InputError(str(exc), file=where, fix=TASK_FORMAT_HINT) from None
        if task.id in seen:
            raise InputError(
                f"duplicate task id '{task.id}' (first at {seen[task.id]})",
                file=where,
                fix="give each task a unique id",
            )
        seen[task.id] = where
        tasks.append(task)
    return Suite(name=name or path.name.removesuffix(".jsonl").removesuffix(".json"), tasks=tuple(tasks), path=path)


def builtin_paths() -> dict[str, Path]:
    """Builtin suite name -> file, for every suite shipped in gaia_eval/bench/suites/."""
    return {
        path.name.removesuffix(path.suffix): path
        for path in sorted(BUILTIN_DIR.iterdir())
        if path.is_file() and path.suffix in SUITE_SUFFIXES
    }


def load_builtin(name: str) -> Suite:
    paths = builtin_paths()
    if name not in paths:
        raise UsageError(f"no builtin suite '{name}'", fix=f"use one of: {', '.join(paths)}, or a path to a suite file")
    return load_suite(paths[name], name=name)


def resolve_suite(spec: str) -> Suite:
    """A builtin name or a path: an existing file wins, then a builtin of that name."""
    path = Path(spec)
    refuse_special_file(path, "a suite file")
    if path.is_file():
        return load_suite(path)
    if spec in builtin_paths():
        return load_builtin(spec)
    if path.suffix in SUITE_SUFFIXES or "/" in spec or "\\" in spec:
        raise InputError("suite file not found", file=path, fix="check the path")
    raise UsageError(
        f"unknown suite '{spec}'",
        fix=f"use a builtin ({', '.join(builtin_paths())}) or a path to a .json/.jsonl suite file",
    )
