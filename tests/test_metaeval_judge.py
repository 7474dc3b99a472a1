"""meta-eval's judge measured like the grade: on a sample (--limit, --seed), G-Eval's probability-weighted rating
beside the plain one (through the real OpenAI SDK against the fake server returning logprobs), a warning in words
when a judge agrees less than the grade; --cross-validate; and the report's packaged agreement of the grade."""

from __future__ import annotations

import json
import math
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.providers.base import TokenLogprob
from gaia_eval.scoring.judge.geval import expected_ratings
from tests.fakeserver import requested_schema
from tests.test_import_data import _qmsum, _run
from tests.test_metaeval import WORDS, _fixture_rows, _write


def _judge_args(path: Path, fake_llm, *extra: str) -> list[str]:
    return ["meta-eval", str(path), "--exclude-system", "ref", "--judge", "openai:gpt-4o-mini",
            "--judge-base-url", fake_llm.openai_base_url, *extra]


def _always_good(share_of_excellent):
    """Every criterion rated Good, but the probability of Excellent at the rating token grows with how much of the
    reference the summary keeps (`share_of_excellent(n)`), as a judge that hesitates would."""
    def responder(req):
        _, schema = requested_schema(req)
        summary = (
            req["body"]["messages"][-1]["content"].split("<summary_to_evaluate>")[1].split("</summary_to_evaluate>")[0]
        )
        n = len(set(summary.split()) & set(WORDS))
        p = share_of_excellent(n)
        return {"json": {c: {"explanation": "ok", "rating": "Good"} for c in schema["required"]},
                "top_logprobs": {"Good": [["Good", math.log(1 - p)], ["Excellent", math.log(p)]]}}
    return responder


def test_expected_rating_weighs_the_rating_tokens_alternatives() -> None:
    text = '{"faithfulness": {"explanation": "fine", "rating": "Good"}}'
    tokens = [TokenLogprob(t, 0.0) for t in ['{"', "faithfulness", '":', ' {"', "explanation", '":', ' "', "fine",
                                              '",', ' "', "rating", '":', ' "']]
    tokens += [TokenLogprob("Good", math.log(0.5), (("Good", math.log(0.5)), ("Exc", math.log(0.25)),
                                                    ("Fair", math.log(0.25)), ("{", math.log(0.01))))]
    tokens += [TokenLogprob('"}}', 0.0)]
    assert expected_ratings(text, tokens, ["faithfulness"]) == {"faithfulness": (3 * 0.5 + 4 * 0.25 + 2 * 0.25) / 1.0}
    assert expected_ratings(text, tokens[:-1], ["faithfulness"]) == {}  # tokens that do not spell the reply
    assert expected_ratings(text, None, ["faithfulness"]) == {}


def test_g_eval_separates_what_the_plain_rating_ties(fake_llm, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = _always_good(lambda n: min(0.95, 0.05 + n / 16))
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows())
    result = CliRunner().invoke(cli, _judge_args(path, fake_llm, "-o", str(tmp_path / "m.json")))
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "m.json").read_text())
    row = {r["scorer"]: r for r in saved["results"] if r["dimension"] == "relevance"}
    assert row["judge:gpt-4o-mini"]["summary_level"] is None  # every plain rating Good: no ordering at all
    assert row["judge:gpt-4o-mini:g-eval"]["summary_level"] > 0.3  # the probabilities carry the signal
    assert (
        "⚠ The judge `judge:gpt-4o-mini` agrees with the human relevance ratings less than the deterministic grade"
        in result.output
    )
    calls = fake_llm.request_count
    again = CliRunner().invoke(cli, _judge_args(path, fake_llm))
    assert again.exit_code == 0 and fake_llm.request_count == calls  # logprobs come back from the response cache
    assert (
        next(line for line in again.output.splitlines() if line.startswith("| judge:gpt-4o-mini:g-eval "))
        in result.output
    )


def test_without_logprobs_the_g_eval_column_is_said_missing(fake_llm, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    plain = _always_good(lambda n: 0.5)
    fake_llm.responder = lambda req: {**plain(req), "logprobs": False}
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows())
    result = CliRunner().invoke(cli, _judge_args(path, fake_llm))
    assert result.exit_code == 0, result.output
    assert "g-eval not measured: the server returned no log-probabilities" in result.output
    assert "| judge:gpt-4o-mini:g-eval " not in result.output


def test_limit_draws_whole_items_by_seed(fake_llm, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = _always_good(lambda n: 0.5)
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows(n_items=12))
    runs = {}
    for seed in ("1", "1", "2"):
        out = tmp_path / f"m{seed}.json"
        result = CliRunner().invoke(cli, _judge_args(path, fake_llm, "--limit", "4", "--seed", seed, "-o", str(out)))
        assert result.exit_code == 0, result.output
        saved = json.loads(out.read_text())
        assert saved["n_items"] == 4 and saved["n_summaries"] == 4 * 5  # whole items: every kept system's summary
        assert "a sample of 4 of 12 items (--seed " + seed + ")" in result.output
        runs.setdefault(seed, []).append(saved["inputs"]["settings"])
    assert runs["1"][0] == runs["1"][1] != runs["2"][0]
    assert fake_llm.request_count <= 2 * 4 * 5  # the repeated seed is answered from the cache
    bad = CliRunner().invoke(cli, ["meta-eval", str(path), "--limit", "0"])
    assert bad.exit_code == 2


def test_cross_validate_prints_the_fold_figures(tmp_path) -> None:
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows(n_items=12))
    result = CliRunner().invoke(cli, ["meta-eval", str(path), "--exclude-system", "ref", "--cross-validate"])
    assert result.exit_code == 0, result.output
    assert "Cross-validated by document: the grade (" in result.output
    assert "| grade | " in result.output and "| length (baseline) | " in result.output
    assert result.output.count("| 5 | ") >= 1 and "Weights fit on every document" in result.output
    few = _write(tmp_path / "few.jsonl", _fixture_rows(n_items=6))
    result = CliRunner().invoke(cli, ["meta-eval", str(few), "--cross-validate"])
    assert result.exit_code == 0 and "Not run: 6 documents" in result.output


def test_the_report_shows_the_grades_packaged_agreement_until_the_users_own(tmp_path) -> None:
    data = _qmsum(tmp_path)
    assert _run("import-groundtruth", str(data / "ES2009b.references.json"), "--source-file", "{item_id}.txt",
                "--references-field", "general_queries.answer", "-o", str(tmp_path / "gt")).exit_code == 0
    refs = json.loads((data / "ES2009b.references.json").read_text())
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(
        json.dumps({"item_id": "ES2009b", "system": "human", "output": refs["general_queries"][0]["answer"]}) + "\n"
    )
    consolidated = str(tmp_path / "gt" / "consolidated_summarization_groundtruth.json")
    assert _run("import-outputs", str(outputs), "-g", consolidated, "-o", str(tmp_path / "exp")).exit_code == 0
    assert _run("eval", "-d", str(tmp_path / "exp"), "-g", consolidated, "-o", str(tmp_path / "ev")).exit_code == 0
    assert _run("report", "-d", str(tmp_path / "ev"), "-o", str(tmp_path / "r" / "report.md")).exit_code == 0
    text = (tmp_path / "r" / "report.md").read_text()
    assert "**How far to trust this grade** (measured by gaia-eval on public human ratings" in text
    from gaia_eval.scoring.rubric import weights_file

    figures = weights_file()["with_reference"]["cross_validated"]["DialSummEval (dev half)"]["relevance"]["grade"]
    assert "with a reference, DialSummEval (dev half): " in text
    assert f"relevance {figures['system']:.2f} / {figures['summary']:.2f}" in text
    assert "from the source only, SummEval (expert)" in text


def test_a_sample_of_one_item_has_no_interval_and_no_traceback(tmp_path) -> None:
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows(n_items=5))
    out = tmp_path / "m.json"
    result = CliRunner().invoke(
        cli, ["meta-eval", str(path), "--exclude-system", "ref", "--limit", "1", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    saved = json.loads(out.read_text())
    assert saved["n_items"] == 1
    grade = next(r for r in saved["results"] if r["scorer"] == "grade" and r["dimension"] == "relevance")
    assert grade["system_kendall_ci"] is None and grade["summary_level_items"] <= 1
