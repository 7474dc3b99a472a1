"""Entry points of gaia_eval.registry's groups, faked the way an installed package would declare them."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest

from gaia_eval.registry import Registry


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, registry: Registry, **names: str) -> None:
    """Entry points of `registry`'s group as an installed package would declare them."""
    real = metadata.entry_points

    def entry_points(**kwargs: Any):
        if kwargs.get("group") == registry.group:
            return metadata.EntryPoints(metadata.EntryPoint(name, value, registry.group)
                                        for name, value in names.items())
        return real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry, "_plugins", None)
    monkeypatch.setattr(registry, "_loaded", {})
