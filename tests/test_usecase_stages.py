"""The stages ask the use case, never its name: a use case another package registers (here `tickets`, summaries
of support tickets, and `faq`, answers from help articles, put in the registry for the test) flows through
ground truth, create-template, batch-experiment, import-groundtruth and import-outputs with its own prompts,
instructions and baseline; the command line offers it without importing any use case to print help; and the
built-in use cases' prompts stay byte for byte what they were."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.errors import InputError
from gaia_eval.registry import USE_CASES
from gaia_eval.stages.generate import run_generate
from gaia_eval.usecases import UseCase
from gaia_eval.usecases.summarization import SUMMARY_SCORERS

TICKETS = UseCase(
    name="tickets",
    title="Support ticket summaries",
    answers="summaries",
    scorers=SUMMARY_SCORERS,
    doc_label="support ticket",
    system_prompt="You summarize support tickets for the on-call engineer, using only what the ticket says.",
    baseline="retrieval",
    template_instructions="Paste each ticket's summary into `response` (tickets).",
    answers_instructions="Summarize each ticket into `summaries` (tickets).",
    participants_note="the customer and every agent who replied",
)
FAQ = UseCase(
    name="faq",
    title="Help-centre answers",
    answers="answer",
    scorers={("comparative", False): "qa", ("comparative", True): "long_form_qa"},
    doc_label="help article",
    system_prompt="Answer from the help article only.",
    baseline="retrieval",
    template_instructions="Paste the answer to each record's `query` into `response` (faq).",
    answers_instructions="Answer each item's `query` into `answer` (faq).",
    groundtruth_prompt="groundtruth_qa.j2",
)
PLAIN = UseCase(name="plain", title="Plain", answers="summaries", scorers=SUMMARY_SCORERS)  # no prompt of its own


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The three use cases registered as a package's entry points would register them (built-in names win, so
    the registry's own table is where a test can put them without installing a package)."""
    for case in (TICKETS, FAQ, PLAIN):
        monkeypatch.setitem(USE_CASES.builtin, case.name, case)
    monkeypatch.setattr(USE_CASES, "_loaded", {})  # nothing of the test's is left cached after it


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def read(path: Path) -> dict:
    return orjson.loads(path.read_bytes())


@pytest.fixture
def tickets_gt(plugins, tmp_path: Path) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup", "budget_planning"], count_per_type=1, seed=2)
    code, output = invoke("groundtruth", "-d", str(tmp_path / "docs"), "-u", "tickets", "-o", str(tmp_path / "gt"))
    assert code == 0, output
    return tmp_path / "gt"


def test_groundtruth_and_create_template_take_the_plugin_use_case_and_its_instructions(tickets_gt, tmp_path):
    consolidated = read(tickets_gt / "consolidated_tickets_groundtruth.json")
    assert {item["use_case"] for item in consolidated["items"]} == {"tickets"}
    code, output = invoke("create-template", "-d", str(tickets_gt), "-u", "tickets", "-o", str(tmp_path / "tpl"))
    assert code == 0, output
    template = read(tmp_path / "tpl" / "tickets.template.json")
    assert template["use_case"] == "tickets" and template["instructions"] == TICKETS.template_instructions
    from gaia_eval.scoring.scorers import SUMMARIES, SUMMARIES_STANDALONE

    assert list(template["records"][0]["evaluation_criteria"]) == list(SUMMARIES.criterion_ids)
    # Raw documents: the standalone scorer's criteria, under the plugin's name.
    code, output = invoke("create-template", "-d", str(tmp_path / "docs"), "-u", "tickets", "-o", str(tmp_path / "raw"))
    assert code == 0, output
    raw = read(tmp_path / "raw" / "tickets.template.json")
    assert raw["use_case"] == "tickets"
    assert list(raw["records"][0]["evaluation_criteria"]) == list(SUMMARIES_STANDALONE.criterion_ids)
    from gaia_eval.stages.templates.answers import run_create_template

    answers = read(run_create_template(tickets_gt, tmp_path / "answers", "mine"))
    assert answers["use_case"] == "tickets" and answers["instructions"] == TICKETS.answers_instructions


def test_a_use_case_takes_only_the_ground_truth_it_shares(tickets_gt, tmp_path):
    """tickets declares no kin: summarization ground truth is not its (email's is summarization's, and back)."""
    code, output = invoke("groundtruth", "-d", str(tmp_path / "docs"), "-o", str(tmp_path / "sgt"))
    assert code == 0, output
    code, output = invoke("create-template", "-d", str(tmp_path / "sgt"), "-u", "tickets", "-o", str(tmp_path / "t"))
    assert code == 2 and "holds summarization ground truth, not tickets" in output
    code, output = invoke("create-template", "-d", str(tmp_path / "sgt"), "-u", "email", "-o", str(tmp_path / "t"))
    assert code == 0, output


def test_batch_experiment_runs_the_plugin_use_cases_baseline_by_default(tickets_gt, tmp_path):
    code, output = invoke("batch-experiment", "-i", str(tickets_gt), "-o", str(tmp_path / "exp"), "--quiet")
    assert code == 0, output
    assert "default for tickets: baseline-retrieval, baseline-lead" in output
    experiment = read(tmp_path / "exp" / "baseline-retrieval.experiment.json")
    assert experiment["use_case"] == "tickets" and {i["status"] for i in experiment["items"]} == {"ok"}


def test_a_model_gets_the_plugin_use_cases_system_prompt_and_document_name(tickets_gt, tmp_path, fake_llm,
                                                                            monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"experiments": [
        {"name": "m", "provider": "openai", "model": "gpt-4o-mini", "base_url": fake_llm.openai_base_url}]}))
    code, output = invoke("batch-experiment", "-c", str(config), "-i", str(tickets_gt), "-o", str(tmp_path / "e"),
                          "--quiet")
    assert code == 0, output
    bodies = [r["body"] for r in fake_llm.requests]
    assert len(bodies) == 12  # two documents, six summary styles each
    assert {b["messages"][0]["content"] for b in bodies} == {TICKETS.system_prompt}
    assert all("support ticket" in b["messages"][1]["content"] for b in bodies)


def test_import_groundtruth_and_outputs_take_the_plugin_use_cases(plugins, tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"item_id": "t1", "source": "The printer on floor 2 jams when duplex is on.",
                                "references": ["Duplex printing jams the floor-2 printer."],
                                "qa": [{"question": "Which floor?", "answer": "2"}]}) + "\n")
    code, output = invoke("import-groundtruth", str(data), "-o", str(tmp_path / "gt"), "-u", "tickets")
    assert code == 0, output
    assert read(tmp_path / "gt" / "consolidated_tickets_groundtruth.json")["use_case"] == "tickets"
    assert read(tmp_path / "gt" / "consolidated_qa_groundtruth.json")["use_case"] == "qa"  # pairs keep the default
    code, output = invoke("import-groundtruth", str(data), "-o", str(tmp_path / "gt2"), "-u", "faq")
    assert code == 0, output
    assert "faq: 1 questions" in output
    assert {p.name for p in (tmp_path / "gt2").glob("consolidated_*")} == {
        "consolidated_summarization_groundtruth.json", "consolidated_faq_groundtruth.json"}

    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(json.dumps({"item_id": "t1", "system": "desk-bot", "output": "Duplex jams the printer."}))
    code, output = invoke("import-outputs", str(outputs), "-o", str(tmp_path / "exp"), "--use-case", "tickets",
                          "-g", str(tmp_path / "gt" / "consolidated_tickets_groundtruth.json"))
    assert code == 0, output
    assert "use case: tickets (from the ground truth" in output
    assert read(tmp_path / "exp" / "desk-bot.experiment.json")["use_case"] == "tickets"

    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"item_id": "t1#q01", "system": "desk-bot", "output": "floor 2"}))
    code, output = invoke("import-outputs", str(answers), "-o", str(tmp_path / "qexp"), "--use-case", "faq")
    assert code == 2 and "faq outputs are scored against their expected answers" in output
    code, output = invoke("import-outputs", str(answers), "-o", str(tmp_path / "qexp"),
                          "-g", str(tmp_path / "gt2" / "consolidated_faq_groundtruth.json"))
    assert code == 0, output
    experiment = read(tmp_path / "qexp" / "desk-bot.experiment.json")
    assert experiment["use_case"] == "faq" and experiment["groundtruth"] == "embedded"
    assert experiment["items"][0]["groundtruth_answer"]["answer"] == "2"


def test_an_unknown_use_case_is_refused_naming_the_plugin_ones(plugins, tmp_path):
    code, output = invoke("import-outputs", str(tmp_path / "x.jsonl"), "--use-case", "nosuch")
    assert code == 2 and "unknown use case 'nosuch'" in output
    assert "tickets" in output and "faq" in output


def test_help_lists_use_cases_without_importing_one_or_a_stage():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from gaia_eval.cli import cli\n"
        "for command in ('create-template', 'import-outputs', 'import-groundtruth', 'groundtruth', 'annotate'):\n"
        "    result = CliRunner().invoke(cli, [command, '--help'])\n"
        "    assert result.exit_code == 0 and '[summarization|email|qa' in result.output, result.output\n"
        "print(sorted(m for m in sys.modules if m.startswith(('gaia_eval.usecases', 'gaia_eval.stages'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_solver_prompts_come_from_the_use_case(plugins):
    from gaia_eval.scoring.answers import concise_answer_instructions
    from gaia_eval.stages.experiment.solvers import KIND_SYSTEM_PROMPTS, default_system_prompt

    assert default_system_prompt("tickets") == TICKETS.system_prompt
    assert default_system_prompt("faq") == "Answer from the help article only.\n" + concise_answer_instructions()
    assert default_system_prompt("plain") == KIND_SYSTEM_PROMPTS["summaries"]


def test_the_built_in_system_prompts_are_unchanged():
    from gaia_eval.scoring.answers import concise_answer_instructions
    from gaia_eval.stages.experiment.solvers import default_system_prompt

    qa = default_system_prompt("qa")
    assert qa == "Answer the question from the document only.\n" + concise_answer_instructions()
    assert default_system_prompt("summarization") == (
        "You summarize business meetings and emails accurately and concisely, using only what the document says.")
    assert default_system_prompt("email") == (
        "You summarize business emails accurately and concisely, using only what the email says.")


def test_summarize_uses_the_kin_its_file_is_named_after():
    from gaia_eval.stages.experiment.summarize import summarize_use_case

    assert summarize_use_case(Path("inbox/Support_Email_3.txt")) == "email"
    assert summarize_use_case(Path("email/notes.txt")) == "summarization"  # the file's name, not its folder


def test_ground_truth_prompts_of_a_plugin_use_case(plugins):
    from gaia_eval.providers import ProviderSettings
    from gaia_eval.stages.groundtruth.llm import LLMGroundTruthOptions, repair_prompt, reply_schema, user_prompt

    options = LLMGroundTruthOptions(settings=ProviderSettings(provider="openai", model="m"), num_samples=3)
    tickets = user_prompt("tickets", "Ana: the printer jams.", options)
    assert "Here is a support ticket:" in tickets
    assert "every person who takes part (the customer and every agent who replied)," in tickets
    faq = user_prompt("faq", "Reset the router by holding the button.", options)
    assert "this help article" in faq and '"qa_pairs"' in faq
    assert "3 question-answer pairs" in repair_prompt("faq", ["too few"], 3)
    assert "question-answer" not in repair_prompt("tickets", ["too few"], 3)
    assert "qa_pairs" in reply_schema("faq", 3)["properties"]


# sha256 (first 16 hex digits) of the prompts the templates rendered before they asked the use case (commit
# d52e39f, where they tested `use_case == "qa"` / `== "email"`), for this document and 3 samples.
DOCUMENT = "Priya Shah: The vendor quoted $48,500.\nTom Berg: Approved; I send the order by March 10."
EARLIER_PROMPTS = {
    "summarization": ("d6b8a449f9613b4e", "362043c971c26a2f"),
    "email": ("140c3d6377d657e2", "362043c971c26a2f"),
    "qa": ("077ddf97b5defcc3", "9f84c2223d06e2e8"),
}


def test_ground_truth_prompts_render_as_before_so_their_fingerprint_is_kept():
    """RENDERS_AS_BEFORE keeps the earlier fingerprint of the ground-truth templates (so ground truth drafted with
    them is not drafted again at a cost). That is only true while every built-in use case's prompt and repair turn
    render byte for byte as before: after a real edit of a template, delete its entry and this test."""
    from gaia_eval.prompts import prompts_fingerprint
    from gaia_eval.providers import ProviderSettings
    from gaia_eval.stages.groundtruth.llm import (
        GROUNDTRUTH_TEMPLATES,
        RENDERS_AS_BEFORE,
        LLMGroundTruthOptions,
        groundtruth_prompts_fingerprint,
        repair_prompt,
        user_prompt,
    )

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    options = LLMGroundTruthOptions(settings=ProviderSettings(provider="openai", model="m"), num_samples=3)
    rendered = {use_case: (digest(user_prompt(use_case, DOCUMENT, options)), digest(repair_prompt(use_case, ["p1"], 3)))
                for use_case in EARLIER_PROMPTS}
    assert rendered == EARLIER_PROMPTS
    assert prompts_fingerprint(*GROUNDTRUTH_TEMPLATES) in RENDERS_AS_BEFORE
    assert groundtruth_prompts_fingerprint() == (
        "sha256:f4e9bccbb755228d43037529087e692da863e7c01ab79730aa4513b214968d3a")


def test_kin_share_ground_truth_in_imports_and_answer_templates(tmp_path):
    """email's ground truth is summarization's (kin): import-outputs --use-case email -g <summarization> takes the
    outputs as email, and an email answer template imports against summarization ground truth; qa's does not."""
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"item_id": "m1", "source": "Ana: we ship on Friday. Bo: I write the notes.",
                                "references": ["They ship on Friday."],
                                "qa": [{"question": "When?", "answer": "Friday"}]}) + "\n")
    assert invoke("import-groundtruth", str(data), "-o", str(tmp_path / "gt"))[0] == 0
    summaries = tmp_path / "gt" / "consolidated_summarization_groundtruth.json"
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(json.dumps({"item_id": "m1", "system": "s", "output": "Ship Friday."}))
    code, output = invoke("import-outputs", str(outputs), "-o", str(tmp_path / "exp"), "--use-case", "email",
                          "-g", str(summaries))
    assert code == 0, output
    assert "use case: email (from --use-case, with consolidated_summarization_groundtruth.json)" in output
    assert read(tmp_path / "exp" / "s.experiment.json")["use_case"] == "email"
    code, output = invoke("import-outputs", str(outputs), "-o", str(tmp_path / "exp2"), "--use-case", "qa",
                          "-g", str(summaries))
    assert code == 2 and "holds summarization ground truth but --use-case is qa" in output

    from gaia_eval.stages.templates.answers import answer_template_experiment, run_create_template

    template = run_create_template(summaries, tmp_path / "tpl", "mine")
    filled = read(template)
    filled["use_case"] = "email"
    filled["items"][0]["summaries"]["executive_summary"] = "They ship on Friday."
    template.write_bytes(orjson.dumps(filled))
    experiment, _ = answer_template_experiment(template)
    assert experiment.use_case == "email" and experiment.items[0].status == "ok"
    filled["use_case"] = "qa"
    template.write_bytes(orjson.dumps(filled))
    with pytest.raises(InputError, match="is a qa template but"):
        answer_template_experiment(template)


def _reregistered(monkeypatch: pytest.MonkeyPatch, case: UseCase) -> None:
    monkeypatch.setitem(USE_CASES.builtin, case.name, case)
    monkeypatch.setattr(USE_CASES, "_loaded", {})


def test_editing_a_plugin_use_case_makes_its_experiments_and_evaluations_stale(tickets_gt, tmp_path, monkeypatch):
    """A package's use case is not gaia-eval's code: a new system prompt re-runs its experiments (else they would
    read "current" with answers to the old prompt), new scorers re-score its evaluations."""
    exp, ev = str(tmp_path / "exp"), str(tmp_path / "ev")

    def run(*args: str) -> str:
        code, output = invoke(*args)
        assert code == 0, output
        return output

    run("batch-experiment", "-i", str(tickets_gt), "-o", exp, "--quiet")
    run("eval", "-d", exp, "-o", ev)
    assert "skipped 2 (up to date)" in run("batch-experiment", "-i", str(tickets_gt), "-o", exp, "--quiet")
    assert "skipped 2 (up to date)" in run("eval", "-d", exp, "-o", ev)

    _reregistered(monkeypatch, replace(TICKETS, system_prompt="Summarize the ticket for the customer."))
    again = run("batch-experiment", "-i", str(tickets_gt), "-o", exp, "--quiet")
    assert "redone 2 (stale)" in again
    assert "redone 2 (stale)" in run("eval", "-d", exp, "-o", ev)  # the experiments changed
    assert "skipped 2 (up to date)" in run("eval", "-d", exp, "-o", ev)

    _reregistered(monkeypatch, replace(TICKETS, system_prompt="Summarize the ticket for the customer.",
                                       scorers={**TICKETS.scorers, ("standalone", False): "free_text"}))
    assert "redone 2 (stale)" in run("eval", "-d", exp, "-o", ev)


def test_a_shipped_use_case_adds_no_input_so_its_artifacts_keep_their_bytes(plugins):
    from gaia_eval import usecases
    from gaia_eval.providers.registry import ProviderSettings
    from gaia_eval.stages.groundtruth.llm import LLMGroundTruthOptions, groundtruth_inputs

    for name in ("summarization", "email", "qa"):
        assert usecases.settings_inputs(usecases.get(name)) == {}
    options = LLMGroundTruthOptions(settings=ProviderSettings(provider="openai", model="m"))
    assert "use_case" not in groundtruth_inputs("sha256:x", "summarization", options)
    tickets = groundtruth_inputs("sha256:x", "tickets", options)["use_case"]
    edited = replace(TICKETS, participants_note="the customer only")
    assert usecases.settings_inputs(edited) == {"use_case": usecases.settings_inputs(edited)["use_case"]}
    assert usecases.settings_inputs(edited)["use_case"] != tickets  # an edit the ground-truth prompt shows
