"""meta-eval's markdown shows names from the ratings file as text (issue 29): a human dimension or system named
with HTML, an image or a link renders inert."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from markdown_it import MarkdownIt

from gaia_eval.cli import cli

HOSTILE_DIMENSION = "<img src=x onerror=alert(1)>"
IMAGE_DIMENSION = "![t](http://127.0.0.1:9/track.png)"


def test_hostile_dimension_names_render_as_text(tmp_path: Path) -> None:
    rows = [
        {"item_id": f"d{i}", "system": s, "output": "The team ships on Friday. " * (1 + k),
         "references": ["The team ships the release on Friday."],
         "human": {HOSTILE_DIMENSION: [1 + k, 2 + k], IMAGE_DIMENSION: [1 + k, 1 + k]}}
        for i in range(4) for k, s in enumerate(("a", "b", "c"))
    ]
    (tmp_path / "ratings.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(cli, ["meta-eval", str(tmp_path / "ratings.jsonl"), "--markdown",
                                      str(tmp_path / "meta.md"), "-o", str(tmp_path / "meta.json")])
    assert result.exit_code == 0, result.output
    html = MarkdownIt("commonmark").enable("table").render((tmp_path / "meta.md").read_text())
    assert "<img" not in html and "onerror=alert(1)&gt;" in html  # shown, not obeyed
    assert "track.png" in html and 'src="http' not in html
