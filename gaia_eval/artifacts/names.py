"""File names made from data: the ONE function (`file_stem`) every name taken from a user's data goes through
before it becomes part of a path (item ids, system, experiment and template names), and `NameClaims`, which
refuses two names that would land on one file.

Two styles. `id` (item ids): reversible percent-encoding of what a path would read as structure (`/`, `\\`),
what Windows forbids (`: * ? " < > |`), `%` itself, a leading `.` (so `..` and hidden files cannot be named) and a
trailing `.` or space; every ordinary id is left as it is, and `decode_stem` gives the id back. `slug`
(experiment, system and template names): the name cleaning the reference tool used (`Qwen3-1.7B Basic` ->
`Qwen3-1_7B_Basic`), which keeps only letters, digits, `-` and `_`, so it is lossy: two names cleaned alike are
found by `NameClaims`. Both refuse what no file name should hold: an empty name, control characters (NUL
included) and invisible format characters (bidi overrides, zero-width), a name too long for a file system, or a
value that is not text.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote

from gaia_eval.errors import InputError

# Bytes of the encoded stem: file systems allow 255 per name, and suffixes such as
# `.summarization.groundtruth.json` and a temp-file prefix still have to fit.
MAX_STEM_BYTES = 180
_ENCODED = frozenset('/\\%:*?"<>|')


def safe_name(name: str) -> str:
    """File-safe experiment name, as the reference tool built it: keep alphanumerics, space, '-' and '_',
    turn '.' into '_', drop the rest, then spaces into '_'. `Qwen3-1.7B Basic` -> `Qwen3-1_7B_Basic`."""
    kept = "".join(c if (c.isalnum() or c in " -_") else ("_" if c == "." else "") for c in name)
    return re.sub(r" +", "_", kept.strip())


def _percent(char: str) -> str:
    return "".join(f"%{b:02X}" for b in char.encode("utf-8"))


def _encode_id(name: str) -> str:
    out = [_percent(c) if c in _ENCODED else c for c in name]
    if out[0] == ".":
        out[0] = _percent(".")
    if out[-1] in (".", " "):
        out[-1] = _percent(out[-1])
    return "".join(out)


def decode_stem(stem: str) -> str:
    """The id a stem of style `id` was made from."""
    return unquote(stem, errors="strict")


def _control_character(name: str) -> str | None:
    """A control character, a line separator, or an invisible format character (Cf: bidi overrides such as
    U+202E, zero-width U+200B..U+200D, U+FEFF), which would make one name display as another."""
    for c in name:
        category = unicodedata.category(c)
        if category == "Cc" or c in "\u2028\u2029":
            return f"the control character U+{ord(c):04X}"
        if category == "Cf":
            return f"the invisible character U+{ord(c):04X}, which makes a name display as another"
    return None


def file_stem(
    name: Any,
    *,
    what: str,
    style: Literal["id", "slug"] = "id",
    file: str | Path | None = None,
    field: str | None = None,
) -> str:
    """The part of a file name that `name` (taken from data) becomes, never a path: it cannot hold a separator,
    be `.` or `..`, or start with `/`. Refused with an InputError naming `file` and `field` (what the user must
    fix): a value that is not text, an empty name, a control character, a name too long for a file name."""

    def refuse(problem: str, fix: str) -> InputError:
        return InputError(f"{what} {problem}", file=file, field=field, fix=fix)

    if not isinstance(name, str):
        raise refuse(f"must be text, not {type(name).__name__}", f"give the {what} as a string")
    shown = name if len(name) <= 60 else name[:57] + "..."
    if not name.strip():
        raise refuse("is empty", f"give every row a non-empty {what}")
    bad = _control_character(name)
    if bad:
        raise refuse(f"{shown!r} holds {bad}", f"remove it from the {what}")
    stem = _encode_id(name) if style == "id" else safe_name(name)
    if not stem:
        raise refuse(f"{shown!r} has no letter or digit to name a file with", f"give the {what} a letter or digit")
    if len(stem.encode("utf-8")) > MAX_STEM_BYTES:
        raise refuse(f"{shown!r} is too long for a file name ({len(stem.encode('utf-8'))} bytes as a file name, "
                     f"at most {MAX_STEM_BYTES})", f"shorten the {what}")
    return stem


class NameClaims:
    """The file stems given out so far in one output folder: a second name landing on a stem already claimed by
    another name (equal ignoring case and Unicode normalization, as on macOS and Windows disks) is refused, so
    two items or systems never overwrite each other's file."""

    def __init__(self, what: str, suffix: str = "") -> None:
        self.what = what
        self.suffix = suffix
        self._claimed: dict[str, tuple[str, str]] = {}

    def claim(self, name: str, stem: str, *, file: str | Path | None = None, field: str | None = None) -> str:
        """Claim `stem` for `name`; a stem claimed before (even by the same name) is refused."""
        key = unicodedata.normalize("NFC", stem).casefold()
        if key in self._claimed:
            other, other_stem = self._claimed[key]
            problem = (f"{self.what} {name!r} appears twice" if other == name else
                       f"{self.what}s {other!r} and {name!r} would both be written to {other_stem}{self.suffix}")
            raise InputError(problem, file=file, field=field,
                             fix=f"give every {self.what} its own name, differing in more than punctuation or case")
        self._claimed[key] = (name, stem)
        return stem
