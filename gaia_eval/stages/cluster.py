"""`gaia-eval cluster-run`: one item-by-item command split into N shards run as Ray tasks on a Ray cluster
(`ray start --head` and its workers; without an address, a one-node cluster started for the run), then the same
command without `--shard` run here to consolidate (it pays nothing for what the shards finished).

Each task runs `python -m gaia_eval COMMAND ... --shard K/N` on whichever node Ray gives it, so every node must
see the command's folders (a shared file system, or an s3:// workspace) and have gaia-eval installed. The
variables a run reads (GAIA_EVAL_*, AWS_*, provider keys and base URLs) go to the tasks with them. A shard that
fails is retried once by Ray (it resumes from what it journaled); one that still fails stops the run with its
last line, and nothing is consolidated.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

from gaia_eval.errors import RunFailed, UsageError

SHARDABLE = ("groundtruth", "batch-experiment", "eval", "meta-eval")
_FORWARDED = re.compile(r"^(GAIA_EVAL_|AWS_|OPENAI_|ANTHROPIC_|OLLAMA_|VLLM_|HF_)|_API_KEY$|_BASE_URL$")


@dataclass
class ClusterRun:
    shards: list[str] = field(default_factory=list)  # each shard's last output line
    consolidation: str = ""  # the consolidating run's output


def _gaia_eval(args: list[str]) -> tuple[int, str, str]:
    """Runs in a Ray task: the command as a child of this node's Python, its exit code and output."""
    done = subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def run_cluster(command: list[str], shards: int, address: str | None = None) -> ClusterRun:
    if not command or command[0] not in SHARDABLE:
        raise UsageError(f"'{' '.join(command[:1]) or '(none)'}' cannot be split into shards", field="COMMAND",
                         fix=f"give one of {', '.join(SHARDABLE)} and its options after --")
    if "--shard" in command:
        raise UsageError("cluster-run adds --shard K/N itself", field="--shard", fix="leave --shard out")
    if shards < 1:
        raise UsageError("must be at least 1", field="--shards")
    try:
        import ray
    except ImportError:
        raise UsageError("running shards on a Ray cluster needs ray", field="cluster-run",
                         fix="pip install 'gaia-eval[cluster]'") from None
    env = {k: v for k, v in os.environ.items() if _FORWARDED.search(k)}
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, runtime_env={"env_vars": env}, log_to_driver=False, include_dashboard=False)
    try:
        task = ray.remote(max_retries=1, num_cpus=0.5)(_gaia_eval)
        outcomes = ray.get([task.remote([*command, "--shard", f"{k}/{shards}"]) for k in range(1, shards + 1)])
    finally:
        if started:
            ray.shutdown()
    run = ClusterRun()
    failed = []
    for k, (code, out, err) in enumerate(outcomes, start=1):
        last = (err.strip() or out.strip()).splitlines()[-1:] or [""]
        run.shards.append(f"shard {k}/{shards}: exit {code}; {last[0]}")
        if code != 0:
            failed.append(f"shard {k}/{shards}: {last[0]}")
    if failed:
        raise RunFailed(f"{len(failed)} shard(s) failed, nothing consolidated: {'; '.join(failed)} (run the same "
                        "command again: each shard resumes from what it saved)")
    code, out, err = _gaia_eval(command)
    run.consolidation = out.strip()
    if code != 0:
        last = (err.strip() or out.strip()).splitlines()[-1:] or [f"exit {code}"]
        raise RunFailed(f"the consolidation failed: {last[0]}")
    return run
