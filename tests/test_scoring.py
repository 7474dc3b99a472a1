"""Deterministic scoring: tokens, ROUGE-L, fuzzy item and name matching, the summarization criteria with and
without ground truth, and qa correctness."""

from __future__ import annotations

import time

import pytest

from gaia_eval.artifacts.documents import ActionItem, KeyFigure, Participant, PlantedFacts
from gaia_eval.artifacts.groundtruth import QAPair, Summaries
from gaia_eval.errors import InputError
from gaia_eval.scoring.rubric.grading import STANDALONE_CRITERIA, SUMMARY_CRITERIA
from gaia_eval.scoring.rubric.short_answer import score_qa
from gaia_eval.scoring.rubric.standalone import score_summaries_standalone
from gaia_eval.scoring.rubric.summaries import score_summaries
from gaia_eval.scoring.text import match_items, match_names, rouge_l, tokenize

FACTS = PlantedFacts(
    title="Acme renewal planning",
    summary="Priya Shah and Tom Lee agreed to renew the Acme contract at $48,500 and to move the launch to April 2.",
    participants=[
        Participant(name="Priya Shah", role="Account Manager"),
        Participant(name="Tom Lee", role="Engineer"),
        Participant(name="Sam Ortiz", role="Designer"),
    ],
    topics=["Acme contract renewal", "launch timeline", "onboarding checklist"],
    decisions=["Renew the Acme contract at $48,500", "Move the launch to April 2"],
    action_items=[
        ActionItem(owner="Priya Shah", task="send the revised quote to Acme", due="2026-03-14"),
        ActionItem(owner="Tom Lee", task="book the venue for the launch event", due="2026-03-20"),
        ActionItem(owner="Sam Ortiz", task="draft the onboarding checklist", due="2026-03-25"),
    ],
    key_figures=[
        KeyFigure(label="contract value", value="$48,500", kind="amount", number=48500, unit="USD"),
        KeyFigure(label="discount", value="12%", kind="percent", number=12),
    ],
)
EXPECTED = Summaries(
    executive_summary=FACTS.summary,
    detailed_summary=(
        "The team reviewed the Acme contract renewal and agreed to renew at $48,500 with a 12% discount. They moved "
        "the launch to April 2 after discussing the launch timeline. Priya will send the revised quote to Acme by "
        "March 14, Tom will book the venue for the launch event by March 20 and Sam will draft the onboarding "
        "checklist by March 25."
    ),
    action_items=[f"{a.owner}: {a.task} (due {a.due})" for a in FACTS.action_items],
    key_decisions=list(FACTS.decisions),
    participants=[f"{p.name} ({p.role})" for p in FACTS.participants],
    topics_discussed=list(FACTS.topics),
)
PARTIAL = Summaries(
    executive_summary="The team discussed the Acme contract and the launch.",
    detailed_summary="The Acme contract renewal was discussed. Priya will send the revised quote to Acme.",
    action_items=["Priya will send the revised quote to Acme", "Tom will update the hiring plan"],
    key_decisions=["Renew the Acme contract"],
    participants=["Priya", "Jordan Blake"],
    topics_discussed=["Acme contract renewal"],
)
SOURCE = (
    "Priya Shah: Thanks for joining. The Acme contract renewal is on the table today.\n"
    "Tom Lee: Acme accepted renewing at $48,500 if we give them a 12% discount.\n"
    "Priya Shah: Then we renew the Acme contract at $48,500. I will send the revised quote to Acme by March 14.\n"
    "Sam Ortiz: On the launch timeline, the venue is not ready, so I suggest we move the launch to April 2.\n"
    "Tom Lee: Agreed. I will book the venue for the launch event by March 20.\n"
    "Sam Ortiz: And I will draft the onboarding checklist by March 25.\n"
)


def _by_id(results):
    return {r.criterion: r for r in results}


# --- text -----------------------------------------------------------------------------------------


def test_tokens_normalize_numbers_dates_and_unicode() -> None:
    assert tokenize("$48,500") == tokenize("48500") == tokenize("48.5k") == ["48500"]
    assert tokenize("12%") == tokenize("12 percent") == ["12%"]
    for date in ("2026-03-14", "March 14, 2026", "14th March", "3/14", "Mar. 14"):
        assert tokenize(date) == ["03-14"], date
    assert tokenize("Priya's ÉCOLE plan, 2026.") == ["priya", "école", "plan", "2026"]
    assert tokenize("version 1.5 of Q3") == ["version", "1.5", "of", "q3"]


def test_rouge_l_on_known_pairs() -> None:
    assert rouge_l("the cat sat on the mat", "the cat was on the mat") == pytest.approx((5 / 6, 5 / 6, 5 / 6))
    precision, recall, f1 = rouge_l("the cat", "the cat sat on the mat")
    assert (precision, recall) == (1.0, pytest.approx(2 / 6)) and f1 == pytest.approx(0.5)
    assert rouge_l("a b c d", "a b c d")[2] == 1.0
    assert rouge_l("totally different words", "the cat sat")[2] == 0.0
    assert rouge_l("", "the cat") == (0.0, 0.0, 0.0)
    # LCS is in order: the same words reversed share only one in sequence.
    assert rouge_l("mat the on sat cat", "cat sat on the mat")[2] == pytest.approx(1 / 5)


def test_paraphrased_items_match_and_different_tasks_of_the_same_owner_do_not() -> None:
    names = frozenset({"priya", "shah", "tom", "lee"})
    expected = ["Priya Shah: send the revised quote to Acme (due 2026-03-14)", "Priya Shah: book the offsite venue"]
    predicted = ["Priya will send Acme the revised quote by March 14", "Priya to update the hiring plan"]
    match = match_items(predicted, expected, ignore=names)
    assert [(p.predicted, p.expected) for p in match.pairs] == [(predicted[0], expected[0])]
    assert match.unmatched_predicted == [predicted[1]] and match.unmatched_expected == [expected[1]]
    assert (match.precision, match.recall, match.f1) == (0.5, 0.5, 0.5)
    assert match_items(["Priya: update the hiring plan"], ["Priya: send the quote"], ignore=names).pairs == []


def test_an_item_matches_once_even_when_repeated() -> None:
    match = match_items(["renew the Acme contract", "renew the Acme contract"], ["Renew the Acme contract at $48,500"])
    assert len(match.pairs) == 1 and match.precision == 0.5 and match.recall == 1.0


def test_names_match_by_first_or_full_name_and_ignore_roles() -> None:
    match = match_names(
        ["Priya", "Tom Lee - Engineer", "Dr. Sam Ortiz (Designer)", "priya.patel@acme.com", "Jordan"],
        ["Priya Shah (Account Manager)", "Tom Lee", "Sam Ortiz", "Priya Patel"],
    )
    assert {(p.predicted, p.expected) for p in match.pairs} == {
        ("Tom Lee - Engineer", "Tom Lee"),
        ("Dr. Sam Ortiz (Designer)", "Sam Ortiz"),
        ("priya.patel@acme.com", "Priya Patel"),
        ("Priya", "Priya Shah (Account Manager)"),
    }
    assert match.unmatched_predicted == ["Jordan"]
    # Two full names sharing a first name are different people.
    assert match_names(["Priya Patel"], ["Priya Shah"]).pairs == []


# --- comparative summaries ---------------------------------------------------------------------------


@pytest.mark.parametrize("facts", [FACTS, None], ids=["with_facts", "without_facts"])
def test_the_ground_truth_itself_scores_excellent_on_every_criterion(facts) -> None:
    results = score_summaries(EXPECTED, EXPECTED, facts)
    assert [r.criterion for r in results] == list(SUMMARY_CRITERIA)
    assert {r.criterion: r.rating for r in results} == dict.fromkeys(SUMMARY_CRITERIA, "Excellent")
    assert all(r.value == 1.0 for r in results)


@pytest.mark.parametrize("facts", [FACTS, None], ids=["with_facts", "without_facts"])
def test_an_empty_answer_is_poor_everywhere_and_says_so(facts) -> None:
    results = score_summaries(Summaries(), EXPECTED, facts)
    for r in results:
        assert r.rating == "Poor" and r.value == 0.0 and "empty" in r.explanation


def test_a_partial_answer_lands_in_between_and_names_what_it_missed() -> None:
    results = _by_id(score_summaries(PARTIAL, EXPECTED, FACTS))
    ratings = [r.rating for r in results.values()]
    assert "Excellent" not in ratings and set(ratings) != {"Poor"}
    assert "'$48,500'" in results["executive_summary_accuracy"].explanation
    assert "'book the venue for the launch event'" in results["completeness"].explanation
    action = results["action_items"].explanation
    assert "matched 1 of 3 action items" in action and "Tom Lee: book the venue" in action
    assert "without the due date" in action and "1 extra ('Tom will update the hiring plan')" in action
    assert results["action_items"].value == pytest.approx(2 * 0.25 * (0.5 / 3) / (0.25 + 0.5 / 3), abs=1e-4)
    assert "'Jordan Blake'" in results["participants"].explanation
    assert results["participants"].value == pytest.approx(0.4, abs=1e-4)
    assert results["key_decisions"].value == pytest.approx(2 / 3, abs=1e-4)


def test_a_paraphrased_answer_keeps_full_credit_on_the_lists() -> None:
    answer = Summaries(
        executive_summary="Acme renewal confirmed at $48,500; the launch moves to April 2. Priya and Tom lead.",
        detailed_summary=(
            "Priya Shah opened with the Acme renewal: the contract is renewed for $48,500 including a 12% discount. "
            "On the launch timeline, the group moved the launch to April 2. Priya will send Acme the revised quote by "
            "March 14. Tom is booking the launch event venue by March 20, and Sam drafts the onboarding checklist by "
            "March 25."
        ),
        action_items=[
            "Priya will send Acme the revised quote by March 14",
            "Tom to book the venue for the launch event (Mar 20)",
            "Sam: draft onboarding checklist by 3/25",
        ],
        key_decisions=["Acme contract renewed at $48,500", "Launch moved to April 2"],
        participants=["Priya Shah - Account Manager", "Tom", "Sam Ortiz"],
        topics_discussed=["Acme renewal", "Launch timeline", "Onboarding checklist"],
    )
    results = _by_id(score_summaries(answer, EXPECTED, FACTS))
    for criterion in ("completeness", "action_items", "key_decisions", "participants", "topic_coverage"):
        assert results[criterion].rating == "Excellent", results[criterion].explanation
    assert results["executive_summary_accuracy"].rating in ("Excellent", "Good")


def test_action_items_need_the_right_owner_and_the_due_date_for_full_credit() -> None:
    base = EXPECTED.model_copy(update={"action_items": []})
    wrong_owner = base.model_copy(update={"action_items": ["Tom will send the revised quote to Acme by March 14"]})
    no_due = base.model_copy(update={"action_items": ["Priya will send the revised quote to Acme"]})
    full = base.model_copy(update={"action_items": ["Priya will send the revised quote to Acme by March 14"]})
    values = {}
    for name, answer in {"wrong_owner": wrong_owner, "no_due": no_due, "full": full}.items():
        values[name] = _by_id(score_summaries(answer, EXPECTED, FACTS))["action_items"]
    assert values["wrong_owner"].value == 0.0 and "wrong owner" in values["wrong_owner"].explanation
    assert values["no_due"].value == pytest.approx(2 * 0.5 * (0.5 / 3) / (0.5 + 0.5 / 3), abs=1e-4)
    assert values["full"].value == pytest.approx(2 * 1 * (1 / 3) / (1 + 1 / 3), abs=1e-4)


def test_an_invented_figure_in_the_executive_summary_costs_accuracy() -> None:
    honest = EXPECTED.model_copy(update={"executive_summary": EXPECTED.executive_summary})
    invented = EXPECTED.model_copy(update={"executive_summary": EXPECTED.executive_summary + " Budget: $95,000."})
    honest_value = _by_id(score_summaries(honest, EXPECTED, FACTS))["executive_summary_accuracy"].value
    result = _by_id(score_summaries(invented, EXPECTED, FACTS))["executive_summary_accuracy"]
    assert result.value < honest_value - 0.1
    assert "'$95,000'" in result.explanation


def test_an_empty_expected_list_is_not_applicable_never_excellent_nor_poor() -> None:
    # Intended change (issue 12): a reference with no decisions gives nothing to check, so the criterion is N/A
    # (left out of the grade) whatever the answer lists; it used to be Excellent (none listed) or Poor.
    expected = EXPECTED.model_copy(update={"key_decisions": [], "action_items": []})
    none_listed = EXPECTED.model_copy(update={"key_decisions": []})
    for answer in (none_listed, EXPECTED):
        results = _by_id(score_summaries(answer, expected))
        assert results["key_decisions"].rating == "N/A" and results["key_decisions"].value is None
        assert results["action_items"].rating == "N/A"


def test_ground_truth_without_an_executive_summary_is_an_input_error() -> None:
    with pytest.raises(InputError, match="executive_summary"):
        score_summaries(EXPECTED, EXPECTED.model_copy(update={"executive_summary": ""}))


# --- standalone ------------------------------------------------------------------------------------


def test_standalone_accepts_a_grounded_answer() -> None:
    results = score_summaries_standalone(EXPECTED, SOURCE)
    assert [r.criterion for r in results] == list(STANDALONE_CRITERIA)
    for r in results:
        assert r.rating in ("Excellent", "Good"), (r.criterion, r.explanation)
    assert _by_id(results)["grounded_participants"].rating == "Excellent"


def test_standalone_catches_a_hallucinated_participant_and_decision() -> None:
    answer = EXPECTED.model_copy(
        update={
            "participants": ["Priya Shah", "Tom Lee", "Sam Ortiz", "Priya Patel", "Jordan Blake (CFO)"],
            "key_decisions": ["Renew the Acme contract at $48,500", "Cancel the Berlin office lease in June"],
        }
    )
    results = _by_id(score_summaries_standalone(answer, SOURCE))
    participants = results["grounded_participants"]
    assert participants.value == pytest.approx(3 / 5, abs=1e-4) and participants.rating == "Fair"
    assert "'Priya Patel', 'Jordan Blake'" in participants.explanation
    decisions = results["grounded_key_decisions"]
    assert decisions.value == 0.5 and "Cancel the Berlin office lease" in decisions.explanation


def test_standalone_empty_fields_are_poor_and_length_is_checked() -> None:
    results = _by_id(score_summaries_standalone(Summaries(), SOURCE))
    assert all(r.rating == "Poor" and "empty" in r.explanation for r in results.values())
    # Intended change (issue 12): a short summary is no longer penalized for being short, only a long one.
    terse = EXPECTED.model_copy(update={"executive_summary": "Acme contract renewal."})
    summary = _by_id(score_summaries_standalone(terse, SOURCE))["grounded_executive_summary"]
    assert summary.value == pytest.approx(1.0, abs=1e-4) and "over 120" not in summary.explanation
    rambling = EXPECTED.model_copy(update={"executive_summary": "Acme contract renewal. " * 45})
    summary = _by_id(score_summaries_standalone(rambling, SOURCE))["grounded_executive_summary"]
    assert summary.value <= 0.75 and "over 120" in summary.explanation


def test_standalone_does_not_rank_a_copy_of_the_source_above_a_faithful_rewording() -> None:
    copy_text = " ".join(SOURCE.split()[:120])
    copy = Summaries(executive_summary=copy_text, detailed_summary=copy_text)
    reworded = Summaries(executive_summary=EXPECTED.executive_summary, detailed_summary=EXPECTED.detailed_summary)
    copy_results = _by_id(score_summaries_standalone(copy, SOURCE))
    reworded_results = _by_id(score_summaries_standalone(reworded, SOURCE))
    for criterion in ("grounded_executive_summary", "grounded_detailed_summary"):
        assert copy_results[criterion].value < reworded_results[criterion].value
        assert "copied verbatim" in copy_results[criterion].explanation


def test_standalone_needs_a_source() -> None:
    with pytest.raises(InputError, match="source"):
        score_summaries_standalone(EXPECTED, "  ")


# --- qa --------------------------------------------------------------------------------------------


def _qa(answer: str, type_: str = "string") -> QAPair:
    return QAPair(id="q01", query="?", answer=answer, answer_type=type_)


@pytest.mark.parametrize(
    ("expected", "answer", "rating", "passed"),
    [
        (_qa("48500", "number"), "The approved budget is $48,500.", "Excellent", True),
        (_qa("Priya Shah"), "Priya Shah owns the follow-up.", "Excellent", True),
        (_qa("apples, pears, plums", "list"), "plums, apples, pears", "Excellent", True),
        (_qa("apples, pears, plums, figs, kiwis", "list"), "apples, pears, plums, figs", "Good", False),
        (_qa("b, a"), "a, b", "Good", False),  # every token, wrong order: a near miss, not a pass
        (_qa("Priya Shah"), "Priya", "Fair", False),
        (_qa("48500", "number"), "The approved budget is $45,000.", "Poor", False),
        (_qa("Priya Shah"), "", "Poor", False),
    ],
)
def test_qa_correctness_levels(expected: QAPair, answer: str, rating: str, passed: bool) -> None:
    results, ok = score_qa(answer, expected)
    assert [r.criterion for r in results] == ["correctness"]
    assert (results[0].rating, ok) == (rating, passed), results[0].explanation
    assert results[0].explanation.startswith("correct: " if passed else "not correct: ")


def test_qa_explanation_embeds_the_matcher_and_the_overlap() -> None:
    (result,), _ = score_qa("$45,000", _qa("48500", "number"))
    assert "45000" in result.explanation and "48500" in result.explanation and "token F1 0.00" in result.explanation


def test_qa_with_an_empty_expected_answer_is_an_input_error() -> None:
    with pytest.raises(InputError, match="q01"):
        score_qa("anything", _qa(" "))


# --- speed -----------------------------------------------------------------------------------------


def test_scoring_1000_qa_answers_and_100_summaries_is_fast() -> None:
    started = time.process_time()  # CPU time: not inflated by other processes on a busy machine
    for i in range(100):
        answer = PARTIAL.model_copy(
            update={"detailed_summary": f"{PARTIAL.detailed_summary} Item {i} costs ${i * 1000}.",
                    "action_items": [f"{a} (ticket {i})" for a in PARTIAL.action_items]}
        )  # fmt: skip
        score_summaries(answer, EXPECTED, FACTS)
        score_summaries_standalone(answer, SOURCE + f"\nNote {i}.")
    for i in range(1000):
        score_qa(f"The approved budget is ${48000 + i}, says Priya.", _qa(str(48000 + i * (i % 2)), "number"))
    assert time.process_time() - started < 5.0


def test_completeness_of_a_prose_reference_checks_its_sentences_not_only_its_figures() -> None:
    # Issue 12: a reference with a number used to be checked on that number alone, so an answer repeating the
    # number and nothing else scored 1.0.
    expected = Summaries(
        executive_summary="Mia will pay 20 dollars for the tickets.",
        detailed_summary="Mia will pay 20 dollars for the tickets. Tom books the table at the Italian restaurant.",
    )
    only_number = Summaries(executive_summary="Something about 20.", detailed_summary="Something about 20.")
    result = _by_id(score_summaries(only_number, expected))["completeness"]
    assert result.value < 0.5
    full = _by_id(score_summaries(expected, expected))["completeness"]
    assert full.value == 1.0
