"""The `react:PROVIDER:MODEL` runner: a ReAct agent over the provider layer with native tool calling (the safe
calculator and the lookup table), a step limit and the concise-answer instructions.

A step is one model turn. The run ends at the first reply without tool calls (its text is the answer) or at the
step limit (no answer; the trajectory is kept). Tool results starting with `error:` count as tool errors.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.bench.runs import EvalRun, count_tool_errors
from gaia_eval.bench.tools import TOOL_SPECS, execute_tool
from gaia_eval.concurrency import Attempted, ProviderGate, RetryPolicy, call_with_retries, run_async, wait_within
from gaia_eval.errors import UsageError
from gaia_eval.providers import ProviderSettings, api_key_for, check_provider_name, create_provider
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, Provider
from gaia_eval.registry import provider_entry
from gaia_eval.scoring.answers import CONCISE_ANSWER_SYSTEM_PROMPT, extract_final_answer

DEFAULT_MAX_STEPS = 8
DEFAULT_REPLY_TOKENS = 1024
DEFAULT_TASK_TIMEOUT_S = 300.0  # wall time for one task, every step and retry included
TOOL_INSTRUCTIONS = (
    "You can call two tools. Use `calculator` for every computation instead of doing arithmetic in your head, "
    "and `lookup` for any fact about the company Orrery Dynamics (its directory is the only source; never "
    "guess). Call tools as often as you need; when you know the answer, reply without calling a tool."
)


def _call_record(call: Any) -> dict[str, Any]:
    return {"id": call.id, "name": call.name, "arguments": call.arguments}


@dataclass(frozen=True)
class ReactRunner:
    """Sync runner (the harness calls it from a worker thread): each call runs its own event loop and its own
    provider client, so no connection pool is shared across loops."""

    settings: ProviderSettings
    max_steps: int = DEFAULT_MAX_STEPS
    max_tokens: int = DEFAULT_REPLY_TOKENS
    retry_policy: RetryPolicy = field(default_factory=RetryPolicy)
    task_timeout_s: float | None = DEFAULT_TASK_TIMEOUT_S
    # Whether the endpoint was ever reached / was found down, shared by every task's gate (each task has its own
    # event loop, so the gates cannot be one object): a server that is not running fails the suite in one
    # task's retries, not in every task's.
    _endpoint: dict[str, Any] = field(
        default_factory=lambda: {"reached": False, "down": None}, repr=False, compare=False
    )

    @property
    def system_prompt(self) -> str:
        # Tools first: "reply with only the final answer" alone would talk small models out of calling them.
        return f"{TOOL_INSTRUCTIONS}\n\nYour final reply, the one without tool calls: {CONCISE_ANSWER_SYSTEM_PROMPT}"

    def __call__(self, prompt: str) -> EvalRun:
        return run_async(self.solve(prompt))

    async def solve(self, prompt: str) -> EvalRun:
        provider = create_provider(self.settings)
        trajectory: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        spent: dict[str, Any] = {"steps": 0, "usage": Usage()}
        try:
            return await wait_within(self._loop(provider, prompt, trajectory, spent), self.task_timeout_s)
        except asyncio.TimeoutError:
            # What the task did until then stays on record; the task fails with the limit as its reason.
            return EvalRun(
                answer="",
                steps=spent["steps"],
                tool_errors=count_tool_errors(trajectory),
                trajectory=trajectory,
                usage=spent["usage"],
                error=f"no final answer within the task time limit of {self.task_timeout_s:g}s",
            )
        finally:
            await provider.aclose()

    async def _loop(
        self, provider: Provider, prompt: str, trajectory: list[dict[str, Any]], spent: dict[str, Any]
    ) -> EvalRun:
        messages: list[Message] = [Message(role="user", content=prompt)]
        usage = Usage()
        gate = ProviderGate(max_concurrency=1)
        gate.reached, gate.down = self._endpoint["reached"], self._endpoint["down"]
        for step in range(1, self.max_steps + 1):
            request = ChatRequest(
                messages=tuple(messages),
                system=self.system_prompt,
                tools=TOOL_SPECS,
                max_tokens=self.max_tokens,
                temperature=0.0,
            )
            outcome: Attempted[ChatResponse] = await call_with_retries(
                partial(provider.complete, request), gate, self.retry_policy
            )
            self._endpoint["reached"] = self._endpoint["reached"] or gate.reached
            self._endpoint["down"] = self._endpoint["down"] or gate.down
            if outcome.error is not None:
                raise outcome.error
            response = outcome.value
            assert response is not None, "a call with neither a value nor an error"
            usage = usage + response.usage
            spent["steps"], spent["usage"] = step, usage
            messages.append(Message(role="assistant", content=response.text, tool_calls=tuple(response.tool_calls)))
            trajectory.append(
                {
                    "role": "assistant",
                    "content": response.text,
                    "tool_calls": [_call_record(call) for call in response.tool_calls],
                }
            )
            if not response.tool_calls:
                return EvalRun(
                    answer=extract_final_answer(response.text),
                    steps=step,
                    tool_errors=count_tool_errors(trajectory),
                    trajectory=trajectory,
                    usage=usage,
                )
            for call in response.tool_calls:
                result = execute_tool(call.name, call.arguments)
                messages.append(Message(role="tool", content=result, tool_call_id=call.id))
                trajectory.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result})
        return EvalRun(
            answer="",
            steps=self.max_steps,
            tool_errors=count_tool_errors(trajectory),
            trajectory=trajectory,
            usage=usage,
            error=f"no final answer within the step limit of {self.max_steps}",
        )


def parse_react_spec(spec: str) -> ProviderSettings:
    """`PROVIDER:MODEL` or `PROVIDER:MODEL@BASE_URL` (the model name may itself hold colons: llama3.2:3b)."""
    provider, _, model = spec.partition(":")
    base_url = None
    head, at, tail = model.rpartition("@")
    if at and tail.startswith(("http://", "https://")):
        model, base_url = head, tail
    if not provider or not model:
        raise UsageError(
            f"bad runner 'react:{spec}'", field="--runner", fix="write react:PROVIDER:MODEL, e.g. react:ollama:qwen3:4b"
        )
    check_provider_name(provider, field="--runner")
    if not provider_entry(provider).follows_prompts:
        raise UsageError(
            f"the {provider} provider cannot call tools",
            field="--runner",
            fix="use an LLM provider, e.g. react:ollama:MODEL",
        )
    return ProviderSettings(provider=provider, model=model, base_url=base_url)


def react_runner_from_spec(
    spec: str,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    reply_tokens: int = DEFAULT_REPLY_TOKENS,
    attempt_timeout_s: float | None = None,
    task_timeout_s: float | None = DEFAULT_TASK_TIMEOUT_S,
) -> ReactRunner:
    """Raises MissingCredentialsError now, before any task runs, when a cloud key is not set. The limits are the
    knobs a slow local model needs: steps and wall time per task, reply budget and per-attempt timeout."""
    settings = parse_react_spec(spec)
    api_key_for(settings)
    policy = RetryPolicy() if attempt_timeout_s is None else RetryPolicy(timeout_s=attempt_timeout_s)
    return ReactRunner(settings, max_steps=max_steps, max_tokens=reply_tokens, retry_policy=policy,
                       task_timeout_s=task_timeout_s)
