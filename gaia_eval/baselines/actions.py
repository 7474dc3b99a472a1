"""Rule-based action items: who owes what by when, from requests, commitments and assignments."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gaia_eval.baselines.document import Analysis, Person, Sentence
from gaia_eval.baselines.spans import Span, find_dates
from gaia_eval.baselines.text import capitalize_first, strip_discourse, term_overlap, topic_terms

MAX_ITEMS = 40
_NAME = r"[A-Z][\w'\-]+(?: [A-Z][\w'\-]+)?"
# "Dana, can you X?", "Can you, Dana, X?", "Please X, Dana.", "Dana, you're the natural person to X."
_REQUEST_RE = re.compile(
    rf"^(?:(?P<lead>{_NAME}),\s+)?"
    rf"(?:(?:can|could|would|will) you(?:,? (?P<mid>{_NAME}),?)?(?: please)?|please|i(?:'d| would) like you to|"
    r"i need you to|you(?:'ll| will) need to|make sure you|you're going to|"
    r"you(?:'re| are) (?:the )?(?:natural|right|best|obvious|ideal) (?:person|one|owner|choice) (?:to|for))\s+"
    rf"(?P<task>.+?)(?:,\s*(?P<tail>{_NAME}))?[?.!]*$"
)
# "Who wants to X?": the owner is whoever answers.
_OPEN_REQUEST_RE = re.compile(
    r"^(?:who (?:wants|can|could|would like|is able|will|is going|'s going) to|(?:can|could|would) someone|"
    r"does anyone want to|any volunteers to)\s+(?P<task>.+?)[?.!]*$",
    re.I,
)
_COMMITMENT_RE = re.compile(
    r"\b(?P<verb>I(?:'ll| will)|I am going to|I'm going to|I can|[Ll]et me)\s+"
    r"(?:also\s+|then\s+|go ahead and\s+|take (?:the |an |that )?(?:action|lead|task|ball)(?: item)? (?:to|on|of)\s+)?"
    r"(?P<task>[^.?!:;]+)",
)
# Said before "I'll", these make it a wish or a condition, not a commitment: "I keep telling myself I'll ...".
_HEDGE_RE = re.compile(r"\b(?:telling myself|keep saying|wish|if|when|unless|maybe|probably|might|hope|could)\b", re.I)
# Tasks that describe talking or being, not doing: "I'll be your contact", "I'll hand over to Jonah".
_NOT_A_TASK_RE = re.compile(
    r"^(?:be|assume|admit|say|tell you|mention|note|repeat|guess|bet|hand (?:it )?over|turn it over|pass it|"
    r"let you|leave it|jump|stop|go|keep it|think|remember|need|want|try|take a look)\b",
    re.I,
)
_THIRD_PERSON_RE = re.compile(
    rf"\b(?P<name>{_NAME})\s+(?:will|is going to|has agreed to|is to|to)\s+(?P<task>[^.?!]+)"
)
# "- Jonas: finalize the plan by April 18" in a next-steps list.
_OWNER_COLON_RE = re.compile(rf"^(?:action(?: item)?:\s*)?(?P<name>{_NAME})\s*[:\u2013\u2014-]\s+(?P<task>[^.?!]+)")
_DUE_PREFIX_RE = re.compile(r"\s*,?\s*\b(?:by|before|no later than|on|until|ahead of|due(?: on| by)?)\s*$", re.I)
# A short follow-up that sets the deadline: "Is March 4 okay?", "Give me until March 6.", "Yep, by March 4."
_DUE_FOLLOW_UP_RE = re.compile(
    r"\b(?:by|until|before|due|expect it|give me|"
    r"(?:is|would)\b.{0,40}\b(?:okay|ok|fine|realistic|great|good|doable|work))\b",
    re.I,
)
_NEGATIVE_REPLY_RE = re.compile(r"^(?:no\b|nope|i can't|i cannot|i won't|not (?:by|this|until|me)|unfortunately)", re.I)
_VAGUE_TASK_WORDS = {"that", "it", "this", "done", "sure", "there", "know", "honest", "say", "see", "try", "do"}


@dataclass(frozen=True)
class ActionItem:
    owner: str
    task: str
    due_text: str | None  # as written in the document
    due_iso: str | None  # YYYY-MM-DD when the document's date gives the year
    sentence: int

    def render(self) -> str:
        due = self.due_iso or self.due_text
        return f"{self.owner}: {capitalize_first(self.task)}" + (f" (due {due})" if due else "")


def _split_due(text: str, analysis: Analysis) -> tuple[str, Span | None]:
    """(task without its deadline phrase, the deadline). Only a date introduced as a deadline ('by',
    'before', 'due') is one: 'schedule the review for the week of May 5' keeps its date."""
    dates = find_dates(text, analysis.reference_date)
    if not dates or not _DUE_PREFIX_RE.search(text[: dates[-1].start]):
        return text, None
    span = dates[-1]
    before = _DUE_PREFIX_RE.sub("", text[: span.start])
    return f"{before} {text[span.end:]}".strip(" ,"), span


def _clean_task(task: str) -> str:
    task = re.sub(r"\b(?:uh|um|erm|you know)\b,?\s*", "", task.strip(), flags=re.I)
    task = re.sub(r"^(?:(?:please|also|then|just|go ahead and|make sure to|make sure we)\s+)+", "", task, flags=re.I)
    task = re.sub(r"\s+so (?:that )?(?:we|it|they|you|i|nobody|no one)\b.*$", "", task, flags=re.I)
    task = re.sub(r"\s*,?\s*(?:please|for me|for us|for everyone|if possible|thanks)\s*$", "", task, flags=re.I)
    return task.strip(" ,.?!")


def _is_concrete(task: str) -> bool:
    terms = [t for t in topic_terms(task) if t not in _VAGUE_TASK_WORDS]
    return len(terms) >= 2 and len(task.split()) <= 30


def _following(analysis: Analysis, sentence: Sentence) -> list[Sentence]:
    """The rest of the speaker's turn (two sentences), then the openings of the next two turns."""
    if sentence.turn is None:
        return analysis.sentences[sentence.index + 1: sentence.index + 3]
    same_turn = [i for i in analysis.turns[sentence.turn].sentence_ids if i > sentence.index][:2]
    later = [i for turn in analysis.turns[sentence.turn + 1: sentence.turn + 3] for i in turn.sentence_ids[:2]]
    return [analysis.sentences[i] for i in same_turn + later]


def _due_nearby(analysis: Analysis, sentence: Sentence) -> Span | None:
    for candidate in _following(analysis, sentence):
        if len(candidate.text.split()) > 14:
            continue
        dates = find_dates(candidate.text, analysis.reference_date)
        if dates and (_DUE_FOLLOW_UP_RE.search(candidate.text) or candidate.text.startswith(dates[0].text)):
            return dates[0]
    return None


def _is_offer(text: str) -> bool:
    commitment = _COMMITMENT_RE.search(strip_discourse(text))
    return commitment is not None and commitment.group("verb").lower() in ("let me", "i can")


def _next_turn(analysis: Analysis, sentence: Sentence, person: str | None) -> Sentence | None:
    """The first sentence of the next turn by `person` (anyone else, when None) within two turns."""
    if sentence.turn is None:
        return None
    for turn in analysis.turns[sentence.turn + 1: sentence.turn + 3]:
        if (person is None and turn.speaker != sentence.speaker) or turn.speaker == person:
            return analysis.sentences[turn.sentence_ids[0]] if turn.sentence_ids else None
    return None


def _request_owner(analysis: Analysis, sentence: Sentence, match: re.Match[str]) -> Person | None:
    for group in ("lead", "mid", "tail"):
        if match.group(group) and (person := analysis.person(match.group(group))) is not None:
            return person
    if analysis.kind == "email":
        addressed = analysis.addressees or analysis.recipients
        return analysis.person(addressed[0]) if len(addressed) == 1 else None
    reply = _next_turn(analysis, sentence, None)
    return analysis.person(reply.speaker) if reply and reply.speaker else None


def _owner_and_task(analysis: Analysis, sentence: Sentence, text: str) -> tuple[Person | None, str]:
    if request := _REQUEST_RE.match(text):
        owner = _request_owner(analysis, sentence, request)
        reply = _next_turn(analysis, sentence, owner.name) if owner else None
        if reply is not None and _NEGATIVE_REPLY_RE.match(strip_discourse(reply.text)):
            return None, ""
        return owner, request.group("task")
    if open_request := _OPEN_REQUEST_RE.match(text):
        reply = _next_turn(analysis, sentence, None)
        if reply is None or not reply.speaker or _NEGATIVE_REPLY_RE.match(strip_discourse(reply.text)):
            return None, ""
        return analysis.person(reply.speaker) or Person(reply.speaker), open_request.group("task")
    if (commitment := _COMMITMENT_RE.search(text)) and sentence.speaker:
        if _HEDGE_RE.search(text[: commitment.start()]) or _NOT_A_TASK_RE.match(commitment.group("task")):
            return None, ""
        return analysis.person(sentence.speaker) or Person(sentence.speaker), commitment.group("task")
    return _assigned_owner(analysis, text)


def _assigned_owner(analysis: Analysis, text: str) -> tuple[Person | None, str]:
    if (assigned := _THIRD_PERSON_RE.search(text)) and (named := analysis.person(assigned.group("name"))):
        return named, assigned.group("task")
    if (listed := _OWNER_COLON_RE.match(text)) and (named := analysis.person(listed.group("name"))):
        return named, listed.group("task")
    return None, ""


def action_items(analysis: Analysis) -> list[ActionItem]:
    """Requests ('Dana, can you X by DATE?' answered 'Sure'; 'Who wants to X?' answered 'I'll do it'),
    first-person commitments ('I'll X by DATE') and assignments ('Priya will X'), each with its owner and
    a due date normalized when the document's date gives the year. A deadline said in a short follow-up
    ('Is March 4 okay?') counts. Memoized on the analysis."""
    return analysis.memo("action_items", lambda: _find_action_items(analysis))


def _find_action_items(analysis: Analysis) -> list[ActionItem]:
    items: list[ActionItem] = []
    for sentence in analysis.sentences:
        owner, raw_task = _owner_and_task(analysis, sentence, strip_discourse(sentence.text))
        if owner is None:
            continue
        task, due = _split_due(_clean_task(raw_task), analysis)
        task = _clean_task(task)
        if not _is_concrete(task):
            continue
        if due is None and not any(span.iso for span in find_dates(task, analysis.reference_date)):
            due = _due_nearby(analysis, sentence)  # "Q2 results deck" names no deadline; "week of May 5" does
        if due is None and _is_offer(sentence.text):
            continue  # "Let me dim the lights": an offer in passing, not a task anyone tracks
        items.append(ActionItem(owner.name, task, due.text if due else None, due.iso if due else None, sentence.index))
    unique: list[ActionItem] = []
    for item in items:
        if not any(item.owner == other.owner and term_overlap(item.task, other.task) >= 0.6 for other in unique):
            unique.append(item)
            if len(unique) == MAX_ITEMS:
                break  # more than a summary can list; stop before the duplicate check turns quadratic
    return unique
