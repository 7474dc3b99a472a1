"""eval streams big files: the structural scan finds every top-level value and element whatever the layout and
wherever a chunk cuts, a streamed experiment reads like the whole one, the spool writes write_artifact's exact
bytes, and eval's output is the same as when the experiment is read whole. (Peak memory is measured by
tests/perf/bench_eval_memory.py, not asserted here.)"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts import stream, streamed
from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import canonical_json, read_artifact, write_artifact
from gaia_eval.errors import ArtifactError, InputError
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth


@pytest.fixture()
def experiments(tmp_path: Path) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning", "client_call"], count_per_type=2, seed=3)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    run_batch_experiment(None, tmp_path / "gt", tmp_path / "exp", show_progress=False)
    return tmp_path / "exp"


def _read(path: Path, span: tuple[int, int]) -> object:
    return orjson.loads(path.read_bytes()[span[0]:span[1]])


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 22])
def test_the_scan_finds_values_and_elements_in_any_layout_and_across_chunk_cuts(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(stream, "CHUNK", chunk)
    doc = {"a": 1.5, "items": [{"x": "br]ack{ets \" in [a] string\\"}, {"y": [1, {"z": None}]}, {}],
           "n": None, "s": "}", "sources": {"k\"ey": {"t": "{["}, "two": {"t": "x"}}, "t": True, "u": {"v": [[]]}}
    for option in (0, orjson.OPT_INDENT_2):
        path = tmp_path / "doc.json"
        path.write_bytes(b"\n " + orjson.dumps(doc, option=option) + b"\n")
        layout = stream.scan(path, frozenset({"items", "sources"}))
        assert [_read(path, s) for s in layout.elements["items"]] == doc["items"]
        assert {k: _read(path, s) for k, s in layout.members["sources"].items()} == doc["sources"]
        values = {k: orjson.loads(v) if isinstance(v, bytes) else _read(path, v) for k, v in layout.values.items()}
        assert values == doc


@pytest.mark.parametrize("text", [b'{"a": 1', b'{"a" 1}', b'{"a": 1,}', b'[1]', b'{"items": [1, 2]}',
                                  b'{"items": [{"x": 1} {"y": 2}]}', b'{"a": 1} {', b'{"items": [{"x": 1]]}'])
def test_what_the_scan_cannot_follow_is_unreadable(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_bytes(text)
    with pytest.raises(stream.Unreadable):
        stream.scan(path, frozenset({"items"}))


def test_a_streamed_experiment_reads_like_the_whole_one(experiments, monkeypatch):
    monkeypatch.setattr(stream, "CHUNK", 1000)
    path = experiments / "baseline-lead.experiment.json"
    whole = read_artifact(path, Experiment)
    lazy = streamed.read_experiment(path)
    assert isinstance(lazy, streamed.StreamedExperiment)
    assert list(lazy.items) == whole.items and list(lazy.items) == whole.items  # each pass reads them again
    assert dict(lazy.sources) == whole.sources
    assert lazy.experiment_name == whole.experiment_name and lazy.totals == whole.totals


def test_a_damaged_item_is_the_usual_one_line_message_naming_its_field(experiments):
    path = experiments / "baseline-lead.experiment.json"
    data = orjson.loads(path.read_bytes())
    data["items"][3]["status"] = "maybe"
    path.write_bytes(orjson.dumps(data))
    with pytest.raises(ArtifactError) as caught:
        list(streamed.read_experiment(path).items)
    assert caught.value.field == "items.3.status" and "Experiment" in caught.value.one_line()
    path.write_bytes(b'{"items": [')
    with pytest.raises(InputError, match="not valid JSON"):
        streamed.read_experiment(path)


def test_the_spool_writes_the_bytes_write_artifact_writes(experiments, tmp_path):
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "ev")
    whole = read_artifact(tmp_path / "ev" / "baseline-lead.experiment.eval.json", Evaluation)
    write_artifact(tmp_path / "a.eval.json", whole)
    spool = streamed.ListSpool(tmp_path / "b.eval.json", "items")
    for item in whole.items:
        spool.add(item)
    assert spool.commit(whole.model_copy(update={"items": []}))
    assert (tmp_path / "b.eval.json").read_bytes() == (tmp_path / "a.eval.json").read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    empty = streamed.ListSpool(tmp_path / "c.eval.json", "items")
    assert empty.commit(whole.model_copy(update={"items": []}))
    assert (tmp_path / "c.eval.json").read_bytes() == canonical_json(whole.model_copy(update={"items": []}))


def test_eval_streamed_gives_the_evaluation_eval_gave_reading_the_experiment_whole(experiments, tmp_path, monkeypatch):
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "streamed")
    import gaia_eval.stages.eval.inputs as eval_inputs

    monkeypatch.setattr(eval_inputs, "read_experiment", lambda path: read_artifact(path, Experiment))
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "whole")
    for name in ("baseline-lead.experiment.eval.json", "baseline-textrank.experiment.eval.json"):
        raw = (tmp_path / "streamed" / name).read_bytes()
        assert raw == canonical_json(read_artifact(tmp_path / "streamed" / name, Evaluation))  # canonical bytes
        a, b = orjson.loads(raw), orjson.loads((tmp_path / "whole" / name).read_bytes())
        assert a.pop("evaluated_at") and b.pop("evaluated_at")
        assert a == b
    # Up to date: skipped on the header alone; the index lists both.
    again = run_eval(experiment_dir=experiments, output_dir=tmp_path / "streamed")
    assert again.skipped == 2 and (tmp_path / "streamed" / name).read_bytes() == raw


def test_an_error_in_a_later_experiment_leaves_no_evaluation_and_no_spool(experiments, tmp_path):
    bad = experiments / "zz.experiment.json"
    data = orjson.loads((experiments / "baseline-lead.experiment.json").read_bytes())
    data["experiment_name"] = data["safe_name"] = "zz"
    data["items"][-1]["groundtruth_summaries"] = None  # ground truth for some items and not for others
    bad.write_bytes(orjson.dumps(data))
    with pytest.raises(InputError, match="some items and not for others"):
        run_eval(experiment_dir=experiments, output_dir=tmp_path / "ev")
    assert not (tmp_path / "ev").exists()  # not even the folder: nothing was written


def test_report_provenance_reads_big_files_an_element_at_a_time_with_the_same_answer(
    experiments, tmp_path, monkeypatch
):
    from gaia_eval.reporting import provenance as report_provenance

    run_eval(experiment_dir=experiments, output_dir=tmp_path / "ev")
    ev = streamed.read_evaluation_header(tmp_path / "ev" / "baseline-lead.experiment.eval.json")
    small = report_provenance.groundtruth_origin(ev, tmp_path / "ev")
    monkeypatch.setattr(report_provenance, "BIG_FILE", 0)  # every file is "big": streamed
    assert report_provenance.groundtruth_origin(ev, tmp_path / "ev") == small == "planted facts (generated documents)"
    values = streamed.top_level_values(experiments / "baseline-lead.experiment.json", frozenset({"items", "sources"}))
    assert values is not None and "items" not in values and values["experiment_name"] == "baseline-lead"


@pytest.mark.parametrize("change", [{"items": []}, {"items": {"a": {}}}, {"sources": []}, {"kind": "other"}])
def test_an_experiment_of_the_wrong_shape_gets_the_full_reads_message(experiments, change):
    path = experiments / "baseline-lead.experiment.json"
    data = orjson.loads(path.read_bytes())
    path.write_bytes(orjson.dumps({**data, **change}))
    with pytest.raises(ArtifactError) as caught:
        streamed.read_experiment(path)
    assert caught.value.field == next(iter(change)) or caught.value.field.startswith(next(iter(change)))


def test_the_scan_gives_up_on_a_file_that_is_not_an_object_at_its_first_chunk(tmp_path, monkeypatch):
    """The scan has no size bound (it holds a chunk, whatever the size: a 110 MB experiment of 100,000 items is
    the pipeline's own), so a file of NUL bytes (no token in it) must not be read on to its end: a 200 MB one was
    scanned for minutes (issue 29's suite-time hunt). It is Unreadable after one chunk, and the full read then
    refuses it by size with the usual line."""
    from gaia_eval.artifacts.inputs import set_max_input_mb

    path = tmp_path / "big.experiment.json"
    with open(path, "wb") as fh:
        fh.truncate(3_000_000)
    read: list[int] = []
    opened = stream.open_input

    def counting(p, what="a file"):
        fh = opened(p, what)
        real = fh.read
        fh.read = lambda n=-1: read.append(n) or real(n)  # type: ignore[method-assign]
        return fh

    monkeypatch.setattr(stream, "CHUNK", 4096)
    monkeypatch.setattr(stream, "open_input", counting)
    with pytest.raises(stream.Unreadable):
        stream.scan(path, frozenset({"items"}))
    assert len(read) == 1  # one chunk, not the 700 of the file
    set_max_input_mb(1)
    try:
        with pytest.raises(InputError, match="over the 1 MB input limit for a file this command reads whole"):
            streamed.read_experiment(path)
    finally:
        set_max_input_mb(None)


def test_write_streamed_writes_write_artifacts_bytes_an_element_at_a_time(experiments: Path, tmp_path: Path):
    from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth

    for path in sorted(experiments.glob("*.experiment.json")):
        exp = read_artifact(path, Experiment)
        out = tmp_path / path.name
        header = exp.model_copy(update={"items": [], "sources": {}})
        big = {"items": exp.items, "sources": sorted(exp.sources.items())}
        assert streamed.write_streamed(out, header, big) is True
        assert out.read_bytes() == canonical_json(exp) == path.read_bytes()
        assert streamed.write_streamed(out, header, big) is False  # the same bytes: not rewritten
        one = exp.model_copy(update={"items": exp.items[:1], "sources": dict(sorted(exp.sources.items())[:1])})
        streamed.write_streamed(out, header, {"items": one.items, "sources": sorted(one.sources.items())})
        assert out.read_bytes() == canonical_json(one)
    empty = ConsolidatedGroundTruth(use_case="qa", source_files=[], items=[])
    streamed.write_streamed(tmp_path / "gt.json", empty, {"items": iter([])})
    assert (tmp_path / "gt.json").read_bytes() == canonical_json(empty)
