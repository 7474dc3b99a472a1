"""Reads one document's structure from its text alone: headers, people and roles, dialogue turns, sentences.

The analysis is what every baseline works from; `analyze` caches it (bounded LRU keyed by a hash of the text)
so the six summary styles and many questions on one document parse it once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gaia_eval.baselines.spans import parse_date
from gaia_eval.baselines.text import clean_text, content_terms, split_sentences

T = TypeVar("T")

# Header keys that look like "Label: value" lines but are never speakers.
HEADER_KEYS = frozenset(
    [
        *"from to cc bcc subject date time sent location duration agenda participants attendees present title meeting "
        "meeting title meeting type type facilitator organizer note notes re reply-to project recording room venue "
        "call dial-in attachments attachment importance priority absent regrets minutes transcript summary decision "
        "decisions update".split(),
        "meeting date",
        "meeting time",
        "meeting title",
        "meeting type",
        "start time",
        "end time",
        "attendees list",
        "action items",
        "action item",
        "next steps",
        "key decisions",
    ]
)
_PEOPLE_BLOCK_KEYS = ("participants", "attendees", "present", "attendees list")
_LABEL_LINE_RE = re.compile(r"^\s*(?:\[[\d:.\s]+\]\s*|\(?\d{1,2}:\d{2}(?::\d{2})?\)?\s*)?"
                            r"(?P<label>[A-Z][^:\n]{0,80}?)\s*(?:\[[\d:.\s]+\])?:\s*(?P<text>.*)$")
_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u2013]|\d{1,2}[.)])\s+")
_PAREN_ROLE_RE = re.compile(r"^(?P<name>[^(]+?)\s*\((?P<role>.+)\)\s*$")
# " - ", " | ", an en or em dash: a hyphen inside a name ("Soo-ah", "Jean-Yves") is not a separator.
_DASH_ROLE_RE = re.compile(r"\s+[-\u2013\u2014|]\s+|\s*[\u2013\u2014|]\s*")
_EMAIL_ADDR_RE = re.compile(r"<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>?")
_GREETING_RE = re.compile(
    r"^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings)\b[ ,]*(?P<who>[^,:!\n]*)", re.I
)
_SIGNOFF_RE = re.compile(
    r"^(?:best(?: regards| wishes)?|regards|kind regards|warm regards|thanks|thank you|many thanks|"
    r"cheers|sincerely|all the best|talk soon|respectfully)\b[^\n]{0,20}[,!.]?\s*$",
    re.I,
)
_ROLE_WORD_RE = re.compile(
    r"\b(?:manager|engineer|lead|director|developer|designer|specialist|analyst|officer|ceo|cto|cfo|coo|vp|head|"
    r"coordinator|architect|consultant|scientist|owner|master|representative|executive|president|associate|"
    r"intern|assistant|administrator|advisor|partner|chief|supervisor|strategist|recruiter|accountant|"
    r"controller|counsel|editor|researcher|marketing|sales|finance|support|operations|hr)\b",
    re.I,
)
_TITLE_RE = re.compile(r"^(?:mr|ms|mrs|dr|prof)\.?\s+")
# "**Priya Shah:** text" and "**Date:** ..." in markdown-flavoured output read as plain "Label: text".
_MARKDOWN_LABEL_RE = re.compile(r"^(\s*)(?:\*\*|__)([^*_\n]{1,80}?)(:?)(?:\*\*|__)(:?)")
_NAME_WORD_RE = re.compile(r"^(?:Mr|Ms|Mrs|Dr|Prof|Hon)\.?$|^[A-Z][a-zA-Z'\-.]*$")


@dataclass
class Person:
    name: str
    role: str | None = None

    @property
    def first(self) -> str:
        words = [w for w in self.name.split() if w.rstrip(".") not in ("Mr", "Ms", "Mrs", "Dr", "Prof", "Hon", "The")]
        return words[0] if words else self.name

    def render(self) -> str:
        return f"{self.name} ({self.role})" if self.role else self.name


@dataclass
class Sentence:
    index: int
    text: str
    speaker: str | None  # resolved person name of the turn, None outside dialogue
    turn: int | None  # index into Analysis.turns
    terms: list[str]


@dataclass
class Turn:
    speaker: str
    text: str
    sentence_ids: list[int] = field(default_factory=list)


@dataclass
class Analysis:
    kind: str  # "meeting", "email" or "text"
    title: str | None
    date: dt.date | None  # the document's own date (Date: header)
    headers: dict[str, str]
    people: list[Person]  # stated participants, then speakers/correspondents in order of appearance
    speaker_labels: list[str]  # raw dialogue labels in order of first appearance
    turns: list[Turn]
    sentences: list[Sentence]
    agenda: list[str]
    sender: str | None = None
    recipients: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    addressees: list[str] = field(default_factory=list)  # people greeted in an email
    reference_date: dt.date | None = None  # resolves yearless and relative dates: `date`, else the first full date
    derived: dict[str, Any] = field(default_factory=dict)  # memoized rankings, see `memo`
    # Re-entrant: a memoized result may be computed from other memoized results.
    _memo_lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """Compute a derived result (TextRank scores, keyphrases, summaries) once per cached document, even
        when the six style requests of one document arrive at once from worker threads."""
        with self._memo_lock:
            if key not in self.derived:
                self.derived[key] = compute()
            return self.derived[key]

    def person(self, mention: str) -> Person | None:
        """The known person a label or mention refers to: full name, first name, last name, or 'Name (Role)'."""
        key = _TITLE_RE.sub("", _strip_role(mention).lower().strip())
        if not key:
            return None
        for candidate in self.people:
            if candidate.name.lower() == key:
                return candidate
        matches = [p for p in self.people if key in (p.first.lower(), p.name.split()[-1].lower())]
        if len(matches) == 1:
            return matches[0]
        if self.kind != "meeting":
            return None
        return next((p for p in self.people if p.role and p.role.lower() == key), None)


def _strip_role(label: str) -> str:
    return label.split(" (", 1)[0].split("(", 1)[0].strip()


def _is_header_key(label: str) -> bool:
    return label.lower().strip() in HEADER_KEYS


def _looks_like_name(text: str) -> bool:
    words = _strip_role(text).split()
    return 0 < len(words) <= 5 and all(_NAME_WORD_RE.match(w) for w in words)


def parse_person(entry: str) -> Person | None:
    """'Priya Shah (Finance Lead)', 'Priya Shah - Finance Lead', 'Priya Shah, Finance Lead',
    'Priya Shah <priya@acme.com>' or a bare address -> Person."""
    entry = _BULLET_RE.sub("", entry).strip().strip(";")
    address = _EMAIL_ADDR_RE.search(entry)
    if address:
        name_part = entry[: address.start()].strip()
        quoted = re.fullmatch(r'"([^",]+),\s*([^",]+)"', name_part)
        name_part = f"{quoted.group(2)} {quoted.group(1)}" if quoted else name_part.strip('"').strip()  # "Kim, Sarah"
        if not name_part:
            local = address.group(1).split("@")[0]
            name_part = " ".join(part.capitalize() for part in re.split(r"[._-]+", local) if part)
        entry = name_part
    name, role = _name_and_role(entry)
    name = name.strip().strip('"')
    if not name or not _looks_like_name(name):
        return None
    return Person(name=name, role=role.strip() if role and role.strip() else None)


def _name_and_role(entry: str) -> tuple[str, str | None]:
    if match := _PAREN_ROLE_RE.match(entry):
        return match.group("name"), match.group("role")
    for separator in (_DASH_ROLE_RE, re.compile(",")):
        parts = separator.split(entry, maxsplit=1)
        if len(parts) == 2:
            return parts[0], parts[1]
    return entry, None


def _split_people(value: str) -> list[Person]:
    """People of a header or participants line. Commas inside "(Role, Team)" never separate; when the line
    has addresses, only a comma after an address does ("Sarah Kim, Program Manager <sarah@x.com>")."""
    has_address = "@" in value
    parts: list[str] = []
    current = ""
    for piece in re.split(r"([;,])", value):
        if piece in (",", ";") and current.count("(") == current.count(")") and (not has_address or "@" in current):
            parts.append(current)
            current = ""
        else:
            current += piece
    parts.append(current)
    people: list[Person] = []
    for part in parts:
        if people and not people[-1].role and not has_address and _ROLE_WORD_RE.search(part):
            people[-1].role = part.strip()  # "Chloe Park, QA Engineer": the comma introduced a role
        elif part.strip() and (person := parse_person(part)) is not None:
            people.append(person)
    return people


class _PeopleIndex:
    """Ordered, de-duplicated people; a later mention may add the role an earlier one lacked."""

    def __init__(self) -> None:
        self.people: list[Person] = []

    def add(self, person: Person) -> Person:
        for known in self.people:
            if known.name.lower() == person.name.lower() or (
                len(person.name.split()) == 1 and person.name.lower() == known.first.lower()
            ):
                if person.role and not known.role:
                    known.role = person.role
                return known
        self.people.append(person)
        return person


def _label_of(line: str) -> tuple[str, str] | None:
    match = _LABEL_LINE_RE.match(line)
    return (match.group("label").strip(), match.group("text").strip()) if match else None


def _short_value(text: str) -> bool:
    return len(text.split()) <= 8 and not re.search(r"[.!?]\s", text + " ")


@dataclass
class _Layout:
    headers: dict[str, str] = field(default_factory=dict)
    stated: list[Person] = field(default_factory=list)
    agenda: list[str] = field(default_factory=list)
    body_line: int = 0
    speakers: set[str] = field(default_factory=set)  # labels that are dialogue speakers


def _layout(lines: list[str]) -> _Layout:
    """Split the header area (key lines, participants and agenda blocks, a title line) from the body, and
    decide which 'Label:' prefixes are speakers: a label is a speaker when it repeats or names a stated
    participant, or looks like a name once a dialogue exists, so one-off 'Note: ...' lines stay prose."""
    layout = _Layout()
    labelled = [_label_of(line) for line in lines]
    counts = Counter(lab[0] for lab in labelled if lab and lab[1])
    block: str | None = None
    index = 0
    block_entries = 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or set(stripped) <= set("=-_*#~"):
            if block_entries:
                block, block_entries = None, 0  # a blank line after the entries closes the block
            continue
        label = labelled[index]
        key = label[0].lower() if label else ""
        if label and _is_header_key(key):
            layout.headers.setdefault(key, label[1])
            block = key if key in _PEOPLE_BLOCK_KEYS or key == "agenda" else None
            block_entries = 0
            if label[1] and key in _PEOPLE_BLOCK_KEYS:
                layout.stated.extend(_split_people(label[1]))
            elif label[1] and key == "agenda":
                layout.agenda.extend(p.strip() for p in re.split(r";|,(?![^()]*\))", label[1]) if p.strip())
            continue
        if block in _PEOPLE_BLOCK_KEYS and (not label or (_short_value(label[1]) and (
                counts[label[0]] < 2 or _ROLE_WORD_RE.search(label[1])))):  # "Ben Ito: Backend Developer"
            person = parse_person(f"{label[0]} ({label[1]})" if label and label[1] else stripped)
            if person:
                layout.stated.append(person)
                block_entries += 1
                continue
            if _BULLET_RE.match(line):
                continue  # an entry we cannot read ("- TBD") does not end the header
        if block == "agenda" and (_BULLET_RE.match(line) or line[:1].isspace()):
            layout.agenda.append(_BULLET_RE.sub("", stripped))
            block_entries += 1
            continue
        if label and counts[label[0]] < 2 and _short_value(label[1]) and not _is_stated(label[0], layout.stated):
            layout.headers.setdefault(key, label[1])  # e.g. "Meeting Transcript: Q3 Planning"
            continue
        if not label and not layout.headers.get("title") and index == _first_nonblank(lines) and _short_value(stripped):
            layout.headers["title"] = stripped.strip("#*= ")
            continue
        break
    else:
        index = len(lines)
    layout.body_line = index
    stated_names = {p.name.lower() for p in layout.stated} | {p.first.lower() for p in layout.stated}
    repeated = {lab for lab, n in counts.items() if n >= 2 and not _is_header_key(lab.lower())}
    has_dialogue = bool(stated_names) or bool(repeated)
    for lab in counts:
        core = _strip_role(lab)
        if _is_header_key(lab.lower()) or len(core.split()) > 6 or not core:
            continue
        if lab in repeated or core.lower() in stated_names or (has_dialogue and _looks_like_name(lab)):
            layout.speakers.add(lab)
    return layout


def _is_stated(label: str, stated: list[Person]) -> bool:
    core = _strip_role(label).lower()
    return any(core in (p.name.lower(), p.first.lower()) for p in stated)


def _first_nonblank(lines: list[str]) -> int:
    return next((i for i, line in enumerate(lines) if line.strip()), 0)


def _dialogue(lines: list[str], speakers: set[str]) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """Speaker turns (continuation lines appended), the raw labels in order, and the lines outside dialogue."""
    turns: list[tuple[str, str]] = []
    labels: list[str] = []
    prose: list[str] = []
    for line in lines:
        label = _label_of(line)
        stripped = line.strip()
        if label and label[0] in speakers:
            if label[0] not in labels:
                labels.append(label[0])
            turns.append(label)
        elif not stripped or set(stripped) <= set("=-_*#~") or (stripped[0] in "[(" and stripped[-1] in "])"):
            continue  # separators and stage directions such as "[Meeting ends]"
        elif turns:
            turns[-1] = (turns[-1][0], f"{turns[-1][1]} {stripped}")
        else:
            prose.append(stripped)
    return turns, labels, prose


def _paragraphs(lines: list[str]) -> list[str]:
    """Blank-line separated paragraphs; each bullet line is its own paragraph; quoted reply lines dropped."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in [*lines, ""]:
        stripped = line.strip()
        if not stripped or _BULLET_RE.match(line) or stripped.startswith(">"):
            if current:
                paragraphs.append(" ".join(current))
            current = []
            if stripped and not stripped.startswith(">"):
                current = [_BULLET_RE.sub("", stripped)]
            continue
        current.append(stripped)
    return paragraphs


def _email_body(lines: list[str], sender: Person | None) -> tuple[list[str], str]:
    """Body lines without greeting, sign-off and signature; the sender's role is read from the signature.

    Returns (body lines, greeting text after 'Hi'/'Dear')."""
    body = list(lines)
    greeted = ""
    first = _first_nonblank(body)
    if body and (greeting := _GREETING_RE.match(body[first].strip())) and len(body[first].split()) <= 8:
        greeted = greeting.group("who")
        body = body[first + 1:]
    nonblank = [i for i, line in enumerate(body) if line.strip()]
    for i in reversed(nonblank[-15:]):
        if _SIGNOFF_RE.match(body[i].strip()):
            signature = [line.strip() for line in body[i + 1:] if line.strip()]
            if sender and signature and signature[0].lower().startswith(sender.first.lower()):
                titled = parse_person(signature[0])
                role = titled.role if titled and titled.role else (signature[1] if len(signature) > 1 else None)
                if role and not sender.role and not re.search(r"[@\d]", role) and len(role.split()) <= 8:
                    sender.role = role.split("|")[0].strip()
            body = body[:i]
            break
    return body, greeted


def _build(document: str) -> Analysis:
    lines = [_MARKDOWN_LABEL_RE.sub(r"\1\2\3\4", line).lstrip("#").rstrip()
             for line in document.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    layout = _layout(lines)
    headers = layout.headers
    index = _PeopleIndex()
    for person in layout.stated:
        index.add(person)
    is_email = "from" in headers and ("to" in headers or "subject" in headers)
    analysis = Analysis(
        kind="email" if is_email else "text",
        title=headers.get("subject") or headers.get("meeting title") or headers.get("title") or headers.get("meeting"),
        date=parse_date(headers["date"]) if headers.get("date") else None,
        headers=headers, people=index.people, speaker_labels=[], turns=[], sentences=[],
        agenda=[a for a in layout.agenda if a],
    )
    body_lines = lines[layout.body_line:]
    paragraphs: list[str] = []
    if is_email:
        from_people = _split_people(headers.get("from", ""))
        sender = index.add(from_people[0]) if from_people else None
        analysis.sender = sender.name if sender else None
        analysis.recipients = [index.add(p).name for p in _split_people(headers.get("to", ""))]
        analysis.cc = [index.add(p).name for p in _split_people(headers.get("cc", ""))]
        body_lines, greeted = _email_body(body_lines, sender)
        for mention in re.split(r",| and | & ", greeted):
            mentioned = analysis.person(mention) if mention.strip() else None
            if mentioned is not None:
                analysis.addressees.append(mentioned.name)
        paragraphs = _paragraphs(body_lines)
    else:
        turns_raw, analysis.speaker_labels, prose = _dialogue(body_lines, layout.speakers)
        paragraphs = prose if not turns_raw else []
        for label in analysis.speaker_labels:
            if analysis.person(label) is None:
                core = _strip_role(label)
                role = label[len(core):].strip()
                index.add(Person(core, role[1:-1].strip() if role.startswith("(") and role.endswith(")") else None))
        if turns_raw:
            analysis.kind = "meeting"
        for label, text in turns_raw:
            speaker = analysis.person(label)
            turn = Turn(speaker=speaker.name if speaker else _strip_role(label), text=clean_text(text))
            for sentence_text in split_sentences(text):
                turn.sentence_ids.append(len(analysis.sentences))
                analysis.sentences.append(Sentence(len(analysis.sentences), sentence_text, turn.speaker,
                                                   len(analysis.turns), content_terms(sentence_text)))
            analysis.turns.append(turn)
    for paragraph in paragraphs:
        for sentence_text in split_sentences(paragraph):
            analysis.sentences.append(Sentence(len(analysis.sentences), sentence_text, analysis.sender, None,
                                               content_terms(sentence_text)))
    analysis.reference_date = analysis.date or parse_date(document[:4000])
    return analysis


_CACHE: OrderedDict[str, Analysis] = OrderedDict()
_CACHE_SIZE = 64
# Held while building too: concurrent requests for one new document then parse it once. The work is pure
# Python, so threads would take turns under the GIL anyway; the lock costs no parallelism.
_CACHE_LOCK = threading.Lock()


def analyze(document: str) -> Analysis:
    """The cached analysis of `document` (treat it as read-only: it is shared between calls)."""
    key = hashlib.sha256(document.encode("utf-8", "replace")).hexdigest()
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
        analysis = _build(document)
        _CACHE[key] = analysis
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return analysis
