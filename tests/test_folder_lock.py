"""One run per output folder: a second run stops at once with one line naming the holder, and nothing is paid
twice; the lock dies with its holder, kill -9 included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth

HOLDER = """
import sys
from pathlib import Path
from gaia_eval.artifacts.lock import folder_lock
with folder_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def _hold(folder: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "held"  # the observed event: the lock is taken
    return proc


def _project(tmp_path: Path) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=1)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}))
    return config


def test_a_second_run_on_a_busy_folder_stops_with_one_line_naming_the_holder(tmp_path):
    config = _project(tmp_path)
    holder = _hold(tmp_path / "exp")
    try:
        result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                          "-o", str(tmp_path / "exp"), "--quiet"])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.output
        assert f"pid {holder.pid}" in lines[0] and "exp" in lines[0] and "another output folder" in lines[0]
        assert [p.name for p in (tmp_path / "exp").iterdir()] == [".gaia-eval.lock"]  # the holder's; nothing written
    finally:
        holder.communicate("")
    assert holder.returncode == 0
    assert not (tmp_path / "exp").exists()  # the holder made the folder, left it empty, and removed it
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                      "-o", str(tmp_path / "exp"), "--quiet"])
    assert result.exit_code == 0, result.output  # released on exit


def test_a_lock_whose_holder_was_killed_is_free_at_once(tmp_path):
    config = _project(tmp_path)
    holder = _hold(tmp_path / "exp")
    os.kill(holder.pid, signal.SIGKILL)
    assert holder.wait() == -signal.SIGKILL
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                      "-o", str(tmp_path / "exp"), "--quiet"])
    assert result.exit_code == 0, result.output


def test_every_stage_that_writes_a_folder_holds_it(tmp_path):
    _project(tmp_path)
    (tmp_path / "exp").mkdir()
    commands = {
        "gen": ["generate", "--meeting-transcript", "-o", str(tmp_path / "gen")],
        "gt2": ["groundtruth", "-d", str(tmp_path / "docs"), "-o", str(tmp_path / "gt2")],
        "ev": ["eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev")],
    }
    for folder, args in commands.items():
        holder = _hold(tmp_path / folder)
        try:
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 2 and f"pid {holder.pid}" in result.output, (args, result.output)
        finally:
            holder.communicate("")


def test_two_concurrent_runs_on_one_folder_never_pay_an_item_twice(fake_llm, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")  # what is measured here is the lock, not the cache
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    fake_llm.latency_s = 0.05
    config = tmp_path / "c.json"
    config.write_bytes(
        orjson.dumps(
            {
                "experiments": [
                    {
                        "name": "gpt",
                        "provider": "openai",
                        "model": "gpt-4o-mini",
                        "base_url": fake_llm.openai_base_url,
                        "max_concurrency": 2,
                    },
                ]
            }
        )
    )
    args = [sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
            "-o", str(tmp_path / "exp"), "--quiet"]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert (tmp_path / "exp" / "gpt.experiment.json").exists(), outs
    items = len(orjson.loads((tmp_path / "exp" / "gpt.experiment.json").read_bytes())["items"])
    if codes == [0, 2]:  # they overlapped: one ran, the other was turned away
        assert any("is writing this folder" in err for _, err in outs), outs
        assert fake_llm.request_count == items
    else:  # the second started after the first had finished: it found everything done
        assert codes == [0, 0], outs
        assert fake_llm.request_count == items


# -- issue 19: the lock lives with the folder it protects -------------------------------------------------------

def _hold_with_env(folder: Path, env: dict[str, str]) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, **env})
    assert proc.stdout.readline().strip() == "held"
    return proc


def _experiment(config: Path, tmp_path: Path, out: str) -> list[str]:
    return ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"), "-o", out, "--quiet"]


def test_a_run_with_another_cache_home_or_home_still_meets_the_lock(tmp_path, monkeypatch):
    """The issue: the lock lived under the cache folder, so two runs on one -o with another GAIA_EVAL_CACHE_DIR,
    XDG_CACHE_HOME or HOME both ran and paid twice."""
    config = _project(tmp_path)
    holder = _hold_with_env(tmp_path / "exp", {"GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache-a"),
                                                "XDG_CACHE_HOME": str(tmp_path / "xdg-a"), "HOME": str(tmp_path / "a")})
    try:
        for name, value in (("GAIA_EVAL_CACHE_DIR", "cache-b"), ("XDG_CACHE_HOME", "xdg-b"), ("HOME", "b")):
            monkeypatch.delenv("GAIA_EVAL_CACHE_DIR", raising=False)
            monkeypatch.setenv(name, str(tmp_path / value))
            result = CliRunner().invoke(cli, _experiment(config, tmp_path, str(tmp_path / "exp")))
            assert result.exit_code == 2 and f"pid {holder.pid}" in result.output, (name, result.output)
    finally:
        holder.communicate("")
    assert not list((tmp_path / "exp").glob("*.json")) if (tmp_path / "exp").exists() else True


def test_every_spelling_of_the_folder_meets_the_same_lock(tmp_path, monkeypatch):
    """A symlink, `..`, `.`, a trailing slash, a relative path: one folder, one lock."""
    config = _project(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "exp").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "other").mkdir()
    holder = _hold(tmp_path / "real" / "exp")
    monkeypatch.chdir(tmp_path / "other")
    spellings = [str(tmp_path / "link" / "exp"), str(tmp_path / "other" / ".." / "real" / "exp"),
                 f"{tmp_path / 'real' / 'exp'}/", str(tmp_path / "real" / "." / "exp"), "../real/exp", "../link/exp/."]
    try:
        for spelling in spellings:
            result = CliRunner().invoke(cli, _experiment(config, tmp_path, spelling))
            assert result.exit_code == 2 and f"pid {holder.pid}" in result.output, (spelling, result.output)
    finally:
        holder.communicate("")
    assert not list((tmp_path / "real" / "exp").iterdir())  # nothing was written by the refused runs


def test_a_lock_that_cannot_be_taken_stops_the_run_instead_of_running_unlocked(tmp_path):
    """The issue: a lock folder that could not be written silently turned locking off."""
    config = _project(tmp_path)
    (tmp_path / "exp" / ".gaia-eval.lock").mkdir(parents=True)  # something that is no lock file is in the way
    result = CliRunner().invoke(cli, _experiment(config, tmp_path, str(tmp_path / "exp")))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert str(tmp_path / "exp") in lines[0] and "lock" in lines[0] and "fix:" in lines[0]
    assert not list((tmp_path / "exp").glob("*.json"))  # nothing was run


def test_a_lock_file_left_by_a_killed_run_is_no_artifact_to_anyone(tmp_path):
    """kill -9 leaves the lock file (the lock itself dies with the holder): eval, the viewer's listing and git
    ignore it, and the next run takes it over and removes it."""
    from gaia_eval.visualize.files import Roots, list_files

    config = _project(tmp_path)
    assert CliRunner().invoke(cli, _experiment(config, tmp_path, str(tmp_path / "exp"))).exit_code == 0
    assert not (tmp_path / "exp" / ".gaia-eval.lock").exists()  # a run that ends removes it
    holder = _hold(tmp_path / "exp")
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert (tmp_path / "exp" / ".gaia-eval.lock").exists()
    result = CliRunner().invoke(cli, ["eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev")])
    assert result.exit_code == 0, result.output
    assert ".gaia-eval.lock" not in str(list_files(Roots(folders={"experiments": tmp_path / "exp"})))
    repo = Path(__file__).resolve().parents[1]
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", "any_output_folder/.gaia-eval.lock"], cwd=repo)
    assert ignored.returncode == 0  # README examples writing into the repo leave `git status` clean
    assert CliRunner().invoke(cli, _experiment(config, tmp_path, str(tmp_path / "exp"))).exit_code == 0
    assert not (tmp_path / "exp" / ".gaia-eval.lock").exists()


def test_the_holder_is_described_from_what_its_lock_file_records(tmp_path):
    """Mutation survivors in lock.py: the holder's command or start time read from the wrong key or default,
    an empty or unreadable record not falling back to plain words."""
    import time

    from gaia_eval.artifacts.lock import _holder

    def described(content: bytes) -> str:
        path = tmp_path / "lock"
        path.write_bytes(content)
        fd = os.open(path, os.O_RDONLY)
        try:
            return _holder(fd)
        finally:
            os.close(fd)

    started = 1_700_000_000
    at = time.strftime("%H:%M:%S", time.localtime(started))
    record = {"pid": 42, "command": "gaia-eval eval -o out", "started": started}
    assert described(orjson.dumps(record)) == f"another gaia-eval run (pid 42, `gaia-eval eval -o out`, started {at})"
    midnight = time.strftime("%H:%M:%S", time.localtime(0))
    assert described(orjson.dumps({"pid": 7})) == f"another gaia-eval run (pid 7, `?`, started {midnight})"
    for unreadable in (b"", b"{not json", b"[1, 2]", b"{}"):
        assert described(unreadable) == "another gaia-eval run"


def test_a_lock_that_cannot_be_taken_names_the_option_to_change(tmp_path):
    """Mutation survivor: the error's field (the option that named the folder) dropped."""
    import pytest

    from gaia_eval.artifacts.lock import folder_lock
    from gaia_eval.errors import UsageError

    (tmp_path / "out" / ".gaia-eval.lock").mkdir(parents=True)
    with pytest.raises(UsageError) as caught, folder_lock(tmp_path / "out", "-d/--eval-dir"):
        pass
    assert str(caught.value).startswith(f"{tmp_path / 'out'}: field '-d/--eval-dir': cannot take the lock")


def test_the_imports_hold_the_folder_too(tmp_path):
    """Issue 29: a running batch-experiment later overwrote what import-outputs had written into its folder."""
    (tmp_path / "rows.jsonl").write_text('{"item_id": "a", "source": "Ann: ship Friday.", "references": ["Friday."]}\n')
    (tmp_path / "outputs.jsonl").write_text('{"item_id": "a", "system": "s", "output": "x", "source": "y z"}\n')
    commands = {
        "gt": ["import-groundtruth", str(tmp_path / "rows.jsonl"), "-o", str(tmp_path / "gt")],
        "exp": ["import-outputs", str(tmp_path / "outputs.jsonl"), "-o", str(tmp_path / "exp")],
    }
    for folder, args in commands.items():
        holder = _hold(tmp_path / folder)
        try:
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 2 and f"pid {holder.pid}" in result.output, (args, result.output)
            assert [p.name for p in (tmp_path / folder).iterdir()] == [".gaia-eval.lock"]  # nothing imported
        finally:
            holder.communicate("")
        assert CliRunner().invoke(cli, args).exit_code == 0


def test_deleting_the_lock_file_does_not_let_a_second_run_in(tmp_path):
    """The lock is the folder's, not the file's: the file only describes the holder."""
    config = _project(tmp_path)
    holder = _hold(tmp_path / "exp")
    try:
        (tmp_path / "exp" / ".gaia-eval.lock").unlink()
        result = CliRunner().invoke(cli, _experiment(config, tmp_path, str(tmp_path / "exp")))
        assert result.exit_code == 2 and "another gaia-eval run is writing this folder" in result.output
        assert not list((tmp_path / "exp").glob("*.json"))
    finally:
        holder.communicate("")
    assert holder.returncode == 0


def test_a_folder_replaced_between_open_and_lock_is_locked_anew(tmp_path, monkeypatch):
    """The identity check compares the inode, not only the device: a folder removed by a finishing holder and
    made anew by another run is on the same device, and a lock on the old one would guard nothing."""
    import fcntl

    from gaia_eval.artifacts import lock

    folder = tmp_path / "out"
    folder.mkdir()
    calls = []

    class SwapOnFirstLock:
        LOCK_EX, LOCK_NB = fcntl.LOCK_EX, fcntl.LOCK_NB

        @staticmethod
        def flock(fd, how):
            if not calls:  # the other run: the folder we opened goes away and a new one takes its name
                folder.rename(tmp_path / "old")
                folder.mkdir()
            calls.append(fd)
            return fcntl.flock(fd, how)

    monkeypatch.setattr(lock, "fcntl", SwapOnFirstLock)
    fd, locked = lock.take_folder_lock(folder)
    try:
        assert locked and len(calls) == 2
        assert os.fstat(fd).st_ino == os.stat(folder).st_ino  # the lock is on the folder that bears the name
    finally:
        os.close(fd)
