"""Ground truth from planted facts: summaries that carry every fact, and QA pairs the text visibly supports."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from gaia_eval.artifacts.documents import EMAIL_TYPES, MEETING_TYPES, PlantedFacts
from gaia_eval.generation.facts_to_groundtruth import qa_from_facts, summaries_from_facts
from gaia_eval.generation.offline import GeneratedDocument, generate_offline
from gaia_eval.generation.scenario import contains_value, month_day

ALL_TYPES = [("meeting", t) for t in MEETING_TYPES] + [("email", t) for t in EMAIL_TYPES]
_cache: dict[tuple, GeneratedDocument] = {}


def doc(kind: str, doc_type: str, seed: int, target: int) -> GeneratedDocument:
    key = (kind, doc_type, seed, target)
    if key not in _cache:
        _cache[key] = generate_offline(kind, doc_type, 1, seed, target)  # type: ignore[arg-type]
    return _cache[key]


def documents(kind: str, doc_type: str) -> list[GeneratedDocument]:
    return [doc(kind, doc_type, seed, target) for seed in (0, 1, 2) for target in (300, 1000)]


def sentences(text: str) -> int:
    return len(re.findall(r"[.!?](?=\s|$)", text))


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_at_least_five_qa_pairs_each_supported_by_the_text(kind: str, doc_type: str) -> None:
    for d in documents(kind, doc_type):
        pairs = qa_from_facts(d.facts, kind, doc_type, d.text)
        assert len(pairs) >= 5
        assert len({p.id for p in pairs}) == len(pairs) and len({p.query for p in pairs}) == len(pairs)
        for pair in pairs:
            assert re.fullmatch(r"q\d{2}-[a-z]+-[a-z0-9-]+", pair.id), pair.id
            assert pair.evidence and pair.evidence in d.text, pair
            if pair.answer_type == "list":
                assert all(name in pair.evidence for name in pair.answer.split(", ")), pair
            elif "-owner-" in pair.id and kind == "email":
                assert pair.answer.split()[0] in pair.evidence, pair  # e-mails address people by first name
            else:
                assert contains_value(pair.evidence, pair.answer) or pair.answer in pair.evidence, pair


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_qa_answers_are_the_planted_facts(kind: str, doc_type: str) -> None:
    d = doc(kind, doc_type, 0, 1000)
    pairs = {p.id: p for p in qa_from_facts(d.facts, kind, doc_type, d.text)}
    owners = {a.owner for a in d.facts.action_items}
    dues = {month_day(dt.date.fromisoformat(a.due)) for a in d.facts.action_items}
    values = {f.value: f for f in d.facts.key_figures}
    kinds = {pid.split("-")[1] for pid in pairs}
    assert {"due", "figure", "role"} <= kinds and ({"owner"} <= kinds or kind == "email")
    for pid, pair in pairs.items():
        if "-owner-" in pid:
            assert pair.answer in owners and pair.answer_type == "string"
        elif "-due-" in pid:
            assert pair.answer in dues and pair.answer_type == "string"
        elif "-figure-" in pid:
            figure = values[pair.answer]
            assert pair.answer_type == ("number" if figure.kind in ("amount", "count", "percent") else "string")
            assert figure.label in pair.query
    names = [p.name for p in d.facts.participants]
    lists = [p for p in pairs.values() if p.answer_type == "list"]
    if kind == "meeting":
        assert [p.answer for p in lists] == [", ".join(names)]
    else:
        assert set(", ".join(p.answer for p in lists).split(", ")) == set(names[1:])


def test_qa_is_stable_for_equal_facts() -> None:
    d = doc("meeting", "budget_planning", 4, 1000)
    copy = PlantedFacts.model_validate_json(d.facts.model_dump_json())
    assert qa_from_facts(d.facts, "meeting", "budget_planning", d.text) == qa_from_facts(
        copy, "meeting", "budget_planning", d.text
    )


def test_no_question_without_visible_evidence() -> None:
    """A text that lacks the participants block yields no attendance or role question."""
    d = doc("meeting", "planning", 0, 1000)
    head, _, rest = d.text.partition("Participants:")
    stripped = head + rest.partition("Transcript:")[2]
    pairs = qa_from_facts(d.facts, "meeting", "planning", stripped)
    assert not any(p.answer_type == "list" or "-role-" in p.id for p in pairs)
    assert all(p.evidence in stripped for p in pairs)


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_summaries_carry_every_fact(kind: str, doc_type: str) -> None:
    for d in documents(kind, doc_type)[:3]:
        facts = d.facts
        s = summaries_from_facts(facts, kind, doc_type)
        assert s == summaries_from_facts(facts, kind, doc_type)
        assert 2 <= sentences(s.executive_summary) <= 3
        detailed = s.detailed_summary
        for topic in facts.topics:
            assert topic in detailed
        for decision in facts.decisions:
            assert decision[1:] in detailed
        for figure in facts.key_figures:
            assert figure.value in detailed
        for action in facts.action_items:
            assert action.owner in detailed and action.task in detailed
            assert month_day(dt.date.fromisoformat(action.due)) in detailed
        assert s.action_items == [f"{a.owner}: {a.task} (due {a.due})" for a in facts.action_items]
        assert all(re.fullmatch(r".+: .+ \(due \d{4}-\d{2}-\d{2}\)", item) for item in s.action_items)
        assert s.key_decisions == facts.decisions
        assert s.participants == [f"{p.name} ({p.role})" for p in facts.participants]
        assert s.topics_discussed == facts.topics


def test_summary_of_an_unknown_type_still_reads() -> None:
    facts = doc("email", "vendor_communication", 0, 800).facts
    s = summaries_from_facts(facts, "email", "quarterly_memo")
    assert "quarterly memo" in s.executive_summary
