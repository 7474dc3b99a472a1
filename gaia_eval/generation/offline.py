"""The offline generator's entry point: one deterministic synthetic document with its planted facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gaia_eval.artifacts.documents import EMAIL_TYPES, MEETING_TYPES, EmailHeaders, PlantedFacts
from gaia_eval.errors import UsageError
from gaia_eval.generation import scenario as sc


@dataclass(frozen=True)
class GeneratedDocument:
    text: str
    facts: PlantedFacts
    headers: EmailHeaders | None
    word_count: int
    estimated_tokens: int  # round(word_count * 1.33)


def generate_offline(
    doc_kind: Literal["meeting", "email"],
    doc_type: str,
    variant: int,
    seed: int,
    target_tokens: int,
) -> GeneratedDocument:
    """A meeting transcript or e-mail of `doc_type`, about `target_tokens` long (words * 1.33, within 15% for
    targets of 300 to 3000), the same for the same arguments. The cast, company and date depend on
    (doc_kind, doc_type, variant, seed) only, so changing the target length changes the length, not the people."""
    valid = {"meeting": MEETING_TYPES, "email": EMAIL_TYPES}
    if doc_kind not in valid:
        raise UsageError(f"unknown document kind '{doc_kind}'", field="doc_kind", fix="use 'meeting' or 'email'")
    if doc_type not in valid[doc_kind]:
        raise UsageError(
            f"unknown {doc_kind} type '{doc_type}'",
            field=f"--{doc_kind}-types",
            fix=f"use any of: {', '.join(valid[doc_kind])}",
        )
    if target_tokens < 1:
        raise UsageError(f"{target_tokens} is not a positive number of tokens", field="--target-tokens")
    rng = sc.seeded_rng("gaia-eval offline generator", doc_kind, doc_type, variant, seed)
    headers = None
    if doc_kind == "meeting":
        from gaia_eval.generation.meetings import generate_meeting

        text, facts = generate_meeting(doc_type, rng, target_tokens)
    else:
        from gaia_eval.generation.emails import generate_email

        text, facts, headers = generate_email(doc_type, rng, target_tokens)
    words = sc.count_words(text)
    return GeneratedDocument(text, facts, headers, words, sc.estimate_tokens(words))
