"""Finding a quoted span in a document although extraction changed its whitespace and typography.

PDF and HTML extraction break lines where the layout did, and models quote with straight or curly quotes and
dashes at will. A quote is matched with whitespace runs collapsed, typographic marks made plain and case
ignored; what is returned is the span exactly as the document has it, so it can be checked with a plain `in`.
"""

from __future__ import annotations

import re

_PLAIN = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
        "\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u2007": " ",
    }
)  # fmt: skip
_ENDS = "\"'\u2018\u2019\u201c\u201d \t\n"
_ELLIPSIS = re.compile(r"^(?:\.\.\.|\u2026)\s*|\s*(?:\.\.\.|\u2026)$")
_LIST_SEPARATORS = re.compile(r"\s*(?:,|;|\band\b)\s*")


def _normalized(text: str) -> tuple[str, list[int]]:
    """`text` lower-cased, marks made plain, whitespace runs as one space; and for each character of the result,
    the index of the character of `text` it came from."""
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text.translate(_PLAIN)):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                origin.append(index)
            continue
        for piece in char.lower():  # "İ".lower() is two characters
            out.append(piece)
            origin.append(index)
    return "".join(out), origin


def clean_quote(quote: str) -> str:
    """A quote without the quotation marks and ellipses models put around it."""
    previous = None
    quote = quote.strip()
    while previous != quote:
        previous = quote
        quote = _ELLIPSIS.sub("", quote.strip(_ENDS)).strip()
    return quote


class QuoteFinder:
    """Looks quotes up in one document (normalized once)."""

    def __init__(self, document: str) -> None:
        self.document = document
        self._haystack, self._origin = _normalized(document)

    def find(self, quote: str) -> str | None:
        """The span of the document that `quote` quotes (first occurrence), exactly as the document has it;
        None when the document does not contain it."""
        wanted = _normalized(clean_quote(quote))[0].strip()
        if not wanted:
            return None
        start = self._haystack.find(wanted)
        if start < 0:
            return None
        return self.document[self._origin[start] : self._origin[start + len(wanted) - 1] + 1]


def _runs_on(haystack: str, index: int, step: int, edge: str) -> bool:
    """Whether the word at the phrase's `edge` character runs on into haystack[index] (step -1: the character
    before the phrase, +1: the one after), so the phrase there is only part of a word or number."""
    if not edge.isalnum() or not 0 <= index < len(haystack):
        return False
    char = haystack[index]
    if char.isalnum():
        return True
    # "48" is no word of "48,500", nor "5" of "5.5": a comma or point between digits is inside the number.
    beyond = index + step
    return edge.isdigit() and char in ",." and 0 <= beyond < len(haystack) and haystack[beyond].isdigit()


def contains_words(text: str, phrase: str) -> bool:
    """Whether `phrase` occurs in `text` as whole words (whitespace, case and typographic marks aside): "12" is
    in "12 units" and "$12", not in "2012", "120" or "12,500"."""
    wanted = _normalized(clean_quote(phrase))[0].strip()
    if not wanted:
        return False
    haystack = _normalized(text)[0]
    start = haystack.find(wanted)
    while start >= 0:
        end = start + len(wanted)
        if not _runs_on(haystack, start - 1, -1, wanted[0]) and not _runs_on(haystack, end, 1, wanted[-1]):
            return True
        start = haystack.find(wanted, start + 1)
    return False


def list_items(answer: str) -> list[str]:
    """The items of a list answer ("A, B and C")."""
    return [item for item in _LIST_SEPARATORS.split(answer) if item.strip()]
