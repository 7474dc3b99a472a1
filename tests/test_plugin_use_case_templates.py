"""A package's use case that writes no instructions of its own still gets them in its templates: those of the
built-in use case of its kind (summaries or answers), in both the responses sheet and the answers template."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval import usecases
from gaia_eval.cli import cli
from gaia_eval.stages.templates.answers import run_create_template
from gaia_eval.usecases import UseCase
from tests.plugin_use_cases import TICKETS, registered

FAQ = UseCase(name="faq", title="FAQ answers", answers="answer", scorers={("comparative", False): "qa"})
SOURCE = "Ticket #4411: the printer jams on every page. Support replaced the roller on Monday."


def _import(tmp_path: Path, use_case: str, row: dict) -> Path:
    (tmp_path / f"{use_case}.jsonl").write_text(json.dumps({"item_id": "t1", "source": SOURCE, **row}) + "\n")
    result = CliRunner().invoke(cli, ["import-groundtruth", str(tmp_path / f"{use_case}.jsonl"), "-u", use_case,
                                      "-o", str(tmp_path / use_case)])
    assert result.exit_code == 0, result.output
    return tmp_path / use_case


def test_templates_of_a_use_case_without_instructions_carry_its_kinds(tmp_path: Path) -> None:
    assert not TICKETS.template_instructions and not TICKETS.answers_instructions
    with registered(TICKETS, FAQ):
        for case, row, kin in ((TICKETS, {"references": "Printer jams; roller replaced."}, "summarization"),
                               (FAQ, {"qa": [{"question": "What was replaced?", "answer": "the roller"}]}, "qa")):
            groundtruth = _import(tmp_path, case.name, row)
            result = CliRunner().invoke(cli, ["create-template", "-d", str(groundtruth), "-o",
                                              str(tmp_path / f"tpl-{case.name}")])
            assert result.exit_code == 0, result.output
            sheet = json.loads(next((tmp_path / f"tpl-{case.name}").glob("*.template.json")).read_text())
            assert sheet["use_case"] == case.name
            assert sheet["instructions"] == usecases.get(kin).template_instructions != ""
            path = run_create_template(groundtruth / f"consolidated_{case.name}_groundtruth.json",
                                       tmp_path / f"answers-{case.name}", "bot")
            assert json.loads(path.read_text())["instructions"] == usecases.get(kin).answers_instructions != ""
