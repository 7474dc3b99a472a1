"""Every prompt template renders with realistic variables into clean text: no template syntax left over (the
reference tool sent literal `{{ }}` to its judge), no empty section, no `None` rendered into a prompt.

A new template needs a rendering case here: the coverage test names any template without one."""

from __future__ import annotations

import re

import pytest

from gaia_eval import usecases
from gaia_eval.artifacts.groundtruth import QAPair, Summaries
from gaia_eval.prompts import render, template_names
from gaia_eval.scoring.judge.criteria import COMPARATIVE_QA, COMPARATIVE_SUMMARY, STANDALONE_SUMMARY
from gaia_eval.scoring.judge.prompt import qa_prompt, repair_prompt, summary_prompt
from gaia_eval.stages.generate import run_generate


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("docs")
    run_generate("meeting", out, types=["budget_planning"], seed=11)
    return (out / "budget_planning_meeting.txt").read_text()


ANSWER = Summaries(
    executive_summary="The team agreed the Q3 budget of $48,500 and will review vendor quotes next week.",
    detailed_summary="Priya presented the budget. The team approved $48,500 for Q3 and moved the vendor review.",
    action_items=["Priya Shah: send the revised budget (due 2026-05-12)"],
    key_decisions=["Approve the Q3 budget of $48,500"],
    participants=["Priya Shah (Finance Lead)", "Tom Berg (Engineering Manager)"],
    topics_discussed=["Q3 budget", "vendor quotes"],
)
SPARSE_ANSWER = Summaries(executive_summary="Budget meeting.")  # empty parts must still read as sections
QA = QAPair(id="q01-total", query="What budget was approved for Q3?", answer="48500", answer_type="number",
            evidence="We approve $48,500 for Q3.")


def generation_renderings() -> dict[str, list[str]]:
    """The LLM document generator's prompts, made by its own code from real briefs where it has a function."""
    from gaia_eval.generation.llm.generate import document_prompt, system_prompt
    from gaia_eval.generation.llm.scenario import make_brief

    briefs = [make_brief(kind, doc_type, 1, 7, 800) for kind, doc_type in
              (("meeting", "standup"), ("email", "project_update"), ("pdf", "technical_spec"))]
    problems = ["line 3 is spoken by 'Sam', who is not a participant", "the transcript has a recap at the end"]
    return {
        "generate_system.j2": [system_prompt()],
        "generate_meeting.j2": [document_prompt(briefs[0])],
        "generate_email.j2": [document_prompt(briefs[1])],
        "generate_pdf.j2": [document_prompt(briefs[2])],
        "generate_continue.j2": [
            render("generate_continue.j2", kind=kind, label=label, words=420, target_words=600, missing_words=180)
            for kind, label in (("meeting", "transcript"), ("email", "e-mail"), ("pdf", "technical specification"))
        ],
        "generate_repair.j2": [
            render("generate_repair.j2", kind=kind, label=label, problems=problems)
            for kind, label in (("meeting", "transcript"), ("email", "e-mail"), ("pdf", "technical specification"))
        ],
    }


def groundtruth_renderings(document: str) -> dict[str, list[str]]:
    """The LLM ground-truth stage's prompts, made by its own code for each built-in use case."""
    from gaia_eval.providers import ProviderSettings
    from gaia_eval.stages.groundtruth.llm import LLMGroundTruthOptions, repair_prompt, user_prompt

    options = LLMGroundTruthOptions(settings=ProviderSettings(provider="openai", model="m"), num_samples=5)
    problems = ["'qa_pairs[2].evidence' is not in the document", "'answer_type' must be number, string or list"]
    prompts = {use_case: user_prompt(use_case, document, options) for use_case in ("summarization", "email", "qa")}
    return {
        "groundtruth_system.j2": [render("groundtruth_system.j2")],
        "groundtruth_summaries.j2": [prompts["summarization"], prompts["email"]],
        "groundtruth_qa.j2": [prompts["qa"]],
        "groundtruth_repair.j2": [repair_prompt(use_case, problems, 5) for use_case in prompts],
    }


def renderings(document: str) -> dict[str, list[str]]:
    """Each template rendered the ways the code renders it."""
    styles = [
        ("executive_summary", "Write a brief executive summary (2-3 sentences)."),
        ("action_items", "List every action item, one per line as `- Owner: task (due YYYY-MM-DD)`."),
    ]
    judge_prompts = [
        summary_prompt(usecases.get("summarization"), document, ANSWER, ANSWER, COMPARATIVE_SUMMARY),
        summary_prompt(usecases.get("email"), document, SPARSE_ANSWER, ANSWER, COMPARATIVE_SUMMARY),
        summary_prompt(usecases.get("summarization"), document, SPARSE_ANSWER, None, STANDALONE_SUMMARY),
        qa_prompt(usecases.get("qa"), document, QA.query, QA, "$48,500", COMPARATIVE_QA),
        qa_prompt(usecases.get("qa"), document, QA.query, QA, "", COMPARATIVE_QA),
    ]
    summary_users = [p.user for p in judge_prompts if "<summary_to_evaluate>" in p.user]
    return {
        "concise_answer.j2": [
            render("concise_answer.j2", instruction="Reply with the bare answer only.", answer_type=t)
            for t in (None, "number", "list", "string", "date")
        ],
        "qa_answer.j2": [render("qa_answer.j2", doc_label="document", document=document, question=QA.query)],
        "summarize_combined.j2": [
            render("summarize_combined.j2", doc_label="business email", document=document, styles=styles)
        ],
        "summarize_style.j2": [
            render("summarize_style.j2", doc_label="document", document=document, instruction=text, style_label=key)
            for key, text in styles
        ],
        **generation_renderings(),
        **groundtruth_renderings(document),
        "judge_system.j2": [p.system for p in judge_prompts],
        "judge_summary.j2": summary_users,
        "judge_qa.j2": [p.user for p in judge_prompts if "<answer_to_evaluate>" in p.user],
        "judge_repair.j2": [repair_prompt("'faithfulness' is missing", COMPARATIVE_SUMMARY)],
    }


def problems(text: str) -> list[str]:
    found = [
        f"template syntax {token!r} left in the text" for token in ("{{", "}}", "{%", "%}", "{#", "#}") if token in text
    ]
    found += [f"empty section <{m.group(1)}>" for m in re.finditer(r"<([a-z_]+)>\s*</\1>", text)]
    found += [
        f"empty list entry on line {n}" for n, line in enumerate(text.splitlines(), 1) if line.strip() in ("-", "*")
    ]
    if re.search(r"\bNone\b", text):
        found.append("a None value was rendered")
    if "\n\n\n" in text:
        found.append("a run of blank lines (a block that rendered nothing)")
    if text.rstrip().endswith(":"):
        found.append("ends with a heading that has nothing under it")
    return found


def test_every_template_has_a_realistic_rendering_here(document: str):
    covered = set(renderings(document))
    missing = sorted(set(template_names()) - covered)
    assert not missing, f"add realistic variables for {missing} to tests/test_templates.py"


@pytest.mark.parametrize("name", template_names())
def test_template_renders_without_syntax_leftovers_or_empty_sections(name: str, document: str):
    texts = renderings(document).get(name)
    assert texts, f"{name} has no rendering case"
    for text in texts:
        assert text.strip()
        own = text.replace(document, "DOCUMENT")  # the document's own words ("None from me.") are not template output
        assert problems(own) == [], f"{name}: {problems(own)}"


def test_judge_prompts_carry_source_reference_answer_and_every_criterion(document: str):
    prompt = summary_prompt(usecases.get("summarization"), document, SPARSE_ANSWER, ANSWER, COMPARATIVE_SUMMARY)
    first_line = document.strip().splitlines()[0]
    assert first_line in prompt.user and not prompt.source_excerpted
    assert "<reference_summary>" in prompt.user and "$48,500" in prompt.user
    assert "Action items:\n(empty)" in prompt.user  # the omission is shown, not hidden
    for criterion in COMPARATIVE_SUMMARY:
        assert f"- {criterion.id} ({criterion.label}): " in prompt.user
    standalone = summary_prompt(usecases.get("summarization"), document, ANSWER, None, STANDALONE_SUMMARY)
    assert "<reference_summary>" not in standalone.user and "no reference" in standalone.system


def test_problem_detector_catches_the_reference_tools_defects():
    assert problems('Return JSON like {{"rating": "excellent"}}')  # literal doubled braces
    assert problems("<document>\n\n</document>")
    assert problems("Ground truth: None")

