"""Reading a file of answers people judged correct or incorrect (the input of `meta-eval` for answer matching);
any bad line is one error naming the line and the field.

JSONL, one answer a line: `{"question", "expected": "<answer>" or ["<answer>", ...] (or "references": [...]),
"output", "system", "human": {"correct": true|false}, "item_id"?}`. Several expected answers are alternatives:
an answer giving any of them is correct. Lines sharing a question (or an `item_id`) are one item: the bootstrap
and the cross-validation folds draw items, never single answers, so one question's answers stay together.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import parse_json
from gaia_eval.artifacts.store import read_text_input
from gaia_eval.errors import InputError

FORMAT_FIX = ('each line needs {"question", "expected" (or "references"), "output", "system", '
              '"human": {"correct": true or false}}')
_KEYS = frozenset({"item_id", "question", "expected", "references", "output", "system", "human"})


@dataclass(frozen=True)
class LabelledAnswer:
    """One answer: to which question, by which system, what was expected, and whether people judged it correct."""

    line: int
    item: str  # the item it belongs to: its item_id, else its question
    question: str
    expected: tuple[str, ...]
    output: str
    system: str
    correct: bool


def holds_answer_labels(path: Path) -> bool:
    """Whether a ratings file holds correct/incorrect labels of answers (its first line's "human" has a
    "correct" key) rather than scored summaries. A file that cannot be read this way is left to the summary
    reader, whose errors name the problem."""
    path = Path(path)
    try:
        text = read_text_input(path)
    except InputError:
        return False
    if path.suffix.lower() == ".csv":
        header = text.split("\n", 1)[0]
        if "human.correct" in [c.strip().strip('"') for c in header.split(",")]:
            raise InputError("answer labels (a human.correct column) are read from JSONL, not CSV", file=path,
                             field="human.correct", fix=f"write one JSON object a line: {FORMAT_FIX}")
        return False
    first = next((line for line in text.split("\n") if line.strip()), None)
    if first is None:
        return False
    try:
        data = parse_json(path, first)
    except InputError:
        return False
    return isinstance(data, dict) and isinstance(data.get("human"), dict) and "correct" in data["human"]


def _fail(path: Path, line: int, field: str | None, message: str, fix: str = FORMAT_FIX) -> InputError:
    return InputError(message, file=f"{path}:{line}", field=field, fix=fix)


def _text(data: dict[str, Any], name: str, path: Path, line: int, *, empty: bool = False) -> str:
    value = data.get(name)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # numeric ids and answers are common in exported data
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise _fail(path, line, name, "is missing" if name not in data else "must be a non-empty string")
    return value


def _expected(data: dict[str, Any], path: Path, line: int) -> tuple[str, ...]:
    if "expected" in data and "references" in data:
        raise _fail(path, line, "references", "given beside \"expected\"",
                    'give the acceptable answers once, under "expected"')
    name = "expected" if "expected" in data else "references"
    value = data.get(name)
    values = value if isinstance(value, list) else [value]
    answers = []
    for v in values:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        if not isinstance(v, str):
            raise _fail(path, line, name, "is missing" if value is None else "must be a string or a list of strings",
                        'e.g. "expected": "Paris" or "expected": ["Paris", "Paris, France"]')
        if v.strip():
            answers.append(v)
    if not answers:
        raise _fail(path, line, name, "holds no answer", "give at least one non-empty expected answer")
    return tuple(answers)


def _row(data: Any, path: Path, line: int) -> LabelledAnswer:
    if not isinstance(data, dict):
        raise _fail(path, line, None, "is not a JSON object")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise _fail(path, line, unknown[0], "unknown key", f"remove it; the keys are {', '.join(sorted(_KEYS))}")
    human = data.get("human")
    if not isinstance(human, dict) or not isinstance(human.get("correct"), bool):
        raise _fail(path, line, "human.correct", "must be true or false",
                    'e.g. "human": {"correct": true} for an answer people judged correct')
    if set(human) != {"correct"}:
        extra = sorted(set(human) - {"correct"})[0]
        raise _fail(path, line, f"human.{extra}", "unknown key beside \"correct\"",
                    "a line of answer labels holds one judgment: human.correct")
    question = _text(data, "question", path, line)
    item_id = data.get("item_id")
    if item_id is not None and (isinstance(item_id, bool) or not isinstance(item_id, (str, int))
                                or not str(item_id).strip()):
        raise _fail(path, line, "item_id", "must be a non-empty string", "give the question's id, or leave it out")
    return LabelledAnswer(
        line=line,
        item=str(item_id) if item_id is not None else question.strip(),
        question=question,
        expected=_expected(data, path, line),
        output=_text(data, "output", path, line, empty=True),
        system=_text(data, "system", path, line),
        correct=human["correct"],
    )


def load_answer_labels(path: Path) -> list[LabelledAnswer]:
    """Every labelled answer of the file, validated; two answers by one system to one item are an error."""
    path = Path(path)
    rows = []
    # Lines end at \n only: str.splitlines would also cut at U+2028 or \x1c inside an answer's JSON string.
    for number, line in enumerate(read_text_input(path).split("\n"), start=1):
        if line.strip():
            rows.append(_row(parse_json(Path(f"{path}:{number}"), line, fix="one JSON object per line"), path, number))
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row.item, row.system)
        if key in seen:
            raise _fail(path, row.line, "system", f"item {row.item!r} already has an answer by system "
                        f"{row.system!r} (line {seen[key]})", "keep one line per question and system")
        seen[key] = row.line
    if not rows:
        raise InputError("has no labelled answers", file=path, fix=FORMAT_FIX)
    return rows
