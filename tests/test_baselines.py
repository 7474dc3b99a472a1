"""The offline baselines: right facts from realistic documents, textrank/retrieval beating lead, the provider
protocol, and robustness on junk and very long input."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest

from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES, Summaries
from gaia_eval.baselines import document as document_module
from gaia_eval.baselines.document import analyze
from gaia_eval.baselines.provider import BaselineProvider
from gaia_eval.baselines.qa import answer_question
from gaia_eval.baselines.summarize import summarize
from gaia_eval.errors import BadRequestError, ConfigError
from gaia_eval.providers import ProviderSettings, create_provider
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, TaskContext

MEETING = """Budget Planning Meeting - Q3 Vendor Migration
Date: March 14, 2025
Time: 10:00 AM - 10:45 AM
Location: Conference Room B / Zoom

Participants:
- Priya Shah (Finance Lead)
- Marcus Lee (Engineering Manager)
- Dana Okafor (Procurement Specialist)
- Tom Becker (CTO)

Transcript:

Tom Becker: Good morning, everyone. Thanks for joining.
Priya Shah: Morning, Tom.
Tom Becker: Let's start with the vendor migration budget. Finance has reviewed the three quotes we received last month.
Priya Shah: Right. The lowest complete quote came in at $48,500, which covers data migration and two months of parallel running. The other two were above $60,000.
Marcus Lee: From the engineering side the cheapest vendor is fine. Their API matches what we already use, so the integration work is small.
Dana Okafor: Procurement checked their references. Two of their clients reported no major issues during migration.
Tom Becker: Should we go with the $48,500 quote from Northwind?
Priya Shah: Agreed.
Marcus Lee: Agreed, that works for engineering.
Tom Becker: Good. Dana, can you send the signed contract to Northwind by March 28?
Dana Okafor: Sure, I'll get that done.
Tom Becker: Next, the hiring plan for the platform team. Marcus, where are we?
Marcus Lee: We have four open roles. The plan is to fill three of them now and keep one for later.
Priya Shah: That fits the headcount budget. Salaries were planned at 12 percent above last year.
Tom Becker: Then we decided to hire three platform engineers this quarter and hold the fourth role until Q4.
Marcus Lee: I'll post the job descriptions by Friday.
Tom Becker: Last item, cloud costs. Our spend grew 18% in February.
Priya Shah: Most of that is the staging environment running all weekend. We could shut it down outside office hours.
Tom Becker: Let's do that. The final call is to shut down staging outside office hours starting next month.
Priya Shah: I will prepare a revised cloud forecast by April 4.
Tom Becker: Great, thanks everyone. We'll meet again in two weeks.
"""  # noqa: E501 - a realistic document keeps its long lines

EMAIL = """From: Sarah Kim <sarah.kim@brightlane.com>
To: Jonas Weber <jonas.weber@brightlane.com>, Aisha Rahman <aisha.rahman@brightlane.com>
Cc: Leo Martins <leo.martins@brightlane.com>
Subject: Project Atlas - status update and next steps
Date: Tue, 8 Apr 2025 09:15:00 -0400

Hi Jonas and Aisha,

I wanted to share a quick update on Project Atlas after yesterday's steering review.

The data pipeline is now 85% complete and the dashboard prototype passed user testing with 14 participants. We are still on track for the beta release on May 12.

The steering committee approved an additional $15,000 for load testing. We also agreed to drop the legacy export feature from the first release to protect the timeline.

Jonas, could you please finalize the load testing plan by April 18? Aisha, please update the release notes draft by April 22.

I will schedule the beta readiness review with the whole team next month.

Let me know if you have any questions.

Best regards,
Sarah Kim
Program Manager
Brightlane Analytics
"""  # noqa: E501 - a realistic document keeps its long lines

# Decisions and tasks as people actually phrase them: proposals that others agree to, open requests,
# deadlines settled in a follow-up line.
CONVERSATION = """Product Roadmap Review
Date: Monday, February 9, 2026
Participants:
- Elena Garcia (Head of Product)
- Omar Haddad (Engineering Lead)
- Yuki Tanaka (Designer)
- Felix Braun (Data Analyst)

Elena Garcia: Hi everyone, can you all hear me okay?
Omar Haddad: Loud and clear.
Elena Garcia: On the agenda today: the mobile onboarding flow, the analytics dashboard, and the pricing page.
Yuki Tanaka: On the onboarding flow, the drop-off at step three is 41% right now.
Omar Haddad: Can I propose we cut the onboarding flow down to three screens?
Elena Garcia: Yes. I think that's the right call.
Felix Braun: Works for me.
Elena Garcia: Yuki, can you redesign the welcome screens by February 20?
Yuki Tanaka: Will do.
Felix Braun: For the analytics dashboard, the query costs went up to $3,200 a month.
Elena Garcia: So where are we landing? It sounds like we move the dashboard to nightly batch refreshes.
Omar Haddad: That's how I heard it too.
Elena Garcia: Who wants to write the migration plan for the batch jobs?
Felix Braun: I'll do it. Give me until Friday, February 13.
Elena Garcia: That works. I keep telling myself I'll buy a proper umbrella.
Omar Haddad: I'll take the action to benchmark the new query engine.
Elena Garcia: Thanks. By February 18?
Omar Haddad: Yep, by February 18.
Elena Garcia: Let's lock it in. We keep the current pricing tiers until the summer.
Yuki Tanaka: Sounds good.
Elena Garcia: I'm going to make the call: we hire one more designer for the pricing page.
Felix Braun: No objection from me.
Felix Braun: Let me prepare the churn analysis for the board. Is March 2 okay?
Elena Garcia: March 2 is great.
Elena Garcia: I'd say we pause the referral experiment and revisit if it doesn't work.
Omar Haddad: Okay. Let's do that.
Elena Garcia: Okay, I think that's everything. Thanks, all.
"""
CONVERSATION_DECISIONS = [
    "Cut the onboarding flow down to three screens",
    "Move the dashboard to nightly batch refreshes",
    "Keep the current pricing tiers until the summer",
    "Hire one more designer for the pricing page",
    "Pause the referral experiment",
]
CONVERSATION_ACTIONS = [
    "Yuki Tanaka: Redesign the welcome screens (due 2026-02-20)",
    "Felix Braun: Write the migration plan for the batch jobs (due 2026-02-13)",
    "Omar Haddad: Benchmark the new query engine (due 2026-02-18)",
    "Felix Braun: Prepare the churn analysis for the board (due 2026-03-02)",
]
MEETING_DECISIONS = [{"northwind"}, {"three", "platform", "engineers"}, {"shut", "staging"}]
MEETING_ACTIONS = [
    "Dana Okafor: Send the signed contract to Northwind (due 2025-03-28)",
    "Marcus Lee: Post the job descriptions (due 2025-03-21)",  # "by Friday" after Friday, March 14
    "Priya Shah: Prepare a revised cloud forecast (due 2025-04-04)",
]
EMAIL_DECISIONS = [{"approved", "$15,000"}, {"legacy", "export"}]
EMAIL_ACTIONS = [
    "Jonas Weber: Finalize the load testing plan (due 2025-04-18)",
    "Aisha Rahman: Update the release notes draft (due 2025-04-22)",
]


def _found(expected: list[set[str]], items: list[str]) -> int:
    """How many expected facts (word sets) some item states in full."""
    return sum(any(words <= set(item.lower().replace(".", " ").split()) for item in items) for words in expected)


def _ask(provider: BaselineProvider, task: TaskContext) -> ChatResponse:
    request = ChatRequest(messages=(Message("user", "prompt text the baseline cannot read"),), task=task)
    return asyncio.run(provider.complete(request))


# --- summarization -------------------------------------------------------------------------------------


def test_participants_come_with_their_stated_roles() -> None:
    assert summarize("textrank", MEETING).participants == [
        "Priya Shah (Finance Lead)",
        "Marcus Lee (Engineering Manager)",
        "Dana Okafor (Procurement Specialist)",
        "Tom Becker (CTO)",
    ]
    # The sender's role is read from the signature; recipients and Cc from the headers.
    assert summarize("textrank", EMAIL).participants == [
        "Sarah Kim (Program Manager)", "Jonas Weber", "Aisha Rahman", "Leo Martins",
    ]


def test_lead_participants_are_raw_speaker_labels_in_order() -> None:
    assert summarize("lead", MEETING).participants == ["Tom Becker", "Priya Shah", "Marcus Lee", "Dana Okafor"]


def test_textrank_finds_decisions_lead_misses() -> None:
    for document, expected in ((MEETING, MEETING_DECISIONS), (EMAIL, EMAIL_DECISIONS)):
        textrank = _found(expected, summarize("textrank", document).key_decisions)
        lead = _found(expected, summarize("lead", document).key_decisions)
        assert textrank == len(expected)
        assert lead < textrank
    # "Agreed." is resolved to the proposal it confirms.
    assert "Go with the $48,500 quote from Northwind" in summarize("textrank", MEETING).key_decisions


def test_textrank_action_items_have_owner_and_iso_due_date() -> None:
    assert summarize("textrank", MEETING).action_items == MEETING_ACTIONS
    email_items = summarize("textrank", EMAIL).action_items
    assert email_items[:2] == EMAIL_ACTIONS
    assert any(item.startswith("Sarah Kim: Schedule the beta readiness review") for item in email_items)
    for document in (MEETING, EMAIL):
        lead_items = summarize("lead", document).action_items
        assert not any("(due 20" in item for item in lead_items)


def test_conversational_decisions_and_tasks_are_resolved() -> None:
    summaries = summarize("textrank", CONVERSATION)
    assert summaries.key_decisions == CONVERSATION_DECISIONS
    assert summaries.action_items == CONVERSATION_ACTIONS  # no umbrella: a wish is not a commitment
    assert summaries.topics_discussed[:3] == ["Mobile onboarding flow", "Analytics dashboard", "Pricing page"]
    lead = summarize("lead", CONVERSATION)
    assert _found([set(d.lower().split()) for d in CONVERSATION_DECISIONS], lead.key_decisions) == 0
    assert not any("(due 20" in item for item in lead.action_items)


def test_topics_come_from_the_agenda_or_from_topic_cues() -> None:
    agenda = "Agenda:\n1. Vendor migration budget\n2. Hiring plan for the platform team\n3. Cloud cost review\n\n"
    with_agenda = MEETING.replace("Transcript:", agenda + "Transcript:")
    assert summarize("textrank", with_agenda).topics_discussed == [
        "Vendor migration budget", "Hiring plan for the platform team", "Cloud cost review",
    ]
    # Without an agenda: "Let's start with ...", "Next, ...", "Last item, ..." name the topics.
    assert summarize("textrank", MEETING).topics_discussed[:3] == [
        "Vendor migration budget", "Hiring plan for the platform team", "Cloud costs",
    ]
    email_topics = [t.lower() for t in summarize("textrank", EMAIL).topics_discussed]
    assert "project atlas" in email_topics and "load testing" in email_topics


def test_prose_summaries_have_the_requested_length_and_skip_greetings() -> None:
    lead = summarize("lead", MEETING)
    assert not lead.executive_summary.startswith("Good morning")
    assert lead.executive_summary.count(". ") + 1 == 3
    textrank = summarize("textrank", MEETING)
    assert "2025-03-14" in textrank.executive_summary
    assert "$48,500" in textrank.detailed_summary and "Dana Okafor" in textrank.detailed_summary
    assert len(textrank.detailed_summary) > len(textrank.executive_summary)


# --- question answering --------------------------------------------------------------------------------

QUESTIONS = [
    (MEETING, "Who will send the signed contract to Northwind?", "Dana Okafor"),
    (MEETING, "Who will post the job descriptions?", "Marcus Lee"),
    (MEETING, "By when must the signed contract be sent?", "2025-03-28"),  # a deadline: ISO, the year is known
    (MEETING, "When is the revised cloud forecast due?", "2025-04-04"),
    (MEETING, "How much was the lowest complete vendor quote?", "$48,500"),
    (MEETING, "How many open roles does the platform team have?", "4"),
    (MEETING, "By what percentage did cloud spend grow in February?", "18%"),
    (MEETING, "Who attended the meeting?", "Priya Shah, Marcus Lee, Dana Okafor, Tom Becker"),
    (MEETING, "What is Priya Shah's role?", "Finance Lead"),
    (MEETING, "Who is the CTO?", "Tom Becker"),
    (EMAIL, "Who was the email sent to?", "Jonas Weber, Aisha Rahman"),
    (EMAIL, "Who sent the email?", "Sarah Kim"),
    (EMAIL, "How much additional funding was approved for load testing?", "$15,000"),
    (EMAIL, "When is the beta release?", "May 12"),
    (EMAIL, "How many participants took part in user testing?", "14"),
    (EMAIL, "What percentage of the data pipeline is complete?", "85%"),
    (EMAIL, "Who needs to finalize the load testing plan?", "Jonas Weber"),
    (CONVERSATION, "Who will write the migration plan for the batch jobs?", "Felix Braun"),
    (CONVERSATION, "By when must Omar benchmark the new query engine?", "2026-02-18"),
    (CONVERSATION, "How much do the dashboard queries cost per month?", "$3,200"),
    (CONVERSATION, "When did the meeting take place?", "February 9, 2026"),
]


@pytest.mark.parametrize(("document", "question", "expected"), QUESTIONS, ids=[q for _, q, _ in QUESTIONS])
def test_retrieval_returns_the_bare_typed_answer(document: str, question: str, expected: str) -> None:
    assert answer_question("retrieval", document, question) == expected


def test_lead_qa_returns_a_whole_sentence_and_scores_below_retrieval() -> None:
    answer = answer_question("lead", MEETING, "How much was the lowest complete vendor quote?")
    assert answer.startswith("The lowest complete quote came in at $48,500") and answer.endswith(".")
    lead_exact = sum(answer_question("lead", d, q) == a for d, q, a in QUESTIONS)
    retrieval_exact = sum(answer_question("retrieval", d, q) == a for d, q, a in QUESTIONS)
    assert lead_exact < retrieval_exact


def test_analysis_is_cached_per_document() -> None:
    assert analyze(MEETING) is analyze(MEETING)
    assert analyze(MEETING) is not analyze(EMAIL)


def test_six_concurrent_style_requests_parse_the_document_once(monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[str] = []
    real_build = document_module._build
    monkeypatch.setattr(document_module, "_build", lambda text: builds.append(text) or real_build(text))
    fresh = MEETING.replace("Conference Room B", "Conference Room C")  # not cached by earlier tests
    provider = BaselineProvider("textrank")

    async def all_styles() -> list[ChatResponse]:
        requests = [ChatRequest(messages=(Message("user", "p"),), task=TaskContext("summarize", fresh, style=s))
                    for s in SUMMARY_STYLES]
        return await asyncio.gather(*(provider.complete(r) for r in requests))

    by_style = dict(zip(SUMMARY_STYLES, asyncio.run(all_styles()), strict=True))
    assert len(builds) == 1
    assert by_style["action_items"].text.splitlines() == [f"- {item}" for item in MEETING_ACTIONS]


# --- provider protocol ---------------------------------------------------------------------------------


def test_summarize_all_returns_json_with_all_styles() -> None:
    provider = create_provider(ProviderSettings(provider="baseline", model="textrank"))
    assert isinstance(provider, BaselineProvider) and provider.is_local and provider.name == "baseline"
    response = _ask(provider, TaskContext(kind="summarize_all", document=MEETING))
    assert json.loads(response.text) == response.data
    assert set(response.data) == set(SUMMARY_STYLES)
    assert Summaries.model_validate(response.data).action_items == MEETING_ACTIONS
    assert response.usage.input_tokens == 0 and response.usage.output_tokens == 0
    assert response.finish_reason == "stop" and response.latency_s >= 0 and response.model == "textrank"


def test_summarize_one_style_renders_lists_as_dash_lines() -> None:
    provider = BaselineProvider("textrank")
    text = _ask(provider, TaskContext(kind="summarize", document=MEETING, style="action_items")).text
    assert text.splitlines() == [f"- {item}" for item in MEETING_ACTIONS]
    prose = _ask(provider, TaskContext(kind="summarize", document=MEETING, style="executive_summary")).text
    assert not prose.startswith("- ") and "$48,500" in prose


def test_models_map_across_use_cases() -> None:
    answer = TaskContext(kind="answer", document=MEETING, question="Who will post the job descriptions?")
    assert _ask(BaselineProvider("textrank"), answer).text == "Marcus Lee"  # qa on textrank -> retrieval
    assert _ask(BaselineProvider("lead"), answer).text == "I'll post the job descriptions by Friday."
    summary = TaskContext(kind="summarize_all", document=EMAIL)
    assert _ask(BaselineProvider("retrieval"), summary).data == _ask(BaselineProvider("textrank"), summary).data


def test_unknown_model_is_a_config_error_listing_the_models() -> None:
    with pytest.raises(ConfigError, match="lead, textrank, retrieval"):
        BaselineProvider("gpt-4o")


@pytest.mark.parametrize("task", [None, TaskContext(kind="generic", document=MEETING)], ids=["no-task", "generic"])
def test_free_form_prompts_are_refused(task: TaskContext | None) -> None:
    with pytest.raises(BadRequestError, match="only serves gaia-eval's summarization and qa tasks") as err:
        asyncio.run(BaselineProvider("lead").complete(ChatRequest(messages=(Message("user", "hi"),), task=task)))
    assert not err.value.retryable


def test_unknown_style_is_a_bad_request() -> None:
    with pytest.raises(BadRequestError, match="style"):
        _ask(BaselineProvider("lead"), TaskContext(kind="summarize", document=MEETING, style="haiku"))


# --- robustness ----------------------------------------------------------------------------------------

JUNK = ["", "   \n\n", "x", "Subject:", "From: a\nTo: b\n", "A: B: C:\nA: x\nB: y", "\x00\x01 binary ??", ". , ; !"]


@pytest.mark.parametrize("document", JUNK, ids=range(len(JUNK)))
def test_every_model_survives_empty_and_junk_input(document: str) -> None:
    for model in ("lead", "textrank", "retrieval"):
        provider = BaselineProvider(model)
        data = _ask(provider, TaskContext(kind="summarize_all", document=document)).data
        Summaries.model_validate(data)
        answer = _ask(provider, TaskContext(kind="answer", document=document, question="Who decided what, when?"))
        assert isinstance(answer.text, str)


def _long_transcript(words: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    speakers = ["Alice Moreau", "Bongani Dlamini", "Chen Wei", "Dmitri Volkov"]
    vocabulary = ("budget release customer pipeline latency migration vendor contract hiring roadmap dashboard "
                  "forecast security audit onboarding pricing churn revenue backlog sprint testing deployment "
                  "review quarter metrics the we will should agreed decided by on for to and with of a").split()
    lines = ["Weekly Operations Review", "Date: June 2, 2025", ""]
    count = 0
    while count < words:
        sentence_lengths = [rng.randint(6, 22) for _ in range(rng.randint(1, 4))]
        text = " ".join(" ".join(rng.choice(vocabulary) for _ in range(n)).capitalize() + "." for n in sentence_lengths)
        lines.append(f"{rng.choice(speakers)}: {text}")
        count += sum(sentence_lengths)
    return "\n".join(lines)


def test_a_20k_word_transcript_is_handled_fast() -> None:
    document = _long_transcript(20_000)
    started = time.process_time()  # CPU time of this process: a busy machine does not inflate it, wall time would
    for model in ("lead", "textrank"):
        summaries = summarize(model, document)
        assert summaries.executive_summary
    answer = answer_question("retrieval", document, "How many customers churned after the pricing review?")
    cpu = time.process_time() - started
    assert cpu < 2.0, f"took {cpu:.2f}s of CPU"
    assert set(summaries.participants) == {"Alice Moreau", "Bongani Dlamini", "Chen Wei", "Dmitri Volkov"}
    assert isinstance(answer, str)


QMSUM = sorted((Path(__file__).resolve().parent / "data" / "qmsum").glob("*.txt"))  # a small copy, see its README


@pytest.mark.parametrize("path", QMSUM, ids=[p.stem for p in QMSUM])
def test_real_meeting_transcripts_are_summarized_fast(path: Path) -> None:
    document = path.read_text(encoding="utf-8")
    started = time.process_time()
    summaries = summarize("textrank", document)
    answer_question("retrieval", document, "What did the group decide about the budget?")
    assert time.process_time() - started < 2.0
    assert summaries.participants and summaries.executive_summary and summaries.topics_discussed
