"""The two tools bench agents may call: a safe calculator (an `ast` whitelist, never `eval`) and a lookup over
the bundled key-value table. Every failure comes back as a string starting with `error:`, which the harness
counts as a tool error.
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.providers.base import ToolSpec

LOOKUP_TABLE_PATH = Path(__file__).parent / "data" / "lookup.json"

MAX_EXPRESSION_CHARS = 300
MAX_EXPONENT = 100
MAX_MAGNITUDE = 1e100

_BINARY_OPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY_OPS: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_FUNCTIONS: dict[str, Callable[..., Any]] = {"sqrt": math.sqrt, "round": round, "abs": abs, "min": min, "max": max}


class CalculatorError(ValueError):
    """The expression is outside the calculator's whitelist or cannot be computed."""


def _check_magnitude(value: int | float) -> int | float:
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("result is not a finite number")
    if abs(value) > MAX_MAGNITUDE:
        raise CalculatorError("result is too large")
    return value


def _evaluate(node: ast.AST) -> int | float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant):
        # bool is an int subclass; True + 1 is not arithmetic anyone meant.
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        raise CalculatorError(f"unsupported value {node.value!r}")
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY_OPS:
        return _UNARY_OPS[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY_OPS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise CalculatorError(f"exponent {right} is larger than {MAX_EXPONENT}")
        try:
            return _check_magnitude(_BINARY_OPS[type(node.op)](left, right))
        except ZeroDivisionError:
            raise CalculatorError("division by zero") from None
        except OverflowError:
            raise CalculatorError("result is too large") from None
    if isinstance(node, ast.Call):
        return _call(node)
    if isinstance(node, ast.Tuple):
        raise CalculatorError("a comma is not an operator; write numbers without thousands separators")
    if isinstance(node, ast.BinOp):
        raise CalculatorError(f"operator {type(node.op).__name__} is not supported; use + - * / // % **")
    raise CalculatorError(f"{type(node).__name__} is not allowed; use numbers, + - * / // % ** and parentheses")


def _call(node: ast.Call) -> int | float:
    if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
        name = f" '{node.func.id}'" if isinstance(node.func, ast.Name) else ""
        raise CalculatorError(f"unknown function{name}; allowed: {', '.join(_FUNCTIONS)}")
    if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
        raise CalculatorError(f"{node.func.id}() takes plain positional arguments")
    args = [_evaluate(arg) for arg in node.args]
    try:
        return _check_magnitude(_FUNCTIONS[node.func.id](*args))
    except (TypeError, ValueError) as exc:
        raise CalculatorError(f"{node.func.id}(): {exc}") from None


def format_number(value: int | float) -> str:
    """Integers stay exact; integral floats print without `.0`; others keep 12 significant digits."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return format(value, ".12g")
    return str(value)


def calculate(expression: str) -> int | float:
    """Evaluate an arithmetic expression; raises CalculatorError. `^` is read as a power, as people write it."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculatorError(f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    text = expression.replace("^", "**").replace("×", "*").replace("÷", "/").replace("−", "-")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise CalculatorError(f"cannot parse {expression!r}") from None
    return _evaluate(tree)


def calculator_tool(expression: str) -> str:
    """The calculator as a tool: the result as text, or `error: ...`."""
    try:
        return format_number(calculate(expression))
    except CalculatorError as exc:
        return f"error: {exc}"


def _normalize_key(key: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", key.casefold()).split())


@functools.lru_cache(maxsize=1)
def lookup_table() -> dict[str, str]:
    """The bundled table (a fictional company directory, so a model cannot answer from memory)."""
    data = orjson.loads(LOOKUP_TABLE_PATH.read_bytes())
    return {str(key): str(value) for key, value in data["entries"].items()}


def lookup_tool(key: str) -> str:
    """The value stored under `key` (case, spacing and punctuation do not matter), or `error: ...`."""
    wanted = _normalize_key(key)
    for stored_key, value in lookup_table().items():
        if _normalize_key(stored_key) == wanted:
            return value
    return f"error: no entry for {key!r}; known keys: {', '.join(lookup_table())}"


TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="calculator",
        description=(
            "Evaluate an arithmetic expression exactly. Supports numbers, + - * / // % ** (or ^), parentheses "
            "and the functions sqrt, round, abs, min, max. Example: (17 * 23) - 100"
        ),
        parameters={
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "the expression to evaluate"}},
            "required": ["expression"],
        },
    ),
    ToolSpec(
        name="lookup",
        description=(
            "Look up a fact in the directory of the company Orrery Dynamics. Pass one key exactly as listed. "
            "Known keys: " + ", ".join(lookup_table())
        ),
        parameters={
            "type": "object",
            "properties": {"key": {"type": "string", "description": "one of the known keys"}},
            "required": ["key"],
        },
    ),
)


def execute_tool(name: str, arguments: dict[str, Any]) -> str:
    """Run one tool call as a model asked for it; bad names and arguments become `error:` results."""
    if name == "calculator":
        expression = arguments.get("expression")
        if not isinstance(expression, str):
            return "error: calculator needs a string argument 'expression'"
        return calculator_tool(expression)
    if name == "lookup":
        key = arguments.get("key")
        if not isinstance(key, str):
            return "error: lookup needs a string argument 'key'"
        return lookup_tool(key)
    return f"error: unknown tool {name!r}; available: calculator, lookup"
