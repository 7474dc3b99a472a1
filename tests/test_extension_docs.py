"""Every public type a plugin author extends says in `help()` what its fields are, what it returns and shows an
example, and the examples run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

# (module, the extension types it holds)
EXTENSION_TYPES = {
    "gaia_eval.scoring.criteria": ("Criterion",),
    "gaia_eval.scoring.scorers": ("Scorer", "ScoringInput"),
    "gaia_eval.usecases.base": ("UseCase",),
    "gaia_eval.registry": ("ProviderEntry",),
    "gaia_eval.scoring.answers.parse": ("MatchMode", "Verdict"),
    "gaia_eval.bench.runs": ("EvalRun",),
    "gaia_eval.providers.fake_api": ("FakeProvider",),
}


@pytest.mark.parametrize("module_name", sorted(EXTENSION_TYPES))
def test_each_extension_type_documents_itself_with_an_example_that_runs(module_name: str):
    module = importlib.import_module(module_name)
    for name in EXTENSION_TYPES[module_name]:
        doc = getattr(module, name).__doc__ or ""
        assert len(doc) > 80, f"{module_name}.{name} has no docstring worth the name"
    examples = doctest.DocTestFinder().find(module)
    assert sum(len(t.examples) for t in examples) > 0, f"{module_name} shows no example"
    result = doctest.testmod(module, verbose=False)
    assert result.failed == 0
