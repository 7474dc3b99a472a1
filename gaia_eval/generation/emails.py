"""Builds one synthetic business e-mail (headers, greeting, body, closing, signature) and the facts planted in it."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from gaia_eval.artifacts.documents import EmailHeaders, Participant, PlantedFacts
from gaia_eval.generation import scenario as sc
from gaia_eval.generation.banks import letters, pools
from gaia_eval.generation.banks.emails import EMAIL_SPECS
from gaia_eval.generation.factprose import document_summary
from gaia_eval.generation.planting import PlantedItem, Planter, action_items, cap_facts
from gaia_eval.generation.specs import EmailType

_WORDS_PER_ITEM = 120  # one subject with its context paragraph and its decision
_QUOTE_FROM_TOKENS = 1500  # shorter e-mails never carry the quoted earlier message
OWNER_FALLBACKS = {"to2": "to1", "cc1": "sender"}  # a task for someone the e-mail lacks goes to the next in line


@dataclass
class Paragraph:
    """A block of text; optional ones carry a piece for the length fitter. `item` groups an item's paragraphs,
    so its decision can join the paragraph before it when that one is short."""

    text: str
    piece: sc.OptionalPiece | None = None
    item: int | None = None
    resolution: bool = False  # the item's decision and task sentences

    @property
    def included(self) -> bool:
        return self.piece is None or self.piece.chosen


def _optional(text: str, key: float, item: int | None = None) -> Paragraph:
    return Paragraph(text, sc.OptionalPiece(sc.count_words(text), key), item)


@dataclass
class Cast:
    sender: sc.Person
    to: list[sc.Person]
    cc: list[sc.Person]

    @property
    def slots(self) -> dict[str, sc.Person]:
        named = {"sender": self.sender}
        named.update({f"to{i + 1}": p for i, p in enumerate(self.to)})
        named.update({f"cc{i + 1}": p for i, p in enumerate(self.cc)})
        return named


def generate_email(doc_type: str, rng: random.Random, target_tokens: int) -> tuple[str, PlantedFacts, EmailHeaders]:
    spec = EMAIL_SPECS[doc_type]
    today = sc.document_date(rng)
    (company, domain), (client, client_domain) = rng.sample(pools.COMPANIES, 2)
    values = sc.shared_values(rng, today, company, client)
    cast = _cast(rng, spec, domain, client, client_domain, values["vendor"])
    values["today"] = sc.month_day(today)

    target_words = target_tokens / sc.TOKENS_PER_WORD
    count = max(2, min(5, int((target_words - 90) // _WORDS_PER_ITEM)))
    planter = Planter(rng, today)
    planted = [planter.plant(item, cast.slots, values, OWNER_FALLBACKS) for item in rng.sample(list(spec.items), count)]
    cap_facts(rng, planted)
    values["topics"] = sc.join_names([f"the {p.topic}" for p in planted])
    values["first_topic"] = planted[0].topic

    stamp = dt.datetime.combine(today, dt.time(rng.randint(7, 18), rng.randrange(0, 60)))
    headers = EmailHeaders(
        sender=cast.sender.mailbox,
        recipients=[p.mailbox for p in cast.to + cast.cc],
        subject=sc.fill(rng.choice(spec.subjects), values),
        date=f"{sc.long_date(today)} {stamp:%I:%M %p}".replace(" 0", " "),
    )
    head = [f"From: {headers.sender}", f"To: {', '.join(p.mailbox for p in cast.to)}"]
    if cast.cc:
        head.append(f"Cc: {', '.join(p.mailbox for p in cast.cc)}")
    head += [f"Subject: {headers.subject}", f"Date: {headers.date}", ""]
    greeting = _greeting(rng, cast.to, spec.external != "none")
    signature = [rng.choice(spec.sign_offs), cast.sender.name, f"{cast.sender.role}, {company}"]

    body = _body(rng, spec, planted, values, cast)
    tail = [_optional(rng.choice(letters.POSTSCRIPTS), rng.uniform(1.5, 3.0))]
    if spec.external != "none":
        tail.append(_optional("--\n" + rng.choice(letters.FOOTERS), rng.uniform(1.0, 2.6)))
    if target_tokens >= _QUOTE_FROM_TOKENS:
        tail += _earlier_messages(rng, spec, today, cast, planted)
    fixed = "\n".join([*head, greeting, *signature])
    required = sc.count_words(fixed) + sum(sc.count_words(p.text) for p in body + tail if p.piece is None)
    sc.fit_length(required, [p.piece for p in body + tail if p.piece is not None], target_words)

    text = "\n".join(head) + "\n" + greeting + "\n\n" + "\n\n".join(_merge_resolutions(body)) + "\n\n"
    text += "\n".join(signature) + "\n"
    text += "".join("\n" + p.text + "\n" for p in _tail_to_write(tail))
    facts = PlantedFacts(
        title=headers.subject,
        summary="",
        participants=[Participant(name=p.name, role=p.role) for p in [cast.sender, *cast.to, *cast.cc]],
        topics=[p.topic for p in planted],
        decisions=[sc.capitalize_first(p.decision) for p in planted if p.decision],
        action_items=action_items(planted),
        key_figures=[f for p in planted for f in p.figures],
    )
    return text, facts.model_copy(update={"summary": document_summary(facts, "email", spec.label)}), headers


def _cast(rng: random.Random, spec: EmailType, domain: str, client: str, client_domain: str, vendor: str) -> Cast:
    casting = sc.Casting(rng)
    sender = casting.person(rng.choice(spec.sender_roles), domain)
    if spec.external == "client":
        to_domain, to_suffix = client_domain, f", {client}"
    elif spec.external == "vendor":
        to_domain, to_suffix = vendor.lower().replace(" ", "") + ".com", f", {vendor}"
    else:
        to_domain, to_suffix = domain, ""
    to = casting.people(spec.to_roles, rng.randint(*spec.to_count), to_domain, to_suffix)
    cc = casting.people(spec.cc_roles, rng.randint(*spec.cc_count), domain)
    return Cast(sender, to, cc)


def _greeting(rng: random.Random, to: list[sc.Person], external: bool) -> str:
    names = [p.first for p in to]
    if len(names) > 2:
        return rng.choice(("Hi all,", "Hello everyone,", "Hi team,"))
    hello = rng.choice(("Hello", "Dear", "Hi") if external else ("Hi", "Hi", "Hello", "Hey"))
    return f"{hello} {sc.join_names(names)},"


def _body(rng: random.Random, spec: EmailType, planted: list[PlantedItem], values: dict[str, str],
          cast: Cast) -> list[Paragraph]:
    """Opening, then per subject its paragraphs, some more detail and its decision and tasks, with asides
    between subjects, then the closing. Only the opening, the first paragraph of each subject, its decision
    and tasks, and the closing are required; the rest is offered to the length fitter."""
    paragraphs: list[Paragraph] = []
    if rng.random() < 0.7:
        paragraphs.append(_optional(rng.choice(letters.PLEASANTRIES), rng.uniform(0.0, 0.3)))
    opening = sc.fill(rng.choice(spec.openings), values)
    if cast.cc:
        opening += " " + sc.fill(rng.choice(letters.CC_NOTES), {"name": cast.cc[0].name, "role": cast.cc[0].role})
    paragraphs.append(Paragraph(opening))
    shared_asides = letters.ASIDES + (letters.TEAM_ASIDES if spec.external == "none" else ())
    asides = _shuffled(rng, spec.asides + shared_asides)
    type_details, details = _shuffled(rng, spec.details), _shuffled(rng, letters.DETAILS)
    for index, item in enumerate(planted):
        for text in item.email_spec.body:
            if text.startswith("?"):
                paragraphs.append(_optional(sc.fill(text[1:], item.values), rng.uniform(0.1, 1.2), index))
            else:
                paragraphs.append(Paragraph(sc.fill(text, item.values), item=index))
        for pool, low, high in ((type_details, 0.8, 2.0), (type_details, 1.3, 2.5), (type_details, 1.8, 2.9),
                                (type_details, 2.2, 3.1), (details, 2.0, 3.0)):
            if pool:
                paragraphs.append(_optional(sc.fill(pool.pop(), item.values), rng.uniform(low, high), index))
        resolution = _resolution(rng, spec, item, cast)
        if resolution:
            paragraphs.append(Paragraph(resolution, item=index, resolution=True))
        for low, high in ((0.6, 1.8), (1.2, 2.6), (1.8, 3.0), (2.2, 3.2)):
            if asides and index < len(planted) - 1:
                paragraphs.append(_optional(sc.fill(asides.pop(), values), rng.uniform(low, high)))
    paragraphs.append(Paragraph(sc.fill(rng.choice(spec.closings), values)))
    return paragraphs


def _shuffled(rng: random.Random, texts: tuple[str, ...]) -> list[str]:
    return rng.sample(list(texts), len(texts))


def _resolution(rng: random.Random, spec: EmailType, item: PlantedItem, cast: Cast) -> str:
    """The decision and the task hand-outs of one item, as sentences: the sender says "I'll", a recipient is
    asked by first name, someone copied is reported on in the third person."""
    sentences = []
    if item.decision:
        shapes = spec.decision_lines or letters.DECISION_LINES
        if item.email_spec.decision_line:
            shapes = (item.email_spec.decision_line,)
        sentences.append(sc.fill(rng.choice(shapes), {**item.values, "decision": item.spoken_decision or ""}))
    for action in item.kept_actions:
        if action.owner is cast.sender:
            shapes = letters.SELF_TASK_LINES
        elif action.owner in cast.cc:
            shapes = letters.THIRD_PARTY_TASK_LINES
        else:
            shapes = letters.ASK_TASK_LINES
        values = {"owner": action.owner.first, "task": action.task, "due": action.due_text}
        sentences.append(sc.fill(rng.choice(shapes), values))
    return " ".join(sentences)


def _earlier_messages(rng: random.Random, spec: EmailType, today: dt.date, cast: Cast,
                      planted: list[PlantedItem]) -> list[Paragraph]:
    """The thread under the reply: the first recipient's message asking about each subject and, quoted inside
    it, the sender's short message that started the thread (unless the recipient started it). Every paragraph
    is optional and taken last by the fitter; the frame (attribution, greeting, sign-off) is written whenever
    any of its paragraphs is, and is charged to the first one."""
    author, reader = cast.to[0], cast.sender
    asked = sc.next_workday(today - dt.timedelta(days=rng.randint(3, 8)))
    asked = asked if asked < today else today - dt.timedelta(days=3)
    asks = [sc.fill(p.email_spec.request, p.values) for p in planted if p.email_spec.request]
    asks += rng.sample(list(letters.EARLIER_NOTES), 2)
    frame_top = Paragraph(f"On {sc.long_date(asked)}, {author.mailbox} wrote:\n> Hi {reader.first},\n>")
    frame_end = Paragraph(f"> {rng.choice(letters.EARLIER_SIGN_OFFS)}\n> {author.first}")
    quoted = [_optional(f"> {text}\n>", 2.8 + i * 0.05) for i, text in enumerate(asks)]
    quoted[0].piece.words += sc.count_words(frame_top.text + " " + frame_end.text)  # type: ignore[union-attr]
    for paragraph in (frame_top, frame_end):
        paragraph.resolution = True  # marks the frame: written with the message, never on its own
    if spec.recipient_starts_thread:
        return [frame_top, *quoted, frame_end]
    started = asked - dt.timedelta(days=rng.randint(2, 6))
    opener = _optional(f">\n> On {sc.long_date(started)}, {reader.mailbox} wrote:\n> > Hi {author.first},\n> > "
                       f"{rng.choice(letters.THREAD_STARTERS)}\n> > {reader.first}", 3.4)
    return [frame_top, *quoted, frame_end, opener]


def _tail_to_write(tail: list[Paragraph]) -> list[Paragraph]:
    """What follows the signature: the postscript and footer if chosen, then the quoted thread (frame
    included) if any of its paragraphs was chosen. The quoted message's paragraphs are written as one block."""
    written: list[Paragraph] = []
    quoted = [p for p in tail if p.resolution or p.text.startswith(">")]
    footer = [p for p in tail if p not in quoted]
    written += [p for p in footer if p.included]
    if any(p.included for p in quoted if not p.resolution):
        block = "\n".join(p.text for p in quoted if p.resolution or p.included)
        written.append(Paragraph(block))
    return written


def _merge_resolutions(paragraphs: list[Paragraph]) -> list[str]:
    """Included paragraphs as text; an item's decision joins the paragraph before it when that one belongs to
    the same item and is short."""
    texts: list[str] = []
    previous: Paragraph | None = None
    for paragraph in paragraphs:
        if not paragraph.included:
            continue
        joins = (paragraph.resolution and previous is not None and previous.item == paragraph.item
                 and sc.count_words(texts[-1]) < 70)
        if joins:
            texts[-1] = f"{texts[-1]} {paragraph.text}"
        else:
            texts.append(paragraph.text)
        previous = paragraph
    return texts
