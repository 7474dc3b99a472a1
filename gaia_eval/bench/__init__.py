"""Agent benchmark harness: frozen task suites with deterministic checkers, runners, trajectory metrics,
committed baselines and a regression gate (`gaia-eval bench`).

    from gaia_eval.bench import load_builtin, run_suite, regression_gate, load_baseline
    report = run_suite(my_agent, load_builtin("arithmetic"))   # my_agent: Callable[[str], EvalRun | str]
    ok, message = regression_gate(report, load_baseline("baselines/arithmetic.json"))
"""

from gaia_eval.bench.gate import Baseline, load_baseline, regression_gate, save_baseline
from gaia_eval.bench.metrics import EvalReport, run_suite
from gaia_eval.bench.runs import EvalRun, Runner
from gaia_eval.bench.suites import Suite, load_builtin, load_suite
from gaia_eval.bench.tasks import TaskSpec

__all__ = [
    "Baseline",
    "EvalReport",
    "EvalRun",
    "Runner",
    "Suite",
    "TaskSpec",
    "load_baseline",
    "load_builtin",
    "load_suite",
    "regression_gate",
    "run_suite",
    "save_baseline",
]
