"""The paths artifacts record (artifacts/recorded.py): a file of an object-storage workspace's mirror is recorded
as its URL, any other path as given; no storage server needed (the S3 tests check the same against moto)."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.artifacts.recorded import find_recorded_path, recorded_path
from gaia_eval.artifacts.remote import MIRROR_URL


def test_a_mirrors_files_are_recorded_as_their_url_and_other_paths_as_given(tmp_path: Path):
    mirror = tmp_path / "cache" / "workspaces" / "bucket_run_exp-0123"
    (mirror / "sub").mkdir(parents=True)
    (mirror / MIRROR_URL).write_text("s3://bucket/run/exp\n")
    assert recorded_path(mirror / "sub" / "a.experiment.json") == "s3://bucket/run/exp/sub/a.experiment.json"
    assert recorded_path(mirror) == "s3://bucket/run/exp"
    assert recorded_path(tmp_path / "local" / "a.json") == (tmp_path / "local" / "a.json").as_posix()
    assert recorded_path(Path("experiments/a.json")) == "experiments/a.json"  # relative stays relative


def test_a_recorded_local_path_is_found_as_before(tmp_path: Path):
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "a.json").write_text("{}")
    assert find_recorded_path("exp/a.json", tmp_path / "ev") == tmp_path / "exp" / "a.json"
    assert find_recorded_path("exp/gone.json", tmp_path / "ev") is None
