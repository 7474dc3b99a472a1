"""The two offline question answerers: `retrieval` (BM25 + typed span extraction) and `lead` (best sentence).

Both read only the document text. `retrieval` returns a bare answer (a name, a date as written, an amount,
a count, a percent, a duration, a list of names or a short clause); `lead` returns the best-matching
sentence verbatim.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from gaia_eval.baselines.actions import action_items
from gaia_eval.baselines.decisions import decisions
from gaia_eval.baselines.document import Analysis, Person, Sentence, analyze
from gaia_eval.baselines.spans import (
    Span,
    find_amounts,
    find_counts,
    find_dates,
    find_durations,
    find_percents,
    find_times,
)
from gaia_eval.baselines.text import content_terms, stem, strip_discourse, tokens, topic_terms

ANSWERERS: tuple[str, ...] = ("lead", "retrieval")
BM25_K1 = 1.5
BM25_B = 0.75
TOP_UNITS = 5
CONTEXT_WEIGHT = 0.5  # a reply's words count, but less than the sentence's own

# Words that say what kind of answer is wanted, not what it is about: they would only add noise to BM25.
_TYPE_WORDS = {stem(w) for w in "many much percentage percent amount date day deadline number total when who "
                                "whom mention mentioned discuss discussed meeting email exactly".split()}

_PEOPLE_LIST_RE = re.compile(
    r"\bwho (?:attended|participated|took part|joined|was present|were present|was in attendance|"
    r"(?:was|were) (?:at|in) the meeting|were the (?:participants|attendees))\b|"
    r"\b(?:list|name) (?:the |all )?(?:participants|attendees|people|recipients)\b|\bwhich people\b|"
    r"\bwho (?:was|were) (?:the )?(?:email|message|note|it)? ?(?:sent|addressed|written) to\b|"
    r"\bwho (?:received|got) (?:the|this)\b|\brecipients?\b|\bcc'?d\b|\bcopied\b|\bparticipants\b|\battendees\b",
    re.I,
)
_SENDER_RE = re.compile(r"\bwho (?:sent|wrote|signed)\b|\bsender\b|\bfrom whom\b|\bwho is (?:it|the email) from\b",
                        re.I)
_ROLE_RE = re.compile(
    r"\bwhat (?:is|was) (?P<name>[\w .'\-]+?)'s (?:role|title|position|job)\b|"
    r"\b(?:role|title|position|job title) (?:of|does|did|is) (?P<name2>[A-Z][\w.'\-]+(?: [A-Z][\w'\-]+)?)",
    re.I,
)
_OWNER_RE = re.compile(r"\bwho (?:is|was|will be|'s)? ?(?:responsible|in charge|handling|owning|taking|assigned)|"
                       r"\bwho (?:will|should|needs? to|is going to|has to|must|agreed to|volunteered|owns|took|"
                       r"is supposed to|was asked to|offered)\b", re.I)
_DOCUMENT_DATE_RE = re.compile(
    r"\b(?:when|what (?:date|day))\b.*\b(?:was|is|did) (?:the|this) (?:meeting|email|message|call)"
    r"(?: (?:sent|held|take place|happen|written))?\s*\??$",
    re.I,
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_CLAUSE_BREAK_RE = re.compile(r"[,;:]\s|\s[-\u2013\u2014]\s|\s(?:because|so that|which|but)\s")
_DECIDED_RE = re.compile(r"\bapprov|\bagree|\bdecid|\bfinal\b|\bsettled\b|\bchose", re.I)
_WEEKDAY_PREFIX_RE = re.compile(r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+", re.I)
# A question about a deadline (answered as YYYY-MM-DD), not about when something happens or happened.
_DUE_RE = re.compile(
    r"\b(?:by when|until when|deadline|due|by what date|when (?:must|should)|"
    r"when (?:does|do|will|is) .{0,40}\b(?:need|have|supposed|expected) to)\b",
    re.I,
)


@dataclass(frozen=True)
class _Unit:
    sentence: Sentence
    context: str  # the following reply when the sentence ends a turn


class _Index:
    """BM25 over sentences (each extended by the reply that follows it)."""

    def __init__(self, analysis: Analysis) -> None:
        self.units: list[_Unit] = []
        self.term_freqs: list[defaultdict[str, float]] = []
        for sentence in analysis.sentences:
            context = ""
            if sentence.turn is not None:
                ends_turn = analysis.turns[sentence.turn].sentence_ids[-1] == sentence.index
                if ends_turn and sentence.turn + 1 < len(analysis.turns):
                    context = analysis.turns[sentence.turn + 1].text[:300]
            freqs: defaultdict[str, float] = defaultdict(float)  # a context term weighs CONTEXT_WEIGHT
            for term in sentence.terms:
                freqs[term] += 1.0
            for term in content_terms(context):
                freqs[term] += CONTEXT_WEIGHT
            self.units.append(_Unit(sentence, context))
            self.term_freqs.append(freqs)
        self.df: Counter[str] = Counter(t for freqs in self.term_freqs for t in freqs)
        lengths = [sum(freqs.values()) for freqs in self.term_freqs]
        self.lengths = lengths
        self.avg_length = (sum(lengths) / len(lengths)) if lengths else 1.0

    def search(self, query_terms: list[str], limit: int) -> list[tuple[float, _Unit]]:
        total = len(self.units)
        scored: list[tuple[float, int]] = []
        idf = {t: math.log(1 + (total - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in set(query_terms) if self.df[t]}
        if not idf:
            return []
        for position, freqs in enumerate(self.term_freqs):
            score = 0.0
            norm = BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[position] / self.avg_length)
            for term, weight in idf.items():
                tf = freqs.get(term)
                if tf:
                    score += weight * tf * (BM25_K1 + 1) / (tf + norm)
            if score > 0:
                scored.append((score, position))
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [(score, self.units[position]) for score, position in scored[:limit]]


def _query_terms(question: str) -> list[str]:
    return [t for t in content_terms(question) if t not in _TYPE_WORDS]


def _ranked(analysis: Analysis, question: str, limit: int = TOP_UNITS) -> list[_Unit]:
    index = analysis.memo("bm25", lambda: _Index(analysis))
    return [unit for _, unit in index.search(_query_terms(question), limit)]


def lead_answer(document: str, question: str) -> str:
    """The single best-matching sentence, verbatim (right information, not a bare answer)."""
    analysis = analyze(document)
    ranked = _ranked(analysis, question, 1)
    if ranked:
        return ranked[0].sentence.text
    return analysis.sentences[0].text if analysis.sentences else ""


def _nearest(spans: list[Span], text: str, question_terms: set[str], excluded: set[str]) -> Span | None:
    """The span closest to where the question's words occur in `text` (the first one when none occur)."""
    spans = [s for s in spans if s.text.lower() not in excluded]
    if not spans:
        return None
    anchors = [m.start() for m in _WORD_RE.finditer(text) if stem(m.group().lower()) in question_terms]
    if not anchors:
        return spans[0]
    return min(spans, key=lambda s: min(abs(s.start - a) for a in anchors))


SpanFinder = Callable[[str], list[Span]]


def _candidate_texts(analysis: Analysis, unit: _Unit) -> list[str]:
    """Where an answer near a matching sentence may sit: the sentence, the reply to it, then the next two
    sentences ('The audit found 115 unused licenses.' 'What's that worth?' 'About $34,000 a year.')."""
    following = analysis.sentences[unit.sentence.index + 1: unit.sentence.index + 3]
    return [unit.sentence.text, unit.context, *(s.text for s in following)]


def _first_span(analysis: Analysis, units: list[_Unit], finder: SpanFinder, question: str) -> Span | None:
    """The first span of the wanted type: in an agreed decision the question is about, else in the ranked
    units (each searched sentence first, then its reply and neighbours)."""
    question_terms = set(_query_terms(question))
    excluded = {s.text.lower() for s in finder(question)}
    if _DECIDED_RE.search(question):
        found = decisions(analysis)
        best = _best_match(question, found, minimum=2)
        if best is not None and (span := _nearest(finder(found[best]), found[best], question_terms, excluded)):
            return span
    for unit in units:
        for text in _candidate_texts(analysis, unit):
            if text and (span := _nearest(finder(text), text, question_terms, excluded)) is not None:
                return span
    return None


def _people_in(analysis: Analysis, text: str) -> list[Person]:
    """Known people named in `text`, by full, first or last name, in order of mention."""
    found: list[tuple[int, Person]] = []
    for person in analysis.people:
        names = {person.name, person.first} | ({person.name.split()[-1]} if len(person.name.split()) > 1 else set())
        positions = [m.start() for n in names for m in re.finditer(rf"\b{re.escape(n)}\b", text)]
        if positions:
            found.append((min(positions), person))
    return [person for _, person in sorted(found, key=lambda pair: pair[0])]


def _best_match(question: str, candidates: list[str], minimum: int = 1) -> int | None:
    """Index of the candidate sharing the most question terms (at least `minimum`)."""
    terms = set(topic_terms(question)) - _TYPE_WORDS
    best, best_overlap = None, minimum - 1
    for position, candidate in enumerate(candidates):
        overlap = len(terms & set(topic_terms(candidate)))
        if overlap > best_overlap:
            best, best_overlap = position, overlap
    return best


def _answer_people_list(analysis: Analysis, question: str) -> str:
    lowered = question.lower()
    if analysis.kind == "email":
        if re.search(r"\bcc'?d\b|\bcopied\b", lowered):
            names = analysis.cc
        elif re.search(r"sent to|addressed to|recipient|received|written to|got th", lowered):
            names = analysis.recipients
        else:
            names = [p.name for p in analysis.people]
    else:
        names = [p.name for p in analysis.people]
    return ", ".join(names)


def _answer_who(analysis: Analysis, question: str, units: list[_Unit]) -> str | None:
    asked_about = {p.name for p in _people_in(analysis, question)}
    question_terms = set(topic_terms(question))
    for person in analysis.people:
        role_terms = set(topic_terms(person.role or ""))
        if role_terms and role_terms <= question_terms and person.name not in asked_about:
            return person.name  # "Who is the CTO?"
    if _OWNER_RE.search(question):
        items = action_items(analysis)
        best = _best_match(question, [item.task for item in items])
        if best is not None:
            return items[best].owner
    for unit in units:
        sentence = unit.sentence
        mentioned = [p for p in _people_in(analysis, sentence.text) if p.name not in asked_about]
        first_person = re.search(r"\b(?:I|I'll|I'm|I've|I'd|my|me)\b", sentence.text)
        if mentioned and not first_person:
            return mentioned[0].name
        if sentence.speaker and sentence.speaker not in asked_about:
            return sentence.speaker
        if mentioned:
            return mentioned[0].name
    return None


def _answer_date(analysis: Analysis, question: str, units: list[_Unit]) -> str | None:
    """A deadline as YYYY-MM-DD when the document's date gives the year (the form a date-aware grader reads
    unambiguously); any other date as written, without a leading weekday."""
    is_deadline = bool(_DUE_RE.search(question))

    def render(iso: str | None, written: str) -> str:
        if iso and (is_deadline or not re.search(r"\d", written)):
            return iso
        return _WEEKDAY_PREFIX_RE.sub("", written)

    if is_deadline:
        items = action_items(analysis)
        dated = [item for item in items if item.due_text]
        best = _best_match(question, [item.task for item in dated], minimum=2)
        if best is not None:
            return render(dated[best].due_iso, dated[best].due_text or "")
    span = _first_span(analysis, units, lambda text: find_dates(text, analysis.reference_date), question)
    if span is not None:
        return render(span.iso, span.text)
    # "When did the meeting take place?": nothing in the body says, the Date header does.
    header_dates = find_dates(analysis.headers.get("date", ""))
    return _WEEKDAY_PREFIX_RE.sub("", header_dates[0].text) if header_dates else None


def _count_finder(question: str) -> SpanFinder:
    after = re.search(r"\bhow many\s+([\w\-]+)(?:\s+([\w\-]+))?", question, re.I)
    hint = {stem(w.lower()) for w in (after.groups() if after else ()) if w}

    def finder(text: str) -> list[Span]:
        counts = find_counts(text, hint)
        hinted = [s for s in counts if any(stem(w) in hint for w in tokens(text[s.end:s.end + 40])[:3])]
        return hinted or counts

    return finder


def _answer_clause(analysis: Analysis, question: str, units: list[_Unit]) -> str:
    """The shortest clause of the best sentence that adds something to the question."""
    if re.search(r"\bdecid|\bdecision|\bagree|\bchose|\bchoose|\bselected\b|\bapproved?\b", question, re.I):
        found = decisions(analysis)
        best = _best_match(question, found)
        if best is not None:
            return found[best]
    if not units:
        return ""
    question_terms = set(topic_terms(question))
    text = strip_discourse(units[0].sentence.text)
    clauses = [c.strip(" .?!") for c in _CLAUSE_BREAK_RE.split(text)]
    useful = [c for c in clauses if set(topic_terms(c)) - question_terms]
    if not useful:
        return text.rstrip(".")
    best_clause = max(useful, key=lambda c: (len(set(topic_terms(c)) & question_terms), -len(c)))
    return best_clause


def _question_kind(question: str) -> str:
    """What the answer must be, from the question's opening words first, then from its keywords."""
    lowered = question.lower().strip()
    if _PEOPLE_LIST_RE.search(question) and not lowered.startswith("how many"):
        return "people"
    if _SENDER_RE.search(question):
        return "sender"
    if _ROLE_RE.search(question):
        return "role"
    if _DOCUMENT_DATE_RE.search(question):
        return "document_date"
    opening = re.sub(r"^(?:and|so|then|also),?\s+", "", lowered)
    for pattern, kind in _OPENINGS:
        if re.match(pattern, opening):
            return "percent" if kind == "amount" and _PERCENT_WORDS_RE.search(lowered) else kind
    for pattern, kind in _KEYWORDS:
        if re.search(pattern, lowered):
            return kind
    return "clause"


_OPENINGS: tuple[tuple[str, str], ...] = (
    (r"(?:who|whom)\b|which (?:person|team member|colleague)\b", "who"),
    (r"(?:by |until )?when\b", "date"),
    (r"how many\b", "count"),
    (r"how much\b", "amount"),
    (r"how long\b", "duration"),
    (r"what time\b", "time"),
    (r"what (?:percent|percentage)\b", "percent"),
)
_KEYWORDS: tuple[tuple[str, str], ...] = (
    (r"\bpercent|\bpercentage\b|%", "percent"),
    (r"\bamount\b|\bbudget\b|\bcost\b|\bprice\b|\bspend\b|\bfee\b|\bquote\b|\bsavings?\b|\bworth\b", "amount"),
    (r"\bnumber of\b", "count"),
    (r"\bwhat (?:date|day)\b|\bdeadline\b|\bdue\b", "date"),
    (r"\bduration\b", "duration"),
    (r"\bwho\b|\bwhom\b", "who"),
)
_PERCENT_WORDS_RE = re.compile(r"\bpercent|\bpercentage\b|%")


def retrieval_answer(document: str, question: str) -> str:
    """A bare answer typed by the question: names, dates, amounts, counts, percents, or a short clause."""
    analysis = analyze(document)
    if not analysis.sentences and not analysis.people:
        return ""
    kind = _question_kind(question)
    units = _ranked(analysis, question, 12)
    typed: str | None = None
    if kind == "people" and analysis.people:
        typed = _answer_people_list(analysis, question)
    elif kind == "sender":
        typed = analysis.sender or _answer_who(analysis, question, units)
    elif kind == "role" and (match := _ROLE_RE.search(question)):
        person = analysis.person((match.group("name") or match.group("name2") or "").strip())
        typed = person.role if person else None
    elif kind == "document_date" and (header_dates := find_dates(analysis.headers.get("date", ""))):
        typed = _WEEKDAY_PREFIX_RE.sub("", header_dates[0].text)
    elif kind in ("date", "document_date"):
        typed = _answer_date(analysis, question, units)
    elif kind == "who":
        typed = _answer_who(analysis, question, units)
    elif kind in _FINDERS:
        finder = _count_finder(question) if kind == "count" else _FINDERS[kind]
        span = _first_span(analysis, units, finder, question)
        if span is None and kind == "amount":
            span = _first_span(analysis, units[:TOP_UNITS], find_percents, question)
        typed = span.text if span else None
    if typed:
        return typed
    return _answer_clause(analysis, question, units[:TOP_UNITS]) or (
        analysis.sentences[0].text if analysis.sentences else ""
    )


_FINDERS: dict[str, SpanFinder] = {
    "count": find_counts,
    "percent": find_percents,
    "amount": find_amounts,
    "duration": find_durations,
    "time": find_times,
}


def answer_question(model: str, document: str, question: str) -> str:
    """Answer `question` from `document` with answerer `model` ("lead" or "retrieval")."""
    if model == "lead":
        return lead_answer(document, question)
    if model == "retrieval":
        return retrieval_answer(document, question)
    raise ValueError(f"unknown answerer {model!r}; expected one of {ANSWERERS}")
