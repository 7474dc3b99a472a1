"""The commands around the pipeline: summarize, quickstart, bench, check-answer, visualize and meta-eval (bringing
your own data in and out is in cli/data.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from gaia_eval.cli.checks import check_named_folders
from gaia_eval.cli.choices import ProviderChoice, RegistryChoice, UseCaseChoice
from gaia_eval.cli.group import cli, split_types
from gaia_eval.cli.lists import ListOptionsCommand
from gaia_eval.cli.options import model_call_options, print_batch_status, shard_option
from gaia_eval.cli.workspace import VIEWER_FOLDERS, remote_workspace
from gaia_eval.errors import RunFailed
from gaia_eval.safe_text import echo, echo_json


@cli.command(cls=ListOptionsCommand, list_options=("--styles",))
@click.option(
    "-i",
    "--input",
    "input_file",
    type=click.Path(path_type=Path),
    required=True,
    help="The document to summarize (.txt, .md, .html or .pdf).",
)
@click.option(
    "--styles",
    default="all",
    help="Styles, as words or commas: all, or brief detailed bullets executive participants action_items (and "
         "gaia-eval's own names).",
)
@click.option(
    "--combined-prompt",
    is_flag=True,
    help="One call for every style (cheaper, less focused) instead of one call per style.",
)
@click.option(
    "--provider", type=ProviderChoice(), default="baseline", help="Who summarizes: an offline baseline or an LLM."
)
@click.option("--model", default=None, help="Model of the provider [default with baseline: textrank].")
@click.option("--base-url", default=None, help="Endpoint of the provider (a local server's URL, a proxy).")
@click.option("--max-tokens", type=click.IntRange(min=1), default=1024, help="Output budget of each reply.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Per-attempt timeout of an LLM call; a call silent for longer is retried.  [default: 120]",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the summaries, usage and cost as JSON.",
)
def summarize(input_file, styles, combined_prompt, provider, model, base_url, max_tokens, timeout, output) -> None:
    """Summarize one file in the styles asked for, with batch-experiment's prompts and providers."""
    from gaia_eval.stages.experiment.summarize import run_summarize

    result = run_summarize(
        input_file, styles=split_types(styles), combined_prompt=combined_prompt, provider=provider, model=model,
        base_url=base_url, max_tokens=max_tokens, output=output, timeout_s=timeout,
    )
    echo(result.render())
    if output is not None:
        echo(f"\nwrote {output}")


@cli.command()
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(path_type=Path),
    default=Path("quickstart"),
    help="Folder for every artifact of the run.",
)
def quickstart(output_dir) -> None:
    """Run all five stages offline on a small generated set and print the report's path."""
    from gaia_eval.stages.quickstart import run_quickstart

    result = run_quickstart(output_dir, echo=echo)
    echo(f"report: {result}")
    echo(f"browse it: gaia-eval visualize --workspace {shlex.quote(str(output_dir))}")


@cli.command()
@click.argument("suite")
@click.option(
    "--runner",
    default="builtin:calculator",
    help="A runner's name (calculator, also builtin:calculator; packages add names) | [python:]module:function | "
         "[python:]path/to/file.py:function | cmd:'shell command' | react:PROVIDER:MODEL[@BASE_URL].",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Baseline to gate against [default: baselines/<suite>.json next to the suite, when present].",
)
@click.option(
    "--save-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write this run's numbers as the new baseline (deliberate re-baselining; never automatic).",
)
@click.option(
    "--tolerance", type=float, default=0.05, help="Allowed drop in success rate below the baseline (0.05 = 5 points)."
)
@click.option(
    "--max-steps-increase", type=float, default=None, help="Also fail when avg steps per task rise by more than this."
)
@click.option(
    "--max-tool-error-increase",
    type=float,
    default=None,
    help="Also fail when the tool-error rate rises by more than this (0.05 = 5 points).",
)
@click.option(
    "--repeats", type=click.IntRange(min=1), default=1, help="Run each task K times: per-task pass rates and pass^k."
)
@click.option("--concurrency", type=click.IntRange(min=1), default=4, help="Tasks in flight at once.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write every result, trajectories included, as JSON.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 2 instead of 0 when the runner's API key is not set (the default when CI is set).",
)
@click.option(
    "--allow-skip", is_flag=True, help="With CI set, exit 0 when the runner's API key is not set (nothing gated)."
)
@click.option(
    "--max-steps",
    type=click.IntRange(min=1),
    default=8,
    help="react: model turns per task before it fails with that reason.",
)
@click.option(
    "--task-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=300.0,
    metavar="SECONDS",
    help="react: wall time per task (steps and retries included) before it fails with that reason.",
)
@click.option(
    "--reply-tokens",
    type=click.IntRange(min=1),
    default=1024,
    help="react: reply budget (max_tokens) of each model turn.",
)
@click.option(
    "--attempt-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    metavar="SECONDS",
    help="react: per-attempt timeout of a model call (raise it for a slow local model).",
)
@click.pass_context
def bench(
    ctx,
    suite,
    runner,
    baseline,
    save_baseline,
    tolerance,
    max_steps_increase,
    max_tool_error_increase,
    repeats,
    concurrency,
    output,
    strict,
    allow_skip,
    max_steps,
    task_timeout,
    reply_tokens,
    attempt_timeout,
) -> None:
    """Run an agent benchmark SUITE (a builtin name or a .json/.jsonl file) and gate it on a baseline.

    `gaia-eval bench list` lists the builtin suites. Prints the per-task table, success rate, average
    steps and tool-error rate. Exit 0 OK (or skipped: API key not set), 1 REGRESSION, 2 bad input or a
    runner that cannot run.
    """
    from gaia_eval.bench.cli_support import run_bench_command

    ctx.exit(
        run_bench_command(
            suite, runner=runner, baseline=baseline, save_baseline_to=save_baseline, tolerance=tolerance,
            repeats=repeats, concurrency=concurrency, output=output, strict=strict,
            max_steps_increase=max_steps_increase, max_tool_error_increase=max_tool_error_increase,
            allow_skip=allow_skip,
            react_options={"max_steps": max_steps, "task_timeout_s": task_timeout, "reply_tokens": reply_tokens,
                           "attempt_timeout_s": attempt_timeout},
        )
    )


@cli.command("check-answer")
@click.argument("expected", required=False)
@click.argument("answer", required=False)
@click.option(
    "--mode",
    type=RegistryChoice("MATCH_MODES"),
    default="gaia",
    help="How to compare (gaia: strict on the value, tolerant of format; packages add modes).",
)
@click.option(
    "--rel-tol",
    type=click.FloatRange(min=0),
    default=None,
    help="Relative tolerance for numbers [default: float rounding only].",
)
@click.option("--abs-tol", type=click.FloatRange(min=0), default=None, help="Absolute tolerance for numbers.")
@click.option(
    "--threshold", type=float, default=None, help="Pass mark of f1 (0..1), fuzzy (0..100) or semantic (-1..1)."
)
@click.option("--unordered", is_flag=True, help="List items may come in any order.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option(
    "--jsonl",
    "jsonl_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Check every line of a JSONL file ('-' for stdin) and print one JSON result per line.",
)
@click.option(
    "--judge",
    "judge_spec",
    default=None,
    metavar="PROVIDER:MODEL",
    help="With --mode judge: the model that grades, e.g. openai:gpt-4o-mini or llamacpp:gemma-3-270m.",
)
@click.option("--judge-base-url", default=None, help="With --mode judge: base URL of the judge's endpoint.")
@click.option(
    "--judge-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="With --mode judge: per-attempt timeout of a judge call.",
)
@click.option("--question", default=None, help="The question EXPECTED answers (gaia reads units from it; the judge "
              "is shown it).")
@model_call_options
@click.pass_context
def check_answer(ctx, expected, answer, mode, rel_tol, abs_tol, threshold, unordered, as_json, jsonl_path, judge_spec,
                 judge_base_url, judge_timeout, question, call_options, batch_status) -> None:
    """Check ANSWER against EXPECTED and explain the verdict: exit 0 when correct, 1 when not.

    With --jsonl FILE, each line is {"expected", "answer"} with optional "id", "question", "mode" and "options";
    one JSON result per line goes to stdout in the same order, and the exit code is 0. The flags set defaults
    that apply where a line's mode accepts them. --mode judge asks the model --judge names instead (through the
    response cache, or --batch).
    """
    from gaia_eval.scoring.answers import check_answers_file, format_verdict, match_answer

    if mode == "judge" or judge_spec is not None or batch_status:
        from gaia_eval.stages.check_answer_judge import judge_journal_folder, run_check_answer_judge

        if batch_status:
            return print_batch_status(judge_journal_folder(jsonl_path))
        ctx.exit(run_check_answer_judge(expected, answer, jsonl_path, judge_spec, judge_base_url, judge_timeout,
                                        question, call_options, as_json, mode, echo))
    options = {"rel_tol": rel_tol, "abs_tol": abs_tol, "threshold": threshold, "ordered": False if unordered else None,
               "question": question if mode == "gaia" else None}
    options = {name: value for name, value in options.items() if value is not None}
    if jsonl_path is not None:
        if expected is not None or answer is not None:
            raise click.UsageError("give either EXPECTED ANSWER or --jsonl FILE, not both")
        for row in check_answers_file(jsonl_path, default_mode=mode, default_options=options):
            echo_json(row)
        return
    if expected is None or answer is None:
        raise click.UsageError(
            "give EXPECTED and ANSWER (e.g. check-answer 1927 'FINAL ANSWER: 1,927'), or --jsonl FILE"
        )
    result = match_answer(expected, answer, mode, **options)
    if as_json:
        echo_json(result.to_dict())
    else:
        echo(format_verdict(result))
    ctx.exit(0 if result.correct else 1)


@cli.command()
@click.option(
    "--workspace",
    type=click.Path(path_type=Path),
    default=Path("."),
    help="Folder holding test_data/, groundtruth/, experiments/, evaluation/, reports/.",
)
@click.option("--host", default="127.0.0.1", help="Interface to bind (keep 127.0.0.1 unless you mean to share it).")
@click.option("--port", type=click.IntRange(0, 65535), default=3000, help="Port (0 picks a free one).")
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="With --host 0.0.0.0: a host name (or IP) the browsers of others will use to reach this viewer; repeatable; "
         "exact match, any port. Others are refused (421) against DNS rebinding.",
)
@click.option("--no-browser", is_flag=True, help="Do not open a browser.")
@click.option("--test-data-dir", type=click.Path(path_type=Path), default=None, help="Override workspace/test_data.")
@click.option(
    "--groundtruth-dir", type=click.Path(path_type=Path), default=None, help="Override workspace/groundtruth."
)
@click.option(
    "--experiments-dir", type=click.Path(path_type=Path), default=None, help="Override workspace/experiments."
)
@click.option("--evaluations-dir", type=click.Path(path_type=Path), default=None, help="Override workspace/evaluation.")
@click.option("--reports-dir", type=click.Path(path_type=Path), default=None, help="Override workspace/reports.")
@remote_workspace(inputs=VIEWER_FOLDERS)
def visualize(
    workspace,
    host,
    port,
    allow_hosts,
    no_browser,
    test_data_dir,
    groundtruth_dir,
    experiments_dir,
    evaluations_dir,
    reports_dir,
) -> None:
    """Browse documents, ground truth, experiments, evaluations and reports in a local web viewer."""
    from gaia_eval.errors import InputError
    from gaia_eval.visualize import run_visualize

    if not workspace.is_dir():
        raise InputError("folder not found", file=workspace, field="--workspace",
                         fix="pass the folder that holds experiments/ and evaluation/ (or leave --workspace out for .)")
    folders = {"test_data": test_data_dir, "groundtruth": groundtruth_dir, "experiments": experiments_dir,
               "evaluation": evaluations_dir, "reports": reports_dir}
    check_named_folders(workspace, folders)
    run_visualize(workspace, host=host, port=port, allow_hosts=allow_hosts, open_browser=not no_browser,
                  folders=folders, echo=echo)


@cli.command("meta-eval")
@shard_option
@click.argument("ratings", type=click.Path(path_type=Path), required=False)
@click.option(
    "-e", "--evaluations",
    "eval_root",
    type=click.Path(path_type=Path),
    default=None,
    help="Measure the scores of this evaluation folder against your own ratings of its outputs (annotate's log, or "
         "RATINGS: the filled create-template --ratings CSV); writes meta_eval.<use_case>.json in it, where report "
         "looks.",
)
@click.option(
    "-u",
    "--use-case",
    type=UseCaseChoice(),
    default=None,
    help="With --evaluations: the use case [default: the only one].",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the result as JSON here (the markdown goes beside it as .md). evaluation/meta_eval.json is where "
         "`report` looks.",
)
@click.option(
    "--markdown", "markdown_file", type=click.Path(path_type=Path), default=None, help="Write the markdown table here."
)
@click.option(
    "--metrics",
    default=None,
    help="Comma-separated scorers to measure (the baselines length and rouge1_recall always run) [default: every "
         "applicable one].",
)
@click.option(
    "--exclude-system",
    "exclude_systems",
    multiple=True,
    metavar="NAME",
    help="Leave this system out, e.g. the one whose output is the reference (repeatable).",
)
@click.option(
    "--judge",
    "judge_spec",
    default=None,
    metavar="PROVIDER:MODEL",
    help="Also measure the LLM judge, e.g. anthropic:claude-sonnet-4-5 (one call per summary).",
)
@click.option("--judge-base-url", default=None, help="Base URL of the judge's endpoint.")
@click.option(
    "--judge-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Per-attempt timeout of a judge call (raise it for a slow local model).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Measure on N items (documents, every system's summary of each) drawn at random: what a judge costs grows "
         "with every summary.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Which items --limit draws.")
@click.option(
    "--estimate-with",
    "estimate_with",
    default=None,
    metavar="SCORE",
    help="With --evaluations: the automatic score your ratings correct into each model's human-scale estimate, "
         "e.g. grade [default: the one that agrees best with your ratings].",
)
@click.option(
    "--cross-validate",
    "cross_validate",
    is_flag=True,
    help="Also fit the free-text grade's criterion weights on these ratings, cross-validated by document (5 folds), "
         "and print the held-out figures of each fold. With answer labels: choose the match mode or threshold on "
         "4 folds of questions, measure it on the fifth.",
)
@remote_workspace(inputs=("ratings",), outputs=("eval_root",), file_outputs=("output", "markdown_file"))
def meta_eval(
    ratings,
    eval_root,
    use_case,
    output,
    markdown_file,
    metrics,
    exclude_systems,
    judge_spec,
    judge_base_url,
    judge_timeout,
    limit,
    seed,
    cross_validate,
    estimate_with,
    shard,
) -> None:
    """Measure how well each scorer agrees with human ratings (RATINGS.jsonl or .csv): system-level Kendall,
    Spearman and Pearson with bootstrap intervals, summary-level correlation, pairwise accuracy. RATINGS.jsonl of
    answers judged correct or incorrect ("human": {"correct": true}): every match mode's agreement, Cohen's kappa,
    false accepts and rejects, per system, beside the substring and exact-match baselines. With --evaluations: an
    evaluation's own scores against your ratings of its outputs (gaia-eval annotate)."""
    from gaia_eval.errors import UsageError
    from gaia_eval.stages.meta_eval import run_meta_eval

    if eval_root is not None:
        from gaia_eval.artifacts.recorded import recorded_path
        from gaia_eval.stages.meta_eval_own import run_meta_eval_evaluations

        ignored = [
            name for name, given in (
                ("--metrics", metrics),
                ("--exclude-system", exclude_systems),
                ("--judge", judge_spec),
                ("--judge-base-url", judge_base_url),
                ("--markdown", markdown_file),
            )
            if given
        ]
        if ignored:
            raise UsageError(
                f"{ignored[0]} does not apply with --evaluations",
                field=ignored[0],
                fix="every score the evaluation ran is measured (the judge's when eval ran with --judge); the "
                    "markdown goes beside -o",
            )

        own = run_meta_eval_evaluations(eval_root, use_case=use_case, ratings=ratings, output=output,
                                        estimate_with=estimate_with)
        echo(own.markdown)
        for path in own.outputs:
            echo(f"wrote {recorded_path(path)}")
        return
    if estimate_with is not None:
        raise UsageError("--estimate-with needs --evaluations", field="--estimate-with",
                         fix="e.g. gaia-eval meta-eval --evaluations evaluation --estimate-with grade")
    if ratings is None:
        raise UsageError(
            "give RATINGS (a .jsonl or .csv of rated summaries), or --evaluations DIR for your own ratings of an "
            "evaluation",
            fix="e.g. gaia-eval meta-eval --evaluations evaluation",
        )

    from gaia_eval.metaeval.labels import holds_answer_labels

    if holds_answer_labels(ratings):
        from gaia_eval.cli.labels import meta_eval_labels

        meta_eval_labels(ratings, metrics, exclude_systems, judge_spec or judge_base_url or judge_timeout, output,
                         markdown_file, cross_validate, limit, seed)
        return
    judge = None
    if judge_spec is not None:
        from gaia_eval.scoring.judge import parse_judge_spec

        judge = parse_judge_spec(judge_spec, base_url=judge_base_url,
                                 **({"timeout_s": judge_timeout} if judge_timeout is not None else {}))
    elif judge_base_url is not None or judge_timeout is not None:
        raise UsageError("--judge-base-url and --judge-timeout need --judge", fix="add --judge PROVIDER:MODEL")
    run = run_meta_eval(
        ratings,
        metrics=split_types(metrics),
        exclude_systems=list(exclude_systems),
        judge=judge,
        output=output,
        markdown=markdown_file,
        echo=lambda line: echo(line, err=True),  # progress on stderr: stdout is the markdown table
        cross_validate=cross_validate,
        limit=limit,
        seed=seed,
        shard=shard,
    )
    echo(run.markdown)
    for path in run.outputs:
        echo(f"wrote {path}")
    if run.failed_judge_calls:
        raise RunFailed(
            f"{run.failed_judge_calls} judge call(s) failed; run the same command again (answered calls come from "
            "the cache)"
        )


@cli.command("cluster-run", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--shards", type=click.IntRange(min=1), required=True, help="How many shards (Ray tasks) to run.")
@click.option(
    "--address", default=None,
    help="The Ray cluster's address ('auto': the one `ray start --head` runs here)  [default: a one-node cluster "
         "started for this run]",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
def cluster_run(shards, address, command) -> None:
    """Run COMMAND (groundtruth, batch-experiment, eval or meta-eval --judge, with its options) as N shards
    on a Ray cluster, then consolidate here: `gaia-eval cluster-run --shards 4 -- batch-experiment -c C -i I -o O`."""
    from gaia_eval.stages.cluster import run_cluster

    run = run_cluster(list(command), shards, address)
    for line in run.shards:
        echo(line)
    echo(run.consolidation)
