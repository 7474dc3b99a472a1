"""A path that data names (a row's `source`, an id filled into `--source-file`, a file found in `groundtruth -d`)
stays inside the folder the user named: what is inside is read, links within the folder are followed, and
anything leading out is refused in one line (issue 29; the refusals themselves are in tests/hostile_corpus.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli

DOC = "Ann: we ship on Friday.\nBob: I will email the client by Thursday.\n"


def _run(*argv: str):
    return CliRunner().invoke(cli, list(argv))


def test_a_link_that_stays_inside_the_folder_is_read(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "docs").mkdir(parents=True)
    (data / "docs" / "m1.txt").write_text(DOC)
    (data / "alias.txt").symlink_to("docs/m1.txt")
    rows = [{"item_id": "m1", "source": "alias.txt", "references": ["They ship on Friday."]}]
    (data / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = _run("import-groundtruth", str(data / "rows.jsonl"), "-o", str(tmp_path / "gt"))
    assert result.exit_code == 0, result.output
    gt = json.loads((tmp_path / "gt" / "m1.summarization.groundtruth.json").read_text())
    assert gt["source"]["text"] == DOC


def test_a_template_may_name_another_folder_but_the_id_may_not_climb_out_of_it(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "m1.txt").write_text(DOC)
    (tmp_path / "secret.txt").write_text("SECRET")
    data = tmp_path / "data"
    data.mkdir()
    (data / "rows.jsonl").write_text(json.dumps({"item_id": "m1", "references": ["Friday."]}) + "\n")
    ok = _run("import-groundtruth", str(data / "rows.jsonl"), "--source-file", "../docs/{item_id}.txt",
              "-o", str(tmp_path / "gt"))
    assert ok.exit_code == 0, ok.output
    (data / "rows.jsonl").write_text(json.dumps({"item_id": "../secret", "references": ["Friday."]}) + "\n")
    refused = _run("import-groundtruth", str(data / "rows.jsonl"), "--source-file", "../docs/{item_id}.txt",
                   "-o", str(tmp_path / "gt2"))
    assert refused.exit_code == 2
    assert "resolves outside" in refused.stderr and "SECRET" not in refused.output
    assert not (tmp_path / "gt2").exists()


def test_a_folder_nested_1500_levels_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    root = tmp_path / "deep"
    levels = [root]
    root.mkdir()
    for _ in range(1500):
        levels.append(levels[-1] / "d")
    try:
        for level in levels[1:]:
            os.mkdir(level)
        result = _run("groundtruth", "-d", str(root), "-o", str(tmp_path / "out"), "--quiet")
        assert result.exit_code == 2, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "nested too deeply" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    finally:
        for level in reversed(levels):  # pytest's clean-up would recurse 1,500 levels
            os.rmdir(level)
