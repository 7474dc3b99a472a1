"""Stage 5, `report`: a markdown report people read, plus CSV and JSON, built only from evaluation files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.evaluation import RATINGS
from gaia_eval.artifacts.recorded import find_recorded_path, recorded_path
from gaia_eval.artifacts.remote import remote_url
from gaia_eval.artifacts.store import atomic_write_bytes, atomic_write_text, write_json
from gaia_eval.reporting import use_case_view
from gaia_eval.reporting.data import build_report_data, load_evaluations
from gaia_eval.safe_text import csv_document, markdown_code, markdown_text
from gaia_eval.scoring import rubric
from gaia_eval.stages.common import StageSummary, check_output_dir
from gaia_eval.stages.report.exports import EXPORT_FORMATS, write_exports
from gaia_eval.stages.report.junit import junit_xml


class _Markdown(str):
    """Markdown we wrote ourselves: rendered as is, not escaped like names and model fields."""


def _md_escape(value: Any) -> Any:
    """Every string a user or a model supplied (experiment names, model ids, judge specs) as inert text in
    report.md (safe_text.markdown_text: no HTML, link, image, `|` or line break)."""
    if not isinstance(value, str) or isinstance(value, _Markdown):
        return value
    return markdown_text(value)


def _timing(row: dict[str, Any]) -> list[Any]:
    timing = row["timing"] or {}
    return [timing.get(k) for k in ("min_s", "p50_s", "p95_s", "max_s")]


def _csv(data: dict[str, Any]) -> str:
    """report.csv through safe_text.csv_document: CRLF rows, formula-like strings from data as text."""
    rows: list[list[Any]] = []
    # One row per model x criterion x scorer. Judge rows carry the judge's grade, judged items and the judge's
    # own cost, never the model's.
    rows.append(
        ["use_case", "rank", "experiment", "provider", "model", "criterion", "criterion_score", "excellent", "good",
         "fair", "poor", "mean_value", "quality_score", "overall_rating", "pass_rate", "items", "errors", "cost_usd",
         "cost_status", "latency_mean_s", "scorer", "latency_min_s", "latency_p50_s", "latency_p95_s",
         "latency_max_s", "input_tokens", "output_tokens", "cost_per_item_usd", "groundtruth"]
    )
    for section in data["sections"]:
        for row in section["models"]:
            for crit, c in row["criteria"].items():
                rows.append(
                    [section["use_case"], row["rank"], row["experiment_name"], row["provider"], row["model"], crit,
                     c["score"], *(c["counts"].get(r, 0) for r in RATINGS), c["mean_value"], row["quality_score"],
                     row["overall_rating"], row["pass_rate"], row["n_items"], row["errors"], row["cost_usd"],
                     row["cost_status"], row["latency_mean_s"], "deterministic", *_timing(row),
                     row["input_tokens"], row["output_tokens"], row["cost_per_item_usd"], row["groundtruth_origin"]]
                )
            judge = row["judge"]
            if judge is None:
                continue
            for crit, c in judge["criteria"].items():
                rows.append(
                    [section["use_case"], row["rank"], row["experiment_name"], row["provider"], row["model"], crit,
                     c["score"], *(c["counts"].get(r, 0) for r in RATINGS), None, judge["quality_score"],
                     judge["overall_rating"], None, judge["judged_items"], row["errors"], judge["cost_usd"],
                     judge["cost_status"], None, f"judge:{judge['spec']}", None, None, None, None,
                     judge["input_tokens"], judge["output_tokens"], None, row["groundtruth_origin"]]
                )
    return csv_document(rows)


def render_markdown(data: dict[str, Any]) -> str:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("gaia_eval", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_md_escape,  # every {{ value }} the template prints is escaped, but our own markdown
    )
    env.filters["code"] = lambda value: _Markdown(markdown_code(str(value)))  # a path shown as it is
    how = rubric.rubric_markdown() + _package_criteria_markdown([s["use_case"] for s in data["sections"]])
    return env.get_template("report.md.j2").render(data=data, rubric_markdown=_Markdown(how))


def _package_criteria_markdown(use_cases: list[str]) -> str:
    """The rubric of criteria a package's scorer declares (its use case's, not gaia-eval's): one table per use
    case, read from its scorers, with the text escaped (it comes from the package)."""
    from gaia_eval.scoring.scorers import FREE_TEXT, LONG_FORM_QA, QA, SUMMARIES, SUMMARIES_STANDALONE

    shipped = {c.id for s in (SUMMARIES, SUMMARIES_STANDALONE, FREE_TEXT, QA, LONG_FORM_QA) for c in s.criteria}
    lines: list[str] = []
    for name in dict.fromkeys(use_cases):
        own = [c for c in use_case_view.criteria(name).values() if c.id not in shipped]
        if not own:
            continue
        lines += ["", f"**{markdown_text(use_case_view.title(name))}: its scorers' own criteria**", "",
                  "| Criterion | Measure (value 0–1) | Excellent | Good | Fair | Why |", "|---|---|---|---|---|---|"]
        lines += [f"| {markdown_text(c.title)} ({markdown_code(c.id)}) | {markdown_text(c.measure)} "
                  f"| ≥ {c.excellent:.2f} | ≥ {c.good:.2f} | ≥ {c.fair:.2f} | {markdown_text(c.why)} |" for c in own]
    return "\n".join(lines) + ("\n" if lines else "")


def viewer_command(eval_dir: Path, reports_dir: Path, experiment_files: list[str]) -> str:
    """The `visualize` command that shows these evaluations and this report: the workspace alone when they sit
    in its standard evaluation/ and reports/ folders, else the folders named (the experiments' too, found from
    the paths the evaluations record)."""
    import os
    import shlex

    evaluations, reports = recorded_path(eval_dir), recorded_path(reports_dir)
    if remote_url(evaluations) or remote_url(reports):
        return _remote_viewer_command(evaluations, reports, experiment_files)
    workspace = eval_dir.parent
    command = "gaia-eval visualize" + (
        "" if workspace == Path(".") else f" --workspace {shlex.quote(workspace.as_posix())}"
    )
    if eval_dir.name == "evaluation" and reports_dir == workspace / "reports":
        return command
    command += (f" --evaluations-dir {shlex.quote(eval_dir.as_posix())} "
                f"--reports-dir {shlex.quote(reports_dir.as_posix())}")
    found = [p for p in (find_recorded_path(f, eval_dir) for f in experiment_files) if p is not None]
    if found:
        folder = Path(os.path.relpath(os.path.commonpath([str(p.resolve().parent) for p in found])))
        command += f" --experiments-dir {shlex.quote(folder.as_posix())}"
    return command


def _remote_viewer_command(evaluations: str, reports: str, experiment_files: list[str]) -> str:
    """The `visualize` command for a report on object storage: the URLs, which the viewer reads from the bucket."""
    import itertools
    import shlex

    command = f"gaia-eval visualize --evaluations-dir {shlex.quote(evaluations)} --reports-dir {shlex.quote(reports)}"
    folders = [f.split("/")[:-1] for f in experiment_files if remote_url(f)]
    if folders:
        common = [parts[0] for parts in itertools.takewhile(lambda parts: len(set(parts)) == 1,
                                                            zip(*folders, strict=False))]
        if len(common) > 3:  # s3: / "" / bucket / at least one prefix part
            command += f" --experiments-dir {shlex.quote('/'.join(common))}"
    return command


def run_report(eval_dir: Path, output_file: Path = Path("reports/report.md"),
               formats: Sequence[str] = ("md",)) -> StageSummary:
    """Write FILE.md, FILE.csv and FILE.json (format "md"), and the evaluations as Every Eval Ever records
    ("eee": FOLDER/eee/) and Inspect logs ("inspect": FOLDER/inspect/) in FILE's folder. Unchanged content is not
    rewritten (mtimes stay)."""
    output_file = Path(output_file)
    if output_file.is_dir() or str(output_file).endswith(("/", "\\")):
        output_file = output_file / "report.md"  # `-o reports`: an existing folder is written into
    if output_file.suffix != ".md":
        output_file = output_file.with_suffix(".md")
    data = build_report_data(Path(eval_dir))
    check_output_dir(output_file.parent, "-o/--output-file")
    summary = StageSummary("report")
    exports = [f for f in formats if f in EXPORT_FORMATS]
    if exports:
        write_exports(load_evaluations(Path(eval_dir)), Path(eval_dir), output_file.parent, exports, summary)
    if "md" not in formats:
        return summary
    from gaia_eval.reporting.charts import write_charts  # matplotlib loads only when a report is written

    charts = write_charts(data, output_file)
    if charts:
        summary.notes.append(f"charts: {len(charts)} written in {charts[0].parent}")
    experiment_files = [m["experiment_file"] for s in data["sections"] for m in s["models"]]
    summary.notes.append(f"browse it: {viewer_command(Path(eval_dir), output_file.parent, experiment_files)}")
    for path, written in (
        (output_file, atomic_write_text(output_file, render_markdown(data))),
        (output_file.with_suffix(".csv"), atomic_write_text(output_file.with_suffix(".csv"), _csv(data))),
        (output_file.with_suffix(".json"), write_json(output_file.with_suffix(".json"), data)),
        (
            output_file.with_suffix(".junit.xml"),
            atomic_write_bytes(
                output_file.with_suffix(".junit.xml"), junit_xml(load_evaluations(Path(eval_dir)), Path(eval_dir))
            ),
        ),
    ):
        summary.outputs.append(path)
        if written:
            summary.made += 1
        else:
            summary.skipped += 1
    return summary
