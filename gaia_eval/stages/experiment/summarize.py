"""`summarize`: the reference tool's one-file summariser, with the same prompts, providers, retries and pricing
as batch-experiment (one file, the styles asked for, printed; JSON with -o). Offline it runs with a baseline."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval import usecases
from gaia_eval.artifacts.experiment import ExperimentParameters, ExperimentSpec
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES
from gaia_eval.artifacts.inputs import refuse_special_file
from gaia_eval.artifacts.store import fingerprint_bytes, write_json
from gaia_eval.concurrency import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_S, ProviderGate, RetryPolicy, run_async
from gaia_eval.errors import InputError, RunFailed, UsageError
from gaia_eval.providers import ProviderSettings, check_provider_name, create_provider
from gaia_eval.providers.pricing import cost_of, lookup_price
from gaia_eval.stages.experiment.inputs import WorkItem
from gaia_eval.stages.experiment.solvers import LIST_STYLES, STYLE_INSTRUCTIONS, Solver

# The reference tool's style names, and ours, to the summary keys gaia-eval writes.
STYLE_ALIASES: dict[str, str] = {
    "brief": "executive_summary",
    "executive": "executive_summary",
    "detailed": "detailed_summary",
    "bullets": "topics_discussed",
    "topics": "topics_discussed",
    "action_items": "action_items",
    "actions": "action_items",
    "decisions": "key_decisions",
    "participants": "participants",
    **{style: style for style in SUMMARY_STYLES},
}


def resolve_styles(names: list[str] | None) -> tuple[str, ...]:
    """`all` (or nothing) is every style; otherwise each name or alias once, in the order given."""
    if not names or "all" in names:
        return SUMMARY_STYLES
    unknown = [n for n in names if n not in STYLE_ALIASES]
    if unknown:
        raise UsageError(
            f"unknown style '{unknown[0]}'",
            field="--styles",
            fix="use all, or any of: " + ", ".join(sorted(STYLE_ALIASES)),
        )
    return tuple(dict.fromkeys(STYLE_ALIASES[n] for n in names))


def summarize_use_case(path: Path) -> str:
    """Summarization, or the kin of it that the file is named after (`*email*`: the email prompts)."""
    summarization = usecases.get(usecases.default_for("summaries"))
    return next((kin for kin in summarization.kin if kin in path.name.lower()), summarization.name)


@dataclass
class SummarizeResult:
    styles: dict[str, Any]
    data: dict[str, Any]

    def render(self) -> str:
        blocks = []
        for style, value in self.styles.items():
            body = "\n".join(f"- {v}" for v in value) if isinstance(value, list) else value
            blocks.append(f"## {STYLE_INSTRUCTIONS[style][0].capitalize()}\n\n{body or '(none)'}")
        return "\n\n".join(blocks)


def run_summarize(
    input_file: Path,
    *,
    styles: list[str] | None = None,
    combined_prompt: bool = False,
    provider: str = "baseline",
    model: str | None = None,
    base_url: str | None = None,
    max_tokens: int = 1024,
    timeout_s: float | None = None,
    output: Path | None = None,
) -> SummarizeResult:
    from gaia_eval.extract import extract_text

    path = Path(input_file)
    refuse_special_file(path, "a document")
    if not path.is_file():
        raise InputError(
            "is a folder, not a file" if path.is_dir() else "not found",
            file=path,
            fix=f"pass one document to summarize with -i FILE (for a folder: `gaia-eval batch-experiment -i {path}`)"
            if path.is_dir()
            else "pass the document to summarize with -i FILE",
        )
    check_provider_name(provider, field="--provider")
    if model is None:
        if provider != "baseline":
            raise UsageError("needs --model with an LLM provider", field="--model", fix="e.g. --model claude-haiku-4-5")
        model = "textrank"
    wanted = resolve_styles(styles)
    text = extract_text(path).text
    use_case = summarize_use_case(path)
    spec = ExperimentSpec(
        name="summarize", provider=provider, model=model, base_url=base_url, max_tokens=max_tokens,
        parameters=ExperimentParameters(combined_prompt=combined_prompt),
    )
    timeout_s = timeout_s or DEFAULT_TIMEOUT_S
    llm = create_provider(ProviderSettings(provider=provider, model=model, base_url=base_url, timeout_s=timeout_s))
    solver = Solver(spec, use_case, llm, ProviderGate(len(wanted)),
                    RetryPolicy(max_retries=DEFAULT_MAX_RETRIES, timeout_s=timeout_s))
    item = WorkItem(path.stem, path.stem, None, None, None, fingerprint_bytes(text.encode()))

    async def go():
        try:
            return await solver.solve(item, text, wanted)
        finally:
            await llm.aclose()

    outcome = run_async(go())
    if outcome.error is not None or outcome.summaries is None:
        raise RunFailed(f"{path}: the summary failed: {outcome.error}")
    quote = lookup_price(provider, model)
    cost, _, _ = cost_of(outcome.usage, quote)
    values = {style: getattr(outcome.summaries, style) for style in wanted}
    data = {
        "file": path.as_posix(),
        "provider": provider,
        "model": model,
        "combined_prompt": combined_prompt,
        "summaries": values,
        "usage": outcome.usage.model_dump(),
        "cost_usd": cost,
        "cost_status": quote.status,
        "calls": outcome.calls,
        "latency_s": round(outcome.latency_s, 4),
        "list_styles": [s for s in wanted if s in LIST_STYLES],
    }
    if output is not None:
        write_json(Path(output), data)
    return SummarizeResult(values, data)
