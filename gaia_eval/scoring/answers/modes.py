"""The simple matching modes: lenient (guarded bidirectional containment), exact, f1, numeric, contains,
regex and fuzzy. Each takes one expected alternative and the answer and returns a Verdict; the `*_MODE` constants
at the end are the MatchModes gaia_eval.registry.MATCH_MODES names.

They share gaia mode's folding and tokens, so "3.5" never equals "35" and "-5" never equals "5" in any of
them. Marker extraction (`FINAL ANSWER:`, `<answer>`, "the answer is ...") is on by default for exact, f1,
numeric and fuzzy (option `extract`), off for the containment-style modes that read the whole answer.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz

from gaia_eval.errors import UsageError
from gaia_eval.scoring.answers.gaia import match_gaia
from gaia_eval.scoring.answers.parse import (
    WHOLE,
    GaiaOptions,
    MatchMode,
    Verdict,
    answer_view,
    expected_spec,
    gaia_options,
)
from gaia_eval.scoring.answers.text import (
    ARTICLES,
    answer_words,
    find_token_run,
    fold,
    same_words,
    tokens,
)

# --- lenient -------------------------------------------------------------------------------------

_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)


def _lenient_tokens(text: str) -> str:
    return " ".join(text.lower().translate(_ASCII_PUNCTUATION).split())


def match_lenient(expected: str, answer: str) -> Verdict:
    """The common normalize-then-contains rule, on whole tokens and never on an empty answer."""
    normalized_answer, normalized_expected = _lenient_tokens(answer), _lenient_tokens(expected)
    if not normalized_answer:
        return Verdict(False, 0.0, "lenient: the answer is empty or punctuation-only after normalization", "")
    padded_answer, padded_expected = f" {normalized_answer} ", f" {normalized_expected} "
    if padded_expected in padded_answer:
        how = "equals" if normalized_answer == normalized_expected else "contains"
        return Verdict(True, 1.0, f"lenient: the answer {normalized_answer!r} {how} the expected "
                       f"{normalized_expected!r} as whole tokens", normalized_answer)
    if padded_answer in padded_expected:
        return Verdict(True, 1.0, f"lenient: the expected {normalized_expected!r} contains the answer "
                       f"{normalized_answer!r} as whole tokens", normalized_answer)
    return Verdict(False, 0.0, f"lenient: neither {normalized_answer!r} nor {normalized_expected!r} contains the "
                   "other as whole tokens", normalized_answer)


# --- exact / f1 ----------------------------------------------------------------------------------

def _span(answer: str, extract: bool) -> tuple[str, str]:
    view = answer_view(answer, extract)
    origin = "" if view.how == WHOLE else f" (read after {view.how})"
    return view.span, origin


def match_exact(expected: str, answer: str, extract: bool) -> Verdict:
    """Equal comparison keys: folded, case-free, leading article dropped, punctuation only where harmless."""
    span, origin = _span(answer, extract)
    answer_tokens, expected_tokens = answer_words(span), answer_words(expected)
    if not answer_tokens:
        return Verdict(False, 0.0, f"exact: the answer is empty{origin}", span)
    equal = same_words(answer_tokens, expected_tokens)
    shown_answer, shown_expected = " ".join(answer_tokens), " ".join(expected_tokens)
    relation = "==" if equal else "!="
    return Verdict(equal, float(equal), f"exact: {shown_answer!r} {relation} {shown_expected!r}{origin}", span)


def _f1_tokens(text: str) -> list[str]:
    return [tok for tok in tokens(fold(text)) if tok not in ARTICLES]


def match_f1(expected: str, answer: str, threshold: float, extract: bool) -> Verdict:
    """SQuAD token F1 (articles dropped), on tokens that keep "3.5" and "-5" intact."""
    span, origin = _span(answer, extract)
    answer_tokens, expected_tokens = _f1_tokens(span), _f1_tokens(expected)
    if not answer_tokens:
        return Verdict(False, 0.0, f"f1: the answer is empty{origin}", span)
    common = sum((Counter(answer_tokens) & Counter(expected_tokens)).values())
    if common == 0 or not expected_tokens:
        f1 = 0.0
    else:
        precision, recall = common / len(answer_tokens), common / len(expected_tokens)
        f1 = 2 * precision * recall / (precision + recall)
    correct = f1 >= threshold
    relation = ">=" if correct else "<"
    return Verdict(correct, f1, f"f1: token F1 {f1:.3f} {relation} threshold {threshold:g} "
                   f"({common} shared of {len(answer_tokens)} answer / {len(expected_tokens)} expected tokens)"
                   f"{origin}", span)


# --- numeric -------------------------------------------------------------------------------------

def match_numeric(expected: str, answer: str, opts: GaiaOptions) -> Verdict:
    if expected_spec(expected).value.kind != "number" or expected_spec(expected).is_list:
        return Verdict(False, 0.0, f"numeric: the expected answer {expected!r} is not a number", "")
    return match_gaia(expected, answer, replace(opts, claims=False))


# --- contains / regex ----------------------------------------------------------------------------

def match_contains(expected: str, answer: str) -> Verdict:
    answer_tokens = tokens(fold(answer))
    expected_tokens = answer_words(expected)
    if not answer_tokens:
        return Verdict(False, 0.0, "contains: the answer is empty", "")
    run = find_token_run(answer_tokens, expected_tokens)
    if run is None:
        return Verdict(False, 0.0, f"contains: {' '.join(expected_tokens)!r} is not in the answer as whole words",
                       "")
    found = " ".join(answer_tokens[run[0]:run[1]])
    return Verdict(True, 1.0, f"contains: {' '.join(expected_tokens)!r} found as whole words", found)


# A user's pattern can backtrack for ever (`(x+x+)+y` on a long answer): each search is bounded by the `regex`
# library's own timeout, which stops the matcher itself (no thread left spinning, no process to spawn per answer).
# Any sane pattern takes microseconds on an answer; 2 s leaves room for a loaded machine.
REGEX_TIMEOUT_S = 2.0


@lru_cache(maxsize=1024)
def _compiled(pattern: str, ignore_case: bool) -> Any:
    import regex  # type: ignore[import-untyped]  # `re`-compatible, with a timeout; imported when first used

    try:
        return regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
    except (regex.error, re.error, ValueError, OverflowError) as exc:
        raise UsageError(f"the regex {pattern!r} does not compile: {exc}", field="expected",
                         fix="write a Python regular expression, e.g. '^19(27|28)$'") from exc


def regex_search(pattern: str, text: str, *, ignore_case: bool = False, fullmatch: bool = False) -> str | None:
    """The part of `text` the user's `pattern` matches (search, or the whole with `fullmatch`), else None. A
    pattern still backtracking after REGEX_TIMEOUT_S is an error naming it, never a hang."""
    compiled = _compiled(pattern, ignore_case)
    try:
        match = (compiled.fullmatch if fullmatch else compiled.search)(text, timeout=REGEX_TIMEOUT_S)
    except TimeoutError:
        raise UsageError(
            f"the regex {pattern!r} ran over {REGEX_TIMEOUT_S:g} s on an answer of {len(text)} characters "
            "(catastrophic backtracking)", field="expected",
            fix="rewrite it without a repetition inside a repetition, e.g. 'x+y' for '(x+x+)+y'",
        ) from None
    return None if match is None else match.group(0)


def match_regex(pattern: str, answer: str, ignore_case: bool, fullmatch: bool) -> Verdict:
    found = regex_search(pattern, answer.strip(), ignore_case=ignore_case, fullmatch=fullmatch)
    how = "fullmatch" if fullmatch else "search"
    if found is None:
        return Verdict(False, 0.0, f"regex: {pattern!r} does not match ({how})", "")
    return Verdict(True, 1.0, f"regex: {pattern!r} matches {found!r} ({how})", found)


# --- fuzzy ---------------------------------------------------------------------------------------

def exact_kind_verdict(mode: str, expected: str, answer: str, opts: GaiaOptions) -> Verdict | None:
    """Numbers and dates are never similar-enough: "1927" vs "1928" is a wrong year, not a typo."""
    spec = expected_spec(expected)
    if spec.is_list or spec.value.kind == "string":
        return None
    verdict = match_gaia(expected, answer, opts)
    return Verdict(verdict.correct, verdict.score, f"{mode}: a {spec.value.kind} is compared exactly, "
                   f"{verdict.explanation}", verdict.extracted)


def match_fuzzy(expected: str, answer: str, threshold: float, opts: GaiaOptions) -> Verdict:
    exact = exact_kind_verdict("fuzzy", expected, answer, opts)
    if exact is not None:
        return exact
    span, origin = _span(answer, opts.extract)
    answer_text = " ".join(answer_words(span))
    expected_text = " ".join(answer_words(expected))
    if not answer_text:
        return Verdict(False, 0.0, f"fuzzy: the answer is empty{origin}", span)
    ratio = fuzz.ratio(answer_text, expected_text)
    correct = ratio >= threshold
    relation = ">=" if correct else "<"
    return Verdict(correct, ratio / 100.0, f"fuzzy: similarity {ratio:.1f} {relation} threshold {threshold:g} "
                   f"between {answer_text!r} and {expected_text!r}{origin}", span)


# --- the modes as the registry names them (gaia_eval.registry.MATCH_MODES) --------------------------
# Each adapts a matcher above to MatchMode's call: (expected, answer or None, checked options) -> Verdict.

def _text(answer: str | None) -> str:
    return "" if answer is None else answer


def _lenient(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_lenient(expected, _text(answer))


def _exact(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_exact(expected, _text(answer), options.get("extract", True))


def _f1(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_f1(expected, _text(answer), F1_MODE.threshold_of(options), options.get("extract", True))


def _numeric(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_numeric(expected, _text(answer), gaia_options(options))


def _contains(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_contains(expected, _text(answer))


def _regex(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_regex(expected, _text(answer), options.get("ignore_case", False), options.get("fullmatch", False))


def _fuzzy(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_fuzzy(expected, _text(answer), FUZZY_MODE.threshold_of(options), gaia_options(options))


LENIENT_MODE = MatchMode(_lenient)
EXACT_MODE = MatchMode(_exact, frozenset({"extract"}))
F1_MODE = MatchMode(_f1, frozenset({"threshold", "extract"}), threshold=(0.5, 0.0, 1.0))
NUMERIC_MODE = MatchMode(_numeric, frozenset({"rel_tol", "abs_tol", "extract"}))
CONTAINS_MODE = MatchMode(_contains)
REGEX_MODE = MatchMode(_regex, frozenset({"ignore_case", "fullmatch"}))
FUZZY_MODE = MatchMode(_fuzzy, frozenset({"rel_tol", "abs_tol", "threshold", "extract"}), threshold=(90.0, 0.0, 100.0))


def _judge(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    # The judge asks a model (scoring/judge/equivalence.py), which a pure matching function cannot reach.
    raise UsageError("match mode 'judge' asks a model and needs one named", field="mode",
                     fix="run gaia-eval check-answer --mode judge --judge PROVIDER:MODEL (or call "
                     "gaia_eval.scoring.judge.judge_answers)")


JUDGE_MODE = MatchMode(_judge)
