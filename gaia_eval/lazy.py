"""Lazy public surfaces for packages: a name is imported from its module on first use (PEP 562), so importing a
package, or a constants module inside it, loads nothing else."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, names: dict[str, str]) -> tuple[Callable[[str], Any], list[str]]:
    """(`__getattr__`, `__all__`) for `package`, whose public `names` live in the given submodules."""

    def __getattr__(name: str) -> Any:
        if name in names:
            value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
            setattr(sys.modules[package], name, value)  # later lookups skip this function
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__, sorted(names)
