"""Reading what a user hands us, one policy for every command: regular files only (a FIFO, a device or a socket
is refused by name, so a command never hangs on one), at most `max_input_bytes()` read (100 MB unless
`--max-input-mb` or GAIA_EVAL_MAX_INPUT_MB says otherwise), text decoded as UTF-8 (a UTF-8 BOM dropped; UTF-16,
binary and other encodings refused with the offset of the first bad byte), JSON parsed by orjson, whose nesting
is bounded (1024 levels: deeper is refused, never a RecursionError).
"""

from __future__ import annotations

import codecs
import math
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from gaia_eval.errors import InputError, UsageError

DEFAULT_MAX_INPUT_MB = 100
MAX_INPUT_ENV = "GAIA_EVAL_MAX_INPUT_MB"
MAX_JSON_DEPTH = 1024  # orjson's own bound; no artifact nests deeper than about ten
_MB = 1_000_000
_max_input_mb: float | None = None  # set by --max-input-mb for one command


def set_max_input_mb(value: float | None) -> None:
    """--max-input-mb for the command being run (None: the environment variable, else the default)."""
    global _max_input_mb
    _max_input_mb = value


def max_input_bytes() -> int:
    """The limit in bytes: --max-input-mb, else GAIA_EVAL_MAX_INPUT_MB, else 100 MB; `inf` lifts it."""
    if _max_input_mb is not None:
        return _megabytes(_max_input_mb, "--max-input-mb", str(_max_input_mb))
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_MB * _MB
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    return _megabytes(value, MAX_INPUT_ENV, raw)


def _megabytes(value: float, name: str, raw: str) -> int:
    if not value > 0:  # also NaN
        raise UsageError(f"{name}={raw!r} is not a positive number of megabytes",
                         fix=f"unset it or give e.g. {name}=500 (inf for no limit)")
    return int(min(value * _MB, sys.maxsize))


def _too_big(path: Path, size: int, limit: int, *, whole: bool = True) -> InputError:
    """`whole`: the command reads the file whole (read_input_bytes), so the limit is what stops it: the line says
    so and how to lift it, which matters for an artifact the pipeline wrote itself (a 100,000-item evaluation)."""
    if whole:
        return InputError(
            f"is {size / _MB:.3g} MB, over the {limit / _MB:g} MB input limit for a file this command reads whole",
            file=path,
            fix=f"raise the limit above {math.ceil(size / _MB * 10) / 10:g} MB with --max-input-mb "
                f"(or {MAX_INPUT_ENV}), or check it is the right file",
        )
    return InputError(
        f"is {size / _MB:.3g} MB, over the {limit / _MB:g} MB input limit",
        file=path,
        fix=f"check it is the right file, or raise the limit with --max-input-mb (or {MAX_INPUT_ENV})",
    )


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refuse_special_file(path: Path, what: str = "a file") -> None:
    """For a command that tells a file from a folder itself: a path that exists but is neither (a FIFO, a
    device, a socket) is refused by name, instead of being called missing or read as a folder."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputError(f"is {_kind(mode)}, expected {what}", file=path, fix="pass a regular file")


def _open_regular(path: Path, what: str) -> int:
    """An fd on `path`, checked to be a regular file before anything is read. O_NONBLOCK makes opening a FIFO
    return at once instead of waiting for a writer; it changes nothing for a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError("file not found", file=path, fix="check the path") from None
    except IsADirectoryError:
        raise InputError(f"is a folder, expected {what}", file=path, fix="pass a file") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} ({exc.strerror or type(exc).__name__})", file=path,
                         fix="check the path and its permissions") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputError(f"is {_kind(mode)}, expected {what}", file=path, fix="pass a regular file")
    return fd


def open_input(path: Path, what: str = "a file") -> BinaryIO:
    """A binary file object on a regular file (not size-bounded: for readers that hold one element at a time)."""
    return os.fdopen(_open_regular(Path(path), what), "rb")


def check_input_file(path: Path, what: str = "a file") -> int:
    """Refuse what `read_input_bytes` would refuse, for files a library opens itself (PDF); returns the size."""
    fd = _open_regular(Path(path), what)
    try:
        size = os.fstat(fd).st_size
    finally:
        os.close(fd)
    limit = max_input_bytes()
    if size > limit:
        raise _too_big(Path(path), size, limit)
    return size


def read_input_bytes(path: Path, what: str = "a file") -> bytes:
    """The bytes of a regular file of at most `max_input_bytes()` (never more is read, even from a file that
    grows); anything else is an InputError naming the file."""
    path = Path(path)
    fd = _open_regular(path, what)
    limit = max_input_bytes()
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _too_big(path, size, limit)
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 22, limit + 1 - total) or 1):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise _too_big(path, total, limit)
    except OSError as exc:
        raise InputError(f"cannot read {what} ({exc.strerror or type(exc).__name__})", file=path) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode_text(path: Path, data: bytes) -> str:
    """UTF-8 text (a UTF-8 BOM dropped); UTF-16, binary or another encoding is an InputError saying which."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("is UTF-16 text, expected UTF-8", file=path, fix="re-save the file as UTF-8")
    if b"\x00" in data:
        raise InputError("is a binary file (it holds NUL bytes), expected UTF-8 text", file=path,
                         fix="pass a text file, or re-save it as UTF-8 if it is UTF-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8 text (bad byte at offset {exc.start})", file=path,
                         fix="re-save the file as UTF-8") from None


def read_input_text(path: Path, what: str = "a text file") -> str:
    path = Path(path)
    return decode_text(path, read_input_bytes(path, what))


_PIECE = 1 << 18  # bytes read at a time by iter_input_text


def iter_input_text(path: Path, what: str = "a text file", piece: int = _PIECE) -> Iterator[str]:
    """read_input_text a piece at a time, so that the file is never held: the same policy (regular file, size
    bound, UTF-8 with a BOM dropped, UTF-16 and NUL bytes refused, a bad byte named by its offset in the file),
    each refusal raised when the reader reaches it."""
    path = Path(path)
    fd = _open_regular(path, what)
    limit = max_input_bytes()
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    fed = 0  # bytes handed to the decoder, the BOM not counted (decode_text's offsets do not count it)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise _too_big(path, size, limit, whole=False)
        total = 0
        while True:
            try:
                # the first read sees a whole BOM (a regular file gives what is asked for, until its end)
                data = os.read(fd, min(piece if total else max(piece, 4), limit + 1 - total) or 1)
            except OSError as exc:
                raise InputError(f"cannot read {what} ({exc.strerror or type(exc).__name__})", file=path) from None
            if not total and data.startswith((b"\xff\xfe", b"\xfe\xff")):
                raise InputError("is UTF-16 text, expected UTF-8", file=path, fix="re-save the file as UTF-8")
            if not total and data.startswith(b"\xef\xbb\xbf"):
                fed -= 3
            total += len(data)
            if total > limit:
                raise _too_big(path, total, limit, whole=False)
            if b"\x00" in data:
                raise InputError("is a binary file (it holds NUL bytes), expected UTF-8 text", file=path,
                                 fix="pass a text file, or re-save it as UTF-8 if it is UTF-16")
            pending = len(decoder.getstate()[0])
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError as exc:
                raise InputError(f"is not UTF-8 text (bad byte at offset {max(fed, 0) - pending + exc.start})",
                                 file=path, fix="re-save the file as UTF-8") from None
            fed += len(data)
            if text:
                yield text
            if not data:
                return
    finally:
        os.close(fd)


JSONL_BREAK = re.compile("\n")  # JSON Lines break at "\n" only (see jsonl_lines)
CSV_BREAK = re.compile("\r\n|\r|\n")  # what csv reads from a file opened with newline=""


def iter_input_lines(path: Path, breaks: re.Pattern[str], what: str = "a text file") -> Iterator[str]:
    """The lines of a file a user hands us, each with its ending, split where `breaks` matches (JSONL_BREAK or
    CSV_BREAK, never str.splitlines), read through iter_input_text: the memory is a piece and the current line.
    The last line is given even when empty (as `text.split` would)."""
    return split_lines(iter_input_text(path, what), breaks)


def split_lines(pieces: Iterable[str], breaks: re.Pattern[str]) -> Iterator[str]:
    parts: list[str] = []  # the current line's pieces, joined once (a long line is never copied piece by piece)
    carry = ""
    for text in pieces:
        text = carry + text
        # A "\r" ending a piece waits for the next one: it may be half of a "\r\n".
        text, carry = (text[:-1], "\r") if text.endswith("\r") else (text, "")
        start = 0
        for match in breaks.finditer(text):
            parts.append(text[start:match.end()])
            yield "".join(parts)
            parts, start = [], match.end()
        if start < len(text):
            parts.append(text[start:])
    parts.append(carry)
    last = "".join(parts)
    final = breaks.search(last)  # a final lone "\r" is a break for CSV
    if final is not None:
        yield last[:final.end()]
        last = last[final.end():]
    yield last


def json_bytes(path: Path, data: bytes) -> bytes:
    """The text policy for a JSON file read as bytes: a UTF-8 BOM dropped, UTF-16 and binary refused."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        decode_text(path, data)  # raises the policy's message
    return data


def parse_json(path: Path, data: bytes | str, *, where: str = "", fix: str = "repair or regenerate the file") -> Any:
    """orjson's reading of `data`; malformed or too deeply nested JSON is an InputError naming the file, `where`
    (e.g. "line 3: ") and the position."""
    if isinstance(data, bytes):
        data = json_bytes(path, data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if isinstance(data, bytes) and "UTF-8" in exc.msg:
            decode_text(path, data)  # the policy's message, with the offset of the bad byte
        if "recursion" in exc.msg or "depth" in exc.msg:
            raise InputError(f"{where}JSON nested deeper than {MAX_JSON_DEPTH} levels", file=path,
                             fix="flatten the data; no gaia-eval file nests that deep") from None
        one_line = exc.lineno == 1 and not (exc.doc or "").count("\n")
        position = f"column {exc.colno}" if one_line else f"line {exc.lineno} column {exc.colno}"
        raise InputError(f"{where}not valid JSON ({exc.msg} at {position})", file=path, fix=fix) from None


def path_inside(folder: Path, name: str) -> Path:
    """`folder / name` for a path that data names (a row's `source`, an id filled into `--source-file`), refused
    unless it stays inside `folder`: an absolute path, `..` climbing out, or a symbolic link on the way that leads
    out of the folder would let a data file embed any file on the machine (which is then sent to a model). A link
    that stays inside the folder is followed. Raises InputError with the reason; the caller names row and field."""
    if not name or os.path.isabs(name) or name.startswith(("\\", "~")) or (len(name) > 1 and name[1] == ":"):
        raise InputError(f"'{name}' is not a path relative to the folder {folder}",
                         fix="name a file inside that folder, relative to it")
    base = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(base, name))
    if os.path.commonpath([base, target]) != base:
        raise InputError(f"'{name}' resolves outside the folder {folder} (through '..' or a symbolic link)",
                         fix="copy the file into that folder and name it relative to the folder")
    return Path(folder) / name


def jsonl_lines(text: str) -> list[str]:
    """The lines of JSON Lines text: split at "\\n" only (a trailing "\\r" dropped). `str.splitlines` also breaks at
    U+2028, U+2029, U+0085 and other characters that JSON allows raw inside a string, which cut valid lines."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
