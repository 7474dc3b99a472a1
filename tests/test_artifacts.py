"""The artifacts layer: canonical bytes, fingerprints, atomic writes that skip unchanged content, freshness."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from pydantic import Field

from gaia_eval.artifacts.base import Artifact
from gaia_eval.artifacts.experiment import ExperimentConfig, ItemResult, safe_name
from gaia_eval.artifacts.journal import JournalWriter, read_journal
from gaia_eval.artifacts.store import (
    Freshness,
    atomic_write_bytes,
    canonical_json,
    fingerprint,
    freshness,
    read_artifact,
    read_text_input,
    write_artifact,
)
from gaia_eval.errors import ArtifactError, InputError


class Thing(Artifact):
    name: str
    values: list[int] = Field(default_factory=list)


def test_canonical_json_is_sorted_indented_and_stable():
    a = canonical_json({"b": 1, "a": [1, 2]})
    b = canonical_json({"a": [1, 2], "b": 1})
    assert a == b
    assert a.endswith(b"\n")
    assert a.index(b'"a"') < a.index(b'"b"')


def test_fingerprint_ignores_key_order_but_not_values():
    assert fingerprint({"x": 1, "y": 2}) == fingerprint({"y": 2, "x": 1})
    assert fingerprint({"x": 1}) != fingerprint({"x": 2})
    assert fingerprint({"x": 1}).startswith("sha256:")


def test_atomic_write_skips_identical_content_and_leaves_no_temp_files(tmp_path: Path):
    target = tmp_path / "sub" / "thing.json"
    assert write_artifact(target, Thing(name="a")) is True
    mtime = target.stat().st_mtime_ns
    os.utime(target, ns=(mtime - 10_000_000, mtime - 10_000_000))
    before = target.stat().st_mtime_ns
    assert write_artifact(target, Thing(name="a")) is False
    assert target.stat().st_mtime_ns == before
    assert write_artifact(target, Thing(name="b")) is True
    assert read_artifact(target, Thing).name == "b"
    assert [p.name for p in target.parent.iterdir()] == ["thing.json"]


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch):
    target = tmp_path / "t.json"
    atomic_write_bytes(target, b"old")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(InputError, match="cannot be written"):
        atomic_write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_written_files_get_the_umask_mode_not_mkstemps_0600(tmp_path: Path):
    old = os.umask(0o022)
    try:
        path = tmp_path / "r.json"
        write_artifact(path, Thing(name="a"))
        assert path.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_unknown_keys_are_rejected_with_the_field_named(tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_bytes(orjson.dumps({"schema_version": 1, "name": "a", "colour": "red"}))
    with pytest.raises(ArtifactError) as err:
        read_artifact(path, Thing)
    assert "colour" in str(err.value) and "unknown key" in str(err.value) and str(path) in str(err.value)


def test_malformed_json_names_file_and_line(tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text('{"name": "a",\n  oops}')
    with pytest.raises(InputError) as err:
        read_artifact(path, Thing)
    assert "bad.json" in str(err.value) and "line 2" in str(err.value)


def test_freshness_missing_current_stale_and_corrupt(tmp_path: Path):
    path = tmp_path / "t.json"
    assert freshness(path, Thing, {"src": "1"})[0] is Freshness.MISSING
    write_artifact(path, Thing(name="a", inputs={"src": "1"}))
    assert freshness(path, Thing, {"src": "1"})[0] is Freshness.CURRENT
    assert freshness(path, Thing, {"src": "2"})[0] is Freshness.STALE
    path.write_bytes(b'{"schema_version": 1, "na')  # a torn file from some other tool
    assert freshness(path, Thing, {"src": "1"})[0] is Freshness.STALE


@pytest.mark.parametrize(
    "content, message",
    [(b"\x00\x01binary", "binary"), (b"caf\xe9 latin-1", "not UTF-8"), (b"   \n", "empty")],
)
def test_text_inputs_reject_binary_non_utf8_and_empty(tmp_path: Path, content: bytes, message: str):
    path = tmp_path / "doc.txt"
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_text_input(path)
    assert message in str(err.value) and "doc.txt" in str(err.value)


def test_journal_ignores_a_torn_last_line_and_appends_after_it(tmp_path: Path):
    path = tmp_path / "x.experiment.journal.jsonl"
    writer = JournalWriter(path)
    item = ItemResult(item_id="a", source="a", fingerprint="f", status="ok", answer="1")
    writer.append(item)
    writer.close()
    with open(path, "ab") as fh:
        fh.write(b'{"item_id": "b", "sour')  # killed mid-append
    assert list(read_journal(path)) == ["a"]
    writer = JournalWriter(path)
    writer.append(item.model_copy(update={"item_id": "c"}))
    writer.close()
    assert sorted(read_journal(path)) == ["a", "c"]


def test_safe_name_matches_the_reference_tool():
    assert safe_name("Qwen3-1.7B-GGUF-Basic-Summary") == "Qwen3-1_7B-GGUF-Basic-Summary"
    assert safe_name("claude sonnet (t=0)") == "claude_sonnet_t0"


def test_config_rejects_duplicate_names_after_cleaning():
    with pytest.raises(Exception) as err:
        ExperimentConfig.model_validate(
            {"experiments": [{"name": "a.b", "provider": "baseline", "model": "lead"},
                             {"name": "A_b", "provider": "baseline", "model": "lead"}]}
        )
    assert "duplicates" in str(err.value)


# -- killed survivors of scripts/mutation.py (store) ------------------------------------------------------------

def test_a_file_where_the_output_folder_should_be_is_one_line_naming_the_file_and_the_fix(tmp_path: Path):
    """Mutants that survived: `_unwritable(exc)` without the path on the mkdir/mkstemp branch (a TypeError
    instead of the message), the reason or the fix dropped."""
    (tmp_path / "out").write_text("a file, not a folder")
    target = tmp_path / "out" / "t.json"
    with pytest.raises(InputError) as caught:
        atomic_write_bytes(target, b"x")
    assert str(caught.value) == (f"{target}: cannot be written (File exists) "
                                 "(fix: check the output path (-o) and its permissions)")


def test_a_disk_full_write_names_the_file_it_was_writing(tmp_path: Path, monkeypatch):
    """Mutant that survived: storage_error(None, exc) (a disk-full message naming no file)."""
    import errno

    from gaia_eval.errors import StorageError

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(StorageError) as caught:
        atomic_write_bytes(tmp_path / "t.json", b"new")
    assert str(caught.value).startswith(f"{tmp_path / 't.json'}: cannot be written (No space left on device)")


def test_an_unchanged_result_is_not_rewritten_and_keeps_its_mtime(tmp_path: Path):
    """Mutant that survived: filecmp.cmp(tmp, None) on the skip_if_same branch (no test wrote an equal file)."""
    from gaia_eval.artifacts.store import atomic_write_with

    target = tmp_path / "t.json"
    assert atomic_write_with(target, lambda fh: fh.write(b"same"), skip_if_same=True) is True
    os.utime(target, (1_000_000, 1_000_000))
    assert atomic_write_with(target, lambda fh: fh.write(b"same"), skip_if_same=True) is False
    assert target.stat().st_mtime == 1_000_000 and [p.name for p in tmp_path.iterdir()] == ["t.json"]
    assert atomic_write_with(target, lambda fh: fh.write(b"changed"), skip_if_same=True) is True
    assert target.read_bytes() == b"changed"


def test_an_artifact_of_the_wrong_shape_says_how_to_fix_it(tmp_path: Path):
    """Mutant that survived: parse_artifact's fix dropped (the message would say what is wrong, not what to do)."""
    path = tmp_path / "thing.json"
    path.write_bytes(b'{"schema_version": 1, "name": 3}')
    with pytest.raises(ArtifactError) as caught:
        read_artifact(path, Thing)
    assert "(fix: regenerate it with the stage that writes it, or pass the right file)" in str(caught.value)


def test_an_empty_text_input_says_what_to_do(tmp_path: Path):
    """Mutant that survived: read_text_input's fix dropped."""
    path = tmp_path / "doc.txt"
    path.write_text("  \n")
    with pytest.raises(InputError) as caught:
        read_text_input(path)
    assert str(caught.value) == f"{path}: is empty (fix: remove it or give it content)"
