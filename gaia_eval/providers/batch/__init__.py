"""Provider batch APIs (OpenAI Batch API, Anthropic Message Batches): `--batch` runs a stage's model calls
through them at the batch price, journaled so that a killed run re-attaches instead of resubmitting.

options and mode (with_batch, batch_gate) load no SDK; runner, the adapters and status are imported when used.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "BatchOptions": "options",
    "batch_gate": "mode",
    "with_batch": "mode",
    "batch_status_lines": "status",
}

__getattr__, _lazy_names = lazy_exports(__name__, _LAZY)
__all__ = list(_lazy_names)
