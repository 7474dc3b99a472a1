"""A person named by surname, as a grader reads it (for prose.py): when the question asks who and the gold answer
is a person's full name, the surname alone names that person ("Fleming" for "Sir John Ambrose Fleming"; "Micky
Dolenz" for "Mickey Dolenz"), but not after another first name ("John F. Kennedy" for "Robert Kennedy"), and not a
surname the question itself names ("DiMaggio" for "Joe DiMaggio's brother Dom DiMaggio")."""

from __future__ import annotations

import re

from gaia_eval.scoring.answers.forms import is_title, roman_numeral
from gaia_eval.scoring.answers.text import fold

_WHO = re.compile(r"\b(?:who|whom|whose|surname)\b", re.IGNORECASE)
_NAME_PART = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_SHORTEST_SURNAME = 4  # letters: shorter last words are numerals, initials or particles ("II", "Jr", "Lee")
_FIRST_NAME_FORM = 3  # letters a first name's short or pet form shares with it ("Jim"/"Jimmy", "Micky"/"Mickey")


def person_surname(expected: str, readings: tuple[tuple[str, ...], ...], question: str | None,
                   ) -> tuple[str, str] | None:
    """(first name, surname) of the person a who-question's gold answer names, when one reading of it is two to
    four capitalised words ending in a surname the question does not use; None otherwise."""
    if not question or not _WHO.search(question):
        return None
    # Before a comma only: "Eliot, George" is written surname first, "Sir Joseph Banks, 1st Baronet" adds a title.
    head = fold(expected).split(",")[0]
    capitalised = {w.casefold().replace("'", "") for w in _NAME_PART.findall(head) if w[0].isupper()}
    asked = {w.casefold().replace("'", "") for w in _NAME_PART.findall(fold(question))}
    for reading in readings:
        names = [w for w in reading if not is_title(w)]
        if not 2 <= len(names) <= 4 or not all(w in capitalised for w in reading):
            continue
        surname = names[-1]
        if len(surname) >= _SHORTEST_SURNAME and not roman_numeral(surname) and surname not in asked and not any(
                surname + "s" == word for word in asked):
            return names[0], surname
    return None


def surname_alone(text: str, spans: list[tuple[int, int]], i: int, first_name: str) -> bool:
    """Whether the word at spans[i] stands as a surname of its own: no capitalised word right before it, or a title
    ("Sir", "Mr"), or a form of `first_name` (its first letters)."""
    if i == 0:
        return True
    between = text[spans[i - 1][1]:spans[i][0]]
    if between.strip() not in ("", "."):
        return True  # a comma, a bracket or a colon: the word before is no part of this name
    left = text[spans[i - 1][0]:spans[i - 1][1]]
    if not left[:1].isupper():
        return True
    folded = left.casefold()
    return is_title(folded) or folded[:_FIRST_NAME_FORM] == first_name[:_FIRST_NAME_FORM]

