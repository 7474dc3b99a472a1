"""The pipeline's stage commands: generate, groundtruth, batch-experiment, eval and report. Each parses its
options, calls one run_<stage> and prints what it wrote."""

from __future__ import annotations

from pathlib import Path

import click

from gaia_eval.cli.checks import one_kind
from gaia_eval.cli.choices import ProviderChoice, RegistryChoice, UseCaseChoice
from gaia_eval.cli.group import DEFAULTS, cli, print_summary, split_types
from gaia_eval.cli.lists import ListOptionsCommand
from gaia_eval.cli.options import (
    llm_call_options,
    model_call_options,
    print_batch_status,
    shard_option,
)
from gaia_eval.cli.workspace import remote_workspace
from gaia_eval.errors import RunFailed
from gaia_eval.safe_text import echo


@cli.command(cls=ListOptionsCommand, list_options=("--meeting-types", "--email-types", "--pdf-types"))
@model_call_options
@click.option(
    "--meeting-transcript", "kinds", flag_value="meeting", multiple=True, help="Generate meeting transcripts."
)
@click.option("--email", "kinds", flag_value="email", multiple=True, help="Generate business emails.")
@click.option(
    "--pdf",
    "kinds",
    flag_value="pdf",
    multiple=True,
    help="Generate PDF documents, each with a .txt twin (needs an LLM provider).",
)
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(path_type=Path),
    default=DEFAULTS["test_data"],
    help="Folder to write into (exactly there).",
)
@click.option(
    "--meeting-types",
    default=None,
    help="Meeting types, as words or commas: standup planning or standup,planning [default: all 8].",
)
@click.option("--email-types", default=None, help="Email types, as words or commas [default: all 8].")
@click.option("--pdf-types", default=None, help="PDF document types, as words or commas [default: all 8].")
@click.option("--count-per-type", type=int, default=1, help="Documents per type.")
@click.option(
    "--target-tokens",
    type=int,
    default=None,
    help="Target length in tokens [default: 1000 meetings, 800 emails, 1500 PDFs].",
)
@click.option("--seed", type=int, default=0, help="Random seed: same seed, same documents (with an LLM: same briefs).")
@click.option(
    "--provider",
    type=ProviderChoice(follows_prompts=True, extra=("offline",)),
    default="offline",
    help="Who writes the documents: the offline generator or an LLM.",
)
@click.option("--model", default=None, help="Model of the LLM provider (required with one).")
@click.option("--base-url", default=None, help="Endpoint of the LLM provider (a local server's URL, a proxy).")
@llm_call_options
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--force", is_flag=True, help="Regenerate even documents that are up to date.")
def generate(
    kinds,
    output_dir,
    meeting_types,
    email_types,
    pdf_types,
    count_per_type,
    target_tokens,
    seed,
    provider,
    model,
    base_url,
    concurrency,
    timeout,
    quiet,
    force,
    batch_status,
    call_options,
) -> None:
    """Generate synthetic documents (<type>_meeting.txt + .meta.json); offline ones have planted facts."""
    from gaia_eval.stages.generate import run_generate

    if batch_status:
        return print_batch_status(output_dir)
    kind = one_kind(kinds, {"meeting": meeting_types, "email": email_types, "pdf": pdf_types})
    types = split_types({"meeting": meeting_types, "email": email_types, "pdf": pdf_types}[kind])
    summary = run_generate(
        kind, output_dir, types=types, count_per_type=count_per_type, target_tokens=target_tokens, seed=seed,
        force=force, provider=provider, model=model, base_url=base_url, concurrency=concurrency,
        show_progress=False if quiet else None, timeout_s=timeout, call_options=call_options,
    )
    print_summary(summary)
    echo(f"  documents in {output_dir}")
    if summary.failed:
        raise RunFailed(
            f"{summary.failed} documents failed (listed above) and were not written; run the same command again "
            "to retry only them"
        )


@cli.command()
@model_call_options
@shard_option
@click.option(
    "-d",
    "--directory",
    type=click.Path(path_type=Path),
    default=DEFAULTS["test_data"],
    help="Folder of input documents.",
)
@click.option(
    "-f",
    "--file",
    "input_file",
    type=click.Path(path_type=Path),
    default=None,
    help="One input document (wins over -d).",
)
@click.option(
    "-p",
    "--pattern",
    default=None,
    help="Glob of input files inside -d (recursive); .txt, .md, .html and .pdf are read.  [default: *.txt and *.pdf; "
         "a PDF with a .txt twin is read once]",
)
@click.option("-u", "--use-case", type=UseCaseChoice(), default="summarization", help="What the ground truth is for.")
@click.option(
    "-o", "--output-dir", type=click.Path(path_type=Path), default=DEFAULTS["groundtruth"], help="Folder to write into."
)
@click.option(
    "--provider",
    type=ProviderChoice(follows_prompts=True, extra=("offline",)),
    default="offline",
    help="Who builds the ground truth: planted facts (offline) or an LLM.",
)
@click.option("--model", default=None, help="Model of the LLM provider (required with one).")
@click.option("--base-url", default=None, help="Endpoint of the LLM provider (a local server's URL, a proxy).")
@click.option(
    "--num-samples", type=click.IntRange(min=1), default=5, help="qa with an LLM: question-answer pairs per document."
)
@click.option(
    "--custom-prompt",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Jinja2 prompt file replacing the default LLM prompt (variables: document, doc_label, num_samples, use_case).",
)
@llm_call_options
@click.option(
    "--max-tokens",
    type=click.IntRange(min=256),
    default=4096,
    help="Output budget of each LLM reply (a repair turn gets twice).",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--force", is_flag=True, help="Rebuild even ground truth that is up to date.")
@remote_workspace(inputs=("directory", "input_file"), outputs=("output_dir",))
def groundtruth(
    directory,
    input_file,
    pattern,
    use_case,
    output_dir,
    provider,
    model,
    base_url,
    num_samples,
    custom_prompt,
    concurrency,
    max_tokens,
    timeout,
    quiet,
    force,
    batch_status,
    call_options,
    shard,
) -> None:
    """Build the expected answers for each input (offline: exactly from planted facts; or drafted by an LLM)."""
    from gaia_eval.stages.groundtruth.run import run_groundtruth

    if batch_status:
        return print_batch_status(output_dir)
    summary = run_groundtruth(
        input_dir=None if input_file else directory,
        input_file=input_file,
        pattern=pattern,
        use_case=use_case,
        output_dir=output_dir,
        force=force,
        provider=provider,
        model=model,
        base_url=base_url,
        num_samples=num_samples,
        custom_prompt=custom_prompt,
        concurrency=concurrency,
        max_tokens=max_tokens,
        show_progress=False if quiet else None, timeout_s=timeout,
        call_options=call_options,
        shard=shard,
    )
    print_summary(summary)
    if summary.failed:
        raise RunFailed(
            f"{summary.failed} files failed (listed above) and were not written; run the same command again to "
            "retry only them"
        )


@cli.command("batch-experiment", cls=ListOptionsCommand, repeat_options=("-i", "--input"))
@model_call_options
@shard_option
@click.option(
    "-c",
    "--config",
    "config_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Experiment config JSON [default: the offline baselines for the input's use case].",
)
@click.option(
    "-i",
    "--input",
    "input_paths",
    type=click.Path(path_type=Path),
    multiple=True,
    help="Ground truth (file or folder), or a folder of .txt documents; several files (a shell glob) each get a "
         "subfolder of -o.  [default: groundtruth]",
)
@click.option(
    "-o", "--output-dir", type=click.Path(path_type=Path), default=DEFAULTS["experiments"], help="Folder to write into."
)
@click.option("--force", is_flag=True, help="Re-run every item, even journaled or finished ones.")
@click.option("--retry-errors", is_flag=True, help="Re-run only the items that ended in error.")
@click.option(
    "--concurrency",
    type=click.IntRange(min=1),
    default=None,
    help="Max calls in flight per provider [default: config max_concurrency, else 16].",
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--create-sample-config",
    type=click.Path(path_type=Path),
    default=None,
    help="Write a valid sample config to PATH and exit.",
)
@remote_workspace(inputs=("input_paths", "config_path"), outputs=("output_dir",))
def batch_experiment(
    config_path, input_paths, output_dir, force, retry_errors, concurrency, quiet, create_sample_config, batch_status,
    call_options, shard,
) -> None:
    """Run every configured model over every item, concurrently and resumably."""
    from gaia_eval.stages.experiment.outputs import output_dirs_for_inputs
    from gaia_eval.stages.experiment.run import run_batch_experiment

    if batch_status:
        return print_batch_status(output_dir)

    if create_sample_config is not None:
        echo(f"wrote {write_sample_config_path(create_sample_config)}")
        return
    inputs = list(input_paths) or [DEFAULTS["groundtruth"]]
    errors = 0
    damaged: list[str] = []
    broken: list[str] = []
    for input_path, out_dir in output_dirs_for_inputs(inputs, output_dir):
        summary = run_batch_experiment(
            config_path,
            input_path,
            out_dir,
            force=force,
            retry_errors=retry_errors,
            concurrency=concurrency,
            show_progress=False if quiet else None,
            call_options=call_options,
            shard=shard,
        )
        print_summary(summary)
        echo(f"  items: {summary.items_line()}")
        errors += summary.items_error
        damaged += summary.damaged
        broken += summary.not_started
    for line in damaged:
        echo(f"  damaged: {line}", err=True)
    if damaged:
        raise RunFailed(
            f"{len(damaged)} experiment file(s) are damaged and were left out of the consolidated report (listed "
            "above); delete them and run the same command again to remake them"
        )
    if broken and not errors:  # an experiment that could not start (its provider's package): listed above
        raise RunFailed(f"{len(broken)} experiment(s) could not start (listed above); the others ran; fix them and "
                        "run the same command again to run only them")
    if errors:
        config = f"-c {config_path} " if config_path else ""
        command = (
            f"gaia-eval batch-experiment {config}{' '.join(f'-i {p}' for p in inputs)} -o {output_dir} --retry-errors"
        )
        raise RunFailed(f"{errors} items errored after retries; re-run only them with: {command}")


def write_sample_config_path(path: Path) -> Path:
    from gaia_eval.stages.experiment.run import write_sample_config

    return write_sample_config(path)


@cli.command("eval", cls=ListOptionsCommand, repeat_options=("-g", "--groundtruth"))
@shard_option
@model_call_options
@click.option(
    "-d",
    "--directory",
    type=click.Path(path_type=Path),
    default=DEFAULTS["experiments"],
    help="Folder of *.experiment.json and/or filled *.template.{json,csv,jsonl,xml}.",
)
@click.option(
    "-f",
    "--file",
    "experiment_file",
    type=click.Path(path_type=Path),
    default=None,
    help="One experiment file or filled template (wins over -d).",
)
@click.option(
    "-o", "--output-dir", type=click.Path(path_type=Path), default=DEFAULTS["evaluation"], help="Folder to write into."
)
@click.option(
    "-g",
    "--groundtruth",
    type=click.Path(path_type=Path),
    multiple=True,
    help="External ground truth (for experiments run on raw documents); several files (a shell glob) merge.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Re-score even evaluations that are up to date (with --judge: judge every item again).",
)
@click.option(
    "--incremental-update",
    is_flag=True,
    expose_value=False,
    help="Evaluate new and changed experiments, skip up-to-date ones, and update "
         "consolidated_evaluations_report.json from the changed evaluation files only (what a plain run does).",
)
@click.option(
    "--regenerate-report",
    is_flag=True,
    help="Only rebuild consolidated_evaluations_report.json from every evaluation file; nothing is scored.",
)
@click.option(
    "--judge",
    "judge_spec",
    default=None,
    metavar="PROVIDER:MODEL",
    help="Also grade with an LLM judge, e.g. anthropic:claude-sonnet-4-5, openai:gpt-4o-mini, ollama:llama3.2:3b "
         "(split on the first colon). The deterministic rubric always runs too.",
)
@click.option(
    "--judge-base-url", default=None, help="Base URL of the judge's endpoint (an OpenAI-compatible server, a proxy)."
)
@click.option(
    "--judge-samples",
    type=click.IntRange(min=1),
    default=None,
    help="Independent judgements per item; the rating is their median.  [default: 1]",
)
@click.option(
    "--judge-concurrency", type=click.IntRange(min=1), default=None, help="Max judge calls in flight.  [default: 8]"
)
@click.option(
    "--judge-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Per-attempt timeout of a judge call; a call silent for longer is retried.  [default: 60]",
)
@click.option(
    "--judge-criteria",
    default=None,
    metavar="NAMES|FILE.json",
    help="The judge's summary criteria instead of the meeting ones: names among coherence, consistency, fluency, "
         "relevance, or a JSON list of {id, label, question}.",
)
@click.option(
    "--scorer",
    "scorers",
    multiple=True,
    metavar="NAME|MODULE:FUNCTION|FILE.py:FUNCTION",
    help="Also rate every item with this scorer (repeatable): a registered name, module:function or "
         "path/to/file.py:function taking a ScoringInput and returning a value 0-1 (or a dict of them). Shown "
         "beside the use case's criteria; the grade stays the use case's own.",
)
@click.option(
    "--match-mode",
    type=RegistryChoice("MATCH_MODES"),
    default=None,
    help="How short answers to questions are matched against their expected answers: the modes of check-answer "
         "--mode [default: gaia]; judge asks the model --answer-judge names.",
)
@click.option(
    "--answer-judge",
    "answer_judge_spec",
    default=None,
    metavar="PROVIDER:MODEL",
    help="With --match-mode judge: the model that decides whether a short answer gives the expected one, e.g. "
         "openai:gpt-4o-mini (its endpoint: --judge-base-url; through the response cache and --batch).",
)
@remote_workspace(inputs=("directory", "experiment_file", "groundtruth"), outputs=("output_dir",))
def eval_command(
    directory, experiment_file, output_dir, groundtruth, force, regenerate_report,
    judge_spec, judge_base_url, judge_samples, judge_concurrency, judge_timeout, judge_criteria, batch_status,
    call_options, scorers, match_mode, shard, answer_judge_spec,
) -> None:
    """Score each experiment against ground truth (deterministic rubric), optionally also with an LLM judge."""
    from gaia_eval.errors import UsageError

    if batch_status:
        return print_batch_status(output_dir)
    if scorers and regenerate_report:
        raise UsageError("--scorer does nothing with --regenerate-report (it only rebuilds the index)",
                         field="--scorer", fix="run eval with --scorer and without --regenerate-report")
    if match_mode and regenerate_report:
        raise UsageError("--match-mode does nothing with --regenerate-report (it only rebuilds the index)",
                         field="--match-mode", fix="run eval with --match-mode and without --regenerate-report")
    from gaia_eval.stages.eval.parts import refuse_shard_of_index

    refuse_shard_of_index(shard, regenerate_report)
    from gaia_eval.scoring.judge import DEFAULT_JUDGE_CONCURRENCY, DEFAULT_JUDGE_TIMEOUT_S, parse_judge_spec
    from gaia_eval.stages.eval.answer_judge import answer_judge_settings
    from gaia_eval.stages.eval.run import LONG_FORM_NOTE, STANDALONE_NOTE, run_eval

    answer_judge = answer_judge_settings(match_mode, answer_judge_spec, judge_spec, judge_base_url, judge_timeout)
    judge = None
    if judge_spec is not None:
        judge = parse_judge_spec(
            judge_spec,
            base_url=judge_base_url,
            samples=judge_samples or 1,
            concurrency=judge_concurrency or DEFAULT_JUDGE_CONCURRENCY,
            timeout_s=judge_timeout or DEFAULT_JUDGE_TIMEOUT_S,
            criteria=judge_criteria,
        )
    elif any(v is not None for v in (judge_samples, judge_concurrency, judge_criteria)) or (
            answer_judge is None and (judge_base_url is not None or judge_timeout is not None)):
        raise UsageError("--judge-base-url, --judge-samples, --judge-concurrency, --judge-timeout and --judge-criteria "
                         "need --judge",
                         fix="add --judge PROVIDER:MODEL")
    summary = run_eval(
        experiment_dir=directory,
        experiment_file=experiment_file,
        output_dir=output_dir,
        groundtruth=list(groundtruth) or None,
        force=force,
        regenerate_report=regenerate_report,
        judge=judge,
        call_options=call_options,
        scorers=scorers,
        match_mode=match_mode,
        shard=shard,
        answer_judge=answer_judge,
    )
    if summary.standalone:
        echo(f"running standalone for {summary.standalone} experiment(s): no ground truth; {STANDALONE_NOTE}")
    if summary.long_form:
        echo(f"question answering in {summary.long_form} experiment(s): {summary.long_form_items} of "
             f"{summary.question_items} answers scored as {LONG_FORM_NOTE}")
    print_summary(summary)
    for line in summary.scorer_errors[:10]:
        echo(f"  {line}", err=True)
    if summary.failed:
        raise RunFailed(
            f"{summary.failed} evaluation(s) have judge calls that failed; run the same command again to call only them"
        )
    if summary.damaged:
        for line in summary.damaged:
            echo(f"  damaged: {line}", err=True)
        remake = (
            f"run `gaia-eval eval -d {experiment_file or directory} -o {output_dir}` (without --regenerate-report) to "
            "score their experiments again"
            if regenerate_report
            else "run the same command again to remake them"
        )
        raise RunFailed(f"{len(summary.damaged)} evaluation file(s) are damaged and were left out of the index (listed "
                        f"above); delete them, or {remake}")
    if summary.scorer_errors:
        listed = "the first 10 listed above" if len(summary.scorer_errors) > 10 else "listed above"
        raise RunFailed(f"a scorer failed on {len(summary.scorer_errors)} item(s) ({listed}), rated 'error' there; fix "
                        "the scorer and run the same command again to score them again")
    if summary.empty_responses:
        raise RunFailed(
            "some template responses are empty (listed above) and count as errors; paste them in and run the same "
            "command again"
        )
    if summary.unfilled:
        raise RunFailed(f"{len(summary.unfilled)} template(s) have no response filled in and were not scored (listed "
                        "above); paste the responses in and run the same command again")


@cli.command()
@click.option(
    "-d",
    "--eval-dir",
    type=click.Path(path_type=Path),
    default=DEFAULTS["evaluation"],
    help="Folder of *.experiment.eval.json.",
)
@click.option(
    "-o",
    "--output-file",
    type=click.Path(path_type=Path),
    default=DEFAULTS["report"],
    help="Markdown file (or an existing folder: FOLDER/report.md); .csv and .json are written beside it.",
)
@click.option(
    "--format",
    "formats",
    type=click.Choice(["md", "eee", "inspect"]),
    multiple=True,
    default=("md",),
    show_default=True,
    help="What to write (repeatable): md (the report, .csv, .json), eee (Every Eval Ever records in FOLDER/eee/data/"
    "..., FOLDER being -o's folder), inspect (one Inspect log per evaluation in FOLDER/inspect/; `import-results` "
    "of one restores the experiment and ground truth it came from).",
)
@remote_workspace(inputs=("eval_dir",), file_outputs=("output_file",))
def report(eval_dir, output_file, formats) -> None:
    """Write the markdown report (plus CSV and JSON) with the model performance table."""
    from gaia_eval.stages.report.run import run_report

    summary = run_report(eval_dir, output_file, formats)
    print_summary(summary, show_outputs=True)

