"""Parse JSON text into data with json's own C scanner (exact semantics), telling whether any
object repeated a key, and recording the offsets of the document's upper levels on the way
(:func:`parse_json_indexed`), from which the source map (:mod:`mcplint.sourcemap`) starts
when a finding needs a location. NaN and Infinity are refused, as RFC 8259 has them."""

from __future__ import annotations

import json
import re
from typing import Any

# Whitespace between JSON tokens, and a JSON string as a run of plain characters, then (an
# escape, a run)*: a character class repeats without a backtracking frame per character, so a
# string megabytes long costs no memory to match.
WS = re.compile(r"[ \t\n\r]*")
STRING_RE = r'"[^"\\]*(?:\\.[^"\\]*)*"'


def _json_hook_factory(flag: list):
    def hook(pairs):
        d = dict(pairs)
        if len(d) != len(pairs):
            flag.append(True)
        return d

    return hook


def parse_json(text: str) -> tuple[Any, bool]:
    """Parse JSON; the bool tells whether any object repeated a key."""
    flag: list = []
    text = text.lstrip("\ufeff")
    data = json.loads(text, object_pairs_hook=_json_hook_factory(flag), parse_constant=_no_constant(text))
    return data, bool(flag)


class _NotIndexed(Exception):
    pass


def parse_json_indexed(text: str, known: dict | None = None) -> tuple[Any, bool, dict | None]:
    """:func:`parse_json`, and the offsets of the document's upper levels (its landmarks):
    ``{pointer: (key start, key end, value start, value end)}`` as :func:`json_spans` maps them,
    for every value down to each tool in every document shape (the root's members, their
    members, and the items of arrays at that depth: a JSON-RPC response's tools).

    The upper levels are read here, every value below them by json's own C scanner, so the
    cost stays that of parsing; a locator can then start at the landmark above a finding
    instead of scanning the file again from the top. None for landmarks when the text is not
    valid JSON (then :func:`parse_json` raises its error) or starts with more than one
    byte-order mark.

    ``known``: values below the landmarks that were parsed already, ``{offset: (value, offset
    after it)}`` (a probe's capture, written from what the probe parsed): a value that starts at
    one of these offsets is taken from there, not read again."""
    bom = len(text) - len(text.lstrip("\ufeff"))
    if bom <= 1:  # offsets into ``text`` as given, the byte-order mark included (as json_spans's)
        flag: list = []
        hook = _json_hook_factory(flag)
        scan = json.JSONDecoder(object_pairs_hook=hook, parse_constant=_no_constant(text)).scan_once
        if known:
            scan = _knowing(scan, known)
        try:
            data, marks = _landmarks(text, scan, hook, bom)
            return data, bool(flag), marks
        except (_NotIndexed, StopIteration, IndexError, ValueError):
            pass  # parse_json reports it, with json's own message and position
    data, dups = parse_json(text)
    return data, dups, None


def _knowing(scan, known: dict):
    def scan_known(text: str, pos: int) -> tuple[Any, int]:
        hit = known.get(pos)
        return hit if hit is not None else scan(text, pos)

    return scan_known


def _landmarks(text: str, scan, hook, start: int = 0) -> tuple[Any, dict]:
    marks: dict = {}
    data, end = _landmark_value(text, scan, hook, marks, WS.match(text, start).end(), (), -1, -1, 0)
    if WS.match(text, end).end() != len(text):
        raise _NotIndexed
    return data, marks


def _landmark_value(text: str, scan, hook, marks: dict, pos: int, ptr: tuple, ks: int, ke: int,
                    depth: int) -> tuple[Any, int]:
    """The value at ``pos`` and where it ends, recording it in ``marks``. The root and its members
    are read here, and arrays one level further (the tools of a JSON-RPC response); everything
    else by ``scan``, json's own scanner. (A plain function, not a closure calling itself: that
    would be a reference cycle, and the engine lints with the cycle collector off.)"""
    c = text[pos]
    if (c == "{" or c == "[") and (depth < 2 or (depth == 2 and c == "[")):
        closer = "}" if c == "{" else "]"
        p = WS.match(text, pos + 1).end()
        items: list = []  # (key, value) pairs of an object, values of an array
        end = p + 1 if text[p] == closer else None
        while end is None:
            if c == "{":
                if text[p] != '"':
                    raise _NotIndexed
                key, kend = scan(text, p)
                q = WS.match(text, kend).end()
                if text[q] != ":":
                    raise _NotIndexed
                v, q = _landmark_value(text, scan, hook, marks, WS.match(text, q + 1).end(), (*ptr, key), p, kend,
                                       depth + 1)
                items.append((key, v))
            else:
                v, q = _landmark_value(text, scan, hook, marks, p, (*ptr, len(items)), -1, -1, depth + 1)
                items.append(v)
            p = WS.match(text, q).end()
            if text[p] == ",":
                p = WS.match(text, p + 1).end()
            elif text[p] == closer:
                end = p + 1
            else:
                raise _NotIndexed
        result: Any = hook(items) if c == "{" else items
    else:
        result, end = scan(text, pos)
    marks[ptr] = (ks, ke, pos, end)
    return result, end


_CONSTANT_RE = re.compile(STRING_RE + r'|(-?Infinity|NaN)', re.DOTALL)


def _no_constant(text: str):
    """NaN and Infinity are not JSON (RFC 8259 §6), though Python's parser takes them."""
    def refuse(name: str):
        pos = next((m.start(1) for m in _CONSTANT_RE.finditer(text) if m.group(1)), 0)
        raise json.JSONDecodeError(f"{name} is not a JSON value (JSON has no NaN or Infinity)", text, pos)
    return refuse
