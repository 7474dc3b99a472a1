"""The viewer under pressure: the Host check (exact names, --allow-host, no suffix match, a missing Host refused),
report pages without raw HTML from the file, and the in-memory index that re-reads only changed files."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.visualize.server import ViewerServer, allow_host_name, allowed_hosts, host_name, make_roots


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory) -> Path:
    from gaia_eval.stages.quickstart import run_quickstart

    workspace = tmp_path_factory.mktemp("qs")
    run_quickstart(workspace, echo=lambda _: None)
    return workspace


@pytest.fixture(scope="module")
def shared(quickstart):
    """A viewer shared as example.com (bound to loopback here: the check is the same on 0.0.0.0)."""
    server = ViewerServer("127.0.0.1", 0, make_roots(quickstart, {}), ["example.com", "10.1.2.3"])
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


def _raw_status(server: ViewerServer, head: str) -> int:
    """The status of a request sent byte for byte (urllib would add a Host header of its own)."""
    with socket.create_connection(server.server_address[:2], timeout=60) as conn:
        conn.sendall(head.encode("latin-1") + b"\r\n")
        reply = b""
        while b"\r\n" not in reply:
            chunk = conn.recv(4096)
            if not chunk:
                break
            reply += chunk
    return int(reply.split(b" ", 2)[1])


def _status(server: ViewerServer, host: str) -> int:
    return _raw_status(server, f"GET /api/files HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n")


@pytest.mark.parametrize("host", ["example.com", "EXAMPLE.com", "example.com:3000", "example.com:80", "10.1.2.3:8080",
                                  "127.0.0.1", "localhost:1"])
def test_an_allowed_name_is_served_with_or_without_a_port(shared, host):
    assert _status(shared, host) == 200


@pytest.mark.parametrize("host", ["evil-example.com", "example.com.evil", "sub.example.com", "example.co", "xample.com",
                                  "example.com.", "example.com:", "example.com:abc", "example.com:80:80",
                                  "example.com@evil", "10.1.2.30", "[::1", ""])
def test_a_name_that_only_looks_like_an_allowed_one_is_refused(shared, host):
    assert _status(shared, host) == 421


def test_a_request_without_a_host_header_or_with_two_is_refused(shared):
    assert _raw_status(shared, "GET /api/files HTTP/1.0\r\nConnection: close\r\n") == 421
    assert (
        _raw_status(shared, "GET /api/files HTTP/1.1\r\nHost: example.com\r\nHost: evil.com\r\nConnection: close\r\n")
        == 421
    )


def test_the_default_viewer_answers_loopback_names_only_and_a_wildcard_bind_adds_only_what_is_allowed():
    assert allowed_hosts("127.0.0.1") == {"127.0.0.1", "localhost", "[::1]"}
    assert allowed_hosts("0.0.0.0", ["Gpu-Box.lan", "::1", "[fe80::1]"]) == \
        {"0.0.0.0", "127.0.0.1", "localhost", "[::1]", "gpu-box.lan", "[fe80::1]"}
    assert host_name("[fe80::1]:3000") == "[fe80::1]" and host_name(None) is None and host_name("::1") is None


@pytest.mark.parametrize(
    "bad",
    [
        "*.example.com",
        "http://example.com",
        "example.com:80",
        "example.com/x",
        "exa mple.com",
        ".example.com",
        "example..com",
        "",
    ],
)
def test_allow_host_takes_one_exact_name_only(bad):
    from gaia_eval.errors import UsageError

    with pytest.raises(UsageError):
        allow_host_name(bad)


def test_a_bad_allow_host_is_one_line_and_exit_2_before_anything_listens(tmp_path):
    from gaia_eval.cli import cli

    result = CliRunner().invoke(
        cli, ["visualize", "--workspace", str(tmp_path), "--no-browser", "--allow-host", "*.lan"]
    )
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "--allow-host" in result.output


HOSTILE_REPORT = """# Report

<meta http-equiv="refresh" content="0;url=https://evil.example/">
<iframe src="https://evil.example/"></iframe>
<form action="https://evil.example/"><button>go</button></form>

Inline <a href="https://evil.example/">link</a> and <img src=x onerror=alert(1)> here.

<details open ontoggle="alert(1)">
<summary onclick="alert(1)">x</summary>
</details>
"""


def test_a_report_page_renders_no_raw_html_from_the_file(tmp_path):
    from gaia_eval.visualize.data import report_html

    path = tmp_path / "evil.md"
    path.write_text(HOSTILE_REPORT)
    html = report_html(path)
    for tag in ("<meta", "<iframe", "<form", "<a ", "<img", "<details", "<summary"):
        assert tag not in html
    assert "&lt;meta http-equiv=&quot;refresh&quot;" in html  # shown as text


def test_the_reports_own_folds_survive(quickstart):
    from gaia_eval.visualize.data import report_html

    html = report_html(quickstart / "reports" / "report.md")
    assert html.count("<details>\n<summary>") == html.count("</summary>") == html.count("</details>") == 3
    assert "&lt;" not in html


def _copy_evaluations(quickstart: Path, dest: Path) -> list[Path]:
    shutil.copytree(quickstart / "evaluation", dest)
    return sorted(dest.rglob("*.experiment.eval.json"))


def test_the_index_rereads_a_changed_file_and_only_it(quickstart, tmp_path):
    from gaia_eval.artifacts.evaluation import Evaluation
    from gaia_eval.artifacts.store import read_artifact, write_artifact
    from gaia_eval.visualize.data import dashboard, evaluation_index

    root = tmp_path / "evaluation"
    files = _copy_evaluations(quickstart, root)
    index = evaluation_index(root)

    def grades() -> dict[str, float]:
        return {m["file"]: m["grade"] for uc in dashboard(root)["use_cases"] for m in uc["models"]}

    assert len(grades()) == len(files) and index.reads == len(files)
    grades()
    assert index.reads == len(files)  # nothing changed: nothing re-read

    changed = files[0]
    ev = read_artifact(changed, Evaluation)
    write_artifact(changed, ev.model_copy(update={"grade": ev.grade.model_copy(update={"quality_score": 12.3})}))
    assert grades()[changed.relative_to(root).as_posix()] == 12.3
    assert index.reads == len(files) + 1  # the changed file only

    files[1].unlink()
    assert files[1].relative_to(root).as_posix() not in grades() and index.reads == len(files) + 1


def test_the_index_sees_a_rewrite_of_the_same_size_and_mtime(quickstart, tmp_path):
    """An atomic rewrite is a new file (new inode) even when size and mtime match, e.g. within one clock tick."""
    from gaia_eval.visualize.data import dashboard

    root = tmp_path / "evaluation"
    target = _copy_evaluations(quickstart, root)[0]
    dashboard(root)
    data = target.read_bytes()
    old = target.stat()
    swapped = data.replace(b'"experiment_name": "', b'"experiment_name": "Z', 1).replace(
        b'"schema_version": 1', b'"schema_version":1', 1
    )
    assert len(swapped) == len(data)
    tmp = target.with_name("tmp")
    tmp.write_bytes(swapped)
    os.utime(tmp, ns=(old.st_atime_ns, old.st_mtime_ns))
    os.replace(tmp, target)
    names = {m["experiment_name"] for uc in dashboard(root)["use_cases"] for m in uc["models"]}
    assert any(name.startswith("Z") for name in names)


def test_a_broken_file_is_not_reread_on_every_request(quickstart, tmp_path):
    from gaia_eval.visualize.data import dashboard, evaluation_index

    root = tmp_path / "evaluation"
    files = _copy_evaluations(quickstart, root)
    (root / "qa" / "broken.experiment.eval.json").write_bytes(orjson.dumps({"kind": "evaluation"}))
    dashboard(root)
    dashboard(root)
    assert evaluation_index(root).reads == len(files) + 1


def test_the_item_page_shows_a_changed_experiment_and_rereads_only_it(quickstart, tmp_path):
    from gaia_eval.visualize.data import experiment_index, item_view

    ev_root, exp_root = tmp_path / "evaluation", tmp_path / "experiments"
    _copy_evaluations(quickstart, ev_root)
    shutil.copytree(quickstart / "experiments", exp_root)
    view = item_view(ev_root, exp_root, "qa", None)
    item_id, before = view["item_id"], {m["experiment_name"]: m["output"] for m in view["models"]}
    reads = experiment_index(exp_root).reads
    assert item_view(ev_root, exp_root, "qa", item_id)["models"] and experiment_index(exp_root).reads == reads

    path = exp_root / "qa" / "baseline-lead.experiment.json"
    data = orjson.loads(path.read_bytes())
    next(i for i in data["items"] if i["item_id"] == item_id)["answer"] = "a new answer"
    path.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2))
    after = {m["experiment_name"]: m["output"] for m in item_view(ev_root, exp_root, "qa", item_id)["models"]}
    assert after["baseline-lead"] == "a new answer" and before["baseline-lead"] != "a new answer"
    assert after["baseline-retrieval"] == before["baseline-retrieval"]
    assert experiment_index(exp_root).reads == reads + 1


def test_host_names_are_read_and_refused_exactly():
    """Mutation survivors in the viewer's Host checks: a one-sided bracket read as an IPv6 address, the bound name
    not lower-cased, a one-digit port after an IPv6 address misread, the refusal's field and fix dropped."""
    import pytest

    from gaia_eval.errors import UsageError
    from gaia_eval.visualize.server import allow_host_name, allowed_hosts, host_name

    assert host_name("[::1]:8") == "[::1]" and host_name("[::1]:80") == "[::1]" and host_name("[::1]x") is None
    assert "gpu-box.lan" in allowed_hosts("GPU-Box.lan")
    assert allow_host_name("[::1]") == "[::1]" and allow_host_name("Gpu-Box.LAN") == "gpu-box.lan"
    for bad in ("x::1]", "[::1x", "[gpu-box", "http://gpu-box"):
        with pytest.raises(UsageError) as caught:
            allow_host_name(bad)
        assert str(caught.value) == (
            f"field '--allow-host': {bad!r} is not a host name (fix: give the name as the address bar shows it, "
            "without scheme, port or path (e.g. --allow-host gpu-box.lan); any port is accepted)")
