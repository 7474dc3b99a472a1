"""Rating a sample of an evaluation's outputs by hand, blind, in a local page: `open_session` loads (or draws and
saves) the sample and replays the rater's log; `run_annotate` serves the page until interrupted. The one part of
the viewer that writes, and only to its ratings file."""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gaia_eval.errors import InputError, UsageError

if TYPE_CHECKING:
    from gaia_eval.annotate.session import Mode, Session
    from gaia_eval.artifacts.ratings import AnnotationSample
    from gaia_eval.metaeval.evaluated import EvaluatedSet


@dataclass
class Opened:
    session: Session
    sample: AnnotationSample
    sample_path: Path
    drawn: bool  # the sample was drawn now (else: the saved one)
    ratings: Path
    shortfall: str | None = None  # why the sample holds fewer outputs than --size asked for


def pick_use_case(eval_root: Path, use_case: str | None) -> str:
    from gaia_eval.metaeval.evaluated import use_cases_in

    if not Path(eval_root).is_dir():
        raise InputError(
            "folder not found", file=eval_root, field="--evaluations", fix="pass the folder `gaia-eval eval` wrote"
        )
    found = use_cases_in(eval_root)
    if use_case is not None:
        if use_case not in found:
            raise UsageError(f"-u {use_case}: no evaluation of that use case", file=eval_root,
                             fix=f"use cases here: {', '.join(found) or 'none (run gaia-eval eval first)'}")
        return use_case
    if len(found) != 1:
        raise UsageError(
            "holds evaluations of " + (", ".join(found) if found else "no use case"), file=eval_root,
            fix="choose one with -u/--use-case" if found else "run `gaia-eval eval` first, or pass its output folder",
        )
    return found[0]


def check_rater(rater: str) -> str:
    name = rater.strip()
    if not name or len(name) > 64 or not name.isprintable():
        raise UsageError(
            f"--rater {rater!r}: give your name (1-64 printable characters)", field="--rater", fix="e.g. --rater alice"
        )
    return name


def load_for_rating(eval_root: Path, use_case: str | None, experiments_dir: Path | None) -> EvaluatedSet:
    from gaia_eval.metaeval.evaluated import load_evaluated

    eval_root = Path(eval_root)
    use_case = pick_use_case(eval_root, use_case)
    if experiments_dir is None:
        experiments_dir = eval_root.parent / "experiments"
    return load_evaluated(eval_root, use_case, experiments_dir)


def meta_eval_command(eval_root: Path, use_case: str, ratings: Path | None) -> str:
    """The command that reads these ratings: what the done page and the terminal name."""
    import shlex

    words = ["gaia-eval", "meta-eval", "--evaluations", str(eval_root), "-u", use_case]
    return shlex.join(words + ([str(ratings)] if ratings is not None else []))


def open_session(
    eval_root: Path,
    *,
    rater: str,
    use_case: str | None = None,
    mode: Mode = "single",
    size: int | None = None,
    seed: int | None = None,
    dimensions: str | None = None,
    ratings: Path | None = None,
    experiments_dir: Path | None = None,
) -> Opened:
    from gaia_eval.annotate.sample import annotation_file, load_or_draw, ratings_path, save_sample, size_shortfall
    from gaia_eval.annotate.session import Session

    rater = check_rater(rater)
    evaluated = load_for_rating(eval_root, use_case, experiments_dir)
    sample, path, drawn = load_or_draw(Path(eval_root), evaluated, size=size, seed=seed, dimensions=dimensions)
    if mode == "pairwise" and not sample.pairs:
        raise UsageError(f"use case '{evaluated.use_case}': no item has outputs of two models to compare",
                         field="--pairwise", fix="evaluate a second model, or rate outputs one at a time")
    default = ratings_path(eval_root, evaluated.use_case)
    ratings = Path(ratings) if ratings is not None else annotation_file(Path(eval_root), default)
    command = meta_eval_command(Path(eval_root), evaluated.use_case, None if ratings == default else ratings)
    # The Session reads the ratings log: a bad one stops here, before a newly drawn sample is saved.
    session = Session(sample, evaluated, ratings, rater, mode, command)
    if drawn:
        save_sample(path, sample)  # only once everything it is for has been checked
    return Opened(session, sample, path, drawn, ratings,
                  size_shortfall(size, sample, evaluated) if mode == "single" else None)


def run_annotate(
    opened: Opened, *, port: int = 0, open_browser: bool = True, echo: Callable[[str], None] = print
) -> None:
    from gaia_eval.annotate.server import AnnotationServer

    try:
        server = AnnotationServer(opened.session, port)
    except OSError as exc:
        raise UsageError(
            f"cannot listen on 127.0.0.1:{port} ({exc.strerror})",
            field="--port",
            fix="pick another port, or 0 for any free one",
        ) from None
    try:
        units = len(opened.sample.units if opened.session.mode == "single" else opened.sample.pairs)
        drew = "drew and saved" if opened.drawn else "rating the saved"
        echo(f"{drew} sample {opened.sample_path} ({units} to rate)")
        if opened.shortfall:
            echo(opened.shortfall)
        echo(f"ratings go to {opened.ratings} (rater {opened.session.rater})")
        echo(f"open {server.url}  (Ctrl-C to stop; the token in the URL is what lets the page save ratings)")
        echo(f"when done: {opened.session.next_command}")
        if open_browser:
            webbrowser.open(server.url)
        server.serve_forever()
    finally:
        server.server_close()
