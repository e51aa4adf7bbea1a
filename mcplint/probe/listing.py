"""A ``tools/list`` response read once: what it parses to, and where in its text its result's
members and tools are (:func:`read_page`). The capture is cut out of the response
(:func:`mcplint.probe.transcript.capture_text`) and laid out (:func:`result_layout`) from these
offsets, not by parsing the text again; a tool that several versions list in the same words is
laid out once.

Only the response's own object, its ``result`` and the ``tools`` array in it are read here;
every other value is read by json's own scanner, the one ``json.loads`` uses, so the message is
what ``json.loads`` gives (a repeated key keeps its first place and its last value).
"""

from __future__ import annotations

import json
from array import array
from typing import Any, NamedTuple

from ..jsonparse import WS

_SCAN = json.JSONDecoder().scan_once  # (value, end) of the JSON value at an offset, as json.loads reads it
_ws = WS.match


class PageCut(NamedTuple):
    """Where the (last) ``result`` object of a response is in its text."""

    start: int  # the result object's first character
    end: int  # just past its last
    members: list  # (key start, key end, value start, value end) of each member, in order, repeats too
    last: dict  # each key's last (value start, value end): the value json.loads keeps
    tools: tuple  # (start, end) of the last "tools" member's array, or ()
    items: array  # (start, end) of each item of that array, flat


class _Unwalkable(Exception):
    pass


def read_page(text: str) -> tuple[Any, PageCut | None]:
    """``json.loads(text)`` (raising its errors), and the :class:`PageCut` of its result: None
    when it has no result object."""
    try:
        pos = _ws(text, 0).end()
        if text[pos] == "{":
            cut: list = [None]
            message, end = _object(text, pos, lambda key, ks, ke, vs: _root_member(text, key, vs, cut))
            if _ws(text, end).end() == len(text):
                return message, cut[0]
    except (_Unwalkable, StopIteration, IndexError, ValueError, RecursionError):
        pass
    return json.loads(text), None  # (what it says about a text that is not JSON; any other: no cut)


def _root_member(text: str, key: str, vs: int, cut: list) -> tuple[Any, int]:
    if key != "result":
        return _SCAN(text, vs)
    if text[vs] != "{":
        cut[0] = None
        return _SCAN(text, vs)
    members: list = []
    last: dict = {}
    tools: list = [(), None]  # the last "tools" array's span and its items' offsets

    def member(key: str, ks: int, ke: int, vs: int) -> tuple[Any, int]:
        if key == "tools" and text[vs] == "[":
            items = array("q")
            value, ve = _array(text, vs, items)
            tools[:] = [(vs, ve), items]
        else:
            value, ve = _SCAN(text, vs)
        members.append((ks, ke, vs, ve))
        last[key] = (vs, ve)
        return value, ve

    result, end = _object(text, vs, member)
    cut[0] = PageCut(vs, end, members, last, tools[0], tools[1] if tools[1] is not None else array("q"))
    return result, end


def _after(text: str, pos: int, closer: str) -> int:
    """Where the next member or item starts after a value that ends at ``pos``; ``~end`` when
    the container closes there (``end`` just past its closing bracket)."""
    pos = _ws(text, pos).end()
    c = text[pos]
    if c == ",":
        return _ws(text, pos + 1).end()
    if c == closer:
        return ~(pos + 1)
    raise _Unwalkable


def _object(text: str, pos: int, member) -> tuple[dict, int]:
    """The object whose ``{`` is at ``pos`` and where it ends; ``member(key, key start, key end,
    value start)`` reads each value: (the value, where it ends)."""
    out: dict = {}
    p = _ws(text, pos + 1).end()
    if text[p] == "}":
        return out, p + 1
    while True:
        if text[p] != '"':
            raise _Unwalkable
        key, ke = _SCAN(text, p)
        q = _ws(text, ke).end()
        if text[q] != ":":
            raise _Unwalkable
        out[key], ve = member(key, p, ke, _ws(text, q + 1).end())
        p = _after(text, ve, "}")
        if p < 0:
            return out, ~p


def _array(text: str, pos: int, offsets: array) -> tuple[list, int]:
    """The array whose ``[`` is at ``pos`` and where it ends; each item's start and end go to
    ``offsets``."""
    out: list = []
    p = _ws(text, pos + 1).end()
    if text[p] == "]":
        return out, p + 1
    while True:
        value, e = _SCAN(text, p)
        out.append(value)
        offsets.append(p)
        offsets.append(e)
        p = _after(text, e, "]")
        if p < 0:
            return out, ~p


def layout(open_close: str, parts: list, level: int) -> str:
    """A container as :func:`mcplint.probe.snapshot.reformat` lays it out at ``level``, its
    members (or items) ``parts`` laid out already."""
    if not parts:
        return open_close
    ind = "\n" + "  " * (level + 1)
    return open_close[0] + ind + ("," + ind).join(parts) + "\n" + "  " * level + open_close[1]
