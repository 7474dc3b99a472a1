"""Answer matching: does a free-text answer say the expected short answer? `match_answer` with its modes (a mode
is a `MatchMode` returning a `Verdict`, named in gaia_eval.registry.MATCH_MODES), the answers file checker, and
the concise-answer instructions a model is given.

The names below are the package's public surface; code outside the package imports them from here. Each is
loaded from its module on first use, so importing the package costs nothing until then.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "CONCISE_ANSWER_SYSTEM_PROMPT": "concise",
    "MatchMode": "parse",
    "Verdict": "parse",
    "check_answers_file": "match",
    "jsonl_source": "match",
    "concise_answer_instructions": "concise",
    "extract_final_answer": "concise",
    "format_verdict": "match",
    "match_answer": "match",
    "regex_search": "modes",
}

__getattr__, __all__ = lazy_exports(__name__, _LAZY)
