"""The command line as a user meets it: help, one-line errors with exit code 2, and an end-to-end run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from tests.test_pipeline import QA_CONFIG, mtimes, snapshot


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(cli, list(args))
    with runner.isolated_filesystem(temp_dir=cwd):
        return runner.invoke(cli, list(args))


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A small project: documents, qa ground truth, one qa experiment folder."""
    assert (
        run(
            "generate", "--meeting-transcript", "-o", str(tmp_path / "docs"), "--meeting-types", "standup,planning"
        ).exit_code
        == 0
    )
    assert run("groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", str(tmp_path / "gt")).exit_code == 0
    (tmp_path / "qa.json").write_bytes(orjson.dumps(QA_CONFIG))
    result = run(
        "batch-experiment",
        "-c",
        str(tmp_path / "qa.json"),
        "-i",
        str(tmp_path / "gt"),
        "-o",
        str(tmp_path / "exp"),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    return tmp_path


def test_help_lists_every_command_and_option_defaults():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("generate", "groundtruth", "batch-experiment", "eval", "report", "quickstart"):
        assert command in result.output
    gen = run("generate", "--help").output
    assert "--count-per-type" in gen and "default: 1" in gen and "--seed" in gen


def bad_config(tmp: Path, content: bytes) -> Path:
    path = tmp / "bad.json"
    path.write_bytes(content)
    return path


CASES = {
    "missing file": (
        lambda p: ["groundtruth", "-f", str(p / "nope.txt"), "-o", str(p / "gt")],
        ["nope.txt", "not found"],
    ),
    "empty folder": (
        lambda p: ["groundtruth", "-d", str((p / "empty").mkdir() or p / "empty"), "-o", str(p / "gt")],
        ["empty", "no files matching"],
    ),
    "malformed config": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(bad_config(p, b'{"experiments": [')),
            "-i",
            str(p / "gt"),
            "-o",
            str(p / "exp"),
        ],
        ["bad.json", "not valid JSON"],
    ),
    "unknown config key": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(
                bad_config(
                    p, b'{"experiments": [{"name": "a", "provider": "baseline", "model": "lead", "temprature": 0}]}'
                )
            ),
            "-i",
            str(p / "gt"),
            "-o",
            str(p / "exp"),
        ],
        ["bad.json", "temprature", "unknown key"],
    ),
    "unknown provider": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(bad_config(p, b'{"experiments": [{"name": "a", "provider": "gemini", "model": "x"}]}')),
            "-i",
            str(p / "gt"),
            "-o",
            str(p / "exp"),
        ],
        ["bad.json", "gemini", "provider"],
    ),
    "duplicate names": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(
                bad_config(
                    p,
                    b'{"experiments": [{"name": "a", "provider": "baseline", "model": "lead"}, '
                    b'{"name": "a", "provider": "baseline", "model": "retrieval"}]}',
                )
            ),
            "-i",
            str(p / "gt"),
            "-o",
            str(p / "exp"),
        ],
        ["bad.json", "duplicates"],
    ),
    "unknown use case": (
        lambda p: ["groundtruth", "-d", str(p / "docs"), "-u", "translation", "-o", str(p / "gt")],
        ["translation", "use one of"],
    ),
    "binary input": (
        lambda p: ["groundtruth", "-f", str(_write(p / "docs" / "blob.txt", b"\x00\xff\x00")), "-o", str(p / "gt")],
        ["blob.txt", "binary"],
    ),
    "non-utf8 input": (
        lambda p: ["groundtruth", "-f", str(_write(p / "docs" / "latin.txt", b"caf\xe9 au lait")), "-o", str(p / "gt")],
        ["latin.txt", "UTF-8"],
    ),
    "experiment from another use case": (
        lambda p: [
            "eval",
            "-f",
            str(p / "exp" / "lead.experiment.json"),
            "-g",
            str(_summary_gt(p)),
            "-o",
            str(p / "ev"),
        ],
        ["lead.experiment.json", "qa experiment", "summarization"],
    ),
    "output folder is a file": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(p / "qa.json"),
            "-i",
            str(p / "gt"),
            "-o",
            str(_write(p / "afile", b"x")),
        ],
        ["afile", "is a file, expected a folder"],
    ),
    "api key pasted as api_key_env": (
        lambda p: [
            "batch-experiment",
            "-c",
            str(
                bad_config(
                    p,
                    b'{"experiments": [{"name": "a", "provider": "anthropic", "model": "m", '
                    b'"api_key_env": "sk-ant-SECRET-123"}]}',
                )
            ),
            "-i",
            str(p / "gt"),
            "-o",
            str(p / "exp"),
        ],
        ["bad.json", "api_key_env", "NAME of an environment variable"],
    ),
    "sample config over an existing file": (
        lambda p: ["batch-experiment", "--create-sample-config", str(p / "qa.json")],
        ["qa.json", "already exists"],
    ),
    "document without planted facts": (
        lambda p: ["groundtruth", "-f", str(_write(p / "plain" / "notes.txt", b"Alice: hello")), "-o", str(p / "gt")],
        ["notes.txt", "--provider"],
    ),
}


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _summary_gt(p: Path) -> Path:
    out = p / "gt_sum"
    run("groundtruth", "-d", str(p / "docs"), "-u", "summarization", "-o", str(out))
    return out / "consolidated_summarization_groundtruth.json"


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_line_exit_2_and_changes_no_artifact(project: Path, case: str):
    make_args, expected = CASES[case]
    args = make_args(project)
    before = snapshot(project)
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    for fragment in expected:
        assert fragment in lines[0], (fragment, lines[0])
    assert "SECRET" not in result.output  # a key pasted in the wrong place is never echoed
    after = mtimes(project)
    assert {k: v for k, v in after.items() if k in before} == before  # nothing that existed was touched


def test_eval_file_option_wins_over_directory(project: Path):
    result = run(
        "eval",
        "-d",
        str(project / "does-not-exist"),
        "-f",
        str(project / "exp" / "lead.experiment.json"),
        "-o",
        str(project / "ev"),
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (project / "ev").glob("*.eval.json")) == ["lead.experiment.eval.json"]


def test_create_sample_config_writes_a_valid_config(tmp_path: Path):
    path = tmp_path / "sample.json"
    assert run("batch-experiment", "--create-sample-config", str(path)).exit_code == 0
    from gaia_eval.stages.experiment.run import load_config

    assert len(load_config(path).experiments) >= 3


def test_quickstart_end_to_end_through_the_real_cli(tmp_path: Path):
    """The installed entry point, as a subprocess: first run makes everything, second run skips everything."""
    out = tmp_path / "qs"
    cmd = [sys.executable, "-m", "gaia_eval", "quickstart", "-o", str(out)]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    report = out / "reports" / "report.md"
    assert f"report: {report}" in first.stdout
    text = report.read_text()
    for heading in ("## Summarization", "## Email summarization", "## Question answering", "Model Performance Summary"):
        assert heading in text
    before = snapshot(out)
    second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert "made 0" in second.stdout and "redone 0" in second.stdout
    assert mtimes(out) == before


def test_cli_start_does_not_import_model_sdks():
    code = "import sys, gaia_eval.cli; print('anthropic' in sys.modules, 'openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


@pytest.mark.parametrize("args", [["--version"], ["no-such-command"]])
def test_a_command_leaves_its_objects_frozen_for_the_interpreter_exit(args):
    """The last collections at exit would walk every imported object (about 0.15 s of CPU per command, paid by
    every shard): main() freezes them on the way out, on success and on a usage error alike. An exit hook runs
    after main() returns and before those collections, so it sees what they will skip."""
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
            "from gaia_eval.cli import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)
    frozen = [line for line in done.stderr.splitlines() if line.startswith("frozen ")]
    assert frozen and int(frozen[0].split()[1]) > 10_000, done.stderr
