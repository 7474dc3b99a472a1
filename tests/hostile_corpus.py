"""The hostile-input corpus walked by tests/test_hostile_inputs.py: every command that reads a file, fed broken,
hostile or oversized files and fields. Each case says what a clean answer is: the exit code (2 for an input
error, 0 where a hostile name is safely encoded), and `run_case` checks the rest: exactly one line on stderr, no
traceback, no file changed or written outside the output folder.

Run as a script for the table of cases per command and how many are clean (the figures of issue 19):
    .venv/bin/python tests/hostile_corpus.py
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli

# Bounds a hang (a FIFO read forever); not a speed assertion. The script's before/after table may lower it.
SUBPROCESS_TIMEOUT_S = float(os.environ.get("HOSTILE_CORPUS_TIMEOUT_S", "120"))
SUBPROCESS_MEMORY = (
    4 << 30
)  # address-space cap of a subprocess case: a runaway read of /dev/zero fails, not the machine


def _cap_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (SUBPROCESS_MEMORY, SUBPROCESS_MEMORY))

SOURCE = ("Ann: we ship the release on Friday after the tests pass.\nBob: I will email the client by Thursday.\n"
          "Ann: the budget stays at 40,000 dollars.\n")
REFERENCE = "The team ships the release on Friday; Bob emails the client by Thursday; the budget stays at $40,000."


def _jsonl(rows: list) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def build_world(root: Path) -> Path:
    """Valid inputs of every kind, made once through the real commands: ground truth, experiments, evaluations,
    a config, a suite and its baseline, ratings, answers to check."""
    root.mkdir(parents=True, exist_ok=True)
    rows = [{"item_id": f"m{i}", "source": SOURCE + f"Item {i}.\n", "references": [REFERENCE],
             "qa": [{"question": "When does the release ship?", "answer": "Friday"}]} for i in range(2)]
    (root / "gt.jsonl").write_bytes(_jsonl(rows))
    _must(["import-groundtruth", str(root / "gt.jsonl"), "-o", str(root / "gt")])
    outputs = [{"item_id": f"m{i}", "system": s, "output": REFERENCE if s == "good" else "Nothing happened."}
               for i in range(2) for s in ("good", "bad")]
    (root / "outputs.jsonl").write_bytes(_jsonl(outputs))
    gt = str(root / "gt" / "consolidated_summarization_groundtruth.json")
    _must(["import-outputs", str(root / "outputs.jsonl"), "-g", gt, "-o", str(root / "exp")])
    _must(["eval", "-d", str(root / "exp"), "-g", gt, "-o", str(root / "ev")])
    (root / "config.json").write_text(
        json.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]})
    )
    (root / "suite.jsonl").write_bytes(
        _jsonl([{"id": "t1", "prompt": "What is 2 plus 3?", "kind": "numeric", "expected": 5}])
    )
    (root / "baseline.json").write_text(json.dumps({"success_rate": 1.0}))
    ratings = [
        {
            "item_id": f"d{i}",
            "system": s,
            "output": REFERENCE[: 20 + 10 * k],
            "references": [REFERENCE],
            "human": {"relevance": [1 + k + (i % 2), 2 + k]},
        }
        for i in range(4)
        for k, s in enumerate(("a", "b", "c"))
    ]
    (root / "ratings.jsonl").write_bytes(_jsonl(ratings))
    (root / "answers.jsonl").write_bytes(_jsonl([{"expected": "Paris", "answer": "paris"}]))
    (root / "doc.txt").write_text(SOURCE)
    return root


def _must(argv: list[str]) -> None:
    result = CliRunner().invoke(cli, argv, catch_exceptions=False)
    if result.exit_code != 0:
        raise RuntimeError(f"building the corpus world failed: {argv}: {result.output}")


@dataclass(frozen=True)
class Case:
    command: str  # the table's row
    name: str
    argv: Callable[[Path, Path, Path], list[str]]  # (world, hostile path, output folder) -> arguments
    make: Callable[[Path, Path], Path]  # (sandbox input folder, world) -> the hostile path it made
    expect: int = 2
    process: bool = False  # run in a subprocess: a hang or a runaway read must be bounded
    flat_output: bool = False  # exit 0 expected: every file written lies directly in the output folder
    says: str = ""  # the one line must say this (the reason, not just any refusal)

    @property
    def id(self) -> str:
        return f"{self.command}:{self.name}"


# --- hostile files, independent of their content's meaning ------------------------------------------------------

def _file(name: str, data: bytes) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path
    return make


def _missing(name: str) -> Callable[[Path, Path], Path]:
    return lambda folder, world: folder / name


def _folder(name: str) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        (folder / name).mkdir()
        return folder / name
    return make


def _fifo(name: str) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        os.mkfifo(folder / name)
        return folder / name
    return make


def _device(name: str) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        (folder / name).symlink_to("/dev/zero")
        return folder / name
    return make


def _dangling(name: str) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        (folder / name).symlink_to(folder / "nowhere")
        return folder / name
    return make


def _huge(name: str, megabytes: int = 200) -> Callable[[Path, Path], Path]:
    def make(folder: Path, world: Path) -> Path:
        with open(folder / name, "wb") as fh:  # sparse: 200 MB of size, no disk used
            fh.truncate(megabytes * 1_000_000)
        return folder / name
    return make


DEEP = b"[" * 100_000 + b"]" * 100_000


def file_variants(
    name: str, valid: bytes, *, json_kind: bool, folder_ok: bool = False
) -> dict[str, Callable[[Path, Path], Path]]:
    """The broken-file cases of one input slot, `valid` being content the slot accepts."""
    text = valid.decode("utf-8")
    variants: dict[str, Callable[[Path, Path], Path]] = {
        "missing": _missing(name),
        "empty": _file(name, b""),
        "binary": _file(name, bytes(range(256)) * 8),
        "utf16-bom": _file(name, text.encode("utf-16")),
        "utf16-no-bom": _file(name, text.encode("utf-16-le")),
        "latin1": _file(name, valid.replace(b"e", b"\xe9", 3)),
        "huge-200mb": _huge(name),
        "dangling-symlink": _dangling(name),
        "fifo": _fifo(name),
        "device": _device(name),
    }
    if not folder_ok:
        variants["folder"] = _folder(name)
    if json_kind:
        variants.update({
            "truncated": _file(name, valid[: len(valid) // 2]),
            "deep-100k": _file(name, DEEP),
            "top-level-list-of-numbers": _file(name, b"[1, 2, 3]\n"),
            "top-level-string": _file(name, b'"text"\n'),
            "nan-literal": _file(name, valid.replace(b"[", b"[NaN, ", 1) if b"[" in valid else b"NaN"),
        })
    return variants


# --- the slots ----------------------------------------------------------------------------------------------------

def _valid_gt_rows() -> list[dict]:
    return [{"item_id": "a", "source": SOURCE, "references": [REFERENCE],
             "qa": [{"question": "When?", "answer": "Friday"}]}]


def _valid_output_rows() -> list[dict]:
    return [{"item_id": "a", "system": "s", "output": REFERENCE, "source": SOURCE}]


def _csv(rows: list[dict]) -> bytes:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows({k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in r.items()} for r in rows)
    return buf.getvalue().encode()


def _gt(world: Path, use_case: str = "summarization") -> str:
    return str(world / "gt" / f"consolidated_{use_case}_groundtruth.json")


SLOTS: list[tuple[str, str, bytes, bool, bool, Callable[[Path, Path, Path], list[str]]]] = [
    # (command, file name, valid content, JSON-ish, folder accepted, argv)
    (
        "import-groundtruth",
        "rows.jsonl",
        _jsonl(_valid_gt_rows()),
        True,
        False,
        lambda w, p, o: ["import-groundtruth", str(p), "-o", str(o)],
    ),
    (
        "import-groundtruth",
        "rows.json",
        json.dumps(_valid_gt_rows()).encode(),
        True,
        False,
        lambda w, p, o: ["import-groundtruth", str(p), "-o", str(o)],
    ),
    (
        "import-groundtruth",
        "rows.csv",
        _csv(_valid_gt_rows()),
        False,
        False,
        lambda w, p, o: ["import-groundtruth", str(p), "-o", str(o)],
    ),
    (
        "import-outputs",
        "outputs.jsonl",
        _jsonl(_valid_output_rows()),
        True,
        False,
        lambda w, p, o: ["import-outputs", str(p), "-o", str(o)],
    ),
    (
        "import-outputs",
        "outputs.csv",
        _csv(_valid_output_rows()),
        False,
        False,
        lambda w, p, o: ["import-outputs", str(p), "-o", str(o)],
    ),
    (
        "import-outputs",
        "consolidated.json",
        b'{"items": []}',
        True,
        False,
        lambda w, p, o: ["import-outputs", str(w / "outputs.jsonl"), "-g", str(p), "-o", str(o)],
    ),
    (
        "batch-experiment",
        "config.json",
        b'{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}',
        True,
        False,
        lambda w, p, o: ["batch-experiment", "-c", str(p), "-i", _gt(w), "-o", str(o), "--quiet"],
    ),
    (
        "batch-experiment",
        "gt.json",
        b'{"items": []}',
        True,
        True,
        lambda w, p, o: ["batch-experiment", "-c", str(w / "config.json"), "-i", str(p), "-o", str(o), "--quiet"],
    ),
    (
        "eval",
        "x.experiment.json",
        b'{"experiment_name": "x", "items": []}',
        True,
        False,
        lambda w, p, o: ["eval", "-f", str(p), "-g", _gt(w), "-o", str(o)],
    ),
    (
        "eval",
        "gt.json",
        b'{"items": []}',
        True,
        False,
        lambda w, p, o: ["eval", "-f", str(w / "exp" / "good.experiment.json"), "-g", str(p), "-o", str(o)],
    ),
    (
        "groundtruth",
        "doc.txt",
        SOURCE.encode(),
        False,
        False,
        lambda w, p, o: ["groundtruth", "-f", str(p), "-o", str(o), "--quiet"],
    ),
    (
        "create-template",
        "gt.json",
        b'{"items": []}',
        True,
        False,
        lambda w, p, o: ["create-template", "-i", str(p), "-o", str(o)],
    ),
    (
        "import-template",
        "x.template.jsonl",
        _jsonl([{"test_id": "m0", "input_text": SOURCE, "response": "r"}]),
        True,
        False,
        lambda w, p, o: ["import-template", str(p), "-i", _gt(w), "-o", str(o)],
    ),
    (
        "import-template",
        "x.template.csv",
        _csv([{"test_id": "m0", "input_text": SOURCE, "response": "r"}]),
        False,
        False,
        lambda w, p, o: ["import-template", str(p), "-i", _gt(w), "-o", str(o)],
    ),
    (
        "meta-eval",
        "ratings.jsonl",
        _jsonl([{"item_id": "d", "system": "a", "output": "x", "human": {"r": 3}}]),
        True,
        False,
        lambda w, p, o: ["meta-eval", str(p), "-o", str(o / "meta.json")],
    ),
    (
        "bench",
        "suite.jsonl",
        _jsonl([{"id": "t1", "prompt": "What is 2 plus 3?", "kind": "numeric", "expected": 5}]),
        True,
        False,
        lambda w, p, o: ["bench", str(p), "-o", str(o / "bench.json")],
    ),
    (
        "bench",
        "baseline.json",
        b'{"success_rate": 1.0}',
        True,
        False,
        lambda w, p, o: ["bench", str(w / "suite.jsonl"), "--baseline", str(p), "-o", str(o / "bench.json")],
    ),
    (
        "check-answer",
        "answers.jsonl",
        _jsonl([{"expected": "Paris", "answer": "paris"}]),
        True,
        False,
        lambda w, p, o: ["check-answer", "--jsonl", str(p)],
    ),
    (
        "summarize",
        "doc.txt",
        SOURCE.encode(),
        False,
        False,
        lambda w, p, o: ["summarize", "-i", str(p), "-o", str(o / "summary.json")],
    ),
]


# What the line must say for the hazards a generic refusal could hide (a FIFO read as empty, a device read until
# the size limit, UTF-16 called binary).
REASONS = {"fifo": "named pipe (FIFO)", "device": "is a device", "huge-200mb": "over the 100 MB input limit",
           "utf16-bom": "UTF-16"}


def _slot_cases() -> list[Case]:
    cases = []
    for command, name, valid, json_kind, folder_ok, argv in SLOTS:
        for variant, make in file_variants(name, valid, json_kind=json_kind, folder_ok=folder_ok).items():
            slow = variant in ("fifo", "device")
            cases.append(Case(command, f"{name}:{variant}", argv, make, process=slow, says=REASONS.get(variant, "")))
    return cases


# --- hostile fields -----------------------------------------------------------------------------------------------

def _gt_rows_case(name: str, rows: list, expect: int = 2, *, extra: tuple[str, ...] = (), suffix: str = ".jsonl",
                  raw: bytes | None = None) -> Case:
    data = raw if raw is not None else (_jsonl(rows) if suffix == ".jsonl" else _csv(rows))
    return Case("import-groundtruth", name, lambda w, p, o: ["import-groundtruth", str(p), "-o", str(o), *extra],
                _file(f"rows{suffix}", data), expect=expect, flat_output=expect == 0)


def _row(**fields) -> dict:
    base = {"item_id": "a", "source": SOURCE, "references": [REFERENCE]}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


ENCODED_IDS = ["../../ESCAPED", "/var/ESCAPE_i19b", "a/b", "..", ".", "...", ".hidden", "a\\b", "C:\\x", "a:b*c?",
               "<tag>|pipe", "trailing.", "trailing ", "100%", "%2F", "CON", "nul", "名前/../x"]
REFUSED_IDS = {"nul": "a\x00b", "newline": "a\nb", "escape": "\x1b[31mred", "del": "a\x7fb", "c1": "a\x85b",
               "line-separator": "a\u2028b", "tab": "a\tb",
               "bidi-override": "a\u202eb", "zero-width-space": "ad\u200bmin", "bom-inside": "a\ufeffb",
               "empty": "", "blank": "   ", "list": ["a"],
               "object": {"a": 1}, "bool": True, "float": 1.5, "too-long": "x" * 300, "too-long-utf8": "é" * 100}


def _field_cases() -> list[Case]:
    cases = []
    for i, item_id in enumerate(ENCODED_IDS):
        cases.append(_gt_rows_case(f"id-encoded-{i}:{item_id!r}", [_row(item_id=item_id)], expect=0))
    for label, item_id in REFUSED_IDS.items():
        cases.append(_gt_rows_case(f"id-refused:{label}", [_row(item_id=item_id)]))
    cases += [
        _gt_rows_case("id-int-accepted", [_row(item_id=17)], expect=0),
        _gt_rows_case("id-duplicate", [_row(), _row()]),
        _gt_rows_case("id-case-collision", [_row(item_id="Doc"), _row(item_id="doc")]),
        _gt_rows_case("id-unicode-collision", [_row(item_id="caf\u00e9"), _row(item_id="cafe\u0301")]),
        _gt_rows_case("id-missing", [_row(item_id=...)]),
        _gt_rows_case("references-number", [_row(references=123)]),
        _gt_rows_case("references-list-of-numbers", [_row(references=[1, 2])]),
        _gt_rows_case("references-object", [_row(references={"a": 1})]),
        _gt_rows_case("nothing-to-grade", [_row(references=...)]),
        _gt_rows_case("qa-string", [_row(references=..., qa="when?")]),
        _gt_rows_case("qa-missing-answer", [_row(references=..., qa=[{"question": "q"}])]),
        _gt_rows_case("qa-empty-answer", [_row(references=..., qa=[{"question": "q", "answer": ""}])]),
        _gt_rows_case("qa-blank-answer", [_row(references=..., qa=[{"question": "q", "answer": "  "}])]),
        _gt_rows_case("qa-empty-question", [_row(references=..., qa=[{"question": "", "answer": "a"}])]),
        _gt_rows_case("qa-number-answer", [_row(references=..., qa=[{"question": "q", "answer": 5}])]),
        _gt_rows_case("qa-list-of-numbers", [_row(references=..., qa=[1])]),
        _gt_rows_case("source-missing", [_row(source=...)]),
        _gt_rows_case("source-number", [_row(source=123)]),
        _gt_rows_case("source-file-not-found", [_row(source="missing.txt")]),
        _gt_rows_case("source-template-unknown-field", [_row(source=...)], extra=("--source-file", "{nope}.txt")),
        _gt_rows_case("source-template-positional", [_row(source=...)], extra=("--source-file", "{0}.txt")),
        _gt_rows_case("source-template-open-brace", [_row(source=...)], extra=("--source-file", "{.txt")),
        _gt_rows_case("source-template-attribute", [_row(source=...)], extra=("--source-file", "{item_id.real}.txt")),
        _gt_rows_case("source-template-missing-file", [_row(source=...)], extra=("--source-file", "{item_id}.txt")),
        _gt_rows_case(
            "jsonl-bad-line-in-the-middle", [], raw=_jsonl([_row()]) + b"{oops\n" + _jsonl([_row(item_id="b")])
        ),
        _gt_rows_case("jsonl-line-is-a-list", [], raw=_jsonl([_row()]) + b"[1,2,3]\n"),
        _gt_rows_case("jsonl-line-is-a-string", [], raw=b'"row"\n'),
        _gt_rows_case("jsonl-only-blank-lines", [], raw=b"\n\n  \n"),
        _gt_rows_case("jsonl-line-deep", [], raw=_jsonl([_row()]) + DEEP + b"\n"),
        _gt_rows_case("jsonl-trailing-garbage", [], raw=_jsonl([_row()]).rstrip(b"\n") + b" trailing\n"),
        _gt_rows_case("jsonl-nan", [], raw=b'{"item_id": "a", "source": "x", "references": NaN}\n'),
        _gt_rows_case("csv-header-only", [], suffix=".csv", raw=b"item_id,source,references\n"),
        _gt_rows_case("csv-qa-cell-not-json", [], suffix=".csv", raw=b"item_id,source,qa\na,text,[{oops\n"),
        _gt_rows_case(
            "csv-qa-cell-deep",
            [],
            suffix=".csv",
            raw=b'item_id,source,qa\na,text,"' + b"[" * 5000 + b"]" * 5000 + b'"\n',
        ),
        _gt_rows_case(
            "csv-id-path", [_row(item_id="../../ESCAPED_CSV", references=REFERENCE)], suffix=".csv", expect=0
        ),
        _gt_rows_case("bom-utf8-accepted", [], raw=b"\xef\xbb\xbf" + _jsonl([_row()]), expect=0),
    ]
    cases += _output_cases() + _config_cases() + _artifact_cases() + _other_cases()
    return cases


def _out_row(**fields) -> dict:
    base = {"item_id": "a", "system": "s", "output": REFERENCE, "source": SOURCE}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def _outputs_case(name: str, rows: list, expect: int = 2, *, suffix: str = ".jsonl", raw: bytes | None = None) -> Case:
    data = raw if raw is not None else (_jsonl(rows) if suffix == ".jsonl" else _csv(rows))
    return Case("import-outputs", name, lambda w, p, o: ["import-outputs", str(p), "-o", str(o)],
                _file(f"outputs{suffix}", data), expect=expect, flat_output=expect == 0)


def _output_cases() -> list[Case]:
    bad_numbers = {"input_tokens": [-1, 1.5, 1e30, "abc", True, [1]], "output_tokens": [-5, 2.5, 1e300],
                   "cost_usd": [-0.5, True, "free", {"usd": 1}], "latency_s": [-1, False, [0.1]]}
    cases = [_outputs_case(f"{key}={value!r}", [_out_row(**{key: value})])
             for key, values in bad_numbers.items() for value in values]
    csv_numbers = {
        "input_tokens": ["1.5", "-3", "1e30", "nan"],
        "cost_usd": ["nan", "inf", "-1"],
        "latency_s": ["-inf", "nan"],
    }
    cases += [_outputs_case(f"csv:{key}={value}", [_out_row(**{key: value})], suffix=".csv")
              for key, values in csv_numbers.items() for value in values]
    cases += [
        _outputs_case("system-slashes", [_out_row(system="///")]),
        _outputs_case("system-punctuation-only", [_out_row(system="?!*")]),
        _outputs_case("system-nul", [_out_row(system="a\x00b")]),
        _outputs_case("system-escape", [_out_row(system="\x1b]0;pwned\x07")]),
        _outputs_case("system-collision-a_b-a-b", [_out_row(system="a_b"), _out_row(system="a b")]),
        _outputs_case("system-collision-case", [_out_row(system="Model"), _out_row(system="model")]),
        _outputs_case("system-collision-dot", [_out_row(system="v1.5"), _out_row(system="v1_5")]),
        _outputs_case("system-path", [_out_row(system="../../ESCAPED_SYSTEM")], expect=0),
        _outputs_case("system-absolute", [_out_row(system="/tmp/ESCAPED_SYSTEM_i19b")], expect=0),
        _outputs_case("system-too-long", [_out_row(system="s" * 400)]),
        _outputs_case("system-bidi-override", [_out_row(system="gpt\u202e4o")]),
        _outputs_case("system-zero-width", [_out_row(system="base\u200bline")]),
        _outputs_case("system-list", [_out_row(system=["a"])]),
        _outputs_case("item-id-list", [_out_row(item_id=["a"])]),
        _outputs_case("item-id-nul", [_out_row(item_id="a\x00")]),
        _outputs_case("item-id-missing", [_out_row(item_id=...)]),
        _outputs_case("output-list", [_out_row(output=["x"])]),
        _outputs_case("output-missing", [_out_row(output=...)]),
        _outputs_case("duplicate-system-item", [_out_row(), _out_row(output="another")]),
        _outputs_case("no-source", [_out_row(source=...)]),
        _outputs_case(
            "bad-line-in-the-middle", [], raw=_jsonl([_out_row()]) + b"{oops\n" + _jsonl([_out_row(item_id="b")])
        ),
        _outputs_case("line-is-a-list", [], raw=b"[1,2,3]\n"),
    ]
    return cases


def _config_case(name: str, config, expect: int = 2) -> Case:
    return Case("batch-experiment", name,
                lambda w, p, o: ["batch-experiment", "-c", str(p), "-i", _gt(w), "-o", str(o), "--quiet"],
                _file("config.json", json.dumps(config).encode() if not isinstance(config, bytes) else config),
                expect=expect, flat_output=expect == 0)


def _spec(**fields) -> dict:
    base = {"name": "lead", "provider": "baseline", "model": "lead"}
    base.update(fields)
    return base


def _config_cases() -> list[Case]:
    return [
        _config_case("name-slashes", {"experiments": [_spec(name="///")]}),
        _config_case("name-nul", {"experiments": [_spec(name="le\x00ad")]}),
        _config_case("name-newline", {"experiments": [_spec(name="le\nad")]}),
        _config_case("name-path", {"experiments": [_spec(name="../../ESCAPED_EXP")]}, expect=0),
        _config_case("names-collide", {"experiments": [_spec(name="a b"), _spec(name="a_b", model="retrieval")]}),
        _config_case("name-list", {"experiments": [_spec(name=["lead"])]}),
        _config_case("max-tokens-bool", {"experiments": [_spec(max_tokens=True)]}),
        _config_case("max-tokens-fraction", {"experiments": [_spec(max_tokens=10.5)]}),
        _config_case("max-tokens-huge", {"experiments": [_spec(max_tokens=1e30)]}),
        _config_case(
            "temperature-inf",
            b'{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead", "temperature": 1e999}]}',
        ),
        _config_case("concurrency-negative", {"experiments": [_spec(max_concurrency=-2)]}),
        _config_case("price-negative", {"experiments": [_spec(price={"input_per_mtok": -1, "output_per_mtok": 1})]}),
        _config_case("timeout-bool", {"experiments": [_spec(timeout_s=True)]}),
        _config_case("experiments-empty", {"experiments": []}),
        _config_case("experiments-object", {"experiments": {"name": "lead"}}),
    ]


def _experiment(world: Path, mutate: Callable[[dict], None]) -> bytes:
    data = json.loads((world / "exp" / "good.experiment.json").read_text())
    mutate(data)
    return json.dumps(data).encode()


def _exp_case(name: str, mutate: Callable[[dict], None]) -> Case:
    def make(folder: Path, world: Path) -> Path:
        path = folder / "x.experiment.json"
        path.write_bytes(_experiment(world, mutate))
        return path
    return Case("eval", name, lambda w, p, o: ["eval", "-f", str(p), "-g", _gt(w), "-o", str(o)], make)


def _set_item(key: str, value) -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        data["items"][0][key] = value
    return mutate


def _set_usage(key: str, value, where: str = "usage") -> Callable[[dict], None]:
    def mutate(data: dict) -> None:
        data["items"][0][where] = {"input_tokens": 1, "output_tokens": 1, key: value}
    return mutate


def _baseline_case(name: str, baseline) -> Case:
    return Case("bench", f"baseline:{name}",
                lambda w, p, o: ["bench", str(w / "suite.jsonl"), "--baseline", str(p), "-o", str(o / "bench.json")],
                _file("baseline.json", json.dumps(baseline).encode()))


def _artifact_cases() -> list[Case]:
    cases = [
        _exp_case("negative-input-tokens", _set_usage("input_tokens", -5)),
        _exp_case("fractional-tokens", _set_usage("output_tokens", 1.5)),
        _exp_case("tokens-1e30", _set_usage("input_tokens", 1e30)),
        _exp_case("negative-cached-usage", _set_usage("input_tokens", -3, where="cached_usage")),
        _exp_case("negative-latency", _set_item("latency_s", -1.0)),
        _exp_case("latency-bool", _set_item("latency_s", True)),
        _exp_case("negative-cost", _set_item("cost_usd", -0.01)),
        _exp_case("calls-fraction", _set_item("calls", 0.5)),
        _exp_case("item-id-list", _set_item("item_id", ["a"])),
        _exp_case("items-object", lambda d: d.__setitem__("items", {"a": 1})),
        _exp_case("totals-negative-items", lambda d: d["totals"].__setitem__("items", -1)),
        _exp_case("unknown-key", lambda d: d.__setitem__("surprise", 1)),
        _exp_case("item-listed-twice", lambda d: d["items"].append(dict(d["items"][0]))),
        _baseline_case("success-rate-true", {"success_rate": True}),
        _baseline_case("success-rate-above-one", {"success_rate": 1.5}),
        _baseline_case("success-rate-negative", {"success_rate": -0.1}),
        _baseline_case("n-fraction", {"success_rate": 0.5, "n": 2.5}),
        _baseline_case("avg-steps-negative", {"success_rate": 0.5, "avg_steps": -1}),
        _baseline_case("empty-object", {}),
        _baseline_case("list", [0.5]),
    ]
    return cases


def _other_cases() -> list[Case]:
    def suite(name: str, rows: bytes) -> Case:
        return Case("bench", f"suite:{name}", lambda w, p, o: ["bench", str(p), "-o", str(o / "bench.json")],
                    _file("suite.jsonl", rows))

    def ratings(name: str, rows: bytes, suffix: str = ".jsonl") -> Case:
        return Case("meta-eval", name, lambda w, p, o: ["meta-eval", str(p), "-o", str(o / "meta.json")],
                    _file(f"ratings{suffix}", rows))

    def answers(name: str, rows: bytes) -> Case:
        return Case(
            "check-answer", name, lambda w, p, o: ["check-answer", "--jsonl", str(p)], _file("answers.jsonl", rows)
        )

    def template(name: str, file: str, data: bytes) -> Case:
        return Case("import-template", name, lambda w, p, o: ["import-template", str(p), "-i", _gt(w), "-o", str(o)],
                    _file(file, data))

    def create(name: str, extra: tuple[str, ...]) -> Case:
        return Case("create-template", name, lambda w, p, o: ["create-template", "-i", _gt(w), "-o", str(o), *extra],
                    _missing("unused"))

    rating = {"item_id": "d", "system": "a", "output": "x", "human": {"r": [3, 4]}}
    return [
        suite("task-line-list", b"[1,2,3]\n"),
        suite("duplicate-ids", _jsonl([{"id": "t", "prompt": "p", "kind": "numeric", "expected": 1}] * 2)),
        suite("missing-prompt", _jsonl([{"id": "t", "kind": "numeric", "expected": 1}])),
        suite("bad-line", b'{"id": "t", "prompt": "p", "kind": "numeric", "expected": 1}\n{oops\n'),
        ratings("human-bool", _jsonl([{**rating, "human": {"r": True}}])),
        ratings("human-empty-list", _jsonl([{**rating, "human": {"r": []}}])),
        ratings("human-string", _jsonl([{**rating, "human": {"r": "good"}}])),
        ratings("human-huge-exponent", b'{"item_id": "d", "system": "a", "output": "x", "human": {"r": 1e999}}\n'),
        ratings("item-id-list", _jsonl([{**rating, "item_id": ["d"]}])),
        ratings("duplicate-item-system", _jsonl([rating, rating])),
        ratings("line-is-a-list", b"[1,2,3]\n"),
        ratings("csv-bad-cell", b"item_id,system,output,human.r\nd,a,x,[oops\n", ".csv"),
        ratings("csv-no-human-column", b"item_id,system,output\nd,a,x\n", ".csv"),
        answers("line-is-a-list", b"[1,2,3]\n"),
        answers("missing-expected", _jsonl([{"answer": "x"}])),
        answers("bad-mode", _jsonl([{"expected": "x", "answer": "x", "mode": "telepathy"}])),
        answers("line-deep", DEEP + b"\n"),
        template("jsonl-line-list", "x.template.jsonl", b"[1,2,3]\n"),
        template(
            "jsonl-test-id-list", "x.template.jsonl", _jsonl([{"test_id": ["m0"], "input_text": "t", "response": "r"}])
        ),
        template("json-records-not-list", "x.template.json", b'{"records": {"a": 1}}'),
        template("json-deep", "x.template.json", DEEP),
        template("xml-malformed", "x.template.xml", b"<template><record>"),
        template(
            "xml-entity-bomb",
            "x.template.xml",
            b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
            b'<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">'
            b'<!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>'
            b"<template><record><test_id>&h;</test_id></record></template>",
        ),
        template("csv-missing-response-column", "x.template.csv", b"test_id,input_text\nm0,text\n"),
        create("name-slashes", ("--name", "///")),
        create("name-nul", ("--name", "a\x00b")),
        create("name-escape", ("--name", "\x1b[2J")),
        create("name-too-long", ("--name", "n" * 300)),
    ]


def _broken_member(world_folder: str, member: str, breakage) -> Callable[[Path, Path], Path]:
    """A copy of one of the world's folders with one file broken: bytes, a JSON edit, or a FIFO in its place."""
    def make(folder: Path, world: Path) -> Path:
        import shutil

        copy = folder / world_folder
        if world_folder == "docs":
            copy.mkdir()
            (copy / "ok.txt").write_text(SOURCE)
        else:
            shutil.copytree(world / world_folder, copy)
        target = copy / member
        if breakage == "fifo":
            target.unlink(missing_ok=True)
            os.mkfifo(target)
        elif callable(breakage):
            data = json.loads(target.read_text())
            breakage(data)
            target.write_text(json.dumps(data))
        else:
            target.write_bytes(breakage)
        return copy
    return make


def _folder_cases() -> list[Case]:
    """Folders given to -d whose files are broken: every one is read through the same policy."""
    def grade(key: str, value):
        return lambda data: data["grade"].__setitem__(key, value)

    def usage(value):
        return lambda data: data["items"][0]["usage"].__setitem__("input_tokens", value)

    common = {"binary": bytes(range(256)) * 4, "utf16": b'{"a": 1}'.decode().encode("utf-16"),
              "latin1": b'{"caf\xe9": 1}', "deep": DEEP, "truncated": b'{"items": [', "fifo": "fifo"}
    folders = [
        ("report", "ev", "good.experiment.eval.json",
         {**common, "negative-count": grade("n_items", -1), "count-bool": grade("n_errors", True),
          "pass-rate-above-one": grade("pass_rate", 1.5), "score-string": grade("quality_score", "high")},
         lambda w, p, o: ["report", "-d", str(p), "-o", str(o / "report.md")]),
        ("eval", "exp", "good.experiment.json",
         {**common, "negative-tokens": usage(-1), "tokens-bool": usage(False), "tokens-fraction": usage(0.5)},
         lambda w, p, o: ["eval", "-d", str(p), "-g", _gt(w), "-o", str(o)]),
        ("groundtruth", "docs", "bad.txt", {k: common[k] for k in ("binary", "utf16", "latin1", "fifo")},
         lambda w, p, o: ["groundtruth", "-d", str(p), "-o", str(o), "--quiet"]),
    ]
    return [Case(command, f"-d:{member}:{name}", argv, _broken_member(world_folder, member, breakage),
                 process=breakage == "fifo")
            for command, world_folder, member, breakages, argv in folders for name, breakage in breakages.items()]


def _rows_with(rows: Callable[[Path, Path], list[dict]], extra: tuple[str, ...] = (),
               around: Callable[[Path, Path], None] | None = None) -> Callable[[Path, Path], Path]:
    """rows.jsonl made from the sandbox folder and the world (so a row can name a file outside its folder)."""
    def make(folder: Path, world: Path) -> Path:
        if around is not None:
            around(folder, world)
        (folder / "rows.jsonl").write_bytes(_jsonl(rows(folder, world)))
        return folder / "rows.jsonl"
    return make


def _secret_beside(folder: Path, world: Path) -> None:
    (folder.parent / "secret.txt").write_text("SECRET beside the data folder.\n")


def _link_out(folder: Path, world: Path) -> None:
    (folder / "link.txt").symlink_to(world / "doc.txt")


def _docs_with_link_out(folder: Path, world: Path) -> Path:
    docs = folder / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text(SOURCE)
    (docs / "evil.txt").symlink_to(world / "doc.txt")
    return docs


def _path_escape_cases() -> list[Case]:
    """Issue 29: a path that data names must stay inside the folder the user named (it is sent to a model)."""
    def gt(name: str, make: Callable[[Path, Path], Path], says: str, extra: tuple[str, ...] = ()) -> Case:
        return Case("import-groundtruth", name,
                    lambda w, p, o: ["import-groundtruth", str(p), "-o", str(o), *extra], make, says=says)

    template = ("--source-file", "{item_id}.txt")
    return [
        gt("source-absolute-path", _rows_with(lambda f, w: [_row(source=str(w / "doc.txt"))]),
           "is not a path relative"),
        gt("source-dot-dot", _rows_with(lambda f, w: [_row(source="../secret.txt")], around=_secret_beside),
           "resolves outside"),
        gt("source-symlink-out", _rows_with(lambda f, w: [_row(source="link.txt")], around=_link_out),
           "resolves outside"),
        gt("source-file-id-dot-dot",
           _rows_with(lambda f, w: [_row(item_id="../secret", source=...)], around=_secret_beside),
           "resolves outside", template),
        gt("source-file-id-absolute", _rows_with(lambda f, w: [_row(item_id=str(w / "doc"), source=...)]),
           "resolves outside", template),
        Case("groundtruth", "-d:symlink-out", lambda w, p, o: ["groundtruth", "-d", str(p), "-o", str(o), "--quiet"],
             _docs_with_link_out, says="resolves outside"),
    ]


def _raw_jsonl(rows: list[dict]) -> bytes:
    """JSON Lines with every character raw (U+2028, U+2029, U+0085 are valid unescaped inside a JSON string)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


SEPARATORS = "line\u2028para\u2029next\u0085end"


def _valid_jsonl_cases() -> list[Case]:
    """Issue 29: valid JSON Lines holding raw line/paragraph separators inside strings are read, not split."""
    rating = {"item_id": "d", "system": "a", "output": "x " + SEPARATORS, "human": {"r": [3, 4]}}
    others = [{**rating, "system": s, "output": s, "human": {"r": [n, n]}} for n, s in ((2, "b"), (5, "c"))]
    return [
        _gt_rows_case("raw-line-separators", [], raw=_raw_jsonl([_row(references=[REFERENCE + SEPARATORS])]),
                      expect=0),
        _outputs_case("raw-line-separators", [], raw=_raw_jsonl([_out_row(output=REFERENCE + SEPARATORS)]),
                      expect=0),
        Case("bench", "suite:raw-line-separators", lambda w, p, o: ["bench", str(p), "-o", str(o / "bench.json")],
             _file("suite.jsonl", _raw_jsonl([{"id": "t1", "prompt": "What is 2 plus 3? " + SEPARATORS,
                                                "kind": "numeric", "expected": 5}])), expect=0),
        Case("import-template", "raw-line-separators",
             lambda w, p, o: ["import-template", str(p), "-i", _gt(w), "-o", str(o)],
             _file("x.template.jsonl", _raw_jsonl([{"test_id": "m0", "use_case": "summarization", "input_text": SOURCE,
                                                    "response": "r " + SEPARATORS}])), expect=0),
        Case("meta-eval", "raw-line-separators", lambda w, p, o: ["meta-eval", str(p), "-o", str(o / "meta.json")],
             _file("ratings.jsonl", _raw_jsonl([rating, *others])), expect=0),
        Case("check-answer", "raw-line-separators", lambda w, p, o: ["check-answer", "--jsonl", str(p)],
             _file("answers.jsonl", _raw_jsonl([{"expected": "Paris", "answer": "Paris" + SEPARATORS}])), expect=0),
        Case("check-answer", "regex-catastrophic-backtracking", lambda w, p, o: ["check-answer", "--jsonl", str(p)],
             _file("answers.jsonl", _jsonl([{"expected": "(x+x+)+y", "answer": "x" * 5000, "mode": "regex"}])),
             process=True, says="catastrophic backtracking"),
    ]


def _deep_metadata(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels):
        value = {"a": value}
    return value


def _overflow_cases() -> list[Case]:
    """Issue 29: numbers each in range whose totals are not, and settings that crashed or hung."""
    def two(**fields) -> list[dict]:
        return [_out_row(item_id=i, **fields) for i in ("a", "b")]

    return [
        _outputs_case("totals-cost-1e308-twice", two(cost_usd=1e308)),
        _outputs_case("totals-latency-1e308-twice", two(latency_s=1e308)),
        _outputs_case("totals-tokens-1e15-twice", two(input_tokens=10**15)),
        _config_case("base-url-broken-ipv6", {"experiments": [_spec(provider="openai", model="gpt-4o-mini",
                                                                    base_url="http://[::1")]}),
        _config_case("base-url-no-scheme", {"experiments": [_spec(provider="openai", model="m", base_url="[::1]")]}),
        Case("batch-experiment", "requests-per-minute-1e-300",
             lambda w, p, o: ["batch-experiment", "-c", str(p), "-i", _gt(w), "-o", str(o), "--quiet"],
             _file("config.json", json.dumps({"experiments": [_spec(requests_per_minute=1e-300)]}).encode()),
             process=True, says="requests_per_minute"),
        Case("meta-eval", "output-is-an-existing-folder",
             lambda w, p, o: ["meta-eval", str(w / "ratings.jsonl"), "-o", str(p)], _folder("meta"),
             says="is a folder, expected a file path"),
        Case("create-template", "output-is-a-file",
             lambda w, p, o: ["create-template", "-i", _gt(w), "-o", str(p)], _file("taken", b"x"),
             says="is a file, expected a folder"),
        Case("bench", "suite:metadata-900-deep", lambda w, p, o: ["bench", str(p), "-o", str(o / "bench.json")],
             _file("suite.jsonl", _jsonl([{"id": "t1", "prompt": "What is 2 plus 3?", "kind": "numeric",
                                           "expected": 5, "metadata": _deep_metadata(900)}])), says="nests deeper"),
    ]


def all_cases() -> list[Case]:
    return (_slot_cases() + _field_cases() + _folder_cases() + _path_escape_cases() + _valid_jsonl_cases()
            + _overflow_cases())


# --- running one case ---------------------------------------------------------------------------------------------

def _snapshot(root: Path, skip: Path) -> dict[str, str]:
    found = {}
    for path in sorted(root.rglob("*")):
        if path == skip or skip in path.parents:
            continue
        if path.is_symlink() or not path.is_file():
            found[str(path)] = "link" if path.is_symlink() else "dir"
            continue
        stat = path.stat()
        if stat.st_size > 10_000_000:
            found[str(path)] = f"size:{stat.st_size}:{stat.st_mtime_ns}"
        else:
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@dataclass
class Outcome:
    clean: bool
    why: str = ""
    stderr: str = ""


def run_case(case: Case, world: Path, sandbox: Path) -> Outcome:
    """Run one case in `sandbox` (an empty folder): the hostile input goes in sandbox/in, the output folder is
    sandbox/deep/er/out, so a write two folders above it still lands inside the snapshot."""
    inputs = sandbox / "in"
    inputs.mkdir(parents=True)
    out = sandbox / "deep" / "er" / "out"
    out.parent.mkdir(parents=True)
    hostile = case.make(inputs, world)
    argv = case.argv(world, hostile, out)
    before = _snapshot(sandbox, out), _snapshot(world, world / "__none__")
    if case.process:
        try:
            done = subprocess.run([sys.executable, "-m", "gaia_eval", *argv], capture_output=True, text=True,
                                  timeout=SUBPROCESS_TIMEOUT_S, cwd=sandbox, stdin=subprocess.DEVNULL,
                                  preexec_fn=_cap_memory)
        except subprocess.TimeoutExpired:
            return Outcome(False, f"hung for {SUBPROCESS_TIMEOUT_S} s")
        code, stderr = done.returncode, done.stderr
    else:
        cwd = os.getcwd()
        os.chdir(sandbox)
        try:
            result = CliRunner().invoke(cli, argv)
        finally:
            os.chdir(cwd)
        code, stderr = result.exit_code, result.stderr
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            return Outcome(False, f"traceback: {type(result.exception).__name__}: {str(result.exception)[:120]}")
    after = _snapshot(sandbox, out), _snapshot(world, world / "__none__")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if "Traceback" in stderr:
        return Outcome(False, "traceback on stderr")
    if code != case.expect:
        return Outcome(False, f"exit {code}, expected {case.expect}: {stderr.strip()[:200]}")
    if case.expect == 2 and len(lines) != 1:
        return Outcome(False, f"{len(lines)} lines on stderr: {stderr[:300]!r}")
    if case.says and case.says not in stderr:
        return Outcome(False, f"the line does not say {case.says!r}: {stderr.strip()[:200]}")
    if before != after:
        changed = sorted(
            set(before[0].items()) ^ set(after[0].items()) | set(before[1].items()) ^ set(after[1].items())
        )
        return Outcome(False, f"files changed outside the output folder: {[p for p, _ in changed][:3]}")
    if case.expect == 2 and out.exists() and any(out.iterdir()):
        return Outcome(
            False, f"an input error left files in the output folder: {sorted(p.name for p in out.iterdir())[:3]}"
        )
    if case.flat_output:
        nested = [p for p in out.rglob("*") if p.parent != out]
        if nested:
            return Outcome(False, f"wrote below the output folder's top level: {nested[0]}")
    return Outcome(True, stderr=stderr)


def main() -> None:
    cases = all_cases()
    with tempfile.TemporaryDirectory() as tmp:
        world = build_world(Path(tmp) / "world")
        total: Counter[str] = Counter()
        clean: Counter[str] = Counter()
        for n, case in enumerate(cases):
            outcome = run_case(case, world, Path(tmp) / f"case{n}")
            total[case.command] += 1
            clean[case.command] += outcome.clean
            if not outcome.clean:
                print(f"NOT CLEAN {case.id}: {outcome.why}", file=sys.stderr)
    print("| command | hostile cases | clean |\n|---|---|---|")
    for command in sorted(total):
        print(f"| {command} | {total[command]} | {clean[command]} |")
    print(f"| **all** | {sum(total.values())} | {sum(clean.values())} |")


if __name__ == "__main__":
    main()
