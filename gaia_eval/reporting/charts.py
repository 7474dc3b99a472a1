"""Charts of a report section as SVG text, drawn with matplotlib (imported lazily: only report and the viewer's
chart pages pay its import time).

matplotlib because it is the long-kept standard Python plotting library, renders SVG with no browser, no Node
and no network, and the same SVG serves both the report's image files and the viewer.
"""

from __future__ import annotations

import io
from typing import Any

CHART_KINDS = ("grade", "heatmap", "cost", "latency", "items")
TITLES = {
    "grade": "Grade per model (95 % interval)",
    "heatmap": "Criterion score per model",
    "cost": "Grade vs cost (Pareto front marked)",
    "latency": "Grade vs mean latency (Pareto front marked)",
    "items": "Per-item score distribution",
}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "gaia-eval", "svg.fonttype": "none", "font.size": 9})
    import matplotlib.pyplot as plt

    return plt


def _svg(fig) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    _plt().close(fig)
    return out.getvalue()


def _label(model: dict[str, Any]) -> str:
    return str(model["experiment_name"])


def pareto_front(points: list[tuple[float, float]]) -> list[int]:
    """Indexes of points no other point beats: lower x (cost, latency) and higher y (grade), ties kept."""
    front = []
    for i, (x, y) in enumerate(points):
        if not any((x2 <= x and y2 >= y) and (x2 < x or y2 > y) for j, (x2, y2) in enumerate(points) if j != i):
            front.append(i)
    return sorted(front, key=lambda i: points[i][0])


def grade_chart(section: dict[str, Any]) -> str:
    plt = _plt()
    models = section["models"]
    fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.45 * len(models)))
    names = [_label(m) for m in models][::-1]
    grades = [m["quality_score"] for m in models][::-1]
    lows = [m["quality_score"] - (m["ci_low"] if m["ci_low"] is not None else m["quality_score"]) for m in models][::-1]
    highs = [(m["ci_high"] if m["ci_high"] is not None else m["quality_score"]) - m["quality_score"] for m in models][::-1]
    for floor, color in ((0, "#f8d7da"), (34, "#fff3cd"), (67, "#d1ecf1"), (85, "#d4edda")):
        ax.axvspan(floor, 100 if floor == 85 else {0: 34, 34: 67, 67: 85}[floor], color=color, zorder=0)
    ax.barh(names, grades, color="#3b6ea8", height=0.55, zorder=2)
    ax.errorbar(grades, names, xerr=[lows, highs], fmt="none", ecolor="#222", capsize=3, zorder=3)
    for y, (g, high) in enumerate(zip(grades, highs)):
        ax.text(min(g + high + 1.5, 91), y, f"{g:.1f}", va="center", fontsize=8, fontweight="bold", zorder=4)
    ax.set_xlim(0, 100)
    ax.set_xlabel("grade (0–100); bands Poor / Fair / Good / Excellent")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def heatmap_chart(section: dict[str, Any]) -> str:
    plt = _plt()
    models, criteria = section["models"], section["criteria"]
    matrix = [[m["criteria"][c["id"]]["score"] for c in criteria] for m in models]
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * max(len(criteria), 1), 0.6 + 0.45 * len(models)))
    image = ax.imshow(matrix, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(criteria)), [c["label"] for c in criteria], rotation=30, ha="right")
    ax.set_yticks(range(len(models)), [_label(m) for m in models])
    for r, m in enumerate(models):
        for k, c in enumerate(criteria):
            cell = m["criteria"][c["id"]]
            ax.text(k, r, f"{cell['rating']}\n{cell['score']:.0f}", ha="center", va="center", fontsize=7)
    fig.colorbar(image, ax=ax, label="score")
    return _svg(fig)


def scatter_chart(section: dict[str, Any], axis: str) -> str | None:
    """Grade against cost ("cost") or mean latency ("latency"); None when no model has the measure."""
    plt = _plt()
    key = "cost_usd" if axis == "cost" else "latency_mean_s"
    models = [m for m in section["models"] if m.get(key) is not None]
    if not models or not any(m[key] for m in models):
        return None  # nothing measured (e.g. every model local at $0): an empty axis says nothing
    points = [(float(m[key]), float(m["quality_score"])) for m in models]
    front = pareto_front(points)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.scatter([p[0] for p in points], [p[1] for p in points], color="#3b6ea8", zorder=3)
    ax.plot([points[i][0] for i in front], [points[i][1] for i in front], color="#d9534f", linestyle="--",
            marker="o", markerfacecolor="none", markersize=11, label="Pareto front", zorder=2)
    for (x, y), m in zip(points, models):
        ax.annotate(_label(m), (x, y), textcoords="offset points", xytext=(5, 4), fontsize=7)
    ax.set_xlabel("cost of the run (USD)" if axis == "cost" else "mean latency per item (s)")
    ax.set_ylabel("grade")
    ax.set_ylim(0, 105)
    ax.legend(loc="lower right", fontsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def items_chart(section: dict[str, Any]) -> str | None:
    """Box plot of per-item scores per model (qa: pass share per model, as bars)."""
    plt = _plt()
    models = section["models"]
    columns: list[list[float]] = [[] for _ in models]
    for row in section["per_item"]:
        for k, cell in enumerate(row["cells"]):
            if cell == "pass":
                columns[k].append(100.0)
            elif cell in ("fail", "error"):
                columns[k].append(0.0)
            elif cell != "—":
                try:
                    columns[k].append(float(cell))
                except ValueError:
                    continue
    if not any(columns):
        return None
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.45 * len(models)))
    ax.boxplot([c or [0.0] for c in columns][::-1], orientation="horizontal", widths=0.5)
    ax.set_yticks(range(1, len(models) + 1), [_label(m) for m in models][::-1])
    ax.set_xlim(-2, 102)
    ax.set_xlabel("item score (0–100; qa: pass = 100, fail or error = 0)")
    ax.spines[["top", "right"]].set_visible(False)
    return _svg(fig)


def section_charts(section: dict[str, Any]) -> dict[str, str]:
    """Every chart that applies to a section, by kind."""
    charts: dict[str, str | None] = {
        "grade": grade_chart(section),
        "heatmap": heatmap_chart(section) if section["criteria"] else None,
        "cost": scatter_chart(section, "cost"),
        "latency": scatter_chart(section, "latency"),
        "items": items_chart(section),
    }
    return {k: v for k, v in charts.items() if v is not None}
