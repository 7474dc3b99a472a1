"""The answer-equivalence judge (`check-answer --mode judge`): a model asked whether an answer gives one of the
reference answers to a question, for what no matching rule can settle (a correct answer the reference list does
not hold: "Jimmy Webb" for "Senator Jim Webb", "Colombian" for "Republic of Colombia").

Any provider that follows prompts answers it, through the run's response cache and, with --batch, its batch API
(`CallOptions`, as every judge call travels). The reply is a JSON object `{"correct": true|false}`; a reply that
is not one is asked again once with the problem quoted, then counts as failed with its reason, never as a verdict.
The default `gaia` mode stays the deterministic, offline one; this mode is what a user asks for by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.concurrency import RetryPolicy, call_with_retries, map_concurrent, run_async
from gaia_eval.errors import MalformedResponseError
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, Provider, TaskContext
from gaia_eval.scoring.judge.core import JudgeSettings

EQUIVALENCE_VERSION = 1  # part of what a cached reply answers: change it when the prompt changes
MOST_REFERENCES = 12  # reference answers shown: TriviaQA-style lists of 50 aliases add tokens, not meaning
SCHEMA = {"type": "object", "properties": {"correct": {"type": "boolean"}}, "required": ["correct"],
          "additionalProperties": False}
SYSTEM = (
    "You grade answers to questions the way a careful teacher does. You are given a question, the reference "
    "answer(s) (any one of them is right) and a candidate's answer. The candidate is CORRECT when it commits to "
    "an answer that means the same as a reference answer: other wording, a fuller or shorter name, an alias, a "
    "different unit or format of the same value, extra true detail and full sentences are all fine. It is "
    "INCORRECT when it gives another answer, names several candidates without choosing, refuses or says it does "
    "not know, or denies the reference. Reply with JSON only: {\"correct\": true} or {\"correct\": false}."
)


@dataclass(frozen=True)
class EquivalencePair:
    """One answer to grade: the question (may be empty), the reference answers, the answer."""

    expected: tuple[str, ...]
    answer: str
    question: str = ""


@dataclass(frozen=True)
class EquivalenceVerdict:
    """The model's verdict on one pair; `correct` is None when the call failed or no reply was usable."""

    correct: bool | None
    explanation: str
    cached: bool = False

    def to_dict(self, answer: str, spec: str) -> dict[str, Any]:
        return {"correct": self.correct, "score": float(bool(self.correct)), "mode": "judge",
                "explanation": self.explanation, "extracted": answer, "judge": spec,
                **({"error": self.explanation} if self.correct is None else {})}


def user_prompt(pair: EquivalencePair) -> str:
    references = "\n".join(f"- {text}" for text in pair.expected[:MOST_REFERENCES])
    question = pair.question.strip() or "(not given)"
    return (f"Question: {question}\n\nReference answer(s):\n{references}\n\nCandidate's answer:\n{pair.answer}\n\n"
            f"Is the candidate's answer correct? (grading rules v{EQUIVALENCE_VERSION})")


def _read(response: ChatResponse) -> bool | str:
    """The verdict in a reply, or the problem with it."""
    data = response.data
    if isinstance(data, dict) and isinstance(data.get("correct"), bool):
        return bool(data["correct"])
    text = (response.text or "").strip().lower()
    if text in ("true", "correct", "yes"):
        return True
    if text in ("false", "incorrect", "no"):
        return False
    return f"the reply is not {{\"correct\": true|false}}: {(response.text or '')[:120]!r}"


async def judge_pair(pair: EquivalencePair, settings: JudgeSettings, provider: Provider, gate: Any,
                     retry: RetryPolicy) -> EquivalenceVerdict:
    """One pair: a call, and when the reply is unusable one repair request quoting the problem."""
    messages = [Message(role="user", content=user_prompt(pair))]
    problem = ""
    for round_ in range(2):
        chat = ChatRequest(messages=tuple(messages), system=SYSTEM, max_tokens=32, temperature=0.0,
                           json_schema=SCHEMA, schema_name="grade", timeout_s=retry.timeout_s,
                           task=TaskContext(kind="generic"), refresh=round_ > 0)

        async def attempt(chat: ChatRequest = chat) -> ChatResponse | MalformedResponseError:
            try:
                return await provider.complete(chat)
            except MalformedResponseError as exc:
                return exc

        result = await call_with_retries(attempt, gate, retry)
        if result.error is not None:
            return EquivalenceVerdict(None, f"judge {settings.spec}: the call failed ({result.error.reason}: "
                                      f"{result.error.message})")
        reply = result.value
        if isinstance(reply, MalformedResponseError):
            problem = f"the reply is not JSON ({reply})"
        else:
            assert reply is not None
            verdict = _read(reply)
            if isinstance(verdict, bool):
                said = "correct" if verdict else "incorrect"
                return EquivalenceVerdict(verdict, f"judge {settings.spec}: the model grades the answer {said}",
                                          cached=getattr(reply, "cached", False))
            problem = verdict
            messages.append(Message(role="assistant", content=reply.text or ""))
        messages.append(Message(role="user", content=f"That reply could not be read: {problem}. Reply with JSON "
                                "only: {\"correct\": true} or {\"correct\": false}."))
    return EquivalenceVerdict(None, f"judge {settings.spec}: no usable verdict ({problem})")


def judge_answers(pairs: Sequence[EquivalencePair], settings: JudgeSettings, call_options: Any,
                  journal: Path) -> list[EquivalenceVerdict]:
    """The model's verdict on every pair, in order, asked concurrently through the run's cache and batch
    settings (`call_options`: a CallOptions); `journal` is where --batch records its batches."""
    from gaia_eval.providers import ProviderSettings
    from gaia_eval.providers.batch import batch_gate
    from gaia_eval.providers.call_options import open_provider

    if not pairs:
        return []
    provider_settings = ProviderSettings(provider=settings.provider, model=settings.model,
                                         base_url=settings.base_url, timeout_s=settings.retry.timeout_s)
    provider = open_provider(provider_settings, call_options, journal, label=f"judge {settings.spec}")
    gate = batch_gate(call_options.batch, settings.concurrency, provider=settings.provider)

    async def run() -> list[EquivalenceVerdict]:
        try:
            return await map_concurrent(list(pairs), lambda pair: judge_pair(pair, settings, provider, gate,
                                                                              settings.retry),
                                        limit=gate.max_concurrency)
        finally:
            await provider.aclose()

    verdicts: list[EquivalenceVerdict] = run_async(run())
    if all(v.correct is not None for v in verdicts):
        journal.unlink(missing_ok=True)  # every batch answered: nothing left to re-attach to
    return verdicts
