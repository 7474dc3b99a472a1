"""G-Eval's scoring (Liu et al., 2023): instead of the one rating the judge wrote, the rating expected under the
judge's own probabilities, sum over ratings of p(rating) x rank (Poor 1 .. Excellent 4), read from the
log-probabilities of the token where each criterion's rating starts in the JSON reply. It separates summaries the
plain rating ties and needs a server that returns `top_logprobs` (OpenAI's and llama.cpp's do)."""

from __future__ import annotations

import json
import math
import re

from gaia_eval.providers.base import TokenLogprob

RANKS = {"Poor": 1, "Fair": 2, "Good": 3, "Excellent": 4}


def _rating_of(token: str) -> str | None:
    """The rating a token starts, if any ("Exc", " Good", '"Fair' -> Excellent, Good, Fair)."""
    word = token.strip().strip('"').strip()
    if not word:
        return None
    matches = [r for r in RANKS if r.lower().startswith(word.lower())]
    return matches[0] if len(matches) == 1 else None


def _rating_offsets(text: str, criteria: list[str]) -> dict[str, int]:
    """Where, in the reply text, each criterion's rating value starts (after its opening quote)."""
    out = {}
    for criterion in criteria:
        key = re.search(re.escape(json.dumps(criterion)) + r"\s*:\s*\{", text)
        if key is None:
            continue
        value = re.compile(r'"rating"\s*:\s*"').search(text, key.end())
        if value is not None:
            out[criterion] = value.end()
    return out


def expected_ratings(text: str, logprobs: list[TokenLogprob] | None, criteria: list[str]) -> dict[str, float]:
    """Criterion -> expected rank (1..4) from the alternatives at the token where its rating starts; criteria
    whose rating token is not found, or whose alternatives name no rating, are left out."""
    spelled = "".join(t.token for t in logprobs or ())
    if logprobs is None or not spelled or not text.strip() or text.strip() not in spelled:
        return {}  # the tokens must spell the reply (llama.cpp strips leading spaces from the text, not the tokens)
    text = spelled  # offsets are read on the tokens' own text
    starts, position = [], 0
    for token in logprobs:
        starts.append(position)
        position += len(token.token)
    out = {}
    for criterion, offset in _rating_offsets(text, criteria).items():
        index = next((i for i, s in enumerate(starts) if s <= offset < s + len(logprobs[i].token)), None)
        if index is None:
            continue
        token = logprobs[index]
        if offset != starts[index] and _rating_of(token.token[offset - starts[index]:]) is None:
            continue
        mass: dict[str, float] = {}
        for alternative, logprob in token.top or ((token.token, token.logprob),):
            rating = _rating_of(
                alternative[offset - starts[index] :]
                if alternative.startswith(token.token[: offset - starts[index]])
                else alternative
            )
            if rating is not None:
                mass[rating] = mass.get(rating, 0.0) + math.exp(logprob)
        total = sum(mass.values())
        if total > 0:
            out[criterion] = sum(RANKS[r] * p for r, p in mass.items()) / total
    return out
