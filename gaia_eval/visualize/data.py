"""What the viewer shows, read only through gaia_eval.artifacts (and the report stage's data): the dashboard of
every evaluation (its tables first; grade intervals and charts asked for after), one item across models, the
item × system matrix (visualize/matrix.py), live progress from journals, and report.md as HTML. Charts are
visualize/charts.py. Nothing here writes a file."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from gaia_eval import cells
from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.journal import read_journal, read_run_info
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.artifacts.streamed import read_evaluation_listing
from gaia_eval.errors import GaiaEvalError
from gaia_eval.reporting import use_case_view
from gaia_eval.reporting.extra import extra_cells, extra_label
from gaia_eval.visualize.index import IndexRegistry
from gaia_eval.visualize.outputs import (
    experiment_index,  # noqa: F401  (its index, where callers look for it)
    experiments_by_name,
    output_of,
    result_of,
    template_answers,
)

LIVE_WINDOW_S = 120  # a journal touched this recently belongs to a run in progress


class _Indexed:
    """One evaluation file as the viewer keeps it: its header and dashboard row, read when the file is indexed
    (the items neither validated nor kept: at 1,000 files validating them was most of the tables' first load);
    the whole evaluation, each item's points and the grade's bootstrap interval, worked out when first asked
    for (the interval is 1,000 resamples: at 1,000 evaluations it took 11 s, so the tables never wait for it).
    Two threads may both work one out: the same value, so no lock."""

    def __init__(self, path: Path, header: Evaluation, summary: dict[str, Any]) -> None:
        self.path, self.header, self.summary = path, header, summary
        self._evaluation: Evaluation | None = None
        self._points: list[tuple[str, float, str]] | None = None
        self._interval: tuple[list[float] | None] | None = None

    @property
    def evaluation(self) -> Evaluation:
        """The evaluation with its items; its header alone (no items) when they no longer read as valid."""
        if self._evaluation is None:
            try:
                self._evaluation = read_artifact(self.path, Evaluation)
            except GaiaEvalError:
                self._evaluation = self.header  # a damaged item: the row stays, with nothing per item
        return self._evaluation

    @property
    def points(self) -> Sequence[tuple[str, float, str]]:
        """(item_id, rubric points, status) per item, in file order."""
        if self._points is None:
            from gaia_eval.scoring import rubric

            ev = self.evaluation
            names = [c.criterion for c in ev.criteria]
            self._points = [(i.item_id, rubric.item_points(i, names), i.status) for i in ev.items]
        return self._points

    @property
    def interval(self) -> list[float] | None:
        """The grade's 95 % bootstrap interval (the report's), rounded as the dashboard shows it."""
        if self._interval is None:
            from gaia_eval.scoring import rubric

            ci = rubric.bootstrap_ci([p for _, p, _ in self.points])
            self._interval = ([round(ci[0], 1), round(ci[1], 1)] if ci else None,)
        return self._interval[0]


def _evaluation_loader(root: Path):
    def load(path: Path) -> _Indexed | None:
        try:
            header = read_evaluation_listing(path)
        except GaiaEvalError:
            return None  # a broken file is listed by the files view, not the dashboard
        return _Indexed(path, header, _model_summary(path, root, header))

    return load


# Per folder, kept across requests and refreshed by file fingerprints (visualize/index.py): a request re-reads
# only the evaluations that changed since the last one (experiments: visualize/outputs.py).
evaluation_index = IndexRegistry("*.experiment.eval.json", _evaluation_loader)


def _indexed(eval_root: Path) -> list[tuple[Path, _Indexed]]:
    return evaluation_index(eval_root).current()


def _by_use_case(eval_root: Path) -> dict[str, list[_Indexed]]:
    """The indexed evaluations grouped by the use case each file names, in file order."""
    groups: dict[str, list[_Indexed]] = {}
    for _path, entry in _indexed(eval_root):
        groups.setdefault(entry.header.use_case, []).append(entry)
    return groups


def _model_summary(path: Path, root: Path, ev: Evaluation) -> dict[str, Any]:
    """The evaluation's dashboard row: what its header holds, nothing worked out over its items."""
    from gaia_eval.scoring import rubric

    judge = ev.judge
    return {
        "file": path.relative_to(root).as_posix(),
        "experiment_name": ev.experiment_name,
        "model": cells.model_label(ev.provider, ev.model),
        "use_case": ev.use_case,
        "mode": ev.mode,
        "grade": round(ev.grade.quality_score, 1),
        "rating": rubric.rating_band(ev.grade.quality_score),  # the documented band, whatever wrote the file
        "pass_rate": ev.grade.pass_rate,
        "items": ev.grade.n_items,
        "errors": ev.grade.n_errors,
        "unscored": judge.unscored_items if judge else None,
        "cost_usd": ev.inference.cost_usd if cells.answered(ev) else None,
        "cost_status": ev.inference.cost_status,
        "cost_text": cells.model_cost_text(ev),  # "—" for a model that answered nothing, never "$0 (local)"
        "judge_cost_usd": judge.cost_usd if judge else None,
        "tokens_in": ev.inference.usage.input_tokens,
        "tokens_out": ev.inference.usage.output_tokens,
        "latency_p50_s": ev.inference.latency_p50_s if cells.timed(ev) else None,
        "latency_p95_s": ev.inference.latency_p95_s if cells.timed(ev) else None,
        "groundtruth_source": ev.groundtruth_source,
        # eval --scorer: beside the grade, never in it
        "extra": [f"{c['label']} {c['text']}" for c in extra_cells(ev).values()],
    }


def dashboard(eval_root: Path, reports_root: Path | None = None) -> dict[str, Any]:
    """Every evaluation on disk, grouped by use case (in the report's order), best grade first; and every bench
    run's results file found under the reports folder."""
    groups = {name: [dict(entry.summary) for entry in entries] for name, entries in _by_use_case(eval_root).items()}
    for rows in groups.values():
        rows.sort(key=lambda r: (-r["grade"], r["experiment_name"]))
    return {
        "use_cases": [
            {
                "use_case": k, "title": use_case_view.title(k), "models": v, "trust": _own_trust(eval_root, k, v),
                # Long-form answers have no pass/fail: the column shows only where some model has a pass rate.
                "pass_rates": use_case_view.asks_questions(k) and any(r["pass_rate"] is not None for r in v),
            }
            for k, v in sorted(groups.items(), key=lambda kv: use_case_view.section_order(kv[0]))  # as the report
        ],
        "bench": bench_runs(reports_root) if reports_root is not None else [],
    }


def intervals(eval_root: Path, use_case: str) -> dict[str, list[float] | None]:
    """Each evaluation's grade interval (95 % bootstrap, the report's) by file: asked for after the tables are
    shown, so that 1,000 evaluations' resampling never holds them back."""
    return {entry.summary["file"]: entry.interval for entry in _by_use_case(eval_root).get(use_case, [])}


def matrix(eval_root: Path, exp_root: Path, use_case: str, **params: Any) -> dict[str, Any] | None:
    """A page of the use case's item × system matrix (visualize/matrix.py), its systems in the dashboard's
    order (best grade first); None when no evaluation has that use case."""
    from gaia_eval.visualize.matrix import matrix_page

    indexed = sorted(_by_use_case(eval_root).get(use_case, []),
                     key=lambda e: (-e.summary["grade"], e.summary["experiment_name"]))
    if not indexed:
        return None
    return matrix_page(eval_root, exp_root, use_case, indexed, evaluation_index(eval_root).fingerprint(), **params)


def _own_trust(eval_root: Path, use_case: str, models: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the report says of the ranking from the user's own ratings (meta-eval --evaluations), if any."""
    from gaia_eval.metaeval.trust import trust_for

    try:
        trust = trust_for(eval_root, use_case, models[0]["mode"] if models else "comparative")
    except GaiaEvalError:
        return None
    return trust if trust and trust.get("raters") else None


MAX_BENCH_FILE_BYTES = 50 * 1024 * 1024


def bench_results(path: Path) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_BENCH_FILE_BYTES:
            return None
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    # bench's package is imported only for a file that may be one (report.json is not): 0.3 s of the first load
    if not (isinstance(data, dict) and "suite_fingerprint" in data):
        return None
    from gaia_eval.bench.exports import is_bench_results

    return data if is_bench_results(data) else None


def bench_runs(reports_root: Path) -> list[dict[str, Any]]:
    """`gaia-eval bench -o` results under the reports folder: headline metrics, with the baseline's beside them
    when the run was gated."""
    runs = []
    for path in sorted(reports_root.rglob("*.json")) if reports_root.is_dir() else []:
        data = bench_results(path)
        if data is None:
            continue
        rel = path.relative_to(reports_root).as_posix()
        junit = path.with_name(path.stem + ".junit.xml")
        runs.append({
            "file": rel, "suite": data["suite"], "runner": data["runner"], "n": data.get("n"),
            "repeats": data.get("repeats"), "success_rate": data["success_rate"], "avg_steps": data.get("avg_steps"),
            "tool_error_rate": data.get("tool_error_rate"), "pass_hat_k": data.get("pass_hat_k"),
            "runner_errors": data.get("runner_errors"), "usage": data.get("usage"), "baseline": data.get("baseline"),
            "failed_tasks": [t["id"] for t in data["tasks"] if not t.get("passed")],
            "junit": junit.relative_to(reports_root).as_posix() if junit.is_file() else None,
        })
    return runs




def item_view(eval_root: Path, exp_root: Path, use_case: str, item_id: str | None) -> dict[str, Any] | None:
    """One item of a use case across every model: source, ground truth, each output with its ratings, the
    judge's rationale, tokens, cost and latency; plus the item ids ordered for next/previous and filters."""
    indexed = _by_use_case(eval_root).get(use_case, [])
    if not indexed:
        return None
    ids = sorted({iid for entry in indexed for iid, _score, _status in entry.points})
    points: dict[str, list[tuple[str, float, str]]] = {i: [] for i in ids}
    for entry in indexed:  # each item's points are worked out once per version of the file
        for iid, score, status in entry.points:
            points[iid].append((entry.header.experiment_name, score, status))
    from gaia_eval.scoring import rubric

    spread = {i: (max(p[1] for p in v) - min(p[1] for p in v)) if v else 0.0 for i, v in points.items()}
    failed = {i: sorted(name for name, score, status in v if status == "error" or rubric.rating_band(score) == "Poor")
              for i, v in points.items()}
    item_id = item_id or ids[0]
    if item_id not in ids:
        return None
    from gaia_eval.visualize.references import embedded_groundtruth, external_groundtruth, reference_for

    models, source, truth = [], None, None
    asks_questions = use_case_view.asks_questions(use_case)
    experiments = experiments_by_name(exp_root)
    for ev in (entry.evaluation for entry in indexed):
        ev_item = next((i for i in ev.items if i.item_id == item_id), None)
        exp = experiments.get((ev.experiment_name, ev.use_case))
        result = result_of(exp, item_id) if exp else None
        filled = template_answers(ev, eval_root).get(item_id, {}) if result is None else {}
        if exp is not None and result is not None:
            if source is None:  # read once: an experiment kept in the index holds the documents it was asked for
                doc = exp.sources.get(result.source)
                source = doc.text if doc else None
            truth = truth or (result.groundtruth_answer.model_dump() if result.groundtruth_answer
                              else result.groundtruth_summaries.model_dump() if result.groundtruth_summaries else None)
        if truth is None or source is None or (not asks_questions and "references" not in truth):
            # Scored with `eval -g`: the references are in the files it names; imported human references: every
            # one of them is in the ground-truth file the experiment ran on.
            gts = external_groundtruth(ev, eval_root) or embedded_groundtruth(
                exp.input_path if exp is not None else None, exp_root)
            found, found_source = reference_for(gts, item_id, result.source if result is not None else None)
            source = source or found_source
            if truth is None:
                truth = found
            elif found and "references" in found:
                truth = {**truth, "references": found["references"]}
        models.append(
            {
                "experiment_name": ev.experiment_name,
                "model": cells.model_label(ev.provider, ev.model),
                "status": ev_item.status if ev_item else "missing",
                "error": (ev_item.error if ev_item else None) or (result.error if result else None),
                "query": result.query if result else filled.get("query"),
                "output": output_of(result) if result is not None else filled.get("output"),
                "score": next((round(p[1], 1) for p in points[item_id] if p[0] == ev.experiment_name), None),
                "passed": ev_item.passed if ev_item else None,
                "criteria": [{**c.model_dump(), "label": use_case_view.criterion_label(use_case, c.criterion)}
                             for c in ev_item.criteria]
                if ev_item
                else [],
                "judge": [c.model_dump() for c in ev_item.judge.criteria] if ev_item and ev_item.judge else [],
                "extra": [{**c.model_dump(), "label": extra_label(c)}
                          for c in (ev_item.extra_criteria if ev_item else [])],  # eval --scorer
                "tokens_in": result.usage.input_tokens if result else None,
                "tokens_out": result.usage.output_tokens if result else None,
                "cost_usd": result.cost_usd if result else None,
                "latency_s": result.latency_s if result and ev.provider not in cells.UNTIMED_PROVIDERS else None,
            }
        )
    return {
        "use_case": use_case, "title": use_case_view.title(use_case), "asks_questions": asks_questions,
        "item_id": item_id, "item_ids": ids, "source": source, "groundtruth": truth,
        "models": models, "disagreement": sorted(ids, key=lambda i: (-spread[i], i)),
        "spread": {i: round(s, 1) for i, s in spread.items()}, "failed_by": failed,
    }


def with_external_expected(compared: dict[str, Any] | None, eval_root: Path) -> dict[str, Any] | None:
    """The compare view's rows with the expected answer filled in from the ground truth the two experiments
    were scored against with `eval -g`, where the experiments themselves carry none."""
    from gaia_eval.visualize.references import external_groundtruth, reference_for

    if compared is None or all(row["expected"] is not None for row in compared["rows"]):
        return compared
    gts: dict[str, Any] = {}
    for entry in _by_use_case(eval_root).get(compared["use_case"], []):
        ev = entry.header
        if ev.experiment_name in (compared["a"], compared["b"]):
            gts = {**external_groundtruth(ev, eval_root), **gts}
    for row in compared["rows"]:
        if row["expected"] is None:
            row["expected"] = reference_for(gts, row["item_id"], None)[0]
    return compared


def with_verdicts(compared: dict[str, Any] | None, eval_root: Path) -> dict[str, Any] | None:
    """The compare view's two sides with each item's verdict (pass / fail / error, or the rating band where the
    use case has no pass/fail) and score, from the evaluations of the two experiments (none when one was not
    evaluated); `scored` says which sides were."""
    from gaia_eval.visualize.matrix import verdict_of

    if compared is None:
        return None
    scored = {}
    for entry in _by_use_case(eval_root).get(compared["use_case"], []):
        name = entry.header.experiment_name
        for side in ("a", "b"):
            if name == compared[side] and side not in scored:
                items = {i.item_id: i for i in entry.evaluation.items}
                scored[side] = {iid: (verdict_of(items[iid].status, items[iid].passed, score), round(score, 1))
                                for iid, score, _status in entry.points}
    for row in compared["rows"]:
        for side in ("a", "b"):
            verdict, score = scored.get(side, {}).get(row["item_id"], (None, None))
            row[side] = {**row[side], "verdict": verdict, "score": score}
    return {**compared, "scored": sorted(scored)}


def _judge_records(path: Path) -> list[dict[str, Any]]:
    """The judge journal's complete lines (raw: item, sample status, usage); a torn last line is skipped."""
    records = []
    for line in path.read_bytes().splitlines():
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("sample"), dict):
            records.append(record)
    return records


def _judge_spend(model: str, records: list[dict[str, Any]]) -> float | None:
    from gaia_eval.artifacts.base import Usage
    from gaia_eval.providers.pricing import cost_of, lookup_price

    provider, _, name = model.removeprefix("judge ").partition(":")
    paid = Usage()
    for r in records:
        sample = r["sample"]
        paid = (
            paid
            + Usage.model_validate(sample.get("usage") or {})
            - Usage.model_validate(sample.get("cached_usage") or {})
        )
    try:
        cost, _, _ = cost_of(paid, lookup_price(provider, name))
    except Exception:
        return None
    return cost


def _run_row(root: Path, path: Path, stage: str, now: float) -> dict[str, Any]:
    info = read_run_info(path) or {}
    lines = path.read_bytes().count(b"\n")
    if stage == "batch-experiment":
        items = list(read_journal(path).values())
        done, errors = sum(i.status == "ok" for i in items), sum(i.status == "error" for i in items)
        costs = [i.cost_usd for i in items if i.cost_usd is not None]
        spend = round(sum(costs), 6) if costs else None
        tokens_out = sum(i.usage.output_tokens for i in items)
        name = path.name.removesuffix(".experiment.journal.jsonl")
    else:
        records = _judge_records(path)
        done = sum(r["sample"].get("status") == "scored" for r in records)
        errors = len(records) - done
        spend = _judge_spend(info["model"], records) if info.get("model") else None
        tokens_out = sum((r["sample"].get("usage") or {}).get("output_tokens", 0) for r in records)
        name = path.name.removesuffix(".judge.journal.jsonl").removesuffix(".experiment")
    mtime = path.stat().st_mtime if lines else info.get("started_at", path.stat().st_mtime)
    running = now - mtime < LIVE_WINDOW_S
    row: dict[str, Any] = {
        "stage": stage, "journal": path.relative_to(root).as_posix(), "experiment_name": name,
        "model": info.get("model"), "done": done, "errors": errors, "spend_usd": spend, "tokens_out": tokens_out,
        "seconds_since_update": round(max(0.0, now - mtime), 1), "running": running,
        "total": None, "finished": None, "in_flight": None, "eta_s": None, "rate_per_min": None,
    }
    if "total" in info:
        # This run's new lines since it started, on top of what it reused; what is left runs at most
        # `concurrency` at a time; the ETA extrapolates this run's own pace.
        new = max(0, lines - int(info.get("lines_before", 0)))
        finished = min(int(info["total"]), int(info.get("reused", 0)) + new)
        left = int(info["total"]) - finished
        elapsed = max(1e-6, now - float(info.get("started_at", now)))
        row.update(total=int(info["total"]), finished=finished,
                   in_flight=min(left, int(info.get("concurrency", 1))) if running else 0)
        if new:
            row["rate_per_min"] = round(60 * new / elapsed, 1)
            row["eta_s"] = round(left * elapsed / new, 1) if running else None
    return row


def live_progress(exp_root: Path, eval_root: Path | None = None, now: float | None = None) -> dict[str, Any]:
    """Runs in progress, from the journals a running stage writes: batch-experiment's (one per model, in the
    experiments folder) and eval's LLM judge (one per evaluation, in the evaluation folder). Per run: done /
    errors / in flight of the total, spend and tokens so far, pace and ETA; `running` when written to in the
    last two minutes (a journal left by a stopped run stays until the same command resumes it)."""
    now = time.time() if now is None else now
    runs = []
    for root, pattern, stage in ((exp_root, "*.experiment.journal.jsonl", "batch-experiment"),
                                 (eval_root, "*.judge.journal.jsonl", "eval (judge)")):
        if root is None or not root.is_dir():
            continue
        for path in sorted(root.rglob(pattern)):
            try:
                runs.append(_run_row(root, path, stage, now))
            except FileNotFoundError:
                continue  # finished between listing and reading
    return {"runs": runs}


# The only markup a report page keeps from its file: the bare tags report.md.j2 folds the per-item table with. Each
# is matched as markdown-it prints it as escaped text, alone at a paragraph's edge, and has no attribute to carry
# an event, a URL or a refresh.
_FOLD_TAGS = (("<p>&lt;details&gt;\n&lt;summary&gt;", "<details>\n<summary>"), ("&lt;/summary&gt;</p>", "</summary>"),
              ("<p>&lt;details&gt;</p>", "<details>"), ("<p>&lt;/details&gt;</p>", "</details>"))


def report_html(path: Path) -> str:
    """A reports/*.md file as HTML: CommonMark with tables and NO raw HTML from the file (a `<meta http-equiv=
    refresh>`, `<iframe>` or `<form>` shows as text), whoever wrote it; the report's own <details> folds are
    put back as bare tags."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(path.read_text(encoding="utf-8"))
    for escaped, tag in _FOLD_TAGS:
        html = html.replace(escaped, tag)
    # Column alignment as classes: the page's CSP applies no inline style attributes.
    for align, cls in (("right", "num"), ("center", "center"), ("left", "left")):
        html = html.replace(f' style="text-align:{align}"', f' class="{cls}"')
    return html
