"""An experiment's totals and prices: latency percentiles, tokens, and cost at the list price, or at the batch
price for items answered through a provider batch (--batch)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import ExperimentSpec, ExperimentTotals, ItemResult
from gaia_eval.providers.pricing import PriceQuote, batch_quote, cost_of, lookup_price, quote_from_config
from gaia_eval.stages.experiment.inputs import WorkItem


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = (len(sorted_values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def _add(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a + b


@dataclass
class Tally:
    """What a run's summary says of an experiment's items, gathered as they pass by once (a consolidation reads
    them from the parts or an earlier file, which the file it writes may replace)."""

    total: int = 0
    ok: int = 0
    errors: int = 0
    batched: int = 0
    first_error: ItemResult | None = None

    def counted(self, items: Iterable[ItemResult]) -> Iterator[ItemResult]:
        for item in items:
            self.total += 1
            self.ok += item.status == "ok"
            self.errors += item.status == "error"
            self.batched += bool(item.batch_id)
            if self.first_error is None and item.status == "error":
                self.first_error = item
            yield item


def compute_totals(items: Iterable[ItemResult], wall_time_s: float, quote: PriceQuote) -> ExperimentTotals:
    """One pass over the items (they may be read one at a time from the shards' parts)."""
    usage = Usage()
    paid = Usage()
    paid_in_batch = Usage()
    latencies: list[float] = []
    to_success: list[float] = []
    done = ok = errors = retried = batched = 0
    for item in items:
        done += 1
        usage = usage + item.usage
        if item.batch_id:
            batched += 1
            paid_in_batch = paid_in_batch + item.paid_usage
        else:
            paid = paid + item.paid_usage
        if item.status == "ok":
            ok += 1
            latencies.append(item.latency_s)
            to_success.append(item.time_to_success_s or item.latency_s)
            retried += item.attempts > item.calls
        elif item.status == "error":
            errors += 1
    total, in_cost, out_cost = cost_of(paid, quote)
    if paid_in_batch != Usage():
        b_total, b_in, b_out = cost_of(paid_in_batch, batch_quote(quote))
        total, in_cost, out_cost = _add(total, b_total), _add(in_cost, b_in), _add(out_cost, b_out)
    latencies.sort()
    to_success.sort()
    return ExperimentTotals(
        items=done,
        ok=ok,
        errors=errors,
        usage=usage,
        cost_usd=total,
        input_cost_usd=in_cost,
        output_cost_usd=out_cost,
        cost_status=quote.status,
        latency_p50_s=round(_percentile(latencies, 0.5), 4),
        latency_p95_s=round(_percentile(latencies, 0.95), 4),
        latency_max_s=round(latencies[-1], 4) if latencies else 0.0,
        latency_mean_s=round(sum(latencies) / len(latencies), 4) if latencies else 0.0,
        wall_time_s=round(wall_time_s, 3),
        time_to_success_p50_s=round(_percentile(to_success, 0.5), 4),
        time_to_success_p95_s=round(_percentile(to_success, 0.95), 4),
        retried_items=retried,
        throughput_items_per_s=round(done / wall_time_s, 3) if wall_time_s > 0 else 0.0,
        batched_items=batched,
    )


def item_cost(usage: Usage, quote: PriceQuote, batch_id: str | None) -> float | None:
    """An item's cost: its paid tokens at the list price, or at the batch price when a batch answered it."""
    return cost_of(usage, batch_quote(quote) if batch_id else quote)[0]


def refreshed(result: ItemResult, item: WorkItem, quote: PriceQuote) -> ItemResult:
    """Reused answers always carry the current ground truth and the current price, either of which may have
    changed since they were made (neither changes the answer, so no call is needed)."""
    return result.model_copy(
        update={
            "groundtruth_answer": item.expected_answer,
            "groundtruth_summaries": item.expected_summaries,
            "cost_usd": item_cost(result.paid_usage, quote, result.batch_id),
            "cost_status": quote.status,
        }
    )


def price_quote(spec: ExperimentSpec) -> PriceQuote:
    if spec.price is not None:
        return quote_from_config(spec.provider, spec.model, spec.price.input_per_mtok, spec.price.output_per_mtok)
    return lookup_price(spec.provider, spec.model)
