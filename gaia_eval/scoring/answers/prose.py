"""Reading a sentence or paragraph answer as a careful grader does, when gaia mode's strict reading (the whole
answer, its leading segment or its answer sentence) did not find the expected answer.

A grader reads the whole answer: the expected answer may stand anywhere in it, after citation markers
("Bohrium1", "[1]"), markdown emphasis and an echoed end of the question are dropped. It is found as whole words,
articles aside, a possessive or plural "s" in either text being the same word ("Cassini Division", "Elephants")
and a name's adjective being the name ("Colombian", "Argentine"), in the readings of the expected text a grader
would take (without a parenthetical: "Caesar (disambiguation)"; an "accept ..." note: "(accept DUKE OF
CAMBRIDGE)"; the sides of a short "A or B"; the name before a describing clause: "Robert Kennedy, who was ...").
A name inside a longer name counts as people count it: a first name or title before a surname ("Charlie
Chaplin", "Admiral Graf Spee"), a possessive ("Oprah Winfrey's"), a generic noun after a name ("Sandown Park",
"Duff Beer"), a surname after a first name when the question asks who; not a different place or thing ("South
Sudan", "Georgia Tech", "Paris Hilton", "Apollo 11", "blue-green"). An expected list is found when a sentence
names every item (in any order); a bare list stays with the strict list rules. The forms of a name or word a grader
takes as the same (a regnal numeral, a title, a place after a gold name, a surname alone) are forms.py's and
names.py's. A short bare answer first ("Niger.
Nigeria borders it.") is the answer, and only it is read.

Every doubt still refuses: an occurrence counts only when it is not negated in its clause, is no condition ("if
you are referring to X"), its sentence does not hedge (an "or" joining it to another candidate in a short answer
or to another name, "either", "maybe ... maybe", an uncertain word after it), it is not the question's own words
echoed back ("EE was originally branded as Orange"), not a former holder named in passing after the answer sentence
("took over from the previous host, Colin Murray") and not one of several short candidates the answer lists; an
answer that opens with an apology or "I couldn't find" answers nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gaia_eval.scoring.answers.cues import CLAUSE_BREAK, hedge_cue, negated_tokens
from gaia_eval.scoring.answers.echo import question_pairs, without_asked_denials
from gaia_eval.scoring.answers.extract import answer_sentence, sentence_around
from gaia_eval.scoring.answers.forms import (
    same_but_dropped,
    same_numeral,
    same_plural,
    shorter_readings,
    with_surname_shared,
)
from gaia_eval.scoring.answers.lists import list_shaped
from gaia_eval.scoring.answers.names import person_surname, surname_alone
from gaia_eval.scoring.answers.parse import AnswerView, ExpectedSpec, Verdict
from gaia_eval.scoring.answers.text import clean_span, fold, tokens

# --- the answer side -----------------------------------------------------------------------------

# "[1]", "[^1^]" and a footnote digit glued to a word ("Bohrium1", "II1", "Azkaban"1) as chat search engines cite.
_CITATION = re.compile(r"\[\^?\d{1,3}\^?\]|(?<=[A-Za-z\"')\].]{3})\d{1,2}(?=[\s.,;:!?)\"']|$)")
_EMPHASIS = re.compile(r"\*\*|__|`")
_OPENING_REFUSAL = re.compile(
    r"^\W*(?:i[' ]?a?m sorry|sorry|unfortunately|i (?:could ?n[o']?t|can ?n[o']?t|was unable to|am unable to|"
    r"did ?n[o']?t) (?:find|determine|identify|locate)|there (?:is|are|was|were) no (?:information|record|data))",
    re.IGNORECASE)


def prose_text(answer: str) -> str:
    """The answer as a grader reads it: folded, without citation markers and markdown emphasis, and without the
    end of the question some systems echo first ("in 1620?  Plymouth Rock")."""
    text = _EMPHASIS.sub("", _CITATION.sub("", fold(answer))).strip()
    tail = _QUESTION_TAIL.match(text)
    return text[tail.end():] if tail and tail.end() < len(text) else text


def opens_with_refusal(text: str) -> bool:
    """An answer that starts by apologising or saying it found nothing ("I'm sorry, but I couldn't find ...")."""
    return _OPENING_REFUSAL.match(text) is not None


# --- the expected side ---------------------------------------------------------------------------

_PARENTHETICAL = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*")
_ACCEPT_NOTE = re.compile(r"\baccept\s+([^()\[\]]+)", re.IGNORECASE)
_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_QUESTION_TAIL = re.compile(r"^[^.!?\n]{0,60}\?\s+")
_DESCRIBING = re.compile(r"^(?:who|which|where|when|whose|of|in|on|at|from|for|as|aka|known)\b")
_SHORT_ABBREVIATION = re.compile(r"^[A-Z]{1,3}(?:-[A-Z]{1,3})?$")
_SAME_WORD = {"jnr": "jr", "junior": "jr", "snr": "sr", "st": "saint"}
_LONGEST_OR_SIDE = 3  # words: "LESLEY SHARP or SURANNE JONES" names two answers; longer "or"s are one phrase
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*[+#]*|\d+(?:[.,]\d+)*")
_ARTICLES = frozenset({"the", "a", "an"})


def _words(text: str) -> tuple[str, ...]:
    """Casefolded words without articles (an apostrophe inside one dropped: "bull's" -> "bulls"), the same on
    both sides: "Video Killed the Radio Star by The Buggles" holds "... by Buggles"."""
    return tuple(w for w in (_word(m.group(0)) for m in _WORD.finditer(fold(text))) if w not in _ARTICLES)


def _word(raw: str) -> str:
    word = raw.casefold().replace("'", "")
    return _SAME_WORD.get(word, word)


@lru_cache(maxsize=8192)
def expected_readings(expected: str) -> tuple[tuple[str, ...], ...]:
    """The word sequences a grader looks for in an answer, for one expected text."""
    readings: list[str] = [expected]
    bare = _PARENTHETICAL.sub(" ", expected).strip()
    if bare and bare != expected:
        readings.append(bare)
    for note in _ACCEPT_NOTE.findall(expected):
        readings.extend(part for part in _OR.split(note) if part.strip())
    if "accept" in bare.lower():
        readings.append(bare[:bare.lower().index("accept")])
    if "," not in bare:
        sides = _OR.split(bare)
        if len(sides) > 1 and all(0 < len(tokens(side)) <= _LONGEST_OR_SIDE for side in sides):
            readings.extend(sides)
    parts = [part.strip() for part in bare.split(",")]
    if len(parts) == 2 and parts[0] and parts[1] and (
            _DESCRIBING.match(parts[1]) or _SHORT_ABBREVIATION.match(parts[1])):
        readings.append(parts[0])
    for reading in list(readings):
        readings.extend(shorter_readings(reading))
    found: list[tuple[str, ...]] = []
    for reading in readings:
        words = _words(reading)
        if words and words not in found:
            found.append(words)
    return tuple(found)


# --- finding a reading in the answer -------------------------------------------------------------

# After a name, a generic noun keeps it the same thing: "Sandown Park" is Sandown racecourse, "Duff Beer" is Duff.
_GENERIC_AFTER = frozenset({
    "park", "racecourse", "racetrack", "club", "klub", "college", "cathedral", "peninsula", "beer", "river",
    "island", "islands", "street", "castle", "palace", "hall", "prize", "award", "awards", "trophy", "cup",
    "stadium", "theatre", "theater", "museum", "company", "band", "magazine", "newspaper", "bay", "mountains",
    "hills", "horse", "race", "index", "county", "dynasty", "empire", "festival", "gallery", "abbey", "chapel",
    "tower", "bridge", "canal", "lake", "forest", "desert", "valley", "railway", "line", "airport", "station",
    "motor", "motors", "brewery", "records", "studios", "tunnel", "building", "house", "square", "gardens",
    "ocean", "sea", "open", "raid", "treaty", "national", "games", "championship", "championships", "league",
    "centre", "center", "exhibition", "arena", "ipa", "ale", "lager",
})
# Before a name, these words make another place or thing: "South Sudan", "New York", "Upper Volta".
_QUALIFIER_BEFORE = frozenset({
    "north", "south", "east", "west", "northern", "southern", "eastern", "western", "new", "upper", "lower",
    "great", "greater", "little", "central", "san", "santa", "port", "fort", "le", "la", "los", "las",
    "el", "de", "van", "von", "not", "non", "anti", "pre", "post", "half", "semi",
})
_PERSON_QUESTION = re.compile(r"\b(?:who|whom|whose|name)\b", re.IGNORECASE)


def _singular(word: str) -> str:
    """A word without a possessive or plural "s" (past four letters): "cassinis" (Cassini's) -> "cassini"."""
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word


def _same(answer_word: str, expected_word: str, last: bool) -> bool:
    if answer_word == expected_word or same_numeral(answer_word, expected_word):
        return True
    if same_plural(answer_word, expected_word) or same_but_dropped(answer_word, expected_word):
        return True  # "Pygmies" for "Pygmy"; "Marseillaise" for a gold "Marsellaise"
    # A plural or possessive "s" on the last word: "Elephants", "Winfrey's" (tokens drop the apostrophe).
    if len(expected_word) >= _STEM - 1 and _singular(answer_word) == _singular(expected_word):
        return True  # "Cassini Division" for "Cassini's Division"
    if not last or len(expected_word) < 3:
        return False
    if len(expected_word) >= _STEM and expected_word.endswith("a") and answer_word in (
            expected_word[:-1] + "e", expected_word[:-1] + "ian", expected_word + "n"):
        return True  # "Argentine" for Argentina, "Argentinian", "Colombian"
    if not answer_word.startswith(expected_word):
        return False
    # A plural or possessive "s" on the last word ("Elephants", "Winfrey's": tokens drop the apostrophe), and the
    # adjective of a name ("Colombian" for Colombia, "Hydrophytic" for Hydrophyte) the way a grader hears it.
    suffix = answer_word[len(expected_word):]
    return suffix in ("s", "es") or (len(expected_word) >= _STEM and suffix in _ADJECTIVE_ENDINGS)


_STEM = 5  # letters: shorter words take endings into other words ("Peru" -> "Perusal")
_ADJECTIVE_ENDINGS = frozenset({"n", "an", "ian", "ese", "ic", "ical", "al"})


def _runs(words: list[str], needle: tuple[str, ...], initials: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """Where the needle's words stand in `words`, as (first, past-the-end) indices. A middle initial (at an index
    in `initials`) may stand between two words of a name: "Robert F. Kennedy" is "Robert Kennedy"."""
    n, m = len(words), len(needle)
    found = []
    for i in range(n - m + 1):
        at, skipped = i, False
        for k in range(m):
            if at < n and _same(words[at], needle[k], k == m - 1):
                at += 1
                continue
            if (not skipped and k > 0 and at in initials and at + 1 < n and len(needle[k]) > 1
                    and _same(words[at + 1], needle[k], k == m - 1)):
                at, skipped = at + 2, True
                continue
            break
        else:
            found.append((i, at))
    return found


def _joined(text: str, start: int, end: int) -> bool:
    """A hyphen or slash glues the found words to a neighbour ("blue-green", "Tokyo/Kyoto")."""
    return (start > 0 and text[start - 1] in "-/") or (end < len(text) and text[end] in "-/")


def _extends(text: str, spans: list[tuple[int, int]], i: int, j: int, person: bool,
             asked: frozenset[str] = frozenset()) -> bool:
    """Whether the neighbours of tokens i..j make the found words part of a different, longer name. A word after
    them that the question itself uses names what was asked for ("New York City" for "which city?", "ExCeL London"
    for "In the London 2012 Olympics where ...?"), not another thing."""
    has_case = text != text.lower() and text != text.upper()
    if _joined(text, spans[i][0], spans[j - 1][1]):
        return True
    left = text[spans[i - 1][0]:spans[i - 1][1]] if i > 0 and spans[i][0] - spans[i - 1][1] <= 1 else None
    right = text[spans[j][0]:spans[j][1]] if j < len(spans) and spans[j][0] - spans[j - 1][1] <= 1 else None
    if text[spans[j - 1][0]:spans[j - 1][1]].casefold().endswith("'s"):
        right = None  # a possessive ends the name: "James Cameron's Oscar speech"
    for word, before in ((left, True), (right, False)):
        if word is None:
            continue
        if not before and _word(word) in asked:
            continue
        if word[0].isdigit():
            return True  # "Apollo 11"
        if not has_case:
            return word.casefold() not in _GENERIC_AFTER if not before else word.casefold() in _QUALIFIER_BEFORE
        if not word[0].isupper():
            continue
        folded = word.casefold().removesuffix("'s")
        if before:
            if folded in _QUALIFIER_BEFORE:
                return True
        elif folded not in _GENERIC_AFTER and not person:
            return True  # "Paris Hilton", "Georgia Tech"
    return False


_ALTERNATIVE = frozenset({"or", "either"})
_CONDITION_REACH = 6  # words before the answer in which an "if" makes it a condition
_SENTENCE_WORDS = 8  # from this many words an answer is a sentence, whose "X or Y" names one thing two ways
_UNCERTAIN_AFTER = frozenset({"maybe", "perhaps", "possibly", "probably", "might"})


def _hedged_sentence(text: str, start: int, end: int) -> str | None:
    """A hedge around the found answer: another candidate joined to it by "or" ("Paris or Lyon", "either Tokyo
    or Osaka"), an uncertain word after it in its clause ("Paris (possibly Lyon)"), or a sentence that hedges
    as a whole ("not sure", "maybe A, maybe B"). An "or" elsewhere in a paragraph joins other things."""
    before, after = _words(text[max(0, start - 40):start])[-2:], _words(text[end:end + 40])[:1]
    sentence = sentence_around(text, start, end)
    if "either" in before:
        return "either"
    lead_in = _words(sentence[:max(0, sentence.find(text[start:end]))])[-_CONDITION_REACH:]
    if "if" in lead_in or "whether" in lead_in:
        return "if"  # "if you are referring to the Great Barrier Reef, ...": a condition, not an answer
    if after[:1] == ("or",) or before[-1:] == ("or",):
        # "Paris or Lyon" names two candidates; "Ghent (or Gent)" names one place twice, and so does the "or" of a
        # full sentence ("The change of state is called evaporation or vaporization").
        alias = re.match(r"\s*\(or\s", text[end:end + 6]) or re.search(r"\(or\s+$", text[max(0, start - 6):start])
        other = re.search(r"^\s*or\s+(?:the\s+)?(\S)", text[end:end + 12]) or re.search(
            r"(\S)\S*\s+or\s+$", text[max(0, start - 40):start])
        names_another = other is not None and other.group(1).isupper() and text[start:start + 1].isupper()
        # "Not in education, employment or training": the "or" ends an enumeration the found words began.
        continues = after[:1] == ("or",) and "," in text[start:end]
        if alias is None and not continues and (len(_words(sentence)) < _SENTENCE_WORDS or names_another):
            return "or"  # "The capital is Paris or Lyon": two names are two candidates, however long the sentence
    rest = sentence[sentence.find(text[start:end]) + end - start:] if text[start:end] in sentence else ""
    uncertain = [w for w in _words(rest) if w in _UNCERTAIN_AFTER]
    if uncertain:
        return uncertain[0]
    toks = tuple(w for w in _words(sentence) if w not in _ALTERNATIVE)
    return hedge_cue(toks)


# Words that make a later mention of the expected answer a former holder, not the answer: "Rick took over from the
# previous host, Colin Murray", "surpassing the Beatles' previous record", "following the death of his mother, Queen
# Elizabeth II".
_FORMER_BEFORE = re.compile(
    r"\b(?:previous(?:ly)?|former(?:ly)?|predecessors?|took over from|taking over from|replac(?:ed|ing)|"
    r"succeed(?:ed|ing)|following (?:the )?death of|after (?:the )?death of|surpass(?:ed|ing)|"
    r"overtak(?:en|ing)|overtook)\b",
    re.IGNORECASE)
_FORMER_AFTER = re.compile(r"^\W*(?:'s?\s+)?(?:\w+\s+)?(?:previous|former)\b", re.IGNORECASE)
_FORMER_REACH = 12  # words before the found answer in its sentence in which a "previous" or "took over from" counts


def _in_passing(text: str, start: int, end: int, question: str | None) -> str | None:
    """The found words are not what the answer answers: the question's own words echoed back ("EE was originally
    branded as Orange" for "EE was originally branded?": the found word and its neighbour stand in the question),
    or, past the answer sentence, a former holder named in passing ("took over from the previous host, Colin Murray").
    """
    if question:
        pairs = question_pairs(_words(question))
        before, after = _words(text[max(0, start - 40):start])[-1:], _words(text[end:end + 40])[:1]
        found = _words(text[start:end])
        if (before and (before[0], found[0]) in pairs) or (after and (found[-1], after[0]) in pairs):
            return "echoes the question"
    first = answer_sentence(text)
    if text.find(first) + len(first) > start:
        return None  # the answer sentence answers; a "previous" there still names the answer
    sentence = sentence_around(text, start, end)
    lead_in = " ".join(_words(sentence[:max(0, sentence.find(text[start:end]))])[-_FORMER_REACH:])
    cue = _FORMER_BEFORE.search(lead_in) or _FORMER_AFTER.match(text[end:end + 30])
    return f"named in passing ({cue.group(0).strip()})" if cue else None


_LEADING_ARTICLE = re.compile(r"^\s*(the|a|an)\s+(?=\S)", re.IGNORECASE)


def required_article(expected: str) -> str | None:
    """The leading article that is part of the expected name, which the answer must carry too (gaia mode's rule:
    "a cappella", "The Hague"; not "The Beatles" or "The Great Gatsby")."""
    match = _LEADING_ARTICLE.match(expected)
    if match is None:
        return None
    if match.group(1).islower():
        return match.group(1)
    rest = _words(expected[match.end():])
    return match.group(1).casefold() if len(rest) == 1 and not rest[0].endswith("s") else None


def find_reading(text: str, needle: tuple[str, ...], question: str | None,
                 article: str | None = None, item: bool = False, first_name: str | None = None) -> tuple[str, str]:
    """Whether a grader finds `needle` in `text` as its answer: ("found"|"absent"|"negated"|"hedged"|"listed"|
    "extended", the sentence or word that decided). With `first_name`, the needle is a person's surname, found
    alone, after a title or after a form of that first name ("Micky" for "Mickey"), not after another one."""
    person = bool(question and _PERSON_QUESTION.search(question))
    asked = frozenset(_words(question)) if question else frozenset()
    status, detail = "absent", ""
    matches = [m for m in _WORD.finditer(text) if _word(m.group(0)) not in _ARTICLES]
    spans = [m.span() for m in matches]
    words = [_word(m.group(0)) for m in matches]
    initials = frozenset(k for k, m in enumerate(matches) if len(m.group(0)) == 1 and m.group(0).isupper())
    breaks = [m.start() for m in CLAUSE_BREAK.finditer(text)]
    for i, j in _runs(words, needle, initials):
        start, end = spans[i][0], spans[j - 1][1]
        if article and not re.search(rf"\b{article}\s+$", text[max(0, start - 8):start], re.IGNORECASE):
            continue  # "Hague" is not "The Hague"
        if first_name is not None and not surname_alone(text, spans, i, first_name):
            status, detail = "extended", text[max(0, start - 20):end + 20].strip()
            continue  # "John F. Kennedy" does not name Robert Kennedy
        clause_start = max((b for b in breaks if b < start), default=-1) + 1
        clause_end = min((b for b in breaks if b >= end), default=len(text))
        before = tokens(text[clause_start:start])
        after = tokens(text[end:clause_end])
        if negated_tokens(*without_asked_denials(before, after, question)):
            status, detail = ("negated", text[clause_start:clause_end].strip()) if status == "absent" else (
                status, detail)
            continue
        if _extends(text, spans, i, j, person, asked):
            if status in ("absent", "negated"):
                status, detail = "extended", text[max(0, start - 20):end + 20].strip()
            continue
        cue = _hedged_sentence(text, start, end)
        if cue:
            status, detail = "hedged", cue
            continue
        passing = _in_passing(text, start, end, question)
        if passing:
            status, detail = "passing", passing
            continue
        sentence = sentence_around(text, start, end)
        listed = None if item else list_shaped(sentence, needle)  # an expected list's item stands in a list
        if listed:
            status, detail = "listed", ", ".join(listed)
            continue
        return "found", sentence
    return status, detail


# --- the verdict ---------------------------------------------------------------------------------

_SHORT_LEAD = 3  # words: an answer that opens with this few words before a full stop or dash has answered
_SPLIT_LIST = re.compile(r"\s*(?:,|;|\band\b|&)\s*", re.IGNORECASE)


def _list_items(expected: str) -> list[tuple[str, ...]]:
    """The items of an expected list ("Green, White, Orange", "Belle Fourche and Cheyenne"), as words."""
    items = [_words(part) for part in _SPLIT_LIST.split(_PARENTHETICAL.sub(" ", expected))]
    return [item for item in items if item]


_DASH_LEAD = re.compile(r"^(.{1,60}?)\s+(?:-|\u2014)\s+|^(.{1,60}?)\u2014")


def _bare_lead(text: str) -> str | None:
    """A bare answer the response opens with: a first sentence of a few words ("Niger."), or a few words before a
    dash ("Niger - which borders Nigeria"); None when it opens with a sentence."""
    sentence = answer_sentence(text)
    if "," not in sentence and 0 < len(_words(sentence)) <= _SHORT_LEAD and sentence != text.strip():
        return clean_span(sentence)
    dash = _DASH_LEAD.match(sentence)
    if dash is not None:
        lead = dash.group(1) or dash.group(2) or ""
        if 0 < len(_words(lead)) <= _SHORT_LEAD and "(" not in lead:
            return clean_span(lead)
    return None


def read_prose(spec: ExpectedSpec, view: AnswerView, question: str | None) -> Verdict | None:
    """A correct verdict when a grader finds the expected answer in the answer's text; None otherwise (the strict
    verdict stands)."""
    readings = expected_readings(spec.text)
    lowered = fold(view.span).casefold()
    if not any(reading[0][:_STEM - 1] in lowered or reading[-1][:_STEM - 1] in lowered for reading in readings
               ) and not spec.is_list:
        return None  # no expected word even begins in the answer: nothing to read (most wrong answers)
    text = prose_text(view.span)
    if opens_with_refusal(text):
        return None
    lead = _bare_lead(text)
    if lead is not None:
        text = lead  # "Niger. Nigeria borders it.": a bare answer first is the answer; the rest explains it
    article = required_article(spec.text)
    for reading in readings:
        status, detail = find_reading(text, reading, question, article)
        if status == "found":
            return Verdict(True, 1.0, f"prose: {' '.join(reading)!r} found as whole words in {detail!r}", detail)
    listed = with_surname_shared(spec.text)  # "Malcolm & Donald Campbell": two Campbells
    surname = person_surname(spec.text, readings, question)
    if surname is not None:
        status, detail = find_reading(text, (surname[1],), question, first_name=surname[0])
        if status == "found":
            return Verdict(True, 1.0, f"prose: the surname {surname[1]!r} names the person asked for in {detail!r}",
                           detail)
    items = _list_items(listed) if spec.is_list or " and " in listed else []
    # A bare list is the strict list rules' to judge (count and order); a sentence that names every item answers,
    # and a short one is a sentence when two words or more stand beside the items ("Luxembourg borders Belgium,
    # Germany and France").
    beside = [w for w in _words(text) if w not in {word for item in items for word in item} and w != "and"]
    if len(items) > 1 and (len(_words(text)) >= _SENTENCE_WORDS or len(beside) >= 2):
        named = [any(find_reading(text, reading, question, item=True)[0] == "found"
                     for reading in (item, *expected_readings(" ".join(item))[1:])) for item in items]
        if all(named):
            shown = ", ".join(" ".join(item) for item in items)
            return Verdict(True, 1.0, f"prose: every expected item ({shown}) found in the answer", text)
    return None
