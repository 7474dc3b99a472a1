"""Experiments and evaluations read and written an item at a time, so that scoring 10,000 items takes the memory
of a few of them: an experiment whose items are parsed as they are iterated and whose sources are read when asked
for, an evaluation's header read without keeping its items, and the spool that writes an evaluation's items as
they are scored. A file the stream reader cannot follow, or one that does not validate, is read whole by
`read_artifact`, which gives the usual one-line message (or, for a valid file, the whole artifact)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from gaia_eval.artifacts.evaluation import Evaluation, ItemEvaluation
from gaia_eval.artifacts.experiment import Experiment, ExperimentHeader, ItemResult
from gaia_eval.artifacts.groundtruth import (
    ConsolidatedEntry,
    ConsolidatedGroundTruth,
    GroundTruth,
    SourceDocument,
    read_groundtruth_file,
)
from gaia_eval.artifacts.store import (
    Freshness,
    _parse_json,
    _read_input_bytes,
    _unwritable,
    atomic_write_with,
    canonical_json,
    freshness,
    parse_artifact,
    read_artifact,
)
from gaia_eval.artifacts.stream import Layout, SpanReader, Unreadable, scan
from gaia_eval.errors import InputError

M = TypeVar("M", bound=BaseModel)
_ELEMENT = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2
_INDENT = b"\n    "  # an element of a top-level list, in the canonical layout (2 spaces per level)


def _read_header(
    path: Path, header_model: type[M], big: dict[str, type[BaseModel]], *, check: bool
) -> tuple[M, Layout] | None:
    """The artifact's fields but the big containers (left empty when the model has them); with `check`, every
    element of those is validated on the way and dropped. None: not followable or not valid (read it whole)."""
    try:
        layout = scan(path, frozenset(big))
    except (Unreadable, OSError, InputError):  # InputError: not a regular file
        return None
    if any(key not in layout.elements and key not in layout.members for key in big):
        return None  # missing, or not a container of objects: the full read names the field
    reader = SpanReader(path)
    try:
        data: dict[str, Any] = {}
        for key, value in layout.values.items():
            if key in big:
                if key in header_model.model_fields:
                    data[key] = [] if key in layout.elements else {}
                continue
            data[key] = orjson.loads(value if isinstance(value, bytes) else reader.read(value))
        header = header_model.model_validate(data)
        if check:
            for key, model in big.items():
                for span in layout.elements.get(key) or layout.members.get(key, {}).values():
                    model.model_validate_json(reader.read(span))
    except (orjson.JSONDecodeError, ValidationError):
        return None
    finally:
        reader.close()
    return header, layout


class _Items:
    """An experiment's items, parsed one at a time each time they are iterated."""

    def __init__(self, path: Path, spans: list[tuple[int, int]]) -> None:
        self._path, self._spans = path, spans
        self._ids: dict[str, tuple[int, int]] | None = None

    def __len__(self) -> int:
        return len(self._spans)

    def find(self, item_id: str) -> ItemResult | None:
        """The first item with this id, parsing only its own element; the ids are read once, on first use (the
        viewer asks one item of hundreds of experiments it keeps open)."""
        reader = SpanReader(self._path)
        try:
            if self._ids is None:
                ids: dict[str, tuple[int, int]] = {}
                for span in self._spans:
                    value = orjson.loads(reader.read(span))
                    if isinstance(value, dict) and isinstance(value.get("item_id"), str):
                        ids.setdefault(value["item_id"], span)
                self._ids = ids
            found = self._ids.get(item_id)
            return None if found is None else ItemResult.model_validate_json(reader.read(found))
        except (orjson.JSONDecodeError, ValidationError):
            read_artifact(self._path, Experiment)  # the usual one-line message naming the field
            raise
        finally:
            reader.close()

    def __iter__(self) -> Iterator[ItemResult]:
        reader = SpanReader(self._path)
        try:
            for span in self._spans:
                try:
                    yield ItemResult.model_validate_json(reader.read(span))
                except ValidationError:
                    read_artifact(self._path, Experiment)  # the usual one-line message naming the field
                    raise
        finally:
            reader.close()


class _Sources(Mapping[str, SourceDocument]):
    """An experiment's source documents, read from the file when asked for (the last few kept)."""

    def __init__(self, path: Path, spans: dict[str, tuple[int, int]]) -> None:
        self._path, self._spans = path, spans
        self._recent: OrderedDict[str, SourceDocument] = OrderedDict()

    def __getitem__(self, name: str) -> SourceDocument:
        if name in self._recent:
            self._recent.move_to_end(name)
            return self._recent[name]
        reader = SpanReader(self._path)
        try:
            doc = SourceDocument.model_validate_json(reader.read(self._spans[name]))
        except ValidationError:
            read_artifact(self._path, Experiment)
            raise
        finally:
            reader.close()
        self._recent[name] = doc
        if len(self._recent) > 8:
            self._recent.popitem(last=False)
        return doc

    def __iter__(self) -> Iterator[str]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


class StreamedExperiment:
    """An experiment file read lazily: its header at once, `items` one at a time as they are iterated (again on
    each pass), `sources` when one is asked for. Reads like an Experiment."""

    def __init__(self, path: Path, header: ExperimentHeader, layout: Layout) -> None:
        self.header = header
        self.items = _Items(path, layout.elements["items"])
        self.sources = _Sources(path, layout.members["sources"])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.header, name)


class GroundTruthItems(Mapping[str, GroundTruth]):
    """A ground truth's items by id: a consolidated file's each read from the file when asked for (the last few
    kept), so the memory is a byte span per item, not the items and their source texts; a file read whole (one
    document's) holds its items (`holding`). `use_cases` and `source_of` answer without reading a whole item."""

    def __init__(self, path: Path | None, spans: dict[str, tuple[int, int]], use_cases: frozenset[str],
                 held: dict[str, GroundTruth] | None = None) -> None:
        self._path, self._spans, self._held = path, spans, held
        self.use_cases = use_cases  # of every item
        self._recent: OrderedDict[str, GroundTruth] = OrderedDict()

    @classmethod
    def holding(cls, items: dict[str, GroundTruth]) -> GroundTruthItems:
        return cls(None, {}, frozenset(item.use_case for item in items.values()), items)

    def _ids(self) -> Mapping[str, object]:
        return self._spans if self._held is None else self._held

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._ids()  # without reading the item

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __getitem__(self, item_id: str) -> GroundTruth:
        if self._held is not None:
            return self._held[item_id]
        span = self._spans[item_id]  # KeyError for an id it does not hold, as a dict
        if item_id in self._recent:
            self._recent.move_to_end(item_id)
            return self._recent[item_id]
        item = GroundTruth.model_validate_json(self._read(span))
        self._recent[item_id] = item
        if len(self._recent) > 16:
            self._recent.popitem(last=False)
        return item

    def source_of(self, item_id: str) -> SourceDocument:
        """The item's source document, validating only it (a sixth of the time of the whole item's)."""
        if self._held is not None or item_id in self._recent:
            return self[item_id].source
        return SourceDocument.model_validate(orjson.loads(self._read(self._spans[item_id]))["source"])

    def _read(self, span: tuple[int, int]) -> bytes:
        reader = SpanReader(self._path)  # type: ignore[arg-type]
        try:
            return reader.read(span)
        finally:
            reader.close()


def read_groundtruth_items(path: Path) -> GroundTruthItems:
    """The items of a ground-truth file by id, the last of an id winning (as a dict of read_groundtruth_file's
    items would keep them): a consolidated file's read when asked for, every item validated here first; a
    one-document file, or one the stream reader cannot follow or that does not validate, read whole (which gives
    the usual one-line message)."""
    path = Path(path)
    big: dict[str, type[BaseModel]] = {"items": GroundTruth, "source_files": ConsolidatedEntry}  # one at a time
    found = _read_header(path, ConsolidatedGroundTruth, big, check=False)
    if found is not None:
        spans: dict[str, tuple[int, int]] = {}
        use_cases: set[str] = set()
        reader = SpanReader(path)
        try:
            for span in found[1].elements["source_files"]:
                ConsolidatedEntry.model_validate_json(reader.read(span))
            for span in found[1].elements["items"]:
                item = GroundTruth.model_validate_json(reader.read(span))
                spans[item.item_id] = span
                use_cases.add(item.use_case)
            return GroundTruthItems(path, spans, frozenset(use_cases))
        except ValidationError:
            pass  # the whole read names the item and field
        finally:
            reader.close()
    return GroundTruthItems.holding({item.item_id: item for item in read_groundtruth_file(path)})


def read_experiment(path: Path) -> Experiment | StreamedExperiment:
    """An experiment file, streamed (see StreamedExperiment); one the stream reader cannot follow is read whole."""
    found = _read_header(Path(path), ExperimentHeader, {"items": ItemResult, "sources": SourceDocument}, check=False)
    if found is None or not found[1].elements.get("items") or "sources" not in found[1].members:
        return read_artifact(path, Experiment)  # the usual message (items empty or not a list, ...)
    return StreamedExperiment(Path(path), *found)


def read_evaluation_header(path: Path) -> Evaluation:
    """An evaluation file with its items left out (`items` is empty), every item validated on the way."""
    found = _read_header(Path(path), Evaluation, {"items": ItemEvaluation}, check=True)
    if found is None:
        return read_artifact(path, Evaluation).model_copy(update={"items": []})
    return found[0]


def evaluation_freshness(path: Path, expected_inputs: dict[str, str]) -> tuple[Freshness, Evaluation | None]:
    """store.freshness for an evaluation, without holding its items (the returned one has none)."""
    from gaia_eval.errors import ArtifactError, InputError

    path = Path(path)
    if not path.exists():
        return Freshness.MISSING, None
    try:
        evaluation = read_evaluation_header(path)
    except (ArtifactError, InputError):
        return Freshness.STALE, None
    return (Freshness.CURRENT if evaluation.inputs == expected_inputs else Freshness.STALE), evaluation


def experiment_freshness(path: Path, expected_inputs: dict[str, str]) -> tuple[Freshness, ExperimentHeader | None]:
    """store.freshness for an experiment, without holding its items or sources (each validated on the way, as
    the full read would): a run that finds 100,000 items done holds none of them. A file the stream reader
    cannot follow is judged by the full read."""
    path = Path(path)
    if not path.exists():
        return Freshness.MISSING, None
    found = _read_header(path, ExperimentHeader, {"items": ItemResult, "sources": SourceDocument}, check=True)
    if found is None or not found[1].elements.get("items") or "sources" not in found[1].members:
        state, experiment = freshness(path, Experiment, expected_inputs)
        return state, experiment
    header = found[0]
    return (Freshness.CURRENT if header.inputs == expected_inputs else Freshness.STALE), header


class ListSpool:
    """The elements of an artifact's one big list (`key`), spooled to a temp file beside `target` as they are
    made. `commit(artifact)` writes the artifact (given with that list empty) atomically, with the bytes
    write_artifact would write for it with the list filled; `discard` drops the spool. Until commit, nothing
    of the target changes."""

    def __init__(self, target: Path, key: str) -> None:
        self.target, self.key = Path(target), key
        self.count = 0
        self._fh: Any = None
        self._tmp: str | None = None
        self._made: list[Path] = []  # folders the spool created: removed again if it is discarded

    def add(self, element: BaseModel | dict[str, Any]) -> None:
        """Spool one element: a model, or the plain JSON of one (its model_dump(mode="json"), for a caller that adds
        a large already-JSON part without validating it again)."""
        plain = element if isinstance(element, dict) else element.model_dump(mode="json")
        data = orjson.dumps(plain, option=_ELEMENT).replace(b"\n", _INDENT)
        try:
            if self._fh is None:
                self._made = [p for p in (self.target.parent, *self.target.parent.parents) if not p.exists()]
                self.target.parent.mkdir(parents=True, exist_ok=True)
                fd, self._tmp = tempfile.mkstemp(
                    prefix=f".{self.target.name}.", suffix=".spool.tmp", dir=self.target.parent
                )
                self._fh = os.fdopen(fd, "w+b")
            self._fh.write(("," if self.count else "").encode() + _INDENT + data)
        except OSError as exc:
            self.discard()
            raise _unwritable(self.target, exc) from None
        self.count += 1

    def commit(self, artifact: BaseModel) -> bool:
        """Write the target; False when it already held these bytes (it keeps its mtime)."""
        head = canonical_json(artifact)
        marker = b'\n  "' + self.key.encode() + b'": []'
        cut = head.index(marker) + len(marker) - 1  # just before the empty list's "]"

        def write(fh: Any) -> None:
            if self._fh is None:
                fh.write(head)
                return
            fh.write(head[:cut])
            self._fh.flush()
            self._fh.seek(0)
            shutil.copyfileobj(self._fh, fh, 1 << 20)
            fh.write(b"\n  " + head[cut:])

        try:
            return atomic_write_with(self.target, write, skip_if_same=True)
        finally:
            self._made = []
            self.discard()

    def discard(self) -> None:
        """Drop the spool; never raises. On a full disk the buffered file's close retries the write that failed
        and fails again: that second refusal replaced the error naming the file with a bare one."""
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.close()
            self._fh = None
        if self._tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._tmp)
            self._tmp = None
        for folder in self._made:  # a run stopped before its first write leaves no trace
            try:
                folder.rmdir()
            except OSError:
                break
        self._made = []


def top_level_values(path: Path, big: frozenset[str]) -> dict[str, Any] | None:
    """A JSON file's top-level values, parsed, except the `big` containers (never read); None when the file is
    missing, not JSON or not an object."""
    try:
        layout = scan(Path(path), big)
    except (Unreadable, OSError, InputError):  # InputError: not a regular file
        return None
    reader = SpanReader(Path(path))
    try:
        return {key: orjson.loads(value if isinstance(value, bytes) else reader.read(value))
                for key, value in layout.values.items() if key not in big}
    except orjson.JSONDecodeError:
        return None
    finally:
        reader.close()


def iter_elements(path: Path, key: str) -> Iterator[Any]:
    """The elements (objects) of a JSON file's top-level array `key`, parsed one at a time; nothing when the file
    cannot be followed or has no such array."""
    try:
        layout = scan(Path(path), frozenset({key}))
    except (Unreadable, OSError, InputError):  # InputError: not a regular file
        return
    reader = SpanReader(Path(path))
    try:
        for span in layout.elements.get(key, []):
            try:
                yield orjson.loads(reader.read(span))
            except orjson.JSONDecodeError:
                continue
    finally:
        reader.close()


def write_streamed(path: Path, artifact: BaseModel, big: Mapping[str, Any]) -> bool:
    """Write `artifact` atomically with the bytes write_artifact would write, its big containers (`big`: field
    name -> its elements: an iterable of models for a list, of (key, model) in key order for a dict) serialized
    one element at a time into the file, so that neither the whole artifact's dict nor its bytes are ever held.
    `artifact` is given with those fields empty. False when the file already held these bytes (it keeps its
    mtime)."""
    head = canonical_json(artifact)

    def write(fh: Any) -> None:
        pos = 0
        for key in sorted(big, key=lambda k: _marker_at(head, k)[0]):
            at, size = _marker_at(head, key)
            closing = at + size - 1  # the empty container's closing bracket
            fh.write(head[pos:closing])
            count = 0
            for element in big[key]:
                if head[closing] == ord("}"):
                    name, value = element
                    data = orjson.dumps(name) + b": " + _element_bytes(value)
                else:
                    data = _element_bytes(element)
                fh.write((b"," if count else b"") + _INDENT + data)
                count += 1
            if count:
                fh.write(b"\n  ")
            pos = closing
        fh.write(head[pos:])

    return atomic_write_with(Path(path), write, skip_if_same=True)


def _marker_at(head: bytes, key: str) -> tuple[int, int]:
    """Where the empty container `key` sits in the canonical bytes (2-space indent: a top-level key is the only
    thing on a line that starts with exactly two spaces and a quote), and the marker's length."""
    for empty in (b"[]", b"{}"):
        marker = b'\n  "' + key.encode() + b'": ' + empty
        at = head.find(marker)
        if at >= 0:
            return at, len(marker)
    raise ValueError(f"{key} is not an empty top-level container of the artifact")


def _element_bytes(element: BaseModel) -> bytes:
    return orjson.dumps(element.model_dump(mode="json"), option=_ELEMENT).replace(b"\n", _INDENT)


def read_evaluation_listing(path: Path) -> Evaluation:
    """An evaluation for a listing (the viewer's dashboard): every field but `items` validated, its items neither
    validated nor kept (empty). At 1,000 files this is a fraction of reading them whole (validating the items
    was most of it); read the file with `read_artifact` when its items are wanted. A file that is not valid JSON
    or not an evaluation's header is the usual one-line error."""
    path = Path(path)
    data = _parse_json(path, _read_input_bytes(path))
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return read_artifact(path, Evaluation)  # the usual message for the field
    return parse_artifact(path, {**data, "items": []}, Evaluation)
