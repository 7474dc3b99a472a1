"""`gaia-eval meta-eval`: the correlations it prints are the ones scipy computes independently on a small synthetic
ratings file; bad lines are one error naming the line and field (exit 2); the JSON has the documented keys; the
LLM judge is measured through the real SDK against the local fake server."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from rouge_score import rouge_scorer
from scipy import stats as sp

from gaia_eval.artifacts.metaeval import MetaEvaluation
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.metaeval import stats
from gaia_eval.scoring.rubric import score_summary_output
from gaia_eval.stages.meta_eval import run_meta_eval
from tests.fakeserver import requested_schema

WORDS = "the team agreed to ship the release on friday after tests pass and anna will email the client".split()
SYSTEMS = ["ref", "s1", "s2", "s3", "s4", "s5"]


def _fixture_rows(n_items: int = 8, seed: int = 7, *, annotators: bool = True) -> list[dict]:
    """Synthetic rated summaries: each system keeps a different share of the reference's words (plus noise), and
    the humans mostly, not always, prefer the ones that keep more."""
    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        words = WORDS[: 10 + i % 6]
        reference = " ".join(words)
        source = f"Anna: {reference}. Ben: fine, and lunch is at noon."
        for k, system in enumerate(SYSTEMS):
            keep = 1.0 if system == "ref" else 0.2 + 0.15 * k + rng.uniform(-0.1, 0.1)
            output = " ".join(w for w in words if rng.random() < keep) or words[0]
            if system == "s5":
                output += " lunch noon"
            quality = min(5, max(1, round(1 + 4 * keep + rng.uniform(-1, 1))))
            human = {
                "relevance": [min(5, max(1, quality + d)) for d in (rng.choice([-1, 0, 0, 1]) for _ in range(3))],
                "fluency": [rng.randint(3, 5) for _ in range(3)],
            }
            if not annotators:
                human = {d: sum(v) / len(v) for d, v in human.items()}
            rows.append({"item_id": f"d{i}", "system": system, "output": output, "source": source,
                         "references": [reference], "human": human})
    return rows


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _matrix(rows: list[dict], value) -> np.ndarray:
    items = list(dict.fromkeys(r["item_id"] for r in rows))
    systems = list(dict.fromkeys(r["system"] for r in rows))
    out = np.full((len(items), len(systems)), np.nan)
    for r in rows:
        out[items.index(r["item_id"]), systems.index(r["system"])] = value(r)
    return out


def _independent(rows: list[dict], score, dimension: str) -> dict[str, float]:
    """The statistics recomputed here with scipy alone, from the raw rows."""
    s = _matrix(rows, score)
    h = _matrix(rows, lambda r: float(np.mean(r["human"][dimension])))
    sm, hm = np.nanmean(s, axis=0), np.nanmean(h, axis=0)
    keep = ~(np.isnan(s) | np.isnan(h))
    per_item = [sp.kendalltau(s[k][keep[k]], h[k][keep[k]])[0] for k in range(len(s))]
    pairs = [(a, b) for a in range(len(hm)) for b in range(a + 1, len(hm)) if hm[a] != hm[b]]
    credit = [0.5 if sm[a] == sm[b] else float((sm[a] > sm[b]) == (hm[a] > hm[b])) for a, b in pairs]
    return {
        "system_kendall": sp.kendalltau(sm, hm)[0],
        "system_spearman": sp.spearmanr(sm, hm)[0],
        "system_pearson": sp.pearsonr(sm, hm)[0],
        "summary_level": float(np.nanmean(per_item)),
        "pairwise_accuracy": sum(credit) / len(credit),
    }


def _row(result: MetaEvaluation, scorer: str, dimension: str):
    return next(r for r in result.results if r.scorer == scorer and r.dimension == dimension)


@pytest.fixture()
def ratings(tmp_path: Path) -> tuple[Path, list[dict]]:
    rows = _fixture_rows()
    return _write(tmp_path / "ratings.jsonl", rows), rows


def test_correlations_match_scipy_computed_independently(ratings):
    path, rows = ratings
    kept = [r for r in rows if r["system"] != "ref"]
    result = run_meta_eval(path, exclude_systems=["ref"]).result
    rouge = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorers = {
        "length": lambda r: len(r["output"].split()),
        "rouge1": lambda r: rouge.score(r["references"][0], r["output"])["rouge1"].fmeasure,
        "rouge1_recall": lambda r: rouge.score(r["references"][0], r["output"])["rouge1"].recall,
        "rougeL": lambda r: rouge.score(r["references"][0], r["output"])["rougeL"].fmeasure,
        # the grade through the scoring library's public function; the statistics on it are recomputed here
        "grade": lambda r: score_summary_output(r["output"], r["source"], r["references"]).grade,
    }
    for name, score in scorers.items():
        expected = _independent(kept, score, "relevance")
        got = _row(result, name, "relevance")
        for key, value in expected.items():
            assert getattr(got, key) == pytest.approx(value, abs=1e-4), (name, key)
    assert result.n_items == 8 and result.n_systems == 5 and result.excluded_systems == ["ref"]
    # The synthetic humans reward recall of the reference, and so does ROUGE-1 recall.
    assert _row(result, "rouge1_recall", "relevance").system_kendall > 0.5


def test_a_missing_summary_is_left_out_of_its_item_and_system_means(ratings, tmp_path):
    _, rows = ratings
    kept = [r for r in rows if r["system"] != "ref" and not (r["item_id"] == "d2" and r["system"] == "s3")]
    result = run_meta_eval(_write(tmp_path / "gap.jsonl", kept)).result
    expected = _independent(kept, lambda r: len(r["output"].split()), "relevance")
    got = _row(result, "length", "relevance")
    for key, value in expected.items():
        assert getattr(got, key) == pytest.approx(value, abs=1e-4), key


def test_rowwise_statistics_used_by_the_bootstrap_equal_scipy_with_ties():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, size=(50, 9)).astype(float)  # small integers: many ties
    y = x + rng.integers(-2, 3, size=(50, 9))
    x[0] = 250 / 3  # constant, with rounding noise once centred: undefined, as for scipy
    for name, function in stats.ROWWISE.items():
        ours = function(x, y)
        for k in range(len(x)):
            reference = stats.point_correlation(x[k], y[k], name)
            if reference is None:
                assert np.isnan(ours[k])
            else:
                assert ours[k] == pytest.approx(reference, abs=1e-9), (name, k)


def test_bootstrap_interval_is_deterministic_and_brackets_a_clear_signal():
    rng = np.random.default_rng(0)
    quality = np.linspace(1, 5, 8)
    human = quality + rng.normal(0, 1.0, size=(40, 8))
    scores = quality + rng.normal(0, 1.0, size=(40, 8))
    first, second = stats.system_level(scores, human), stats.system_level(scores, human)
    assert first == second
    low, high = first["kendall"].ci
    assert low <= high and low > 0.3  # a clear signal: the whole interval is well above zero


def test_pairwise_accuracy_counts_pairs_ordered_as_humans_do():
    human = np.array([1.0, 2.0, 3.0, 3.0])
    scorer = np.array([1.0, 3.0, 2.0, 5.0])
    # pairs with a human difference: (0,1) ok, (0,2) ok, (0,3) ok, (1,2) wrong, (1,3) ok; (2,3) human tie: left out
    assert stats.pairwise_accuracy(scorer, human) == pytest.approx(4 / 5)
    assert stats.pairwise_accuracy(np.array([1.0, 1.0, 2.0, 2.0]), human) == pytest.approx((0.5 + 1 + 1 + 1 + 1) / 5)


def test_cli_writes_json_with_the_documented_keys_and_markdown_beside_it(ratings, tmp_path):
    path, _ = ratings
    out = tmp_path / "evaluation" / "meta_eval.json"
    out.parent.mkdir()
    result = CliRunner().invoke(cli, ["meta-eval", str(path), "--exclude-system", "ref", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "## relevance" in result.output and "length (baseline)" in result.output
    data = json.loads(out.read_text())
    assert {"n_items", "n_systems", "results", "annotator_agreement"} <= set(data)
    assert {"scorer", "dimension", "system_kendall", "system_spearman", "system_pearson", "summary_level",
            "pairwise_accuracy", "system_kendall_ci"} <= set(data["results"][0])
    scorers = {r["scorer"] for r in data["results"]}
    assert {"length", "rouge1_recall", "rouge1", "rouge2", "rougeL", "grade", "content_coverage",
            "reference_overlap", "source_consistency"} <= scorers
    agreement = data["annotator_agreement"]["relevance"]
    assert agreement["n_annotators"] == 3 and -1 <= agreement["krippendorff_alpha"] <= 1
    assert agreement["loo_system_kendall"] is not None
    assert out.with_suffix(".md").read_text().startswith("# Meta-evaluation")
    read_artifact(out, MetaEvaluation)  # validates against the model


def test_metrics_choose_scorers_but_the_baselines_always_run(ratings):
    path, _ = ratings
    result = run_meta_eval(path, metrics=["rouge1"], exclude_systems=["ref"]).result
    assert result.scorers == ["length", "rouge1_recall", "rouge1"]
    bad = CliRunner().invoke(cli, ["meta-eval", str(path), "--metrics", "bleu"])
    assert bad.exit_code == 2 and "bleu" in bad.output and "choose from" in bad.output


def test_without_references_only_source_grounded_scorers_run_and_means_have_no_agreement(tmp_path):
    rows = _fixture_rows(annotators=False)
    for r in rows:
        del r["references"]
    result = run_meta_eval(_write(tmp_path / "r.jsonl", rows)).result
    assert "rouge1" not in result.scorers and "grade" in result.scorers and "source_consistency" in result.scorers
    assert any("no reference" in note for note in result.notes)
    # what cannot apply is not offered: choosing it is a usage error, not a table of baselines alone
    for name in ("grade_standalone", "content_coverage", "rougeL"):
        bad = CliRunner().invoke(cli, ["meta-eval", str(tmp_path / "r.jsonl"), "--metrics", name])
        assert bad.exit_code == 2 and name in bad.output.splitlines()[0].split("(fix")[0], bad.output
    assert result.annotator_agreement["relevance"].krippendorff_alpha is None
    assert "mean" in result.annotator_agreement["relevance"].reason


def test_csv_input_gives_the_same_result_as_jsonl(ratings, tmp_path):
    path, rows = ratings
    lines = ["item_id,system,output,source,references,human.relevance,human.fluency"]
    for r in rows:
        cells = [r["item_id"], r["system"], r["output"], r["source"], json.dumps(r["references"]),
                 ";".join(str(v) for v in r["human"]["relevance"]), json.dumps(r["human"]["fluency"])]
        lines.append(",".join('"' + c.replace('"', '""') + '"' for c in cells))
    csv_path = tmp_path / "ratings.csv"
    csv_path.write_text("\n".join(lines) + "\n")
    from_csv = run_meta_eval(csv_path, exclude_systems=["ref"]).result
    from_jsonl = run_meta_eval(path, exclude_systems=["ref"]).result
    assert from_csv.results == from_jsonl.results


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", "ratings.jsonl:3: not valid JSON"),
        ('{"item_id": "d9", "system": "x", "output": "hi"}', "ratings.jsonl:3: field 'human': is missing"),
        ('{"item_id": "d9", "system": "x", "output": "hi", "human": {"relevance": "high"}}',
         "ratings.jsonl:3: field 'human.relevance': 'high' is not a number"),
        ('{"item_id": "d9", "system": "x", "output": "hi", "human": {"relevance": []}}',
         "field 'human.relevance': is an empty list"),
        ('{"item_id": "d9", "output": "hi", "human": {"relevance": 3}}', "ratings.jsonl:3: field 'system': is missing"),
        ('{"item_id": "d0", "system": "s1", "output": "hi", "human": {"relevance": 3}}',
         "ratings.jsonl:3: field 'system': item 'd0' already has a summary by system 's1' (line 2)"),
        ('{"item_id": "d9", "system": "x", "output": "hi", "human": {"r": 3}, "score": 1}',
         "ratings.jsonl:3: field 'score': unknown key"),
        ('{"item_id": "d9", "system": "x", "output": "hi", "references": "a", "human": {"r": [3, true]}}',
         "field 'human.r': True is not a number"),
    ],
)
def test_a_bad_line_is_one_error_naming_the_line_and_field(tmp_path, line, expected):
    good = [json.dumps(r) for r in _fixture_rows()[:2]]
    path = tmp_path / "ratings.jsonl"
    path.write_text("\n".join([*good, line]) + "\n")
    result = CliRunner().invoke(cli, ["meta-eval", str(path)])
    assert result.exit_code == 2
    assert expected in result.output and "fix:" in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_usage_errors_exit_2(ratings, tmp_path):
    path, _ = ratings
    runner = CliRunner()
    unknown = runner.invoke(cli, ["meta-eval", str(path), "--exclude-system", "nobody"])
    assert unknown.exit_code == 2 and "systems are ref, s1" in unknown.output
    too_few = runner.invoke(cli, ["meta-eval", str(path), *[a for s in SYSTEMS[:4] for a in ("--exclude-system", s)]])
    assert too_few.exit_code == 2 and "at least 3" in too_few.output
    missing = runner.invoke(cli, ["meta-eval", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "file not found" in missing.output
    header = tmp_path / "bad.csv"
    header.write_text("item_id,system,text\n1,a,b\n")
    bad_csv = runner.invoke(cli, ["meta-eval", str(header)])
    assert bad_csv.exit_code == 2 and "bad.csv:1" in bad_csv.output and "output" in bad_csv.output


def test_the_judge_is_measured_through_the_real_sdk(fake_llm, ratings, monkeypatch):
    """A judge whose rating follows how many reference words the summary keeps agrees with humans who reward
    the same; it is called once per summary and appears as judge:<model>."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    def responder(req):
        _, schema = requested_schema(req)
        prompt = req["body"]["messages"][-1]["content"]
        summary = prompt.split("<summary_to_evaluate>")[1].split("</summary_to_evaluate>")[0]
        n = len(set(summary.split()) & set(WORDS))
        rating = "Excellent" if n >= 10 else "Good" if n >= 7 else "Fair" if n >= 4 else "Poor"
        return {"json": {c: {"explanation": "ok", "rating": rating} for c in schema["required"]}}

    fake_llm.responder = responder
    path, rows = ratings
    result = CliRunner().invoke(
        cli, ["meta-eval", str(path), "--exclude-system", "ref", "--metrics", "judge:gpt-4o-mini",
              "--judge", "openai:gpt-4o-mini", "--judge-base-url", fake_llm.openai_base_url],
    )
    assert result.exit_code == 0, result.output
    assert "judge:gpt-4o-mini" in result.output
    assert fake_llm.request_count == len(rows) - 8  # one call per kept summary
    judged = next(line for line in result.output.splitlines() if line.startswith("| judge:gpt-4o-mini "))
    again = CliRunner().invoke(
        cli, ["meta-eval", str(path), "--exclude-system", "ref", "--judge", "openai:gpt-4o-mini",
              "--judge-base-url", fake_llm.openai_base_url],
    )
    assert again.exit_code == 0 and fake_llm.request_count == len(rows) - 8  # answered from the response cache
    assert judged in again.output
    no_judge = CliRunner().invoke(cli, ["meta-eval", str(path), "--metrics", "judge:x"])
    assert no_judge.exit_code == 2 and "needs --judge" in no_judge.output


def test_the_report_says_how_far_its_ranking_can_be_trusted(tmp_path, ratings):
    from gaia_eval.stages.eval.run import run_eval
    from gaia_eval.stages.experiment.run import run_batch_experiment
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from gaia_eval.stages.report.run import run_report

    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=1)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_text(
        json.dumps({"experiments": [{"name": n, "provider": "baseline", "model": n} for n in ("lead", "textrank")]})
    )
    run_batch_experiment(config, tmp_path / "gt", tmp_path / "exp", show_progress=False)
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev")
    report = tmp_path / "r" / "report.md"
    run_report(tmp_path / "ev", report)
    assert "How far to trust this ranking" not in report.read_text()

    path, _ = ratings
    run = run_meta_eval(path, exclude_systems=["ref"], output=tmp_path / "ev" / "meta_eval.json")
    run_report(tmp_path / "ev", report)
    text = report.read_text()
    tau = _row(run.result, "grade", "relevance").system_kendall
    assert "How far to trust this ranking** (`meta_eval.json`: grade against human ratings of `ratings.jsonl`" in text
    assert f"relevance system Kendall τ {tau:.2f}" in text and "length alone" in text


def test_judge_calls_that_fail_make_the_run_fail_with_exit_1(fake_llm, ratings, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = lambda req: {"fault": "500"}
    path, _ = ratings
    result = CliRunner().invoke(
        cli, ["meta-eval", str(path), "--exclude-system", "ref", "--judge", "openai:gpt-4o-mini",
              "--judge-base-url", fake_llm.openai_base_url],
    )
    assert result.exit_code == 1
    assert "judge call(s) failed" in result.output and "length (baseline)" in result.output


def test_the_cli_does_not_import_the_statistics_libraries_at_start():
    import subprocess
    import sys

    code = (
        "import sys, gaia_eval.cli; "
        "print(sorted(m for m in ('numpy', 'scipy', 'rouge_score', 'nltk') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_meta_eval_says_what_it_is_doing_on_stderr_and_keeps_stdout_the_table(ratings, tmp_path):
    """It printed nothing for 31 s on a real file; the progress goes to stderr so the markdown stays clean."""
    path, _ = ratings
    result = CliRunner().invoke(cli, ["meta-eval", str(path), "--exclude-system", "ref"])
    assert result.exit_code == 0, result.output
    assert "meta-eval: scoring" in result.stderr and "meta-eval: correlating" in result.stderr
    assert "meta-eval: the rubric's criteria on" in result.stderr
    assert "meta-eval:" not in result.stdout and result.stdout.startswith("# Meta-evaluation")
