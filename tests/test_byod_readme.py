"""The README's bring-your-own-data block, run as written on the shipped QMSum meetings: it scores the summaries
AND the questions end to end, the human system ranks first in both, the table the README shows is what the run
measures, and in a fresh clone everything it writes stays under the git-ignored `byod/` (`git status` clean)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.test_readme_examples import fresh_clone  # noqa: F401 - the fixture

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _byod_block() -> str:
    section = README[README.index("## Bring your own data"):]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def _readme_table() -> dict[tuple[str, str], tuple[str, str]]:
    """(use case, system) -> (grade, interval) as the README's table states them."""
    section = README[README.index("## Bring your own data"):]
    rows, use_case = {}, ""
    for line in re.findall(r"^\| (.*) \|$", section, re.M):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) != 4 or not re.match(r"[\d.]+ \(", cells[2]):
            continue
        use_case = cells[0] or use_case
        grade, interval = re.match(r"([\d.]+) \((\d+–\d+)\)", cells[2]).groups()
        rows[(use_case, cells[1].lower())] = (grade, interval)
    return rows


def test_the_bring_your_own_data_block_ranks_the_human_system_first_in_summaries_and_questions(
    fresh_clone: Path,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", _byod_block()], cwd=fresh_clone, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "long-form answers" in run.stdout  # eval says how the questions were scored
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=fresh_clone, capture_output=True,
                            text=True, check=True).stdout
    assert [line for line in status.splitlines() if not line.startswith("!! ")] == []  # nothing tracked touched
    ignored = [line[3:] for line in status.splitlines()]
    assert "byod/" in ignored and all(p == "byod/" or p.endswith(("__pycache__/", ".egg-info/")) for p in ignored), (
        ignored
    )
    tmp_path = fresh_clone

    report = json.loads((tmp_path / "byod" / "report.json").read_text())
    sections = {s["use_case"]: s for s in report["sections"]}
    assert set(sections) == {"summarization", "qa"}
    assert "long-form" in sections["qa"]["title"]
    ranked = {uc: [m["experiment_name"] for m in s["models"]] for uc, s in sections.items()}
    assert ranked["summarization"][0] == "human" and set(ranked["summarization"]) == {
        "human",
        "baseline-lead",
        "baseline-textrank",
    }
    assert ranked["qa"][0] == "human" and set(ranked["qa"]) == {"human", "baseline-lead", "baseline-retrieval"}
    qa_criteria = [c["id"] for c in sections["qa"]["criteria"]]
    assert qa_criteria == ["reference_overlap", "content_coverage", "source_consistency", "conciseness"]

    # The README's table is the run's numbers.
    names = {"baseline-lead": "lead", "baseline-textrank": "textrank", "baseline-retrieval": "retrieval"}
    measured = {}
    for uc, label in (("summarization", "summaries"), ("qa", "questions")):
        for m in sections[uc]["models"]:
            measured[(label, names.get(m["experiment_name"], m["experiment_name"]))] = (
                f"{m['quality_score']:.1f}", f"{m['ci_low']:.0f}–{m['ci_high']:.0f}")
    assert _readme_table() == measured
