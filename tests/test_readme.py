"""README.md stays true: the rubric it shows is the code's, and the two set-up commands are the ones CI runs."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.scoring.rubric.grading import rubric_markdown

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_readme_rubric_is_the_code_rubric():
    assert rubric_markdown().strip() in README


def test_ci_runs_exactly_the_readme_test_command():
    ci_command = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("python3 -m venv")]
    assert len(ci_command) == 1 and ci_command[0] in README
