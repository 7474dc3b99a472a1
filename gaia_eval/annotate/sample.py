"""Which outputs a person rates: a sample of the size asked for, stratified over models and over the score range,
plus the outputs where the evaluation's scorers (and the judge) disagree most, plus a few repeats to measure the
rater's own consistency; and, for the pairwise mode, pairs of two models' outputs for one item. Drawn once from a
seed and saved, so every rater sees the same outputs in the same order.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import path_inside
from gaia_eval.artifacts.ratings import AnnotationSample, SamplePair, SampleReason, SampleUnit
from gaia_eval.artifacts.store import fingerprint, read_artifact, write_artifact
from gaia_eval.errors import InputError, UsageError
from gaia_eval.metaeval.estimate import percentiles, score_bands
from gaia_eval.metaeval.evaluated import EvaluatedSet
from gaia_eval.reporting.use_case_view import rating_dimensions

DEFAULT_SIZE = 20


def annotation_dir(eval_root: Path, use_case: str) -> Path:
    return Path(eval_root) / "annotation" / use_case


def sample_path(eval_root: Path, use_case: str) -> Path:
    return annotation_dir(eval_root, use_case) / "sample.json"


def ratings_path(eval_root: Path, use_case: str) -> Path:
    return annotation_dir(eval_root, use_case) / "ratings.jsonl"


def disagreement(evaluated: EvaluatedSet) -> dict[tuple[str, str], float]:
    """Per output, how far apart its scorers place it: the spread (max - min) of its percentile rank under each
    scorer that scored every output (the judge's mean counts as one scorer); 0 with fewer than two."""
    keys = list(evaluated.outputs)
    full = [s for s in evaluated.scorers if ":" not in s.removeprefix("judge:") or s == evaluated.judge]
    full = [s for s in full if all(s in evaluated.outputs[k].scores for k in keys)]
    if len(full) < 2:
        return dict.fromkeys(keys, 0.0)
    ranks = [percentiles({k: evaluated.outputs[k].scores[s] for k in keys}) for s in full]
    return {k: max(r[k] for r in ranks) - min(r[k] for r in ranks) for k in keys}


def draw_sample(evaluated: EvaluatedSet, size: int, seed: int, dimensions: list[str]) -> AnnotationSample:
    rng = random.Random(seed)
    keys = sorted(evaluated.outputs)
    if not keys:
        raise UsageError(
            f"use case '{evaluated.use_case}': no answered output to rate", fix="run experiments and eval first"
        )
    size = max(1, min(size, len(keys)))
    chosen: list[tuple[str, str]] = []
    reasons: dict[tuple[str, str], SampleReason] = {}
    spread = disagreement(evaluated)
    n_disagree = size // 4 if any(v > 0 for v in spread.values()) else 0
    for key in sorted(keys, key=lambda k: (-spread[k], rng.random()))[:n_disagree]:
        chosen.append(key)
        reasons[key] = "disagreement"
    bands = score_bands(evaluated)
    strata: dict[tuple[str, int], list[tuple[str, str]]] = {}
    for key in keys:
        if key not in reasons:
            strata.setdefault((key[1], bands[key]), []).append(key)
    order = sorted(strata)
    rng.shuffle(order)
    for members in strata.values():
        rng.shuffle(members)
    while len(chosen) < size:
        for stratum in order:
            if strata[stratum] and len(chosen) < size:
                key = strata[stratum].pop()
                chosen.append(key)
                reasons[key] = "stratified"
    rng.shuffle(chosen)
    units: list[tuple[tuple[str, str], SampleReason, int | None]] = [(key, reasons[key], None) for key in chosen]
    n_repeats = size // 10 if size >= 5 else 0
    for index in sorted(rng.sample(range(len(chosen)), n_repeats)):
        # Well after the first showing, so the rater has moved on.
        position = rng.randint(min(len(units), index + 1 + len(chosen) // 2), len(units))
        units.insert(position, (chosen[index], "repeat", index))
    ids = {}
    sample_units = []
    for n, (key, reason, first) in enumerate(units, start=1):
        unit_id = f"u{n:03d}"
        if first is None:
            ids[key] = unit_id
        output = evaluated.outputs[key]
        sample_units.append(SampleUnit(id=unit_id, item_id=key[0], model=key[1], fingerprint=output.fingerprint,
                                       reason=reason, repeat_of=None if first is None else ids[key]))
    return AnnotationSample(
        inputs={"outputs": fingerprint(sorted((k, o.fingerprint) for k, o in evaluated.outputs.items()))},
        use_case=evaluated.use_case, seed=seed, size=size, dimensions=list(dimensions), units=sample_units,
        pairs=_pairs(evaluated, chosen, size, rng), notes=list(evaluated.notes),
    )


def _pairs(evaluated: EvaluatedSet, chosen: list[tuple[str, str]], size: int, rng: random.Random) -> list[SamplePair]:
    """Two different models' outputs for one item: the sampled items first, each once, then other pairs."""
    by_item: dict[str, list[str]] = {}
    for item, model in sorted(evaluated.outputs):
        by_item.setdefault(item, []).append(model)
    candidates = [item for item in dict.fromkeys(k[0] for k in chosen) if len(by_item[item]) >= 2]
    seen_pairs: set[tuple[str, str, str]] = set()
    pairs: list[SamplePair] = []
    rounds = 0
    while len(pairs) < size and candidates and rounds < 10:
        rounds += 1
        for item in candidates:
            if len(pairs) >= size:
                break
            left, right = rng.sample(by_item[item], 2)
            first, second = sorted((left, right))
            key = (item, first, second)
            if key in seen_pairs:
                continue
            seen_pairs.add(key)
            a, b = evaluated.outputs[(item, left)], evaluated.outputs[(item, right)]
            pairs.append(SamplePair(id=f"p{len(pairs) + 1:03d}", item_id=item, left=left, right=right,
                                    left_fingerprint=a.fingerprint, right_fingerprint=b.fingerprint))
    return pairs


def size_shortfall(asked: int | None, sample: AnnotationSample, evaluated: EvaluatedSet) -> str | None:
    """Why the sample holds fewer outputs than `--size` asked for (there are no more to draw), or None."""
    drawn = sum(1 for u in sample.units if not u.repeat_of)
    if asked is None or drawn >= asked:
        return None
    items = len({k[0] for k in evaluated.outputs})
    return (f"--size {asked}: drew {drawn}, every answered and scored output there is ({items} item(s) x "
            f"{len(evaluated.models)} model(s)); evaluate more items or models for a larger sample")


def parse_dimensions(text: str | None, use_case: str) -> list[str]:
    """The dimensions `--dimensions` names, or by default those the use case's `rating_dimensions` declares."""
    if not text:
        return list(rating_dimensions(use_case))
    names = [d.strip() for d in text.split(",") if d.strip()]
    bad = [d for d in names if not d.replace("_", "").replace("-", "").isalnum()]
    if not names or bad or len(set(names)) != len(names):
        raise UsageError(f"--dimensions {text!r}: give distinct names of letters, digits, - and _",
                         field="--dimensions", fix="e.g. --dimensions accuracy,tone")
    return names


def annotation_file(eval_root: Path, path: Path) -> Path:
    """A file of the annotation folder, refused if a link leads it out of the evaluation folder (a ratings log
    appended to, or a sample read, somewhere else on the machine)."""
    try:
        return path_inside(Path(eval_root), Path(path).relative_to(Path(eval_root)).as_posix())
    except InputError as exc:
        raise InputError(exc.message, file=path, fix="remove the link: annotation files live in the folder") from None


def _check_saved(sample: AnnotationSample, evaluated: EvaluatedSet, path: Path) -> None:
    """A saved sample names only models and items of this evaluation (a hand-edited one could make the page show
    or record outputs that were never evaluated)."""
    items = {item for item, _ in evaluated.outputs}
    named = [(u.id, u.item_id, u.model) for u in sample.units]
    named += [(p.id, p.item_id, m) for p in sample.pairs for m in (p.left, p.right)]
    for unit, item, model in named:
        if model not in evaluated.models or item not in items:
            what = f"model '{model}'" if model not in evaluated.models else f"item '{item}'"
            raise InputError(
                f"{unit} names {what}, which is not in the evaluation of {evaluated.use_case}", file=path,
                fix="restore the sample, or move it away to draw a new one",
            )


def save_sample(path: Path, sample: AnnotationSample) -> None:
    write_artifact(path, sample)


def load_or_draw(
    eval_root: Path, evaluated: EvaluatedSet, *, size: int | None, seed: int | None, dimensions: str | None
) -> tuple[AnnotationSample, Path, bool]:
    """The saved sample of this use case, or a new one drawn (the caller saves it with `save_sample` once the rest
    of its input is checked). Asking for another size, seed or dimensions than the saved sample's is an error:
    every rater must see the same sample."""
    path = annotation_file(eval_root, sample_path(eval_root, evaluated.use_case))
    if path.is_file():
        sample = read_artifact(path, AnnotationSample)
        _check_saved(sample, evaluated, path)
        wanted: dict[str, tuple[Any, Any]] = {
            "--size": (size, sample.size),
            "--seed": (seed, sample.seed),
            "--dimensions": (
                parse_dimensions(dimensions, evaluated.use_case) if dimensions else None,
                sample.dimensions,
            ),
        }
        for option, (asked, saved) in wanted.items():
            capped = option == "--size" and asked is not None and asked > saved == len(evaluated.outputs)
            if asked is not None and asked != saved and not capped:
                raise UsageError(
                    f"{option} {asked} differs from the saved sample's ({saved})",
                    file=path,
                    field=option,
                    fix="leave the option out to rate the saved sample (every rater sees the same), or move the file "
                        "away for a new sample",
                )
        return sample, path, False
    sample = draw_sample(evaluated, size or DEFAULT_SIZE, 0 if seed is None else seed,
                         parse_dimensions(dimensions, evaluated.use_case))
    return sample, path, True
