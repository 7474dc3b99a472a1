"""What the LLM judge is shown for one item: the source document (or, when it is long, its excerpts most
relevant to the answer and the reference), the reference, the answer, and the criteria, rendered from the
judge_*.j2 templates with the use case's words for its task and its document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gaia_eval.artifacts.groundtruth import QAPair, Summaries
from gaia_eval.prompts import prompts_fingerprint, render
from gaia_eval.scoring.judge.criteria import JudgeCriterion
from gaia_eval.scoring.text import content_tokens

if TYPE_CHECKING:
    from gaia_eval.usecases import UseCase

JUDGE_TEMPLATES = ("judge_system.j2", "judge_summary.j2", "judge_qa.j2", "judge_repair.j2")

# About 16k tokens of source: long enough for any meeting or email, short enough for every judge's context
# together with the reference and the answer.
SOURCE_WORD_BUDGET = 12_000
WINDOW_WORDS = 300
GAP_MARK = "[...]"
EMPTY = "(empty)"

_SUMMARY_PARTS = (
    ("executive_summary", "Executive summary"),
    ("detailed_summary", "Detailed summary"),
    ("action_items", "Action items"),
    ("key_decisions", "Key decisions"),
    ("participants", "Participants"),
    ("topics_discussed", "Topics discussed"),
)


@dataclass(frozen=True)
class JudgePrompt:
    system: str
    user: str
    source_excerpted: bool


def judge_prompts_fingerprint() -> str:
    return prompts_fingerprint(*JUDGE_TEMPLATES)


def summaries_text(summaries: Summaries) -> str:
    """The six summary parts as labelled blocks; an empty part says so, so the judge sees the omission."""
    blocks = []
    for key, label in _SUMMARY_PARTS:
        value = getattr(summaries, key)
        if isinstance(value, list):
            body = "\n".join(f"- {entry}" for entry in value) if value else EMPTY
        else:
            body = value.strip() or EMPTY
        blocks.append(f"{label}:\n{body}")
    return "\n\n".join(blocks)


def _windows(source: str, size: int) -> list[str]:
    """Consecutive line-aligned chunks of about `size` words (a longer single line is its own chunk)."""
    windows: list[str] = []
    current: list[str] = []
    words = 0
    for line in source.splitlines():
        count = len(line.split())
        if current and words + count > size:
            windows.append("\n".join(current))
            current, words = [], 0
        current.append(line)
        words += count
    if current:
        windows.append("\n".join(current))
    return windows


def source_for_judge(
    source: str, focus: list[str], *, budget_words: int = SOURCE_WORD_BUDGET, window_words: int = WINDOW_WORDS
) -> tuple[str, bool]:
    """(text shown to the judge, whether it is excerpted). A source within the budget is shown whole; a longer
    one is cut into ~window_words chunks, ranked by how many distinct content words of `focus` (the answer and
    the reference) they contain, and the best chunks that fit the budget are shown in document order, with
    GAP_MARK where text was left out."""
    if len(source.split()) <= budget_words:
        return source, False
    windows = _windows(source, window_words)
    wanted = {token for text in focus for token in content_tokens(text)}
    ranked = sorted(range(len(windows)), key=lambda i: (-len(wanted.intersection(content_tokens(windows[i]))), i))
    chosen: list[int] = []
    used = 0
    for index in ranked:
        size = len(windows[index].split())
        if used + size <= budget_words:
            chosen.append(index)
            used += size
    parts: list[str] = []
    previous = -1
    for index in sorted(chosen):
        if index != previous + 1:
            parts.append(GAP_MARK)
        parts.append(windows[index])
        previous = index
    if previous != len(windows) - 1:
        parts.append(GAP_MARK)
    return "\n".join(parts), True


def _system(use_case: UseCase, comparative: bool) -> str:
    """The judge's task, in the use case's words ("summaries of business emails"), for answers or summaries."""
    task = use_case.judge_task or use_case.title.lower()
    if use_case.asks_questions:
        return render("judge_system.j2", task=task, answer_label="answer", reference_label="expected answer")
    return render(
        "judge_system.j2",
        task=task,
        answer_label="summary",
        reference_label="reference summary" if comparative else None,
    )


def summary_prompt(
    use_case: UseCase,
    source: str,
    answer: Summaries,
    reference: Summaries | None,
    criteria: tuple[JudgeCriterion, ...],
) -> JudgePrompt:
    answer_text = summaries_text(answer)
    reference_text = summaries_text(reference) if reference is not None else None
    document, excerpted = source_for_judge(source, [answer_text, reference_text or ""])
    user = render(
        "judge_summary.j2",
        doc_label=use_case.doc_label,
        excerpted=excerpted,
        document=document,
        reference=reference_text,
        answer=answer_text,
        criteria=criteria,
    )
    return JudgePrompt(system=_system(use_case, reference is not None), user=user, source_excerpted=excerpted)


def qa_prompt(
    use_case: UseCase,
    source: str,
    question: str,
    expected: QAPair,
    answer: str,
    criteria: tuple[JudgeCriterion, ...],
) -> JudgePrompt:
    document, excerpted = source_for_judge(source, [question, *expected.answers, expected.evidence or "", answer])
    user = render(
        "judge_qa.j2",
        doc_label=use_case.doc_label,
        excerpted=excerpted,
        document=document,
        question=question,
        # several reference answers (any is right): one a line, so the prompt of one answer keeps its bytes
        expected="\n".join(f"- {a}" for a in expected.answers) if expected.other_answers else expected.answer,
        answer=answer.strip() or EMPTY,
        criteria=criteria,
    )
    return JudgePrompt(system=_system(use_case, True), user=user, source_excerpted=excerpted)


def repair_prompt(problem: str, criteria: tuple[JudgeCriterion, ...]) -> str:
    return render("judge_repair.j2", problem=problem, criteria=[c.id for c in criteria])
