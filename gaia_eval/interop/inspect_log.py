"""Inspect (inspect_ai) evaluation logs, `.eval` (a zip of JSON members, zstd- or deflate-compressed) and `.json`
(one JSON document), read into `ForeignRun`s.

Two readers give the same plain dictionaries to one mapping, so they import the same items (tests compare them):
- the direct reader, for the log format versions it knows (`KNOWN_VERSIONS`): the zip's `header.json` (or
  `_journal/start.json` of a run that did not finish) and its `samples/*.json` members, one at a time, in the
  dataset's order (zstd members through the zstandard library); a `.json` log whole. It reads a 10,000-sample log
  in a few seconds and the memory of a few samples, which inspect_ai's reader (pydantic models of every event)
  does not;
- inspect_ai's own reader (`read_eval_log`, `read_eval_log_samples`), where it is installed, for a version the
  direct reader does not know, so a newer format is read the way Inspect reads it.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import open_input, parse_json, read_input_bytes
from gaia_eval.errors import InputError
from gaia_eval.interop.records import (
    ForeignRun,
    ForeignSample,
    ForeignScore,
    score_number,
    shaped,
    text_of,
    token_count,
)

ZSTD = 93  # the zip compression method Inspect writes (zipfile reads it only from Python 3.14 on)
# A member (one sample's record, or the header) declaring more is refused before it is read: a log's members are
# kilobytes to a few megabytes, and a zip can declare (or a zstd frame hold) gigabytes in a few kilobytes.
MAX_MEMBER_BYTES = 256 << 20
_LOCAL_HEADER = 30
# The sample keys the fields of `ForeignSample` hold exactly; every other key is kept in `extra`, verbatim.
_EXACT = ("id", "epoch", "input", "target", "scores")


def is_inspect_log(path: Path, head: bytes) -> bool:
    """An `.eval` zip holding `header.json` or `_journal/start.json`, or a `.json` log (`"eval"` and `"status"`)."""
    if path.suffix == ".eval":
        return head.startswith(b"PK")
    return path.suffix == ".json" and b'"eval"' in head and b'"status"' in head


KNOWN_VERSIONS = (2,)  # the `version` of the log formats the direct reader was written and tested against


def read_inspect_log(path: Path, *, use_library: bool | None = None) -> list[ForeignRun]:
    """The log's runs (one: Inspect writes a log per task and model). `use_library` None: the direct reader for a
    known version, else inspect_ai's when it is installed; True/False force one (tests compare them)."""
    header, _ = _read_fallback(path)
    if use_library is None:
        use_library = header.get("version") not in KNOWN_VERSIONS and _has_inspect_ai()
    read = _read_with_inspect_ai if use_library else _read_fallback
    if use_library:
        header, _ = read(path)
    return [shaped(path, "header.json", _run, path, header, lambda: _ordered(path, read(path)[1]))]


def _ordered(path: Path, samples: Iterator[dict[str, Any]]) -> Iterator[ForeignSample]:
    for number, sample in enumerate(samples, 1):
        where = f"samples/ member {number} (id {sample.get('id')!r})" if isinstance(sample, dict) else \
            f"samples/ member {number}"
        yield shaped(path, where, _sample, sample)


def _has_inspect_ai() -> bool:
    import importlib.util

    return importlib.util.find_spec("inspect_ai") is not None


def _read_with_inspect_ai(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    from inspect_ai.log import read_eval_log, read_eval_log_samples

    try:
        log = read_eval_log(str(path), header_only=True)
    except Exception as exc:  # its reader's errors are many kinds; all mean "not a log it can read"
        raise InputError(f"is not an Inspect log inspect_ai can read ({type(exc).__name__}: {exc})", file=path,
                         fix="pass a .eval or .json log written by `inspect eval`") from None
    header = log.model_dump(mode="json", exclude={"samples", "reductions"})

    def samples() -> Iterator[dict[str, Any]]:
        for sample in read_eval_log_samples(str(path), all_samples_required=False):
            yield sample.model_dump(mode="json", exclude_none=True)

    return header, samples()


def read_log(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The log's header and its samples (read one at a time from a `.eval`), as plain dictionaries: for a reader
    that wants more of a log than a `ForeignRun` holds (the gaia-eval artifacts an exported log carries)."""
    return _read_fallback(path)


def _read_fallback(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    if path.suffix == ".json":
        log = parse_json(path, read_input_bytes(path, "an Inspect log"), fix="pass a log written by `inspect eval`")
        if not isinstance(log, dict) or "eval" not in log:
            raise InputError("is not an Inspect log (no 'eval' key)", file=path, field="eval",
                             fix="pass a .eval or .json log written by `inspect eval`")
        listed = log.pop("samples", None) or []
        return log, iter(listed)
    members = _ZipMembers(path)
    name = "header.json" if "header.json" in members.names else "_journal/start.json"
    if name not in members.names:
        members.close()
        raise InputError("is not an Inspect log (no header.json in the zip)", file=path,
                         fix="pass a .eval log written by `inspect eval`")
    header = members.json(name)
    if not isinstance(header, dict):
        members.close()
        raise InputError(f"{name}: not the shape the tool writes (not an object)", file=path,
                         fix="pass the file as the tool wrote it")
    names = shaped(path, name, _sample_members, header, members.names)

    def samples() -> Iterator[dict[str, Any]]:
        try:
            for member in names:
                yield members.json(member)
        finally:
            members.close()

    return header, samples()


def _sample_members(header: dict[str, Any], names: set[str]) -> list[str]:
    """The zip's sample members in the dataset's order, epoch by epoch (the order inspect_ai's reader gives);
    members the header does not list come last, by name."""
    order = {str(sid): n for n, sid in enumerate(((header.get("eval") or {}).get("dataset") or {}).get("sample_ids")
                                                 or [])}
    found = []
    for name in names:
        stem = name[len("samples/"):-len(".json")] if name.startswith("samples/") and name.endswith(".json") else None
        if stem is None:  # an id with "/" is a nested member name (Inspect writes it so)
            continue
        sample_id, _, epoch = stem.rpartition("_epoch_")
        found.append((int(epoch) if epoch.isdigit() else 0, order.get(sample_id, len(order)), name))
    return [name for *_, name in sorted(found)]


class _ZipMembers:
    """The members of a zip read one at a time, zstd-compressed ones included (with the zstandard library)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.handle = open_input(path, "an Inspect log")
            self.zip = zipfile.ZipFile(self.handle)
        except zipfile.BadZipFile as exc:
            raise InputError(f"is not a readable .eval zip ({exc})", file=path,
                             fix="pass a .eval log written by `inspect eval`") from None
        self.names = {info.filename for info in self.zip.infolist()}

    def close(self) -> None:
        self.zip.close()
        self.handle.close()

    def json(self, name: str) -> Any:
        info = self.zip.getinfo(name)
        if info.file_size > MAX_MEMBER_BYTES:
            raise InputError(f"{name}: declares {info.file_size} bytes, at most {MAX_MEMBER_BYTES} are read",
                             file=self.path, fix="the log is damaged or not Inspect's; export it again")
        try:
            # zipfile stops a deflated member at its declared size (then fails its CRC): no more is ever held
            data = self.zip.read(name) if info.compress_type != ZSTD else self._zstd(info)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
            raise InputError(f"{name}: damaged zip member ({exc})", file=self.path,
                             fix="the log is damaged; export it again") from None
        return parse_json(self.path, data, where=f"{name}: ", fix="the log is damaged; export it again")

    def _zstd(self, info: zipfile.ZipInfo) -> bytes:
        try:
            import zstandard
        except ImportError:
            raise InputError("is zstd-compressed and neither inspect_ai nor zstandard is installed", file=self.path,
                             fix="pip install zstandard (or inspect-ai)") from None
        handle = self.zip.fp
        assert handle is not None
        handle.seek(info.header_offset)
        local = handle.read(_LOCAL_HEADER)
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        handle.seek(info.header_offset + _LOCAL_HEADER + name_len + extra_len)
        raw = handle.read(info.compress_size)
        # Streamed, never past the declared size: a frame that says its content size decompresses to that size
        # whatever `max_output_size` says, so a few kilobytes could fill the memory.
        chunks: list[bytes] = []
        total = 0
        try:
            with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw)) as reader:
                while chunk := reader.read(min(1 << 20, info.file_size + 1 - total)):
                    chunks.append(chunk)
                    total += len(chunk)
                    if total > info.file_size:
                        raise InputError(f"{info.filename}: decompresses to more than the {info.file_size} bytes "
                                         "it declares", file=self.path, fix="the log is damaged; export it again")
        except zstandard.ZstdError as exc:
            raise InputError(f"{info.filename}: damaged zstd data ({exc})", file=self.path,
                             fix="the log is damaged; export it again") from None
        return b"".join(chunks)


def _run(path: Path, header: dict[str, Any], read_samples: Callable[[], Iterator[ForeignSample]]) -> ForeignRun:
    spec = header.get("eval") or {}
    task = str(spec.get("task") or path.stem)
    model = str(spec.get("model") or "unknown")
    aggregates: dict[str, float] = {}
    for score in (header.get("results") or {}).get("scores") or []:
        for metric in (score.get("metrics") or {}).values():
            value = metric.get("value")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                aggregates[f"{score.get('name')}/{metric.get('name')}"] = float(value)
    extra = {k: v for k, v in header.items() if k not in ("samples", "reductions")}
    return ForeignRun(tool="inspect", task=task, model=model, read_samples=read_samples, aggregates=aggregates,
                      extra=extra)


def _sample(data: dict[str, Any]) -> ForeignSample:
    target = data.get("target")
    targets = [target] if isinstance(target, str) else [str(t) for t in target or []]
    output = data.get("output") or {}
    completion = output.get("completion")
    if not isinstance(completion, str):
        choices = output.get("choices") or []
        completion = text_of(choices[0].get("message")) if choices else ""
    usage = _usage(data.get("model_usage") or {})
    error = data.get("error")
    # Kept verbatim: every key but those the fields above hold exactly (`restore_sample` rebuilds the sample).
    extra = {k: v for k, v in data.items() if k not in _EXACT}
    for key, exact in (("id", isinstance(data.get("id"), str)), ("input", isinstance(data.get("input"), str)),
                       ("target", isinstance(target, list))):
        if not exact:
            extra[key] = data.get(key)
    time = output.get("time") if isinstance(output.get("time"), (int, float)) else data.get("working_time")
    return ForeignSample(
        sample_id=str(data.get("id")),
        input=text_of(data.get("input")),
        targets=targets,
        output=completion,
        scores=[_score(name, score) for name, score in (data.get("scores") or {}).items()],
        input_tokens=usage[0],
        output_tokens=usage[1],
        latency_s=float(time) if isinstance(time, (int, float)) and time >= 0 else None,
        error=(error.get("message") or "failed") if isinstance(error, dict) else (str(error) if error else None),
        epoch=int(data.get("epoch") or 1),
        extra=extra,
    )


def _usage(model_usage: dict[str, Any]) -> tuple[int, int]:
    totals = [0, 0]
    for usage in model_usage.values():
        if isinstance(usage, dict):
            totals[0] += token_count(usage.get("input_tokens"))
            totals[1] += token_count(usage.get("output_tokens"))
    return totals[0], totals[1]


def _score(name: str, score: Any) -> ForeignScore:
    value = score.get("value") if isinstance(score, dict) else score
    explanation = score.get("explanation") if isinstance(score, dict) else None
    number = score_number(value)
    passed = {"C": True, "I": False}.get(value) if isinstance(value, str) else None
    return ForeignScore(name=name, value=number, passed=passed, raw=score,
                        explanation=explanation if isinstance(explanation, str) else None)


def restore_sample(sample: ForeignSample) -> dict[str, Any]:
    """The sample as the log held it, from what the import keeps: the proof that nothing was lost."""
    return {
        **sample.extra,
        "id": sample.extra.get("id", sample.sample_id),
        "epoch": sample.epoch,
        "input": sample.extra.get("input", sample.input),
        "target": sample.extra.get("target", sample.targets),
        "scores": {score.name: score.raw for score in sample.scores},
    }
