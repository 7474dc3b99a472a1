"""The sample in test_data/ and groundtruth/ is the tool's own output: regenerating it gives the same bytes."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth

ROOT = Path(__file__).resolve().parent.parent


def make_sample(root: Path) -> None:
    """The commands in test_data/README.md, from Python."""
    run_generate("meeting", root / "test_data" / "meetings", types=["standup", "client_call"], seed=0)
    run_generate("email", root / "test_data" / "emails", types=["project_update", "customer_support"], seed=0)
    run_groundtruth(
        input_dir=root / "test_data" / "meetings",
        use_case="summarization",
        output_dir=root / "groundtruth" / "summarization",
    )
    run_groundtruth(
        input_dir=root / "test_data" / "emails", use_case="email", output_dir=root / "groundtruth" / "email"
    )
    run_groundtruth(input_dir=root / "test_data", use_case="qa", output_dir=root / "groundtruth" / "qa")


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for folder in ("test_data", "groundtruth")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and p.name != "README.md"
    }


def test_regenerating_the_sample_gives_the_same_bytes(tmp_path: Path):
    make_sample(tmp_path)
    shipped = _files(ROOT)
    regenerated = _files(tmp_path)
    assert sorted(shipped) == sorted(regenerated)
    for name, data in regenerated.items():
        assert shipped[name] == data, f"{name} differs from a fresh regeneration"


if __name__ == "__main__":  # refresh the shipped sample: python -m tests.test_sample_data
    make_sample(ROOT)
