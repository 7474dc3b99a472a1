"""`gaia-eval annotate` and `meta-eval --evaluations` without a browser: the ratings log survives kill -9 and
concurrent raters, the sample is stable and stratified, the server refuses what it must, stale ratings are not
used, the spreadsheet round-trips safely, and a scripted rater whose ratings follow a hidden rule (the planted
facts a summary contains) is found to agree best with the scorer that counts planted facts."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from scipy import stats as sp

from gaia_eval.annotate import open_session
from gaia_eval.annotate.sample import draw_sample, ratings_path, sample_path
from gaia_eval.annotate.server import AnnotationServer
from gaia_eval.artifacts.metaeval import MetaEvaluation
from gaia_eval.artifacts.ratings import append_rating, new_record, read_ratings
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.metaeval.evaluated import load_evaluated
from gaia_eval.metaeval.own import output_level
from gaia_eval.stages.meta_eval_own import run_meta_eval_evaluations
from gaia_eval.stages.quickstart import run_quickstart

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("qs")
    run_quickstart(ws, echo=lambda _: None)
    return ws


@pytest.fixture
def workspace(quickstart, tmp_path) -> Path:
    """A private copy of the quickstart (tests write samples and ratings into it)."""
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(quickstart, ws)
    return ws


# --- the ratings log ----------------------------------------------------------------------------------------

def test_torn_last_line_is_skipped_reported_and_the_next_line_is_whole(tmp_path):
    path = tmp_path / "ratings.jsonl"
    append_rating(path, new_record("rating", "ann", unit="u001", item_id="a", model="m", dimension="fluency", value=4))
    with open(path, "ab") as fh:
        fh.write(b'{"schema_version": 1, "id": "torn", "kind": "rat')  # a crash mid-write
    append_rating(path, new_record("rating", "ann", unit="u002", item_id="b", model="m", dimension="fluency", value=2))
    log = read_ratings(path)
    assert [r.unit for r in log.records] == ["u001", "u002"]
    assert log.torn_lines == [2]


def test_a_line_that_is_json_but_not_a_rating_names_the_line_and_field(tmp_path, workspace):
    path = tmp_path / "ratings.jsonl"
    append_rating(path, new_record("rating", "ann", unit="u001", item_id="a", model="m", dimension="fluency", value=4))
    with open(path, "ab") as fh:
        fh.write(orjson.dumps({**new_record("rating", "ann").model_dump(), "value": 9}) + b"\n")
    with pytest.raises(Exception) as info:
        read_ratings(path)
    assert f"{path}:2" in str(info.value) and "value" in str(info.value)


APPENDER = """
import sys
from gaia_eval.artifacts.ratings import append_rating, new_record
path, rater, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for n in range(count):
    record = new_record("rating", rater, unit=f"u{n:04d}", item_id="i", model="m", dimension="d", value=1 + n % 5)
    append_rating(path, record)
    print(n, flush=True)  # acknowledged: on disk and fsynced
"""


def test_kill_9_while_rating_loses_at_most_the_rating_in_flight(tmp_path):
    path = tmp_path / "ratings.jsonl"
    child = subprocess.Popen([sys.executable, "-c", APPENDER, str(path), "ann", "100000"], stdout=subprocess.PIPE,
                             text=True, cwd=REPO)
    acknowledged = -1
    for line in child.stdout:
        acknowledged = int(line)
        if acknowledged >= 150:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    log = read_ratings(path)
    units = [r.unit for r in log.records]
    assert len(units) >= acknowledged + 1  # every acknowledged rating is there ...
    assert units == [f"u{n:04d}" for n in range(len(units))]  # ... whole, in order, none lost in the middle
    assert len(log.torn_lines) <= 1  # at most the one in flight, torn
    append_rating(path, new_record("skip", "ann", unit="u9999"))  # and the log takes new lines after the crash
    assert read_ratings(path).records[-1].unit == "u9999"


def test_two_raters_appending_at_once_lose_nothing(tmp_path):
    path = tmp_path / "ratings.jsonl"
    raters = [
        subprocess.Popen([sys.executable, "-c", APPENDER, str(path), name, "300"], stdout=subprocess.DEVNULL, cwd=REPO)
        for name in ("ann", "bob")
    ]
    assert [p.wait() for p in raters] == [0, 0]
    log = read_ratings(path)
    assert log.torn_lines == []
    for name in ("ann", "bob"):
        assert [r.unit for r in log.records if r.rater == name] == [f"u{n:04d}" for n in range(300)]


# --- the sample -----------------------------------------------------------------------------------------------

def test_the_sample_is_stratified_seeded_and_holds_disagreements_and_repeats(workspace):
    evaluated = load_evaluated(workspace / "evaluation", "qa", workspace / "experiments")
    sample = draw_sample(evaluated, 30, 3, ["correctness"])
    firsts = [u for u in sample.units if u.reason != "repeat"]
    assert len(firsts) == 30 and len({(u.item_id, u.model) for u in firsts}) == 30
    assert {u.model for u in firsts} == set(evaluated.models)
    assert any(u.reason == "disagreement" for u in firsts)
    repeats = [u for u in sample.units if u.reason == "repeat"]
    assert len(repeats) == 3
    ids = [u.id for u in sample.units]
    for r in repeats:
        first = next(u for u in sample.units if u.id == r.repeat_of)
        assert (first.item_id, first.model) == (r.item_id, r.model) and ids.index(r.id) > ids.index(first.id) + 1
    assert draw_sample(evaluated, 30, 3, ["correctness"]) == sample
    assert draw_sample(evaluated, 30, 4, ["correctness"]).units != sample.units
    assert all(p.left != p.right and p.item_id for p in sample.pairs) and sample.pairs


def test_a_second_rater_gets_the_saved_sample_and_another_size_is_refused(workspace):
    first = open_session(workspace / "evaluation", rater="ann", use_case="summarization", size=6, seed=1)
    second = open_session(workspace / "evaluation", rater="bob", use_case="summarization")
    assert second.sample == first.sample and not second.drawn
    result = CliRunner().invoke(cli, ["annotate", "-e", str(workspace / "evaluation"), "-u", "summarization",
                                      "--rater", "cy", "--size", "7", "--no-browser"])
    assert result.exit_code == 2 and "--size 7 differs from the saved sample's (6)" in result.output


# --- the server -----------------------------------------------------------------------------------------------

def _request(url, method="GET", body=None, headers=None):
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.fixture
def server(workspace):
    opened = open_session(workspace / "evaluation", rater="ann", use_case="summarization", size=6)
    srv = AnnotationServer(opened.session, 0)
    srv.start_background()
    yield srv, opened
    srv.shutdown()
    srv.server_close()


def test_a_write_without_the_token_is_refused_and_writes_nothing(server):
    srv, opened = server
    token = {"X-Annotate-Token": srv.token}
    status, body = _request(srv.base_url + "api/state", headers=token)
    unit = orjson.loads(body)["unit"]["id"]
    rate = {"unit": unit, "dimension": "fluency", "value": 4}
    assert _request(srv.base_url + "api/rate", "POST", rate)[0] == 403
    assert _request(srv.base_url + "api/rate", "POST", rate, {"X-Annotate-Token": "guess"})[0] == 403
    assert _request(srv.base_url + "api/state")[0] == 403
    assert _request(srv.base_url + "api/rate", "POST", rate, {**token, "Host": "evil.example:80"})[0] == 421
    assert not opened.ratings.exists()
    assert _request(srv.base_url + "api/rate", "POST", {**rate, "value": 6}, token)[0] == 400
    assert _request(srv.base_url + "api/rate", "POST", {**rate, "unit": "../x"}, token)[0] == 400
    assert not opened.ratings.exists()
    status, body = _request(srv.base_url + "api/rate", "POST", rate, token)
    assert status == 200 and orjson.loads(body)["ratings"] == {"fluency": 4}
    assert [r.value for r in read_ratings(opened.ratings).records] == [4]


def test_the_page_state_is_blind(server):
    srv, opened = server
    status, body = _request(srv.base_url + "api/state", headers={"X-Annotate-Token": srv.token})
    text = body.decode()
    assert status == 200
    for model in opened.session.evaluated.models:
        assert model not in text

    def keys(value):
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        return {k for v in value for k in keys(v)} if isinstance(value, list) else set()

    assert not keys(orjson.loads(body)) & {"model", "models", "scores", "score", "grade", "fingerprint"}


def test_undo_skip_and_comment_replay_after_a_restart(workspace):
    opened = open_session(workspace / "evaluation", rater="ann", use_case="summarization", size=6)
    s = opened.session
    first = s.state()["unit"]["id"]
    for d in s.sample.dimensions:
        s.rate(first, d, 3)
    second = s.state()["unit"]["id"]
    assert second != first
    s.undo()  # takes back the last rating: the first unit is current again
    assert s.state()["unit"]["id"] == first and s.state()["ratings"] == dict.fromkeys(s.sample.dimensions[:-1], 3)
    s.rate(first, s.sample.dimensions[-1], 5)
    s.comment(second, "too long")
    assert s.state()["unit"]["id"] == second and s.state()["comment"] == "too long"
    s.skip(second)
    again = open_session(workspace / "evaluation", rater="ann", use_case="summarization").session
    state = again.state()
    assert state["done"] == 2 and state["unit"]["id"] not in (first, second)
    other = open_session(workspace / "evaluation", rater="bob", use_case="summarization").session
    assert other.state()["unit"]["id"] == first  # each rater has their own place


# --- meta-eval against your own ratings -------------------------------------------------------------------------

def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9$%.,]+", text.lower()) if len(w) > 3}


def planted_facts_found(meta: dict, text: str) -> tuple[int, int]:
    """The hidden rule: how many of the document's planted decisions, action items and key figures the summary
    states (a text fact when most of its words are there, a figure when its value is)."""
    facts = meta["facts"]
    words = _content_words(text)
    texts = list(facts.get("decisions", [])) + [a["task"] for a in facts.get("action_items", [])]
    found = sum(
        1 for t in texts if _content_words(t) and len(_content_words(t) & words) >= 0.6 * len(_content_words(t))
    )
    found += sum(1 for f in facts.get("key_figures", []) if str(f["value"]).lower() in text.lower())
    return found, len(texts) + len(facts.get("key_figures", []))


def _rate_by_hidden_rule(workspace: Path, use_case: str, folder: str) -> None:
    opened = open_session(workspace / "evaluation", rater="scripted", use_case=use_case, size=100)
    s = opened.session
    while (state := s.state())["unit"] is not None:
        unit = s.units[state["unit"]["id"]]
        output = s.evaluated.get(unit.item_id, unit.model)
        doc = unit.item_id.split("/")[-1]
        meta = json.loads((workspace / "test_data" / folder / f"{doc}.meta.json").read_text())
        found, total = planted_facts_found(meta, output.text)
        value = 1 + min(4, 5 * found // total)  # the share of planted facts stated, in fifths
        for d in s.sample.dimensions:
            s.rate(unit.id, d, value)


def test_meta_eval_finds_the_scorer_that_follows_the_raters_hidden_rule(workspace):
    _rate_by_hidden_rule(workspace, "summarization", "meetings")
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    result = read_artifact(workspace / "evaluation" / "meta_eval.summarization.json", MetaEvaluation)
    assert result.raters == ["scripted"] and result.n_summaries == 8
    relevance = [r for r in result.results if r.dimension == "relevance" and r.output_kendall is not None]
    best = max((r for r in relevance if not r.baseline), key=lambda r: r.output_kendall)
    assert best.scorer == "completeness"  # the criterion that counts planted items ranks first
    length = next(r for r in result.results if r.scorer == "length" and r.dimension == "relevance")
    assert best.output_kendall > 0.5 and best.output_kendall_ci is not None
    assert best.output_kendall_ci[0] > 0 and best.output_kendall > length.output_kendall
    # ...but 8 rated outputs are too few to name it best: said, with the n (issue 28, item 4)
    assert "relevance" not in result.best
    assert "completeness (τ" in result.best_withheld["relevance"] and "8 rated outputs" in run.markdown
    assert "Agrees best with you" not in run.markdown


def test_output_level_tau_is_scipys_tau_b():
    x = [0.1, 0.5, 0.5, 0.9, 0.3, 0.7, 0.2]
    y = [1, 3, 2, 5, 2, 4, 4]
    tau, ci, n = output_level(x, y, ["a", "a", "b", "b", "c", "c", "d"])
    assert tau == pytest.approx(sp.kendalltau(x, y)[0]) and n == 7
    assert ci is not None and ci[0] <= ci[1]


def test_a_rating_of_an_output_that_changed_since_is_stale_not_used(workspace):
    _rate_by_hidden_rule(workspace, "summarization", "meetings")
    exp_file = workspace / "experiments" / "summarization" / "baseline-lead.experiment.json"
    exp = orjson.loads(exp_file.read_bytes())
    exp["items"][0]["summaries"]["executive_summary"] += " (edited)"
    exp_file.write_bytes(orjson.dumps(exp))
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    assert run.result.stale_ratings == 4  # the four dimensions of the one changed output
    assert run.result.n_summaries == 7
    assert "4 rating(s) are of outputs that changed since" in run.markdown


def test_pairwise_preferences_are_measured_per_scorer(workspace):
    opened = open_session(workspace / "evaluation", rater="ann", use_case="summarization", mode="pairwise", size=8)
    s = opened.session
    while (state := s.state())["unit"] is not None:
        pair = s.units[state["unit"]["id"]]
        left, right = s.evaluated.get(pair.item_id, pair.left), s.evaluated.get(pair.item_id, pair.right)
        s.prefer(pair.id, "left" if left.scores["completeness"] > right.scores["completeness"] else "right")
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    share = {p.scorer: p.share for p in run.result.preferences}
    assert share["completeness"] == 1.0 and run.result.preferences[0].preferences >= 3


def test_two_raters_give_krippendorffs_alpha_as_the_ceiling(workspace):
    for rater, shift in (("ann", 0), ("bob", 1)):
        s = open_session(workspace / "evaluation", rater=rater, use_case="summarization", size=8).session
        while (state := s.state())["unit"] is not None:
            unit = s.units[state["unit"]["id"]]
            value = 1 + round(4 * s.evaluated.get(unit.item_id, unit.model).scores["completeness"])
            for d in s.sample.dimensions:
                s.rate(unit.id, d, max(1, min(5, value + (shift if d == "fluency" else 0))))
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    alpha = run.result.annotator_agreement
    assert alpha["relevance"].n_annotators == 2 and alpha["relevance"].krippendorff_alpha == 1.0
    assert alpha["fluency"].krippendorff_alpha < 1.0
    assert "Krippendorff's α" in run.markdown


# --- the spreadsheet ----------------------------------------------------------------------------------------

def test_the_ratings_spreadsheet_is_formula_safe_blind_and_read_back_by_meta_eval(workspace):
    exp_file = workspace / "experiments" / "summarization" / "baseline-lead.experiment.json"
    exp = orjson.loads(exp_file.read_bytes())
    for item in exp["items"]:
        item["summaries"]["executive_summary"] = (
            '=HYPERLINK("http://evil.example","x") ' + item["summaries"]["executive_summary"]
        )
    exp_file.write_bytes(orjson.dumps(exp))
    runner = CliRunner()
    result = runner.invoke(
        cli,
        [
            "create-template",
            "--ratings",
            "-e",
            str(workspace / "evaluation"),
            "-u",
            "summarization",
            "--size",
            "8",
            "-o",
            str(workspace / "sheets"),
        ],
    )
    assert result.exit_code == 0, result.output
    sheet = workspace / "sheets" / "summarization.ratings.csv"
    raw = sheet.read_text()
    assert "\n'=HYPERLINK" not in raw and ",=HYPERLINK" not in raw and "\"'=HYPERLINK" in raw
    assert "baseline-lead" not in raw and "baseline-textrank" not in raw  # blind
    import csv

    rows = list(csv.DictReader(raw.splitlines(keepends=True)))
    assert len(rows) == 8 and all(r["relevance"] == "" for r in rows)
    sample = read_artifact(
        sample_path(workspace / "evaluation", "summarization"),
        __import__("gaia_eval.artifacts.ratings", fromlist=["x"]).AnnotationSample,
    )
    evaluated = load_evaluated(workspace / "evaluation", "summarization", workspace / "experiments")
    units = {u.id: u for u in sample.units}
    for row in rows:
        unit = units[row["unit"]]
        value = str(1 + min(4, int(5 * evaluated.get(unit.item_id, unit.model).scores["completeness"])))
        row.update(rater="carol", relevance=value, consistency=value, fluency=value, coherence=value)
    with open(sheet, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    result = runner.invoke(
        cli, ["meta-eval", "--evaluations", str(workspace / "evaluation"), "-u", "summarization", str(sheet)]
    )
    assert result.exit_code == 0, result.output
    saved = read_artifact(workspace / "evaluation" / "meta_eval.summarization.json", MetaEvaluation)
    assert saved.raters == ["carol"] and saved.n_summaries == 8 and saved.stale_ratings == 0
    completeness = next(r for r in saved.results if r.scorer == "completeness" and r.dimension == "relevance")
    assert completeness.output_kendall > 0.8 and completeness.n_outputs == 8
    assert "carol" in result.output


def test_a_bad_rating_cell_is_one_line_naming_the_line_and_column(workspace):
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            [
                "create-template",
                "--ratings",
                "-e",
                str(workspace / "evaluation"),
                "-u",
                "summarization",
                "-o",
                str(workspace / "sheets"),
            ],
        ).exit_code
        == 0
    )
    sheet = workspace / "sheets" / "summarization.ratings.csv"
    lines = sheet.read_text().split("\r\n")
    import csv

    rows = list(csv.reader(sheet.read_text().splitlines(keepends=True)))
    rows[1][rows[0].index("fluency")] = "six"
    with open(sheet, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    result = runner.invoke(
        cli, ["meta-eval", "--evaluations", str(workspace / "evaluation"), "-u", "summarization", str(sheet)]
    )
    assert result.exit_code == 2 and f"{sheet}:2: field 'fluency': row 2: 'six' is not a rating" in result.output
    assert "Traceback" not in result.output and lines


# --- the real command: kill -9 and two raters at once ------------------------------------------------------------

def _start_annotate(workspace: Path, rater: str) -> tuple[subprocess.Popen, str, str]:
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gaia_eval",
            "annotate",
            "-e",
            str(workspace / "evaluation"),
            "-u",
            "qa",
            "--rater",
            rater,
            "--no-browser",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    for line in child.stdout:
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)#token=(\S+)", line)
        if found:
            return child, found.group(1), found.group(2)
    raise AssertionError("annotate printed no URL")


def _rate_through(base: str, token: str, count: int, acknowledged: list) -> None:
    """Rate `count` dimensions as the page does; each rating that got its 200 is recorded as acknowledged."""
    headers = {"X-Annotate-Token": token}
    for _ in range(count):
        try:
            status, body = _request(base + "api/state", headers=headers)
            state = orjson.loads(body)
            if state["unit"] is None:
                return
            dimension = next(d for d in state["dimensions"] if d not in state["ratings"])
            status, _ = _request(
                base + "api/rate", "POST", {"unit": state["unit"]["id"], "dimension": dimension, "value": 3}, headers
            )
        except (OSError, http.client.HTTPException, orjson.JSONDecodeError):
            return  # the server was killed (mid-reply: a cut or empty body)
        if status == 200:
            acknowledged.append((state["unit"]["id"], dimension))


def test_kill_9_of_annotate_loses_no_acknowledged_rating_and_two_raters_lose_nothing(workspace):
    import threading

    open_session(workspace / "evaluation", rater="x", use_case="qa", size=40)  # the saved sample both rate
    raters = {name: _start_annotate(workspace, name) for name in ("ann", "bob")}
    acknowledged: dict[str, list] = {"ann": [], "bob": []}
    try:
        threads = [threading.Thread(target=_rate_through, args=(base, token, 60, acknowledged[name]))
                   for name, (_, base, token) in raters.items()]
        for t in threads:
            t.start()
        while len(acknowledged["ann"]) < 25:  # ann is killed mid-session, bob goes on
            threads[0].join(0.05)
        os.kill(raters["ann"][0].pid, signal.SIGKILL)
        for t in threads:
            t.join()
    finally:
        for child, _, _ in raters.values():
            child.kill()
            child.wait()
    log = read_ratings(ratings_path(workspace / "evaluation", "qa"))
    assert len(log.torn_lines) <= 1
    for name in ("ann", "bob"):
        written = [(r.unit, r.dimension) for r in log.records if r.rater == name and r.kind == "rating"]
        assert written[:len(acknowledged[name])] == acknowledged[name]  # every acknowledged rating, in order
        assert len(written) - len(acknowledged[name]) <= 1  # at most the one in flight beyond them
    assert len(acknowledged["bob"]) == 60


def test_the_judge_is_measured_when_the_evaluation_ran_it(workspace, fake_llm, monkeypatch, tmp_path):
    """Through the real SDK against the local fake server: eval --judge, then your ratings against it."""
    from gaia_eval.stages.eval.run import run_eval
    from tests.test_judge import judge_responder, judge_settings

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=workspace / "experiments" / "summarization",
             output_dir=workspace / "evaluation" / "summarization", judge=judge_settings(fake_llm))
    _rate_by_hidden_rule(workspace, "summarization", "meetings")
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    judged = {r.scorer for r in run.result.results}
    assert "judge:openai:gpt-4o-mini" in judged
    assert any(s.startswith("judge:openai:gpt-4o-mini:") for s in judged)  # and each of its criteria
    assert "judge:openai:gpt-4o-mini" in run.markdown


@pytest.mark.parametrize(
    "args, message",
    [
        (["annotate", "-e", "{ws}/nowhere", "--rater", "a"], "field '--evaluations': folder not found"),
        (
            ["annotate", "-e", "{ws}/evaluation", "--rater", "a"],
            "holds evaluations of email, qa, summarization (fix: choose one with -u/--use-case)",
        ),
        (["annotate", "-e", "{ws}/evaluation", "-u", "qa", "--rater", " "], "field '--rater'"),
        (
            ["annotate", "-e", "{ws}/evaluation", "-u", "qa", "--rater", "a", "--dimensions", "a,,b c"],
            "field '--dimensions'",
        ),
        (["meta-eval", "--evaluations", "{ws}/evaluation", "-u", "qa"], "no annotation sample"),
        (
            ["meta-eval", "--evaluations", "{ws}/evaluation", "-u", "qa", "--judge", "openai:gpt-4o"],
            "--judge does not apply with --evaluations",
        ),
        (["meta-eval"], "give RATINGS"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(workspace, args, message):
    result = CliRunner().invoke(cli, [a.replace("{ws}", str(workspace)) for a in args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (workspace / "evaluation" / "annotation").exists()  # nothing written


def test_every_model_and_score_band_is_drawn_from(workspace):
    from gaia_eval.metaeval.estimate import SCORE_BANDS
    from gaia_eval.metaeval.estimate import score_bands as _bands

    evaluated = load_evaluated(workspace / "evaluation", "qa", workspace / "experiments")
    bands = _bands(evaluated)
    strata = {(model, bands[(item, model)]) for item, model in evaluated.outputs}
    assert len(strata) >= 3 and {b for _, b in strata} == set(range(SCORE_BANDS))
    for seed in range(5):
        sample = draw_sample(evaluated, len(strata) + len(strata) // 3, seed, ["correctness"])
        drawn = {(u.model, bands[(u.item_id, u.model)]) for u in sample.units if u.reason == "stratified"}
        assert drawn == strata, seed


def test_rater_consistency_on_repeats_and_a_torn_line_is_reported(workspace):
    s = open_session(workspace / "evaluation", rater="ann", use_case="qa", size=20, seed=2).session
    repeats = {u.id for u in s.sample.units if u.repeat_of}
    assert len(repeats) == 2
    while (state := s.state())["unit"] is not None:
        unit = state["unit"]["id"]
        for d in s.sample.dimensions:
            # The same rating both times, except one dimension of the first repeat.
            changed = unit == min(repeats) and d == "completeness"
            s.rate(unit, d, 2 if changed else 4)
    with open(s.path, "ab") as fh:
        fh.write(b'{"schema_version": 1, "id": "x", "ki')  # a crash mid-write
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="qa")
    (consistency,) = run.result.rater_consistency
    assert (consistency.rater, consistency.pairs, consistency.exact, consistency.within_one) == ("ann", 4, 0.75, 0.75)
    assert run.torn_lines and "torn by a crash mid-write: skipped" in run.markdown


# --- issue 29: what annotate refuses, it refuses before writing ----------------------------------------------------

def test_a_bad_ratings_file_is_refused_before_the_sample_is_drawn_and_saved(workspace):
    ratings = ratings_path(workspace / "evaluation", "qa")
    ratings.parent.mkdir(parents=True)
    ratings.write_text("item_id,rating\nq1,5\n")  # a spreadsheet, not the log
    result = CliRunner().invoke(cli, ["annotate", "-e", str(workspace / "evaluation"), "-u", "qa", "--rater", "a",
                                      "--no-browser"])
    assert result.exit_code == 2 and "is not a ratings file" in result.output
    assert not sample_path(workspace / "evaluation", "qa").exists()


def test_a_ratings_log_linked_out_of_the_evaluation_folder_is_refused(workspace, tmp_path):
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text("")
    ratings = ratings_path(workspace / "evaluation", "qa")
    ratings.parent.mkdir(parents=True)
    ratings.symlink_to(outside)
    with pytest.raises(Exception, match="resolves outside") as caught:
        open_session(workspace / "evaluation", rater="a", use_case="qa")
    assert type(caught.value).__name__ == "InputError"
    assert outside.read_text() == "" and not sample_path(workspace / "evaluation", "qa").exists()


def test_a_hand_edited_sample_naming_a_model_not_evaluated_is_refused(workspace):
    opened = open_session(workspace / "evaluation", rater="a", use_case="qa")
    data = json.loads(opened.sample_path.read_text())
    data["units"][0]["model"] = "not-a-model-here"
    opened.sample_path.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["annotate", "-e", str(workspace / "evaluation"), "-u", "qa", "--rater", "a",
                                      "--no-browser"])
    assert result.exit_code == 2, result.output
    assert "names model 'not-a-model-here', which is not in the evaluation" in result.output

# --- issue 28, item 5: an imported output once, a short sample explained, the full next command ----------------

def test_an_imported_output_that_fills_two_summary_styles_is_shown_and_rated_once(workspace, tmp_path):
    text = "The team agreed the budget for next quarter."
    rows = workspace / "imported.jsonl"
    items = ["budget_planning_meeting", "budget_planning_meeting_2", "standup_meeting", "standup_meeting_2"]
    rows.write_text("".join(json.dumps({"item_id": i, "system": "imported", "output": text}) + "\n" for i in items))
    gt = str(workspace / "groundtruth" / "summarization" / "consolidated_summarization_groundtruth.json")
    runner = CliRunner()
    for args in (["import-outputs", str(rows), "-g", gt, "-o", str(workspace / "experiments" / "summarization")],
                 ["eval", "-d", str(workspace / "experiments" / "summarization"), "-g", gt,
                  "-o", str(workspace / "evaluation" / "summarization")],
                 ["create-template", "--ratings", "-e", str(workspace / "evaluation"), "-u", "summarization",
                  "-o", str(tmp_path / "sheets")]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
    sheet = (tmp_path / "sheets" / "summarization.ratings.csv").read_text()
    cells = [line for line in sheet.splitlines() if text in line]
    assert len(cells) == 4 and all(line.count(text) == 1 for line in cells)  # not "X\n\nX"
    session = open_session(workspace / "evaluation", rater="ann", use_case="summarization").session
    shown = [session._payload(u)["output"] for u, unit in session.units.items() if unit.model == "imported"]
    assert shown and all(len(o["sections"]) == 1 and o["sections"][0]["text"] == text for o in shown)


def test_a_sample_smaller_than_asked_says_why(workspace, tmp_path):
    result = CliRunner().invoke(cli, ["create-template", "--ratings", "-e", str(workspace / "evaluation"),
                                      "-u", "summarization", "--size", "30", "-o", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output
    assert "--size 30: drew 8, every answered and scored output there is (4 item(s) x 2 model(s))" in result.output
    opened = open_session(workspace / "evaluation", rater="ann", use_case="summarization", size=30)
    lines: list[str] = []
    from gaia_eval.annotate import run_annotate

    class Stop(Exception):
        pass

    def echo(line: str) -> None:
        lines.append(line)
        if line.startswith("when done"):
            raise Stop  # before serving forever

    with pytest.raises(Stop):
        run_annotate(opened, open_browser=False, echo=echo)
    assert any(line.startswith("--size 30: drew 8") for line in lines)
    assert open_session(workspace / "evaluation", rater="ann", use_case="summarization").shortfall is None


def test_the_done_page_names_the_full_meta_eval_command(workspace, tmp_path):
    root = workspace / "evaluation"
    state = open_session(root, rater="ann", use_case="summarization").session.state()
    assert state["next_command"] == f"gaia-eval meta-eval --evaluations {root} -u summarization"
    own = tmp_path / "my ratings.jsonl"
    state = open_session(root, rater="ann", use_case="summarization", ratings=own).session.state()
    assert state["next_command"] == f"gaia-eval meta-eval --evaluations {root} -u summarization '{own}'"
    assert "state.next_command" in (REPO / "gaia_eval" / "annotate" / "static" / "annotate.js").read_text()


def test_report_and_dashboard_show_the_estimates_and_never_a_best_score_without_its_n(workspace, tmp_path):
    from gaia_eval.stages.report.run import run_report
    from gaia_eval.visualize.data import dashboard as dashboard_data

    _rate_by_hidden_rule(workspace, "summarization", "meetings")
    run = run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    result = read_artifact(workspace / "evaluation" / "meta_eval.summarization.json", MetaEvaluation)
    by_model = {e.system: e for e in result.human_estimates if e.dimension == "relevance"}
    assert set(by_model) == {"baseline-lead", "baseline-textrank"}
    # every output was rated: the estimate is the mean of the ratings, exactly
    textrank = by_model["baseline-textrank"].human_estimate
    assert textrank.n_rated == textrank.n_outputs
    assert "people would rate baseline-textrank 4.5 (4.5–4.5) on relevance; from 4 of your ratings" in run.markdown
    run_report(workspace / "evaluation", tmp_path / "report.md")
    report = (tmp_path / "report.md").read_text()
    assert "What people would rate each model, by your ratings" in report
    assert "people would rate baseline-lead 1.5 (1.5–1.5) on relevance" in report
    assert "not enough ratings to name a best score" in report and "over 8 rated outputs" in report
    assert "agrees best:" not in report
    assert "Sure at these ratings (the 95 % interval of the difference excludes 0): baseline-textrank above " \
           "baseline-lead on relevance by 3.0 (3.0–3.0)" in report
    trust = next(u for u in dashboard_data(workspace / "evaluation")["use_cases"]
                 if u["use_case"] == "summarization")["trust"]
    assert trust["estimates"] and all(r["best"] is None and "8 rated outputs" in r["best_withheld"]
                                      for r in trust["rows"])


def test_the_readme_estimate_block_runs_as_written(quickstart, tmp_path):
    """The README's block (create-template --ratings, fill it, meta-eval --estimate-with grade), run in a folder
    holding the quickstart; the filling is the hidden-rule rater's."""
    import csv
    import shlex
    import shutil

    block = next(b for b in re.findall(r"```bash\n(.*?)```", (REPO / "README.md").read_text(), re.S)
                 if "--estimate-with grade" in b)
    shutil.copytree(quickstart, tmp_path / "quickstart")
    outputs = []
    for line in block.splitlines():
        if line.startswith("# fill"):
            sheet = tmp_path / "quickstart" / "templates" / "summarization.ratings.csv"
            rows = list(csv.DictReader(sheet.read_text(encoding="utf-8").splitlines(keepends=True)))
            for row in rows:
                meta = json.loads((tmp_path / "quickstart" / "test_data" / "meetings" /
                                   f"{row['item_id']}.meta.json").read_text())
                found, total = planted_facts_found(meta, row["output"])
                row.update(rater="readme", **dict.fromkeys(("relevance", "consistency", "fluency", "coherence"),
                                                           str(1 + min(4, 5 * found // total))))
            with open(sheet, "w", newline="", encoding="utf-8") as fh:
                writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        elif line.startswith("gaia-eval "):
            done = subprocess.run([sys.executable, "-m", "gaia_eval", *shlex.split(line)[1:]], cwd=tmp_path,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, (line, done.stderr)
            outputs.append(done.stdout)
    assert len(outputs) == 2
    assert "people would rate baseline-textrank" in outputs[1] and "the grade on 4 outputs" in outputs[1]
    result = read_artifact(tmp_path / "quickstart" / "evaluation" / "meta_eval.summarization.json", MetaEvaluation)
    assert {e.scorer for e in result.human_estimates} == {"grade"}


def test_estimate_with_a_score_not_on_every_output_is_one_line_exit_2(workspace):
    _rate_by_hidden_rule(workspace, "summarization", "meetings")
    root = str(workspace / "evaluation")
    before = sorted(p.name for p in (workspace / "evaluation").iterdir())
    for args, message in (
        (["--evaluations", root, "-u", "summarization", "--estimate-with", "nonsense"],
         "--estimate-with nonsense: not a score of every output here"),
        (["--estimate-with", "grade", "ratings.jsonl"], "--estimate-with needs --evaluations"),
    ):
        result = CliRunner().invoke(cli, ["meta-eval", *args])
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert sorted(p.name for p in (workspace / "evaluation").iterdir()) == before  # nothing written
