"""What a reply that stopped early, or that degenerated, says about why, worded so the message points at the fix.

A reply with `finish_reason == "length"` stopped either at the reply budget (max_tokens) or because the model's
context window filled up; they need different fixes (a larger budget, or a shorter input / larger context), and
neither is transient: calling again sends the same request to the same limit. A reply that repeats itself (small
models loop on a phrase or on chat-template tokens until the budget runs out) is not an answer either.
"""

from __future__ import annotations

import re
import zlib
from typing import TYPE_CHECKING

from gaia_eval.artifacts.base import Usage

if TYPE_CHECKING:
    from gaia_eval.providers.base import ChatResponse

# Chat-template tokens that a model without (or with the wrong) template writes into its reply.
_TEMPLATE_TOKENS = re.compile(r"<\|im_(?:start|end)\|>|<start_of_turn>|<end_of_turn>|<\|eot_id\|>|<\|end\|>")
_MIN_LOOP_CHARS = 400  # shorter replies are judged on content, not on repetition
_LOOP_RATIO = 0.2  # compressed / raw size below this: mostly one phrase over and over (prose is about 0.5)


def length_stop_reason(max_tokens: int, usage: Usage) -> str:
    """Why a reply stopped with finish_reason "length", from its token counts."""
    out, prompt = usage.output_tokens, usage.input_tokens
    if out and out < 0.95 * max_tokens:
        return (f"the model's context window filled up (prompt {prompt} + reply {out} tokens) before the reply "
                "finished; shorten the input or serve the model with a larger context")
    return (f"the reply was cut off at max_tokens={max_tokens} before it finished (a long answer or a repetition "
            "loop); raise max_tokens if the answer needs more room")


def degenerate_reason(text: str) -> str | None:
    """Why `text` is not an answer but a degenerate loop, or None."""
    leaked = _TEMPLATE_TOKENS.findall(text)
    if len(leaked) >= 3:
        return (f"the reply is a loop of chat-template tokens ({leaked[0]!r} x{len(leaked)}); the server's chat "
                "template does not fit the model")
    raw = text.encode("utf-8", "replace")
    if len(raw) >= _MIN_LOOP_CHARS and len(zlib.compress(raw)) < _LOOP_RATIO * len(raw):
        return f"the reply repeats itself ({len(raw)} bytes that compress to {len(zlib.compress(raw))})"
    return None


def unusable_reason(response: ChatResponse, max_tokens: int) -> str | None:
    """Why a reply the provider returned is not an answer: it stopped early (truncated), or it degenerated.
    Such a reply is an error of its item, and never a response-cache entry."""
    if response.finish_reason == "length" and response.data is None:
        return f"truncated: {length_stop_reason(max_tokens, response.usage)}"
    degenerate = degenerate_reason(response.text) if response.data is None else None
    return f"degenerate: {degenerate}" if degenerate else None


_OVERFLOW_MARKERS = ("exceed_context_size", "context_length_exceeded", "maximum context length", "context window",
                     "prompt is too long", "exceeds the available context", "too many tokens", "n_ctx")
_NUMBERS = {
    "prompt": re.compile(r"(?:n_prompt_tokens|prompt_tokens|requested)\D{0,12}(\d+)|\((\d+) tokens\)", re.I),
    "context": re.compile(r"(?:n_ctx|context length|context size|context window)\D{0,24}?(\d+)", re.I),
}


def context_overflow_message(detail: str) -> str | None:
    """The one-line reason for a server error that says the prompt does not fit the context, or None."""
    lowered = detail.lower()
    if not any(marker in lowered for marker in _OVERFLOW_MARKERS):
        return None
    found = {}
    for name, pattern in _NUMBERS.items():
        match = pattern.search(detail)
        if match:
            found[name] = next(g for g in match.groups() if g)
    sizes = ""
    if "prompt" in found and "context" in found:
        sizes = f" ({found['prompt']} tokens for a {found['context']}-token context)"
    elif "context" in found:
        sizes = f" (a {found['context']}-token context)"
    return f"the prompt does not fit the model's context{sizes}"
