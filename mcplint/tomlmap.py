"""TOML (Codex's ``config.toml``): the data, and where each key and value is in the text.

The data comes from the standard library's ``tomllib`` (Python 3.11+), or ``tomli`` on 3.10.
The map is read from the text line by line, for the forms a configuration uses: table headers
(``[mcp_servers.docs]``, ``[mcp_servers.docs.env]``), ``key = value`` lines with bare, quoted
or dotted keys, inline tables on one line and arrays of strings (over several lines too). A
pointer it does not know is located at its nearest ancestor that it does (the table's header).
"""

from __future__ import annotations

import re

from .errors import InputError
from .model import Span

_KEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = re.compile(rf"\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*")
_HEADER = re.compile(rf"\s*\[\s*({_KEY}(?:\s*\.\s*{_KEY})*)\s*\]\s*(?:#.*)?$")
_PART = re.compile(_KEY)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'')


def loads(origin: str, text: str) -> dict:
    """The data of a TOML text; invalid TOML is an InputError located at its line and column."""
    try:
        import tomllib  # Python 3.11+
    except ModuleNotFoundError:
        try:
            import tomli as tomllib  # the same parser, for Python 3.10
        except ModuleNotFoundError:
            raise InputError("reading a Codex config.toml needs Python 3.11 or later (tomllib), or the tomli "
                             "package on Python 3.10", origin=origin) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+), column (\d+)", str(e))
        raise InputError(f"invalid TOML: {e}", origin=origin, line=int(m.group(1)) if m else None,
                         col=int(m.group(2)) if m else None) from None


def _parts(dotted: str) -> tuple:
    out = []
    for m in _PART.finditer(dotted):
        k = m.group()
        out.append(k[1:-1] if k[:1] in "\"'" else k)
    return tuple(out)


def _span(line: int, start: int, end: int) -> Span:
    return Span(line, start + 1, line, end + 1)


def spans(text: str) -> dict:
    """{pointer tuple: (key span, value span)} for the keys and values the module docstring names."""
    out: dict = {}
    table: tuple = ()
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        line, number = lines[n], n + 1
        n += 1
        header = _HEADER.match(line)
        if header:
            table = _parts(header.group(1))
            at = _span(number, header.start(1) - 1, header.end(1) + 1)
            out[table] = (None, at)
            continue
        key = _DOTTED.match(line)
        if not key or not line[key.end():].startswith("="):
            continue
        ptr = (*table, *_parts(key.group(1)))
        start = key.end() + 1
        while start < len(line) and line[start] in " \t":
            start += 1
        out[ptr] = (_span(number, key.start(1), key.end(1)), _span(number, start, len(line.rstrip())))
        rest = line[start:]
        if rest.startswith("{"):
            for m in re.finditer(rf"({_KEY})\s*=\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^,}}]+)", rest):
                out[(*ptr, *_parts(m.group(1)))] = (_span(number, start + m.start(1), start + m.end(1)),
                                                      _span(number, start + m.start(2), start + m.end(2)))
        elif rest.startswith("["):
            n = _array(lines, n - 1, start, ptr, out)
    return out


def _array(lines: list, n: int, start: int, ptr: tuple, out: dict) -> int:
    """Record the strings of an array that opens at ``lines[n][start]``; the index of the line after it."""
    index, pos = 0, start + 1
    while n < len(lines):
        line = lines[n]
        while pos < len(line):
            c = line[pos]
            if c == "]":
                return n + 1
            if c == "#":
                break
            if c in "\"'":
                m = _STRING.match(line, pos)
                if m is None:
                    return n + 1
                out[(*ptr, index)] = (None, _span(n + 1, m.start(), m.end()))
                index, pos = index + 1, m.end()
                continue
            pos += 1
        n, pos = n + 1, 0
    return n
