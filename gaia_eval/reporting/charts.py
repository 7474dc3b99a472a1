"""The report's charts, as SVG files beside report.md: per use case, each model's grade with its 95 % interval
over the rating bands, the criterion x model heatmap, quality against cost and against latency with the Pareto
front marked, and how each model's items fall into the rating bands. Drawn with matplotlib (see
gaia_eval/plotting.py for why); the viewer shows the same charts.
"""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.store import atomic_write_bytes, fingerprint, fingerprint_file, read_prefix
from gaia_eval.plotting import BANDS, COLORS, pyplot, svg_bytes
from gaia_eval.safe_text import chart_text

CHART_FOLDER_SUFFIX = "_charts"
WIDTH_IN = 7.0  # one width for the single-panel charts, so their text has one size side by side


def _label(row: dict[str, Any], width: int = 28) -> str:
    name = chart_text(str(row["experiment_name"]))
    return name if len(name) <= width else name[: width - 1] + "…"


def _band_of(score: float) -> int:
    """Index in BANDS of a 0-100 score: the band rubric.rating_band gives it, as for the grade and in the viewer
    (Python's round() took 66.5 to 66, Fair, where the grade's rule says 67, Good)."""
    from gaia_eval.scoring.rubric import rating_band

    rating = rating_band(score)
    return next(i for i, band in enumerate(BANDS) if band[2] == rating)


def grade_chart(section: dict[str, Any]) -> bytes:
    plt = pyplot()
    models = section["models"]
    n = len(models)
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 1.2 + 0.45 * n))
    for low, high, name, background, _strong in BANDS:
        ax.axvspan(low, high, color=background, zorder=0)
        ax.text((low + high) / 2, n - 0.45, name, ha="center", va="bottom", fontsize=8, color="#555555")
    for i, row in enumerate(models):
        y = n - 1 - i
        score = row["quality_score"]
        right = score
        if row["ci_low"] is not None:
            ax.plot([row["ci_low"], row["ci_high"]], [y, y], color="#333333", linewidth=2, zorder=2,
                    solid_capstyle="butt")
            ax.plot([row["ci_low"]] * 2, [y - 0.12, y + 0.12], color="#333333", linewidth=1.5, zorder=2)
            ax.plot([row["ci_high"]] * 2, [y - 0.12, y + 0.12], color="#333333", linewidth=1.5, zorder=2)
            right = row["ci_high"]
        ax.plot([score], [y], "o", color=COLORS[i % len(COLORS)], markersize=9, markeredgecolor="black", zorder=3)
        text = f"{score:.1f}" + (f"  ({row['ci_low']:.0f}–{row['ci_high']:.0f})" if row["ci_low"] is not None else "")
        inside = right > 78  # near the right edge the value goes left of the interval instead
        ax.annotate(text, (row["ci_low"] if inside and row["ci_low"] is not None else right, y),
                    textcoords="offset points", xytext=(-8 if inside else 8, 0), ha="right" if inside else "left",
                    va="center", fontsize=9, fontweight="bold")
    ax.set_yticks(range(n), [_label(r) for r in reversed(models)])
    ax.set_ylim(-0.6, n - 0.05)
    ax.set_xlim(0, 100)
    ax.set_xlabel("grade 0–100: dot, with its 95 % bootstrap interval over items; background: rating bands")
    ax.set_title(f"{section['title']}: grade per model", loc="left")
    return svg_bytes(fig)


def heatmap_chart(section: dict[str, Any]) -> bytes:
    plt = pyplot()
    models = section["models"]
    criteria = section["criteria"]
    fig, ax = plt.subplots(figsize=(max(4.6, 2.4 + 1.05 * len(criteria)), 1.3 + 0.5 * len(models)))
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
            score = values[i][j]
            text = cell.get("rating") or "—" if math.isnan(score) else f"{cell['rating']}\n{score:.0f}"
            dark = not math.isnan(score) and (score < 20 or score > 80)
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    labels = [textwrap.fill(c["label"], 13) for c in criteria]
    ax.set_xticks(range(len(criteria)), labels, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(models)), [_label(r) for r in models])
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    fig.colorbar(image, ax=ax, label="criterion score", fraction=0.04, pad=0.02)
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    ax.set_title(f"{section['title']}: each criterion's score over all items (0–100) and its rating band", loc="left",
                 pad=8 + 11 * lines)
    return svg_bytes(fig)


def _pareto(points: list[tuple[float, float, int]]) -> list[int]:
    """Indexes of the points no other point beats on both cost (lower) and quality (higher)."""
    front = []
    for x, y, i in points:
        if not any((x2 <= x and y2 >= y) and (x2, y2) != (x, y) for x2, y2, _ in points):
            front.append(i)
    return front


def tradeoff_panels(models: list[dict[str, Any]]) -> tuple[list[tuple[str, list[tuple[float, float, int]]]], list[str]]:
    """The trade-off chart's panels (axis label, points) and the notes its title carries: which models are left
    off a panel and why, and a cost panel left out because every model ran at no cost."""
    axes_data, notes = [], []
    for key, label, unknown in (("cost_usd", "model cost for the run (USD)", "no known cost"),
                                ("latency_mean_s", "mean latency per item (s)", "not timed")):
        points = [(float(r[key]), float(r["quality_score"]), i) for i, r in enumerate(models) if r.get(key) is not None]
        left_off = [_label(r, 22) for r in models if r.get(key) is None]
        if left_off:
            notes.append(f"{unknown}, left off the {key.split('_')[0]} panel: {', '.join(left_off)}")
        if key == "cost_usd" and points and not any(p[0] for p in points):
            notes.append("cost not plotted: every " + ("other " if left_off else "") + "model ran at no cost (local)")
            continue
        if points:
            axes_data.append((label, points))
    return axes_data, notes


def tradeoff_chart(section: dict[str, Any]) -> bytes | None:
    """Grade against model cost and against mean latency, the Pareto front (no model is both cheaper/faster
    and better) outlined and joined. A cost panel where every model cost nothing (local) would say nothing,
    so it is left out and the title says why; a model with no known cost (unpriced, imported without costs) or
    no timing is named in the title as left off its panel, never dropped silently."""
    models = section["models"]
    axes_data, notes = tradeoff_panels(models)
    if not axes_data:
        return None
    plt = pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(axes_data), figsize=(4.9 * len(axes_data), 3.8), squeeze=False)
    for ax, (label, points) in zip(axes[0], axes_data, strict=True):
        front = set(_pareto(points))
        ordered = sorted((p for p in points if p[2] in front), key=lambda p: p[0])
        ax.plot([p[0] for p in ordered], [p[1] for p in ordered], "--", color="#555555", linewidth=1, zorder=2)
        for x, y, i in points:
            ax.scatter([x], [y], s=90 if i in front else 45, color=COLORS[i % len(COLORS)],
                       edgecolors="black" if i in front else "none", linewidths=1.5, zorder=3)
            ax.annotate(_label(models[i], 22), (x, y), textcoords="offset points", xytext=(7, 5), fontsize=9)
        xs = [p[0] for p in points]
        span = (max(xs) - min(xs)) or max(abs(max(xs)), 1e-9)
        ax.set_xlim(min(xs) - 0.1 * span, max(xs) + 0.45 * span)  # room for the names right of the points
        ax.xaxis.set_major_locator(MaxNLocator(5))
        ax.set_xlabel(label)
        ax.set_ylabel("grade (0–100)")
        ax.set_ylim(-5, 105)  # a model graded 0 stays visible above the axis
        ax.grid(alpha=0.3)
    front_key = Line2D(
        [],
        [],
        linestyle="--",
        color="#555555",
        marker="o",
        markerfacecolor="white",
        markeredgecolor="black",
        label="Pareto front (outlined): no other model is both better and cheaper / faster",
    )
    fig.legend(handles=[front_key], loc="upper left", bbox_to_anchor=(0.02, 0.0), frameon=False)
    title = f"{section['title']}: quality against cost and latency"
    fig.suptitle(title + (f"\n({'; '.join(notes)})" if notes else ""), x=0.02, ha="left", fontweight="bold")
    return svg_bytes(fig)


def distribution_chart(section: dict[str, Any]) -> bytes | None:
    """How each model's items spread over the rating bands (item score 0-100), as one stacked bar per model:
    readable for pass/fail qa items as for graded summaries."""
    plt = pyplot()
    models = [r for r in section["models"] if r.get("item_scores")]
    if not models:
        return None
    left_off = [_label(r, 22) for r in section["models"] if not r.get("item_scores")]
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 1.3 + 0.45 * len(models)))
    for y, row in enumerate(reversed(models)):
        scores = row["item_scores"]
        counts = [0] * len(BANDS)
        for score in scores:
            counts[_band_of(score)] += 1
        left = 0.0
        for (_low, _high, name, _bg, strong), count in zip(BANDS, counts, strict=True):
            share = 100 * count / len(scores)
            ax.barh(y, share, left=left, color=strong, edgecolor="white", height=0.6,
                    label=name if y == 0 else None)
            if share >= 7:
                ax.text(left + share / 2, y, str(count), ha="center", va="center", fontsize=8, color="black")
            left += share
    ax.set_yticks(range(len(models)), [_label(r) for r in reversed(models)])
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of items (%), by the band of the item's score; numbers are item counts")
    ax.legend(ncols=4, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False, fontsize=8)
    ax.set_title(f"{section['title']}: items per rating band"
                 + (f"\n(no scored item, left off: {', '.join(left_off)})" if left_off else ""), loc="left", pad=22)
    return svg_bytes(fig)


CHARTS = (("grade", "Grade with 95 % interval", grade_chart),
          ("ratings", "Ratings per criterion", heatmap_chart),
          ("tradeoff", "Quality against cost and latency (Pareto front dashed)", tradeoff_chart),
          ("items", "Items per rating band", distribution_chart))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


_INPUTS_MARK = b"<!-- gaia-eval chart inputs: "


def _drawing_version() -> str:
    """What else shapes a chart besides its data: this code and the matplotlib it draws with."""
    from importlib.metadata import version

    from gaia_eval import plotting

    return fingerprint([fingerprint_file(Path(__file__)), fingerprint_file(Path(plotting.__file__)),
                        version("matplotlib")])


def _with_inputs(svg: bytes, inputs: str) -> bytes:
    """The SVG with its inputs' fingerprint as a comment after the XML declaration (the first line)."""
    head, _, rest = svg.partition(b"\n")
    return head + b"\n" + _INPUTS_MARK + inputs.encode() + b" -->\n" + rest


def _drawn_from(path: Path, inputs: str) -> bool:
    """True when the chart at `path` was drawn from exactly these inputs, so drawing it again is not needed."""
    head = read_prefix(path, 512)
    return head is not None and _INPUTS_MARK + inputs.encode() + b" -->" in head


def write_charts(data: dict[str, Any], report_file: Path) -> list[Path]:
    """Draw every chart of every section into `<report stem>_charts/` beside the report; record each chart's
    title and relative path in its section (`section["charts"]`) for the markdown. Returns the files written.
    A chart whose file was drawn from the same section data by the same code is not drawn again (matplotlib
    is not even imported), so a report with nothing new takes a fraction of a second."""
    folder = report_file.parent / f"{report_file.stem}{CHART_FOLDER_SUFFIX}"
    written = []
    version: str | None = None
    for section in data["sections"]:
        section["charts"] = []
        if not section["models"]:
            continue
        version = version or _drawing_version()
        for key, title, draw in CHARTS:
            path = folder / f"{_slug(section['title'])}-{key}.svg"
            inputs = fingerprint([version, key, {k: v for k, v in section.items() if k != "charts"}])
            if not _drawn_from(path, inputs):
                svg = draw(section)
                if svg is None:
                    path.unlink(missing_ok=True)  # a chart with nothing to draw now must not show old data
                    continue
                if atomic_write_bytes(path, _with_inputs(svg, inputs)):
                    written.append(path)
            section["charts"].append({"title": title, "file": path.relative_to(report_file.parent).as_posix()})
    return written
