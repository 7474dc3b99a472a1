"""Rendering the jinja2 prompt templates shipped in gaia_eval/templates/prompts, and fingerprinting them."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from gaia_eval.artifacts.store import fingerprint_bytes

PROMPTS_DIR = Path(__file__).parent / "templates" / "prompts"


@lru_cache(maxsize=1)
def _environment():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,  # a missing variable is a bug, never an empty string in a prompt
        keep_trailing_newline=False,
        autoescape=False,
    )


def render(template_name: str, **context: object) -> str:
    return _environment().get_template(template_name).render(**context).strip()


def template_names() -> list[str]:
    return sorted(p.name for p in PROMPTS_DIR.glob("*.j2"))


def prompts_fingerprint(*names: str) -> str:
    """Changes when any of the named templates changes, so outputs made with an old prompt become stale."""
    data = b"".join(name.encode() + b"\0" + (PROMPTS_DIR / name).read_bytes() for name in sorted(names))
    return fingerprint_bytes(data)
