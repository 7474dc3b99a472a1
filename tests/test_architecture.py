"""The package's shape, checked so it cannot drift: no import cycles between modules, no module past the size
where it should be split, and no code reaching into another package's modules past its public surface."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gaia_eval"
MAX_LINES = 550  # "about 500": past this a module has more than one responsibility
MAX_STAGE_FUNCTION_LINES = 80  # past this a stage function does several steps: split it into plan / run / write
# Packages whose __init__ names their public surface: outside code imports from the package itself.
SURFACED = (
    "gaia_eval.cli",
    "gaia_eval.scoring.answers",
    "gaia_eval.scoring.judge",
    "gaia_eval.scoring.rubric",
    "gaia_eval.generation.llm",
)
NAME_ONLY: set[str] = set()  # modules outside code may import past a package surface (none today)


def _modules(package: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module an import names, with a relative import (`from .x import y`) resolved against `path`."""
    if node.level == 0:
        return node.module or ""
    package = list(path.parts[len(path.parts) - 1 - path.parts[::-1].index("gaia_eval"):-1])
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
                cycles.append(" -> ".join([*trail[trail.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == [], "import cycles (arrows must point down the layers):\n" + "\n".join(cycles)


def test_no_module_is_past_the_size_where_it_should_be_split():
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these modules (over {MAX_LINES} lines): {long}"


def long_functions(folder: Path = PACKAGE / "stages", limit: int = MAX_STAGE_FUNCTION_LINES) -> dict[str, int]:
    """Every function (nested and async ones too) in `folder` longer than `limit` lines, counted from its `def`
    line to its last line."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found[f"{path.relative_to(folder.parent).as_posix()}:{node.name}"] = length
    return found


def test_no_stage_function_is_past_the_length_where_it_should_be_split():
    long = long_functions()
    assert long == {}, f"split these functions into steps (over {MAX_STAGE_FUNCTION_LINES} lines): {long}"


def test_the_function_length_check_counts_from_the_def_line_to_the_last(tmp_path: Path):
    stages = tmp_path / "stages"
    (stages / "sub").mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(78))
    (stages / "sub" / "run.py").write_text(
        f"@decorated\ndef at_limit():\n{body}\n    return x0\n\n\n"  # 80 lines: the decorator is not counted
        f"async def past_limit():\n{body}\n    y = 1\n    return y\n\n\n"  # 81 lines
        f"class Holder:\n    def method(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n        y = 1\n"
        "        return y\n"  # a method of 81 lines
    )
    assert long_functions(stages) == {"stages/sub/run.py:past_limit": 81, "stages/sub/run.py:method": 81}


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


# The layers, top to bottom. A module may import its own layer or any below it, never one above, not even inside
# a function (imports under `if TYPE_CHECKING:` are annotations, not dependencies, and are not counted).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("gaia_eval.cli", "gaia_eval.__main__"),
    ("gaia_eval.stages",),
    ("gaia_eval.visualize", "gaia_eval.annotate"),
    ("gaia_eval.reporting",),
    ("gaia_eval.metaeval", "gaia_eval.bench"),
    ("gaia_eval.usecases",),
    ("gaia_eval.scoring", "gaia_eval.generation", "gaia_eval.baselines"),
    ("gaia_eval.providers",),
    ("gaia_eval.extract", "gaia_eval.interop"),
    ("gaia_eval.concurrency", "gaia_eval.progress", "gaia_eval.prompts", "gaia_eval.plotting", "gaia_eval.cells",
     "gaia_eval.number_words"),
    ("gaia_eval.artifacts", "gaia_eval.safe_text"),
    ("gaia_eval.errors", "gaia_eval.lazy", "gaia_eval.registry", "gaia_eval"),
)


def _layer(module: str) -> int | None:
    best = None
    for depth, names in enumerate(LAYERS):
        for name in names:
            inside = module.startswith(name + ".") and name != "gaia_eval"  # the root package is its __init__ only
            if (module == name or inside) and (best is None or len(name) > len(best[1])):
                best = (depth, name)
    return None if best is None else best[0]


def _runtime_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    type_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for n in ast.walk(stmt)
    }
    targets = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and (module := _absolute(path, node)).startswith("gaia_eval"):
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                targets.add(sub if sub in modules else module)
        elif isinstance(node, ast.Import):
            targets |= {a.name for a in node.names if a.name in modules}
    return targets


def upward_imports(package: Path = PACKAGE) -> list[str]:
    """Every import that points up the declared layers (or into a module no layer declares). `package` may be
    another checkout's gaia_eval/ (the test was checked to fail on the tree before the layers were fixed)."""
    modules = _modules(package)
    found = []
    for name, path in sorted(modules.items()):
        here = _layer(name)
        if here is None:
            found.append(f"{name} is in no layer: add it to LAYERS (and to ARCHITECTURE.md)")
            continue
        for target in sorted(_runtime_imports(path, modules)):
            there = _layer(target)
            if there is not None and there < here:
                found.append(f"{name} imports {target}, a layer above it")
    return found


def test_imports_point_down_the_declared_layers():
    assert upward_imports() == [], "imports pointing up the layers:\n" + "\n".join(upward_imports())


def test_the_layer_check_sees_an_upward_import_even_inside_a_function(tmp_path: Path):
    package = tmp_path / "gaia_eval"
    for name, text in {
        "__init__.py": "",
        "stages/__init__.py": "",
        "stages/run.py": "",
        "providers/__init__.py": "",
        "providers/api.py": "def f():\n    from gaia_eval.stages import run\n",
        "errors.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from gaia_eval.providers import api\n",
        "stray.py": "",
    }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert upward_imports(package) == ["gaia_eval.providers.api imports gaia_eval.stages.run, a layer above it",
                                       "gaia_eval.stray is in no layer: add it to LAYERS (and to ARCHITECTURE.md)"]


# A `"module:attr"` string names code as surely as an import does (the registries load it): it points down too.
TARGET = re.compile(r"^(gaia_eval(?:\.\w+)+):\w+$")


def upward_targets(package: Path = PACKAGE) -> list[str]:
    """Every `"gaia_eval.x:attr"` string literal that names a module a layer above the module holding it."""
    modules = _modules(package)
    found = []
    for name, path in sorted(modules.items()):
        here = _layer(name)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (match := TARGET.match(node.value)):
                there = _layer(match.group(1))
                if there is not None and here is not None and there < here:
                    found.append(f"{name} names {node.value}, a layer above it")
    return found


def test_module_attr_strings_point_down_the_layers_too():
    assert upward_targets() == [], "\n".join(upward_targets())


def test_the_target_check_sees_a_registry_naming_a_higher_layer(tmp_path: Path):
    package = tmp_path / "gaia_eval"
    (package / "stages").mkdir(parents=True)
    for name in ("__init__.py", "stages/__init__.py", "stages/run.py"):
        (package / name).write_text("")
    (package / "registry.py").write_text('BUILTIN = {"x": "gaia_eval.stages.run:run_x"}\n')
    assert upward_targets(package) == ["gaia_eval.registry names gaia_eval.stages.run:run_x, a layer above it"]


def test_every_entry_point_gaia_eval_declares_names_a_module_it_has():
    from gaia_eval.registry import GROUPS, _pyproject_entry_points

    declared = _pyproject_entry_points(PACKAGE.parent / "pyproject.toml")
    assert set(declared) == set(GROUPS)
    modules = _modules()
    missing = [f"{group}: {name} = {value}" for group, names in declared.items() for name, value in names.items()
               if value.partition(":")[0] not in modules]
    assert missing == []
