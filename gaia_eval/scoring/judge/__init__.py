"""The LLM judge: settings and requests (core), criteria, prompts, the judging run over experiments (run), its
summary, and agreement statistics.

The names below are the package's public surface; code outside the package imports them from here. Each is
loaded from its module on first use, so importing the package costs nothing until then.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "ordinal_alpha": "agreement",
    "RANK": "criteria",
    "combine_samples": "core",
    "JudgeRequest": "core",
    "Judge": "core",
    "DEFAULT_JUDGE_CONCURRENCY": "core",
    "DEFAULT_JUDGE_TIMEOUT_S": "core",
    "JudgeOutcome": "run",
    "JudgeSettings": "core",
    "JudgeTarget": "run",
    "criterion_labels": "criteria",
    "judge_experiments": "run",
    "EquivalencePair": "equivalence",
    "judge_answers": "equivalence",
    "judge_journal_path": "run",
    "judge_shard": "run",
    "remove_judge_journals": "run",
    "judge_request": "core",
    "parse_judge_spec": "core",
}

__getattr__, __all__ = lazy_exports(__name__, _LAZY)
