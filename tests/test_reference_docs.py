"""Every documented command line of the reference tool's evaluation docs, run as written with `gaia` spelled
`gaia-eval` and paths inside a temporary folder (the docs' ./src/gaia/eval/configs/ is a copy of configs/).
Offline: the reference's Claude calls are the offline baselines (the configs' models), and the one step that
needs an LLM (Workflow 3's ground truth of an arbitrary PDF) talks to the local fake server through the real SDK.

Where a documented line cannot work as written in gaia-eval, the test asserts the clear refusal that replaces
it; README "Coming from the reference tool" lists those lines and why.
"""

from __future__ import annotations

import glob
import json
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gaia_eval.cli import cli

ROOT = Path(__file__).resolve().parent.parent
CONFIG = "./src/gaia/eval/configs/basic_summarization.json"


def gaia(line: str, expect: int = 0) -> Result:
    """Run one documented line: `gaia ...` -> gaia-eval, globs expanded as a shell would."""
    words = shlex.split(line)
    assert words[0] == "gaia"
    args: list[str] = []
    for word in words[1:]:
        args += sorted(glob.glob(word)) or [word] if "*" in word and "/" in word else [word]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == expect, f"{line}\n{result.output}"
    return result


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    configs = tmp_path / "src" / "gaia" / "eval" / "configs"
    configs.mkdir(parents=True)
    shutil.copy(ROOT / "configs" / "basic_summarization.json", configs)
    return tmp_path


@pytest.fixture()
def viewer(monkeypatch) -> list[dict]:
    """`gaia visualize` resolves its folders and starts, but does not bind port 3000 or serve forever here."""
    import webbrowser

    from gaia_eval.visualize import server

    started: list[dict] = []

    class OneShotServer(server.ViewerServer):
        def __init__(self, host, port, roots, allow_hosts=()):
            super().__init__(
                "127.0.0.1", 0, roots, allow_hosts
            )  # asked for (e.g. 0.0.0.0:8080) is recorded, loopback is bound
            started.append(
                {"host": host, "port": port, **{name: Path(folder) for name, folder in roots.folders.items()}}
            )

        def serve_forever(self, *args, **kwargs):
            return None

    monkeypatch.setattr(server, "ViewerServer", OneShotServer)
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    return started


def experiments(folder: str) -> list[str]:
    return sorted(p.name for p in Path(folder).rglob("*.experiment.json"))


def evaluations(folder: str) -> list[str]:
    return sorted(p.name for p in Path(folder).rglob("*.experiment.eval.json"))


def test_quick_start(workdir: Path, viewer) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    gaia("gaia groundtruth -d ./test_data --use-case summarization -o ./groundtruth")
    gaia(
        f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_summarization_groundtruth.json -o "
        "./experiments"
    )
    gaia("gaia eval -d ./experiments -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/evaluation_report.md")
    gaia("gaia visualize --experiments-dir ./experiments --evaluations-dir ./evaluation")
    assert "Model Performance Summary" in Path("reports/evaluation_report.md").read_text()
    assert viewer[0]["experiments"].name == "experiments" and viewer[0]["evaluation"].name == "evaluation"


def test_workflow_1_meeting_summarization(workdir: Path, viewer) -> None:
    gaia(
        "gaia generate --meeting-transcript -o ./test_data/meetings --meeting-types standup planning --count-per-type 2"
    )
    assert len(list(Path("test_data/meetings").glob("*.txt"))) == 4
    gaia("gaia groundtruth -d ./test_data/meetings --use-case summarization -o ./groundtruth")
    line = (
        f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_summarization_groundtruth.json "
        "-o ./experiments"
    )
    assert "made 2" in gaia(line).output
    assert "made 0, skipped 2" in gaia(line).output  # "If interrupted, resume": the same line skips what is done
    gaia("gaia eval -d ./experiments -o ./evaluation")
    assert evaluations("evaluation") == ["baseline-lead.experiment.eval.json", "baseline-textrank.experiment.eval.json"]
    gaia("gaia report -d ./evaluation -o ./reports/meeting_summarization_report.md")
    report = Path("reports/meeting_summarization_report.md").read_text()
    assert "baseline-textrank" in report and "Standalone" not in report  # comparative: ground truth embedded
    gaia("gaia visualize --experiments-dir ./experiments --evaluations-dir ./evaluation")
    assert viewer


def test_workflow_2_email_summarization(workdir: Path, viewer) -> None:
    gaia("gaia generate --email -o ./test_data/emails --email-types customer_support project_update meeting_request "
         "--count-per-type 2")
    assert len(list(Path("test_data/emails").glob("*.txt"))) == 6
    gaia("gaia groundtruth -d ./test_data/emails --use-case email -o ./groundtruth")
    gaia(f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_email_groundtruth.json -o ./experiments")
    gaia("gaia eval -d ./experiments -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/email_summarization_report.md")
    assert "Email summarization" in Path("reports/email_summarization_report.md").read_text()
    gaia("gaia visualize --experiments-dir ./experiments --evaluations-dir ./evaluation")


def test_workflow_3_document_qa(workdir: Path, viewer, fake_llm, monkeypatch) -> None:
    from gaia_eval.generation.llm.pdf import parse_markup, pdf_safe_text, render_pdf

    text = ("Operations Manual\n\nThe site safety officer is Dana Reyes. Every well is inspected every 90 days.\n\n"
            "Spills over 5 barrels are reported to the state within 24 hours.")
    pdf = workdir / "data" / "pdf" / "Oil-and-Gas-Activity-Operations-Manual-1-10.pdf"
    pdf.parent.mkdir(parents=True)
    pdf.write_bytes(render_pdf(parse_markup(pdf_safe_text(text)), author="Ops")[0])
    # mkdir -p ./test_data/documents &&
    #   cp ./data/pdf/Oil-and-Gas-Activity-Operations-Manual-1-10.pdf ./test_data/documents/
    Path("test_data/documents").mkdir(parents=True)
    shutil.copy(pdf, "test_data/documents/")
    # As written: gaia-eval's default ground truth is offline (planted facts), which an arbitrary PDF has not.
    refused = gaia("gaia groundtruth -d ./test_data/documents --use-case qa -o ./groundtruth", expect=2)
    assert "Oil-and-Gas" in refused.output and "--provider" in refused.output
    # With an LLM, as the reference tool always used one (here the fake server behind the real OpenAI SDK).
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-docs")
    fake_llm.script([{"json": {"qa_pairs": [
        {"query": "Who is the site safety officer?", "answer": "Dana Reyes", "answer_type": "string",
         "evidence": "The site safety officer is Dana Reyes."},
        {"query": "How often is every well inspected?", "answer": "every 90 days", "answer_type": "string",
         "evidence": "Every well is inspected every 90 days."},
        {"query": "Spills over how many barrels are reported?", "answer": "5", "answer_type": "number",
         "evidence": "Spills over 5 barrels are reported to the state within 24 hours."},
        {"query": "Within how many hours is a large spill reported?", "answer": "24", "answer_type": "number",
         "evidence": "Spills over 5 barrels are reported to the state within 24 hours."},
        {"query": "To whom are large spills reported?", "answer": "the state", "answer_type": "string",
         "evidence": "Spills over 5 barrels are reported to the state within 24 hours."},
    ]}}])
    gaia("gaia groundtruth -d ./test_data/documents --use-case qa -o ./groundtruth --provider openai "
         f"--model gpt-4o-mini --base-url {fake_llm.openai_base_url}")
    gaia(f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_qa_groundtruth.json -o ./experiments")
    gaia("gaia eval -d ./experiments -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/document_qa_report.md")
    assert "Question answering" in Path("reports/document_qa_report.md").read_text()
    gaia("gaia visualize --experiments-dir ./experiments --evaluations-dir ./evaluation")


def test_workflow_4_third_party_templates(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data/meetings --meeting-types standup --count-per-type 2")
    gaia("gaia groundtruth -d ./test_data/meetings --use-case summarization -o ./groundtruth")
    gaia("gaia create-template -d ./groundtruth --use-case summarization -o ./templates/")
    # Step 3, by hand: paste responses into the "response" fields of ./templates/*.template.json.
    [path] = Path("templates").glob("*.template.json")
    data = json.loads(path.read_text())
    assert {"test_id", "input_text", "response", "evaluation_criteria"} <= set(data["records"][0])
    assert "ground_truth" not in data["records"][0]
    for record in data["records"]:
        record["response"] = ("Executive summary: The team gave status updates.\nParticipants:\n- Tom Nguyen\n"
                              "Action items:\n- Tom Nguyen: send the notes")
    path.write_text(json.dumps(data))
    gaia("gaia eval -d ./templates -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/third_party_report.md")
    assert "summarization" in Path("reports/third_party_report.md").read_text()


def test_two_evaluation_methods_and_standalone(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    gaia("gaia groundtruth -d ./test_data -p \"*.txt\" --use-case summarization -o ./groundtruth")
    gaia("gaia groundtruth -d ./test_data -p \"*.txt\" --use-case qa -o ./groundtruth")
    # Method 1 (embedded): the shell glob matches both consolidated files; no -c runs the offline default.
    method1 = gaia("gaia batch-experiment -i ./groundtruth/consolidated_*.json -o ./experiments")
    assert method1.output.count("running the default") == 2
    gaia("gaia eval -d ./experiments -o ./evaluation")
    assert len(evaluations("evaluation")) == 4
    # Method 2 (external ground truth): raw documents in, -g at eval.
    gaia("gaia batch-experiment -i ./test_data -o ./experiments2")
    scored = gaia("gaia eval -d ./experiments2 -g ./groundtruth/consolidated_summarization_groundtruth.json "
                  "-o ./evaluation2")
    assert "standalone" not in scored.output
    # Method 2 exactly as written: -g with the shell glob (summarization and qa ground truth merge).
    globbed = gaia("gaia eval -d ./experiments2 -g ./groundtruth/consolidated_*.json -o ./evaluation2b")
    assert "standalone" not in globbed.output and len(evaluations("evaluation2b")) == 2
    # Q&A RAG: ground truth as the input.
    gaia("gaia batch-experiment -i ./groundtruth/consolidated_qa_groundtruth.json -o ./experiments3")
    assert experiments("experiments3") == ["baseline-lead.experiment.json", "baseline-retrieval.experiment.json"]
    # Standalone: no ground truth anywhere; eval says so.
    gaia("gaia batch-experiment -i ./test_data -o ./experiments4")
    assert "standalone" in gaia("gaia eval -d ./experiments4 -o ./evaluation4").output


def test_command_reference_generation_and_groundtruth(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data/meetings --meeting-types standup planning design_review "
         "--count-per-type 1 --target-tokens 1000")
    gaia("gaia generate --email -o ./test_data/emails --email-types project_update meeting_request customer_support "
         "--count-per-type 1 --target-tokens 1000")
    assert len(list(Path("test_data").rglob("*.txt"))) == 6
    gaia("gaia groundtruth -d ./test_data -p \"*.txt\" --use-case summarization -o ./groundtruth")
    gaia("gaia groundtruth -d ./test_data -p \"*.txt\" --use-case email -o ./groundtruth")
    # "-p *.pdf --use-case qa" on this folder: there are no PDFs, and the refusal says so.
    assert "*.pdf" in gaia('gaia groundtruth -d ./test_data -p "*.pdf" --use-case qa -o ./groundtruth', expect=2).output
    assert Path("groundtruth/consolidated_email_groundtruth.json").is_file()


def test_batch_experimentation_and_resume(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./data --meeting-types standup --count-per-type 1")
    gaia("gaia groundtruth -d ./data --use-case summarization -o ./groundtruth")
    gaia("gaia batch-experiment --create-sample-config experiment_config.json")
    sample = json.loads(Path("experiment_config.json").read_text())
    assert {e["provider"] for e in sample["experiments"]} >= {"baseline", "anthropic"}
    # The sample names paid models: without their keys the run stops before any call, naming the key.
    line = (
        "gaia batch-experiment -c experiment_config.json -i ./groundtruth/consolidated_summarization_groundtruth.json "
        "-o ./experiments"
    )
    assert "ANTHROPIC_API_KEY" in gaia(line, expect=2).output
    assert "ANTHROPIC_API_KEY" in gaia(line + " --force", expect=2).output
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    alternative = "gaia batch-experiment -c experiment_config.json -i ./test_data -o ./experiments"
    assert "ANTHROPIC_API_KEY" in gaia(alternative, expect=2).output
    assert not Path("experiments").exists()  # stopped before any call or file
    # The documented resume example: 3 of 5 experiments done, the same command runs only the other 2.
    five = [{"name": f"model-{i}", "provider": "baseline", "model": m}
            for i, m in enumerate(["lead", "textrank", "retrieval", "lead", "textrank"])]
    Path("config.json").write_text(json.dumps({"experiments": five[:3]}))
    gaia("gaia batch-experiment -c config.json -i ./data -o ./experiments")
    Path("config.json").write_text(json.dumps({"experiments": five}))
    resumed = gaia("gaia batch-experiment -c config.json -i ./data -o ./experiments")
    assert "made 2, skipped 3" in resumed.output
    forced = gaia("gaia batch-experiment -c config.json -i ./data -o ./experiments --force")
    assert "redone 5" in forced.output


def test_create_template_examples(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    gaia("gaia create-template -d ./test_data --use-case summarization --format json -o ./templates/")
    assert Path("templates/summarization.template.json").is_file()  # raw documents: scored standalone
    # qa from raw documents: there are no questions yet; the refusal names the command that makes them.
    refused = gaia("gaia create-template -d ./test_data --use-case qa --format csv -o ./templates/", expect=2)
    assert "gaia-eval groundtruth" in refused.output and "--use-case qa" in refused.output
    gaia("gaia groundtruth -d ./test_data --use-case qa -o ./groundtruth")
    gaia("gaia create-template -d ./groundtruth --use-case qa --format csv -o ./templates/")
    header = Path("templates/qa.template.csv").read_text().splitlines()[0]
    assert header.startswith("test_id,") and "response" in header and "ground_truth" not in header


def test_evaluation_options(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    gaia("gaia groundtruth -d ./test_data --use-case summarization -o ./groundtruth")
    shutil.copy("groundtruth/consolidated_summarization_groundtruth.json", "groundtruth/file.json")
    Path("config.json").write_text(json.dumps({"experiments": [
        {"name": "Claude-Sonnet-Basic-Summary", "provider": "baseline", "model": "textrank"},
        {"name": "Local-Lead", "provider": "baseline", "model": "lead"}]}))
    gaia(
        "gaia batch-experiment -c config.json -i ./groundtruth/consolidated_summarization_groundtruth.json -o "
        "./experiments"
    )
    gaia("gaia eval -f ./experiments/Claude-Sonnet-Basic-Summary.experiment.json -o ./evaluation")
    gaia(
        "gaia eval -f ./experiments/Claude-Sonnet-Basic-Summary.experiment.json -g ./groundtruth/file.json -o "
        "./evaluation"
    )
    assert "made 1" in gaia("gaia eval -d ./experiments -o ./evaluation").output  # the other one was done by -f
    gaia("gaia eval -d ./experiments -g ./groundtruth/consolidated_summarization_groundtruth.json -o ./evaluation")
    assert "skipped" in gaia("gaia eval -d ./experiments -o ./evaluation").output
    assert "redone 2" in gaia("gaia eval -d ./experiments -o ./evaluation --force").output
    assert "made 0, skipped 2" in gaia("gaia eval -d ./experiments -o ./evaluation --incremental-update").output
    assert "2 of 2 entries" in gaia("gaia eval -d ./experiments -o ./evaluation --regenerate-report").output
    gaia("gaia report -d ./evaluation -o ./reports/report.md")
    # Development/testing workflow: a new experiment is evaluated by the plain run and by --incremental-update.
    Path("config.json").write_text(json.dumps({"experiments": [
        {"name": "Claude-Sonnet-Basic-Summary", "provider": "baseline", "model": "textrank"},
        {"name": "Local-Lead", "provider": "baseline", "model": "lead"},
        {"name": "Newcomer", "provider": "baseline", "model": "lead"}]}))
    gaia(
        "gaia batch-experiment -c config.json -i ./groundtruth/consolidated_summarization_groundtruth.json -o "
        "./experiments"
    )
    added = gaia("gaia eval -d ./experiments -o ./evaluation --incremental-update").output
    assert "made 1, skipped 2" in added and "(1 of 3 entries read from changed evaluation files)" in added
    # The command reference's visualize line names ./results, which no workflow creates: refused, not empty.
    assert (
        "results" in gaia("gaia visualize --experiments-dir ./results --evaluations-dir ./evaluation", expect=2).output
    )
    # The external ground-truth alternative.
    gaia("gaia batch-experiment -c config.json -i ./test_data -o ./experiments2")
    gaia("gaia eval -d ./experiments2 -g ./groundtruth/consolidated_summarization_groundtruth.json -o ./evaluation2")
    assert len(evaluations("evaluation2")) == 3  # config.json now lists three experiments


def test_combined_prompt_summarize_example(workdir: Path) -> None:
    gaia("gaia generate --meeting-transcript -o . --meeting-types standup --count-per-type 1")
    shutil.copy("standup_meeting.txt", "meeting.txt")
    out = gaia("gaia summarize -i meeting.txt --styles all --combined-prompt").output
    assert out.count("## ") == 6


def test_visualizer_launch_lines_and_troubleshooting(workdir: Path, viewer) -> None:
    gaia("gaia generate --meeting-transcript -o ./test --count-per-type 1")  # "Test API connectivity": offline here
    assert len(list(Path("test").glob("*.txt"))) == 8  # every meeting type
    gaia("gaia generate --meeting-transcript -o ./test_data --meeting-types standup --count-per-type 1")
    gaia("gaia groundtruth -d ./test_data --use-case summarization -o ./groundtruth")
    gaia("gaia batch-experiment -i ./groundtruth/consolidated_summarization_groundtruth.json -o ./experiments")
    gaia("gaia eval -d ./experiments -o ./evaluation")
    gaia("gaia visualize")
    assert viewer[-1]["experiments"] == Path("experiments") and viewer[-1]["groundtruth"] == Path("groundtruth")
    gaia("gaia visualize --port 8080 --host 0.0.0.0 --no-browser")
    assert (viewer[-1]["host"], viewer[-1]["port"]) == ("0.0.0.0", 8080)
    gaia("gaia visualize --experiments-dir ./experiments --evaluations-dir ./evaluation --test-data-dir ./test_data "
         "--groundtruth-dir ./groundtruth")
    assert viewer[-1]["test_data"] == Path("test_data")
    # "Specify custom data directories": the user's own folders (here created first); a missing one is refused.
    custom = "gaia visualize --experiments-dir ./my_results --evaluations-dir ./my_evaluations " \
             "--test-data-dir ./my_test_data --groundtruth-dir ./my_groundtruth"
    refused = gaia(custom, expect=2).output
    assert all(name in refused for name in ("my_results", "my_evaluations", "my_test_data", "my_groundtruth"))
    for folder in ("my_results", "my_evaluations", "my_test_data", "my_groundtruth"):
        Path(folder).mkdir()
    gaia(custom)
    assert viewer[-1]["evaluation"] == Path("my_evaluations")


def test_workflows_1_2_and_4_one_after_another_in_one_folder(workdir: Path) -> None:
    """A newcomer follows the workflows in order in one folder: ./experiments, ./groundtruth and ./evaluation
    are shared, and workflow 2's email experiments have workflow 1's names."""
    gaia(
        "gaia generate --meeting-transcript -o ./test_data/meetings --meeting-types standup planning --count-per-type 2"
    )
    gaia("gaia groundtruth -d ./test_data/meetings --use-case summarization -o ./groundtruth")
    gaia(
        f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_summarization_groundtruth.json -o "
        "./experiments"
    )
    gaia("gaia eval -d ./experiments -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/meeting_summarization_report.md")
    summaries = Path("experiments/baseline-textrank.experiment.json").read_bytes()
    gaia("gaia generate --email -o ./test_data/emails --email-types customer_support project_update meeting_request "
         "--count-per-type 2")
    gaia("gaia groundtruth -d ./test_data/emails --use-case email -o ./groundtruth")
    moved = gaia(
        f"gaia batch-experiment -c {CONFIG} -i ./groundtruth/consolidated_email_groundtruth.json -o ./experiments"
    )
    assert "writing the email ones into experiments/email" in moved.output
    assert Path("experiments/baseline-textrank.experiment.json").read_bytes() == summaries  # never overwritten
    assert "made 2" in gaia("gaia eval -d ./experiments -o ./evaluation").output
    gaia("gaia report -d ./evaluation -o ./reports/email_summarization_report.md")
    report = Path("reports/email_summarization_report.md").read_text()
    assert "## Summarization" in report and "## Email summarization" in report
    # Workflow 4 in the same folder: its documents and ground truth are already there (skipped), the template
    # takes the summarization ground truth out of the shared ./groundtruth.
    assert "skipped 2" in gaia("gaia generate --meeting-transcript -o ./test_data/meetings --meeting-types standup "
                               "--count-per-type 2").output
    gaia("gaia groundtruth -d ./test_data/meetings --use-case summarization -o ./groundtruth")
    gaia("gaia create-template -d ./groundtruth --use-case summarization -o ./templates/")
    [path] = Path("templates").glob("*.template.json")
    data = json.loads(path.read_text())
    assert data["use_case"] == "summarization" and len(data["records"]) == 4
    for record in data["records"]:
        record["response"] = "Executive summary: The team met.\nParticipants:\n- Tom Nguyen"
    path.write_text(json.dumps(data))
    gaia("gaia eval -d ./templates -o ./evaluation")
    gaia("gaia report -d ./evaluation -o ./reports/third_party_report.md")
    assert "| summarization |" in Path("reports/third_party_report.md").read_text()
