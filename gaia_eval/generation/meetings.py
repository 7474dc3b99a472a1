"""Builds one synthetic meeting transcript (header, participants, dialogue) and the facts planted in it."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from gaia_eval.artifacts.documents import Participant, PlantedFacts
from gaia_eval.generation import scenario as sc
from gaia_eval.generation.banks import chatter, pools
from gaia_eval.generation.banks.meetings import MEETING_SPECS
from gaia_eval.generation.factprose import document_summary
from gaia_eval.generation.planting import (
    PlantedAction,
    PlantedItem,
    Planter,
    action_items,
    cap_facts,
    keep_first_actions,
)
from gaia_eval.generation.specs import Exchange, MeetingType

# Words of one agenda item with its required lines and a little discussion; sets how many items fit a target.
_WORDS_PER_ITEM = 140
_NAME_WORDS = 2  # every speaker label is "First Last"

Slots = dict[str, sc.Person]


@dataclass
class Segment:
    """An exchange that appears whole or not at all. `slots` None: a filler, cast when the text is written."""

    exchange: Exchange
    values: dict[str, str]
    slots: Slots | None
    words: int
    piece: sc.OptionalPiece | None = None  # None: always included


@dataclass
class Cast:
    lead: sc.Person
    members: list[sc.Person]  # our side, without the lead
    others: list[sc.Person]  # the other side (the client's people), if any

    @property
    def everyone(self) -> list[sc.Person]:
        return [self.lead, *self.members, *self.others]


@dataclass
class Build:
    """The state of one meeting under construction."""

    rng: random.Random
    spec: MeetingType
    cast: Cast
    values: dict[str, str]
    lean: bool = False  # a very short target: shortest shapes, no optional opening
    segments: list[Segment] = field(default_factory=list)

    def choose(self, options: tuple[str, ...]) -> str:
        """A random line, or the shortest one in a lean build."""
        if self.lean:
            return min(options, key=len)
        return self.rng.choice(options)

    def item_slots(self, item_index: int) -> Slots:
        """Who plays a, b, c (our side) and x, y (other side) in one item, rotated so items have different voices."""
        slots = {"lead": self.cast.lead}
        for names, people in ((("a", "b", "c"), self.cast.members), (("x", "y"), self.cast.others)):
            if people:
                shift = item_index % len(people)
                slots.update(zip(names, people[shift:] + people[:shift], strict=False))
        return slots

    def filler_slots(self, exchange: Exchange) -> Slots | None:
        """Random distinct people for a filler: x, y from the other side, p, q, r from anyone else; the lead
        stands in when the room is small and the exchange gives the lead no part of its own. None when there
        are not enough people."""
        needed = {slot for slot, _ in exchange} - {"lead"}
        other_side = sorted(needed & {"x", "y"})
        anyone = sorted(needed - {"x", "y"})
        others = self.rng.sample(self.cast.others, len(self.cast.others))
        if len(others) < len(other_side):
            return None
        slots = {"lead": self.cast.lead, **dict(zip(other_side, others, strict=False))}
        people = [p for p in self.cast.everyone if p not in slots.values()]
        self.rng.shuffle(people)
        if "lead" not in {slot for slot, _ in exchange}:
            people.append(self.cast.lead)
        if len(people) < len(anyone):
            return None
        return {**slots, **dict(zip(anyone, people, strict=False))}

    def spoken(self, exchange: Exchange, slots: Slots, values: dict[str, str]) -> list[tuple[sc.Person, str]]:
        merged = {**self.values, **values, **{k: p.first for k, p in slots.items()}}
        return [(slots[slot.lstrip("?")], sc.fill(text, merged)) for slot, text in exchange]

    def add(self, exchange: Exchange, slots: Slots | None, values: dict[str, str] | None = None,
            optional_key: float | None = None) -> bool:
        """Queue an exchange; False when this cast cannot perform it. Fillers (slots None) are cast later."""
        values = values or {}
        trial = slots if slots is not None else self.filler_slots(exchange)
        if trial is None or any(slot.lstrip("?") not in trial for slot, _ in exchange):
            return False
        words = sum(sc.count_words(text) + _NAME_WORDS for _, text in self.spoken(exchange, trial, values))
        piece = None if optional_key is None else sc.OptionalPiece(words, optional_key)
        self.segments.append(Segment(exchange, values, slots, words, piece))
        return True

    def add_any(self, exchanges: tuple[Exchange, ...] | list[Exchange], slots: Slots | None = None,
                values: dict[str, str] | None = None) -> None:
        """Add one exchange, chosen at random (lean: the shortest) among those this cast can perform."""
        options = list(exchanges)
        self.rng.shuffle(options)
        if self.lean:
            options.sort(key=lambda exchange: sum(len(text) for _, text in exchange))
        if not any(self.add(exchange, slots, values) for exchange in options):
            raise ValueError(f"phrase bank has no exchange for a cast of {len(self.cast.everyone)}")


def generate_meeting(doc_type: str, rng: random.Random, target_tokens: int) -> tuple[str, PlantedFacts]:
    spec = MEETING_SPECS[doc_type]
    today = sc.document_date(rng)
    (company, domain), (client, client_domain) = rng.sample(pools.COMPANIES, 2)
    cast = cast_meeting(rng, spec, domain, client, client_domain)
    values = sc.shared_values(rng, today, company, client)
    values["reviewee"] = cast.members[0].name  # the performance review's title names the person reviewed
    build = Build(rng, spec, cast, values)

    target_words = target_tokens / sc.TOKENS_PER_WORD
    count = max(2, min(5, int((target_words - 60) // _WORDS_PER_ITEM)))
    planter = Planter(rng, today)
    chosen = rng.sample(list(spec.items), count)
    planted = [planter.plant(item, build.item_slots(i), values) for i, item in enumerate(chosen)]
    cap_facts(rng, planted)
    values["agenda"] = sc.join_names([f"the {p.topic}" for p in planted])

    in_person = rng.random() < spec.in_person
    header, _ = meeting_header(rng, spec, values, today, in_person, cast)
    required = _compose(build, planted, in_person, sc.count_words(header))
    if required > target_words * 1.08:  # even the essentials are too long: say them as briefly as possible
        build.lean = True
        keep_first_actions(planted)
        required = _compose(build, planted, in_person, sc.count_words(header))
    sc.fit_length(required, [s.piece for s in build.segments if s.piece is not None], target_words)
    text = header + _dialogue(build)

    facts = PlantedFacts(
        title=sc.fill(spec.title, values),
        summary="",
        participants=[Participant(name=p.name, role=p.role) for p in cast.everyone],
        topics=[p.topic for p in planted],
        decisions=[sc.capitalize_first(p.decision) for p in planted if p.decision],
        action_items=action_items(planted),
        key_figures=[f for p in planted for f in p.figures],
    )
    return text, facts.model_copy(update={"summary": document_summary(facts, "meeting", spec.label)})


def _compose(build: Build, planted: list[PlantedItem], in_person: bool, header_words: int) -> int:
    """Queue every segment of the meeting; returns the words that are always included."""
    build.segments = []
    fillers = _filler_pools(build.rng, build.spec, in_person)
    _opening(build, fillers)
    for i, item in enumerate(planted):
        _item_segments(build, item, fillers, first=i == 0)
        if i < len(planted) - 1:
            _between_items(build, fillers)
    _closing(build, fillers)
    return header_words + sum(s.words for s in build.segments if s.piece is None)


def cast_meeting(rng: random.Random, spec: MeetingType, domain: str, client: str, client_domain: str) -> Cast:
    """The people of a meeting of this type: a lead, members, and (for client-facing types) the client's."""
    casting = sc.Casting(rng)
    size = rng.randint(*spec.size)
    other_count = min(rng.randint(*spec.other_size), size - 3) if spec.other_roles else 0
    lead = casting.person(rng.choice(spec.lead_roles), domain)
    members = casting.people(spec.member_roles, size - 1 - other_count, domain)
    others = casting.people(spec.other_roles, other_count, client_domain, suffix=f", {client}")
    return Cast(lead, members, others)


def meeting_header(rng: random.Random, spec: MeetingType, values: dict[str, str], today: dt.date, in_person: bool,
                   cast: Cast) -> tuple[str, int]:
    """The transcript's header (title, date, time, place, participants) and the meeting's length in minutes;
    shared with the LLM generator, whose transcripts get exactly this header."""
    minutes = rng.choice(spec.minutes)
    start = dt.datetime.combine(today, dt.time(rng.randint(8, 16), rng.choice((0, 30))))
    end = start + dt.timedelta(minutes=minutes)
    if in_person:
        where = f"{rng.choice(pools.ROOM_NAMES)}, {values['city']} office"
    else:
        where = f"{rng.choice(pools.VIDEO_TOOLS)} call"
    lines = [
        sc.fill(spec.title, values),
        f"Date: {sc.long_date(today)}",
        f"Time: {_clock(start)} - {_clock(end)} {rng.choice(pools.TIME_ZONES)}",
        f"Duration: {minutes} minutes",
        f"Location: {where}",
        "",
        "Participants:",
        *(f"- {p.name} ({p.role})" for p in cast.everyone),
        "",
        "Transcript:",
        "",
    ]
    return "\n".join(lines) + "\n", minutes


def _clock(moment: dt.datetime) -> str:
    return moment.strftime("%I:%M %p").lstrip("0")


def _filler_pools(rng: random.Random, spec: MeetingType, in_person: bool) -> dict[str, list[Exchange]]:
    """Every filler exchange at most once per meeting, in a per-meeting random order."""
    group = not spec.one_on_one
    if in_person:
        greeting, hiccups = chatter.ROOM_OPENINGS, chatter.ROOM_HICCUPS if group else ()
    else:
        greeting, hiccups = chatter.CALL_OPENINGS, chatter.CALL_HICCUPS + (chatter.GROUP_CALL_HICCUPS if group else ())
    banks = {
        "greeting": greeting if group else chatter.PAIR_OPENINGS,
        "small_talk": chatter.SMALL_TALK + (chatter.GROUP_SMALL_TALK if group else ()),
        "hiccup": hiccups,
        "tangent": chatter.TANGENTS + (chatter.GROUP_TANGENTS if group else ()),
        "crosstalk": chatter.CROSSTALK if group else (),
        "deliberation": spec.deliberation + (chatter.DELIBERATION if group else ()),
        "side": spec.side_talk,
        "after_decision": chatter.AFTER_DECISION if group else (),
    }
    return {kind: rng.sample(list(bank), len(bank)) for kind, bank in banks.items()}


def _add_fillers(build: Build, fillers: dict[str, list[Exchange]], plan: tuple[tuple[str, float, float], ...],
                 slots: Slots | None = None, values: dict[str, str] | None = None) -> None:
    """Offer fillers to the length fitter: (kind, low, high) draws a sort key; low keys are added first."""
    for kind, low, high in plan:
        if fillers[kind]:
            build.add(fillers[kind].pop(), slots, values, build.rng.uniform(low, high))


def _opening(build: Build, fillers: dict[str, list[Exchange]]) -> None:
    if not build.add(fillers["greeting"].pop(), None, optional_key=0.01):
        build.add_any(fillers["greeting"])
    _add_fillers(build, fillers, (("small_talk", 0.4, 1.6), ("small_talk", 0.9, 2.2), ("small_talk", 1.5, 2.8)))
    if build.lean:
        build.add(build.rng.choice(build.spec.openings), None, optional_key=0.04)
    else:
        build.add_any(build.spec.openings)
    if build.spec.agenda:
        build.add((("lead", build.rng.choice(chatter.AGENDA_LINES)),), {"lead": build.cast.lead}, optional_key=0.02)


def _item_segments(build: Build, item: PlantedItem, fillers: dict[str, list[Exchange]], first: bool) -> None:
    """The item's talk (with the odd hiccup inside it), a little deliberation, the decision, the hand-outs.

    Only the talk's first line and the lines that state a figure are required; the other lines join the
    optional pool with the lowest keys, so they are always said unless the target length is very short."""
    rng, spec = build.rng, build.spec
    talk = [line for line in item.meeting_spec.talk if line[0].lstrip("?") in item.slots]
    figure_marks = tuple("{" + fig.name + "}" for fig in item.spec.figures)
    essential = [i == 0 or any(mark in text for mark in figure_marks) for i, (_, text) in enumerate(talk)]
    if talk[0][0] != "lead":  # an item whose talk the lead opens needs no separate introduction
        said = " ".join(text for (_, text), needed in zip(talk, essential, strict=True) if needed)
        topic_said = item.topic in sc.fill(said, {**build.values, **item.values})
        intros = (spec.first_intros or chatter.FIRST_INTROS) if first else spec.intros
        opener = {**item.slots, "a": item.slots[talk[0][0]]}  # the lead hands over to whoever speaks first
        build.add((("lead", build.choose(intros)),), opener, item.values, 0.03 if topic_said and not first else None)

    parts: list[tuple[Exchange, Slots | None, float | None]] = []
    run: list = []  # consecutive optional lines: said or left out together

    def flush() -> None:
        if run:
            key = rng.uniform(0.1, 1.0) if run[0][0].startswith("?") else rng.uniform(0.0, 0.1)
            parts.append((tuple(run), item.slots, key))
            run.clear()

    for line, needed in zip(talk, essential, strict=True):
        if needed:
            flush()
            parts.append(((line,), item.slots, None))
        else:
            if run and run[0][0].startswith("?") != line[0].startswith("?"):
                flush()
            run.append(line)
    flush()
    # A hiccup or some cross-talk lands between two thoughts, never between a question and its answer.
    for kind, low, high in (("hiccup", 0.9, 2.4), ("crosstalk", 0.8, 2.2)):
        breaks = [i for i in range(1, len(parts) + 1) if not parts[i - 1][0][-1][1].endswith("?")]
        if fillers[kind] and breaks:
            parts.insert(rng.choice(breaks), (fillers[kind].pop(), None, rng.uniform(low, high)))
    for exchange, slots, key in parts:
        build.add(exchange, slots, item.values, key)

    plan = (("deliberation", 0.2, 1.4), ("deliberation", 0.7, 2.0), ("deliberation", 1.2, 2.6),
            ("deliberation", 1.6, 3.0))
    if spec.one_on_one:  # a one-on-one wanders more, and has nobody else to fill in with
        _add_fillers(build, fillers, (("side", 0.4, 1.6), ("side", 1.0, 2.4)))
    _add_fillers(build, fillers, plan, _deliberation_slots(item), item.values)
    if item.decision:
        _decision(build, item)
        if not spec.one_on_one:
            _add_fillers(build, fillers, (("after_decision", 0.5, 2.0),), _deliberation_slots(item), item.values)
    for action in item.kept_actions:
        _assignment(build, item, action)


def _deliberation_slots(item: PlantedItem) -> Slots:
    """The item's people; with nobody left to play `b`, the lead does (one-on-ones)."""
    return item.slots if "b" in item.slots else {**item.slots, "b": item.slots["lead"]}


def _decision(build: Build, item: PlantedItem) -> None:
    values = {**item.values, "decision": item.decision or "", "ack": build.rng.choice(chatter.ACKS)}
    build.add_any(build.spec.decision_shapes or chatter.DECISION_SHAPES, item.slots, values)


def _assignment(build: Build, item: PlantedItem, action: PlantedAction) -> None:
    rng = build.rng
    values = {**item.values, "task": action.task, "due": action.due_text, "ok": rng.choice(chatter.OKS)}
    if action.owner is build.cast.lead:
        build.add((("lead", build.choose(chatter.SELF_ASSIGN_SHAPES)),), {"lead": build.cast.lead}, values)
    else:
        build.add_any(chatter.ASSIGN_SHAPES, {"lead": build.cast.lead, "owner": action.owner}, values)


def _between_items(build: Build, fillers: dict[str, list[Exchange]]) -> None:
    _add_fillers(build, fillers, (("side", 0.4, 1.6), ("tangent", 0.7, 2.0), ("side", 1.2, 2.6), ("tangent", 1.4, 2.8)))


def _closing(build: Build, fillers: dict[str, list[Exchange]]) -> None:
    _add_fillers(build, fillers, (("small_talk", 0.6, 2.0), ("small_talk", 1.6, 3.0)))
    build.add_any(build.spec.closings + chatter.CLOSINGS)


def _dialogue(build: Build) -> str:
    """`Name: text` lines. Fillers are cast now, so that they do not start with the speaker who just spoke;
    a speaker's consecutive lines become one turn."""
    turns: list[tuple[sc.Person, str]] = []
    for segment in build.segments:
        if segment.piece is not None and not segment.piece.chosen:
            continue
        slots = segment.slots
        if slots is None:
            previous = turns[-1][0] if turns else None
            for _ in range(6):
                slots = build.filler_slots(segment.exchange)
                if slots and slots[segment.exchange[0][0]] is not previous:
                    break
        assert slots is not None  # add() checked that this cast can perform the exchange
        for person, text in build.spoken(segment.exchange, slots, segment.values):
            if turns and turns[-1][0] is person:
                turns[-1] = (person, f"{turns[-1][1]} {text}")
            else:
                turns.append((person, text))
    return "\n".join(f"{person.name}: {text}" for person, text in turns) + "\n"
