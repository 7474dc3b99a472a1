"""The local viewer: a real HTTP server on 127.0.0.1 serving the page and a read-only JSON API."""
# Timeouts here bound a wait on a loaded machine (charts take seconds to draw); no test asserts a duration.

from __future__ import annotations

import urllib.error
import urllib.request

import orjson
import pytest

from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.visualize.server import ViewerServer, make_roots


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("ws")
    run_quickstart(workspace, echo=lambda _: None)
    server = ViewerServer("127.0.0.1", 0, make_roots(workspace, {}))
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


def get(server: ViewerServer, path: str):
    with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=120) as response:
        return response.status, response.read()


def test_page_and_file_listing(viewer):
    status, page = get(viewer, "/")
    assert status == 200 and b"gaia-eval viewer" in page
    assert b"cdn" not in page.lower()  # works offline: no external assets
    files = orjson.loads(get(viewer, "/api/files")[1])
    kinds = {e["kind"] for root in files.values() for e in root}
    assert {"experiment", "evaluation", "groundtruth", "document", "markdown"} <= kinds


def test_file_and_compare(viewer):
    files = orjson.loads(get(viewer, "/api/files")[1])
    experiments = [e["path"] for e in files["experiments"] if e["kind"] == "experiment" and e["path"].startswith("qa/")]
    one = orjson.loads(get(viewer, "/api/file?root=experiments&path=" + experiments[0])[1])
    assert one["json"]["kind"] == "experiment"
    cmp = orjson.loads(get(viewer, f"/api/compare?a={experiments[0]}&b={experiments[1]}")[1])
    assert cmp["use_case"] == "qa" and len(cmp["rows"]) == len(one["json"]["items"])


@pytest.mark.parametrize(
    "path", ["/api/file?root=experiments&path=../../etc/passwd", "/api/file?root=nope&path=x", "/etc/passwd"]
)
def test_nothing_outside_the_roots_is_served(viewer, path):
    with pytest.raises(urllib.error.HTTPError) as err:
        get(viewer, path)
    assert err.value.code == 404


def _status(server: ViewerServer, path: str, host: str | None = None) -> int:
    request = urllib.request.Request(server.url.rstrip("/") + path)
    if host is not None:
        request.add_header("Host", host)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


@pytest.mark.parametrize("host", ["evil.example.com", "evil.example.com:80", "127.0.0.1.nip.io"])
def test_a_request_for_another_host_name_is_refused_against_dns_rebinding(viewer, host):
    assert _status(viewer, "/api/files", host) == 421


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST:{port}", "127.0.0.1:{port}"])
def test_the_bound_names_are_served(viewer, host):
    assert _status(viewer, "/api/files", host.format(port=viewer.server_address[1])) == 200


def test_a_nul_in_a_path_and_a_compare_without_items_answer_400_not_a_dropped_connection(viewer, tmp_path):
    assert _status(viewer, "/api/file?root=experiments&path=%00") == 400
    files = orjson.loads(get(viewer, "/api/files")[1])
    experiment = next(e["path"] for e in files["experiments"] if e["kind"] == "experiment")
    empty = viewer.roots.folders["experiments"] / "empty.experiment.json"
    empty.write_bytes(orjson.dumps({"kind": "experiment", "experiment_name": "empty", "use_case": "qa"}))
    try:
        assert _status(viewer, f"/api/compare?a={experiment}&b=empty.experiment.json") == 400
    finally:
        empty.unlink()
    assert _status(viewer, "/api/files") == 200  # and the server is still up


def test_dashboard_item_and_report_apis(viewer):
    dash = orjson.loads(get(viewer, "/api/dashboard")[1])
    # the report's order (the registry's: summarization first), not the alphabet's
    assert [uc["use_case"] for uc in dash["use_cases"]] == ["summarization", "email", "qa"]
    assert sum(len(uc["models"]) for uc in dash["use_cases"]) == 6
    item = orjson.loads(get(viewer, "/api/item?use_case=qa")[1])
    assert len(item["models"]) == 2 and item["source"] and item["groundtruth"]
    assert "<table>" in orjson.loads(get(viewer, "/api/report?path=report.md")[1])["html"]
    assert orjson.loads(get(viewer, "/api/live")[1]) == {"runs": []}
    for page in ("/", "/item/qa/x", "/report/report.md", "/eval/qa/a.json", "/compare?a=1&b=2", "/files"):
        assert b"/static/app.js" in get(viewer, page)[1]  # every view has its own URL


def test_quickstart_report_references_its_charts_and_they_exist(viewer):
    from pathlib import Path

    reports = viewer.roots.folders["reports"]
    text = (reports / "report.md").read_text()
    import re

    images = re.findall(r"!\[[^\]]*\]\(([^)]+\.svg)\)", text)
    assert len(images) >= 6
    for rel in images:
        assert (Path(reports) / rel).stat().st_size > 1000
    assert (reports / "report.junit.xml").read_text().count("<testcase") > 100


def test_charts_asked_for_at_once_are_all_drawn(viewer):
    """A page asks for all its charts at once; the server draws them in threads, and pyplot is not thread-safe."""
    import concurrent.futures

    from gaia_eval.visualize import charts

    charts._CHART_CACHE.clear()
    kinds = ["grade", "ratings", "items"] * 4
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(kinds)) as pool:
        statuses = list(pool.map(lambda k: _status(viewer, f"/chart.svg?use_case=qa&kind={k}"), kinds))
    assert statuses == [200] * len(kinds)


def test_live_progress_reads_the_run_header_for_total_in_flight_and_eta(tmp_path):
    """Journals are what a running stage writes; the run header beside one gives the total, so the viewer can
    say how much is left, how many run now and when it should end (a fixed clock: no wall-time asserted)."""
    from gaia_eval.artifacts.base import Usage
    from gaia_eval.artifacts.experiment import ItemResult
    from gaia_eval.artifacts.journal import JournalWriter, run_info_path
    from gaia_eval.visualize.data import live_progress

    exp_root = tmp_path / "experiments"
    journal = JournalWriter(exp_root / "qa" / "m.experiment.journal.jsonl")
    journal.write_run_info(total=10, reused=2, model="openai:m", concurrency=3)
    info = orjson.loads(run_info_path(journal.path).read_bytes())
    for i, status in enumerate(["ok", "ok", "error", "ok"]):
        journal.append(
            ItemResult(
                item_id=f"i{i}",
                source="d",
                fingerprint="f",
                status=status,
                usage=Usage(output_tokens=5),
                cost_usd=0.01,
                cost_status="priced",
                latency_s=0.1,
            )
        )
    journal.close()
    now = info["started_at"] + 40  # 4 new items in 40 s: 4 left after 2 reused + 4 new, at 10 s each
    import os

    os.utime(journal.path, (now - 1, now - 1))
    (run,) = live_progress(exp_root, tmp_path / "evaluation", now=now)["runs"]
    assert (run["stage"], run["model"], run["total"], run["finished"]) == ("batch-experiment", "openai:m", 10, 6)
    assert (run["done"], run["errors"], run["in_flight"], run["eta_s"], run["rate_per_min"]) == (3, 1, 3, 40.0, 6.0)
    assert run["spend_usd"] == 0.04 and run["tokens_out"] == 20 and run["running"]
    later = live_progress(exp_root, None, now=now + 600)["runs"][0]
    assert not later["running"] and later["in_flight"] == 0 and later["eta_s"] is None  # a stopped run
    journal.remove()
    assert not run_info_path(journal.path).exists()  # the header goes with its journal


def test_bench_runs_show_on_the_dashboard_with_their_chart_against_the_baseline(viewer):
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    reports = viewer.roots.folders["reports"]
    result = CliRunner().invoke(cli, ["bench", "arithmetic", "-o", str(reports / "bench-arith.json")])
    assert result.exit_code == 0, result.output
    junit = (reports / "bench-arith.junit.xml").read_text()
    assert junit.count("<testcase") == 24 and "bench.arithmetic" in junit
    assert (reports / "bench-arith_charts" / "bench.svg").read_bytes().startswith(b"<?xml")
    (run,) = orjson.loads(get(viewer, "/api/dashboard")[1])["bench"]
    assert run["suite"] == "arithmetic" and run["baseline"]["success_rate"] == pytest.approx(0.75)
    assert run["junit"] == "bench-arith.junit.xml"
    status, svg = get(viewer, "/bench.svg?path=bench-arith.json")
    assert status == 200 and b"baseline" in svg and b"<svg" in svg
    assert _status(viewer, "/bench.svg?path=../../etc/passwd") == 404
    assert _status(viewer, "/bench.svg?path=report.json") == 404  # not a bench results file


def test_live_progress_shows_a_running_eval_judge_with_its_spend(tmp_path):
    from gaia_eval.artifacts.base import Usage
    from gaia_eval.artifacts.evaluation import JudgeSample
    from gaia_eval.artifacts.journal import JournalWriter
    from gaia_eval.scoring.judge.run import JudgeJournalEntry
    from gaia_eval.visualize.data import live_progress

    eval_root = tmp_path / "evaluation"
    journal = JournalWriter(eval_root / "summarization" / "gpt.experiment.judge.journal.jsonl")
    journal.write_run_info(total=8, reused=0, model="judge openai:gpt-4o-mini", concurrency=2)
    for i, status in enumerate(["scored", "unscored"]):
        journal.append(JudgeJournalEntry(item_id=f"d{i}", fingerprint="f", sample=JudgeSample(
            index=0, status=status, usage=Usage(input_tokens=1_000_000, output_tokens=0))))
    journal.close()
    (run,) = live_progress(tmp_path / "experiments", eval_root)["runs"]
    assert (run["stage"], run["experiment_name"], run["model"]) == ("eval (judge)", "gpt", "judge openai:gpt-4o-mini")
    assert (run["done"], run["errors"], run["finished"], run["total"]) == (1, 1, 2, 8)
    assert run["spend_usd"] == pytest.approx(0.30)  # 2M input tokens at gpt-4o-mini's $0.15 per million
