"""Text measurements for deterministic scoring: tokens, ROUGE-L, fuzzy one-to-one item and name matching.

Everything here is pure and deterministic; the rubric (thresholds, ratings) lives in `scoring/rubric/`.

Tokens: lowercased NFKC text split into Unicode word tokens. Numbers are normalized so that "$48,500",
"48500" and "48.5k" are the same token "48500", and "12 percent" equals "12%". Dates are normalized to
month-day tokens such as "03-14" ("2026-03-14", "March 14, 2026", "14 March", "3/14" all give "03-14"); the year
is dropped because summaries usually leave it out, and a lone year like "2026" stays a number token.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from rapidfuzz import fuzz, process
from rapidfuzz.distance import LCSseq

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
    "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
    "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
_MONTH = (
    r"(?P<{g}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_ORD = r"(?:st|nd|rd|th)?"
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}

# One scanner, alternatives tried in order at each position: dates before numbers before words.
_TOKEN_RE = re.compile(
    r"(?P<iso>\b\d{4}-\d{1,2}-\d{1,2}\b)"
    + r"|(?:\b" + _MONTH.format(g="md_m") + r"\s+(?P<md_d>\d{1,2})" + _ORD + r"\b(?:,?\s+\d{4}\b)?)"
    + r"|(?:\b(?P<dm_d>\d{1,2})" + _ORD + r"\s+(?:of\s+)?" + _MONTH.format(g="dm_m") + r"(?:,?\s+\d{4}\b)?)"
    + r"|(?P<slash>\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b)"
    + r"|(?:[$€£¥]\s?)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    + r"(?:(?P<mult>k|mn|m|bn)\b|\s(?P<multw>thousand|million|billion)\b)?"
    + r"(?:\s?(?P<pct>%|percent\b|per\s+cent\b))?"
    + r"(?:st|nd|rd|th)?(?!\w)"
    + r"|(?P<word>[^\W_]+)",
    re.IGNORECASE,
)

# Function words plus the filler of summaries ("the team agreed to ...") that says nothing about content.
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just let me more most my myself no
    nor not now of off on once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to too under until up upon
    us very was we were what when where which while who whom why will with would you your yours yourself
    yourselves s t ll re ve d via per etc e g ie eg
    shall may might must need needs one
    agreed agree agrees decided decide decides decision decisions discussed discuss discussion meeting meetings
    team group participants summary noted mentioned said says due""".split()
)

_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam"})


def _format_number(value: float) -> str:
    if value == int(value):
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


def _date_token(month: int, day: int) -> str | None:
    if 1 <= month <= 12 and 1 <= day <= 31:
        return f"{month:02d}-{day:02d}"
    return None


def _match_to_tokens(m: re.Match[str]) -> list[str]:
    groups = m.groupdict()
    if groups["word"] is not None:
        return [groups["word"].lower()]
    if groups["iso"] is not None:
        _, month, day = (int(p) for p in groups["iso"].split("-"))
        token = _date_token(month, day)
        return [token] if token else groups["iso"].split("-")
    if groups["md_m"] is not None:
        token = _date_token(_MONTHS[groups["md_m"].lower()], int(groups["md_d"]))
        return [token] if token else [groups["md_m"], groups["md_d"]]
    if groups["dm_m"] is not None:
        token = _date_token(_MONTHS[groups["dm_m"].lower()], int(groups["dm_d"]))
        return [token] if token else [groups["dm_d"], groups["dm_m"]]
    if groups["slash"] is not None:
        first, second = (int(p) for p in groups["slash"].split("/")[:2])
        # US month/day unless that is impossible; the generator and most models write US dates.
        token = _date_token(first, second) or _date_token(second, first)
        return [token] if token else groups["slash"].split("/")
    value = float(groups["num"].replace(",", ""))
    multiplier = groups["mult"] or groups["multw"]
    if multiplier is not None:
        value *= _MULTIPLIERS[multiplier.lower()]
    token = _format_number(value)
    return [token + "%" if groups["pct"] is not None else token]


def stem(word: str) -> str:
    """A tiny English suffix stripper, enough to equate "quotes"/"quoted"/"quote" and "planning"/"planned"/"plan".

    Strips one of -ies (-> y), -es after sh/ch/x/z/ss, -s (not -ss/-us/-is), -ing, -ed, -ly; undoubles a final
    consonant left by -ing/-ed; then drops a final -e. Stems are only compared with each other, never shown."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("es") and word[:-2].endswith(("sh", "ch", "x", "z", "ss")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    else:
        for suffix, min_stem in (("ing", 3), ("ed", 3), ("ly", 4)):
            if word.endswith(suffix) and len(word) - len(suffix) >= min_stem:
                word = word[: -len(suffix)]
                if suffix != "ly" and word[-1] == word[-2] and word[-1] not in "aeiouls":
                    word = word[:-1]  # "planning" -> "plan"
                break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


F = TypeVar("F", bound=Callable[..., Any])
TEXT_CACHE_CHARS = 500_000  # per cache: about 500 items' texts; memory stays flat however many items are scored


def _text_cache(fn: F) -> F:
    """An LRU cache keyed by a text (first argument), bounded by the characters of the texts it keeps rather
    than by their count: a count bound let 10,000 items' documents and summaries pile up (hundreds of MB)."""
    cache: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
    held = [0]
    lock = threading.Lock()

    @functools.wraps(fn)
    def cached(*args: Any) -> Any:
        with lock:
            if args in cache:
                cache.move_to_end(args)
                return cache[args]
        value = fn(*args)
        with lock:
            if args not in cache:
                cache[args] = value
                held[0] += len(args[0])
                while held[0] > TEXT_CACHE_CHARS and len(cache) > 1:
                    old, _ = cache.popitem(last=False)
                    held[0] -= len(old[0])
        return value

    return cached  # type: ignore[return-value]


def _scan(text: str) -> list[tuple[list[str], str]]:
    """(tokens, the text they were read from) for each match of the scanner, in order."""
    normalized = unicodedata.normalize("NFKC", text).replace("’", "'")
    normalized = re.sub(r"'[sS]\b", "", normalized)  # possessive: "Priya's" -> "Priya"
    return [(_match_to_tokens(m), m.group(0)) for m in _TOKEN_RE.finditer(normalized)]


@_text_cache
def _tokenize_cached(text: str, stemmed: bool) -> tuple[str, ...]:
    tokens = [t for scanned, _ in _scan(text) for t in scanned]
    if stemmed:
        tokens = [stem(t) for t in tokens]
    return tuple(tokens)


@_text_cache
def surface_forms(text: str) -> dict[str, str]:
    """Stemmed token -> how it was first written in `text` ("48500" -> "$48,500", "mov" -> "Move"), so that
    explanations quote the user's words rather than normalized stems. Callers must not mutate the result."""
    forms: dict[str, str] = {}
    for tokens, written in _scan(text):
        for token in tokens:
            forms.setdefault(stem(token), written if len(tokens) == 1 else token)
    return forms


def tokenize(text: str, *, stemmed: bool = False) -> list[str]:
    """Lowercased word tokens with normalized numbers and dates; `stemmed` applies `stem` to each word."""
    return list(_tokenize_cached(text, stemmed))


def is_figure(token: str) -> bool:
    """A number, percent or month-day date token (what summaries must get exactly right)."""
    return token[:1].isdigit()


@_text_cache
def content_tokens(text: str) -> tuple[str, ...]:
    """Stemmed tokens without stopwords, in order, duplicates removed: the words that carry the content."""
    seen: dict[str, None] = {}
    for token in _tokenize_cached(text, False):
        if token in STOPWORDS:
            continue
        seen.setdefault(stem(token), None)
    return tuple(seen)


def rouge_l(candidate: str, reference: str) -> tuple[float, float, float]:
    """ROUGE-L (Lin 2004, sentence-level LCS): precision = LCS/len(candidate), recall = LCS/len(reference),
    F1 = their harmonic mean (beta = 1, as in Google's rouge-score "rougeL": the whole text is one sequence, not
    the per-sentence union of "rougeLsum"). Computed on stemmed tokens with stopwords kept, the LCS by rapidfuzz's
    LCSseq over the token lists. Either side empty gives (0, 0, 0)."""
    cand = _tokenize_cached(candidate, True)
    ref = _tokenize_cached(reference, True)
    if not cand or not ref:
        return 0.0, 0.0, 0.0
    lcs = LCSseq.similarity(cand, ref)
    if lcs == 0:
        return 0.0, 0.0, 0.0
    precision, recall = lcs / len(cand), lcs / len(ref)
    return precision, recall, 2 * precision * recall / (precision + recall)


# Two different words count as the same when both are this long and this similar (typos, "organise"/"organize").
_FUZZY_MIN_LEN = 5
_FUZZY_WORD_RATIO = 85.0


def found_tokens(needles: tuple[str, ...] | list[str], haystack: set[str] | frozenset[str]) -> list[str]:
    """The needles present in the haystack: exactly, or for words of 5+ letters, by rapidfuzz ratio >= 85.
    Figures (numbers, dates) must match exactly: "48500" is not "48600"."""
    found: list[str] = []
    fuzzy_pool: list[str] | None = None
    for needle in needles:
        if needle in haystack:
            found.append(needle)
            continue
        if len(needle) < _FUZZY_MIN_LEN or is_figure(needle):
            continue
        if fuzzy_pool is None:
            fuzzy_pool = [t for t in haystack if len(t) >= _FUZZY_MIN_LEN and not is_figure(t)]
        if fuzzy_pool and process.extractOne(needle, fuzzy_pool, scorer=fuzz.ratio, score_cutoff=_FUZZY_WORD_RATIO):
            found.append(needle)
    return found


def coverage(needle_text: str | tuple[str, ...], haystack: set[str] | frozenset[str]) -> float:
    """Share of the content tokens of `needle_text` found in `haystack` (a set of content tokens); 0 when empty."""
    needles = content_tokens(needle_text) if isinstance(needle_text, str) else needle_text
    if not needles:
        return 0.0
    return len(found_tokens(needles, haystack)) / len(needles)


def item_similarity(predicted: tuple[str, ...], expected: tuple[str, ...]) -> float:
    """Similarity of two items given as content tokens: the mean of their Dice overlap and the share of the
    expected tokens the prediction covers. Dice alone punishes a correct item wrapped in context; coverage alone
    would let a one-word item match anything containing that word."""
    if not predicted or not expected:
        return 0.0
    pred_set = frozenset(predicted)
    hits_expected = len(found_tokens(expected, pred_set))
    hits_predicted = len(found_tokens(predicted, frozenset(expected)))
    dice = (hits_expected + hits_predicted) / (len(predicted) + len(expected))
    return 0.5 * dice + 0.5 * hits_expected / len(expected)


@dataclass(frozen=True)
class MatchedPair:
    predicted: str
    expected: str
    score: float


@dataclass(frozen=True)
class ItemMatch:
    """A one-to-one matching of predicted to expected items, with precision/recall/F1 over counts."""

    pairs: list[MatchedPair] = field(default_factory=list)
    unmatched_predicted: list[str] = field(default_factory=list)
    unmatched_expected: list[str] = field(default_factory=list)
    n_predicted: int = 0
    n_expected: int = 0

    @property
    def precision(self) -> float:
        return len(self.pairs) / self.n_predicted if self.n_predicted else 0.0

    @property
    def recall(self) -> float:
        return len(self.pairs) / self.n_expected if self.n_expected else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def greedy_one_to_one(scores: list[list[float]], threshold: float) -> list[tuple[int, int, float]]:
    """Pairs (i, j, score) with score >= threshold, best first, each row and column used once; ties broken by
    position so the result never depends on anything but the input."""
    candidates = sorted(
        ((s, i, j) for i, row in enumerate(scores) for j, s in enumerate(row) if s >= threshold),
        key=lambda c: (-c[0], c[1], c[2]),
    )
    used_rows: set[int] = set()
    used_cols: set[int] = set()
    pairs: list[tuple[int, int, float]] = []
    for s, i, j in candidates:
        if i in used_rows or j in used_cols:
            continue
        used_rows.add(i)
        used_cols.add(j)
        pairs.append((i, j, s))
    return pairs


# An item matches when its similarity reaches this; calibrated on paraphrases vs different tasks in the tests.
ITEM_MATCH_THRESHOLD = 0.5


def match_items(
    predicted: list[str],
    expected: list[str],
    threshold: float = ITEM_MATCH_THRESHOLD,
    *,
    ignore: frozenset[str] = frozenset(),
) -> ItemMatch:
    """Match predicted to expected items one-to-one by `item_similarity` (greedy, best pair first).

    `ignore` holds content tokens left out of the comparison, e.g. the participants' names, so that two different
    tasks of the same owner do not match on the owner's name."""
    pred_tokens = [tuple(t for t in content_tokens(p) if t not in ignore) for p in predicted]
    exp_tokens = [tuple(t for t in content_tokens(e) if t not in ignore) for e in expected]
    scores = [[item_similarity(p, e) for e in exp_tokens] for p in pred_tokens]
    return _item_match(predicted, expected, greedy_one_to_one(scores, threshold))


def _item_match(predicted: list[str], expected: list[str], pairs: list[tuple[int, int, float]]) -> ItemMatch:
    used_pred = {i for i, _, _ in pairs}
    used_exp = {j for _, j, _ in pairs}
    return ItemMatch(
        pairs=[MatchedPair(predicted[i], expected[j], s) for i, j, s in sorted(pairs, key=lambda p: p[1])],
        unmatched_predicted=[p for i, p in enumerate(predicted) if i not in used_pred],
        unmatched_expected=[e for j, e in enumerate(expected) if j not in used_exp],
        n_predicted=len(predicted),
        n_expected=len(expected),
    )


_ROLE_SPLIT_RE = re.compile(r"\s*(?:\(|\[|<|,|:|;|\s[-–—|/]\s).*$", re.DOTALL)


@lru_cache(maxsize=16384)
def name_tokens(name: str) -> tuple[str, ...]:
    """The tokens of a person's name with role text, titles and e-mail domains removed:
    "Dr. Priya Shah (Account Manager)" -> ("priya", "shah"); "priya.shah@acme.com" -> ("priya", "shah")."""
    text = unicodedata.normalize("NFKC", name).strip()
    if "@" in text and " " not in text:
        text = re.sub(r"[._+-]+", " ", text.split("@")[0])  # a bare address: its local part is the name
    text = _ROLE_SPLIT_RE.sub("", text)
    words = re.findall(r"[^\W\d_]+", text.lower())
    return tuple(w for w in words if w not in _TITLES)


def display_name(name: str) -> str:
    """The name as written, without role text: "Priya Shah (Account Manager)" -> "Priya Shah"."""
    return _ROLE_SPLIT_RE.sub("", name.strip()) or name.strip()


def _same_word(a: str, b: str) -> bool:
    return a == b or (min(len(a), len(b)) >= 4 and fuzz.ratio(a, b) >= _FUZZY_WORD_RATIO)


def name_similarity(predicted: tuple[str, ...], expected: tuple[str, ...]) -> float:
    """1.0 for the same full name; 0.9 when one side is a single name (first or last) found in the other;
    0.0 otherwise, including two full names that share only a first name ("Priya Shah" vs "Priya Patel")."""
    if not predicted or not expected:
        return 0.0
    if len(predicted) == 1 or len(expected) == 1:
        single, full = (predicted, expected) if len(predicted) == 1 else (expected, predicted)
        if any(_same_word(single[0], w) for w in full):
            return 1.0 if len(full) == 1 else 0.9
        return 0.0
    if _same_word(predicted[0], expected[0]) and _same_word(predicted[-1], expected[-1]):
        return 1.0
    return 0.0


def match_names(predicted: list[str], expected: list[str]) -> ItemMatch:
    """One-to-one matching of participant names: a first name alone or the full name is the same person;
    role text ("(PM)", ", Account Manager") is ignored. Full-name pairs are preferred over first-name pairs."""
    pred_tokens = [name_tokens(p) for p in predicted]
    exp_tokens = [name_tokens(e) for e in expected]
    scores = [[name_similarity(p, e) for e in exp_tokens] for p in pred_tokens]
    return _item_match(predicted, expected, greedy_one_to_one(scores, 0.9))


def quote_list(items: list[str], limit: int = 3, width: int = 60) -> str:
    """Items as "'a', 'b', 'c' and 2 more", each cut to `width` characters, for one-sentence explanations."""
    shown = []
    for item in items[:limit]:
        text = " ".join(item.split())
        shown.append("'" + (text if len(text) <= width else text[: width - 1] + "…") + "'")
    rest = len(items) - limit
    return ", ".join(shown) + (f" and {rest} more" if rest > 0 else "")
