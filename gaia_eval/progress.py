"""A one-line progress display on stderr (items done/total, errors, cost so far, ETA); silent when not a TTY."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, *, enabled: bool | None = None, label: str = "items") -> None:
        self.total = total
        self.done = 0
        self.errors = 0
        self.cost = 0.0
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._start = time.monotonic()
        self._last_draw = 0.0

    def advance(self, *, error: bool = False, cost: float | None = None) -> None:
        self.done += 1
        self.errors += int(error)
        self.cost += cost or 0.0
        now = time.monotonic()
        if self.enabled and (now - self._last_draw > 0.1 or self.done == self.total):
            self._last_draw = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = now - self._start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(
            f"\r[{bar}] {self.done}/{self.total} {self.label}  errors {self.errors}  "
            f"cost ${self.cost:.4f}  ETA {eta:4.0f}s "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled and self.total:
            sys.stderr.write("\n")
            sys.stderr.flush()
