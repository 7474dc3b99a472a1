"""Answer matching for QA and agent benchmarks: `match_answer(expected, answer, mode, **options)`.

This module is the public face: it finds the mode in the open registry gaia_eval.registry.MATCH_MODES (a
`MatchMode`: its matcher and the options it takes; another package adds modes under the entry-point group
`gaia_eval.match_modes`), validates the options, expands the expected alternatives, asks the mode's matcher
(gaia, official, modes, semantic) for a verdict on each, and returns a MatchResult. It also holds the helpers
behind `gaia-eval check-answer`. The other modules of the package are its parts: text (folding, tokens), extract
(where the answer is), cues (negation, hedges), numbers, dates, parse (both sides parsed; MatchMode), lists.

The built-in modes and the options each accepts (every mode also accepts `alternatives_sep`, which splits an expected
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

import math
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.errors import GaiaEvalError, InputError, PluginError, UsageError
from gaia_eval.registry import MATCH_MODES, one_line_reason
from gaia_eval.scoring.answers.parse import MatchMode, Verdict

_TOLERANCE = frozenset({"rel_tol", "abs_tol"})
_EVERY_MODE = frozenset({"alternatives_sep"})  # taken by every mode: match_answer applies it
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


def mode_names() -> tuple[str, ...]:
    """Every match mode's name, built in first (gaia, the default, leads)."""
    return MATCH_MODES.names()


def match_mode(name: str) -> MatchMode:
    """The mode registered under `name`; a UsageError listing the modes when there is none."""
    if name not in MATCH_MODES:
        raise UsageError(f"unknown match mode {name!r}", field="mode", fix=f"use one of: {', '.join(mode_names())}")
    found = MATCH_MODES.entry(name)
    if isinstance(found, MatchMode):
        return found
    if callable(found):  # a bare matching function: a mode that takes no options
        return MatchMode(found)
    raise UsageError(f"match mode {name!r} ({MATCH_MODES.target(name)}) is a {type(found).__name__}, not a mode",
                     field="mode", fix="point it at a gaia_eval.scoring.answers.MatchMode or a function "
                     "(expected, answer, options) -> Verdict")


def mode_options(mode: MatchMode) -> frozenset[str]:
    """The option names a mode accepts."""
    return _EVERY_MODE | mode.options


def _check_options(name: str, mode: MatchMode, options: Mapping[str, Any]) -> dict[str, Any]:
    given = {option: value for option, value in options.items() if value is not None}
    accepted = mode_options(mode)
    unknown = sorted(set(given) - accepted)
    if unknown:
        raise UsageError(f"unknown option(s) {', '.join(unknown)} for match mode {name!r}", field="options",
                         fix=f"mode {name!r} accepts: {', '.join(sorted(accepted))}")
    for option, value in given.items():
        if option in _BOOL_OPTIONS and not isinstance(value, bool):
            raise UsageError(f"option {option} must be true or false, got {value!r}", field=option,
                             fix=f"pass {option}=True or {option}=False")
        if option in _TOLERANCE and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            raise UsageError(f"option {option} must be a number >= 0, got {value!r}", field=option,
                             fix=f"pass e.g. {option}=1e-6")
        if option == "threshold":
            _, lowest, highest = mode.threshold or (0.0, -math.inf, math.inf)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lowest <= value <= highest:
                raise UsageError(f"option threshold must be a number in [{lowest:g}, {highest:g}] for mode {name!r},"
                                 f" got {value!r}", field="threshold", fix=f"pass a threshold within {lowest:g}.."
                                 f"{highest:g}")
        if option == "question" and value is not None and not isinstance(value, str):
            raise UsageError(f"option question must be a string, got {value!r}", field="question",
                             fix="pass the question text, or leave it out")
        if option in ("alternatives_sep", "model") and (not isinstance(value, str) or not value):
            raise UsageError(f"option {option} must be a non-empty string, got {value!r}", field=option,
                             fix="pass e.g. alternatives_sep='|'" if option == "alternatives_sep"
                             else "pass the path of a local model directory")
        if option == "encoder" and not callable(value):
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


def match_answer(expected: str | int | float | Sequence[str | int | float], answer: str | int | float | None,
                 mode: str = "gaia", **options: Any) -> MatchResult:
    """Whether `answer` gives `expected` (one answer, or a list of acceptable ones: any may match)."""
    matcher = match_mode(mode)
    opts = _check_options(mode, matcher, options) if options else {}
    if type(expected) is str and expected.strip() and not opts:  # the common case, kept cheap
        alternatives = [expected]
    else:
        alternatives = _alternatives(expected, opts.get("alternatives_sep"))
    answer_text = None if answer is None else _as_text(answer, "answer")
    best: tuple[str, Verdict] | None = None
    for alternative in alternatives:
        try:
            verdict = matcher.match(alternative, answer_text, opts)
        except GaiaEvalError:
            raise
        except (Exception, SystemExit) as exc:  # a package's mode: one line naming it, never a traceback
            target = MATCH_MODES.target(mode) or mode
            raise PluginError(f"match mode {mode!r} ({target}) failed: {one_line_reason(exc)}", field="mode",
                              fix=f"fix that error in {target.rpartition(':')[0] or target}") from None
        if not isinstance(verdict, Verdict):
            raise UsageError(f"match mode {mode!r} returned a {type(verdict).__name__}, not a Verdict", field="mode",
                             fix="make its function return gaia_eval.scoring.answers.Verdict(correct, score, "
                             "explanation, extracted)")
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

def _json_option_names() -> frozenset[str]:
    """The keys a --jsonl line may give options under, beside "options": those of the built-in modes (a line's
    own mode adds its own)."""
    names = frozenset().union(*(mode_options(match_mode(name)) for name in MATCH_MODES.builtin))
    return names - {"encoder"}  # a function cannot come from JSON


def check_answers_jsonl(lines: Iterable[str], source_name: str, default_mode: str = "gaia",
                        default_options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """One result dict per JSON line ({"expected", "answer", optional "id", "mode", "options" or option keys}).

    Results come in input order, with the line's `id` first when it has one. Blank lines are skipped. A bad
    line raises InputError naming `source_name` and the line number.
    """
    json_option_names = _json_option_names()
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
        if not isinstance(mode, str) or mode not in MATCH_MODES:
            raise InputError(f"{where}: unknown match mode {mode!r}", file=source_name, field="mode",
                             fix=f"use one of: {', '.join(mode_names())}")
        line_options = record.get("options", {})
        if not isinstance(line_options, dict):
            raise InputError(f"{where}: options must be a JSON object", file=source_name, field="options",
                             fix='write e.g. "options": {"rel_tol": 0.01}')
        # Command-line defaults apply where the line's mode takes them; the line's own options must all fit.
        try:
            accepted = mode_options(match_mode(mode))
            options = {name: value for name, value in (default_options or {}).items() if name in accepted}
            keys = (json_option_names | accepted) - {"encoder"}
            options.update({name: value for name, value in record.items() if name in keys})
            options.update(line_options)
            result = match_answer(record["expected"], record["answer"], mode, **options)
        except UsageError as exc:
            raise InputError(f"{where}: {exc.message}", file=source_name, field=exc.field, fix=exc.fix) from exc
        row: dict[str, Any] = {"id": record["id"]} if "id" in record else {}
        row.update(result.to_dict())
        yield row


def jsonl_source(path: str) -> tuple[str, Iterator[str]]:
    """The name to report and the lines of check-answer's --jsonl input, for every mode alike: "-" is standard
    input read a line at a time; a file goes through the one input policy (a regular file, bounded in size,
    UTF-8); either way a BOM is dropped and lines split at "\n" only (U+2028 may sit raw inside a JSON string)."""
    from gaia_eval.artifacts.inputs import jsonl_lines, read_input_text

    if path == "-":
        return "<stdin>", _stdin_lines()
    return path, iter(jsonl_lines(read_input_text(Path(path), "a JSONL file")))


def check_answers_file(path: str, default_mode: str = "gaia",
                       default_options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """`check_answers_jsonl` over a UTF-8 file read line by line ("-" reads standard input, a line at a time).
    Standard input and a file answer alike: a UTF-8 BOM is dropped, and nothing to check is an error."""
    name, lines = jsonl_source(path)
    checked = 0
    for row in check_answers_jsonl(lines, name, default_mode, default_options):
        checked += 1
        yield row
    if not checked:
        raise InputError("holds no lines to check", file=name,
                         fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}')


def _stdin_lines() -> Iterator[str]:
    """Standard input's lines as the file policy reads a file's: the BOM dropped, split at "\n" only."""
    stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
    first = True
    for number, raw in enumerate(stream if stream is not None else sys.stdin, 1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            raise InputError(f"line {number}: not UTF-8 text (bad byte at offset {exc.start})", file="<stdin>",
                             fix="send UTF-8 text") from None
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        yield line.rstrip("\n").removesuffix("\r")


def format_verdict(result: MatchResult) -> str:
    """For a person: the verdict with mode and score, then why, then the part of the answer compared."""
    verdict = "CORRECT" if result.correct else "INCORRECT"
    return (f"{verdict} (mode {result.mode}, score {result.score:.2f})\n"
            f"  why: {result.explanation}\n"
            f"  compared: {result.extracted!r}")
