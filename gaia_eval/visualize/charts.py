"""The viewer's charts: the report's charts of one use case, drawn when first asked for and kept until an evaluation
file changes (a chart that would say nothing is left out, with the reason shown in its place), and a bench run's
chart. Nothing here writes a file."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from gaia_eval.errors import GaiaEvalError
from gaia_eval.visualize.data import bench_results, evaluation_index

# per version of the evaluation folder: the report's data, each use case's charts once one was asked for, and
# why a chart was left out of a use case's
_CHART_CACHE: dict[tuple, tuple[dict[str, Any], dict[str, dict[str, str]], dict[str, dict[str, str]]]] = {}
# The server answers requests in threads, and a page asks for its charts at once; matplotlib's pyplot is not
# thread-safe and the cache is shared, so drawing and caching happen one request at a time.
_CHART_LOCK = threading.Lock()


def charts(eval_root: Path, use_case: str) -> dict[str, str] | None:
    """The report's charts (SVG) for one use case, drawn from the evaluation folder when first asked for; redrawn
    only when an evaluation file changes (drawing takes about a second, tens of seconds at 1,000 models)."""
    with _CHART_LOCK:
        found = _charts_locked(eval_root, use_case)
        return None if found is None else found[0]


def charts_left_out(eval_root: Path, use_case: str) -> dict[str, str]:
    """kind -> why the viewer leaves that chart out for this use case (drawn or not, it would say nothing)."""
    with _CHART_LOCK:
        found = _charts_locked(eval_root, use_case)
        return {} if found is None else found[1]


def _left_out(section: dict[str, Any]) -> dict[str, str]:
    """The cost/latency chart when no model has a cost to plot: a single latency panel, or an almost empty plot,
    would say nothing the table does not; the reason is shown in its place."""
    from gaia_eval.reporting.charts import tradeoff_panels

    panels, _notes = tradeoff_panels(section["models"])
    if any(label.startswith("model cost") for label, _points in panels):
        return {}
    costs = [r.get("cost_usd") for r in section["models"]]
    why = ("every model ran at no cost (local)" if all(c == 0 for c in costs)
           else "no model has a known cost (unpriced, or answers imported or filled in without costs)"
           if all(c is None for c in costs) else "each model ran at no cost (local) or has no known cost")
    return {"tradeoff": f"Quality against cost and latency is left out: {why}; latency is in the table."}


def _charts_locked(eval_root: Path, use_case: str) -> tuple[dict[str, str], dict[str, str]] | None:
    from gaia_eval.reporting.charts import CHARTS
    from gaia_eval.reporting.data import build_report_data

    index = evaluation_index(eval_root)
    index.current()
    key = index.fingerprint()
    if key not in _CHART_CACHE:
        try:
            data = build_report_data(eval_root)
        except GaiaEvalError:
            return None
        _CHART_CACHE.clear()
        _CHART_CACHE[key] = (data, {}, {})
    data, drawn, left = _CHART_CACHE[key]
    if use_case not in drawn:  # drawn when first asked for: at 1,000 models a use case's charts take seconds
        # the use case's first section: the comparative one comes before a standalone one
        section = next((s for s in data["sections"] if s["use_case"] == use_case), None)
        if section is None:
            return None
        left[use_case] = _left_out(section) if section["models"] else {}
        svgs = {kind: draw(section) for kind, _title, draw in CHARTS
                if kind not in left[use_case]} if section["models"] else {}
        drawn[use_case] = {k: v.decode("utf-8") for k, v in svgs.items() if v is not None}
    return drawn[use_case], left[use_case]


def is_wide(kind: str, svg: str) -> bool:
    """The trade-off chart with both panels (cost and latency) gets a row of its own in the viewer's grid."""
    return kind == "tradeoff" and 'id="axes_2"' in svg


_BENCH_CACHE: dict[tuple[str, int], str] = {}


def bench_chart(reports_root: Path, rel: str, resolve: Any) -> str | None:
    """The bench chart of one results file (inside the reports root: `resolve` keeps it there), drawn once per
    version of the file."""
    from gaia_eval.bench.exports import bench_chart_svg

    path = resolve("reports", rel)
    data = bench_results(path) if path is not None else None
    if data is None:
        return None
    key = (str(path), path.stat().st_mtime_ns)
    with _CHART_LOCK:
        if key not in _BENCH_CACHE:
            _BENCH_CACHE.clear()
            _BENCH_CACHE[key] = bench_chart_svg(data).decode("utf-8")
        return _BENCH_CACHE[key]


