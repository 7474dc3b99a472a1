"""The spreadsheet path: the saved sample (drawn now if there is none) as a CSV to rate elsewhere, one row per
output with blank rating columns; `meta-eval --evaluations DIR FILE.csv` reads it back. Blind like the page: a
unit id instead of the model. The sample's repeats are left out (in a sheet the same text sits in plain view)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gaia_eval.annotate import load_for_rating
from gaia_eval.annotate.sample import load_or_draw, save_sample, size_shortfall
from gaia_eval.artifacts.ratings import write_ratings_sheet

MAX_CELL = 30000  # spreadsheets hold at most 32,767 characters in a cell


@dataclass
class RatingsTemplate:
    path: Path
    use_case: str
    sample_path: Path
    drawn: bool
    rows: int
    shortfall: str | None = None  # why the sample holds fewer outputs than --size asked for


def _cell(text: str | None) -> str:
    text = text or ""
    return text if len(text) <= MAX_CELL else text[:MAX_CELL] + " [… cut: the cell limit of spreadsheets]"


def run_ratings_template(
    eval_root: Path, output_dir: Path, *, use_case: str | None = None, size: int | None = None, seed: int | None = None,
    dimensions: str | None = None, experiments_dir: Path | None = None,
) -> RatingsTemplate:
    evaluated = load_for_rating(Path(eval_root), use_case, experiments_dir)
    sample, sample_file, drawn = load_or_draw(Path(eval_root), evaluated, size=size, seed=seed, dimensions=dimensions)
    rows = []
    for unit in sample.units:
        output = evaluated.get(unit.item_id, unit.model)
        if unit.repeat_of or output is None:
            continue
        rows.append({"unit": unit.id, "item_id": unit.item_id, "fingerprint": output.fingerprint,
                     "source": _cell(output.source), "reference": _cell(output.reference),
                     "output": _cell((f"Q: {output.query}\n\n" if output.query else "") + output.text)})
    path = Path(output_dir) / f"{evaluated.use_case}.ratings.csv"
    if drawn:
        save_sample(sample_file, sample)
    write_ratings_sheet(path, sample.dimensions, rows)
    return RatingsTemplate(path, evaluated.use_case, sample_file, drawn, len(rows),
                           size_shortfall(size, sample, evaluated))
