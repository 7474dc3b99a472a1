"""Documents longer than a model's context window are never sent blind.

The context size comes from the experiment's `context_tokens`, or for a local OpenAI-compatible server from the
server itself (llama.cpp reports it at GET /props). Token counts are estimated conservatively from characters
(3 per token; English is about 4), so a prompt judged to fit does fit. When the document does not fit:
- summaries use map-reduce: each chunk of the document is summarized in detail (map), and the summary styles are
  then written from those part summaries (reduce);
- a question gets the chunks most relevant to it (word overlap with the question), in document order, as many as
  fit.
The item records what was done (`chunked`). When even one chunk cannot fit, the item fails with an error naming
the document, its estimated tokens and the context.
"""

from __future__ import annotations

import json
import math
import re
import urllib.request

CHARS_PER_TOKEN = 3.0
MARGIN_TOKENS = 64
_WORD = re.compile(r"[^\W\d_]{3,}")
_context_cache: dict[str, int | None] = {}


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def server_context_tokens(base_url: str | None) -> int | None:
    """The per-request context of a llama.cpp-style server (GET <root>/props), or None when it does not say."""
    if not base_url:
        return None
    if base_url in _context_cache:
        return _context_cache[base_url]
    root = re.sub(r"/v1/?$", "", base_url.rstrip("/"))
    found = None
    try:
        with urllib.request.urlopen(f"{root}/props", timeout=5) as reply:
            props = json.loads(reply.read())
        value = (props.get("default_generation_settings") or {}).get("n_ctx") or props.get("n_ctx")
        found = int(value) if value else None
    except (OSError, ValueError, AttributeError, TypeError):
        found = None
    _context_cache[base_url] = found
    return found


def document_budget(context: int, max_tokens: int, prompt_without_document: str) -> int:
    """Tokens left for the document in one request."""
    return context - max_tokens - estimate_tokens(prompt_without_document) - MARGIN_TOKENS


def split_into_chunks(document: str, budget_tokens: int) -> list[str]:
    """Consecutive chunks of whole lines (speaker turns), each within `budget_tokens`; a line longer than a chunk
    is cut at the budget."""
    limit = max(1, int(budget_tokens * CHARS_PER_TOKEN))
    chunks: list[str] = []
    current = ""
    for line in document.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit and current:
            chunks.append(current)
            current = ""
        current += line
    if current.strip():
        chunks.append(current)
    return chunks


def relevant_chunks(chunks: list[str], question: str, budget_tokens: int) -> tuple[str, int]:
    """The chunks sharing most words with the question, as many as fit, joined in document order."""
    wanted = {w.lower() for w in _WORD.findall(question)}
    scored = sorted(range(len(chunks)), key=lambda i: -len(wanted & {w.lower() for w in _WORD.findall(chunks[i])}))
    chosen, used = [], 0
    for i in scored:
        cost = estimate_tokens(chunks[i])
        if used + cost > budget_tokens:
            continue
        chosen.append(i)
        used += cost
    return "\n[...]\n".join(chunks[i] for i in sorted(chosen)), len(chosen)


def too_long(name: str, document: str, context: int) -> str:
    return (
        f"context_overflow: document {name!r} ({estimate_tokens(document)} tokens, estimated) does not fit the model's "
        f"{context}-token context even in chunks; raise the server's context (llama-server -c) or lower max_tokens"
    )
