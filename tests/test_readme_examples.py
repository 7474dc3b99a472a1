"""The README's offline pipeline examples, run as written in a fresh copy of the repository: every one exits 0
and `git status` stays clean afterwards (they write only into new, git-ignored folders; issue 21 found
`generate --email -o test_data/emails --seed 7` rewriting five shipped sample files, `groundtruth -f` shrinking
the shipped consolidated email ground truth, and `eval -d experiments/raw` pointing at a folder no step made)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The stage sections' commands that run offline on the shipped sample (the others need a key, a server or a
# user's own file, or, like byod/ and imported/, run as a whole block by their own test).
STAGES = ("generate", "groundtruth", "batch-experiment", "eval", "report")
NEEDS_MORE = re.compile(
    r"-c (?!configs/basic)|--provider|--judge|--batch|--create-sample-config|byod|imported/|templates|\.\./|FILE|DIR"
    r"|my_documents"
)


def readme_pipeline_commands() -> list[list[str]]:
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S):
        if "<<" in block:  # writes a file first (a heredoc): run whole by its own test (test_plugins.py)
            continue
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            words = shlex.split(line) if line.startswith("gaia-eval ") else []
            if words and words[1] in STAGES and not NEEDS_MORE.search(line):
                commands.append(words[1:])
    return commands


@pytest.fixture()
def fresh_clone(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True, timeout=120)
    # The working tree's README and .gitignore (the clone has the last commit's; a test runs on the edits too).
    for name in ("README.md", ".gitignore"):
        shutil.copy(ROOT / name, clone / name)
    subprocess.run(["git", "-C", str(clone), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "wt",
                    "--allow-empty"], check=True, timeout=60)
    return clone


def test_the_readme_pipeline_examples_run_and_leave_git_status_clean(fresh_clone: Path):
    commands = readme_pipeline_commands()
    names = [" ".join(c[:2]) for c in commands]
    assert any(n.startswith("generate --email") for n in names) and any(
        "experiments/raw" in " ".join(c) for c in commands
    )
    for command in commands:
        done = subprocess.run([sys.executable, "-m", "gaia_eval", *command], cwd=fresh_clone, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=fresh_clone, capture_output=True, text=True,
                            check=True).stdout
    assert status == "", status
    import json

    # Issue 29: run in order the blocks collided (an eval without -o wrote into evaluation/, and the report then
    # ranked baseline-textrank twice under one name).
    report = json.loads((fresh_clone / "reports" / "report.json").read_text())
    for section in report["sections"]:
        names = [m["experiment_name"] for m in section["models"]]
        assert len(names) == len(set(names)), (section["use_case"], names)


def test_every_readme_eval_names_its_output_folder():
    """An `eval` without -o writes into evaluation/ itself, beside (and into the report of) every other block's."""
    evals = [c for c in readme_pipeline_commands() if c[0] == "eval"]
    assert evals and all("-o" in c for c in evals), [c for c in evals if "-o" not in c]
