"""What import-outputs keeps about rows while it reads them, in memory that stays small whatever their number:
each system's totals (sums, and its latencies for the percentiles) and a digest of each (system, item) pair for
finding one given twice. Both keep 8 bytes a row in sorted runs of machine numbers, never a Python object a row,
and walk them in order by merging the runs."""

from __future__ import annotations

import hashlib
import heapq
from array import array
from collections.abc import Iterator

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import ExperimentTotals, ItemResult

RUN = 1 << 12  # numbers sorted at a time (a temporary list of about 150 kB)


class SortedRuns:
    """Numbers of one array typecode ("d": floats, "Q": 64-bit digests), 8 bytes each: a run is sorted when it
    fills, and iterating merges the runs into one ascending walk."""

    def __init__(self, typecode: str) -> None:
        self._typecode = typecode
        self._runs: list[array] = []
        self._open: array = array(typecode)
        self.count = 0

    def add(self, value: float) -> None:
        self._open.append(value)
        self.count += 1
        if len(self._open) >= RUN:
            self._seal()

    def _seal(self) -> None:
        self._runs.append(array(self._typecode, sorted(self._open)))
        self._open = array(self._typecode)

    def __iter__(self) -> Iterator[float]:
        if self._open:
            self._seal()
        return heapq.merge(*self._runs)


def pair_digest(system: str, item_id: str) -> int:
    """A 64-bit digest of (system, item): two pairs sharing one is a candidate, checked against the rows."""
    key = system.encode("utf-8", "surrogatepass") + b"\0" + item_id.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


def repeated(values: SortedRuns) -> set[float]:
    """The values given more than once (for digests: almost always none, else the pairs to look for)."""
    found: set[float] = set()
    previous: float | None = None
    for value in values:
        if value == previous:
            found.add(value)
        previous = value
    return found


def imported_totals(items: list[ItemResult]) -> ExperimentTotals:
    """Totals of imported rows (an item the source run failed counts as an error), the costs summed when every row
    has one, latencies as given."""
    total = TotalsSum()
    for item in items:
        total.add(item)
    return total.totals()


class TotalsSum:
    """imported_totals kept as rows go by: sums, and one latency (8 bytes) a row for the percentiles."""

    def __init__(self) -> None:
        self.items = self.errors = self.input_tokens = self.output_tokens = 0
        self.cost: float | None = 0
        self.latencies = SortedRuns("d")

    def add(self, item: ItemResult) -> None:
        self.items += 1
        self.errors += item.status == "error"
        self.input_tokens += item.usage.input_tokens
        self.output_tokens += item.usage.output_tokens
        self.cost = None if self.cost is None or item.cost_usd is None else self.cost + item.cost_usd
        self.latencies.add(item.latency_s)

    def totals(self) -> ExperimentTotals:
        count = self.latencies.count
        wanted = {"p50": count // 2, "p95": int(0.95 * (count - 1)), "max": count - 1}  # as sorted()[i] was
        picked: dict[str, float] = {}

        def ascending() -> Iterator[float]:
            for index, latency in enumerate(self.latencies):
                for name, at in wanted.items():
                    if index == at:
                        picked[name] = latency
                yield latency

        total = sum(ascending())  # sum() as before, over the same ascending order: the same float, bit for bit
        return ExperimentTotals(
            items=self.items,
            ok=self.items - self.errors,
            errors=self.errors,
            usage=Usage(input_tokens=self.input_tokens, output_tokens=self.output_tokens),
            cost_usd=self.cost,
            input_cost_usd=None,
            output_cost_usd=None,
            cost_status="priced" if self.cost is not None else "unpriced",
            latency_p50_s=picked["p50"],
            latency_p95_s=picked["p95"],
            latency_max_s=picked["max"],
            latency_mean_s=total / count,
            wall_time_s=total,
            throughput_items_per_s=0.0,
        )
