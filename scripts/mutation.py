"""Mutation testing of the core modules with mutmut (the `mutation` extra), outside the default test run.

Each module is mutated in a throw-away copy of the repository and only the test files that exercise it are run
against each mutant (mutmut maps every mutated function to the tests that call it, so a mutant runs only those),
with pytest on one process (-n 0). The working tree is never touched. Prints one line per module:
killed / tested, the kill rate, and the surviving mutants (show one with `--show NAME`).

    pip install -e '.[test,mutation]'
    python scripts/mutation.py                      # every module below (about 25-40 min on 2 busy cores)
    python scripts/mutation.py gate lock            # only these modules
    python scripts/mutation.py gate --sample 40     # at most 40 mutants per module, drawn with a fixed seed
    python scripts/mutation.py --show gaia_eval.bench.gate.x_check_gate__mutmut_12

Mutants of code only reached through a child process (the CLI tests that spawn `gaia-eval`) are not seen by
those tests: the child imports the unmutated package, so such mutants show as survivors unless an in-process
test covers them.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    """One module under mutation: its file, the tests that exercise it, and optionally which functions."""

    name: str
    source: str
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()  # mutate only these functions (default: the whole file)


TARGETS = (
    Target("store", "gaia_eval/artifacts/store.py", ("tests/test_artifacts.py", "tests/test_disk_full.py")),
    Target("concurrency", "gaia_eval/concurrency.py", ("tests/test_concurrency.py",)),
    Target("lock", "gaia_eval/artifacts/lock.py", ("tests/test_folder_lock.py",)),
    Target("cache", "gaia_eval/providers/cache.py", ("tests/test_cache_integrity.py", "tests/test_response_cache.py")),
    Target("cache_store", "gaia_eval/artifacts/response_cache.py",
           ("tests/test_cache_integrity.py", "tests/test_response_cache.py")),
    Target("grading", "gaia_eval/scoring/rubric/grading.py", ("tests/test_rubric.py", "tests/test_scoring.py")),
    Target("gate", "gaia_eval/bench/gate.py", ("tests/test_bench.py", "tests/test_planted_bugs.py")),
    Target("viewer_checks", "gaia_eval/visualize/server.py", ("tests/test_viewer_hardening.py", "tests/test_visualize.py"),
           functions=("_loopback", "_bracketed", "allow_host_name", "allowed_hosts", "host_name", "do_GET")),
)

_RESULT = re.compile(r"^\s*(\S+__mutmut_\d+): (\S.*)$")


def _copy_repo(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout.split(b"\0")
    for raw in files:
        if not raw:
            continue
        rel = raw.decode()
        src = ROOT / rel
        if src.is_file() and not src.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    # some tests ask git about the tree they run in (check-ignore, status)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)


def _configure(copy: Path, target: Target) -> None:
    """Point mutmut at one file and its tests (appended to the copy's pyproject.toml, never the real one)."""
    tests = ", ".join(f'"{t}"' for t in target.tests)
    with open(copy / "pyproject.toml", "a", encoding="utf-8") as out:
        out.write(
            "\n[tool.mutmut]\n"
            'source_paths = ["gaia_eval"]\n'
            f'only_mutate = ["{target.source}"]\n'
            '# one process per test run: xdist workers would not see the mutant switch\n'
            'pytest_add_cli_args = ["-n", "0", "-p", "no:cacheprovider", "-x", "-q"]\n'
            f"pytest_add_cli_args_test_selection = [{tests}]\n"
        )


def _mutant_names(copy: Path, target: Target, env: dict[str, str]) -> list[str]:
    listed = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=copy, env=env,
                            capture_output=True, text=True)
    names = [m.group(1) for line in listed.stdout.splitlines() if (m := _RESULT.match(line))]
    module = target.source[:-3].replace("/", ".")
    names = [n for n in names if n.startswith(module + ".")]
    if target.functions:
        names = [n for n in names if any(f".x_{f}__mutmut_" in n or f"ǁ{f}__mutmut_" in n for f in target.functions)]
    return names


def run_target(target: Target, sample: int | None, max_children: int, keep: bool) -> tuple[int, int, list[str]]:
    work = Path(tempfile.mkdtemp(prefix=f"gaia-mutation-{target.name}-"))
    try:
        _copy_repo(work)
        _configure(work, target)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        # `mutmut generate`-equivalent: a run on a name that matches nothing writes the mutants and lists them
        subprocess.run([sys.executable, "-m", "mutmut", "run", "no-such-mutant"], cwd=work, env=env,
                       capture_output=True, text=True)
        names = _mutant_names(work, target, env)
        if sample is not None and len(names) > sample:
            names = sorted(random.Random(19).sample(names, sample))
        if not names:
            raise SystemExit(f"{target.name}: no mutants found in {target.source}")
        with open(work / "mutmut.log", "w", encoding="utf-8") as log:
            subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), *names],
                           cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
        listed = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=work, env=env,
                                capture_output=True, text=True).stdout
        status = {m.group(1): m.group(2).strip() for line in listed.splitlines() if (m := _RESULT.match(line))}
        chosen = {n: status.get(n, "not checked") for n in names}
        if all(s == "not checked" for s in chosen.values()):
            tail = (work / "mutmut.log").read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
            raise SystemExit(f"{target.name}: mutmut checked no mutant; its log ends:\n" + "\n".join(tail))
        killed = sum(1 for s in chosen.values() if s in ("killed", "timeout", "caught by type check"))
        survivors = sorted(n for n, s in chosen.items() if s not in ("killed", "timeout", "caught by type check"))
        survivors = [f"{n} ({chosen[n]})" for n in survivors]
        return killed, len(chosen), survivors
    finally:
        if keep:
            print(f"  kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def show(name: str) -> None:
    """Print the diff of one mutant (generated in a fresh copy)."""
    target = next(t for t in TARGETS if name.startswith(t.source[:-3].replace("/", ".") + "."))
    work = Path(tempfile.mkdtemp(prefix="gaia-mutation-show-"))
    try:
        _copy_repo(work)
        _configure(work, target)
        subprocess.run([sys.executable, "-m", "mutmut", "run", "no-such-mutant"], cwd=work, capture_output=True)
        subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help=f"of: {', '.join(t.name for t in TARGETS)} (default: all)")
    parser.add_argument("--sample", type=int, help="at most this many mutants per module (seeded draw)")
    parser.add_argument("--max-children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--keep", action="store_true", help="keep each throw-away copy (to inspect mutmut's state)")
    parser.add_argument("--show", metavar="MUTANT", help="print one mutant's diff and exit")
    args = parser.parse_args()
    if args.show:
        show(args.show)
        return
    unknown = set(args.modules) - {t.name for t in TARGETS}
    if unknown:
        parser.error(f"unknown module(s) {', '.join(sorted(unknown))}")
    total_killed = total = 0
    for target in TARGETS:
        if args.modules and target.name not in args.modules:
            continue
        killed, tested, survivors = run_target(target, args.sample, args.max_children, args.keep)
        total_killed += killed
        total += tested
        print(f"{target.name:14} {target.source:40} killed {killed}/{tested} ({100 * killed / tested:.0f}%)", flush=True)
        for s in survivors:
            print(f"    survived: {s}", flush=True)
    if total:
        print(f"{'all':14} {'':40} killed {total_killed}/{total} ({100 * total_killed / total:.0f}%)")


if __name__ == "__main__":
    main()
