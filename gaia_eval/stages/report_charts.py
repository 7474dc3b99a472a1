"""The report's charts, as SVG files beside report.md: per use case, each model's grade with its 95 % interval,
the criterion x model heatmap, quality against cost and against latency with the Pareto front marked, and the
per-item score distribution.

Drawn with matplotlib (the most widely used and longest-maintained Python plotting library; it writes SVG with
no browser, Node or network, and is imported only when a report is written). SVGs are made byte-stable (fixed
hash salt, no date), so an unchanged report does not rewrite its images.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.store import atomic_write_bytes

CHART_FOLDER_SUFFIX = "_charts"
_COLORS = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]
_BANDS = ((85, "#d9f2d9", "Excellent"), (67, "#e8f4fc", "Good"), (34, "#fff4d6", "Fair"), (0, "#fbe3e3", "Poor"))


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "gaia-eval", "font.size": 9, "axes.spines.top": False,
                                "axes.spines.right": False})
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "gaia-eval"})
    _pyplot().close(fig)
    return out.getvalue()


def _label(row: dict[str, Any]) -> str:
    return str(row["experiment_name"])


def grade_chart(section: dict[str, Any]) -> bytes:
    plt = _pyplot()
    models = section["models"]
    fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.45 * len(models)))
    for low, color, name in _BANDS:
        ax.axvspan(low, 100 if low == 85 else {67: 85, 34: 67, 0: 34}[low], color=color, zorder=0)
    for i, row in enumerate(models):
        y = len(models) - 1 - i
        score = row["quality_score"]
        if row["ci_low"] is not None:
            ax.plot([row["ci_low"], row["ci_high"]], [y, y], color="#333333", linewidth=2, zorder=2)
        ax.plot([score], [y], "o", color=_COLORS[i % len(_COLORS)], markersize=8, zorder=3)
        ax.annotate(f"{score:.1f}", (score, y), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.set_yticks(range(len(models)), [_label(r) for r in reversed(models)])
    ax.set_xlim(0, 100)
    ax.set_xlabel("grade (0-100) with its 95 % bootstrap interval; background: rating bands")
    ax.set_title(f"{section['title']}: grade per model")
    return _svg(fig)


def heatmap_chart(section: dict[str, Any]) -> bytes:
    plt = _pyplot()
    models = section["models"]
    criteria = section["criteria"]
    fig, ax = plt.subplots(figsize=(1.2 + 1.1 * len(criteria), 0.6 + 0.45 * len(models)))
    values = []
    for row in models:
        line = []
        for c in criteria:
            cell = row["criteria"].get(c["id"], {})
            line.append(float("nan") if cell.get("rating") in (None, "N/A") else cell.get("score", float("nan")))
        values.append(line)
    image = ax.imshow(values, cmap="RdYlGn", vmin=0, vmax=100, aspect="auto")
    for i, row in enumerate(models):
        for j, c in enumerate(criteria):
            cell = row["criteria"].get(c["id"], {})
            ax.text(j, i, cell.get("rating", "—") or "—", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(criteria)), [c["label"] for c in criteria], rotation=30, ha="right")
    ax.set_yticks(range(len(models)), [_label(r) for r in models])
    fig.colorbar(image, ax=ax, label="criterion score")
    ax.set_title(f"{section['title']}: ratings per criterion")
    return _svg(fig)


def _pareto(points: list[tuple[float, float, int]]) -> list[int]:
    """Indexes of the points no other point beats on both cost (lower) and quality (higher)."""
    front = []
    for x, y, i in points:
        if not any((x2 <= x and y2 >= y) and (x2, y2) != (x, y) for x2, y2, _ in points):
            front.append(i)
    return front


def tradeoff_chart(section: dict[str, Any]) -> bytes | None:
    plt = _pyplot()
    models = section["models"]
    axes_data = []
    for key, label in (("cost_usd", "cost (USD, model only)"), ("latency_mean_s", "mean latency per item (s)")):
        points = [(float(r[key]), float(r["quality_score"]), i) for i, r in enumerate(models) if r.get(key) is not None]
        if points:
            axes_data.append((label, points))
    if not axes_data:
        return None
    fig, axes = plt.subplots(1, len(axes_data), figsize=(5.2 * len(axes_data), 3.4), squeeze=False)
    for ax, (label, points) in zip(axes[0], axes_data):
        front = set(_pareto(points))
        for x, y, i in points:
            ax.scatter([x], [y], s=60 if i in front else 30, color=_COLORS[i % len(_COLORS)],
                       edgecolors="black" if i in front else "none", zorder=3)
            ax.annotate(_label(models[i]), (x, y), textcoords="offset points", xytext=(5, 4), fontsize=8)
        ordered = sorted((p for p in points if p[2] in front), key=lambda p: p[0])
        ax.plot([p[0] for p in ordered], [p[1] for p in ordered], "--", color="#555555", linewidth=1,
                label="Pareto front")
        ax.set_xlabel(label)
        ax.set_ylabel("grade")
        ax.set_ylim(0, 100)
        ax.legend(loc="lower right", fontsize=7)
    fig.suptitle(f"{section['title']}: quality against cost and latency")
    return _svg(fig)


def distribution_chart(section: dict[str, Any]) -> bytes | None:
    plt = _pyplot()
    models = [r for r in section["models"] if r.get("item_scores")]
    if not models:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 0.6 + 0.5 * len(models)))
    ax.boxplot([r["item_scores"] for r in reversed(models)], orientation="horizontal", widths=0.5)
    for i, row in enumerate(reversed(models), 1):
        scores = row["item_scores"]
        ax.scatter(scores, [i] * len(scores), s=8, alpha=0.5, color=_COLORS[(len(models) - i) % len(_COLORS)], zorder=3)
    ax.set_yticks(range(1, len(models) + 1), [_label(r) for r in reversed(models)])
    ax.set_xlim(0, 100)
    ax.set_xlabel("per-item score (0-100)")
    ax.set_title(f"{section['title']}: per-item scores")
    return _svg(fig)


CHARTS = (("grade", "Grade with 95 % interval", grade_chart),
          ("ratings", "Ratings per criterion", heatmap_chart),
          ("tradeoff", "Quality against cost and latency (Pareto front dashed)", tradeoff_chart),
          ("items", "Per-item score distribution", distribution_chart))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def write_charts(data: dict[str, Any], report_file: Path) -> list[Path]:
    """Draw every chart of every section into `<report stem>_charts/` beside the report; record each chart's
    title and relative path in its section (`section["charts"]`) for the markdown. Returns the files written."""
    folder = report_file.parent / f"{report_file.stem}{CHART_FOLDER_SUFFIX}"
    written = []
    for section in data["sections"]:
        section["charts"] = []
        if not section["models"]:
            continue
        for key, title, draw in CHARTS:
            svg = draw(section)
            if svg is None:
                continue
            path = folder / f"{_slug(section['title'])}-{key}.svg"
            if atomic_write_bytes(path, svg):
                written.append(path)
            section["charts"].append({"title": title, "file": path.relative_to(report_file.parent).as_posix()})
    return written
