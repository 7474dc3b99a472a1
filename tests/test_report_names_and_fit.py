"""Issue 29's wrong output in the report: criteria fit the document (a plot synopsis is not graded on action items,
decisions or participants), no false "different ground truth" warning between standalone models, and two
experiments with one name in one ranking are told apart by their folders."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.cli import cli
from gaia_eval.scoring.rubric.standalone import score_summaries_standalone

PLOT = ("In a small coastal town, a young fisherman finds a message in a bottle that leads him across the sea. A "
        "retired sailor teaches him to read the stars, and together they find the island where its author waited.")
MEETING = "Ann: we ship on Friday.\nBob: I will email the client by Thursday.\nAnn: the budget stays at 40,000.\n"
LISTS = ("grounded_action_items", "grounded_key_decisions", "grounded_participants")


def _ratings(source: str, answer: Summaries) -> dict[str, str]:
    return {r.criterion: r.rating for r in score_summaries_standalone(answer, source)}


def test_a_plot_synopsis_is_not_graded_on_what_only_meetings_have() -> None:
    answer = Summaries(executive_summary="A fisherman finds a message in a bottle and sails to an island.")
    ratings = _ratings(PLOT, answer)
    assert [ratings[c] for c in LISTS] == ["N/A"] * 3
    assert ratings["grounded_topics"] != "N/A"  # the criteria every document has stay
    invented = _ratings(PLOT, Summaries(executive_summary="A trip.", participants=["Zed Quorra"]))
    assert invented["grounded_participants"] == "Poor"  # a list it does give is still checked


def test_a_meeting_summary_that_lists_nothing_is_still_poor_on_the_lists() -> None:
    ratings = _ratings(MEETING, Summaries(executive_summary="The team ships on Friday."))
    assert [ratings[c] for c in LISTS] == ["Poor"] * 3


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_standalone_models_get_no_ground_truth_warning_and_same_names_are_told_apart(tmp_path: Path) -> None:
    def run(*args: str) -> None:
        result = CliRunner().invoke(cli, list(args))
        assert result.exit_code == 0, result.output

    for folder, better in (("first", "A fisherman sails to an island."), ("second", "A sailor reads the stars.")):
        rows = [{"item_id": f"p{i}", "system": s, "output": better if s == "a" else "A town.", "source": PLOT}
                for i in range(3) for s in ("a", "b")]
        run("import-outputs", str(_write(tmp_path / f"{folder}.jsonl", rows)), "-o", str(tmp_path / "exp" / folder))
        run("eval", "-d", str(tmp_path / "exp" / folder), "-o", str(tmp_path / "ev" / folder))
    run("report", "-d", str(tmp_path / "ev"), "-o", str(tmp_path / "report.md"))
    text = (tmp_path / "report.md").read_text()
    assert "different ground truth" not in text and "none, none" not in text
    data = json.loads((tmp_path / "report.json").read_text())
    names = [m["experiment_name"] for section in data["sections"] for m in section["models"]]
    assert len(names) == 4 and len(set(names)) == 4
    assert {"a (ev/first)", "a (ev/second)", "b (ev/first)", "b (ev/second)"} == set(names)
