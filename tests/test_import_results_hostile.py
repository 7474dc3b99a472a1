"""import-results against files no tool would write but a user may hand it: a multiple-choice lm-eval file as
lm_eval writes it (log-likelihoods as strings), samples of unexpected shapes, negative token counts, zip members
that decompress beyond what they declare. Each is a correct import or one clear line (exit 2): no traceback, and
nothing written."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli

DATA = Path(__file__).parent / "data" / "interop"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _one_line_refusal(result, out: Path, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert all(n in result.output for n in needles), result.output
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def _mc_line(doc_id: int, lls: list[str], target: int, choices: list[str], filt: str) -> str:
    return json.dumps({
        "doc_id": doc_id, "doc": {}, "target": target, "filter": filt, "metrics": ["acc"],
        "arguments": {f"gen_args_{i}": {"arg_0": "Capital of France?", "arg_1": f" {c}"}
                      for i, c in enumerate(choices)},
        "resps": [[[ll, "False"]] for ll in lls], "filtered_resps": [[ll, "False"] for ll in lls],
        "acc": 1.0 if max(range(len(lls)), key=lambda i: float(lls[i])) == target else 0.0,
    })


def test_lm_eval_multiple_choice_as_lm_eval_writes_it(tmp_path: Path) -> None:
    # lm_eval's sample logger writes every leaf of filtered_resps as a string; two filters make two runs.
    choices = ["Paris", "Lyon", "Nice"]
    lines = [_mc_line(0, ["-1.5", "-9.0", "-7.25"], 0, choices, "none"),
             _mc_line(1, ["-8.0", "-0.5", "-7.0"], 0, choices, "none"),
             _mc_line(0, ["-1.5", "-9.0", "-7.25"], 0, choices, "strict"),
             _mc_line(1, ["-8.0", "-0.5", "-7.0"], 0, choices, "strict")]
    path = tmp_path / "samples_capmc_2026-01-01T00-00-00.000000.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    result = _run("import-results", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    experiments = sorted((out / "experiments").glob("*.experiment.json"))
    assert len(experiments) == 2
    items = json.loads(experiments[0].read_text())["items"]
    assert [i["answer"] for i in items] == ["Paris", "Lyon"]  # the most likely choice, not the list as text
    assert {i["groundtruth_answer"]["answer"] for i in items} == {"Paris"}  # the target index's continuation
