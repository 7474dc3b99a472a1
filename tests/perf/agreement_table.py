"""The agreement table of bench_answers.py --datasets: each match mode and two baselines against people's
correct/incorrect labels of real answers (evouna_tq), per answering system and overall, with Cohen's kappa, false
accepts and false rejects; the held-out half of the questions (a hash of the question id decides the half, so the
split is the same on every run); and the short-answer cases the tests hold (tests/answer_cases.py).
"""

from __future__ import annotations

import hashlib
import re
import string
import sys
import time
import unicodedata
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.scoring.answers.match import match_answer

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def normalise(text: str) -> str:
    """SQuAD's normalisation: lower case, no punctuation, no articles, single spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split())


def substring_baseline(expected: list[str], answer: str) -> bool:
    answer_key = normalise(answer)
    return any(normalise(gold) and normalise(gold) in answer_key for gold in expected)


def exact_baseline(expected: list[str], answer: str) -> bool:
    answer_key = normalise(answer)
    return any(normalise(gold) == answer_key for gold in expected)


def held_out(row_id: str) -> bool:
    """The half of the questions the rules were not tuned on: by a hash of the question's id ("tq0042")."""
    question = row_id.rsplit("-", 1)[0]
    return hashlib.sha256(question.encode()).digest()[0] % 2 == 1


def kappa(pairs: Iterable[tuple[bool, bool]]) -> float:
    """Cohen's kappa of two binary raters (verdict, human)."""
    pairs = list(pairs)
    n = len(pairs)
    if not n:
        return float("nan")
    observed = sum(a == b for a, b in pairs) / n
    p_a, p_b = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    chance = p_a * p_b + (1 - p_a) * (1 - p_b)
    return 1.0 if chance == 1 else (observed - chance) / (1 - chance)


def figures(pairs: list[tuple[bool, bool]]) -> str:
    n = len(pairs)
    agree = sum(a == b for a, b in pairs)
    false_accepts = sum(a and not b for a, b in pairs)
    false_rejects = sum(b and not a for a, b in pairs)
    return f"{100 * agree / n:6.1f} % {kappa(pairs):6.3f} {false_accepts:5d} {false_rejects:5d}"


def _mode_scorer(mode: str) -> Callable[[list[str], str, str], bool]:
    def score(expected: list[str], answer: str, question: str) -> bool:
        options: dict[str, Any] = {"question": question} if mode == "gaia" else {}
        return match_answer(expected, answer, mode, **options).correct
    return score


def _table(title: str, rows: list[dict[str, Any]], verdicts: dict[str, list[bool]]) -> None:
    systems = sorted({row["model"] for row in rows})
    print(f"\n{title}: {len(rows)} answers; agreement, Cohen's kappa, false accepts (FA), false rejects (FR)")
    print(f"{'scorer':<16} {'system':<9} {'agree':>8} {'kappa':>6} {'FA':>5} {'FR':>5}")
    for scorer, verdict in verdicts.items():
        for system in [*systems, "overall"]:
            pairs = [(v, row["human"]) for v, row in zip(verdict, rows, strict=True)
                     if system in ("overall", row["model"])]
            print(f"{scorer:<16} {system:<9} {figures(pairs)}")


def _short_cases() -> list[tuple[Any, Any, bool, dict[str, Any]]]:
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    from tests.answer_cases import CASES, GRADER_SET

    cases = [(c.expected, c.answer, c.correct, c.options) for c in CASES if c.mode == "gaia"]
    return cases + [(expected, answer, correct, {}) for expected, answer, correct in GRADER_SET]


def _short_table(modes: list[str]) -> None:
    cases = _short_cases()
    print(f"\nshort-answer cases of tests/answer_cases.py (gaia rows and GRADER_SET): {len(cases)} answers")
    print(f"{'scorer':<16} {'agree':>8} {'kappa':>6} {'FA':>5} {'FR':>5}")
    as_list = [([e] if not isinstance(e, list) else e, a, human) for e, a, human, _ in cases]
    for name, scorer in (("substring", substring_baseline), ("exact-match", exact_baseline)):
        pairs = [(scorer([str(x) for x in e], "" if a is None else str(a)), h) for e, a, h in as_list]
        print(f"{name:<16} {figures(pairs)}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for mode in modes:
            pairs = []
            for expected, answer, human, options in cases:
                try:
                    verdict = match_answer(expected, answer, mode, **(options if mode == "gaia" else {})).correct
                except Exception:  # a row's options may not fit another mode; a failure counts as "incorrect"
                    verdict = False
                pairs.append((verdict, human))
            print(f"{mode:<16} {figures(pairs)}")


def _judge_table(rows: list[dict[str, Any]], judge_spec: str, base_url: str | None, sample: int) -> int:
    """The judge mode on a seeded sample of the held-out half, beside gaia and the substring baseline there."""
    import random

    from gaia_eval.providers.call_options import CallOptions
    from gaia_eval.scoring.judge import EquivalencePair, judge_answers, parse_judge_spec

    held = [row for row in rows if held_out(row["id"])]
    chosen = sorted(random.Random(27).sample(held, min(sample, len(held))), key=lambda row: row["id"])
    settings = parse_judge_spec(judge_spec, base_url=base_url, timeout_s=600.0, concurrency=2)
    start = time.perf_counter()
    verdicts = judge_answers([EquivalencePair(tuple(r["expected"]), r["answer"], r["question"]) for r in chosen],
                             settings, CallOptions(), Path("/tmp") / "bench-answers-judge.batches.jsonl")
    failed = sum(v.correct is None for v in verdicts)
    print(f"\njudge {judge_spec}: {len(chosen)} answers in {time.perf_counter() - start:.0f} s, {failed} without a "
          "verdict (counted as incorrect)")
    _table(f"evouna_tq, a seeded sample of {len(chosen)} held-out answers: the judge mode", chosen, {
        f"judge {settings.model}"[:16]: [bool(v.correct) for v in verdicts],
        "gaia": [match_answer(r["expected"], r["answer"], question=r["question"]).correct for r in chosen],
        "substring": [substring_baseline(r["expected"], r["answer"]) for r in chosen],
    })
    return 1 if failed == len(chosen) else 0


def run_agreement(datasets: str, modes: list[str], limit: int = 0, judge: str | None = None,
                  judge_base_url: str | None = None, judge_sample: int = 200) -> int:
    path = Path(datasets) / "evouna_tq" / "answers.jsonl"
    rows = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    if limit:
        rows = rows[:limit]
    if judge:
        return _judge_table(rows, judge, judge_base_url, judge_sample)
    verdicts: dict[str, list[bool]] = {
        "substring": [substring_baseline(r["expected"], r["answer"]) for r in rows],
        "exact-match": [exact_baseline(r["expected"], r["answer"]) for r in rows],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for mode in modes:
            start = time.process_time()
            score = _mode_scorer(mode)
            verdicts[mode] = [score(r["expected"], r["answer"], r["question"]) for r in rows]
            print(f"mode {mode}: {len(rows)} answers in {time.process_time() - start:.1f} s of CPU", flush=True)
    _table(f"evouna_tq ({path})", rows, verdicts)
    held = [i for i, row in enumerate(rows) if held_out(row["id"])]
    _table("evouna_tq, held-out half of the questions (not tuned on)", [rows[i] for i in held],
           {name: [v[i] for i in held] for name, v in verdicts.items()})
    _short_table(modes)
    return 0
