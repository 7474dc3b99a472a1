"""JSON-structured output shared by the providers: turning a model's JSON reply text into data, and the
schema instruction added to the prompt for servers whose JSON mode is only a hint."""

from __future__ import annotations

import json
import re
from typing import Any

from gaia_eval.errors import MalformedResponseError
from gaia_eval.providers.sdk_errors import malformed

# Small local models often wrap JSON in a Markdown fence even in JSON mode; the fence carries no meaning.
_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n(.*?)\n?```\s*$", re.DOTALL)


def parse_json_reply(
    text: str, *, provider: str, finish_reason: str | None, secret: str | None, length_reason: str | None = None
) -> Any:
    """The JSON value in a model reply. Accepts the bare value or one fenced block; anything else raises
    MalformedResponseError with a short excerpt (and says so when the reply was cut off by max_tokens)."""
    fenced = _FENCE.match(text)
    candidate = fenced.group(1) if fenced else text
    try:
        return json.loads(candidate)
    except ValueError:
        pass
    if finish_reason == "length":
        raise cut_off(provider, text, secret, length_reason) from None
    raise malformed(provider, "reply is not valid JSON", text, secret) from None


def cut_off(provider: str, text: str, secret: str | None, length_reason: str | None = None) -> MalformedResponseError:
    """The error for a structured reply that stopped early: at max_tokens, or at a full context window (the
    caller's `length_reason` says which, from the token counts); the message points at the real fix."""
    why = f"JSON reply was cut off before it was complete: {length_reason}" if length_reason else (
        "JSON reply was cut off at max_tokens (raise max_tokens)")
    error = malformed(provider, why, text[-80:], secret)
    error.raw_text = malformed(provider, "", text, secret).raw_text  # keep the whole reply, not just its tail
    return error


def schema_instruction(schema: dict[str, Any], schema_name: str) -> str:
    """Plain-language instruction carrying the schema, for servers that may ignore response_format."""
    return (
        f"Reply with a single JSON object named '{schema_name}' that conforms to this JSON schema, "
        f"and nothing else:\n{json.dumps(schema, separators=(',', ':'), sort_keys=True)}"
    )
