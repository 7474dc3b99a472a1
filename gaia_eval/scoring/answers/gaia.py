"""The `gaia` matching mode: GAIA's number / list / string semantics, strict on the value, tolerant of format.

Order of reading an answer:
1. extraction (answers_parse): an explicit marker (`FINAL ANSWER:`, `<answer>`, `\\boxed{}`, `####`), the last
   "the answer is ..." phrase, or a self-correction ("12? No, 13.", "12 - no wait, 13") gives the span;
   otherwise the whole response is the span; an empty or refusing span ("N/A", "unknown", "I don't know")
   is never correct;
2. the whole span is compared as the expected kind: number (value within tolerance, compatible units),
   date, list (answers_lists) or string (same words after folding);
3. when the span is a sentence, a value inside it counts only under rules a careful grader would apply:
   - a number: the leading bare answer ("12 (three boxes of four)"), else the number a conclusion cue marks
     ("total 12", "so 12", "= 12"), else the only number the response states; several unmarked numbers,
     a negated or bounded value ("not 1927", "at least 12", "<12", ">= 12"; answers_cues tells bounds from
     approximations such as "~12", which are accepted) or a hedge ("12 or 13", "maybe 12, maybe 13") is never
     accepted;
   - a date: the leading date, else the only date stated, never a bound ("after May 4", "until May 4"; "by
     May 4" is a due date, accepted); a reference without a year accepts that day of any year, a reference
     with a year needs the answer to state the same year;
   - a string: the expected words standing alone in the answer sentence (the first one, or a final
     "So/Therefore ..." one): not negated, not part of a longer name ("Georgia Tech"), not among hedged
     or listed alternatives.
False accepts are the costly error, so every doubt resolves to "not correct", with the reason in the
explanation.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from gaia_eval.number_words import spoken_pair_readings
from gaia_eval.scoring.answers.cues import clause_breaks, find_in_clauses, hedge_cue, is_denied
from gaia_eval.scoring.answers.dates import CalendarDate, parse_date, scan_dates
from gaia_eval.scoring.answers.echo import without_asked_numbers
from gaia_eval.scoring.answers.extract import (
    answer_sentence,
    is_filler,
    leading_segment,
    may_have_sentences,
    sentence_around,
    sentences,
)
from gaia_eval.scoring.answers.lists import list_shaped, match_list
from gaia_eval.scoring.answers.numbers import (
    NumberMention,
    Quantity,
    find_numbers,
    format_number,
    parse_quantity,
    quantities_equal,
)
from gaia_eval.scoring.answers.parse import (
    WHOLE,
    AnswerView,
    ExpectedValue,
    GaiaOptions,
    MatchMode,
    Verdict,
    answer_view,
    expected_spec,
    gaia_options,
)
from gaia_eval.scoring.answers.precision import approximation_cue, decade, foreign_unit
from gaia_eval.scoring.answers.prose import read_prose
from gaia_eval.scoring.answers.ranges import year_in_range
from gaia_eval.scoring.answers.text import (
    answer_words,
    clean_span,
    find_token_run,
    fold,
    is_non_answer,
    same_words,
    tokens,
)


def _from(view: AnswerView) -> str:
    """The explanation's note of where the compared span came from."""
    return "" if view.how == WHOLE else f" (read after {view.how})"


def _hedged(view: AnswerView, sentence: str, answer: tuple[str, ...] | str = ()) -> str | None:
    """A hedge in the answer's sentence (or around its "the answer is" phrase); `answer` (its tokens, or its
    text) is left out of it."""
    if not sentence and not view.context:
        return None
    toks = tokens(sentence)
    answer_end = None
    if answer:
        run = find_token_run(toks, tokens(answer) if isinstance(answer, str) else answer)
        if run is not None:
            toks = toks[:run[0]] + toks[run[1]:]
            answer_end = run[0]
    return hedge_cue(toks, answer_end) or (hedge_cue(tokens(view.context)) if view.context else None)


# --- numbers -------------------------------------------------------------------------------------

_YEAR = r"[12]\d{3}(?![\d,.]\d)"
_YEAR_CONTEXT = re.compile(
    rf"\b(?:in|since|until|till|during|before|after)\s+(?:the\s+year\s+)?{_YEAR}"
    rf"|\b(?:between|from)\s+{_YEAR}\s*(?:and|to|-)\s*{_YEAR}|\b{_YEAR}\s*-\s*{_YEAR}", re.IGNORECASE)
_CUE_AFTER = re.compile(r"\s*(?:[a-z]+\s+)?(?:in total|in all|altogether|total|overall)\b", re.IGNORECASE)
# A number marked as the conclusion: "the answer is 12", "total 12", "a total of 12", "= 12", "so she makes 12".
_CUE_NOUNS = frozenset({"answer", "result", "total", "sum", "altogether", "overall"})
_CUE_VERBS = frozenset({"=", "equals", "get", "got", "gives", "give", "makes", "yields", "totals", "totaling"})
_CUE_LINKS = frozenset({"is", "was", "are", "were", "be", "of", "to"})
_CONCLUDERS = frozenset({"so", "therefore", "thus", "hence"})
_QUALIFIERS = frozenset({"approximately", "about", "around", "roughly", "exactly", "only", "just", "a"})
_CUE_WORD = re.compile(r"[a-z]+|=")
# Every word that can make a number cue-marked (a cue noun, verb or concluder, or the "to" of "comes to" / "up
# to" and the "all" of "in all"), found anywhere, inside longer words too: a number with none of these ending
# in the 60 characters before it can only be marked by what follows it.
_CUE_SUBSTRING = re.compile("|".join(sorted(map(re.escape, _CUE_NOUNS | _CUE_VERBS | _CONCLUDERS | {"to", "all"}),
                                            key=len, reverse=True)))


def _describe(q: Quantity) -> str:
    unit = f" {'/'.join(sorted(q.unit))}" if q.unit else ""
    return f"{format_number(q.value)}{unit}"


def _cue_ends(text: str) -> list[int]:
    """Where each possible cue word ends in `text`, in order (see _CUE_SUBSTRING)."""
    return [m.end() for m in _CUE_SUBSTRING.finditer(text.lower())]


def _cue_marked(text: str, mention: NumberMention, cue_ends: list[int] | None = None) -> bool:
    """Whether a conclusion cue in the same sentence points at this number. With `cue_ends` (_cue_ends of the
    text), a number with no cue word just before it skips the reading of the words before it."""
    if cue_ends is not None:
        i = bisect_right(cue_ends, mention.start)
        if i == 0 or cue_ends[i - 1] < mention.start - 60:
            return bool(_CUE_AFTER.match(text, mention.end))
    before = text[max(0, mention.start - 60):mention.start].lower()
    cut = max(before.rfind(". "), before.rfind("! "), before.rfind("? "), before.rfind("\n"))
    words = _CUE_WORD.findall(before[cut + 1:] if cut >= 0 else before)[-6:]
    while words and words[-1] in _QUALIFIERS:
        words.pop()
    if words:
        last = words[-1]
        if last in _CUE_NOUNS or last in _CUE_VERBS or _CONCLUDERS.intersection(words[-5:]):
            return True
        if last in _CUE_LINKS and _CUE_NOUNS.intersection(words[-4:-1]):
            return True  # "the answer is", "the total comes to", "a total of"
        if words[-2:] in (["comes", "to"], ["up", "to"], ["in", "all"]):
            return True
    return bool(_CUE_AFTER.match(text, mention.end))


def _leading_quantity(text: str) -> tuple[Quantity, str] | None:
    """The bare quantity that opens the first real sentence ("12 (three boxes of four)"), with that sentence."""
    for sentence in sentences(text):
        if is_filler(sentence):
            continue
        quantity = parse_quantity(clean_span(leading_segment(sentence)))
        return (quantity, sentence) if quantity is not None else None
    return None


def _mentions(expected: ExpectedValue, text: str) -> list[NumberMention]:
    """The numbers a text states, read for this expected number: dates are not numbers, except their year
    when a year is expected ("on 14 March 1927"); years that only date a count are left out otherwise
    ("17 albums between 2000 and 2009")."""
    dates, date_like = scan_dates(text)
    mentions = find_numbers(text, date_like)
    if expected.year_like:
        return sorted(mentions + [NumberMention(Quantity(float(d.date.year), frozenset(), str(d.date.year)),
                                                d.start, d.end) for d in dates], key=lambda m: m.start)
    if not any(1000 <= m.quantity.value < 3000 for m in mentions):
        return mentions
    years = [(m.start(), m.end()) for m in _YEAR_CONTEXT.finditer(text)]
    starts = [start for start, _ in years]

    def dates_a_count(mention: NumberMention) -> bool:
        i = bisect_right(starts, mention.start) - 1
        return i >= 0 and mention.end <= years[i][1]

    return [m for m in mentions if not dates_a_count(m)]


def _imprecise(expected: ExpectedValue, chosen: Quantity, view: AnswerView, opts: GaiaOptions) -> str | None:
    """Why `chosen` says something other than the exact expected number: an approximation, a decade for a year
    (or a year for a decade), or a measurement unit the expected answer does not carry."""
    if not opts.claims:
        return None
    if opts.rel_tol is None and opts.abs_tol == 0.0:  # a tolerance the caller gives accepts approximate values
        cue = approximation_cue(view.span, chosen.text, expected.text)
        if cue:
            return f"the answer only approximates ({cue!r}) where {expected.text!r} is exact"
    expected_decade, answer_decade = decade(expected.text), decade(chosen.text) or (
        decade(view.span) if chosen.text and chosen.text in view.span and decade(view.span) == chosen.value else None)
    if (expected_decade is None) != (answer_decade is None):
        which = "a decade" if answer_decade is not None else "a single year"
        return f"the answer gives {which} ({chosen.text!r}) where {expected.text!r} is expected"
    if expected_decade is not None:
        return None if expected_decade == answer_decade else f"the decade {chosen.text!r} != expected {expected.text!r}"
    unit = foreign_unit(expected.number_value, chosen, opts.question)
    if unit == "year" and chosen.text and re.search(re.escape(chosen.text) + r"[\s-]*old\b", view.span, re.I):
        unit = None  # "27 years old" is an age: the number of years is the answer, as "how old" asks
    if unit:
        return (f"the answer is in {unit} ({chosen.text!r}), a unit the expected {expected.text!r} does not carry "
                "and the question does not ask in")
    return None


def _number_verdict(expected: ExpectedValue, chosen: Quantity, sentence: str, how: str, view: AnswerView,
                    opts: GaiaOptions) -> Verdict:
    cue = _hedged(view, sentence, chosen.text)
    if cue:
        return Verdict(False, 0.0, f"number: the answer hedges ({cue!r}) in {sentence!r}{_from(view)}", chosen.text)
    refusal = _imprecise(expected, chosen, view, opts)
    if refusal:
        return Verdict(False, 0.0, f"number: {refusal}{_from(view)}", chosen.text)
    if opts.claims and decade(expected.text) is not None:  # the same decade however written ("1980s", "1980's")
        return Verdict(True, 1.0, f"number: the decade {chosen.text!r} == expected {expected.text!r}{_from(view)}",
                       chosen.text)
    equal = quantities_equal(expected.number_value, chosen, opts.rel_tol, opts.abs_tol)
    relation = "==" if equal else "!="
    return Verdict(equal, float(equal),
                   f"number: {how} {_describe(chosen)} {relation} expected {_describe(expected.number_value)}"
                   f"{_from(view)}", chosen.text)


_DEFINITE = re.compile(r"\b(?:the|these|those|all)\s+$", re.IGNORECASE)


def _without_definite_words(mentions: list[NumberMention], text: str) -> list[NumberMention]:
    """"The two" in a sentence refers to things already named ("The two had 3 kids"), it states no second number:
    such a spelled number is left out when the text states another one."""
    definite = [m for m in mentions if m.quantity.text.isalpha() and _DEFINITE.search(text, max(0, m.start - 8),
                                                                                       m.start)]
    return [m for m in mentions if m not in definite] if len(definite) < len(mentions) else mentions


_SHOWN_NUMBERS = 5  # distinct numbers named when an answer states several and marks none


def _match_number(expected: ExpectedValue, view: AnswerView, opts: GaiaOptions) -> Verdict:
    """A bare quantity; else the leading answer, the concluding number, or the only number stated."""
    whole = parse_quantity(view.span)
    if whole is not None:  # a bare quantity holds no hedge of its own; only its phrase's sentence might
        return _number_verdict(expected, whole, "", "the answer", view, opts)
    if not opts.extract:
        return Verdict(False, 0.0, f"number: {view.span!r} is not a bare number (extraction is off)", view.span)
    text = view.span
    mentions = without_asked_numbers(_without_definite_words(_mentions(expected, text), text),
                                     _mentions(expected, opts.question or ""), expected.number_value)
    breaks = clause_breaks(text)

    def alive(m: NumberMention) -> bool:
        return not is_denied(text, m.start, m.end, breaks, point_in_time=expected.year_like)

    # Each question below reads only as many numbers as it needs (a long answer may state thousands).
    live = (m for m in mentions if alive(m))
    first_live = next(live, None)
    if first_live is None:
        spoken = _spoken_pair(expected, text)
        if spoken is not None:
            return spoken
        what = "only negated or bounded numbers (e.g. 'not 12', 'at least 12')" if mentions else "no number"
        return Verdict(False, 0.0, f"number: the answer states {what}{_from(view)}", text)
    lead = _leading_quantity(text)
    cue_ends = _cue_ends(text)
    conclusion = next((m for m in reversed(mentions) if _cue_marked(text, m, cue_ends) and alive(m)), None)
    if lead and conclusion:
        if not quantities_equal(lead[0], conclusion.quantity):
            return Verdict(False, 0.0, f"number: the answer leads with {_describe(lead[0])} but concludes "
                           f"{_describe(conclusion.quantity)}{_from(view)}", text)
        return _number_verdict(expected, lead[0], lead[1], "the leading answer", view, opts)
    if lead:
        return _number_verdict(expected, lead[0], lead[1], "the leading answer", view, opts)
    if conclusion:
        return _number_verdict(expected, conclusion.quantity, sentence_around(text, conclusion.start,
                               conclusion.end), "the concluding number", view, opts)
    distinct: list[NumberMention] = []
    for mention in itertools.chain((first_live,), live):
        if not any(quantities_equal(mention.quantity, d.quantity) and mention.quantity.unit ==
                   d.quantity.unit for d in distinct):
            distinct.append(mention)
            if len(distinct) > _SHOWN_NUMBERS:  # enough to say "several"; going on would be quadratic
                break
    if len(distinct) > 1:
        stated = _stated_in_prose(expected, text, mentions, alive, view, opts)
        if stated is not None:
            return stated
        values = ", ".join(_describe(m.quantity) for m in distinct[:_SHOWN_NUMBERS])
        if len(distinct) > _SHOWN_NUMBERS:
            values += ", ..."
        return Verdict(False, 0.0, f"number: the answer states several numbers ({values}) and marks none as "
                       f"the answer{_from(view)}", text)
    only = distinct[0]
    return _number_verdict(expected, only.quantity, sentence_around(text, only.start, only.end),
                           "the only number stated,", view, opts)


_PROSE_WORDS = 6  # an answer of this many words is a sentence: the number it states for the question counts
_ALPHA_WORD = re.compile(r"[^\W\d_]{2,}")
_RANGE_BEFORE = re.compile(r"(?:\bbetween\s+(?:\S+\s+){0,2}|\d\s*(?:-|to|and)\s*)$", re.IGNORECASE)
_RANGE_AFTER = re.compile(r"^\s*(?:-|to|and)\s*\d")
_TURN = re.compile(r"\b(?:but|however|actually|although|though|rather|instead)\b", re.IGNORECASE)


def _stated_in_prose(expected: ExpectedValue, text: str, mentions: list[NumberMention], alive: Any,
                     view: AnswerView, opts: GaiaOptions) -> Verdict | None:
    """In a sentence answer that states several numbers, the expected one when it is stated as a value of its
    own ("won only three of his 45 races", "from 1936 until his death on November 20, 1975"): not negated or
    bounded, not an end of a range ("between 12 and 15", "12-15"), not hedged in its sentence."""
    if len(_ALPHA_WORD.findall(text[:2000])) < _PROSE_WORDS:
        return None  # "12 apples and 3 oranges", "7 8 9 ...": an answer listing numbers names no one answer
    for mention in mentions:
        if not (quantities_equal(expected.number_value, mention.quantity) and alive(mention)):
            continue
        if _RANGE_BEFORE.search(text[max(0, mention.start - 30):mention.start]) or _RANGE_AFTER.match(
                text[mention.end:mention.end + 12]):
            continue
        sentence = sentence_around(text, mention.start, mention.end)
        if _TURN.search(sentence[sentence.find(mention.quantity.text):]):
            continue  # not a value its sentence then turns from ("12, but it is 13")
        verdict = _number_verdict(expected, mention.quantity, sentence, "the number the sentence states,", view,
                                  opts)
        if verdict.correct:
            return verdict
    return None


def _spoken_pair(expected: ExpectedValue, text: str) -> Verdict | None:
    """A price or a year said as a spoken pair ("twelve fifty" for 12.50 or 1250), which no one number reads."""
    readings = spoken_pair_readings(text)
    wanted = format_number(expected.number_value.value)
    if wanted in readings and not expected.number_value.unit:
        return Verdict(True, 1.0, f"number: the spoken pair in {text!r} reads {wanted} == expected {expected.text!r}"
                       f" (a spoken pair is a price or a year: {' or '.join(sorted(readings))})", text)
    return None


# --- dates ---------------------------------------------------------------------------------------

def _date_verdict(expected: ExpectedValue, chosen: CalendarDate, text: str, how: str, view: AnswerView,
                  sentence: str) -> Verdict:
    cue = _hedged(view, sentence)
    if cue:
        return Verdict(False, 0.0, f"date: the answer hedges ({cue!r}) in {sentence!r}{_from(view)}", text)
    equal = expected.date_value.accepts(chosen)
    relation = "==" if equal else "!="
    return Verdict(equal, float(equal), f"date: {how} {chosen} {relation} expected {expected.date}{_from(view)}",
                   text)


def _match_date(expected: ExpectedValue, view: AnswerView, opts: GaiaOptions) -> Verdict:
    """A bare date; else the leading date, or the only date stated."""
    whole = parse_date(view.span)
    if whole is not None:
        return _date_verdict(expected, whole, view.span, "the answer", view, "")
    if same_words(answer_words(view.span), expected.toks):
        return Verdict(True, 1.0, f"date: same text {' '.join(expected.toks)!r}{_from(view)}", view.span)
    if not opts.extract:
        return Verdict(False, 0.0, f"date: {view.span!r} is not a date (extraction is off)", view.span)
    text = view.span
    for sentence in sentences(text):
        if not is_filler(sentence):
            lead = parse_date(clean_span(leading_segment(sentence)))
            if lead is not None:
                return _date_verdict(expected, lead, text, "the leading answer", view, sentence)
            break
    breaks = clause_breaks(text)
    live = [m for m in scan_dates(text)[0] if not is_denied(text, m.start, m.end, breaks, point_in_time=True)]
    distinct = sorted({m.date for m in live}, key=str)
    if len(distinct) != 1:
        what = "no date" if not distinct else f"several dates ({', '.join(map(str, distinct))})"
        return Verdict(False, 0.0, f"date: the answer states {what}{_from(view)}", text)
    first = live[0]
    return _date_verdict(expected, distinct[0], text, "the only date stated,", view,
                         sentence_around(text, first.start, first.end))


# --- strings -------------------------------------------------------------------------------------

_MAX_SENTENCE_TOKENS = 40  # a longer unmarked sentence is an essay: too many chances of an incidental match


_LEADING_ARTICLE = re.compile(r"^\s*(the|a|an)\s+(?=\S)", re.IGNORECASE)


def _article_belongs(expected_text: str) -> bool:
    """Whether the expected answer's leading article is part of the name or phrase, so an answer without it is a
    different answer: a lower-case article opens a fixed phrase ("a cappella", "a priori"), and a capital "The"
    before one singular word is part of that name ("The Hague", "The Bronx", "The Who"). Plural names and titles
    of several words are commonly said without it ("Beatles", "Netherlands", "Great Gatsby")."""
    match = _LEADING_ARTICLE.match(expected_text)
    if match is None:
        return False
    if match.group(1).islower():
        return True
    rest = tokens(fold(expected_text[match.end():]))
    return len(rest) == 1 and not rest[0].endswith("s")


def _article_kept(expected: ExpectedValue) -> ExpectedValue:
    """The expected words, with their leading article when it belongs to the name (then the answer must carry it
    too). Otherwise an answer's leading article is dropped: "the Eiffel Tower" for "Eiffel Tower"."""
    return expected._replace(toks=tokens(fold(expected.text))) if _article_belongs(expected.text) else expected


def _answer_words_for(expected: ExpectedValue, text: str) -> tuple[str, ...]:
    return tokens(fold(text)) if _article_belongs(expected.text) else answer_words(text)


def _match_string(expected: ExpectedValue, view: AnswerView, opts: GaiaOptions) -> Verdict:
    """Equal comparison keys; else the expected words standing alone in the answer sentence."""
    expected = _article_kept(expected)
    if same_words(_answer_words_for(expected, view.span), expected.toks):
        return Verdict(True, 1.0, f"string: {' '.join(expected.toks)!r} == expected{_from(view)}", view.span)
    if not opts.extract:
        return Verdict(False, 0.0, f"string: {' '.join(tokens(view.span))!r} != expected "
                       f"{' '.join(expected.toks)!r}", view.span)
    sentence = answer_sentence(view.span)
    segment = clean_span(leading_segment(sentence))
    cue = _hedged(view, sentence, expected.toks)
    if same_words(_answer_words_for(expected, segment), expected.toks):
        if cue:
            return Verdict(False, 0.0, f"string: the answer hedges ({cue!r}) in {sentence!r}{_from(view)}", segment)
        return Verdict(True, 1.0, f"string: the leading answer {' '.join(expected.toks)!r} == expected"
                       f"{_from(view)}", segment)
    segment_tokens = tokens(segment)
    if len(segment_tokens) > _MAX_SENTENCE_TOKENS:
        return Verdict(False, 0.0, f"string: the answer sentence has {len(segment_tokens)} words and no marked "
                       f"answer; only short answers are searched{_from(view)}", segment)
    wanted = " ".join(expected.toks)
    status, extension = find_in_clauses(segment, expected.toks)
    if status == "absent":
        return Verdict(False, 0.0, f"string: {wanted!r} is not in the answer {segment!r} as whole words"
                       f"{_from(view)}", segment)
    if status == "negated":
        return Verdict(False, 0.0, f"string: the answer negates {wanted!r} in {segment!r}{_from(view)}", segment)
    if status == "extended":
        return Verdict(False, 0.0, f"string: {wanted!r} is part of a longer name ({extension!r}) in {segment!r}"
                       f"{_from(view)}", segment)
    if cue:
        return Verdict(False, 0.0, f"string: the answer hedges ({cue!r}) in {sentence!r}{_from(view)}", segment)
    listed = list_shaped(segment, expected.toks)
    if listed:
        return Verdict(False, 0.0, f"string: the answer lists {len(listed)} candidates {listed!r} where one is "
                       f"expected{_from(view)}", segment)
    return Verdict(True, 1.0, f"string: {wanted!r} found as whole words in the answer sentence {segment!r}"
                   f"{_from(view)}", segment)


# --- entry point ---------------------------------------------------------------------------------

_LONGEST_NON_ANSWER = 40  # characters; refusals ("insufficient information") are short and digit-free
_DIGIT = re.compile(r"\d")
_HOW_MANY = re.compile(r"^\W*how many\b", re.IGNORECASE)
_BRACKETED = re.compile(r"\s*\([^()]*\)")
_NONE_COUNTS = frozenset({"none", "nothing", "nobody", "no one", "not any", "none at all"})


def _short_non_answer(text: str) -> bool:
    return len(text) <= _LONGEST_NON_ANSWER and not _DIGIT.search(text) and is_non_answer(text)


def _refuses(view: AnswerView, extract: bool) -> bool:
    """An empty or refusing answer, or one that opens with a refusal ("I don't know. Maybe Paris.")."""
    if _short_non_answer(view.span):
        return True
    if view.how != WHOLE or not extract or not may_have_sentences(view.span):
        return False
    return _short_non_answer(answer_sentence(view.span))


def match_gaia(expected: str, answer: str, opts: GaiaOptions) -> Verdict:
    """Decide whether `answer` gives the one expected answer `expected` under gaia-mode rules."""
    if opts.question and _HOW_MANY.search(opts.question) and expected.strip().casefold() in _NONE_COUNTS:
        expected = "0"  # "None" answers "How many ...?" as the count zero: "Zero." gives it too
    spec = expected_spec(expected)
    view = answer_view(answer, opts.extract)
    if (spec.value.kind == "number" and spec.value.number_value.value == 0 and not spec.is_list
            and " ".join(tokens(view.span)) in _NONE_COUNTS):
        return Verdict(True, 1.0, f"number: {view.span!r} counts zero == expected 0{_from(view)}", view.span)
    if _refuses(view, opts.extract):
        if spec.value.toks and same_words(answer_words(view.span), spec.value.toks):
            return Verdict(True, 1.0, f"string: the expected answer is itself {' '.join(spec.value.toks)!r}",
                           view.span)
        return Verdict(False, 0.0, f"the answer {view.span!r} is empty or a non-answer{_from(view)}", view.span)
    if spec.is_list:
        verdict = match_list(spec, view, opts)
    elif spec.value.kind == "number":
        return _match_number(spec.value, view, opts)
    elif spec.value.kind == "date":
        return _match_date(spec.value, view, opts)
    else:
        verdict = _match_string(spec.value, view, opts)
    if verdict.correct or not opts.extract:
        return verdict
    # The strict reading missed it: read the whole answer as a grader does (answers_prose), same guards; a number
    # with its conversion in brackets ("5.97 m (19 ft 7 in)") is the number before them.
    bare = expected_spec(_BRACKETED.sub(" ", expected).strip()) if "(" in expected and not spec.is_list else None
    if bare is not None and bare.value.kind == "number" and _match_number(bare.value, view, opts).correct:
        return _match_number(bare.value, view, opts)
    return read_prose(spec, view, opts.question) or year_in_range(expected, view.span, opts.question) or verdict


def _match_gaia_mode(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    return match_gaia(expected, "" if answer is None else answer, gaia_options(options))


GAIA_MODE = MatchMode(_match_gaia_mode, frozenset({"rel_tol", "abs_tol", "ordered", "extract", "question"}))
