"""What the LLM judge rates: the criteria of each judging mode, the JSON schema the judge must fill, the
validation of its reply, and which rubric criterion each judge criterion can be compared with."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from gaia_eval.artifacts.evaluation import RATINGS, JudgeVerdict, Rating
from gaia_eval.scoring.rubric import POINTS

if TYPE_CHECKING:
    from gaia_eval.usecases import UseCase

# Poor < Fair < Good < Excellent as ranks 1..4 for medians and agreement statistics: the rubric's points.
RANK: dict[str, int] = dict(POINTS)
RATING_OF_RANK: dict[int, str] = {rank: rating for rating, rank in RANK.items()}


@dataclass(frozen=True)
class JudgeCriterion:
    id: str
    label: str
    question: str  # what the judge is asked, shown in the prompt
    rubric_id: str | None = None  # the deterministic criterion measuring the same thing, if any


_FAITHFULNESS_SUMMARY = JudgeCriterion(
    "faithfulness",
    "Faithfulness",
    "Is every statement in the summary supported by the source document? Any invented or altered name, figure, "
    "date, decision or task lowers the rating, even if it sounds plausible.",
)

COMPARATIVE_SUMMARY: tuple[JudgeCriterion, ...] = (
    JudgeCriterion(
        "executive_summary_accuracy",
        "Executive summary accuracy",
        "Does the executive summary state the same purpose, main outcome and next steps as the reference "
        "executive summary, with the right facts?",
        "executive_summary_accuracy",
    ),
    JudgeCriterion(
        "completeness",
        "Completeness",
        "Does the detailed summary cover every topic, decision, action item and key figure of the reference?",
        "completeness",
    ),
    JudgeCriterion(
        "action_items_accuracy",
        "Action items accuracy",
        "Are the reference's action items all listed, each with the right owner and due date, and no action item "
        "added that the document does not contain?",
        "action_items",
    ),
    JudgeCriterion(
        "key_decisions_accuracy",
        "Key decisions accuracy",
        "Are the reference's decisions all listed, stated correctly, and no decision added that was not made?",
        "key_decisions",
    ),
    JudgeCriterion(
        "participant_identification",
        "Participant identification",
        "Are all participants of the reference named correctly, and nobody listed who did not take part?",
        "participants",
    ),
    JudgeCriterion(
        "topic_coverage",
        "Topic coverage",
        "Do the listed topics cover the reference's topics?",
        "topic_coverage",
    ),
    _FAITHFULNESS_SUMMARY,
)

STANDALONE_SUMMARY: tuple[JudgeCriterion, ...] = (
    JudgeCriterion(
        "executive_summary_clarity",
        "Executive summary clarity",
        "Is the executive summary clear and high-level (two or three sentences) and does it give the purpose, "
        "the main outcome and what happens next?",
    ),
    JudgeCriterion(
        "detail_completeness",
        "Detail completeness",
        "Does the detailed summary give enough context to understand the document without reading it, covering "
        "its main points?",
    ),
    JudgeCriterion(
        "action_items_specificity",
        "Action items specificity",
        "Are the action items specific and actionable, each with an owner and, where the document gives one, a "
        "due date?",
    ),
    JudgeCriterion(
        "key_decisions_clarity",
        "Key decisions clarity",
        "Are the decisions stated clearly, each as a decision that was made rather than a topic that was discussed?",
    ),
    JudgeCriterion(
        "participant_identification",
        "Participant identification",
        "Are the participants identified by name, with their role where the document gives one?",
    ),
    JudgeCriterion(
        "topic_organization",
        "Topic organization",
        "Are the topics distinct, well-organized short phrases that together cover the document?",
    ),
    _FAITHFULNESS_SUMMARY,
)

COMPARATIVE_QA: tuple[JudgeCriterion, ...] = (
    JudgeCriterion(
        "correctness",
        "Correctness",
        "Is the answer factually correct compared with the expected answer?",
        "correctness",
    ),
    JudgeCriterion(
        "completeness",
        "Completeness",
        "Does the answer contain everything the expected answer contains (every item of a list, the full figure)?",
    ),
    JudgeCriterion(
        "conciseness",
        "Conciseness",
        "Is the answer as short as the question allows, without padding or unrequested explanation?",
    ),
    JudgeCriterion(
        "relevance",
        "Relevance",
        "Does the answer address the question that was asked?",
    ),
    JudgeCriterion(
        "faithfulness",
        "Faithfulness",
        "Is the answer supported by the source document, with nothing invented?",
    ),
)


# Free-text scoring (human references, imported outputs) has its own rubric criteria: the judge criteria that
# measure the same thing as one of them, compared with it when the rubric has no `rubric_id` criterion.
FREE_TEXT_RUBRIC_IDS: dict[str, str] = {
    "faithfulness": "source_consistency",
    "consistency": "source_consistency",
    "completeness": "content_coverage",
}


# Named criteria a user can pick with --judge-criteria, for data that is not a meeting: the four dimensions of
# SummEval (Fabbri et al., 2021) and DialSummEval (Gao & Wan, 2022), worded after G-Eval (Liu et al., 2023).
NAMED_CRITERIA: dict[str, JudgeCriterion] = {
    c.id: c
    for c in (
        JudgeCriterion(
            "coherence",
            "Coherence",
            "Is the summary well-structured and well-organized, building from sentence to sentence into a coherent "
            "body of information about the source, rather than a heap of related facts?",
        ),
        JudgeCriterion(
            "consistency",
            "Consistency",
            "Is the summary factually aligned with the source: does it contain only statements the source entails, "
            "with no hallucinated names, numbers, dates or events?",
        ),
        JudgeCriterion(
            "fluency",
            "Fluency",
            "Is the summary well written: grammatical, free of repetition, formatting problems and broken "
            "sentences that make it hard to read?",
        ),
        JudgeCriterion(
            "relevance",
            "Relevance",
            "Does the summary select the important content of the source, without redundancy or excess "
            "information?",
        ),
    )
}


def criteria_for(
    use_case: UseCase, mode: str, custom: tuple[JudgeCriterion, ...] = ()
) -> tuple[JudgeCriterion, ...]:
    """A use case that asks questions -> the comparative qa criteria (an answer always has its expected answer);
    one that writes summaries -> the user's criteria when given (--judge-criteria), else the comparative criteria
    with ground truth and the standalone quality criteria without."""
    if use_case.asks_questions:
        return COMPARATIVE_QA
    if custom:
        return custom
    return STANDALONE_SUMMARY if mode == "standalone" else COMPARATIVE_SUMMARY


def parse_criteria(value: str) -> tuple[JudgeCriterion, ...]:
    """--judge-criteria: comma-separated names of NAMED_CRITERIA, or a JSON file holding a list of
    {"id", "label", "question"} objects. Raises ValueError with a one-line reason."""
    import re
    from pathlib import Path

    if value.strip().endswith(".json"):
        path = Path(value.strip())
        from gaia_eval.artifacts.inputs import parse_json, read_input_bytes
        from gaia_eval.errors import InputError

        try:
            data = parse_json(path, read_input_bytes(path, "a JSON file"))
        except InputError as exc:
            raise ValueError(exc.one_line()) from None
        if not isinstance(data, list) or not data:
            raise ValueError(f"{path}: expected a non-empty list of {{\"id\", \"label\", \"question\"}} objects")
        criteria = []
        for n, entry in enumerate(data, 1):
            if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and entry[k].strip()
                                                      for k in ("id", "question")):
                raise ValueError(f"{path}: item {n} needs a non-empty 'id' and 'question'")
            if not re.fullmatch(r"[a-z][a-z0-9_]*", entry["id"]):
                raise ValueError(f"{path}: item {n}: id '{entry['id']}' must be lowercase letters, digits and _")
            criteria.append(JudgeCriterion(entry["id"], entry.get("label") or entry["id"].replace("_", " ").title(),
                                           entry["question"]))
    else:
        names = [n.strip().lower() for n in value.split(",") if n.strip()]
        unknown = [n for n in names if n not in NAMED_CRITERIA]
        if unknown or not names:
            raise ValueError(f"unknown criteria {unknown or value!r}: use {', '.join(NAMED_CRITERIA)} or a .json file")
        criteria = [NAMED_CRITERIA[n] for n in names]
    ids = [c.id for c in criteria]
    if len(set(ids)) != len(ids):
        raise ValueError("criteria ids must differ")
    return tuple(criteria)


def criterion_labels() -> dict[str, str]:
    """Label of every built-in judge criterion id (an id means the same thing in every mode it appears in)."""
    groups = (COMPARATIVE_SUMMARY, STANDALONE_SUMMARY, COMPARATIVE_QA, tuple(NAMED_CRITERIA.values()))
    return {c.id: c.label for group in groups for c in group}


def reply_schema(criteria: tuple[JudgeCriterion, ...]) -> dict[str, Any]:
    """JSON schema of a judge reply: one object per criterion with an explanation (written first, so the
    rating follows from it) and a rating from the four-level scale."""
    verdict = {
        "type": "object",
        "properties": {
            "explanation": {"type": "string"},
            "rating": {"type": "string", "enum": list(RATINGS)},
        },
        "required": ["explanation", "rating"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {c.id: verdict for c in criteria},
        "required": [c.id for c in criteria],
        "additionalProperties": False,
    }


class _ReplyVerdict(BaseModel):
    # Extra keys (e.g. a "confidence") are ignored rather than failing an otherwise usable reply.
    model_config = ConfigDict(extra="ignore")

    rating: Rating
    explanation: str


@lru_cache(maxsize=8)
def _reply_model(criteria: tuple[JudgeCriterion, ...]) -> type[BaseModel]:
    # Extra top-level keys (e.g. an "overall" verdict) are ignored for the same reason.
    fields: dict[str, Any] = {c.id: (_ReplyVerdict, ...) for c in criteria}
    return create_model("JudgeReply", __config__=ConfigDict(extra="ignore"), **fields)


def _normalized(data: Any, criteria: tuple[JudgeCriterion, ...]) -> Any:
    """Ratings compared case-insensitively ("excellent" is Excellent); anything else is left to validation."""
    if not isinstance(data, dict):
        return data
    canonical = {r.lower(): r for r in RATINGS}
    fixed = dict(data)
    for c in criteria:
        verdict = fixed.get(c.id)
        if isinstance(verdict, dict) and isinstance(verdict.get("rating"), str):
            rating = verdict["rating"].strip()
            fixed[c.id] = {**verdict, "rating": canonical.get(rating.lower(), rating)}
    return fixed


def validate_reply(data: Any, criteria: tuple[JudgeCriterion, ...]) -> dict[str, JudgeVerdict]:
    """The verdict per criterion, or ValueError with a one-line description of what is wrong (sent back to
    the judge in the repair message)."""
    if not isinstance(data, dict):
        raise ValueError(f"the reply is a JSON {type(data).__name__}, not an object with one key per criterion")
    try:
        parsed = _reply_model(criteria).model_validate(_normalized(data, criteria))
    except ValidationError as exc:
        problems = []
        for error in exc.errors()[:5]:
            where = ".".join(str(p) for p in error.get("loc", ())) or "(top level)"
            if error.get("type") == "missing":
                problems.append(f"'{where}' is missing")
            elif error.get("type") == "literal_error":
                problems.append(f"'{where}' is {error.get('input')!r}, not one of {', '.join(RATINGS)}")
            else:
                problems.append(f"'{where}': {error.get('msg')}")
        raise ValueError("; ".join(problems)) from None
    verdicts = {c.id: getattr(parsed, c.id) for c in criteria}
    return {cid: JudgeVerdict(rating=v.rating, explanation=v.explanation.strip()) for cid, v in verdicts.items()}
