"""One reading of numbers in words for answer matching, the free-text rubric and the baselines
(gaia_eval/number_words.py): a spoken pair is 12.50 or 1250, never 12."""

from __future__ import annotations

from click.testing import CliRunner

from gaia_eval.baselines.spans import find_counts, number_value
from gaia_eval.cli import cli
from gaia_eval.number_words import WORD_VALUES, parse_number_words, spelled_numbers
from gaia_eval.scoring.answers import match_answer
from gaia_eval.scoring.answers.numbers import parse_quantity


def test_a_spoken_pair_is_twelve_fifty_or_twelve_hundred_fifty_never_twelve():
    assert parse_number_words(["twelve", "fifty"]) is None  # no single value: 12.50 or 1250
    assert parse_number_words(["nineteen", "eighty"]) is None
    assert spelled_numbers("our twelve fifty Euro goal") >= {"12.5", "1250"}
    assert parse_quantity("twelve fifty") is None
    assert not match_answer("12", "twelve fifty").correct
    result = CliRunner().invoke(cli, ["check-answer", "12", "twelve fifty"])
    assert "INCORRECT" in result.output


def test_a_dozen_a_half_and_scales_read_the_same_everywhere():
    assert parse_number_words(["a", "dozen"]) == (12, 2)
    assert WORD_VALUES["dozen"] == 12
    assert parse_number_words("two and a half million".split()) == (2_500_000, 5)
    assert parse_number_words("twenty one".split()) == (21, 2)  # a compound, not a pair
    assert parse_number_words("two hundred and fifty".split()) == (250, 4)
    assert match_answer("2500000", "two and a half million").correct
    assert match_answer("2500000", "It raised two and a half million last year.").correct
    assert match_answer("12", "a dozen").correct
    assert match_answer("1200", "1.2k").correct
    assert not match_answer("2", "two and a half million").correct


def test_the_baselines_count_words_with_the_shared_values():
    assert number_value("Twelve") == "12" and number_value("dozen") == "12" and number_value("ninety") == "90"
    assert [s.text for s in find_counts("We hired twelve new engineers.")] != []
