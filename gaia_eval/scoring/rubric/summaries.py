"""Comparative scoring of a model's summaries against ground truth: one measured, explained result per criterion.

Planted facts, when the ground truth carries them, are the reference for the lists (participants, topics,
decisions, action items with owners and due dates, key figures); the expected summaries are the reference for
the prose and the fallback for the lists. Thresholds and measure descriptions live in `rubric.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gaia_eval.artifacts.documents import PlantedFacts
from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.errors import InputError
from gaia_eval.scoring.rubric.grading import criterion_result, not_applicable
from gaia_eval.scoring.text import (
    content_tokens,
    coverage,
    display_name,
    found_tokens,
    greedy_one_to_one,
    is_figure,
    item_similarity,
    match_items,
    match_names,
    name_tokens,
    quote_list,
    rouge_l,
    surface_forms,
    tokenize,
)

# A planted text item counts as covered when this share of its content words is in the answer.
FOUND_SHARE = 0.6
# Task wording similarity for an action item to match (see text.item_similarity).
TASK_MATCH_THRESHOLD = 0.5
DUE_MISSING_CREDIT = 0.5
UNSUPPORTED_FIGURE_PENALTY = 0.1
MAX_FIGURE_PENALTY = 0.3

_DATE_TOKEN = re.compile(r"^\d\d-\d\d$")


@dataclass(frozen=True)
class _Reference:
    """What the answer is compared with, resolved once from the expected summaries and the planted facts."""

    names: list[str]
    name_words: frozenset[str]  # stemmed content tokens of every participant name
    executive_summary: str
    figures: frozenset[str]  # every figure token anywhere in the ground truth


def _reference(expected: Summaries, facts: PlantedFacts | None) -> _Reference:
    names = [p.name for p in facts.participants] if facts else list(expected.participants)
    texts = [
        expected.executive_summary,
        expected.detailed_summary,
        *expected.action_items,
        *expected.key_decisions,
        *expected.topics_discussed,
    ]
    if facts:
        texts += [facts.summary, *facts.decisions, *facts.topics]
        texts += [f"{a.task} {a.due}" for a in facts.action_items]
        texts += [f.value for f in facts.key_figures]
    return _Reference(
        names=names,
        name_words=frozenset(t for n in names for t in content_tokens(" ".join(name_tokens(n)))),
        executive_summary=expected.executive_summary.strip() or (facts.summary if facts else ""),
        figures=frozenset(t for text in texts for t in content_tokens(text) if is_figure(t)),
    )


def _empty(criterion: str, what: str) -> CriterionResult:
    return criterion_result(criterion, 0.0, f"the answer's {what} is empty")


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _is_penalized_figure(token: str) -> bool:
    """Figures whose invention matters: amounts, percents, dates; not years or small counts ("2 teams")."""
    if _DATE_TOKEN.match(token) or token.endswith("%"):
        return True
    try:
        number = float(token)
    except ValueError:
        return False
    return number >= 10 and not (number.is_integer() and 1900 <= number <= 2100)


def _executive_summary_accuracy(answer: Summaries, ref: _Reference) -> CriterionResult:
    criterion = "executive_summary_accuracy"
    if not answer.executive_summary.strip():
        return _empty(criterion, "executive summary")
    ref_tokens = content_tokens(ref.executive_summary)
    answer_tokens = content_tokens(answer.executive_summary)
    answer_set = frozenset(answer_tokens)
    figures = [t for t in ref_tokens if is_figure(t)]
    # A person counts once, found when any of their names is there ("Priya" for "Priya Shah").
    people = [n for n in ref.names if set(content_tokens(" ".join(name_tokens(n)))) & set(ref_tokens)]
    words = [t for t in ref_tokens if not is_figure(t) and t not in ref.name_words]
    found_figures = set(found_tokens(figures, answer_set))
    found_people = [n for n in people if set(content_tokens(" ".join(name_tokens(n)))) & answer_set]
    found_words = set(found_tokens(words, answer_set))
    hard_total = len(figures) + len(people)
    hard_recall = (len(found_figures) + len(found_people)) / hard_total if hard_total else None
    word_recall = len(found_words) / len(words) if words else None
    recalls = [r for r in (hard_recall, word_recall) if r is not None]
    fact_recall = sum(recalls) / len(recalls) if recalls else 0.0
    rouge_f1 = rouge_l(answer.executive_summary, ref.executive_summary)[2]
    unsupported = [t for t in answer_tokens if is_figure(t) and _is_penalized_figure(t) and t not in ref.figures]
    penalty = min(MAX_FIGURE_PENALTY, UNSUPPORTED_FIGURE_PENALTY * len(unsupported))
    value = max(0.0, min(1.0, 0.75 * fact_recall + 0.25 * rouge_f1 - penalty))
    missed = [f for f in figures if f not in found_figures]
    missed += [display_name(n) for n in people if n not in found_people]
    missed += [w for w in words if w not in found_words]
    forms = surface_forms(ref.executive_summary)
    missed = [forms.get(m, m) for m in missed]
    unsupported = [surface_forms(answer.executive_summary).get(u, u) for u in unsupported]
    explanation = (
        f"recalled {len(found_figures) + len(found_people) + len(found_words)} of {hard_total + len(words)} key facts"
        + (f" (missed: {quote_list(missed, limit=5)})" if missed else "")
        + f"; ROUGE-L F1 {rouge_f1:.2f}"
        + (f"; figures not in the ground truth: {quote_list(unsupported)}" if unsupported else "")
    )
    return criterion_result(criterion, value, explanation)


@dataclass(frozen=True)
class _PlantedItem:
    label: str  # shown in explanations
    tokens: tuple[str, ...]  # content tokens to find
    is_figure: bool


def _planted_items(expected: Summaries, facts: PlantedFacts | None) -> list[_PlantedItem]:
    """Everything a complete summary must carry: planted facts when known, else the expected lists and the
    figures of the expected prose; prose-only ground truth falls back to its detailed summary's sentences."""
    items: list[_PlantedItem] = []

    def add_text(text: str) -> None:
        tokens = content_tokens(text)
        if tokens:
            items.append(_PlantedItem(text, tokens, False))

    if facts:
        for text in [*facts.decisions, *(a.task for a in facts.action_items), *facts.topics]:
            add_text(text)
        for figure in facts.key_figures:
            tokens = tuple(t for t in content_tokens(figure.value) if is_figure(t))
            if tokens:
                items.append(_PlantedItem(figure.value, tokens, True))
            else:
                add_text(figure.value)  # e.g. "two weeks": no digits, so matched as words
        return items
    for text in [*expected.key_decisions, *expected.action_items, *expected.topics_discussed]:
        add_text(text)
    has_lists = bool(items)
    prose = f"{expected.detailed_summary} {expected.executive_summary}"
    forms = surface_forms(prose)
    for token in dict.fromkeys(t for t in content_tokens(prose) if is_figure(t)):
        items.append(_PlantedItem(forms.get(token, token), (token,), True))
    if not has_lists:
        # Prose-only ground truth (e.g. a human reference): its sentences are the content to find, beside any
        # figures; checking the figures alone let a summary that only repeats a number score 1.0.
        for sentence in re.split(r"(?<=[.!?])\s+", expected.detailed_summary or expected.executive_summary):
            add_text(sentence)
    return items


def _covered(item: _PlantedItem, answer_set: frozenset[str]) -> bool:
    if item.is_figure:
        return all(t in answer_set for t in item.tokens)
    return coverage(item.tokens, answer_set) >= FOUND_SHARE


def _completeness(answer: Summaries, expected: Summaries, facts: PlantedFacts | None) -> CriterionResult:
    criterion = "completeness"
    if not answer.detailed_summary.strip():
        return _empty(criterion, "detailed summary")
    items = _planted_items(expected, facts)
    if not items:
        raise InputError(
            "the ground truth has nothing to check completeness against",
            field="summaries.detailed_summary",
            fix="regenerate the ground truth so it has a detailed summary or lists",
        )
    answer_set = frozenset(content_tokens(f"{answer.detailed_summary} {answer.executive_summary}"))
    missed = [item.label for item in items if not _covered(item, answer_set)]
    found = len(items) - len(missed)
    explanation = f"found {found} of {len(items)} planted items in the detailed and executive summaries" + (
        f" (missed: {quote_list(missed)})" if missed else ""
    )
    return criterion_result(criterion, found / len(items), explanation)


@dataclass(frozen=True)
class _ExpectedAction:
    label: str
    owner_words: frozenset[str]  # raw lowercase name tokens of the owner; empty when the owner is unknown
    task_tokens: tuple[str, ...]
    due: str | None  # month-day token


def _expected_actions(expected: Summaries, facts: PlantedFacts | None, ref: _Reference) -> list[_ExpectedAction]:
    if facts:
        actions = []
        for a in facts.action_items:
            due_tokens = [t for t in tokenize(a.due) if _DATE_TOKEN.match(t)]
            actions.append(
                _ExpectedAction(
                    label=f"{a.owner}: {a.task} (due {a.due})",
                    owner_words=frozenset(name_tokens(a.owner)),
                    task_tokens=_task_tokens(a.task, ref),
                    due=due_tokens[0] if due_tokens else None,
                )
            )
        return actions
    actions = []
    for text in expected.action_items:
        words = set(tokenize(text))
        owners = [n for n in ref.names if set(name_tokens(n)) & words]
        if not owners and ":" in text:
            owners = [text.split(":", 1)[0]]  # "Owner: task" with an owner missing from the participants
        due_tokens = [t for t in tokenize(text) if _DATE_TOKEN.match(t)]
        actions.append(
            _ExpectedAction(
                label=text,
                owner_words=frozenset(name_tokens(owners[0])) if owners else frozenset(),
                task_tokens=_task_tokens(text, ref),
                due=due_tokens[0] if due_tokens else None,
            )
        )
    return actions


def _task_tokens(text: str, ref: _Reference) -> tuple[str, ...]:
    """The task wording alone: names and dates are checked separately, so they must not make tasks look alike."""
    return tuple(t for t in content_tokens(text) if t not in ref.name_words and not _DATE_TOKEN.match(t))


def _action_items(
    answer: Summaries, expected: Summaries, facts: PlantedFacts | None, ref: _Reference
) -> CriterionResult:
    criterion = "action_items"
    actions = _expected_actions(expected, facts, ref)
    predicted = [p for p in answer.action_items if p.strip()]
    if not actions:
        # The reference gives nothing to check (a human summary without action items): neither Poor nor Excellent.
        return not_applicable(criterion, f"the ground truth has no action items (the answer lists {len(predicted)})")
    if not predicted:
        return _empty(criterion, "action item list")
    pred_tokens = [_task_tokens(p, ref) for p in predicted]
    scores = [[item_similarity(p, a.task_tokens) for a in actions] for p in pred_tokens]
    credit = 0.0
    matched: set[int] = set()
    used_predictions: set[int] = set()
    no_due: list[str] = []
    wrong_owner: set[int] = set()
    for i, j, _ in greedy_one_to_one(scores, TASK_MATCH_THRESHOLD):
        action = actions[j]
        words = set(tokenize(predicted[i]))
        if action.owner_words and not action.owner_words & words:
            wrong_owner.add(i)
            continue
        matched.add(j)
        used_predictions.add(i)
        if action.due is None or action.due in words:
            credit += 1.0
        else:
            credit += DUE_MISSING_CREDIT
            no_due.append(action.label)
    precision, recall = credit / len(predicted), credit / len(actions)
    missed = [a.label for j, a in enumerate(actions) if j not in matched]
    extra = [p for i, p in enumerate(predicted) if i not in used_predictions and i not in wrong_owner]
    parts = [f"matched {len(matched)} of {len(actions)} action items"]
    if missed:
        parts[0] += f" (missed: {quote_list(missed)})"
    if no_due:
        parts.append(f"{len(no_due)} without the due date, half credit ({quote_list(no_due)})")
    if wrong_owner:
        owner_issues = [predicted[i] for i in sorted(wrong_owner)]
        parts.append(f"{len(owner_issues)} with a missing or wrong owner ({quote_list(owner_issues)})")
    if extra:
        parts.append(f"{len(extra)} extra ({quote_list(extra)})")
    explanation = "; ".join(parts) + f"; precision {precision:.2f}, recall {recall:.2f}"
    return criterion_result(criterion, _f1(precision, recall), explanation)


def _list_f1(
    criterion: str, noun: str, predicted: list[str], expected_items: list[str], ref: _Reference
) -> CriterionResult:
    """F1 of a one-to-one matching: names for participants, wording (names left out) for the other lists."""
    predicted = [p for p in predicted if p.strip()]
    if not expected_items:
        return not_applicable(criterion, f"the ground truth has no {noun} (the answer lists {len(predicted)})")
    if not predicted:
        return _empty(criterion, f"{noun} list")
    if criterion == "participants":
        match = match_names(predicted, expected_items)
    else:
        match = match_items(predicted, expected_items, ignore=ref.name_words)
    missed = match.unmatched_expected
    if criterion == "participants":
        missed = [display_name(n) for n in missed]
    explanation = f"matched {len(match.pairs)} of {match.n_expected} {noun}" + (
        f" (missed: {quote_list(missed)})" if missed else ""
    )
    if match.unmatched_predicted:
        explanation += f"; {len(match.unmatched_predicted)} extra ({quote_list(match.unmatched_predicted)})"
    explanation += f"; precision {match.precision:.2f}, recall {match.recall:.2f}"
    return criterion_result(criterion, match.f1, explanation)


def _topic_coverage(answer: Summaries, expected: Summaries, facts: PlantedFacts | None) -> CriterionResult:
    criterion = "topic_coverage"
    topics = [t for t in (facts.topics if facts else expected.topics_discussed) if content_tokens(t)]
    if not topics:
        return not_applicable(criterion, "the ground truth has no topics")
    if not any(t.strip() for t in answer.topics_discussed):
        return _empty(criterion, "topic list")
    everything = " ".join(
        [answer.executive_summary, answer.detailed_summary, *answer.action_items, *answer.key_decisions,
         *answer.participants, *answer.topics_discussed]
    )  # fmt: skip
    answer_set = frozenset(content_tokens(everything))
    missed = [t for t in topics if coverage(t, answer_set) < FOUND_SHARE]
    found = len(topics) - len(missed)
    explanation = f"found {found} of {len(topics)} expected topics anywhere in the answer" + (
        f" (missed: {quote_list(missed)})" if missed else ""
    )
    return criterion_result(criterion, found / len(topics), explanation)


def score_summaries(
    answer: Summaries, expected: Summaries, facts: PlantedFacts | None = None
) -> list[CriterionResult]:
    """One result per comparative criterion, in `rubric.SUMMARY_CRITERIA` order.

    Raises InputError when the ground truth has no executive summary (nor planted summary) or nothing to check
    completeness against: those are ground-truth defects, not model failures."""
    ref = _reference(expected, facts)
    if not ref.executive_summary:
        raise InputError(
            "the ground truth has no executive summary to compare with",
            field="summaries.executive_summary",
            fix="regenerate the ground truth for this item",
        )
    decisions = facts.decisions if facts else expected.key_decisions
    return [
        _executive_summary_accuracy(answer, ref),
        _completeness(answer, expected, facts),
        _action_items(answer, expected, facts, ref),
        _list_f1("key_decisions", "decisions", answer.key_decisions, decisions, ref),
        _list_f1("participants", "participants", answer.participants, ref.names, ref),
        _topic_coverage(answer, expected, facts),
    ]
