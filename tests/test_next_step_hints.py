"""What the commands print a newcomer (issue 29): quickstart's lines name their use case and end with how to browse
the result; create-template's next step names the user's folder; a filled template's system is named as what the
user said it is, never `manual:manual`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cells import model_label
from gaia_eval.cli import cli


def test_quickstart_names_each_use_case_and_the_viewer(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["quickstart", "-o", str(tmp_path / "qs")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    made = [line for line in lines if ": made " in line and not line.startswith("report:")]
    assert len(made) == 11 and all(line.split(":")[0] in ("meetings", "emails", "summarization", "email", "qa")
                                   for line in made)
    assert {line.split(":")[0] for line in made if "eval: made" in line} == {"summarization", "email", "qa"}
    assert lines[-1] == f"browse it: gaia-eval visualize --workspace {tmp_path / 'qs'}"


def test_create_template_points_eval_at_the_users_folder(tmp_path: Path) -> None:
    (tmp_path / "rows.jsonl").write_text(json.dumps({"item_id": "a", "source": "Ann: ship Friday.",
                                                      "references": ["Ship Friday."]}) + "\n")
    CliRunner().invoke(cli, ["import-groundtruth", str(tmp_path / "rows.jsonl"), "-o", str(tmp_path / "gt")])
    result = CliRunner().invoke(cli, ["create-template", "-i", str(tmp_path / "gt"), "-o",
                                      str(tmp_path / "proj" / "templates")])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith(f"-o {tmp_path / 'proj' / 'evaluation'}")


def test_a_template_system_is_named_as_the_user_named_it() -> None:
    assert model_label("manual", "manual") == "filled template"
    assert model_label("manual", "acme-rag v2") == "acme-rag v2 (filled template)"
    assert model_label("imported", "gpt-4o") == "gpt-4o (imported)"
    assert model_label("openai", "gpt-4o-mini") == "openai:gpt-4o-mini"
