"""The one place matplotlib is set up, for every chart gaia-eval draws (the report's, bench's, the viewer's).

matplotlib: the most widely used and longest-maintained Python plotting library; it writes SVG with no browser,
Node or network, and is imported only when a chart is drawn. SVGs are byte-stable (fixed hash salt, no date),
so an unchanged report does not rewrite its images.
"""

from __future__ import annotations

import io
from typing import Any

COLORS = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]
# The documented rating bands of a 0-100 grade: (low, high, name, background colour, strong colour)
BANDS = ((0, 33, "Poor", "#fbe3e3", "#d9534f"), (33, 67, "Fair", "#fff4d6", "#f0ad4e"),
         (67, 85, "Good", "#e3f1fb", "#5bc0de"), (85, 100, "Excellent", "#dff3df", "#5cb85c"))
FONT_SIZE = 10  # charts are shown at their natural size (never stretched), so this is the size a reader sees


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "gaia-eval", "font.size": FONT_SIZE, "axes.spines.top": False,
                                "axes.spines.right": False, "axes.titlesize": FONT_SIZE + 1,
                                "axes.titleweight": "bold", "legend.fontsize": FONT_SIZE - 1})
    import matplotlib.pyplot as plt

    return plt


def svg_bytes(fig: Any) -> bytes:
    out = io.BytesIO()
    fig.savefig(out, format="svg", bbox_inches="tight", pad_inches=0.12,
                metadata={"Date": None, "Creator": "gaia-eval"})
    pyplot().close(fig)
    return out.getvalue()
