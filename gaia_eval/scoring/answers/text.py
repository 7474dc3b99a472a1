"""Text primitives of answer matching: Unicode folding, meaning-preserving tokens and keys, non-answers.

Everything here is mode-independent and pure; the modes build their rules on it. The folding keeps the
characters that change a value (`C++`, `3-4`, `-5`, `3.5`) and drops the ones that only change its look
(case, accents, curly quotes, thin spaces, `U.S.` dots).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# --- folding -------------------------------------------------------------------------------------

# Thin, narrow and non-breaking spaces are thousands separators between digit groups ("1 000 000");
# NFKD would turn them into plain spaces and split the number, so they go first.
_SPACE_THOUSANDS = re.compile(r"(?<=\d)[\u00a0\u2009\u202f\u2007](?=\d{3}(?!\d))")
_SUPERSCRIPT_POWER = re.compile(r"10([\u207a\u207b]?[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)")
_SUPERSCRIPT_DIGITS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207a\u207b",
                                    "0123456789+-")
_CHAR_FOLD = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"', "\u2033": '"',
    # Minus signs and short dashes all mean "-"; the em dash stays a clause separator.
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-",
    "\u2015": "\u2014", "\u2044": "/",
    # Letters that NFKD does not decompose but a grader reads as their ASCII twin.
    "\u00f8": "o", "\u00d8": "O", "\u0111": "d", "\u0110": "D", "\u0142": "l", "\u0141": "L",
    "\u00e6": "ae", "\u00c6": "AE", "\u0153": "oe", "\u0152": "OE", "\u00fe": "th", "\u00de": "Th",
    "\u0131": "i", "\u00df": "ss",
})
_COMBINING_ACCENT = re.compile("[\u0300-\u036f]")


def _superscript_power(match: re.Match[str]) -> str:
    return "10^" + match.group(1).translate(_SUPERSCRIPT_DIGITS)


def fold(text: str) -> str:
    """Fold look-only differences (quotes, dashes, accents, compatibility forms); keep case and punctuation."""
    return text if text.isascii() else _fold_unicode(text)


@lru_cache(maxsize=4096)
def _fold_unicode(text: str) -> str:
    text = _SPACE_THOUSANDS.sub("", text)
    text = _SUPERSCRIPT_POWER.sub(_superscript_power, text)
    # NFKD would fold "\u2260" into "=" and a combining overlay that is then dropped: "not equal" would read "equal".
    text = text.replace("\u2260", "!=")
    # NFKD first: it turns "\u00be" into "3\u20444", whose fraction slash the table then folds.
    text = unicodedata.normalize("NFKD", text).translate(_CHAR_FOLD)
    return _COMBINING_ACCENT.sub("", text)


# --- tokens --------------------------------------------------------------------------------------

_APOSTROPHE_IN_WORD = re.compile(r"(?<=\w)'(?=\w)")
_DOT_IN_ABBREVIATION = re.compile(r"(?<=\b[^\W\d_])\.(?=[^\W\d_]\b)")
_AMPERSAND_IN_WORD = re.compile(r"(?<=\w)&(?=\w)")
_AMPERSAND_ALONE = re.compile(r"(?<!\w)&(?!\w)")
# A numeric token keeps the punctuation inside it ("3.5", "3-4", "1/2", "10:30"), and a sign only when it
# starts the token ("-5" but not the "-4" of "3-4"); a word token keeps a trailing + or # ("c++", "c#").
_TOKEN = re.compile(r"(?:(?<!\w)-)?\d+(?:[.,:/\-^]\d+)*[^\W_]*[+#%]*|[^\W_]+(?:\^[^\W_]+)*[+#]*")
_ASCII_TOKEN = re.compile(_TOKEN.pattern, re.ASCII)  # the same tokens, found faster in ASCII text
_THOUSANDS_TOKEN = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
ARTICLES = frozenset({"the", "a", "an"})


def raw_tokens(text: str) -> tuple[str, ...]:
    """Meaning-preserving tokens of already folded text, in their original case."""
    if "'" in text:
        text = _APOSTROPHE_IN_WORD.sub("", text)
    if "." in text:
        text = _DOT_IN_ABBREVIATION.sub("", text)
    if "&" in text:
        text = _AMPERSAND_ALONE.sub(" and ", _AMPERSAND_IN_WORD.sub("", text))
    found = (_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text)
    if "," not in text:
        return tuple(found)
    return tuple(tok.replace(",", "") if "," in tok and _THOUSANDS_TOKEN.fullmatch(tok) else tok
                 for tok in found)


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """Casefolded, meaning-preserving tokens of already folded text."""
    return raw_tokens(text.casefold())


_LEADING_ARTICLE = re.compile(r"^\s*(?:the|a|an)\s+(?=[^\W_])", re.IGNORECASE)


def content_tokens(text: str) -> tuple[str, ...]:
    """Tokens of folded text without a leading article ("The Beatles"), which is kept when it is the whole
    answer or an item of its own (a multiple-choice "A", the list "a, b")."""
    return tokens(_LEADING_ARTICLE.sub("", text, count=1))



def answer_words(text: str) -> tuple[str, ...]:
    """The words a string answer is compared on: folded tokens without a leading article."""
    return content_tokens(fold(text))


def same_words(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Equal words. Never equal once a space goes: joining two words makes another word ("every one" is not
    "everyone", "note book" is not "notebook"). A hyphen is a word break, so "well-known" == "well known"."""
    return a == b


def find_token_run(haystack: tuple[str, ...], needle: tuple[str, ...]) -> tuple[int, int] | None:
    """Where `needle` occurs in `haystack` as whole tokens (never across a removed space: see same_words)."""
    if not needle:
        return None
    n, m = len(haystack), len(needle)
    first = needle[0]
    for i in range(n - m + 1):
        if haystack[i] == first and haystack[i:i + m] == needle:
            return i, i + m
    return None


# --- non-answers ---------------------------------------------------------------------------------

_NON_ANSWERS = frozenset({
    "", "n a", "na", "none", "null", "nil", "nan", "undefined", "unknown", "not known", "unclear",
    "i dont know", "dont know", "idk", "no idea", "not sure", "unsure", "not available", "not applicable",
    "no answer", "not found", "cannot be determined", "cant be determined", "cannot determine",
    "unable to determine", "insufficient information", "not enough information", "no information",
    "not specified", "not mentioned", "not stated", "not provided", "not given", "cannot answer",
    "i cannot answer", "unanswerable", "no data",
})


@lru_cache(maxsize=1024)
def is_non_answer(text: str) -> bool:
    """Empty, punctuation-only, or a refusal such as "N/A" / "unknown" / "I don't know"."""
    return " ".join(content_tokens(fold(text))) in _NON_ANSWERS


# --- spans ---------------------------------------------------------------------------------------

_WRAPPERS = {"*": "*", "_": "_", "`": "`", '"': '"', "'": "'", "(": ")", "[": "]"}


def clean_span(span: str) -> str:
    """Strip whitespace, markdown emphasis, wrapping quotes/brackets and a final full stop."""
    span = span.strip()
    while len(span) > 1:
        first, last = span[0], span[-1]
        if last in ".!\u3002" and not span.endswith(".."):
            span = span[:-1].rstrip()
            continue
        close = _WRAPPERS.get(first)
        if close is None or last != close or len(span) < 3:
            break
        inner = span[1:-1]
        if first in "([" and (first in inner or close in inner):
            break  # "(a) and (b)" is not wrapped
        span = inner.strip()
    return span
