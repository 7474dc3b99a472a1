"""A file written for a use case that another package adds, read where that package is not installed: one line
naming the file and its `use_case`, saying to install the package (not to regenerate the file), exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli

REFS = [{"item_id": "t1", "source": "Ticket #4411: the printer jams on every page. Support replaced the roller.",
         "references": "Ticket #4411: printer jams; roller replaced."}]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _renamed(path: Path) -> None:
    path.write_text(path.read_text().replace('"use_case": "summarization"', '"use_case": "tickets"'))


def test_an_artifact_or_template_of_an_uninstalled_use_case_says_to_install_its_package(tmp_path: Path) -> None:
    (tmp_path / "refs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in REFS))
    assert run("import-groundtruth", str(tmp_path / "refs.jsonl"), "-o", str(tmp_path / "gt"))[0] == 0
    assert run("create-template", "-d", str(tmp_path / "gt"), "-o", str(tmp_path / "tpl"))[0] == 0
    groundtruth = tmp_path / "gt" / "t1.summarization.groundtruth.json"
    template = tmp_path / "tpl" / "summarization.template.json"
    for path in (groundtruth, template):
        _renamed(path)
    (tmp_path / "config.json").write_text(json.dumps({"experiments": [{"name": "b", "provider": "baseline",
                                                                       "model": "lead"}]}))
    before = groundtruth.read_bytes()
    for path, args in ((groundtruth, ["batch-experiment", "-c", str(tmp_path / "config.json"), "-i", str(groundtruth),
                                      "-o", str(tmp_path / "exp")]),
                       (template, ["eval", "-f", str(template), "-o", str(tmp_path / "ev")])):
        code, output = run(*args)
        line, = output.splitlines()
        assert code == 2 and str(path) in line and "'use_case'" in line and "'tickets'" in line, line
        assert "install the package that registers it under gaia_eval.usecases" in line, line
        assert "regenerate" not in line and "summarization" in line, line
    assert groundtruth.read_bytes() == before


def test_a_use_case_naming_a_scorer_that_does_not_resolve_names_the_use_case() -> None:
    import pytest

    from gaia_eval.errors import ConfigError
    from gaia_eval.scoring.scorers import scorer_for, scorers_of
    from gaia_eval.usecases import UseCase

    for target, said in (("nosuch_scorer", "unknown scorer 'nosuch_scorer'"), ("json:dumps", "is not a Scorer")):
        case = UseCase(name="tickets", title="Tickets", answers="summaries", scorers={("comparative", False): target})
        for resolve in (lambda: scorer_for(case, "comparative"), lambda: scorers_of(case)):  # noqa: B023 (called now)
            with pytest.raises(ConfigError) as error:
                resolve()
            assert "tickets.scorers" in str(error.value) and said in str(error.value), str(error.value)
