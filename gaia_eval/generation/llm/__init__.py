"""LLM-written documents: briefs from the offline scenario (scenario), prompts and the writing loop (generate),
validation checks, chat sessions with a repair turn (session), token counting, and PDF rendering.

The names below are the package's public surface; code outside the package imports them from here. Each is
loaded from its module on first use, so importing the package costs nothing until then.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "Brief": "scenario",
    "CallFailed": "session",
    "Outcome": "generate",
    "Session": "session",
    "TEMPERATURE": "generate",
    "UnreadableReply": "session",
    "WrittenDocument": "generate",
    "follow_up": "session",
    "generate_prompts_fingerprint": "generate",
    "llm_provider_settings": "session",
    "make_brief": "scenario",
    "output_budget": "generate",
    "render_pdf": "pdf",
    "reply_text": "session",
    "system_prompt": "generate",
    "write_document": "generate",
}

__getattr__, __all__ = lazy_exports(__name__, _LAZY)
