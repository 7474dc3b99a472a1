"""The `gaia-official` mode: the GAIA leaderboard scorer (`question_scorer` in the leaderboard's scorer.py),
reproduced rule for rule so that published numbers can be recomputed.

Its quirks are kept on purpose and documented here because they decide scores:
- a ground truth that `float()` accepts is a number ("1e3", " 42 ", "1_000", "nan", "inf" included); the
  answer then loses only `$`, `%` and `,` before `float()`, and an answer that does not parse becomes
  +infinity -- so it is *correct* when the ground truth is "inf", and never when it is "nan";
- otherwise a ground truth containing `,` or `;` is a list: both sides are split on every `,` and `;`
  (thousands separators too), lengths must be equal (else a UserWarning and False), number elements are
  compared like numbers and the others lowercased with all whitespace removed but punctuation kept;
- otherwise both strings are lowercased with all whitespace and ASCII punctuation removed, then compared;
- a missing answer (None) is the string "None".
The official scorer also prints a line per call; that print is left out (it would corrupt JSON output).
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Mapping
from typing import Any

from gaia_eval.scoring.answers.parse import MatchMode, Verdict

_PUNCTUATION_TABLE = str.maketrans("", "", string.punctuation)
_WHITESPACE = re.compile(r"\s")
_LIST_SPLIT = re.compile("[,;]")


def _is_float(element: object) -> bool:
    try:
        float(element)  # type: ignore[arg-type]
        return True
    except ValueError:
        return False


def normalize_number_str(number_str: str) -> float:
    for char in ("$", "%", ","):
        number_str = number_str.replace(char, "")
    try:
        return float(number_str)
    except ValueError:
        return float("inf")


def split_string(s: str) -> list[str]:
    return _LIST_SPLIT.split(s)


def normalize_str(input_str: str, remove_punct: bool = True) -> str:
    no_spaces = _WHITESPACE.sub("", input_str)
    if remove_punct:
        return no_spaces.lower().translate(_PUNCTUATION_TABLE)
    return no_spaces.lower()


def question_scorer(model_answer: str | None, ground_truth: str) -> tuple[bool, str]:
    """The official verdict, and which branch gave it (the branch text is ours, the verdict is theirs)."""
    if model_answer is None:
        model_answer = "None"
    if _is_float(ground_truth):
        normalized = normalize_number_str(model_answer)
        expected = float(ground_truth)
        relation = "==" if normalized == expected else "!="
        return normalized == expected, f"number: float {normalized!r} {relation} {expected!r}"
    if any(char in ground_truth for char in (",", ";")):
        gt_elems = split_string(ground_truth)
        ma_elems = split_string(model_answer)
        if len(gt_elems) != len(ma_elems):
            warnings.warn("Answer lists have different lengths, returning False.", UserWarning, stacklevel=3)
            return False, f"list: {len(ma_elems)} element(s) split on , and ; where {len(gt_elems)} are expected"
        comparisons = []
        for ma_elem, gt_elem in zip(ma_elems, gt_elems, strict=True):
            if _is_float(gt_elem):
                comparisons.append(normalize_number_str(ma_elem) == float(gt_elem))
            else:
                comparisons.append(normalize_str(ma_elem, remove_punct=False)
                                   == normalize_str(gt_elem, remove_punct=False))
        return all(comparisons), f"list: {sum(comparisons)} of {len(comparisons)} element(s) equal"
    normalized_answer, normalized_truth = normalize_str(model_answer), normalize_str(ground_truth)
    relation = "==" if normalized_answer == normalized_truth else "!="
    return normalized_answer == normalized_truth, f"string: {normalized_answer!r} {relation} {normalized_truth!r}"


def _match_official_mode(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    correct, why = question_scorer(answer, expected)
    return Verdict(correct, float(correct), f"gaia-official: {why}", "None" if answer is None else answer)


GAIA_OFFICIAL_MODE = MatchMode(_match_official_mode)
