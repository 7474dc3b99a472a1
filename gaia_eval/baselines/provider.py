"""Provider `baseline`: honest offline (non-LLM) systems behind the provider protocol, for $0 reference rows.

Models and what they serve:
- `lead`:      summarization by position (first sentences, keyword hits, labels in order, frequent words);
               qa by returning the best BM25-matching sentence verbatim.
- `textrank`:  summarization by TextRank sentence ranking plus rule-based participants, decisions, action
               items and topics; a qa request is served by `retrieval`.
- `retrieval`: qa by BM25 retrieval plus a typed span (name, date, amount, count, percent, list, clause);
               a summarization request is served by `textrank`.

The baselines cannot read prompts: they work from `ChatRequest.task` (kind "summarize", "summarize_all" or
"answer") and see only the document text. Tokens are reported as 0 because no tokenizer is involved.
"""

from __future__ import annotations

import asyncio
import json
import time

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES
from gaia_eval.baselines.qa import answer_question
from gaia_eval.baselines.summarize import render_style, summarize
from gaia_eval.errors import BadRequestError, ConfigError
from gaia_eval.providers.base import ChatRequest, ChatResponse, TaskContext

MODELS: tuple[str, ...] = ("lead", "textrank", "retrieval")
SUMMARIZER_FOR: dict[str, str] = {"lead": "lead", "textrank": "textrank", "retrieval": "textrank"}
ANSWERER_FOR: dict[str, str] = {"lead": "lead", "textrank": "retrieval", "retrieval": "retrieval"}


class BaselineProvider:
    name = "baseline"
    is_local = True

    def __init__(self, model: str) -> None:
        if model not in MODELS:
            raise ConfigError(
                f"unknown baseline model '{model}'",
                field="model",
                fix=f"use one of: {', '.join(MODELS)} (summarization: lead, textrank; qa: lead, retrieval)",
            )
        self.model = model

    async def complete(self, request: ChatRequest) -> ChatResponse:
        task = request.task
        if task is None or task.kind == "generic":
            raise BadRequestError(
                f"the baseline provider only serves gaia-eval's summarization and qa tasks, not free-form "
                f"prompts (model '{self.model}')",
                fix="use an LLM provider for this experiment, or run the baseline on summarization/qa",
            )
        started = time.perf_counter()
        # The work is CPU-bound but short; a worker thread keeps the event loop's timers responsive meanwhile.
        text, data = await asyncio.to_thread(self._serve, task)
        return ChatResponse(
            text=text,
            usage=Usage(input_tokens=0, output_tokens=0),
            latency_s=time.perf_counter() - started,
            finish_reason="stop",
            model=self.model,
            data=data,
        )

    def _serve(self, task: TaskContext) -> tuple[str, dict[str, object] | None]:
        if task.kind == "summarize":
            if task.style not in SUMMARY_STYLES:
                raise BadRequestError(
                    f"unknown summary style {task.style!r}",
                    field="style",
                    fix=f"use one of: {', '.join(SUMMARY_STYLES)}",
                )
            summaries = summarize(SUMMARIZER_FOR[self.model], task.document)
            return render_style(summaries, task.style), None
        if task.kind == "summarize_all":
            data = summarize(SUMMARIZER_FOR[self.model], task.document).model_dump(mode="json")
            return json.dumps(data, ensure_ascii=False), data
        if task.kind == "answer":
            if not task.question:
                raise BadRequestError("an answer task needs a question", field="question",
                                      fix="pass TaskContext(kind='answer', question=...)")
            return answer_question(ANSWERER_FOR[self.model], task.document, task.question), None
        raise BadRequestError(f"unknown task kind {task.kind!r}", field="task.kind",
                              fix="use summarize, summarize_all or answer")

    async def aclose(self) -> None:
        """Nothing to release: no connections or processes."""


def create(settings: object, api_key: str | None) -> BaselineProvider:
    """The registry's factory: a baseline needs only its model name (lead, textrank, retrieval...)."""
    return BaselineProvider(settings.model)  # type: ignore[attr-defined]
