"""Every shipped config validates; the offline ones need no key or network."""

from __future__ import annotations

from pathlib import Path

import pytest

from gaia_eval.registry import PROVIDERS, shipped
from gaia_eval.stages.experiment.run import load_config

CONFIGS = sorted((Path(__file__).parent.parent / "configs").glob("*.json"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_shipped_config_validates(path: Path):
    assert load_config(path).experiments


def test_there_is_an_example_for_each_provider():
    providers = {e.provider for p in CONFIGS for e in load_config(p).experiments}
    assert set(shipped(PROVIDERS)) <= providers


@pytest.mark.parametrize("name", ["basic_summarization.json", "basic_qa.json"])
def test_basic_configs_run_offline(name: str):
    assert {e.provider for e in load_config(Path(__file__).parent.parent / "configs" / name).experiments} == {
        "baseline"
    }
