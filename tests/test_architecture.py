"""The package's shape, checked so it cannot drift: no import cycles between modules, no module past the size
where it should be split, and no code reaching into another package's modules past its public surface."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gaia_eval"
MAX_LINES = 550  # "about 500": past this a module has more than one responsibility
# Packages whose __init__ names their public surface: outside code imports from the package itself.
SURFACED = ("gaia_eval.cli", "gaia_eval.scoring.answers", "gaia_eval.scoring.judge", "gaia_eval.scoring.rubric", "gaia_eval.generation.llm")
NAME_ONLY = {"gaia_eval.scoring.answers.mode_names"}  # constants for CLI choices, importable without the package


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, with a relative import (`from .x import y`) resolved against `path`."""
    if node.level == 0:
        return node.module or ""
    package = list(path.relative_to(PACKAGE.parent).parent.parts)
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of gaia_eval that `path` imports, anywhere in the file (function-level and relative imports included)."""
    targets = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (module := _absolute(path, node)).startswith("gaia_eval"):
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                targets.add(sub if sub in modules else module)
        elif isinstance(node, ast.Import):
            targets |= {a.name for a in node.names if a.name in modules}
    return targets


def test_no_import_cycles_between_modules():
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    cycles, state = [], {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == [], "import cycles (arrows must point down the layers):\n" + "\n".join(cycles)


def test_no_module_is_past_the_size_where_it_should_be_split():
    long = {str(p.relative_to(PACKAGE.parent)): n for p in PACKAGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these modules (over {MAX_LINES} lines): {long}"


def test_code_outside_a_package_imports_only_its_public_surface():
    modules = _modules()
    reaching = []
    for name, path in modules.items():
        for target in _imports(path, modules):
            for package in SURFACED:
                inside = name == package or name.startswith(package + ".")
                if target.startswith(package + ".") and not inside and target not in NAME_ONLY:
                    reaching.append(f"{name} imports {target}")
    assert reaching == [], "import these from the package instead:\n" + "\n".join(reaching)
