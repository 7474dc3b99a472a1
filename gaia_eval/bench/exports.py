"""What `gaia-eval bench -o FILE.json` writes beside its results, and what the viewer shows of a bench run:
a chart of success rate, average steps and tool-error rate against the baseline (SVG, matplotlib, see
gaia_eval/plotting.py) and JUnit XML with one test case per task, so CI systems show the run natively.
Both are drawn from the results file's own dict, so the viewer needs nothing but that file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.store import atomic_write_bytes
from gaia_eval.safe_text import scrub_xml_tree

CHART_SUFFIX = "_charts"


def is_bench_results(data: Any) -> bool:
    return isinstance(data, dict) and {"suite", "suite_fingerprint", "runner", "tasks", "success_rate"} <= data.keys()


def baseline_summary(baseline: Any, path: Path, tolerance: float) -> dict[str, Any]:
    """The baseline's numbers as stored beside a run's results, so the run can be charted against them later."""
    return {"file": Path(path).as_posix(), "success_rate": baseline.success_rate, "avg_steps": baseline.avg_steps,
            "tool_error_rate": baseline.tool_error_rate, "n": baseline.n, "runner": baseline.runner,
            "tolerance": tolerance}


def bench_chart_svg(results: dict[str, Any]) -> bytes:
    """Three panels, this run beside its baseline: success rate (with the gate's threshold), average steps and
    tool-error rate. Without a baseline the run's bars stand alone and the title says so."""
    from gaia_eval.plotting import COLORS, pyplot, svg_bytes

    plt = pyplot()
    base = results.get("baseline") or None
    panels = (("success_rate", "success rate (%)", 100, "higher is better"),
              ("avg_steps", "average steps", 1, "lower is better"),
              ("tool_error_rate", "tool-error rate (%)", 100, "lower is better"))
    fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.4))
    for ax, (key, label, scale, better) in zip(axes, panels, strict=True):
        names, values, colors = ["this run"], [float(results[key]) * scale], [COLORS[0]]
        if base is not None and base.get(key) is not None:
            names.append("baseline")
            values.append(float(base[key]) * scale)
            colors.append("#9aa3ad")
        bars = ax.bar(names, values, color=colors, width=0.6)
        for bar, value in zip(bars, values, strict=True):
            ax.annotate(f"{value:.1f}" if scale == 100 else f"{value:.2f}", (bar.get_x() + bar.get_width() / 2, value),
                        textcoords="offset points", xytext=(0, 3), ha="center", fontsize=9, fontweight="bold")
        top = max([*values, 1e-09])
        if key == "success_rate" and base is not None:
            threshold = 100 * (base["success_rate"] - base.get("tolerance", 0))
            ax.axhline(threshold, color="#C44E52", linestyle="--", linewidth=1,
                       label=f"gate: baseline − tolerance = {threshold:.0f} %")
            ax.legend(loc="lower center", fontsize=8, framealpha=0.9)
        # an all-zero panel (no tool errors anywhere) keeps a readable scale instead of 1e-9
        ax.set_ylim(0, 105 if key == "success_rate" else max(top * 1.3, 10 if scale == 100 else 1))
        ax.set_title(label, fontsize=10)
        ax.set_xlabel(better, fontsize=8, color="#555555")
    against = f"against baseline {Path(base['file']).name}" if base else "(no baseline to compare with)"
    fig.suptitle(f"bench {results['suite']} · runner {results['runner']} · {results['n']} tasks {against}",
                 x=0.02, ha="left", fontweight="bold")
    fig.tight_layout()
    return svg_bytes(fig)


def bench_junit_xml(results: dict[str, Any]) -> bytes:
    """One test suite for the run, one test case per task; a task fails when it did not pass (in every
    repeat), with the last attempt's explanation or error as the message."""
    name = f"bench.{results['suite']}"
    suite = ET.Element("testsuite", name=name, tests=str(len(results["tasks"])))
    failures = errors = 0
    for task in results["tasks"]:
        case = ET.SubElement(suite, "testcase", classname=name, name=str(task["id"]),
                             time=f"{float(task.get('latency_s') or 0):.3f}")
        if task["passed"]:
            continue
        last = (task.get("attempts") or [{}])[-1]
        repeats = len(task.get("attempts") or [])
        where = f" (passed {round(task.get('pass_rate', 0) * repeats)}/{repeats})" if repeats > 1 else ""
        if last.get("error"):
            errors += 1
            ET.SubElement(case, "error", message=f"the runner failed{where}: {last['error']}").text = last["error"]
        else:
            failures += 1
            message = (last.get("explanation") or "did not pass") + where
            ET.SubElement(case, "failure", message=message).text = (
                f"expected: {task.get('expected')}\nanswer: {last.get('answer')}\nsteps: {task.get('steps')}, "
                f"tool errors: {task.get('tool_errors')}")
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suites = ET.Element("testsuites", name="gaia-eval bench")
    suites.append(suite)
    ET.indent(scrub_xml_tree(suites))  # a task id or an answer holding a control character still makes valid XML
    return ET.tostring(suites, encoding="utf-8", xml_declaration=True) + b"\n"


def write_bench_exports(output: Path, results: dict[str, Any]) -> list[Path]:
    """`<stem>.junit.xml` and `<stem>_charts/bench.svg` beside the results file; returns their paths."""
    output = Path(output)
    junit = output.with_name(output.stem + ".junit.xml")
    chart = output.with_name(output.stem + CHART_SUFFIX) / "bench.svg"
    atomic_write_bytes(junit, bench_junit_xml(results))
    atomic_write_bytes(chart, bench_chart_svg(results))
    return [junit, chart]
