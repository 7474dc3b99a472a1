"""Answer matching for QA and agent benchmarks: `match_answer(expected, answer, mode, **options)`.

This module is the public face: it validates the mode and its options, expands the expected alternatives,
asks the mode's matcher (answers_gaia, answers_official, answers_modes, answers_semantic) for a verdict on
each, and returns a MatchResult. It also holds the helpers behind `gaia-eval check-answer`. The other
answers_* modules are its parts: text (folding, tokens), extract (where the answer is), cues (negation,
hedges), numbers, dates, parse (both sides parsed), lists.

Modes and the options each accepts (every mode also accepts `alternatives_sep`, which splits an expected
string such as "NYC | New York City" into alternatives; without it the string is one answer):
- gaia (default): rel_tol, abs_tol, ordered, extract -- strict on the value, tolerant of format;
- gaia-official: the GAIA leaderboard scorer exactly, quirks included;
- lenient: normalize-then-contains either way, on whole tokens, never on an empty answer;
- exact: extract -- normalized exact match;
- f1: threshold (0..1, default 0.5), extract -- SQuAD token F1;
- numeric: rel_tol, abs_tol, extract -- gaia's number rules only;
- contains: any expected answer as whole words of the answer;
- regex: ignore_case, fullmatch -- the expected answers are Python regular expressions;
- fuzzy: threshold (0..100, default 90), rel_tol, abs_tol, extract -- rapidfuzz ratio, for typos;
- semantic: threshold (-1..1, default 0.8), model, encoder, rel_tol, abs_tol, extract -- embedding cosine.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.errors import InputError, UsageError
from gaia_eval.scoring.answers.gaia import match_gaia
from gaia_eval.scoring.answers.mode_names import MODES
from gaia_eval.scoring.answers.modes import (
    match_contains,
    match_exact,
    match_f1,
    match_fuzzy,
    match_lenient,
    match_numeric,
    match_regex,
)
from gaia_eval.scoring.answers.official import question_scorer
from gaia_eval.scoring.answers.parse import GaiaOptions, Verdict
from gaia_eval.scoring.answers.semantic import match_semantic

_TOLERANCE = frozenset({"rel_tol", "abs_tol"})
_EVERY_MODE = frozenset({"alternatives_sep"})
MODE_OPTIONS: dict[str, frozenset[str]] = {
    "gaia": _EVERY_MODE | _TOLERANCE | {"ordered", "extract", "question"},
    "gaia-official": _EVERY_MODE,
    "lenient": _EVERY_MODE,
    "exact": _EVERY_MODE | {"extract"},
    "f1": _EVERY_MODE | {"threshold", "extract"},
    "numeric": _EVERY_MODE | _TOLERANCE | {"extract"},
    "contains": _EVERY_MODE,
    "regex": _EVERY_MODE | {"ignore_case", "fullmatch"},
    "fuzzy": _EVERY_MODE | _TOLERANCE | {"threshold", "extract"},
    "semantic": _EVERY_MODE | _TOLERANCE | {"threshold", "model", "encoder", "extract"},
}
_THRESHOLDS: dict[str, tuple[float, float, float]] = {  # mode -> (default, lowest, highest)
    "f1": (0.5, 0.0, 1.0),
    "fuzzy": (90.0, 0.0, 100.0),
    "semantic": (0.8, -1.0, 1.0),
}
_DEFAULT_GAIA_OPTIONS = GaiaOptions()
_BOOL_OPTIONS = frozenset({"ordered", "extract", "ignore_case", "fullmatch"})


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The verdict on one answer: whether it is correct, how much, and why."""

    correct: bool
    score: float  # 0..1: 1/0 for binary modes, the F1 / similarity / share of list items otherwise
    mode: str
    explanation: str  # which rule decided, on which normalized values
    extracted: str  # the part of the answer that was compared

    def to_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "score": self.score, "mode": self.mode, "explanation": self.explanation,
                "extracted": self.extracted}


def _check_options(mode: str, options: Mapping[str, Any]) -> dict[str, Any]:
    given = {name: value for name, value in options.items() if value is not None}
    unknown = sorted(set(given) - MODE_OPTIONS[mode])
    if unknown:
        accepted = ", ".join(sorted(MODE_OPTIONS[mode]))
        raise UsageError(f"unknown option(s) {', '.join(unknown)} for match mode {mode!r}", field="options",
                         fix=f"mode {mode!r} accepts: {accepted}")
    for name, value in given.items():
        if name in _BOOL_OPTIONS and not isinstance(value, bool):
            raise UsageError(f"option {name} must be true or false, got {value!r}", field=name,
                             fix=f"pass {name}=True or {name}=False")
        if name in _TOLERANCE and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            raise UsageError(f"option {name} must be a number >= 0, got {value!r}", field=name,
                             fix=f"pass e.g. {name}=1e-6")
        if name == "threshold":
            _, lowest, highest = _THRESHOLDS[mode]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lowest <= value <= highest:
                raise UsageError(f"option threshold must be a number in [{lowest:g}, {highest:g}] for mode {mode!r},"
                                 f" got {value!r}", field="threshold", fix=f"pass a threshold within {lowest:g}.."
                                 f"{highest:g}")
        if name == "question" and value is not None and not isinstance(value, str):
            raise UsageError(f"option question must be a string, got {value!r}", field="question",
                             fix="pass the question text, or leave it out")
        if name in ("alternatives_sep", "model") and (not isinstance(value, str) or not value):
            raise UsageError(f"option {name} must be a non-empty string, got {value!r}", field=name,
                             fix="pass e.g. alternatives_sep='|'" if name == "alternatives_sep"
                             else "pass the path of a local model directory")
        if name == "encoder" and not callable(value):
            raise UsageError("option encoder must be a callable that maps a list of texts to vectors",
                             field="encoder", fix="pass a function, or leave encoder out to use the local model")
    return given


def _as_text(value: Any, field: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value) if isinstance(value, float) else str(value)
    raise UsageError(f"{field} must be a string or a number, got {type(value).__name__}", field=field,
                     fix=f"give the {field} answer as text")


def _alternatives(expected: str | int | float | Sequence[str | int | float], separator: str | None) -> list[str]:
    if isinstance(expected, (list, tuple)):
        if not expected:
            raise UsageError("the expected answer list is empty", field="expected",
                             fix="give at least one acceptable answer")
        items = [_as_text(item, "expected") for item in expected]
    else:
        items = [_as_text(expected, "expected")]
    if separator:
        items = [part.strip() for item in items for part in item.split(separator)]
    if any(not item.strip() for item in items):
        raise UsageError("an expected answer is empty", field="expected",
                         fix="give the reference answer text (an empty reference would match nothing)")
    return items


def _verdict(mode: str, expected: str, answer: str | None, opts: dict[str, Any]) -> Verdict:
    text = "" if answer is None else answer
    gaia = _DEFAULT_GAIA_OPTIONS if not opts else GaiaOptions(
        rel_tol=opts.get("rel_tol"), abs_tol=opts.get("abs_tol", 0.0), ordered=opts.get("ordered", True),
        extract=opts.get("extract", True), question=opts.get("question"))
    if mode == "gaia":
        return match_gaia(expected, text, gaia)
    if mode == "gaia-official":
        correct, why = question_scorer(answer, expected)
        return Verdict(correct, float(correct), f"gaia-official: {why}", "None" if answer is None else answer)
    if mode == "lenient":
        return match_lenient(expected, text)
    if mode == "exact":
        return match_exact(expected, text, gaia.extract)
    if mode == "f1":
        return match_f1(expected, text, opts.get("threshold", _THRESHOLDS["f1"][0]), gaia.extract)
    if mode == "numeric":
        return match_numeric(expected, text, gaia)
    if mode == "contains":
        return match_contains(expected, text)
    if mode == "regex":
        return match_regex(expected, text, opts.get("ignore_case", False), opts.get("fullmatch", False))
    if mode == "fuzzy":
        return match_fuzzy(expected, text, opts.get("threshold", _THRESHOLDS["fuzzy"][0]), gaia)
    return match_semantic(expected, text, opts.get("threshold", _THRESHOLDS["semantic"][0]), gaia,
                          opts.get("model"), opts.get("encoder"))


def match_answer(expected: str | int | float | Sequence[str | int | float], answer: str | int | float | None,
                 mode: str = "gaia", **options: Any) -> MatchResult:
    """Whether `answer` gives `expected` (one answer, or a list of acceptable ones: any may match)."""
    if mode not in MODE_OPTIONS:
        raise UsageError(f"unknown match mode {mode!r}", field="mode", fix=f"use one of: {', '.join(MODES)}")
    opts = _check_options(mode, options) if options else {}
    if type(expected) is str and expected.strip() and not opts:  # the common case, kept cheap
        alternatives = [expected]
    else:
        alternatives = _alternatives(expected, opts.get("alternatives_sep"))
    answer_text = None if answer is None else _as_text(answer, "answer")
    best: tuple[str, Verdict] | None = None
    for alternative in alternatives:
        verdict = _verdict(mode, alternative, answer_text, opts)
        if best is None or verdict.correct or verdict.score > best[1].score:
            best = (alternative, verdict)
        if verdict.correct:
            break
    assert best is not None  # _alternatives never returns an empty list
    alternative, verdict = best
    explanation = verdict.explanation
    if len(alternatives) > 1:
        explanation = f"against expected {alternative!r} (best of {len(alternatives)}): {explanation}"
    return MatchResult(verdict.correct, verdict.score, mode, explanation, verdict.extracted)


# --- check-answer helpers ------------------------------------------------------------------------

_JSON_OPTION_NAMES = frozenset().union(*MODE_OPTIONS.values()) - {"encoder"}


def check_answers_jsonl(lines: Iterable[str], source_name: str, default_mode: str = "gaia",
                        default_options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """One result dict per JSON line ({"expected", "answer", optional "id", "mode", "options" or option keys}).

    Results come in input order, with the line's `id` first when it has one. Blank lines are skipped. A bad
    line raises InputError naming `source_name` and the line number.
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"{where}: not valid JSON ({exc})", file=source_name,
                             fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}'
                             ) from exc
        if not isinstance(record, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(record).__name__}", file=source_name,
                             fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}')
        for required in ("expected", "answer"):
            if required not in record:
                raise InputError(f"{where}: the field is missing", file=source_name, field=required,
                                 fix='give both "expected" and "answer" on every line')
        mode = record.get("mode", default_mode)
        if not isinstance(mode, str) or mode not in MODE_OPTIONS:
            raise InputError(f"{where}: unknown match mode {mode!r}", file=source_name, field="mode",
                             fix=f"use one of: {', '.join(MODES)}")
        line_options = record.get("options", {})
        if not isinstance(line_options, dict):
            raise InputError(f"{where}: options must be a JSON object", file=source_name, field="options",
                             fix='write e.g. "options": {"rel_tol": 0.01}')
        # Command-line defaults apply where the line's mode takes them; the line's own options must all fit.
        options = {name: value for name, value in (default_options or {}).items() if name in MODE_OPTIONS[mode]}
        options.update({name: value for name, value in record.items() if name in _JSON_OPTION_NAMES})
        options.update(line_options)
        try:
            result = match_answer(record["expected"], record["answer"], mode, **options)
        except UsageError as exc:
            raise InputError(f"{where}: {exc.message}", file=source_name, field=exc.field, fix=exc.fix) from exc
        row: dict[str, Any] = {"id": record["id"]} if "id" in record else {}
        row.update(result.to_dict())
        yield row


def check_answers_file(path: str, default_mode: str = "gaia",
                       default_options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """`check_answers_jsonl` over a UTF-8 file read line by line ("-" reads standard input)."""
    if path == "-":
        yield from check_answers_jsonl(sys.stdin, "<stdin>", default_mode, default_options)
        return
    from gaia_eval.artifacts.inputs import read_input_text

    # The one input policy: a regular file, bounded in size, UTF-8 (a BOM dropped); a FIFO is refused, not waited on.
    lines = read_input_text(Path(path), "a JSONL file").splitlines()
    if not any(line.strip() for line in lines):
        raise InputError("holds no lines to check", file=path,
                         fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}')
    yield from check_answers_jsonl(lines, path, default_mode, default_options)


def format_verdict(result: MatchResult) -> str:
    """For a person: the verdict with mode and score, then why, then the part of the answer compared."""
    verdict = "CORRECT" if result.correct else "INCORRECT"
    return (f"{verdict} (mode {result.mode}, score {result.score:.2f})\n"
            f"  why: {result.explanation}\n"
            f"  compared: {result.extracted!r}")
