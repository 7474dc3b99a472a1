"""The offline generator: deterministic, varied, on length, and every planted fact visible in the text."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys

import pytest

from gaia_eval.artifacts.documents import EMAIL_TYPES, MEETING_TYPES
from gaia_eval.errors import UsageError
from gaia_eval.generation.banks import pools
from gaia_eval.generation.facts_to_groundtruth import find_evidence
from gaia_eval.generation.offline import GeneratedDocument, generate_offline
from gaia_eval.generation.scenario import contains_value, month_day

ALL_TYPES = [("meeting", t) for t in MEETING_TYPES] + [("email", t) for t in EMAIL_TYPES]
SEEDS = (0, 1, 2)
FORBIDDEN_LINE_STARTS = re.compile(
    r"^\W*(summary|next steps|action items|key decisions|decisions|takeaways|key takeaways)\b", re.IGNORECASE
)
_cache: dict[tuple, GeneratedDocument] = {}


def doc(kind: str, doc_type: str, seed: int = 0, target: int = 1000, variant: int = 1) -> GeneratedDocument:
    key = (kind, doc_type, variant, seed, target)
    if key not in _cache:
        _cache[key] = generate_offline(kind, doc_type, variant, seed, target)  # type: ignore[arg-type]
    return _cache[key]


def document_date(text: str) -> dt.date:
    line = next(ln for ln in text.splitlines() if ln.startswith("Date: "))
    match = re.search(r"(\w+ \d{1,2}, \d{4})", line)
    assert match, line
    return dt.datetime.strptime(match.group(1), "%B %d, %Y").date()


def content_words(text: str) -> set[str]:
    """Words that carry meaning; possessives count as their name ("Ben's goals" is stated as "your goals" to Ben,
    whose name is in the greeting)."""
    words = (w.removesuffix("'s") for w in re.findall(r"[a-z0-9$%,']+", text.lower()))
    return {w for w in words if len(w) > 3}


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_same_arguments_give_the_same_document(kind: str, doc_type: str) -> None:
    first = generate_offline(kind, doc_type, 1, 7, 900)  # type: ignore[arg-type]
    second = generate_offline(kind, doc_type, 1, 7, 900)  # type: ignore[arg-type]
    assert first.text.encode() == second.text.encode()
    assert first.facts == second.facts
    assert first.headers == second.headers


def test_documents_do_not_depend_on_the_process() -> None:
    """No salted hash() or set order sneaks in: a fresh interpreter writes the same bytes."""
    code = (
        "from gaia_eval.generation.offline import generate_offline as g;"
        "import sys; sys.stdout.write(g('meeting','planning',2,5,700).text + g('email','sales_outreach',1,5,700).text)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""})
    expected = generate_offline("meeting", "planning", 2, 5, 700).text
    expected += generate_offline("email", "sales_outreach", 1, 5, 700).text
    assert run.stdout == expected


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_seeds_and_variants_give_different_documents(kind: str, doc_type: str) -> None:
    base, other_seed, other_variant = doc(kind, doc_type, 0), doc(kind, doc_type, 1), doc(kind, doc_type, 0, variant=2)
    for other in (other_seed, other_variant):
        assert other.text != base.text
        assert {p.name for p in other.facts.participants} != {p.name for p in base.facts.participants}
        assert other.facts.key_figures != base.facts.key_figures
    topic_sets = {tuple(sorted(doc(kind, doc_type, s).facts.topics)) for s in range(6)}
    assert len(topic_sets) > 1, "every seed discussed the same topics"


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
@pytest.mark.parametrize("target", [300, 800, 1500, 3000])
def test_length_is_within_15_percent_of_the_target(kind: str, doc_type: str, target: int) -> None:
    for seed in (0, 1):
        d = doc(kind, doc_type, seed, target)
        assert d.word_count == len(d.text.split())
        assert d.estimated_tokens == round(d.word_count * 1.33)
        assert abs(d.estimated_tokens / target - 1) <= 0.15, (seed, d.estimated_tokens)


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_fact_counts_are_realistic(kind: str, doc_type: str) -> None:
    for seed in SEEDS:
        for target in (300, 1000, 3000):
            facts = doc(kind, doc_type, seed, target).facts
            assert 2 <= len(facts.decisions) <= 4
            assert 2 <= len(facts.action_items) <= 5
            assert 2 <= len(facts.key_figures) <= 5
            assert 2 <= len(facts.topics) <= 5
            assert facts.title and 1 <= facts.summary.count(". ") + 1 <= 2


@pytest.mark.parametrize(
    ("doc_type", "low", "high"),
    [("performance_review", 2, 2), ("standup", 3, 5), ("all_hands", 5, 8), ("client_call", 4, 6)],
)
def test_meeting_sizes_fit_the_type(doc_type: str, low: int, high: int) -> None:
    sizes = {len(doc("meeting", doc_type, seed).facts.participants) for seed in range(6)}
    assert all(low <= size <= high for size in sizes), sizes


def test_client_calls_have_people_from_the_client() -> None:
    for seed in SEEDS:
        d = doc("meeting", "client_call", seed)
        companies = {p.role.split(", ")[1] for p in d.facts.participants if ", " in p.role}
        assert len(companies) == 1 and companies.pop() not in d.facts.participants[0].role


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_every_planted_fact_is_in_the_text(kind: str, doc_type: str) -> None:
    for seed in SEEDS:
        for target in (300, 1000):
            d = doc(kind, doc_type, seed, target)
            text, lowered = d.text, d.text.lower()
            for person in d.facts.participants:
                assert person.name in text
            for topic in d.facts.topics:
                assert topic in text, topic
            for figure in d.facts.key_figures:
                assert contains_value(text, figure.value), figure
            for decision in d.facts.decisions:
                assert content_words(decision) <= content_words(lowered), decision
            for action in d.facts.action_items:
                due = month_day(dt.date.fromisoformat(action.due))
                assert action.task in text, action.task
                assert find_evidence(text, action.task, [due]) is not None, (action.task, due)
                owner = action.owner if kind == "meeting" else action.owner.split()[0]
                if kind == "meeting" or action.owner != d.facts.participants[0].name:
                    assert find_evidence(text, action.task, [owner]) is not None, (action.task, owner)


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_dates_are_in_2026_and_tasks_fall_due_after_the_document(kind: str, doc_type: str) -> None:
    for seed in SEEDS:
        d = doc(kind, doc_type, seed)
        day = document_date(d.text)
        assert day.year == 2026 and day.weekday() < 5
        for action in d.facts.action_items:
            due = dt.date.fromisoformat(action.due)
            assert day < due <= day + dt.timedelta(days=31) and due.weekday() < 5


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_names_are_unique_within_a_document(kind: str, doc_type: str) -> None:
    for seed in SEEDS:
        people = doc(kind, doc_type, seed).facts.participants
        assert len({p.name.split()[0] for p in people}) == len(people)
        assert len({p.name.split()[-1] for p in people}) == len(people)


def test_name_pools_are_large_and_clean() -> None:
    for pool in (pools.FIRST_NAMES, pools.LAST_NAMES):
        assert len(pool) >= 60 and len(set(pool)) == len(pool)
        assert all(name.isascii() and " " not in name for name in pool)


@pytest.mark.parametrize("doc_type", MEETING_TYPES)
def test_meeting_has_header_participants_and_speaker_lines(doc_type: str) -> None:
    for seed in SEEDS:
        d = doc("meeting", doc_type, seed)
        head, _, dialogue = d.text.partition("\nTranscript:\n")
        assert d.facts.title == head.splitlines()[0]
        for field in ("Date: ", "Time: ", "Duration: ", "Location: ", "Participants:"):
            assert f"\n{field}" in head
        names = {p.name for p in d.facts.participants}
        lines = [ln for ln in dialogue.splitlines() if ln.strip()]
        assert len(lines) > 10
        speakers = {ln.split(": ", 1)[0] for ln in lines}
        assert speakers <= names, speakers - names
        assert len(speakers) >= min(3, len(names))


@pytest.mark.parametrize("doc_type", EMAIL_TYPES)
def test_email_has_headers_greeting_and_signature(doc_type: str) -> None:
    for seed in SEEDS:
        d = doc("email", doc_type, seed, 800)
        assert d.headers is not None
        lines = d.text.splitlines()
        assert lines[0] == f"From: {d.headers.sender}"
        assert any(ln.startswith("To: ") for ln in lines[1:3])
        assert f"\nSubject: {d.headers.subject}\n" in d.text and f"\nDate: {d.headers.date}\n" in d.text
        sender = d.facts.participants[0]
        assert sender.name in d.headers.sender
        assert {p.name for p in d.facts.participants[1:]} == {r.split(" <")[0] for r in d.headers.recipients}
        assert re.search(r"\n\n(Hi|Hello|Dear|Hey) [^\n]+,\n\n", d.text)
        assert f"\n{sender.name}\n{sender.role}, " in d.text


@pytest.mark.parametrize(("kind", "doc_type"), ALL_TYPES)
def test_documents_hold_no_summary_or_task_list(kind: str, doc_type: str) -> None:
    for seed in SEEDS:
        for target in (300, 3000):
            d = doc(kind, doc_type, seed, target)
            for line in d.text.splitlines():
                body = line.split(": ", 1)[1] if kind == "meeting" and ": " in line else line
                assert not FORBIDDEN_LINE_STARTS.match(line) and not FORBIDDEN_LINE_STARTS.match(body), line
            assert d.facts.summary not in d.text


def test_unknown_type_is_a_usage_error_listing_the_valid_types() -> None:
    with pytest.raises(UsageError) as err:
        generate_offline("meeting", "retro", 1, 0, 500)
    assert "retro" in str(err.value) and all(t in str(err.value) for t in MEETING_TYPES)
    with pytest.raises(UsageError):
        generate_offline("email", "standup", 1, 0, 500)
