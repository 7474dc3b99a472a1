"""Where a workspace keeps its artifacts when it is not laid out as `evaluation/`, `experiments/`, ... (the
README's bring-your-own-data layout is `gt/ exp/ eval/`): each folder the viewer reads is found by the files it
holds, and when there is nothing to show the viewer says which folders it looked in and how to point at them."""

from __future__ import annotations

import os
from pathlib import Path

from gaia_eval.visualize.files import Roots, make_roots

# The files that mark each root, and the option that overrides it.
MARKERS: dict[str, tuple[str, str]] = {
    "evaluation": (".experiment.eval.json", "--evaluations-dir"),
    "experiments": (".experiment.json", "--experiments-dir"),
    "groundtruth": ("groundtruth.json", "--groundtruth-dir"),
    "reports": ("report.md", "--reports-dir"),
}
SKIPPED = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache"}
MAX_FILES_SEEN = 200_000  # a workspace pointed at a home folder is not walked for minutes


def _files_below(workspace: Path) -> list[Path]:
    found: list[Path] = []
    for folder, subfolders, files in os.walk(workspace):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED and not d.startswith("."))
        found += [Path(folder) / f for f in files]
        if len(found) > MAX_FILES_SEEN:
            break
    return found


def _folder_of(file: Path, use_cases: set[str]) -> Path:
    """The folder a stage wrote `file` into: its own, or the one above when it sits in a use case's subfolder
    (`eval/qa/x.experiment.eval.json` belongs to `eval/`)."""
    return file.parent.parent if file.parent.name in use_cases else file.parent


def _choose_folder(files: list[Path]) -> tuple[Path, int, list[Path]]:
    """The output folder holding most of `files` (the most recently written on a tie), how many it holds, and
    the other folders that hold some. Two evaluation folders side by side are two sets of results, never one
    folder above both (which mixed them and lost each one's meta-evaluation)."""
    from gaia_eval import usecases

    use_cases = set(usecases.names())
    groups: dict[Path, list[Path]] = {}
    for file in files:
        groups.setdefault(_folder_of(file, use_cases), []).append(file)

    def newest(group: list[Path]) -> float:
        return max((f.stat().st_mtime for f in group if f.exists()), default=0.0)

    ranked = sorted(groups, key=lambda f: (-len(groups[f]), -newest(groups[f]), str(f)))
    return ranked[0], len(groups[ranked[0]]), ranked[1:]


def discover_roots(workspace: Path, folders: dict[str, Path]) -> tuple[dict[str, Path], list[str]]:
    """`folders` (the standard `workspace/<name>` ones, or the options given) with every standard folder that does
    not exist replaced by the folder below the workspace that holds its files (the one holding most of them,
    when they are in several); and notes saying what was found, or where the viewer looked and which option
    points at it."""
    missing = [name for name in MARKERS if name in folders and not folders[name].is_dir()]
    if not missing:
        return folders, []
    files = _files_below(workspace)
    out, notes = dict(folders), []
    for name in missing:
        suffix, option = MARKERS[name]
        matches = [f for f in files if f.name.endswith(suffix) and not f.name.startswith("consolidated_")]
        if name == "reports":
            matches = [f for f in files if f.suffix == ".md" and f.with_suffix(".json").is_file()]
        if matches:
            out[name], held, others = _choose_folder(matches)
            notes.append(f"{name}: no {folders[name]}, so {out[name]} (it holds {held} of the {len(matches)} *{suffix} "
                         f"files below {workspace}; {option} DIR to choose another"
                         + (f": also {', '.join(map(str, others))}" if others else "") + ")")
        elif name == "evaluation":
            notes.append(f"no evaluations to show: looked in {folders[name]} and for *{suffix} files below "
                         f"{workspace}; run `gaia-eval eval -d EXPERIMENTS -o FOLDER`, then point the viewer at "
                         f"that FOLDER with {option} FOLDER (or --workspace the folder above it)")
    return out, notes


def workspace_roots(workspace: Path, folders: dict[str, Path | None]) -> tuple[Roots, list[str]]:
    """The viewer's roots: a folder given with an option as given; a standard one that is missing, looked for
    below the workspace (discover_roots); with the notes to print."""
    given = {name for name, path in folders.items() if path is not None}
    standard = make_roots(Path(workspace), folders).folders
    found, notes = discover_roots(Path(workspace), {k: v for k, v in standard.items() if k not in given})
    return Roots({**standard, **found}), notes
