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

_KEY = json.JSONDecoder().scan_once  # (value, end) of the JSON value at an offset (here a key), as json.loads reads it
_ws = WS.match


class PageCut(NamedTuple):
    """Where the (last) ``result`` object of a response is in its text."""

    start: int  # the result object's first character
    end: int  # just past its last
    members: list  # (key start, key end, value start, value end) of each member, in order, repeats too
    last: dict  # each key's last (value start, value end): the value json.loads keeps
    tools: tuple  # (start, end) of the last "tools" member's array, or ()
    items: array  # (start, end) of each item of that array, flat
    plain: bool  # no key repeats in the response and it holds no NaN or Infinity: parsing the
    # result's text as a file (which reports both) gives the values the message holds


class _Unwalkable(Exception):
    pass


class Listed:
    """The tools of the last page read (:func:`read_page`): by their index, each one's text, its
    value and whether it holds a repeated key or NaN. The next page (the same server under
    another version) lists most of them at the same index in the same words: such a tool is
    not parsed again, and its value is the one already made (one value, not one per version)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: list = []


def read_page(text: str, listed: Listed | None = None) -> tuple[Any, PageCut | None]:
    """``json.loads(text)`` (raising its errors), and the :class:`PageCut` of its result: None
    when it has no result object. ``listed``: the tools of the page read before (a tool listed
    alike at the same index is that value), replaced by this page's."""
    odd: list = []  # a repeated key or a NaN seen

    def pairs(items: list) -> dict:
        d = dict(items)  # (as json.loads makes an object: each key at its first place, with its last value)
        if len(d) != len(items):
            odd.append(True)
        return d

    def constant(name: str) -> float:
        odd.append(True)
        return float(name)

    scan = json.JSONDecoder(object_pairs_hook=pairs, parse_constant=constant).scan_once
    try:
        pos = _ws(text, 0).end()
        if text[pos] == "{":
            cut: list = [None]
            message, end = _object(text, pos, lambda key, ks, ke, vs: _root_member(text, key, vs, cut, scan, odd, listed),
                                   odd)
            if _ws(text, end).end() == len(text):
                return message, None if cut[0] is None else PageCut(*cut[0], not odd)
    except (_Unwalkable, StopIteration, IndexError, ValueError, RecursionError):
        pass
    return json.loads(text), None  # (what it says about a text that is not JSON; any other: no cut)


def _root_member(text: str, key: str, vs: int, cut: list, scan, odd: list, listed: Listed | None) -> tuple[Any, int]:
    if key != "result" or text[vs] != "{":
        if key == "result":
            cut[0] = None
        return scan(text, vs)
    members: list = []
    last: dict = {}
    tools: list = [(), None]  # the last "tools" array's span and its items' offsets

    def member(key: str, ks: int, ke: int, vs: int) -> tuple[Any, int]:
        if key == "tools" and text[vs] == "[":
            items = array("q")
            value, ve = _tools(text, vs, items, scan, odd, listed or Listed())
            tools[:] = [(vs, ve), items]
        else:
            value, ve = scan(text, vs)
        members.append((ks, ke, vs, ve))
        last[key] = (vs, ve)
        return value, ve

    result, end = _object(text, vs, member, odd)
    cut[0] = (vs, end, members, last, tools[0], tools[1] if tools[1] is not None else array("q"))  # (a PageCut's)
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


def _object(text: str, pos: int, member, repeats: list) -> tuple[dict, int]:
    """The object whose ``{`` is at ``pos`` and where it ends; ``member(key, key start, key end,
    value start)`` reads each value: (the value, where it ends). A key seen twice is noted in
    ``repeats``."""
    out: dict = {}
    p = _ws(text, pos + 1).end()
    if text[p] == "}":
        return out, p + 1
    while True:
        if text[p] != '"':
            raise _Unwalkable
        key, ke = _KEY(text, p)
        q = _ws(text, ke).end()
        if text[q] != ":":
            raise _Unwalkable
        if key in out:
            repeats.append(key)
        out[key], ve = member(key, p, ke, _ws(text, q + 1).end())
        p = _after(text, ve, "}")
        if p < 0:
            return out, ~p


def _tools(text: str, pos: int, offsets: array, scan, odd: list, listed: Listed) -> tuple[list, int]:
    """The array whose ``[`` is at ``pos`` and where it ends; each item's start and end go to
    ``offsets``, and each item to ``listed``. An item whose text is that of the item ``listed``
    has at its index is that item's value (a JSON value's text ends where it ends: the same text
    at the same place is the same value)."""
    out: list = []
    before, now = listed.last, []
    p = _ws(text, pos + 1).end()
    if text[p] == "]":
        listed.last = now
        return out, p + 1
    while True:
        i = len(out)
        same = before[i] if i < len(before) and text.startswith(before[i][0], p) else None
        if same is not None:
            item, value, its_odd = same
            e = p + len(item)
            if its_odd:
                odd.append(True)
        else:
            n = len(odd)
            value, e = scan(text, p)
            same = (text[p:e], value, len(odd) > n)
        now.append(same)
        out.append(value)
        offsets.append(p)
        offsets.append(e)
        p = _after(text, e, "]")
        if p < 0:
            listed.last = now
            return out, ~p


def layout(open_close: str, parts: list, level: int) -> str:
    """A container as :func:`mcplint.probe.snapshot.reformat` lays it out at ``level``, its
    members (or items) ``parts`` laid out already."""
    if not parts:
        return open_close
    ind = "\n" + "  " * (level + 1)
    return open_close[0] + ind + ("," + ind).join(parts) + "\n" + "  " * level + open_close[1]
