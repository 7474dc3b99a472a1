"""The provider names a config or option may use: plain constants with no imports, so the CLI can offer them as
choices without loading any provider code."""

from __future__ import annotations

# OpenAI-compatible local servers: no key needed, $0 cost, base URL overridable in the config.
LOCAL_PRESETS: dict[str, str] = {
    "lemonade": "http://localhost:8000/api/v1",
    "ollama": "http://localhost:11434/v1",
    "vllm": "http://localhost:8000/v1",
    "lmstudio": "http://localhost:1234/v1",
    "llamacpp": "http://localhost:8080/v1",
}

CLOUD_KEYS: dict[str, str] = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}

KNOWN_PROVIDERS: tuple[str, ...] = ("baseline", "anthropic", "openai", *LOCAL_PRESETS)
LLM_PROVIDERS: tuple[str, ...] = tuple(p for p in KNOWN_PROVIDERS if p != "baseline")
