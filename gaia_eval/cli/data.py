"""Commands that bring a user's data in and out: import-groundtruth, import-outputs (own references and
systems' outputs), import-results (other tools' results), create-template and import-template (hand-filled answer
sheets)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from gaia_eval.cli.annotate import sample_options
from gaia_eval.cli.choices import UseCaseChoice
from gaia_eval.cli.group import DEFAULTS, cli, print_summary
from gaia_eval.cli.workspace import remote_workspace
from gaia_eval.safe_text import echo


@cli.command("import-groundtruth")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o", "--output-dir", type=click.Path(path_type=Path), default=DEFAULTS["groundtruth"], help="Folder to write into."
)
@click.option(
    "--id-field",
    default="item_id",
    help="Field with the item id (a .json file holding one item defaults to its file name).",
)
@click.option(
    "--source-field",
    default="source",
    help="Field with the source text, or a path to a .txt/.md/.html/.pdf file relative to the data file.",
)
@click.option(
    "--source-file",
    default=None,
    help="Path template of each item's source, relative to the data file, e.g. '{item_id}.txt' (wins over "
         "--source-field).",
)
@click.option(
    "--references-field",
    default="references",
    help="Field with the human reference summary (text or list); dotted paths map over lists, e.g. "
         "general_queries.answer.",
)
@click.option("--qa-field", default="qa", help="Field with a list of question-answer objects.")
@click.option("--question-key", default="question", help="Key of the question inside each qa object.")
@click.option("--answer-key", default="answer", help="Key of the answer inside each qa object.")
@click.option(
    "-u",
    "--use-case",
    type=UseCaseChoice(),
    default=None,
    help="The use case the references are for (a summaries use case, e.g. email) or the question-answer pairs are for "
         "(a question-answering one)  [default: summarization for references, qa for question-answer pairs].",
)
def import_groundtruth(
    files, output_dir, id_field, source_field, source_file, references_field, qa_field, question_key, answer_key,
    use_case,
) -> None:
    """Import your own ground truth (human reference summaries and/or question-answer pairs) from .jsonl, .csv
    or .json."""
    from gaia_eval.stages.imports.groundtruth import GroundTruthFields, run_import_groundtruth

    fields = GroundTruthFields(id=id_field, source=source_field, source_file=source_file, references=references_field,
                               qa=qa_field, question=question_key, answer=answer_key)
    print_summary(run_import_groundtruth(list(files), output_dir, fields, use_case=use_case), show_outputs=True)


@cli.command("import-outputs")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output-dir", type=click.Path(path_type=Path), default=DEFAULTS["experiments"], help="Folder to write into."
)
@click.option(
    "-g",
    "--groundtruth",
    type=click.Path(path_type=Path),
    default=None,
    help="Consolidated ground truth from import-groundtruth: sets the use case and gives each item's source text "
         "(when the rows have no source column) and, for qa, its expected answer.",
)
@click.option(
    "--use-case",
    type=UseCaseChoice(),
    default=None,
    help="What the outputs are, when -g does not say it  [default: summarization].",
)
def import_outputs(file, output_dir, groundtruth, use_case) -> None:
    """Import many systems' outputs (item_id, system, output; optional source, input_tokens, output_tokens,
    cost_usd, latency_s): one experiment per system, scored by `eval -g`.

    Answers to imported questions are keyed by question id: `ES2009b#q01` is question q01 of item ES2009b in
    `-g consolidated_qa_groundtruth.json`.
    """
    from gaia_eval.stages.imports.outputs import run_import_outputs

    print_summary(run_import_outputs(file, output_dir, groundtruth=groundtruth, use_case=use_case), show_outputs=True)


@cli.command("import-results")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output-dir", type=click.Path(path_type=Path), required=True,
              help="Folder to write into: groundtruth/ and experiments/ are made in it.")
@click.option("--from", "tool", type=click.Choice(["inspect", "promptfoo", "lm-eval"]), default=None,
              help="The tool that wrote the files [default: read from each file].")
@click.option("--target-var", default=None,
              help="promptfoo: the test variable holding the expected answer [default: the value of each test's "
                   "first equals/contains/icontains/starts-with assertion].")
def import_results(paths, output_dir, tool, target_var) -> None:
    """Import results other tools wrote: Inspect logs (.eval, .json), promptfoo results (.json), lm-eval
    samples_*.jsonl (with their results_*.json); a folder is read whole.

    Writes qa ground truth (each sample's input and targets) and one experiment per task and model, each item
    keeping the tool's own scores (shown beside gaia-eval's under the tool's name) and everything else the tool
    recorded. Then: `gaia-eval eval -d DIR/experiments -g DIR/groundtruth/consolidated_qa_groundtruth.json`.
    """
    from gaia_eval.stages.imports.results import run_import_results

    print_summary(run_import_results(list(paths), output_dir, tool=tool, target_var=target_var))


@cli.command("create-template")
@click.option(
    "-d",
    "--directory",
    "-i",
    "--input",
    "input_path",
    type=click.Path(path_type=Path),
    default=DEFAULTS["groundtruth"],
    help="Ground truth (folder or file), or a folder of raw test documents (standalone scoring).",
)
@click.option(
    "-u",
    "--use-case",
    type=UseCaseChoice(),
    default=None,
    help="Use case [default: the ground truth's].",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "csv", "jsonl", "xml"]),
    default="json",
    help="File format: csv opens in a spreadsheet; json, jsonl and xml are for editing by hand or by script.",
)
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(path_type=Path),
    default=Path("templates"),
    help="Folder for <name>.template.<format>.",
)
@click.option(
    "--name",
    default=None,
    help="The system whose responses will be filled in [default: the file stem, <use_case>; rename the file to "
         "rename the system].",
)
@click.option("--model", default="manual", help="What produced the responses (free text, e.g. 'acme-rag v2').")
@click.option(
    "--ratings",
    "ratings_sheet",
    is_flag=True,
    help="Instead: the annotation sample of an evaluation (see annotate) as a CSV to rate in a spreadsheet; "
         "meta-eval --evaluations reads it back.",
)
@sample_options
@click.option(
    "--include-groundtruth",
    is_flag=True,
    help="Also write each record's expected answer as `ground_truth` (the person filling it in will see it).",
)
@remote_workspace(inputs=("input_path", "experiments_dir"), outputs=("output_dir", "eval_root"))
def create_template(
    input_path,
    use_case,
    fmt,
    output_dir,
    name,
    model,
    ratings_sheet,
    eval_root,
    experiments_dir,
    size,
    seed,
    dimensions,
    include_groundtruth,
) -> None:
    """Write a template to fill with a third-party system's responses: one record per test item with
    test_id, input_text, an empty response and the evaluation criteria. With --ratings: a CSV of an evaluation's
    annotation sample to rate 1-5 in a spreadsheet (blind, formula-safe cells)."""
    if ratings_sheet:
        from gaia_eval.annotate.sheet import run_ratings_template

        made = run_ratings_template(eval_root, output_dir, use_case=use_case, size=size, seed=seed,
                                    dimensions=dimensions, experiments_dir=experiments_dir)
        from gaia_eval.artifacts.recorded import recorded_path as named  # an s3:// workspace's files by their URL

        echo(f"{'drew and saved' if made.drawn else 'used the saved'} sample {named(made.sample_path)}")
        if made.shortfall:
            echo(made.shortfall)
        echo(f"wrote {named(made.path)} ({made.rows} outputs to rate 1-5; put your name in `rater`)")
        echo(f"  then: gaia-eval meta-eval --evaluations {named(eval_root)} -u {made.use_case} {named(made.path)}")
        return
    from gaia_eval.stages.templates.responses import run_create_response_template

    path = run_create_response_template(
        input_path,
        output_dir,
        use_case=use_case,
        fmt=fmt,
        name=name,
        model=model,
        include_groundtruth=include_groundtruth,
        warn=lambda message: echo(f"warning: {message}", err=True),
    )
    # The evaluation goes beside the template's folder, in the user's workspace (not ./evaluation wherever they are).
    evaluation = Path(output_dir).parent / "evaluation"
    echo(f"wrote {path}")
    echo(f"  paste the responses into `response`, then: gaia-eval eval -f {shlex.quote(str(path))} "
         f"-o {shlex.quote(str(evaluation))}")


@cli.command("import-template")
@click.argument("template", type=click.Path(path_type=Path))
@click.option(
    "-i",
    "--input",
    "groundtruth",
    type=click.Path(path_type=Path),
    default=None,
    help="Ground truth the template was made from [default: the path recorded in it].",
)
@click.option(
    "-o",
    "--output-dir",
    type=click.Path(path_type=Path),
    default=DEFAULTS["experiments"],
    help="Folder for <name>.experiment.json.",
)
def import_template(template, groundtruth, output_dir) -> None:
    """Turn a filled template into an experiment file, then score it with `eval` like any model."""
    from gaia_eval.stages.templates.answers import run_import_template

    path, blanks = run_import_template(template, output_dir, groundtruth=groundtruth)
    echo(f"wrote {path}")
    if blanks:
        echo(f"  {blanks} item(s) had no answer filled in: they are recorded as errors and count as Poor")
