"""Cues that change what a value in a sentence means: negation ("not 1927", "1927 is wrong"), bounds ("at
least 12"), hedges between candidates ("12 or 13", "Paris (possibly Lyon)"), and the neighbours that make
an expected name part of a longer one ("Georgia" in "Georgia Tech").

Bounds and approximations are told apart on purpose:
- a bound states a range the value lies in, not the value, so it is never the answer: words ("over 42",
  "under 42", "at least 42", "nearly 42", "42 at most"), comparison symbols ("<42", "> 42", "<=42", ">= 42",
  "\u2264 42", "\u2265 42", "42+"; "->" and "=>" are arrows, not bounds) and "not equal" ("\u2260 42", "!= 42");
  for dates, and for years when a year is expected, also "before", "after", "since", "until"/"till",
  "prior to", "no later than", "not before", "May 4 at the latest" / "at the earliest" / "onwards".
  "by May 4" stays an answer: it is how a due date is naturally given ("When is it due?" "By May 4"), and
  "from May 4" names the day a thing starts (or, in "the letter from May 4", the day itself).
- an approximation commits to the value and only admits rounding, so it is read as the value, the same
  for the words and the symbols: "about 42", "approximately 42", "roughly 42", "~42" and "\u224842" all equal 42
  (answers_numbers reads these qualifiers in a bare quantity; in a sentence they are not cues at all).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from gaia_eval.scoring.answers.text import find_token_run, raw_tokens, tokens

# --- negation and bounds -------------------------------------------------------------------------

_NEGATION_BEFORE = frozenset({
    "not", "no", "never", "isnt", "wasnt", "arent", "werent", "doesnt", "dont", "didnt", "cannot", "cant",
    "wont", "neither", "nor", "without", "except", "excluding", "besides", "unlike", "instead", "rather",
    "incorrectly", "wrongly", "exclude",
})
_NEGATION_AFTER = frozenset({"wrong", "incorrect", "false", "mistaken"})
_COPULA = frozenset({"is", "was", "would", "seems", "appears", "be"})
_CLAUSE_BREAK = re.compile(r"[;!?()\[\]\u2014]|[,:](?!\d)|\.(?=\s|$)|\bbut\b|\bhowever\b|\bwhereas\b",
                           re.IGNORECASE)


CLAUSE_BREAK = _CLAUSE_BREAK  # for answers_prose, which reads clauses of whole paragraphs


class ClauseBreaks(NamedTuple):
    """Where the clause breaks of a text start and end: found once, then read for every value in it."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]


def clause_breaks(text: str) -> ClauseBreaks:
    matches = list(_CLAUSE_BREAK.finditer(text))
    return ClauseBreaks(tuple(m.start() for m in matches), tuple(m.end() for m in matches))


def _clause_bounds(text: str, start: int, end: int, breaks: ClauseBreaks) -> tuple[int, int]:
    """Where the clause around text[start:end] begins and ends."""
    before = bisect_right(breaks.ends, start)
    after = bisect_left(breaks.starts, end)
    left = breaks.ends[before - 1] if before else 0
    right = breaks.starts[after] if after < len(breaks.starts) else len(text)
    return left, right


def _negated_tokens(before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    """A denial within three words before the value ("not", "isn't", "other than"), or just after it
    ("is wrong", "is not")."""
    window = before[-3:]
    if any(tok in _NEGATION_BEFORE for tok in window) or "other than" in " ".join(window):
        return True
    if after and after[0] in _NEGATION_AFTER:
        return True
    return len(after) >= 2 and after[0] in _COPULA and (after[1] in _NEGATION_AFTER or after[1] == "not")


_WORD = re.compile(r"[^\W\d_]+")
_BOUND_LAST = frozenset({"over", "under", "above", "below", "nearly", "almost", "exceeding", "beyond", "than",
                         "least", "most", "upto", "within"})
# Bounds of a point in time: only read before dates and years ("after 42 days" is a duration of 42 days).
_TIME_BOUND_LAST = frozenset({"before", "after", "since", "until", "till", "til", "pre", "post"})
# Bounds stated after the value: "42 at most", "May 4 at the latest", "2020 onwards".
_BOUND_AFTER = frozenset({("at", "most"), ("at", "least"), ("at", "the"), ("onwards",), ("onward",),
                          ("and", "up"), ("and", "above"), ("and", "over"), ("and", "below"), ("and", "under")})
_BOUND_AFTER_THE = frozenset({"latest", "earliest", "most", "least"})
# Comparison symbols right before a value; an arrow ("6 * 7 -> 42", "=> 42") leads to the value instead.
_BOUND_SYMBOLS = ("<", ">", "\u2264", "\u2265", "\u2a7d", "\u2a7e", "\u2260", "\u226a", "\u226b", "<=", ">=", "!=")
_ARROWS = ("->", "=>")


def _words(text: str) -> tuple[str, ...]:
    """Lowercase words without apostrophes ("isn't" -> "isnt"): all that the negation and bound cues read."""
    return tuple(_WORD.findall(text.lower().replace("'", "")))


_WINDOW = 120  # characters each side of a value: well over the three words the cues read


def _window_start(text: str, left: int, start: int) -> int:
    if start - left <= _WINDOW:
        return left
    space = text.find(" ", start - _WINDOW, start)
    return space if space >= 0 else start


def _window_end(text: str, end: int, right: int) -> int:
    if right - end <= _WINDOW:
        return right
    space = text.rfind(" ", end, end + _WINDOW)
    return space if space >= 0 else end


def _symbol_bound(text: str, start: int, end: int) -> bool:
    """A comparison symbol right before the value ("<42", ">= 42", "\u2260 42") or a "+" right after it ("42+")."""
    prefix = text[max(0, start - 3):start].rstrip()  # not cut at the clause break: "!=" holds one
    if prefix.endswith(_BOUND_SYMBOLS) and not prefix.endswith(_ARROWS):
        return True
    suffix = text[end:end + 3]
    return suffix.startswith("+") and not suffix[1:].lstrip().startswith(tuple("0123456789"))


def _bounded_after(after: tuple[str, ...]) -> bool:
    """A bound stated just after the value: "42 at most", "May 4 at the latest", "2020 onwards"."""
    if after[:2] == ("at", "the"):
        return len(after) > 2 and after[2] in _BOUND_AFTER_THE
    return after[:2] in _BOUND_AFTER or after[:1] in _BOUND_AFTER


def is_denied(text: str, start: int, end: int, breaks: ClauseBreaks | None = None, *,
              point_in_time: bool = False) -> bool:
    """Whether the value at text[start:end] is denied in its clause ("not 1927", "1927 is wrong") or is only
    a bound ("at least 12", "more than 12", "<12", "12 at most"; with `point_in_time`, for a date or a year,
    also "before/after/since/until 1927"). Pass `breaks` (clause_breaks(text)) when asking for several values."""
    left, right = _clause_bounds(text, start, end, breaks if breaks is not None else clause_breaks(text))
    if _symbol_bound(text, start, end):
        return True
    # Only the few words next to the value decide; reading the whole clause made a long answer with many
    # numbers and no punctuation quadratic. The windows end at a space, so no word is cut into another word.
    before = _words(text[_window_start(text, left, start):start])
    if before and (before[-1] in _BOUND_LAST or before[-2:] == ("up", "to")):
        return True
    if point_in_time and before and (before[-1] in _TIME_BOUND_LAST or before[-2:] == ("prior", "to")):
        return True
    after = _words(text[end:_window_end(text, end, right)])
    if _negated_tokens(before, after):
        return True
    if after:
        return _bounded_after(after)
    # A bound may follow in a clause of its own: "42, at most", "May 4 (at the latest)".
    return right < len(text) and text[right] in ",(\u2014" and _bounded_after(_words(text[right + 1:right + 24]))


negated_tokens = _negated_tokens


# --- hedges --------------------------------------------------------------------------------------

_HEDGE_WORDS = frozenset({"or", "either", "unsure", "uncertain"})
_UNCERTAIN = frozenset({"maybe", "perhaps", "possibly", "probably", "might", "could"})
_HEDGE_PHRASES = ("not sure", "dont know", "no idea", "cant tell", "cannot tell", "hard to say",
                  "not certain", "cannot be sure", "cant be sure")
_HEDGE_VOCABULARY = _HEDGE_WORDS | _UNCERTAIN | {phrase.split()[0] for phrase in _HEDGE_PHRASES}


def hedge_cue(toks: tuple[str, ...], answer_end: int | None = None) -> str | None:
    """The words that make a sentence hedge between candidates, if any.

    "12 or 13", "either A or B", "maybe A, maybe B", "not sure"; and, when `answer_end` says where the
    answer ends in `toks`, an uncertain word after it: "Paris (possibly Lyon)", "4, but it might be 5".
    An uncertain word before the answer ("probably Paris") commits to one answer and is no hedge.
    """
    if _HEDGE_VOCABULARY.isdisjoint(toks):
        return None
    for i, tok in enumerate(toks):
        if tok in _HEDGE_WORDS:
            if tok == "or" and i > 0 and toks[i - 1] == "whether":
                continue
            return tok
    for word in _UNCERTAIN:
        if toks.count(word) >= 2:
            return f"{word} ... {word}"
    if answer_end is not None:
        for tok in toks[answer_end:]:
            if tok in _UNCERTAIN:
                return tok
    joined = " ".join(toks)
    for phrase in _HEDGE_PHRASES:
        if phrase in joined:
            return phrase
    return None


# --- names inside sentences ----------------------------------------------------------------------

# Words that may stand next to an answer inside a sentence ("the capital is Paris", "it's Paris"); any
# other capitalized word or a number next to it extends the name ("Paris Hilton", "South Sudan", "Apollo 11").
_LINK_WORDS = frozenset({
    "is", "was", "are", "were", "be", "been", "being", "in", "at", "on", "of", "by", "from", "to", "for",
    "with", "into", "called", "named", "titled", "known", "as", "it", "its", "that", "this", "these", "those",
    "which", "who", "answer", "the", "a", "an", "and", "yes", "no", "than", "also", "then", "so", "thus",
    "therefore", "namely", "probably", "likely", "definitely", "clearly", "certainly", "simply", "just", "only",
    "still", "here", "there", "has", "have", "had", "became", "becomes", "become", "remains", "remained", "i",
    "we", "he", "she", "they", "you", "my", "our", "his", "her", "their", "think", "believe", "would", "will",
    "should", "could", "can", "did", "does", "do", "located", "situated", "based", "born", "won", "wrote",
    "made", "got", "gets", "get", "answered", "correct", "right", "final", "result",
})


def _extends_name(neighbor: str, has_case: bool) -> bool:
    """Whether a word next to the expected name makes it a longer name (case says so when the text has case)."""
    if neighbor.casefold() in _LINK_WORDS:
        return False
    if neighbor[0].isdigit() or neighbor[0] == "-":
        return True
    return neighbor[0].isupper() if has_case else True


def find_in_clauses(text: str, needle: tuple[str, ...]) -> tuple[str, str]:
    """Whether `needle` stands in text as a whole answer: ("found"|"absent"|"negated"|"extended", detail).

    "extended" means every occurrence is part of a longer name ("Georgia" in "Georgia Tech").
    """
    status, detail = "absent", ""
    has_case = text != text.lower() and text != text.upper()
    clauses = _CLAUSE_BREAK.split(text)
    if not any(find_token_run(tokens(clause), needle) for clause in clauses):
        clauses = [text]  # the value spans a clause break, e.g. "Paris (France)": read the text as one clause
    for clause in clauses:
        clause_raw = raw_tokens(clause)
        clause_tokens = tuple(tok.casefold() for tok in clause_raw)
        run = find_token_run(clause_tokens, needle)
        if run is None:
            continue
        if _negated_tokens(clause_tokens[:run[0]], clause_tokens[run[1]:]):
            status = "negated" if status == "absent" else status
            continue
        left = clause_raw[run[0] - 1] if run[0] > 0 else None
        right = clause_raw[run[1]] if run[1] < len(clause_raw) else None
        extension = next((n for n in (left, right) if n is not None and _extends_name(n, has_case)), None)
        if extension is not None:
            status, detail = "extended", extension
            continue
        return "found", ""
    return status, detail
