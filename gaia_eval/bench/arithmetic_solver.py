"""The `builtin:calculator` runner: an offline, non-LLM reference that rewrites an arithmetic question into an
expression by fixed phrase rules and evaluates it with the safe calculator.

It is honest and imperfect: a story problem it cannot rewrite ("Tom has 3 bags ...") is answered with a
refusal and fails. It exists so `gaia-eval bench arithmetic` runs anywhere and CI can gate on a baseline.
"""

from __future__ import annotations

import re
from typing import Any

from gaia_eval.bench.runs import EvalRun
from gaia_eval.bench.tools import calculator_tool

_NUM = r"-?\d+(?:\.\d+)?"
_LEADING = re.compile(r"^(?:what is|what's|how much is|compute|calculate|evaluate)\s+")
_LIST_OF = re.compile(
    rf"(?:the\s+)?(sum|product)\s+of\s+({_NUM}(?:\s*(?:,\s*and|,|and)\s*{_NUM})+)"
)
# Ordered: longer phrases first, so "multiplied by" is consumed before anything reads "by".
_PHRASES: tuple[tuple[str, str], ...] = (
    (rf"(?:the\s+)?square\s+root\s+of\s+({_NUM})", r"sqrt(\1)"),
    (rf"({_NUM})\s*(?:%|percent)\s+of", r"(\1 / 100) *"),
    (r"\bhalf\s+of\b", "0.5 *"),
    (r"\btwice\b", "2 *"),
    (r"\b(?:raised\s+)?to\s+the\s+power\s+of\b", "**"),
    (r"\bsquared\b", "** 2"),
    (r"\bcubed\b", "** 3"),
    (r"\b(?:multiplied\s+by|times)\b", "*"),
    (r"\bdivided\s+by\b", "/"),
    (r"\bplus\b", "+"),
    (r"\bminus\b", "-"),
    (r"\b(?:modulo|mod)\b", "%"),
    (r"\b(?:again|then)\b", ""),
)
_OPERATOR_START = re.compile(r"^(?:\*\*|[-+*/%])")
_EXPRESSION_CHARS = re.compile(r"^[\d.\s+\-*/%()]*$")


def _join_list(match: re.Match[str]) -> str:
    numbers = re.findall(_NUM, match.group(2))
    operator = " + " if match.group(1) == "sum" else " * "
    return "(" + operator.join(numbers) + ")"


def expression_for(problem: str) -> str | None:
    """The arithmetic expression a question spells out in words, or None when the rules cannot read it."""
    text = " ".join(problem.strip().lower().split())
    while re.search(r"\d,\d{3}(?!\d)", text):
        text = re.sub(r"(\d),(\d{3})(?!\d)", r"\1\2", text)
    text = _LEADING.sub("", text).rstrip("?.! ")
    text = _LIST_OF.sub(_join_list, text)
    for pattern, replacement in _PHRASES:
        text = re.sub(pattern, replacement, text)
    expression = ""
    for clause in (part.strip() for part in text.split(",")):
        clause = re.sub(r"^and\s+", "", clause)
        if not clause:
            continue
        if expression and not _OPERATOR_START.match(clause):
            return None
        expression = f"({expression}) {clause}" if expression else clause
    if not expression or not _EXPRESSION_CHARS.match(expression.replace("sqrt", "")):
        return None
    return " ".join(expression.split())


def solve_arithmetic(prompt: str) -> EvalRun:
    """One step: rewrite the question, call the calculator, answer with its result."""
    expression = expression_for(prompt)
    if expression is None:
        return EvalRun(
            answer="I cannot rewrite this question as an arithmetic expression.",
            steps=1,
            trajectory=[{"role": "assistant", "content": "no arithmetic expression found in the question"}],
        )
    result = calculator_tool(expression)
    trajectory: list[dict[str, Any]] = [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "call_1", "name": "calculator", "arguments": {"expression": expression}}],
        },
        {"role": "tool", "tool_call_id": "call_1", "name": "calculator", "content": result},
    ]
    tool_errors = 1 if result.startswith("error:") else 0
    answer = "" if tool_errors else result
    return EvalRun(answer=answer, steps=1, tool_errors=tool_errors, trajectory=trajectory)
