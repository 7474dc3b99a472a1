"""One rater's session over a saved sample: where they are (replayed from the ratings log, so a reload or a
restart continues where they stopped) and each action they take, appended to the log as one line.

What the page receives is blind: a unit id, the source, the reference and the output's text; never the model,
never a score.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Literal

from gaia_eval.artifacts.ratings import (
    SCALE,
    TIE,
    AnnotationSample,
    RatingRecord,
    SamplePair,
    SampleUnit,
    append_rating,
    live_records,
    new_record,
    read_ratings,
)
from gaia_eval.metaeval.evaluated import EvaluatedSet
from gaia_eval.metaeval.own import current
from gaia_eval.reporting import use_case_view

Mode = Literal["single", "pairwise"]
MAX_COMMENT = 4000


class BadAction(ValueError):
    """A request the page should never send (unknown unit, value off the scale): answered 400."""


class Session:
    def __init__(
        self, sample: AnnotationSample, evaluated: EvaluatedSet, ratings: Path, rater: str, mode: Mode,
        next_command: str = "gaia-eval meta-eval --evaluations DIR",
    ) -> None:
        self.sample, self.evaluated, self.path, self.rater, self.mode = sample, evaluated, Path(ratings), rater, mode
        self.next_command = next_command  # the full meta-eval command the done page names
        self.units: dict[str, SampleUnit | SamplePair] = {
            u.id: u for u in (sample.units if mode == "single" else sample.pairs)
        }
        log = read_ratings(self.path)
        self.torn_lines = log.torn_lines
        self.mine: list[RatingRecord] = [r for r in log.records if r.rater == rater]
        self._lock = threading.Lock()  # one action at a time: the log and the in-memory replay stay in step

    # --- where the rater is ---------------------------------------------------------------------------------

    def _replay(self) -> tuple[dict[str, dict[str, int]], dict[str, str], set[str]]:
        """Per unit: the latest rating per dimension, the latest comment; and the units finished (every
        dimension rated, a preference given, or skipped). A rating or preference of an output that has changed
        since (a re-run experiment) is stale: meta-eval leaves it out, so the unit is offered again."""
        ratings: dict[str, dict[str, int]] = {}
        comments: dict[str, str] = {}
        finished: set[str] = set()
        for r in live_records(self.mine):
            if r.unit not in self.units:
                continue
            if self._stale(r):
                continue
            if r.kind == "rating" and r.dimension in self.sample.dimensions:
                ratings.setdefault(r.unit, {})[r.dimension] = r.value  # type: ignore[assignment]
            elif r.kind == "comment":
                comments[r.unit] = r.comment or ""
            elif r.kind in ("skip", "preference"):
                finished.add(r.unit)
        for unit, values in ratings.items():
            if all(d in values for d in self.sample.dimensions):
                finished.add(unit)
        return ratings, comments, finished

    def state(self) -> dict[str, Any]:
        with self._lock:
            ratings, comments, finished = self._replay()
            current = next((u for u in self.units if u not in finished), None)
            return {
                "mode": self.mode,
                "title": use_case_view.title(self.evaluated.use_case),  # what is rated, as the report titles it
                "rater": self.rater,
                "dimensions": self.sample.dimensions,
                "scale": list(SCALE),
                "total": len(self.units),
                "done": len(finished),
                "position": list(self.units).index(current) + 1 if current else None,
                "unit": self._payload(current) if current else None,
                "ratings": ratings.get(current, {}) if current else {},
                "comment": comments.get(current, "") if current else "",
                "torn_lines": len(self.torn_lines),
                "can_undo": bool(live_records(self.mine)),
                "next_command": self.next_command,
            }

    def _shown(self, item_id: str, model: str) -> dict[str, Any]:
        output = self.evaluated.get(item_id, model)
        if output is None:
            return {"missing": True, "sections": []}
        return {"missing": False, "sections": output.sections}

    def _context(self, item_id: str, model: str) -> dict[str, Any]:
        output = self.evaluated.get(item_id, model)
        return {"source": output.source if output else None, "query": output.query if output else None,
                "reference": output.reference_sections if output else None}

    def _payload(self, unit_id: str) -> dict[str, Any]:
        unit = self.units[unit_id]
        if isinstance(unit, SampleUnit):
            return {
                "id": unit.id,
                **self._context(unit.item_id, unit.model),
                "output": self._shown(unit.item_id, unit.model),
            }
        return {"id": unit.id, **self._context(unit.item_id, unit.left),
                "left": self._shown(unit.item_id, unit.left), "right": self._shown(unit.item_id, unit.right)}

    # --- actions ----------------------------------------------------------------------------------------------

    def _unit(self, unit_id: Any, kind: type) -> Any:
        unit = self.units.get(unit_id) if isinstance(unit_id, str) else None
        if not isinstance(unit, kind):
            raise BadAction(f"no such {'unit' if kind is SampleUnit else 'pair'} in this session: {unit_id!r}")
        return unit

    def _fingerprint(self, item_id: str, model: str) -> str | None:
        output = self.evaluated.get(item_id, model)
        return output.fingerprint if output else None

    def _stale(self, record: RatingRecord) -> bool:
        """The test meta-eval applies (metaeval.own.current), so the page and the analysis agree on what counts."""
        item = record.item_id or ""
        if record.kind == "rating":
            return not current(self.evaluated, item, record.model or "", record.fingerprint)
        if record.kind == "preference":
            return not all(
                current(self.evaluated, item, m, f) for m, f in zip(record.models, record.fingerprints, strict=False)
            )
        return False

    def _append(self, record: RatingRecord) -> None:
        append_rating(self.path, record)  # durable before it counts: a failed write is not replayed
        self.mine.append(record)

    def rate(self, unit_id: Any, dimension: Any, value: Any) -> None:
        unit = self._unit(unit_id, SampleUnit)
        if dimension not in self.sample.dimensions:
            raise BadAction(f"no such dimension: {dimension!r}")
        if isinstance(value, bool) or not isinstance(value, int) or not SCALE[0] <= value <= SCALE[1]:
            raise BadAction(f"a rating is a whole number from {SCALE[0]} to {SCALE[1]}")
        with self._lock:
            self._append(
                new_record(
                    "rating",
                    self.rater,
                    unit=unit.id,
                    item_id=unit.item_id,
                    model=unit.model,
                    dimension=dimension,
                    value=value,
                    fingerprint=self._fingerprint(unit.item_id, unit.model),
                )
            )

    def comment(self, unit_id: Any, text: Any) -> None:
        unit = self.units.get(unit_id) if isinstance(unit_id, str) else None
        if unit is None or not isinstance(text, str) or len(text) > MAX_COMMENT:
            raise BadAction(f"a comment needs a unit of this session and at most {MAX_COMMENT} characters")
        model = unit.model if isinstance(unit, SampleUnit) else None
        with self._lock:
            self._append(
                new_record("comment", self.rater, unit=unit.id, item_id=unit.item_id, model=model, comment=text)
            )

    def skip(self, unit_id: Any) -> None:
        unit = self.units.get(unit_id) if isinstance(unit_id, str) else None
        if unit is None:
            raise BadAction(f"no such unit in this session: {unit_id!r}")
        model = unit.model if isinstance(unit, SampleUnit) else None
        with self._lock:
            self._append(new_record("skip", self.rater, unit=unit.id, item_id=unit.item_id, model=model))

    def prefer(self, unit_id: Any, choice: Any) -> None:
        pair = self._unit(unit_id, SamplePair)
        winner = {"left": pair.left, "right": pair.right, "tie": TIE}.get(choice) if isinstance(choice, str) else None
        if winner is None:
            raise BadAction("a preference is 'left', 'right' or 'tie'")
        fingerprints = [
            self._fingerprint(pair.item_id, pair.left) or "",
            self._fingerprint(pair.item_id, pair.right) or "",
        ]
        with self._lock:
            self._append(new_record("preference", self.rater, unit=pair.id, item_id=pair.item_id,
                                    models=[pair.left, pair.right], fingerprints=fingerprints, winner=winner))

    def undo(self) -> bool:
        """Take back the rater's last line still in force; False when there is none."""
        with self._lock:
            live = live_records(self.mine)
            if not live:
                return False
            self._append(new_record("undo", self.rater, unit=live[-1].unit, undoes=live[-1].id))
            return True
