"""import-results against files no tool would write but a user may hand it: a multiple-choice lm-eval file as
lm_eval writes it (log-likelihoods as strings), samples of unexpected shapes, negative token counts, zip members
that decompress beyond what they declare. Each is a correct import or one clear line (exit 2): no traceback, and
nothing written."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.interop.inspect_log import _read_fallback

DATA = Path(__file__).parent / "data" / "interop"
INSPECT = DATA / "inspect_capitals.eval"
PROMPTFOO = DATA / "promptfoo_capitals.json"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _one_line_refusal(result, out: Path, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert all(n in result.output for n in needles), result.output
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def _mc_line(doc_id: int, lls: list[str], target: int, choices: list[str], filt: str) -> str:
    return json.dumps({
        "doc_id": doc_id, "doc": {}, "target": target, "filter": filt, "metrics": ["acc"],
        "arguments": {f"gen_args_{i}": {"arg_0": "Capital of France?", "arg_1": f" {c}"}
                      for i, c in enumerate(choices)},
        "resps": [[[ll, "False"]] for ll in lls], "filtered_resps": [[ll, "False"] for ll in lls],
        "acc": 1.0 if max(range(len(lls)), key=lambda i: float(lls[i])) == target else 0.0,
    })


def test_lm_eval_multiple_choice_as_lm_eval_writes_it(tmp_path: Path) -> None:
    # lm_eval's sample logger writes every leaf of filtered_resps as a string; two filters make two runs.
    choices = ["Paris", "Lyon", "Nice"]
    lines = [_mc_line(0, ["-1.5", "-9.0", "-7.25"], 0, choices, "none"),
             _mc_line(1, ["-8.0", "-0.5", "-7.0"], 0, choices, "none"),
             _mc_line(0, ["-1.5", "-9.0", "-7.25"], 0, choices, "strict"),
             _mc_line(1, ["-8.0", "-0.5", "-7.0"], 0, choices, "strict")]
    path = tmp_path / "samples_capmc_2026-01-01T00-00-00.000000.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    result = _run("import-results", str(path), "-o", str(out))
    assert result.exit_code == 0, result.output
    experiments = sorted((out / "experiments").glob("*.experiment.json"))
    assert len(experiments) == 2
    items = json.loads(experiments[0].read_text())["items"]
    assert [i["answer"] for i in items] == ["Paris", "Lyon"]  # the most likely choice, not the list as text
    assert {i["groundtruth_answer"]["answer"] for i in items} == {"Paris"}  # the target index's continuation


def _rewrite_sample(tmp_path: Path, change) -> Path:
    """The committed Inspect log with its first sample changed by `change`, deflate-compressed."""
    header, samples = _read_fallback(INSPECT)
    rows = list(samples)
    change(rows[0])
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", json.dumps(header))
        for row in rows:
            z.writestr(f"samples/{row['id']}_epoch_{row['epoch']}.json", json.dumps(row))
    return path


def _set_usage(value):
    def change(row):
        for usage in row["model_usage"].values():
            usage["input_tokens"] = value
    return change


@pytest.mark.parametrize("change", [
    lambda r: r.update(epoch="x"),
    lambda r: r.update(output="just a string"),
    lambda r: r.update(scores=["C"]),
    lambda r: r.update(target=5),
    _set_usage(-5),
    _set_usage("lots"),
], ids=["epoch-text", "output-string", "scores-list", "target-number", "tokens-negative", "tokens-text"])
def test_an_inspect_sample_of_another_shape_is_one_line(tmp_path: Path, change) -> None:
    path = _rewrite_sample(tmp_path, change)
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "log.eval", "samples/")


def test_an_inspect_header_of_another_shape_is_one_line(tmp_path: Path) -> None:
    header, samples = _read_fallback(INSPECT)
    rows = list(samples)
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", json.dumps({**header, "eval": "oops"}))
        for row in rows:
            z.writestr(f"samples/{row['id']}_epoch_{row['epoch']}.json", json.dumps(row))
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "log.eval", "header.json")


@pytest.mark.parametrize("change", [
    lambda r: r.update(provider=["x"], promptIdx="zero"),
    lambda r: r.update(response={"output": {"text": "Paris"}, "tokenUsage": {"prompt": "many"}}),
    lambda r: r.update(gradingResult={"componentResults": ["not an object"]}),
], ids=["provider-and-index", "tokens-text", "component-not-object"])
def test_a_promptfoo_row_of_another_shape_is_one_line(tmp_path: Path, change) -> None:
    data = json.loads(PROMPTFOO.read_text())
    change(data["results"]["results"][0])
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "results.json", "results.results[0]")


def test_promptfoo_output_object_and_non_string_vars_import(tmp_path: Path) -> None:
    data = json.loads(PROMPTFOO.read_text())
    row = data["results"]["results"][0]
    row["response"]["output"] = {"answer": "Paris"}
    row["vars"] = {**(row.get("vars") or {}), "n": 3, "tags": ["a"]}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    result = _run("import-results", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output


def _zip_with_raw_member(path: Path, name: str, raw: bytes, method: int, declared: int) -> None:
    """A zip whose member `name` holds `raw` (already compressed with `method`) and declares `declared` bytes."""
    import struct
    import zlib

    header, _ = _read_fallback(INSPECT)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", json.dumps(header))
        z.writestr(zipfile.ZipInfo(name), raw)  # stored: patched below
    data = bytearray(path.read_bytes())
    crc = zlib.crc32(b"")
    for signature, method_at, crc_at, size_at, name_at in ((b"PK\x03\x04", 8, 14, 22, 30),
                                                            (b"PK\x01\x02", 10, 16, 24, 46)):
        at = data.find(signature + b"")
        while at >= 0:
            name_len = struct.unpack_from("<H", data, at + (26 if signature == b"PK\x03\x04" else 28))[0]
            if bytes(data[at + name_at:at + name_at + name_len]) == name.encode():
                struct.pack_into("<H", data, at + method_at, method)
                struct.pack_into("<I", data, at + crc_at, crc)
                struct.pack_into("<I", data, at + size_at, declared)
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))


def test_a_zstd_member_that_decompresses_beyond_its_declared_size_is_refused(tmp_path: Path) -> None:
    zstandard = pytest.importorskip("zstandard")
    raw = zstandard.ZstdCompressor(level=3).compress(b" " * (64 << 20))  # 64 MiB of spaces in a few KB
    path = tmp_path / "bomb.eval"
    _zip_with_raw_member(path, "samples/fr_epoch_1.json", raw, 93, 100)
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "samples/fr_epoch_1.json",
                      "more than the 100 bytes")


def test_a_deflate_member_that_decompresses_beyond_its_declared_size_is_refused(tmp_path: Path) -> None:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(b" " * (8 << 20)) + packer.flush()
    path = tmp_path / "bomb.eval"
    _zip_with_raw_member(path, "samples/fr_epoch_1.json", raw, zipfile.ZIP_DEFLATED, 100)
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "samples/fr_epoch_1.json")


def test_a_member_declaring_more_than_a_log_holds_is_refused_before_reading(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from gaia_eval.interop import inspect_log

    header, samples = _read_fallback(INSPECT)
    path = tmp_path / "big.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", json.dumps(header))
        z.writestr("samples/fr_epoch_1.json", json.dumps({**next(samples), "pad": " " * 50_000}))
    monkeypatch.setattr(inspect_log, "MAX_MEMBER_BYTES", 40_000)
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "samples/fr_epoch_1.json",
                      "at most 40000")


def test_two_samples_of_one_id_in_a_run_are_refused(tmp_path: Path) -> None:
    # Inspect ids 5 and "5" (or two samples with no id) are one text: one experiment would hold one item id twice.
    header, samples = _read_fallback(INSPECT)
    rows = list(samples)
    rows[0]["id"], rows[1]["id"] = 5, "5"
    rows[1]["input"], rows[1]["target"] = rows[0]["input"], rows[0]["target"]
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", json.dumps(header))
        for number, row in enumerate(rows):
            z.writestr(f"samples/s{number}_epoch_1.json", json.dumps(row))
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "sample '5'", "appears twice")


def test_two_promptfoo_rows_of_one_test_and_provider_are_refused(tmp_path: Path) -> None:
    data = json.loads(PROMPTFOO.read_text())
    first, second = data["results"]["results"][:2]
    second.update(testIdx=first["testIdx"], prompt=first["prompt"], testCase=first["testCase"], vars=first.get("vars"))
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "out"
    _one_line_refusal(_run("import-results", str(path), "-o", str(out)), out, "appears twice")
