"""How a model's cost and latency read wherever they are shown (report.md, its CSV and JSON, the viewer): one
rule, so a model that answered nothing never shows as free and instant ("—", not "$0 (local)" or 0.000 s),
an unpriced one never as $0, and answers nobody timed (pasted into a template, imported) show no latency."""

from __future__ import annotations

from gaia_eval.artifacts.evaluation import Evaluation

# Providers whose answers were produced outside gaia-eval: their latency was never measured.
UNTIMED_PROVIDERS = ("manual", "imported")


def model_label(provider: str, model: str) -> str:
    """What produced a model's answers, as the report and the viewer name it: `provider:model` for a model
    gaia-eval called; for answers from outside, what the user said (`--model`) and how they came in, never
    `manual:manual` (a template's default provider and model)."""
    if provider == "manual":
        return "filled template" if model in ("", "manual") else f"{model} (filled template)"
    if provider == "imported":
        return f"{model} (imported)"
    return f"{provider}:{model}"


def answered(ev: Evaluation) -> bool:
    """The model answered at least one item (an all-error model has no cost or latency to show)."""
    return ev.grade.n_items > ev.grade.n_errors


def timed(ev: Evaluation) -> bool:
    """Latencies were measured: the model answered something and gaia-eval itself made the calls."""
    return answered(ev) and not (ev.provider in UNTIMED_PROVIDERS and not ev.inference.latency_max_s)


def cost_text(cost: float | None, status: str) -> str:
    if status == "local":
        return "$0 (local)"
    if status == "unpriced" or cost is None:
        return "unpriced"
    text = f"${cost:.4f}"
    return text + " (partial)" if status == "partial" else text


def model_cost_text(ev: Evaluation) -> str:
    return cost_text(ev.inference.cost_usd, ev.inference.cost_status) if answered(ev) else "—"


def latency_text(ev: Evaluation) -> str:
    """Mean latency of the answered items, or "—" when nothing was timed."""
    return f"{ev.inference.latency_mean_s:.3f} s" if timed(ev) else "—"


def cost_per_item_text(ev: Evaluation) -> str:
    """Model cost per answered item, read like the total: a local model's is "$0 (local)", not $0.000000."""
    n = ev.inference.items_answered
    if not answered(ev) or not n:
        return "—"
    cost, status = ev.inference.cost_usd, ev.inference.cost_status
    if status in ("local", "unpriced") or cost is None:
        return cost_text(cost, status)
    return f"${cost / n:.6f}" + (" (partial)" if status == "partial" else "")
