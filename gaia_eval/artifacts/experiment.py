"""Artifacts of batch-experiment: the experiment config, the per-experiment results file and the run summary."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, JsonValue, field_validator, model_serializer, model_validator

from gaia_eval.artifacts.base import Artifact, Count, Finite, NonNegative, Strict, Usage
from gaia_eval.artifacts.groundtruth import QAPair, SourceDocument, Summaries, UseCase
from gaia_eval.artifacts.names import NameClaims, file_stem, safe_name  # noqa: F401 - safe_name re-exported
from gaia_eval.errors import InputError

CostStatus = Literal["priced", "local", "unpriced", "partial"]


EXPERIMENT_SUFFIX = ".experiment.json"


def experiment_file(folder: Path, name: str, *, file: str | Path | None = None, field: str | None = None) -> Path:
    """Where the experiment named `name` (data: a config's name, a system, a template's name) is written."""
    return (
        Path(folder)
        / f"{file_stem(name, what='experiment name', style='slug', file=file, field=field)}{EXPERIMENT_SUFFIX}"
    )


class ExperimentParameters(Strict):
    combined_prompt: bool = False  # one call returning every summary style as JSON, instead of one per style
    stop: list[str] | None = None
    top_p: Finite | None = None
    seed: int | None = None


class PriceOverride(Strict):
    input_per_mtok: NonNegative  # USD per million input tokens
    output_per_mtok: NonNegative


def url_problem(url: str) -> str | None:
    """Why `url` cannot be a model server's base URL (None: it can): http(s), a host, a port in range."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it checks the port
    except ValueError as exc:
        return str(exc)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "it needs http:// or https:// and a host"
    return None


class ExperimentSpec(Strict):
    name: str
    provider: str
    model: str
    system_prompt: str = ""
    max_tokens: Count = Field(default=1024, gt=0)
    temperature: Finite = Field(default=0.0, ge=0.0, le=2.0)
    parameters: ExperimentParameters = Field(default_factory=ExperimentParameters)
    base_url: str | None = None
    api_key_env: str | None = None  # the NAME of an environment variable holding the key; never the key
    max_concurrency: Count | None = Field(default=None, gt=0)
    # At least one call every 10 minutes: a rate such as 1e-300 paced the first call ~1e301 s away, a silent hang.
    requests_per_minute: Finite | None = Field(default=None, ge=0.1)
    max_retries: Count | None = Field(default=None, ge=0)
    timeout_s: Finite | None = Field(default=None, gt=0)
    # The model's context window in tokens; None: asked of a local server (llama.cpp reports it), else unlimited.
    context_tokens: Count | None = Field(default=None, gt=0)
    price: PriceOverride | None = None  # overrides the shipped pricing table for this model

    @field_validator("base_url")
    @classmethod
    def _server_url(cls, value: str | None) -> str | None:
        problem = url_problem(value) if value else None
        if problem:
            raise ValueError(f"{value!r} is not a server URL ({problem}); e.g. http://127.0.0.1:8080/v1")
        return value

    @field_validator("api_key_env")
    @classmethod
    def _is_a_variable_name(cls, v: str | None) -> str | None:
        # Never echo the value: a key pasted here by mistake must not reach an error message or a log.
        if v is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v):
            raise ValueError("must be the NAME of an environment variable (e.g. MY_SERVER_KEY), not a key")
        return v

    @field_validator("name")
    @classmethod
    def _name_is_usable(cls, v: str) -> str:
        try:
            file_stem(v, what="name", style="slug")
        except InputError as exc:
            raise ValueError(exc.message) from None
        return v

    def result_settings(self) -> dict[str, Any]:
        """The settings that shape a model's answers (not its pacing): fingerprinted per item, so changing
        concurrency or retries never invalidates finished work."""
        return self.model_dump(
            mode="json",
            include={"provider", "model", "system_prompt", "max_tokens", "temperature", "parameters", "base_url"}
            | ({"context_tokens"} if self.context_tokens is not None else set()),
        )



class ExperimentConfig(Strict):
    description: str = ""
    experiments: list[ExperimentSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_names(self) -> ExperimentConfig:
        claims = NameClaims("experiment name", ".experiment.json")
        for i, exp in enumerate(self.experiments):
            try:
                claims.claim(exp.name, file_stem(exp.name, what="name", style="slug"))
            except InputError as exc:
                raise ValueError(f"experiments[{i}].name '{exp.name}' duplicates another: {exc.message} (names "
                                 "must differ after file-name cleaning, ignoring case)") from None
        return self


class ImportedScore(Strict):
    """One score another tool gave an item (Inspect's scorer, a promptfoo assertion, an lm-eval metric)."""

    name: str
    value: Finite | None  # the number the tool's own metrics average; None when its value is no number
    passed: bool | None = None  # the tool's own verdict, where it says one
    raw: JsonValue = None  # the value (or score object) as the tool wrote it
    explanation: str | None = None


class ImportedItem(Strict):
    """What `import-results` keeps of a foreign sample beyond gaia-eval's own fields: the tool's scores, shown
    beside gaia-eval's under the tool's name, and everything else it recorded, verbatim (`extra`)."""

    tool: str  # "inspect", "promptfoo", "lm-eval"
    sample_id: str
    epoch: Count = 1
    scores: list[ImportedScore] = Field(default_factory=list)
    extra: dict[str, JsonValue] = Field(default_factory=dict)


class ImportedRun(Strict):
    """The run-level record of an imported experiment: the tool's task, model and headline figures, and what else
    its file said."""

    tool: str
    task: str
    model: str
    file: str  # the source file as given
    aggregates: dict[str, Finite] = Field(default_factory=dict)  # "scorer/metric" -> value, as the tool computed
    extra: dict[str, JsonValue] = Field(default_factory=dict)


class ItemResult(Strict):
    item_id: str  # "<doc>" for summarization, "<doc>#<qa id>" for qa
    source: str  # key into Experiment.sources
    fingerprint: str  # item content + result settings: a journaled result is reused only if it matches
    status: Literal["ok", "error"]
    error: str | None = None
    query: str | None = None
    answer: str | None = None
    summaries: Summaries | None = None
    groundtruth_answer: QAPair | None = None
    groundtruth_summaries: Summaries | None = None
    usage: Usage = Field(default_factory=Usage)
    cost_usd: NonNegative | None = None
    cost_status: CostStatus = "local"
    latency_s: NonNegative = 0.0  # the model's reply time of the successful attempts (summed over the item's calls)
    # From the first attempt to the last reply, retries, hangs and backoff waits included: what the item cost in
    # time. Equal to latency_s when nothing was retried.
    time_to_success_s: NonNegative = 0.0
    calls: Count = 0
    attempts: Count = 0
    retries: list[str] = Field(default_factory=list)
    finish_reason: str | None = None
    # Calls answered from the response cache cost nothing: `cached` when every call was, and the tokens of
    # those that were (cost is computed on usage - cached_usage).
    cached: bool = False
    cached_usage: Usage = Field(default_factory=Usage)
    # How a document longer than the model's context was sent: "map-reduce over N chunks" or "K of N chunks
    # retrieved for the question"; None when it was sent whole.
    chunked: str | None = None
    # The provider batch (--batch) that answered the item's calls, priced at the batch price; None: synchronous.
    batch_id: str | None = None
    imported: ImportedItem | None = None  # import-results only (absent elsewhere, so other files keep their bytes)

    @model_serializer(mode="wrap")
    def _omit_absent_import(self, handler):
        data = handler(self)
        if data.get("imported") is None:
            data.pop("imported", None)
        return data

    @property
    def paid_usage(self) -> Usage:
        return self.usage - self.cached_usage


class ExperimentTotals(Strict):
    items: Count
    ok: Count
    errors: Count
    usage: Usage
    cost_usd: NonNegative | None
    input_cost_usd: NonNegative | None
    output_cost_usd: NonNegative | None
    cost_status: CostStatus
    latency_p50_s: NonNegative
    latency_p95_s: NonNegative
    latency_max_s: NonNegative
    latency_mean_s: NonNegative
    wall_time_s: NonNegative
    time_to_success_p50_s: NonNegative = 0.0
    time_to_success_p95_s: NonNegative = 0.0
    retried_items: Count = 0  # ok items that needed more than one attempt for some call
    throughput_items_per_s: NonNegative
    batched_items: Count = 0  # items answered through a provider batch (--batch), at the batch price


class ExperimentHeader(Artifact):
    """An experiment file's fields but its sources and items (read one at a time from a big file: stream.py)."""

    kind: Literal["experiment"] = "experiment"
    experiment_name: str
    safe_name: str
    use_case: UseCase
    spec: ExperimentSpec
    # Where the model was called: the config's base_url, else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the
    # preset's or the SDK's default; None for an offline baseline (and in files written before it was recorded).
    base_url: str | None = None
    input_path: str
    groundtruth: Literal["embedded", "none"]
    pricing: str  # "local", "unpriced" or the pricing entry used, with its source
    batch_pricing: str | None = None  # the batch price charged for items with a batch_id, with its source
    totals: ExperimentTotals
    started_at: datetime
    finished_at: datetime
    imported: ImportedRun | None = None  # import-results only

    @model_serializer(mode="wrap")
    def _omit_absent_import(self, handler):
        data = handler(self)
        if data.get("imported") is None:
            data.pop("imported", None)
        return data


class Experiment(ExperimentHeader):
    """`<SafeName>.experiment.json`: every item's result for one experiment, with the ground truth embedded."""

    sources: dict[str, SourceDocument]
    items: list[ItemResult] = Field(min_length=1)


class ExperimentRunEntry(Strict):
    experiment_name: str
    file: str
    fingerprint: str
    provider: str
    model: str
    use_case: UseCase
    items: Count
    errors: Count
    usage: Usage
    cost_usd: NonNegative | None
    cost_status: CostStatus
    wall_time_s: NonNegative


class ConsolidatedExperiments(Artifact):
    """`consolidated_experiments_report.json`, rebuilt from the experiment files of the output folder."""

    kind: Literal["consolidated_experiments"] = "consolidated_experiments"
    total_experiments: Count
    total_usage: Usage
    total_cost_usd: NonNegative | None
    experiments: list[ExperimentRunEntry]
