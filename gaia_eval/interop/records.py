"""The neutral shape every foreign results file is read into: runs of (task, model) with their samples, each
sample's input, targets, output, usage and the source tool's own scores; whatever has no place here is kept,
verbatim, in `extra`."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from gaia_eval.errors import GaiaEvalError, InputError

T = TypeVar("T")

# A foreign score value that is a letter (Inspect's CORRECT "C", INCORRECT "I", PARTIAL "P", NOANSWER "N") is read
# as the number Inspect's own `accuracy` metric gives it, so its aggregate is reproduced from the items.
LETTER_VALUES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


@dataclass
class ForeignScore:
    """One scorer's verdict on one sample, as the source tool gave it."""

    name: str
    value: float | None  # the number the tool's metrics average (None when it gave none)
    passed: bool | None = None  # the tool's own pass/fail, where it says one
    raw: Any = None  # the value as written ("C", true, 0.5, {...}): kept so nothing is reinterpreted away
    explanation: str | None = None


@dataclass
class ForeignSample:
    sample_id: str
    input: str
    targets: list[str]
    output: str
    scores: list[ForeignScore] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    latency_s: float | None = None
    error: str | None = None  # the sample failed in the source run: imported as an error with this reason
    epoch: int = 1
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ForeignRun:
    """One (task, model) of a source file: what becomes one experiment (one per epoch when there are several)."""

    tool: str  # "inspect", "promptfoo", "lm-eval"
    task: str
    model: str
    # The samples, read anew at each call (a 10,000-sample log is gone through twice, never held whole)
    read_samples: Callable[[], Iterable[ForeignSample]]
    aggregates: dict[str, float] = field(default_factory=dict)  # the tool's own headline figures, "scorer/metric"
    extra: dict[str, Any] = field(default_factory=dict)
    file: Path | None = None  # the file it was read from

    @property
    def samples(self) -> list[ForeignSample]:
        return list(self.read_samples())


def score_number(value: Any) -> float | None:
    """The number a foreign score value stands for: numbers as they are, booleans 1/0, Inspect's letters as its
    accuracy metric reads them; None for anything else (kept raw beside it)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        if value in LETTER_VALUES:
            return LETTER_VALUES[value]
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def text_of(value: Any) -> str:
    """The text of a chat input or output: a string as it is, a list of messages or content blocks as their texts,
    one per line."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (text_of(v) for v in value) if t)
    if isinstance(value, dict):
        for key in ("content", "text", "output"):
            if key in value:
                return text_of(value[key])
        return ""
    return str(value)


def token_count(value: Any) -> int:
    """A token count as a tool wrote it: a whole number >= 0 (absent: 0); anything else is a ValueError, which
    `shaped` turns into the line naming the record."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a token count is {value!r}, not a whole number >= 0")
    return value


def shaped(path: Path, where: str, read: Callable[..., T], *args: Any) -> T:
    """`read(*args)` of one record of a foreign file (a sample, a header): a record of another shape than the tool
    writes (a text where a number goes, a list where an object goes) is one line naming the file and the record,
    never a traceback."""
    try:
        return read(*args)
    except GaiaEvalError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        raise InputError(f"{where}: not the shape the tool writes ({exc})", file=path,
                         fix="pass the file as the tool wrote it") from None
