"""The use cases: one module each (summarization, email, qa), found by name through the open registry.

`get(name)` is the use case a name stands for (built in, or declared by another package under the entry point
group `gaia_eval.usecases`); `names()` lists them. Stages, reports and the viewer ask it instead of branching on
a use case's name.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping

from gaia_eval.artifacts.store import fingerprint
from gaia_eval.errors import ConfigError, PluginError
from gaia_eval.registry import USE_CASES, check_name, load, shipped
from gaia_eval.usecases.base import Answers, ScorerSlot, UseCase


def get(name: str, *, file: object = None, field: str | None = None) -> UseCase:
    """The use case called `name`; an unknown name is a ConfigError listing the known ones."""
    if file is not None and name not in USE_CASES:  # a file names it: most likely the package that adds it is gone
        raise ConfigError(f"unknown use case '{name}'", file=str(file), field=field,
                          fix=f"install the package that registers it under gaia_eval.usecases, or use one of: "
                          f"{', '.join(names())}")
    check_name(USE_CASES, name, what="use case", field=field)
    use_case = USE_CASES.entry(name)
    if not isinstance(use_case, UseCase):
        raise PluginError(
            f"use case '{name}' ({USE_CASES.target(name)}) is not a UseCase",
            fix="point the gaia_eval.usecases entry point at a gaia_eval.usecases.UseCase",
        )
    if _CHECKED.get(name) is not use_case:
        check_use_case(name, use_case)
        _CHECKED[name] = use_case
    return use_case


# The use cases checked so far, by name: each is checked once, when first loaded.
_CHECKED: dict[str, UseCase] = {}
_MODES = ("comparative", "standalone")


def check_use_case(name: str, case: UseCase) -> None:
    """A use case's fields, checked before any work uses it: its name is the one it is registered under, `answers`
    is a kind gaia-eval knows, every scorer slot is (mode, free text) and names a scorer that loads and declares
    its criteria. A fault is a PluginError naming the entry point, the field and the fix."""
    where = f"gaia_eval.usecases entry point {name} ({USE_CASES.target(name) or 'built in'})"

    def fault(field: str, message: str, fix: str) -> PluginError:
        return PluginError(f"use case '{name}': {message}", field=f"{where}: {field}", fix=fix)

    if case.name != name:
        raise fault("name", f"is named '{case.name}'", f"register it as '{case.name}', or set name='{name}'")
    if case.answers not in typing.get_args(Answers):
        raise fault("answers", f"answers={case.answers!r} is not a kind gaia-eval knows",
                    f"use one of: {', '.join(typing.get_args(Answers))}")
    if not isinstance(case.scorers, Mapping) or not case.scorers:
        raise fault("scorers", "names no scorer", 'give scorers={("comparative", False): "a scorer name", ...}')
    for slot, scorer_name in case.scorers.items():
        if not (isinstance(slot, tuple) and len(slot) == 2 and slot[0] in _MODES and isinstance(slot[1], bool)):
            raise fault("scorers", f"slot {slot!r} is not (mode, free_text)",
                        'key each scorer by ("comparative" or "standalone", True or False)')
        from gaia_eval.scoring.scorers import resolve_scorer

        scorer = resolve_scorer(str(scorer_name), field=f"{where}: scorers")
        if not scorer.criteria:
            raise fault("scorers", f"scorer '{scorer_name}' declares no criteria",
                        "give the Scorer its criteria: Scorer(name, (Criterion(...), ...), function)")
    for field_name in ("kin", "rating_dimensions"):
        value = getattr(case, field_name)
        if not isinstance(value, tuple) or not all(isinstance(v, str) and v.strip() for v in value):
            raise fault(field_name, f"{field_name}={value!r} is not a tuple of names", "write a tuple of strings")


# The use case meant where a command is not told one, by what is answered (stages: imported references and raw
# documents are summarization, imported question-answer pairs are qa).
DEFAULTS: dict[str, str] = {"summaries": "summarization", "answer": "qa"}


def default_for(answers: Answers) -> str:
    return DEFAULTS[answers]


def template_instructions(case: UseCase) -> str:
    """What a `create-template` responses sheet tells whoever fills it in: the use case's own words, else those of
    the built-in use case of its kind (a package's use case that sets none still gets instructions)."""
    return case.template_instructions or get(default_for(case.answers)).template_instructions


def answers_instructions(case: UseCase) -> str:
    """The same for an answers template (JSON fields)."""
    return case.answers_instructions or get(default_for(case.answers)).answers_instructions


def settings_inputs(case: UseCase) -> dict[str, str]:
    """The `use_case` input key of a stage's artifact made for a package's use case: a fingerprint of every field
    of it (prompt, document label, scorers, judge task...), so editing the use case makes its ground truth,
    experiments and evaluations stale instead of "current". Empty for a use case gaia-eval ships: its settings
    are gaia-eval's code, and their artifacts keep the bytes (and fingerprints) they had."""
    own = shipped(USE_CASES).get(case.name)
    if own is not None and case == load(own):
        return {}
    fields = {f.name: getattr(case, f.name) for f in dataclasses.fields(case)}
    fields["scorers"] = sorted([mode, free_text, name] for (mode, free_text), name in case.scorers.items())
    return {"use_case": fingerprint(fields)}


def names() -> tuple[str, ...]:
    return USE_CASES.names()


def title(name: str) -> str:
    """The use case's title; its name when it is unknown here (a file from a plugin not installed)."""
    return get(name).title if name in USE_CASES else name


__all__ = [
    "DEFAULTS", "Answers", "ScorerSlot", "UseCase", "answers_instructions", "check_use_case", "default_for", "get",
    "names",
    "template_instructions", "title",
]
