"""Options that are each valid but make no sense together, or name something that is not there: refused with
one line instead of being ignored (issue 11: nothing odd is accepted silently)."""

from __future__ import annotations

from pathlib import Path

import click

from gaia_eval.errors import InputError


def one_kind(kinds: tuple[str, ...], type_lists: dict[str, str | None]) -> str:
    """generate makes one kind of document per run, and a list of types for another kind would be ignored."""
    flags = {"meeting": "--meeting-transcript", "email": "--email", "pdf": "--pdf"}
    if len(set(kinds)) != 1:
        raise click.UsageError("choose what to generate: one of --meeting-transcript, --email or --pdf"
                               + (" (one kind per run)" if kinds else ""))
    kind = kinds[0]
    for other, value in type_lists.items():
        if other != kind and value:
            option = "--meeting-types" if other == "meeting" else f"--{other}-types"
            raise click.UsageError(f"{option} applies to {flags[other]}, not {flags[kind]}")
    return kind


def check_named_folders(workspace: Path, folders: dict[str, Path | None]) -> None:
    """A folder named on the command line must exist: a typo is not an empty folder (the defaults may be absent).
    Every missing one is named at once."""
    missing = [("--evaluations-dir" if name == "evaluation" else f"--{name.replace('_', '-')}-dir", name, folder)
               for name, folder in folders.items() if folder is not None and not folder.is_dir()]
    fix = "pass folders that exist, or leave the option out for the workspace's own"
    if len(missing) == 1:
        [(option, name, folder)] = missing
        raise InputError("folder not found", file=folder, field=option, fix=f"{fix} ({workspace / name})")
    if missing:
        listed = ", ".join(f"{folder} ({option})" for option, _, folder in missing)
        raise InputError(f"folders not found: {listed}", fix=fix)
