"""The brief an LLM writes one synthetic document from: its type, cast, setting and topics.

Drawn from the offline generator's phrase banks and name pools with a seeded rng, so the same
(kind, type, variant, seed) always gives the same brief, and documents of one type differ in cast and subject.
For meetings the brief also holds the header (title, date, time, place, participants) that is put above the
dialogue the model writes, so every transcript has the offline generator's exact header format.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Literal

from gaia_eval.generation import scenario as sc
from gaia_eval.generation.banks import pools
from gaia_eval.generation.banks.emails import EMAIL_SPECS
from gaia_eval.generation.banks.meetings import MEETING_SPECS
from gaia_eval.generation.meetings import cast_meeting, meeting_header

LLMKind = Literal["meeting", "email", "pdf"]

PDF_LABELS: dict[str, str] = {
    "technical_spec": "technical specification",
    "business_proposal": "business proposal",
    "research_report": "research report",
    "project_plan": "project plan",
    "policy_document": "policy document",
    "white_paper": "white paper",
    "user_manual": "user manual",
    "financial_report": "financial report",
}
PDF_AUTHOR_ROLES: dict[str, tuple[str, ...]] = {
    "technical_spec": ("Staff Engineer", "Solutions Architect", "Engineering Lead"),
    "business_proposal": ("Account Director", "Head of Partnerships", "Business Development Manager"),
    "research_report": ("Research Scientist", "Senior Analyst", "Head of Research"),
    "project_plan": ("Program Manager", "Project Manager", "Delivery Lead"),
    "policy_document": ("Head of People", "Compliance Officer", "Director of Operations"),
    "white_paper": ("Chief Technology Officer", "Principal Consultant", "Head of Product"),
    "user_manual": ("Technical Writer", "Documentation Lead", "Product Specialist"),
    "financial_report": ("Chief Financial Officer", "Finance Director", "Financial Controller"),
}
TOPICS_PER_DOCUMENT = (3, 4)


@dataclass(frozen=True)
class Person:
    name: str
    role: str  # with the organisation for people outside the company: "Procurement Lead, Meridian Foods"
    address: str

    @property
    def mailbox(self) -> str:
        return f"{self.name} <{self.address}>"


@dataclass(frozen=True)
class Brief:
    kind: LLMKind
    doc_type: str
    label: str  # "daily standup", "project update", "technical specification"
    title: str  # meeting title, or the subject the e-mail or PDF is about
    company: str
    date: dt.date
    people: tuple[Person, ...]  # meeting: everyone, lead first; e-mail: sender, recipients, copied; PDF: the author
    topics: tuple[str, ...]
    target_tokens: int
    header: str = ""  # meetings: the header block that precedes the dialogue
    to_count: int = 0  # e-mails: people[1 : 1 + to_count] are the recipients, the rest after them are copied
    minutes: int = 0  # meetings: scheduled length

    @property
    def long_date(self) -> str:
        return sc.long_date(self.date)

    @property
    def sender(self) -> Person:
        return self.people[0]

    @property
    def recipients(self) -> tuple[Person, ...]:
        return self.people[1 : 1 + self.to_count]

    @property
    def copied(self) -> tuple[Person, ...]:
        return self.people[1 + self.to_count :]


def make_brief(kind: LLMKind, doc_type: str, variant: int, seed: int, target_tokens: int) -> Brief:
    rng = sc.seeded_rng("gaia-eval llm brief", kind, doc_type, variant, seed)
    today = sc.document_date(rng)
    (company, domain), (client, client_domain) = rng.sample(pools.COMPANIES, 2)
    values = sc.shared_values(rng, today, company, client)
    if kind == "meeting":
        return _meeting_brief(rng, doc_type, today, values, domain, client_domain, target_tokens)
    if kind == "email":
        return _email_brief(rng, doc_type, today, values, domain, client_domain, target_tokens)
    return _pdf_brief(rng, doc_type, today, values, domain, target_tokens)


def _person(person: sc.Person) -> Person:
    return Person(person.name, person.role, person.address)


def _topics(rng: random.Random, items: tuple, values: dict[str, str]) -> tuple[str, ...]:
    """A few of the type's agenda topics, their placeholders filled."""
    chosen = rng.sample(list(items), min(rng.randint(*TOPICS_PER_DOCUMENT), len(items)))
    return tuple(sc.fill(item.topic, {**values, **sc.pick_values(rng, item.picks)}, sentence=False) for item in chosen)


def _meeting_brief(rng: random.Random, doc_type: str, today: dt.date, values: dict[str, str], domain: str,
                   client_domain: str, target_tokens: int) -> Brief:
    spec = MEETING_SPECS[doc_type]
    cast = cast_meeting(rng, spec, domain, values["client"], client_domain)
    everyone = cast.everyone
    values = {**values, "reviewee": cast.members[0].name, "feature": rng.choice(pools.FEATURES)}
    title = sc.fill(spec.title, values)
    header, minutes = meeting_header(rng, spec, values, today, rng.random() < spec.in_person, cast)
    return Brief(
        kind="meeting",
        doc_type=doc_type,
        label=spec.label,
        title=title,
        company=values["company"],
        date=today,
        people=tuple(_person(p) for p in everyone),
        topics=_topics(rng, spec.items, values),
        target_tokens=target_tokens,
        header=header,
        minutes=minutes,
    )


def _email_brief(rng: random.Random, doc_type: str, today: dt.date, values: dict[str, str], domain: str,
                 client_domain: str, target_tokens: int) -> Brief:
    spec = EMAIL_SPECS[doc_type]
    casting = sc.Casting(rng)
    sender = casting.person(rng.choice(spec.sender_roles), domain)
    if spec.external == "client":
        to_domain, to_suffix = client_domain, f", {values['client']}"
    elif spec.external == "vendor":
        to_domain, to_suffix = values["vendor"].lower().replace(" ", "") + ".com", f", {values['vendor']}"
    else:
        to_domain, to_suffix = domain, ""
    to = casting.people(spec.to_roles, rng.randint(*spec.to_count), to_domain, to_suffix)
    cc = casting.people(spec.cc_roles, rng.randint(*spec.cc_count), domain)
    values = {**values, "today": sc.month_day(today), "feature": rng.choice(pools.FEATURES)}
    topics = _topics(rng, spec.items, values)
    values["first_topic"] = topics[0]
    return Brief(
        kind="email",
        doc_type=doc_type,
        label=spec.label,
        title=sc.fill(rng.choice(spec.subjects), values),
        company=values["company"],
        date=today,
        people=tuple(_person(p) for p in [sender, *to, *cc]),
        topics=topics,
        target_tokens=target_tokens,
        to_count=len(to),
    )


def _pdf_brief(rng: random.Random, doc_type: str, today: dt.date, values: dict[str, str], domain: str,
               target_tokens: int) -> Brief:
    author = sc.Casting(rng).person(rng.choice(PDF_AUTHOR_ROLES[doc_type]), domain)
    subject = f"the {values['project']} {values['product']}"
    return Brief(
        kind="pdf",
        doc_type=doc_type,
        label=PDF_LABELS[doc_type],
        title=subject,
        company=values["company"],
        date=today,
        people=(_person(author),),
        topics=(),
        target_tokens=target_tokens,
    )
