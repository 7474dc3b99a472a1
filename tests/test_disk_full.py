"""A disk that fills up mid-run: exit 1 with one line that names the file and the fix, nothing else on
stderr (no traceback, no library warnings); what was journaled before stays, and the same command resumes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth

# Runs the real CLI with the journal's file failing like a full disk after `limit` lines: a real buffered file
# over a raw file whose writes the "disk" refuses, so that, as on a real full disk, the refused line stays in
# the buffer and closing the file refuses it again (that second refusal once replaced the message naming the
# file with a bare "No space left on device", and left the SDK's connections open: "Unclosed connector" noise).
RUNNER = """
import errno, io, sys
import gaia_eval.artifacts.journal as journal
limit = int(sys.argv[1])
real_open = open

class FullRaw(io.RawIOBase):
    def __init__(self, raw):
        self._raw, self.lines = raw, 0
    def writable(self):
        return True
    def write(self, data):
        self.lines += 1
        if self.lines > limit:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self._raw.write(data)
    def tell(self):
        return self._raw.tell()
    def seek(self, *args):
        return self._raw.seek(*args)
    def fileno(self):
        return self._raw.fileno()
    def close(self):
        self._raw.close()
        super().close()

def fake_open(path, mode="r", *args, **kwargs):
    if str(path).endswith(".jsonl") and "b" in mode and ("a" in mode or "w" in mode):
        return io.BufferedWriter(FullRaw(real_open(path, mode, buffering=0)))
    return real_open(path, mode, *args, **kwargs)

journal.open = fake_open
from gaia_eval.cli import main
sys.argv = ["gaia-eval", *sys.argv[2:]]
main()
"""


def test_disk_full_while_journaling_is_one_line_naming_the_file_and_the_fix_then_resume_works(fake_llm, tmp_path):
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "gpt", "provider": "openai", "model": "gpt-4o-mini", "base_url": fake_llm.openai_base_url,
         "max_concurrency": 4},
    ]}))
    args = ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"), "-o", str(tmp_path / "exp"), "--quiet"]
    env = {"OPENAI_API_KEY": "sk-test", "PATH": "/usr/bin:/bin", "GAIA_EVAL_NO_CACHE": "1"}
    full = subprocess.run([sys.executable, "-c", RUNNER, "5", *args], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).parent.parent, timeout=120)
    assert full.returncode == 1, full.stderr
    lines = full.stderr.strip().splitlines()
    assert len(lines) == 1, full.stderr  # no traceback, no "Unclosed client session" or other warnings
    journal = tmp_path / "exp" / "gpt.experiment.journal.jsonl"
    assert str(journal) in lines[0] and "No space left on device" in lines[0] and "free disk space" in lines[0]
    assert journal.read_bytes().count(b"\n") == 5  # what was journaled before the disk filled stays
    assert not (tmp_path / "exp" / "gpt.experiment.json").exists()

    calls_before = fake_llm.request_count
    resumed = subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True, env=env,
                             cwd=Path(__file__).parent.parent, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    items = orjson.loads((tmp_path / "exp" / "gpt.experiment.json").read_bytes())["items"]
    assert fake_llm.request_count - calls_before == len(items) - 5


# eval's spool of scored items on a disk that refuses every write: the buffered spool keeps the refused bytes, so
# discarding it (closing the file) is refused again; that second refusal once replaced the message naming the
# evaluation file with a bare "No space left on device (fix: check the path and its permissions)".
SPOOL_RUNNER = """
import errno, io, os, sys, types
import gaia_eval.artifacts.streamed as streamed

class FullRaw(io.RawIOBase):
    def __init__(self, fd):
        self._fd = fd
    def readable(self):
        return True
    def writable(self):
        return True
    def seekable(self):
        return True
    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    def readinto(self, b):
        return 0
    def seek(self, *args):
        return os.lseek(self._fd, *args)
    def fileno(self):
        return self._fd
    def close(self):
        if not self.closed:
            os.close(self._fd)
        super().close()

full_disk_os = types.ModuleType("os")
full_disk_os.__dict__.update(os.__dict__)
full_disk_os.fdopen = lambda fd, mode="r", *a, **k: io.BufferedRandom(FullRaw(fd), buffer_size=1 << 20)
streamed.os = full_disk_os
from gaia_eval.cli import main
sys.argv = ["gaia-eval", *sys.argv[1:]]
main()
"""


def test_disk_full_while_eval_spools_its_items_names_the_evaluation_file(tmp_path):
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    rows = [{"item_id": f"m{i}", "system": "s", "output": "They ship on Friday.", "source": "Ann: ship Friday."}
            for i in range(3)]
    (tmp_path / "out.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    assert CliRunner().invoke(cli, ["import-outputs", str(tmp_path / "out.jsonl"), "-o", str(tmp_path / "exp")]
                              ).exit_code == 0
    full = subprocess.run([sys.executable, "-c", SPOOL_RUNNER, "eval", "-d", str(tmp_path / "exp"), "-o",
                           str(tmp_path / "ev")], capture_output=True, text=True, timeout=120)
    assert full.returncode == 1, full.stderr
    lines = full.stderr.strip().splitlines()
    assert len(lines) == 1, full.stderr
    assert str(tmp_path / "ev" / "s.experiment.eval.json") in lines[0] and "free disk space" in lines[0]
    assert not (tmp_path / "ev").exists()  # nothing left behind: the same command resumes cleanly
