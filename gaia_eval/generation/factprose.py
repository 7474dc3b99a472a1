"""Sentences written from planted facts alone: the document's one-line summary and the summary ground truth.

Pure functions of `PlantedFacts`, so the same facts always give the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from gaia_eval.artifacts.documents import ActionItem, KeyFigure, PlantedFacts


def lower_first(text: str) -> str:
    """"Move the launch" -> "move the launch", but keep acronyms and names ("Q3 results", "SAP")."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def join_list(items: Sequence[str], conjunction: str = "and") -> str:
    items = list(items)
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return f"{', '.join(items[:-1])}, {conjunction} {items[-1]}"


def with_article(topic: str) -> str:
    return f"the {topic}"


def decision_clause(decisions: Sequence[str]) -> str:
    """"to move the launch and to cut travel": decisions as infinitives, joined."""
    return join_list([f"to {lower_first(d)}" for d in decisions])


def figure_phrase(figure: KeyFigure) -> str:
    """"the approved budget for the migration is $48,500"."""
    return f"the {figure.label} is {figure.value}"


def action_phrase(action: ActionItem, due_text: str) -> str:
    return f"{action.owner} will {action.task} by {due_text}"


def indefinite(noun_phrase: str) -> str:
    return f"{'an' if noun_phrase[:1].lower() in 'aeiou' else 'a'} {noun_phrase}"


def document_summary(facts: PlantedFacts, doc_kind: str, type_label: str) -> str:
    """One or two sentences on what the document is about, for `PlantedFacts.summary`."""
    topics = join_list([with_article(t) for t in facts.topics])
    if doc_kind == "meeting":
        people = len(facts.participants)
        first = f"{indefinite(type_label).capitalize()} in which {people} participants discussed {topics}."
    else:
        sender = facts.participants[0].name
        first = f"An e-mail ({type_label}) from {sender} about {topics}."
    if not facts.decisions:
        return first
    return f"{first} The main {'outcomes were' if len(facts.decisions) > 1 else 'outcome was'} " \
           f"{decision_clause(facts.decisions[:2])}."
