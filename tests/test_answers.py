"""Answer matching: the case table (tests/answer_cases.py) for every mode, the grader comparison, options and
errors, the check-answer helpers, the semantic extra's error path, and the concise-answer instructions."""

from __future__ import annotations

import io
import json
import sys
import time
import warnings

import pytest

from gaia_eval.errors import InputError, UsageError
from gaia_eval.scoring.answers.concise import (
    CONCISE_ANSWER_SYSTEM_PROMPT,
    concise_answer_instructions,
    extract_final_answer,
)
from gaia_eval.scoring.answers.match import (
    MatchResult,
    check_answers_file,
    check_answers_jsonl,
    format_verdict,
    match_answer,
    match_mode,
    mode_names,
    mode_options,
)
from gaia_eval.scoring.answers.semantic import default_encoder
from tests.answer_cases import CASES, GRADER_SET, Case


def _case_id(c: Case) -> str:
    options = "".join(f" {k}={v}" for k, v in c.options.items())
    return f"{c.mode}: {c.expected!r} vs {c.answer!r}{options}"[:100]


def test_the_table_is_large_and_covers_every_mode() -> None:
    assert len(CASES) >= 150
    assert {c.mode for c in CASES} >= set(mode_names()) - {"semantic", "judge"}  # each has own tests


@pytest.mark.parametrize("c", CASES, ids=_case_id)
def test_case_table(c: Case) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # gaia-official warns on list length mismatches
        result = match_answer(c.expected, c.answer, c.mode, **c.options)
    assert result.correct is c.correct, result.explanation
    assert result.mode == c.mode
    assert 0.0 <= result.score <= 1.0
    assert result.explanation


def _disagreements(mode: str) -> tuple[int, int]:
    false_accepts = false_rejects = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for expected, answer, human in GRADER_SET:
            verdict = match_answer(expected, answer, mode).correct
            false_accepts += verdict and not human
            false_rejects += human and not verdict
    return false_accepts, false_rejects


def test_gaia_mode_agrees_with_a_grader_far_more_often_than_the_official_or_the_bidirectional_rule() -> None:
    gaia = _disagreements("gaia")
    official = _disagreements("gaia-official")
    lenient = _disagreements("lenient")
    assert gaia == (0, 0)
    assert sum(official) >= 15 and sum(lenient) >= 10  # the failure modes the issue lists are really there
    assert lenient[0] >= 8  # the bidirectional rule's costly error: accepting wrong answers


def test_result_is_frozen_and_serializes() -> None:
    result = match_answer("1927", "FINAL ANSWER: 1,927")
    assert isinstance(result, MatchResult)
    assert result.to_dict() == {"correct": True, "score": 1.0, "mode": "gaia",
                                "explanation": result.explanation, "extracted": "1,927"}
    assert "1927" in result.explanation and "FINAL ANSWER" in result.explanation
    with pytest.raises(AttributeError):
        result.correct = False  # type: ignore[misc]


def test_list_score_is_the_share_of_matching_items() -> None:
    result = match_answer("a, b, c, d", "a, b, x, d")
    assert not result.correct and result.score == pytest.approx(0.75)
    assert match_answer("Eiffel Tower in Paris", "Eiffel Tower", "f1").score == pytest.approx(2 / 3)


def test_the_best_alternative_explains_the_verdict() -> None:
    result = match_answer(["NYC", "New York City"], "New York City")
    assert result.correct and "'New York City'" in result.explanation


def test_gaia_official_warns_like_the_leaderboard_scorer_on_a_length_mismatch() -> None:
    with pytest.warns(UserWarning, match="different lengths"):
        result = match_answer("a, b", "a", "gaia-official")
    assert not result.correct


def test_every_mode_rejects_an_empty_answer() -> None:
    for mode in mode_names():
        if mode in ("gaia-official", "regex", "semantic", "judge"):
            continue  # official scores "" like the leaderboard; a regex may match ""; semantic, judge need a model
        assert not match_answer("Paris", "", mode).correct, mode


@pytest.mark.parametrize(("mode", "options", "message"), [
    ("gaia", {"threshold": 0.5}, "unknown option(s) threshold for match mode 'gaia'"),
    ("exact", {"rel_tol": 0.1}, "unknown option(s) rel_tol"),
    ("gaia", {"ordered": "no"}, "option ordered must be true or false"),
    ("gaia", {"rel_tol": -1}, "option rel_tol must be a number >= 0"),
    ("fuzzy", {"threshold": 150}, "option threshold must be a number in [0, 100]"),
    ("f1", {"threshold": 2}, "option threshold must be a number in [0, 1]"),
    ("semantic", {"encoder": "nope"}, "option encoder must be a callable"),
    ("gaia", {"alternatives_sep": ""}, "option alternatives_sep must be a non-empty string"),
])
def test_bad_options_are_usage_errors(mode: str, options: dict, message: str) -> None:
    with pytest.raises(UsageError) as info:
        match_answer("Paris", "Paris", mode, **options)
    assert message in str(info.value)
    assert "fix:" in str(info.value)


def test_unknown_mode_bad_expected_and_bad_regex_are_usage_errors() -> None:
    with pytest.raises(UsageError, match=r"unknown match mode 'gaia2'.*use one of: gaia, gaia-official"):
        match_answer("Paris", "Paris", "gaia2")
    with pytest.raises(UsageError, match="an expected answer is empty"):
        match_answer("  ", "Paris")
    with pytest.raises(UsageError, match="expected answer list is empty"):
        match_answer([], "Paris")
    with pytest.raises(UsageError, match="expected must be a string or a number"):
        match_answer({"a": 1}, "Paris")
    with pytest.raises(UsageError, match="does not compile"):
        match_answer("(", "Paris", "regex")


def test_every_built_in_mode_takes_alternatives_sep_and_declares_its_threshold_range() -> None:
    assert mode_names()[:10] == ("gaia", "gaia-official", "lenient", "exact", "f1", "numeric", "contains", "regex",
                                 "fuzzy", "semantic")
    for name in mode_names():
        mode = match_mode(name)
        assert "alternatives_sep" in mode_options(mode)
        assert ("threshold" in mode.options) == (mode.threshold is not None), name


def test_semantic_mode_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # makes the import fail
    default_encoder.cache_clear()
    with pytest.raises(UsageError) as info:
        match_answer("Paris", "the French capital", "semantic")
    assert "optional 'semantic' extra" in str(info.value)
    assert "pip install 'gaia-eval[semantic]'" in str(info.value)
    default_encoder.cache_clear()


def test_semantic_mode_with_a_given_encoder() -> None:
    vectors = {"Paris": [1.0, 0.0], "the French capital": [0.9, 0.1], "Lyon": [0.0, 1.0]}

    def encoder(texts: list[str]) -> list[list[float]]:
        return [vectors[text] for text in texts]

    close = match_answer("Paris", "the French capital", "semantic", encoder=encoder)
    assert close.correct and close.score > 0.9 and "cosine similarity" in close.explanation
    assert not match_answer("Paris", "Lyon", "semantic", encoder=encoder).correct
    assert not match_answer("Paris", "the French capital", "semantic", encoder=encoder, threshold=0.999).correct
    # Numbers never go through embeddings, so the encoder (which knows no numbers) is not even called.
    assert not match_answer("1927", "1928", "semantic", encoder=encoder).correct
    assert match_answer("1927", "1,927", "semantic", encoder=encoder).correct


def test_check_answers_jsonl_keeps_order_ids_modes_and_options() -> None:
    lines = [
        json.dumps({"id": "q1", "expected": "1927", "answer": "FINAL ANSWER: 1927"}),
        "",
        json.dumps({"expected": "Paris", "answer": "Paris!", "mode": "exact"}),
        json.dumps({"id": 3, "expected": "1000", "answer": "1010", "options": {"rel_tol": 0.05}}),
        json.dumps({"id": "q4", "expected": ["a", "b"], "answer": "b", "question": "ignored"}),
        json.dumps({"id": "q5", "expected": "a, b", "answer": "b, a", "ordered": False}),
    ]
    rows = list(check_answers_jsonl(lines, "answers.jsonl"))
    assert [row.get("id") for row in rows] == ["q1", None, 3, "q4", "q5"]
    assert [row["correct"] for row in rows] == [True, True, True, True, True]
    assert rows[1]["mode"] == "exact" and "id" not in rows[1]
    assert list(rows[0]) == ["id", "correct", "score", "mode", "explanation", "extracted"]


def test_check_answers_jsonl_applies_command_line_defaults_under_line_options() -> None:
    lines = [json.dumps({"expected": "1000", "answer": "1010"}),
             json.dumps({"expected": "1000", "answer": "1010", "options": {"rel_tol": 0.001}}),
             json.dumps({"expected": "Paris", "answer": "paris", "mode": "exact"})]  # exact takes no rel_tol
    rows = list(check_answers_jsonl(lines, "a.jsonl", default_mode="numeric", default_options={"rel_tol": 0.05}))
    assert [row["correct"] for row in rows] == [True, False, True]
    assert rows[0]["mode"] == "numeric"


def test_check_answers_file_reads_utf8_lines_and_names_unreadable_files(tmp_path, monkeypatch) -> None:
    good = tmp_path / "pairs.jsonl"
    good.write_text('{"id": "a", "expected": "S\u00e3o Paulo", "answer": "Sao Paulo"}\n', encoding="utf-8")
    assert [row["correct"] for row in check_answers_file(str(good))] == [True]
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes('{"expected": "S\u00e3o", "answer": "x"}\n'.encode("latin-1"))
    for path, message in [(latin1, "is not UTF-8 text"), (tmp_path / "missing.jsonl", "file not found"),
                          (tmp_path, "is a folder")]:
        with pytest.raises(InputError, match=message) as info:
            list(check_answers_file(str(path)))
        assert str(path) in str(info.value)
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"expected": "1", "answer": "one"}\n'))
    assert [row["correct"] for row in check_answers_file("-")] == [True]


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", "answers.jsonl: line 2: not valid JSON"),
    ("[1, 2]", "answers.jsonl: line 2: expected a JSON object, got list"),
    ('{"answer": "x"}', "answers.jsonl: field 'expected': line 2: the field is missing"),
    ('{"expected": "x"}', "answers.jsonl: field 'answer': line 2: the field is missing"),
    ('{"expected": "x", "answer": "x", "mode": "nope"}', "answers.jsonl: field 'mode': line 2: unknown match mode"),
    ('{"expected": "x", "answer": "x", "options": {"threshold": 3}}', "line 2: unknown option(s) threshold"),
    ('{"expected": "x", "answer": "x", "options": 3}', "line 2: options must be a JSON object"),
    ('{"expected": "", "answer": "x"}', "line 2: an expected answer is empty"),
])
def test_check_answers_jsonl_names_the_file_and_line_of_a_bad_record(line: str, message: str) -> None:
    good = json.dumps({"expected": "1", "answer": "1"})
    rows = check_answers_jsonl([good, line], "answers.jsonl")
    assert next(rows)["correct"] is True
    with pytest.raises(InputError) as info:
        next(rows)
    assert message in str(info.value)
    assert info.value.exit_code == 2


def test_format_verdict_shows_verdict_reason_and_compared_span() -> None:
    text = format_verdict(match_answer("1927", "The answer is not 1927; it is 1928."))
    first, why, compared = text.splitlines()
    assert first == "INCORRECT (mode gaia, score 0.00)"
    assert "1928 != expected 1927" in why
    assert compared.startswith("  compared: ")
    assert format_verdict(match_answer("Paris", "paris")).startswith("CORRECT (mode gaia, score 1.00)")


def test_concise_instructions_ask_for_the_bare_answer() -> None:
    assert "The answer is" in CONCISE_ANSWER_SYSTEM_PROMPT and "only the final answer" in CONCISE_ANSWER_SYSTEM_PROMPT
    assert concise_answer_instructions() == CONCISE_ANSWER_SYSTEM_PROMPT
    for answer_type in ("number", "string", "list", "date"):
        rendered = concise_answer_instructions(answer_type)
        assert rendered.startswith(CONCISE_ANSWER_SYSTEM_PROMPT) and len(rendered) > len(CONCISE_ANSWER_SYSTEM_PROMPT)
    assert "comma" in concise_answer_instructions("list")
    with pytest.raises(UsageError, match="unknown answer type 'essay'"):
        concise_answer_instructions("essay")


def test_a_refusal_in_the_concise_format_is_never_correct() -> None:
    assert CONCISE_ANSWER_SYSTEM_PROMPT.endswith("reply exactly: unknown")
    assert not match_answer("Paris", "unknown").correct


@pytest.mark.parametrize(("reply", "answer"), [
    ("Let me compute.\nFINAL ANSWER: 42", "42"),
    ("<answer>S\u00e3o Paulo</answer>", "S\u00e3o Paulo"),
    ("The result is \\boxed{7}.", "7"),
    ("  Paris.\n", "Paris."),
    ("I'm not sure, maybe 12", "I'm not sure, maybe 12"),  # unmarked: kept whole for the matcher to judge
])
def test_extract_final_answer_cuts_only_at_explicit_markers(reply: str, answer: str) -> None:
    assert extract_final_answer(reply) == answer


def test_a_long_unmarked_response_is_read_in_linear_time() -> None:
    response = "The value was 12 in 2019 and 15 in 2020, or maybe not. " * 800  # about 45 KB
    start = time.process_time()
    assert not match_answer("12", response).correct
    assert not match_answer("Paris", response).correct
    assert not match_answer("a, b", response).correct
    assert time.process_time() - start < 2.0


# --- issue 12: fewer false accepts ---------------------------------------------------------------

@pytest.mark.parametrize(("expected", "answer", "correct"), [
    # a unit the expected answer does not carry, or another unit, is another answer ...
    ("12", "12 km", False),
    ("12 miles", "12 km", False),
    ("30", "30 \u00b0C", False),
    # ... unless the question asks in that unit, or it is how the expected answer is written
    ("12 miles", "12 mi", True),
    ("12 km", "12 kilometres", True),
    ("3", "3 apples", True),  # a count noun is no unit
    ("1000", "$1,000", True),  # currency and percent are notation the question implies
    ("5%", "5 percent", True), ("12 km", "12km", True),  # the same unit, written another way
])
def test_units_the_expected_answer_does_not_carry(expected: str, answer: str, correct: bool) -> None:
    assert match_answer(expected, answer).correct is correct


def test_a_unit_the_question_asks_in_may_stand_in_the_answer() -> None:
    assert match_answer("12", "12 km", question="How many kilometres is the loop?").correct
    assert not match_answer("12", "12 km", question="How many miles is the loop?").correct
    assert match_answer("45", "45 years", question="How old was she?").correct
    assert match_answer("45", "45 years old", question="What was her age?").correct


@pytest.mark.parametrize("answer", ["about 40", "~40", "\u2248 40", "40ish", "approximately 40", "roughly 40",
                                    "around 40", "circa 40", "c. 40", "40 or so", "nearly 40", "almost 40",
                                    "It was about 40.", "some 40 people"])
def test_hedged_numbers_do_not_match_an_exact_number(answer: str) -> None:
    result = match_answer("40", answer)
    assert not result.correct, result.explanation


@pytest.mark.parametrize(("expected", "answer"), [("about 40", "about 40"), ("40", "40"), ("40", "It was 40."),
                                                  ("40", "The answer is 40."), ("40", "40 people"),
                                                  ("40", "exactly 40"), ("40", "40.0")])
def test_exact_or_equally_approximate_numbers_still_match(expected: str, answer: str) -> None:
    assert match_answer(expected, answer).correct


def test_a_tolerance_the_caller_gives_accepts_an_approximation() -> None:
    assert match_answer("40", "about 41", rel_tol=0.05).correct


@pytest.mark.parametrize(("expected", "answer", "correct"), [
    ("1980", "1980s", False), ("1980", "the 1980s", False), ("1980s", "1980", False),
    ("1980s", "the 1980s", True), ("1980s", "1980's", True), ("1980", "1980", True), ("1980", "In 1980.", True),
])
def test_a_decade_and_a_year_are_different_answers(expected: str, answer: str, correct: bool) -> None:
    assert match_answer(expected, answer).correct is correct


@pytest.mark.parametrize(("expected", "answer", "correct"), [
    ("everyone", "every one", False), ("notebook", "note book", False), ("seagull", "sea gull", False),
    ("Jean-Paul Sartre", "Jean Paul Sartre", True),  # a hyphen is a word break, not a merge
    ("well-known", "well known", True),
    ("New York", "New   York", True), ("New York", "new york", True),  # spaces collapse, words stay words
])
def test_removing_whitespace_never_merges_two_words_into_another(expected: str, answer: str, correct: bool) -> None:
    assert match_answer(expected, answer).correct is correct


@pytest.mark.parametrize(("expected", "answer", "correct"), [
    ("The Hague", "Hague", False), ("a cappella", "cappella", False), ("The Bronx", "Bronx", False),
    ("The Hague", "the Hague", True), ("a cappella", "A cappella.", True),
    # an article the expected answer does not carry may lead the answer; plural names and titles are commonly
    # said without theirs
    ("Eiffel Tower", "the Eiffel Tower", True), ("The Beatles", "Beatles", True),
    ("The Great Gatsby", "Great Gatsby", True), ("Netherlands", "the Netherlands", True),
])
def test_an_article_that_belongs_to_a_name_is_not_dropped(expected: str, answer: str, correct: bool) -> None:
    assert match_answer(expected, answer).correct is correct


def test_matching_is_linear_in_the_length_of_a_long_answer(monkeypatch) -> None:
    """Counted work, not time: the characters the negation and bound cues read grow with the answer, not with
    its square (a 42 KB answer of numbers used to take 6 s)."""
    from gaia_eval.scoring.answers import cues

    read = {"chars": 0}
    real_words = cues._words

    def counting(text: str) -> tuple[str, ...]:
        read["chars"] += len(text)
        return real_words(text)

    monkeypatch.setattr(cues, "_words", counting)

    def work(kb: int) -> int:
        read["chars"] = 0
        answer = " ".join(str(7 + i % 900) for i in range(kb * 300))[:kb * 1024]  # no 42: every number is read
        assert not match_answer("42", answer).correct
        return read["chars"]

    small, large = work(10), work(100)
    assert large < 15 * small, (small, large)  # linear: about 10x; quadratic would be about 100x


def test_the_cue_word_index_never_changes_which_numbers_are_cue_marked() -> None:
    """The index of cue words only skips reading the words before a number that has none; every number of these
    answers is judged as the full reading judges it (cut words, subtotals, '=' and cues far away included)."""
    from gaia_eval.scoring.answers import gaia
    from gaia_eval.scoring.answers.numbers import find_numbers

    texts = [
        "The answer is 12. So we get 14, a total of 15, comes to 16, up to 17, 18 in all, =19 and 20 overall.",
        "subtotal 5 then 6 " + "x" * 55 + "total 7 " + "y" * 70 + " 8",
        "Altogether 3; therefore 4! Thus 5? it yields 6 and makes 7, 8 in total, 9 altogether.",
        " ".join(str(i) for i in range(300)) + " so the sum is 301 and 302",
    ]
    for text in texts:
        ends = gaia._cue_ends(text)
        for mention in find_numbers(text):
            assert gaia._cue_marked(text, mention, ends) == gaia._cue_marked(text, mention), (text, mention)


def test_the_fast_path_for_bare_numbers_finds_exactly_what_the_full_reading_finds():
    """find_numbers reads a bare number (nothing a unit could follow) without the full per-number reading; on
    seeded mixes of bare numbers, units, currency, ordinals, fractions and punctuation both give the same mentions."""
    import random

    from gaia_eval.scoring.answers.numbers import _NUMBER_IN_TEXT, _mention_from_match, find_numbers

    rng = random.Random(2)
    pieces = ["1", "12", "1,000", "3.5", "1st", "8th", "$5", "-4", "10%", "5 km", "7 GB", "1/2", "3e5", "4k", "word",
              "the", "9", "0.5", " ", "and", "in", "5.", "6,", "7)", "(8", "9°C", "10 %", "12 kg.", "is"]
    for _ in range(5000):
        text = rng.choice(["", " "]).join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        full = [m for m in (_mention_from_match(text, found) for found in _NUMBER_IN_TEXT.finditer(text)) if m]
        assert find_numbers(text) == full, text
