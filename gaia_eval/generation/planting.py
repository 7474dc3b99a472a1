"""Turns a phrase-bank item into planted facts: draws its figures, due dates and wording, records what it drew.

Shared by meetings and e-mails, so both kinds count, cap and record facts the same way.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from gaia_eval.artifacts.documents import ActionItem, KeyFigure
from gaia_eval.generation import scenario as sc
from gaia_eval.generation.specs import EmailItem, MeetingItem

MAX_DECISIONS, MAX_ACTIONS, MAX_FIGURES = 4, 5, 5


@dataclass
class PlantedAction:
    owner: sc.Person
    task: str  # imperative, lowercase: "send the revised quote to Acme"
    due: dt.date
    due_text: str  # as the document writes it: "Friday, March 20"
    kept: bool = True  # False: dropped by the cap, never written


@dataclass
class PlantedItem:
    spec: MeetingItem | EmailItem
    topic: str
    decision: str | None  # imperative, lowercase; None: discussed but not decided
    values: dict[str, str]  # every template variable of this item, including its figures and people
    slots: dict[str, sc.Person]
    figures: list[KeyFigure]
    actions: list[PlantedAction]
    spoken_decision: str | None = None  # the decision as written to its reader: "you" where the record names them

    @property
    def kept_actions(self) -> list[PlantedAction]:
        return [a for a in self.actions if a.kept]

    @property
    def meeting_spec(self) -> MeetingItem:
        assert isinstance(self.spec, MeetingItem), "an email item in a meeting"
        return self.spec

    @property
    def email_spec(self) -> EmailItem:
        assert isinstance(self.spec, EmailItem), "a meeting item in an email"
        return self.spec


@dataclass
class Planter:
    """Draws the facts of every item of one document, keeping figure texts and due dates distinct."""

    rng: random.Random
    today: dt.date
    figure_texts: set[str] = field(default_factory=set)
    due_dates: set[dt.date] = field(default_factory=set)

    def plant(self, item: MeetingItem | EmailItem, slots: dict[str, sc.Person], shared: dict[str, str],
              owner_fallbacks: dict[str, str] | None = None) -> PlantedItem:
        rng = self.rng
        values = {**shared, **sc.pick_values(rng, item.picks), **{k: p.first for k, p in slots.items()}}
        figures = []
        for fig in item.figures:
            real = sc.realize_figure(rng, fig, self.today, self.figure_texts)
            values[fig.name] = real.text
            if fig.planted:
                label = sc.fill(fig.label, values, sentence=False)
                figure = KeyFigure(label=label, value=real.text, kind=fig.kind, number=real.number, unit=real.unit)
                figures.append(figure)
        values["topic"] = sc.fill(item.topic, values, sentence=False)
        actions = []
        for act in item.actions:
            owner_slot = act.owner
            while owner_slot not in slots and owner_fallbacks and owner_slot in owner_fallbacks:
                owner_slot = owner_fallbacks[owner_slot]
            due = sc.later_workday(rng, self.today, act.days, self.due_dates)
            task = sc.fill(act.task, values, sentence=False)
            actions.append(PlantedAction(slots[owner_slot], task, due, sc.spoken_due(rng, due, self.today)))
        decision = spoken = None
        if item.decision:
            reader = slots.get("to1")
            named = {"you": reader.first, "your": f"{reader.first}'s"} if reader else {}
            decision = sc.fill(item.decision, {**values, **named}, sentence=False)
            spoken = sc.fill(item.decision, {**values, "you": "you", "your": "your"}, sentence=False)
        return PlantedItem(item, values["topic"], decision, values, slots, figures, actions, spoken)


def cap_facts(rng: random.Random, planted: list[PlantedItem]) -> None:
    """Keep the counts of decisions, tasks and figures realistic: a long document does not decide everything."""
    while sum(p.decision is not None for p in planted) > MAX_DECISIONS:
        rng.choice([p for p in planted if p.decision]).decision = None
    while sum(len(p.kept_actions) for p in planted) > MAX_ACTIONS:
        rng.choice([p for p in planted if len(p.kept_actions) > 1]).kept_actions[-1].kept = False
    while sum(len(p.figures) for p in planted) > MAX_FIGURES:
        rng.choice([p for p in planted if len(p.figures) > 1]).figures.pop()  # still written, just not a key fact


def keep_first_actions(planted: list[PlantedItem], minimum: int = 2) -> None:
    """For a very short document: drop every item's later tasks, while at least `minimum` remain."""
    for item in planted:
        for action in item.kept_actions[1:]:
            if sum(len(p.kept_actions) for p in planted) > minimum:
                action.kept = False


def action_items(planted: list[PlantedItem]) -> list[ActionItem]:
    return [ActionItem(owner=a.owner.name, task=a.task, due=a.due.isoformat()) for p in planted for a in p.kept_actions]
