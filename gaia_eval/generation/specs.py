"""The shapes of the phrase-bank data: what a meeting or e-mail type, an agenda item and a planted figure are.

Templates use `str.format` placeholders. Speaker slots (`lead`, `a`, `b`, `c`, `x`, `y`, `owner` in meetings;
`sender`, `to1`, `to2`, `cc1`, `owner` in e-mails) expand to a first name; figures, picks and the document's
shared variables (`company`, `project`, `client`, ...) expand to their text. In an e-mail decision, `{you}` and
`{your}` read "you"/"your" in the text and name the first recipient in the recorded fact. A talk line (or body
paragraph) that starts with "?" is optional: the length fitter adds it when the document needs words, a run of
consecutive optional talk lines as one piece.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

FigureKind = Literal["amount", "date", "count", "percent", "duration"]

# One line of dialogue: (speaker slot, template).
Line = tuple[str, str]
# A short exchange of lines that belongs together (a greeting and its answer, a question and its reply).
Exchange = tuple[Line, ...]


@dataclass(frozen=True)
class FigureSpec:
    """A number the text mentions. `planted` figures become key facts; the others are context (a first quote,
    last year's number) that makes the planted one a real choice."""

    name: str  # placeholder name in templates
    kind: FigureKind
    label: str  # what the figure is, e.g. "approved budget for the {vendor} migration" (planted figures only)
    low: int  # amounts, counts, percents, durations: the range; dates: days after the document date
    high: int
    step: int = 1
    unit: str | None = None  # counts: the counted noun; durations: "weeks", "days", "ms", ...
    planted: bool = True


@dataclass(frozen=True)
class ActionSpec:
    owner: str  # speaker slot of the person who takes the task
    task: str  # imperative, lowercase first word: "send the revised quote to {client}"
    days: tuple[int, int] = (2, 14)  # due date range after the document date


@dataclass(frozen=True)
class MeetingItem:
    """One agenda item: a topic, the talk around it, at most one decision and the tasks it produces."""

    topic: str  # short noun phrase; the text must contain it (the intro line or the talk)
    talk: tuple[Line, ...]
    decision: str | None  # imperative, lowercase first word: "move the launch to {launch}"
    actions: tuple[ActionSpec, ...]
    figures: tuple[FigureSpec, ...] = ()
    picks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # item variables drawn at random


@dataclass(frozen=True)
class MeetingType:
    title: str  # template, e.g. "{project} Sprint Planning"
    label: str  # in prose: "sprint planning meeting"
    lead_roles: tuple[str, ...]
    member_roles: tuple[str, ...]
    size: tuple[int, int]  # participants including the lead (and the other side)
    minutes: tuple[int, ...]
    in_person: float  # probability that the meeting happens in a room rather than on a call
    openings: tuple[Exchange, ...]  # the type's own opening exchanges (slots lead, p, q)
    intros: tuple[str, ...]  # lead's line that moves on to an item: placeholders {topic} and {a}
    closings: tuple[Exchange, ...]
    items: tuple[MeetingItem, ...]
    other_roles: tuple[str, ...] = ()  # the client side of a client call: slots x, y
    other_size: tuple[int, int] = (0, 0)
    decision_shapes: tuple[Exchange, ...] = ()  # overrides the shared shapes: placeholder {decision}
    agenda: bool = True  # whether the lead lists the topics at the start
    first_intros: tuple[str, ...] = ()  # opens the first item; empty: the shared ones
    side_talk: tuple[Exchange, ...] = ()  # the type's own talk that plants nothing (slots lead, p, q)
    deliberation: tuple[Exchange, ...] = ()  # the type's own, added to the shared pool (alone in a one-on-one)
    one_on_one: bool = False  # two people: no group small talk, cross-talk or group deliberation


@dataclass(frozen=True)
class EmailItem:
    """One subject of an e-mail: paragraphs about a topic, at most one decision and the tasks it produces."""

    topic: str
    body: tuple[str, ...]  # paragraph templates; "?" prefix marks an optional paragraph
    decision: str | None
    actions: tuple[ActionSpec, ...]
    figures: tuple[FigureSpec, ...] = ()
    picks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    decision_line: str | None = None  # a sentence with {decision} replacing the shared decision shapes
    request: str = ""  # what the first recipient asked about this topic in the earlier, quoted message


@dataclass(frozen=True)
class EmailType:
    subjects: tuple[str, ...]
    label: str  # in prose: "project update"
    sender_roles: tuple[str, ...]
    to_roles: tuple[str, ...]
    to_count: tuple[int, int]
    cc_roles: tuple[str, ...]
    cc_count: tuple[int, int]
    openings: tuple[str, ...]
    closings: tuple[str, ...]
    items: tuple[EmailItem, ...]
    external: Literal["none", "client", "vendor"] = "none"  # who the recipients work for
    sign_offs: tuple[str, ...] = ("Best,", "Thanks,", "Best regards,", "Cheers,", "Thanks again,", "Kind regards,")
    decision_lines: tuple[str, ...] = ()  # override the shared decision sentences: placeholder {decision}
    asides: tuple[str, ...] = ()  # the type's own paragraphs that plant nothing
    details: tuple[str, ...] = ()  # more on any subject of this type: placeholder {topic}
    recipient_starts_thread: bool = False  # the quoted thread begins with the recipient's message
