"""A provider added by another package (tests/plugins: a module and its entry point in a dist-info, nothing in
gaia_eval/) is listed and used by every command that takes a provider, through the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval.stages.generate import run_generate
from tests.fakeserver import last_user_text

PLUGINS = Path(__file__).resolve().parent / "plugins"
ROOT = PLUGINS.parent.parent


@pytest.fixture
def run(fake_llm, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")]),
           "ACME_BASE_URL": fake_llm.openai_base_url, "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gaia_eval", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)

    return run


def _models_asked(fake_llm) -> set[str]:
    return {r["body"].get("model") for r in fake_llm.requests}


def test_every_command_that_takes_a_provider_lists_the_plugin(run):
    for command in ("generate", "groundtruth", "summarize"):
        result = run(command, "--help")
        assert result.returncode == 0 and "|acme]" in result.stdout.replace("\n", "").replace(" ", ""), command
    unknown = run("summarize", "-i", "x.txt", "--provider", "nosuch")
    assert unknown.returncode == 2 and "acme" in unknown.stderr  # the plugin is among the choices offered


def test_summarize_generate_and_groundtruth_call_the_plugin_provider(run, fake_llm, tmp_path: Path):
    doc = tmp_path / "meeting.txt"
    doc.write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    result = run("summarize", "-i", str(doc), "--styles", "brief", "--provider", "acme", "--model", "acme-small")
    assert result.returncode == 0, result.stderr
    assert _models_asked(fake_llm) == {"acme-small"}
    fake_llm.reset()
    result = run("generate", "--email", "--email-types", "project_update", "-o", "docs", "--quiet",
                 "--provider", "acme", "--model", "acme-writer")
    assert result.returncode != 2, result.stderr  # accepted (the echo server's documents may fail their checks)
    assert _models_asked(fake_llm) == {"acme-writer"}
    fake_llm.reset()
    run_generate("meeting", tmp_path / "offline", types=["standup"], count_per_type=1, seed=2)
    result = run("groundtruth", "-d", "offline", "-o", "gt", "--quiet", "--provider", "acme", "--model", "acme-gt")
    assert result.returncode != 2, result.stderr
    assert _models_asked(fake_llm) == {"acme-gt"}


def test_batch_experiment_and_the_judge_use_the_plugin_provider(run, fake_llm, tmp_path: Path):
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=1, seed=2)
    assert run("groundtruth", "-d", "docs", "-o", "gt", "--quiet").returncode == 0
    config = {"experiments": [{"name": "acme-run", "provider": "acme", "model": "acme-large"}]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    result = run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "exp", "--quiet")
    assert result.returncode == 0, result.stderr
    assert _models_asked(fake_llm) == {"acme-large"}
    experiment = json.loads(next((tmp_path / "exp").rglob("acme-run*.experiment.json")).read_text())
    assert experiment["totals"]["cost_status"] != "unpriced"  # a local plugin provider costs $0, like a preset
    fake_llm.reset()
    result = run("eval", "-d", "exp", "-o", "ev", "--judge", "acme:acme-judge", "--scorer", "acme_ticket_ref")
    assert result.returncode != 2, result.stderr
    assert _models_asked(fake_llm) == {"acme-judge"}
    evaluation = json.loads(next((tmp_path / "ev").rglob("acme-run*.eval.json")).read_text())
    assert evaluation["judge"] is not None  # the judge's items keep the package scorer's criteria
    assert [c["scorer"] for i in evaluation["items"] for c in i["extra_criteria"]] == ["acme_ticket_ref"]


TICKETS = {
    "ticket_1.txt": "Ticket #4521 - Customer: Dana Ruiz (Northwind). Agent: Sam Lee.\n"
    "Dana: Since Monday the invoice export fails with error 502 for every file over 10 MB.\n"
    "Sam: I reproduced it on staging; the proxy limit is 10 MB.\n"
    "Sam: I will raise the limit to 50 MB on Friday and email Dana when it is done.\n"
    "Dana: Fine, until then we split the exports by month.\n",
    "ticket_2.txt": "Ticket #4533 - Customer: Omar Haddad (Contoso). Agent: Priya Nair.\n"
    "Omar: Two users cannot log in after the password reset; they get 'account locked'.\n"
    "Priya: The reset locked accounts with more than five failed attempts. I unlocked both accounts.\n"
    "Priya: Engineering will fix the lockout rule in release 3.2, due on 14 March.\n"
    "Omar: Thanks, both users are back in.\n",
}


def _write_tickets(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in TICKETS.items():
        (folder / name).write_text(text)


def _summaries_of(text: str) -> dict:
    """The ground truth the acme model 'writes' for a ticket: its sentences, as the summaries' fields."""
    lines = [line.split(": ", 1)[-1] for line in text.splitlines()[1:]]
    return {"executive_summary": text.splitlines()[0] + " " + lines[0],
            "detailed_summary": " ".join(lines), "action_items": [lines[2]], "key_decisions": [lines[3]],
            "participants": [text.split("Customer: ")[1].split(" (")[0], text.split("Agent: ")[1].rstrip(".\n")],
            "topics_discussed": [lines[0]]}


def _experiment_on_tickets(run, fake_llm, tmp_path: Path) -> None:
    """tickets ground truth written by the acme provider, then batch-experiment with a baseline and acme."""
    _write_tickets(tmp_path / "docs")
    # Each ticket's reply by the ticket asked about (the two requests may arrive in either order).
    fake_llm.responder = lambda req: {"json": _summaries_of(next(t for t in TICKETS.values()
                                                                 if t.splitlines()[0] in last_user_text(req["body"])))}
    result = run("groundtruth", "-d", "docs", "-u", "tickets", "-o", "gt", "--quiet", "--provider", "acme",
                 "--model", "acme-gt")
    assert result.returncode == 0, result.stderr
    gt = json.loads(next((tmp_path / "gt").rglob("consolidated_tickets_groundtruth.json")).read_text())
    assert {item["use_case"] for item in gt["items"]} == {"tickets"}
    fake_llm.reset()  # the echo responder again: the acme model's summaries are its echo of the prompt
    config = {"experiments": [{"name": "textrank", "provider": "baseline", "model": "textrank"},
                              {"name": "acme-run", "provider": "acme", "model": "acme-large"}]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    result = run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "exp", "--quiet")
    assert result.returncode == 0, result.stderr
    prompts = [json.dumps(r["body"]) for r in fake_llm.requests]
    assert prompts and all("You summarize customer support tickets" in p and "support ticket" in p for p in prompts)
    assert _models_asked(fake_llm) == {"acme-large"}


def test_a_plugin_use_case_goes_from_groundtruth_to_report_and_viewer(run, fake_llm, tmp_path: Path):
    """`tickets` (a UseCase declared by the test package) through groundtruth (by the acme provider) ->
    batch-experiment -> eval (with the package's scorer too) -> report -> viewer, under its own title."""
    _experiment_on_tickets(run, fake_llm, tmp_path)
    result = run("eval", "-d", "exp", "-o", "ev", "--scorer", "acme_ticket_ref")
    assert result.returncode == 0, result.stderr
    evaluation = json.loads(next((tmp_path / "ev").rglob("textrank*.eval.json")).read_text())
    assert evaluation["use_case"] == "tickets" and evaluation["mode"] == "comparative"
    assert [c["criterion"] for c in evaluation["extra_criteria"]] == ["ticket_ref"]
    result = run("report", "-d", "ev", "-o", "reports/report.md")
    assert result.returncode == 0, result.stderr
    report = (tmp_path / "reports" / "report.md").read_text()
    assert "## Support ticket summaries" in report and "### Extra scorers (not in the grade)" in report
    assert "acme_ticket_ref: ticket_ref" in report
    _viewer_shows(tmp_path, "Support ticket summaries")


def test_a_plugin_use_case_s_template_carries_its_instructions_and_is_scored_under_its_title(run, fake_llm,
                                                                                               tmp_path: Path):
    """create-template for `tickets` writes the use case's own instructions; filled in and scored, the report
    and viewer show it as "Support ticket summaries"."""
    _write_tickets(tmp_path / "docs")
    result = run("create-template", "-d", "docs", "--use-case", "tickets", "-o", "templates")
    assert result.returncode == 0, result.stderr
    path = next((tmp_path / "templates").glob("*.template.json"))
    template = json.loads(path.read_text())
    assert template["use_case"] == "tickets" and "each support ticket into `response`" in template["instructions"]
    for record in template["records"]:
        first = record["input_text"].splitlines()[0]
        record["response"] = f"Executive summary: {first}\nDetailed summary: {record['input_text']}"
    path.write_text(json.dumps(template))
    result = run("eval", "-d", "templates", "-o", "ev", "--scorer", "acme_ticket_ref")
    assert result.returncode == 0, result.stderr
    evaluation = json.loads(next((tmp_path / "ev").rglob("*.eval.json")).read_text())
    assert evaluation["use_case"] == "tickets" and evaluation["mode"] == "standalone"
    assert evaluation["extra_criteria"][0]["counts"]["Excellent"] == 2  # each summary names its ticket's number
    assert run("report", "-d", "ev", "-o", "reports/report.md").returncode == 0
    assert "## Support ticket summaries (standalone)" in (tmp_path / "reports" / "report.md").read_text()
    _viewer_shows(tmp_path, "Support ticket summaries")


def _viewer_shows(tmp_path: Path, text: str) -> None:
    """The viewer's dashboard data and its rendering of report.md both carry `text` (read through the real
    server, in a subprocess with the plugin on its path)."""
    script = (
        "import json, sys; from pathlib import Path; from gaia_eval.visualize import data;"
        "print(json.dumps(data.dashboard(Path('ev'), Path('reports'))));"
        "print(data.report_html(Path('reports/report.md')))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")])}
    shown = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    dashboard, html = shown.stdout.split("\n", 1)
    assert text in dashboard and text in html


def _readme_section(heading: str) -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index(f"\n{heading}\n")
    return text[start:text.index("\n#", start + len(heading) + 2)]


def test_the_readme_scorer_example_runs_from_a_fresh_clone_as_shown(tmp_path: Path):
    """The README's "Write your own scorer" block, run whole by bash in a fresh clone: it prints the lines the
    README shows, writes the report rows it shows, and leaves `git status` clean."""
    if shutil.which("git") is None or shutil.which("bash") is None:
        pytest.skip("git or bash is not installed")
    section = _readme_section("### Write your own scorer")
    block, said, table = re.findall(r"```(?:bash)?\n(.*?)```", section, re.S)[:3]
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True, timeout=120)
    shutil.copy(ROOT / ".gitignore", clone / ".gitignore")  # the working tree's (a test runs on the edits too)
    subprocess.run(["git", "-C", str(clone), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "wt",
                    "--allow-empty"], check=True, timeout=60)
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for line in filter(None, said.splitlines()):
        assert line in done.stdout.splitlines(), (line, done.stdout)
    report = (clone / "my_data" / "reports" / "report.md").read_text()
    assert table.strip() in report
    status = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True,
                            check=True).stdout
    assert status == "", status


def test_meta_eval_measures_the_plugin_provider_as_a_judge(run, fake_llm, tmp_path: Path):
    from tests.test_metaeval import _fixture_rows, _write

    _write(tmp_path / "ratings.jsonl", _fixture_rows())
    result = run("meta-eval", "ratings.jsonl", "--exclude-system", "ref", "--judge", "acme:acme-judge", "--limit", "2",
                 "-o", "m.json")
    assert result.returncode != 2, result.stderr  # accepted (the echo server's replies may not rate)
    assert _models_asked(fake_llm) == {"acme-judge"}
