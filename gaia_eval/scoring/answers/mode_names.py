"""The answer-matching modes by name: a constant with no imports, so the CLI can offer them as choices without
loading the matcher."""

MODES: tuple[str, ...] = (
    "gaia", "gaia-official", "lenient", "exact", "f1", "numeric", "contains", "regex", "fuzzy", "semantic",
)
