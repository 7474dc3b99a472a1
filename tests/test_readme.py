"""README.md stays true: the rubric it shows is the code's, and the two set-up commands are the ones CI runs."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.scoring.rubric.grading import rubric_markdown

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_readme_rubric_is_the_code_rubric():
    assert rubric_markdown().strip() in README


def test_ci_runs_exactly_the_readme_test_command():
    ci_command = [
        line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("python3 -m venv")
    ]
    assert len(ci_command) == 1 and ci_command[0] in README


def test_every_example_model_id_has_a_price():
    """The README's, the shipped configs' and the sample config's paid model ids show a cost, not "unpriced"
    (issue 11 item 9): an example a newcomer copies must not be the one model the report cannot price."""
    import json
    import re

    from gaia_eval.providers.pricing import lookup_price
    from gaia_eval.stages.experiment.run import SAMPLE_CONFIG

    paid = {"anthropic", "openai"}
    ids = set(re.findall(r"(anthropic|openai):((?:claude|gpt|o\d)[\w.-]*)", README))
    ids |= {("anthropic" if m.startswith("claude") else "openai", m)
            for m in re.findall(r"--model ((?:claude|gpt|o\d)[\w.-]*)", README)}
    ids |= set(re.findall(r'"provider": "(anthropic|openai)", "model": "([^"]+)"', README))
    experiments = list(SAMPLE_CONFIG["experiments"])
    for config in (ROOT / "configs").glob("*.json"):
        experiments += json.loads(config.read_text())["experiments"]
    ids |= {(e["provider"], e["model"]) for e in experiments if e["provider"] in paid and "price" not in e}
    assert ("anthropic", "claude-sonnet-4-5") in ids and len(ids) >= 4
    unpriced = sorted(f"{p}:{m}" for p, m in ids if lookup_price(p, m).status != "priced")
    assert unpriced == [], (
        f"example model ids without a price (add one with source and date, or use a priced id): {unpriced}"
    )
