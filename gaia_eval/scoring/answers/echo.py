"""What the question itself says, which an answer that echoes it does not give as its answer: the question's word
pairs ("EE was originally branded as Orange" for "... corp EE was originally branded?"), the denial it asks about
("Which grand slam did Pete Sampras not win?" -> "Sampras did not win the French Open") and the numbers it names
("What is the number 17 in binary?" -> "The number 17 in binary is 10001" states one number, 10001)."""

from __future__ import annotations

from itertools import pairwise

from gaia_eval.scoring.answers.numbers import NumberMention, Quantity, quantities_equal
from gaia_eval.scoring.answers.text import tokens

# The denials a question may ask about; a contraction ("didn't") is the same "not" as the question's "did ... not".
_DENIALS = frozenset({"not", "never", "no", "without", "nor", "neither"})


def _denial(word: str) -> str:
    return "not" if word.endswith("nt") and len(word) > 3 else word


def question_pairs(words: tuple[str, ...]) -> set[tuple[str, str]]:
    """The question's adjacent word pairs (words as the caller reads them)."""
    return set(pairwise(words))


def without_asked_denials(before: tuple[str, ...], after: tuple[str, ...], question: str | None,
                          ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words around a found answer without the denials the question itself asks about ("did not win" for
    "which ... did he not win?"): those deny nothing the answer says. Other denials stay."""
    if not question:
        return before, after
    asked = {_denial(w) for w in tokens(question) if _denial(w) in _DENIALS}
    if not asked:
        return before, after
    return (tuple(w for w in before if _denial(w) not in asked),
            tuple(w for w in after if _denial(w) not in asked))


def without_asked_numbers(mentions: list[NumberMention], asked: list[NumberMention],
                          expected: Quantity) -> list[NumberMention]:
    """The answer's numbers without those the question names ("the number 17 in binary"), unless the expected
    number is itself one of them or nothing would be left."""
    if not asked or any(quantities_equal(expected, m.quantity) for m in asked):
        return mentions
    kept = [m for m in mentions if not any(quantities_equal(m.quantity, a.quantity) for a in asked)]
    return kept or mentions
