"""Big artifacts without holding them: one pass over a JSON file finds where each top-level value lies and, for
the big containers (an experiment's items and sources, an evaluation's items), where each element lies; the
elements are then parsed one at a time from their byte spans. The file is read in chunks, so the memory it
takes does not grow with the file. Only the structure is read here (strings are skipped
whole, brackets counted); the elements are validated by their models where they are used (streamed.py).
`Unreadable`: not JSON, or not the shape expected; the caller falls back to the ordinary full read, whose
message names the file, the line and the field."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from gaia_eval.artifacts.inputs import check_input_file, open_input

CHUNK = 1 << 22
ROWS_CHUNK = 1 << 18  # iter_array_objects: a smaller piece, read as often as a line of JSONL is
# A whole string (escapes included), a lone quote (a string the chunk cuts: read more), or a bracket.
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|["{}\[\]]')
_WS = b" \t\r\n"
# From inside an object to its next bracket: strings skipped whole (one stops the match where a chunk cuts it).
_TO_BRACKET = re.compile(rb'(?:[^"{}\[\]\\]+|\\.|"[^"\\]*(?:\\.[^"\\]*)*")*')
_QUOTE, _OPEN_OBJ, _OPEN_ARR, _CLOSE_OBJ, _CLOSE_ARR = 0x22, 0x7B, 0x5B, 0x7D, 0x5D
_PAIR = {_CLOSE_OBJ: _OPEN_OBJ, _CLOSE_ARR: _OPEN_ARR}


class Unreadable(Exception):
    """Not the shape this reader expects: the ordinary full read gives the message."""


@dataclass
class Layout:
    """Where things are in the file: top-level values (raw bytes when short, else a byte span) and the spans of
    the elements of the big containers (arrays: their objects; objects: key -> the member's object)."""

    values: dict[str, bytes | tuple[int, int]] = field(default_factory=dict)
    elements: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    members: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)


def scan(path: Path, containers: frozenset[str]) -> Layout:
    """No size bound (the input policy's --max-input-mb): the scan holds a chunk and the spans, whatever the
    file's size, so a 110 MB experiment of 100,000 items is read as cheaply as a small one. A file that does not
    open with `{` (a 200 MB file of NUL bytes, binary) is Unreadable at its first chunk, and the full read then
    refuses it by size or by content."""
    try:
        return _scan(path, containers)
    except orjson.JSONDecodeError:  # a key that is not UTF-8 or not a JSON string
        raise Unreadable from None


def _scan(path: Path, containers: frozenset[str]) -> Layout:
    layout = Layout()
    stack: list[int] = []
    key: str | None = None  # the top-level key whose value comes next or is being read
    state = "start"  # at depth 1: "key", "colon" (key read), "value" (container value open), "after"
    value_start = 0
    member: str | None = None  # depth 2 of an object container: the member's key
    element_start = 0
    prev_end = 0  # absolute offset after the previous token seen at depth <= 2
    base = 0
    buf = b""
    resume = 0  # where in buf the next token search starts
    with open_input(path, "an artifact file") as fh:
        while True:
            chunk = fh.read(CHUNK)
            buf += chunk
            pos = resume
            for m in _TOKEN.finditer(buf, resume):
                start, end = m.span()
                c = buf[start]
                if c == _QUOTE and end - start == 1:
                    break  # a string cut by the chunk: read on
                pos = end
                depth = len(stack)
                if depth > 2 or (depth == 2 and state == "value" and key not in containers):
                    if c != _QUOTE:
                        if c in _PAIR:
                            if not stack or stack.pop() != _PAIR[c]:
                                raise Unreadable
                            if len(stack) == 2 and key in containers:
                                _end_element(layout, key, member, element_start, base + end)
                                member, prev_end = None, base + end
                            elif len(stack) == 1:
                                layout.values[key] = (value_start, base + end)  # type: ignore[index]
                                state, prev_end = "after", base + end
                        else:
                            stack.append(c)
                    continue
                gap = _gap(buf, base, prev_end, start)
                if depth == 0:
                    if c != _OPEN_OBJ or gap or state != "start":
                        raise Unreadable
                    stack.append(c)
                    state = "key"
                elif depth == 1:
                    state, key = _top_level(layout, buf, start, end, c, gap, state, key, base)
                    if state == "value":
                        value_start = base + start
                        stack.append(c)
                        if key in containers and c == _OPEN_ARR:
                            layout.elements[key] = []
                        elif key in containers:
                            layout.members[key] = {}
                    elif state == "end":
                        stack.pop()
                else:  # depth 2 inside a big container
                    if c == _QUOTE:
                        if stack[1] != _OPEN_OBJ or member is not None or gap not in (b"", b","):
                            raise Unreadable
                        if (gap == b"") != (not layout.members[key]):  # type: ignore[index]
                            raise Unreadable
                        member = orjson.loads(buf[start:end])
                    elif c in (_OPEN_OBJ, _OPEN_ARR):
                        expected = b":" if stack[1] == _OPEN_OBJ else (b"," if layout.elements[key] else b"")  # type: ignore[index]
                        if c != _OPEN_OBJ or gap != expected or (stack[1] == _OPEN_OBJ and member is None):
                            raise Unreadable
                        element_start = base + start
                        stack.append(c)
                    else:  # the container closes
                        if stack.pop() != _PAIR[c] or gap or member is not None:
                            raise Unreadable
                        layout.values[key] = (value_start, base + end)  # type: ignore[index]
                        state = "after"
                prev_end = base + end
            if not stack and buf[pos:].lstrip(_WS):
                raise Unreadable  # not an object: never read on until a token shows up (NUL bytes have none)
            if not chunk:
                if stack or buf[pos:].strip(_WS):
                    raise Unreadable
                break
            # Keep what a later token may still need: the unread tail and the gap before it.
            keep = max(0, min(pos, prev_end - base))
            buf, base, resume = buf[keep:], base + keep, pos - keep
    if state != "end":
        raise Unreadable
    return layout


def _gap(buf: bytes, base: int, prev_end: int, start: int) -> bytes:
    lo = max(0, prev_end - base)
    return buf[lo:start].strip(_WS) if lo < start else b""


def _end_element(layout: Layout, key: str | None, member: str | None, start: int, end: int) -> None:
    if member is None:
        layout.elements[key].append((start, end))  # type: ignore[index]
    else:
        layout.members[key][member] = (start, end)  # type: ignore[index]


def _top_level(layout: Layout, buf: bytes, start: int, end: int, c: int, gap: bytes, state: str, key: str | None,
               base: int) -> tuple[str, str | None]:
    """One token at depth 1 of the top-level object: a key, a value, or the object's end."""
    if state == "colon":
        if not gap.startswith(b":"):
            raise Unreadable
        rest = gap[1:].strip(_WS)
        if not rest:  # the token is the value
            if c == _QUOTE:
                layout.values[key] = buf[start:end]  # type: ignore[index]
                return "after", key
            if c in (_OPEN_OBJ, _OPEN_ARR):
                return "value", key
            raise Unreadable
        # A scalar value (number, true, false, null) sat in the gap; the token starts what follows it.
        scalar = rest[:-1].rstrip(_WS) if rest.endswith(b",") else rest
        if not scalar or any(ch in scalar for ch in b",:"):
            raise Unreadable
        layout.values[key] = scalar  # type: ignore[index]
        gap = b"," if rest.endswith(b",") else b""
        state = "after"
    if state == "after":
        if c == _CLOSE_OBJ and gap == b"":
            return "end", None
        if c != _QUOTE or gap != b",":
            raise Unreadable
        return "colon", orjson.loads(buf[start:end])
    if state == "key":
        if c == _CLOSE_OBJ and gap == b"" and not layout.values:
            return "end", None
        if c != _QUOTE or gap:
            raise Unreadable
        return "colon", orjson.loads(buf[start:end])
    raise Unreadable


class SpanReader:
    """Reads byte spans of one file, keeping the file open."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fh = open_input(self.path, "an artifact file")

    def read(self, span: tuple[int, int]) -> bytes:
        self._fh.seek(span[0])
        return self._fh.read(span[1] - span[0])

    def close(self) -> None:
        self._fh.close()



def iter_array_objects(path: Path) -> Iterator[bytes]:
    """The JSON text of each object of a file that is one JSON array of objects (a UTF-8 BOM dropped), one at a
    time as the file is read in chunks: the memory is a chunk and the current object. Only the structure is
    checked here (orjson reads each object); Unreadable, possibly after some objects were given, when the file is
    not that shape: the ordinary full read then gives the message, or the rows."""
    check_input_file(Path(path), "a data file")
    depth, base, pos, prev_end, start, count = 0, 0, 0, 0, -1, 0
    buf, closed, want = b"", False, max(ROWS_CHUNK, 3)  # the first read sees a whole BOM
    with open_input(path, "a data file") as fh:
        while True:
            chunk = fh.read(want)
            ended = not chunk
            if not base and not buf and chunk.startswith(b"\xef\xbb\xbf"):
                chunk, base, prev_end = chunk[3:], 3, 3
            buf += chunk
            before = pos
            while True:
                if depth >= 2:  # inside an object: up to its next bracket, strings skipped whole
                    at = _TO_BRACKET.match(buf, pos).end()  # type: ignore[union-attr]
                    if at == len(buf) or buf[at] == _QUOTE:
                        break  # the chunk ends first, or cuts a string: read on
                    pos = at + 1
                    depth += 1 if buf[at] in (_OPEN_OBJ, _OPEN_ARR) else -1  # orjson checks they pair
                    if depth == 1:
                        yield buf[start - base:pos]
                        start, prev_end, count = -1, base + pos, count + 1
                    continue
                m = _TOKEN.search(buf, pos)
                if m is None:
                    break
                at, c = m.start(), buf[m.start()]
                gap = _gap(buf, base, prev_end, at)
                if depth == 0 and not closed and c == _OPEN_ARR and not gap:
                    depth = 1
                elif depth == 1 and c == _OPEN_OBJ and gap == (b"," if count else b""):
                    depth, start = 2, base + at
                elif depth == 1 and c == _CLOSE_ARR and not gap:
                    depth, closed = 0, True
                else:  # a string or a scalar where an object belongs, a second array, ...
                    raise Unreadable
                pos, prev_end = m.end(), base + m.end()
            if ended:
                if not closed or buf[pos:].strip(_WS):
                    raise Unreadable
                return
            # A read that moved nothing on (a long string or gap) reads twice as much next: never quadratic.
            want = want * 2 if pos == before else ROWS_CHUNK
            # Keep what a later token may still need: the open object, the unread tail and the gap before it.
            keep = max(0, min(pos, (start if start >= 0 else prev_end) - base))
            buf, base, pos = buf[keep:], base + keep, pos - keep
