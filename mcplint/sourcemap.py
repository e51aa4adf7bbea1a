"""Map JSON Pointers back to line:column in the original JSON text.

The data comes from json's own C scanner (:mod:`mcplint.jsonparse`), with the offsets of the
document's upper levels recorded on the way; the map from a small regex tokenizer that runs
only when a finding needs a location, starting at the recorded offset above it. Keys are
decoded with ``json.loads`` so escaped keys (``"a\\u0062"``), keys holding ``~`` or ``/``, and
non-ASCII keys map to the right pointer. Offsets become lines and columns in
:mod:`mcplint.linecol`; YAML is mapped as it is composed (:mod:`mcplint.yamlmap`).

The map is ``{pointer tuple: (key span or None, value span)}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .jsonparse import STRING_RE, WS, parse_json
from .linecol import Lines, OffsetMap, bom_length


# One match per token, leading whitespace folded in: group 1 string, 2 punctuation, 3 literal.
_TOKEN = re.compile(
    r'[ \t\n\r]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([{}\[\]:,])|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))',
    re.DOTALL,
)


# An object member in one match: group 1 the key; then a scalar value (2 string, 3 literal) and
# the comma after it, 4; or 5, the bracket opening an object or array value. Most members are one.
_MEMBER = re.compile(
    r'[ \t\n\r]*(' + STRING_RE + r')[ \t\n\r]*:[ \t\n\r]*(?:(?:(' + STRING_RE
    + r')|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))[ \t\n\r]*(,)?|([{\[]))',
    re.DOTALL,
)


# Everything up to and including the next bracket outside a string, in one match: a run of
# plain characters, then (a string, then plain characters)*, then the bracket. Unrolled, so
# it cannot backtrack badly; the Python loop below runs once per bracket, not once per token.
_SKIP = re.compile(r'[^"\[\]{}]*(?:"[^"\\]*(?:\\.[^"\\]*)*"[^"\[\]{}]*)*([\[\]{}])', re.DOTALL)


def _skip_container(text: str, pos: int) -> int:
    """Offset just past the bracket that closes the container opened before ``pos``."""
    depth = 1
    match = _SKIP.match
    while True:
        m = match(text, pos)
        if m is None:
            return len(text)
        pos = m.end()
        if m.group(1) in "[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos


_SKIP_VALUE = json.JSONDecoder().scan_once  # (value, end offset) of the JSON value at an offset


def json_spans(text: str, find_duplicates: bool = True, wanted=None, landmarks=None) -> tuple[OffsetMap, list]:
    """Scan well-formed JSON ``text`` (already accepted by ``json.loads``).

    Returns the span map and, when asked, the list of ``(pointer, first key span)``
    of every member whose key repeats an earlier key of the same object. With
    ``wanted`` (pointer tuples), only those pointers and their ancestors are mapped and
    every other container is skipped at the speed of a bracket count. With ``landmarks``
    as well (the offsets :func:`parse_json_indexed` recorded while parsing), the scan
    starts at the deepest landmark above each wanted pointer instead of at the top.
    """
    bom = bom_length(text)  # offsets count it; columns do not (see linecol)
    lines = Lines(text)
    offsets: dict = {}
    dups: list = []
    if wanted is not None and all(not w for w in wanted):  # only the root wanted: its span is the whole text
        start = len(text) - len(text[bom:].lstrip(" \t\n\r"))
        end = len(text.rstrip(" \t\n\r"))
        if () in wanted and start < end:
            offsets[()] = (-1, -1, start, end)
        return OffsetMap(offsets, lines), dups
    if wanted is None or not landmarks:
        kids = None if wanted is None else _kids(wanted)
        _scan(text, bom, (), -1, -1, kids, offsets, dups if find_duplicates else None, lines)
        return OffsetMap(offsets, lines), dups
    # one scan from each landmark that wanted pointers lie below, planned on its own: it reads
    # only the containers they lie in, and stops once it has mapped them (a scan per landmark,
    # not one per pointer; and a plan of every pointer at once held 140 MiB for 100,000 findings)
    for root, group in _by_landmark(wanted, landmarks, offsets).items():
        pending: set = set()
        kids = _kids(group, len(root), pending)
        ks, ke, vs, _ = landmarks[root]
        _scan(text, vs, root, ks, ke, kids, offsets, dups if find_duplicates else None, lines, pending)
    return OffsetMap(offsets, lines), dups


def _by_landmark(wanted, landmarks: dict, offsets: dict) -> dict:
    """``{landmark: the wanted pointers below it}``, by the deepest landmark above each wanted
    pointer that is not a landmark itself. Wanted landmarks and every landmark above a wanted
    pointer go into ``offsets`` as parsing recorded them."""
    deepest = max(map(len, landmarks), default=0)
    groups: dict = {}
    for w in wanted:
        k = len(w)
        if w in landmarks:
            root = w
        else:
            k = min(k - 1, deepest)
            while k > 0 and w[:k] not in landmarks:  # (the root is every document's first landmark)
                k -= 1
            root = w[:k]
            here = groups.get(root)
            if here is None:
                groups[root] = [w]
            else:
                here.append(w)
                continue  # (its landmarks are mapped already)
        while k >= 0 and root not in offsets:  # the landmark and those above it
            offsets[root] = landmarks[root]
            k -= 1
            root = root[:k]
    return groups


def _kids(wanted, depth: int = 0, below: set | None = None) -> dict:
    """``{container pointer: the keys (or indices) of its members among the wanted pointers and
    their ancestors}``: the containers something wanted lies in, down from those ``depth`` deep
    (0: from the root). Ancestors are added until one already is (wanted pointers share most of
    their prefixes). ``below``: a set to add the wanted pointers and their ancestors to (those
    deeper than ``depth``)."""
    kids: dict = {}
    get = kids.get
    for w in wanted:
        while len(w) > depth:
            if below is not None:
                below.add(w)
            parent = w[:-1]
            here = get(parent)
            if here is not None:
                here.add(w[-1])
                break
            kids[parent] = {w[-1]}
            w = parent
    return kids


class _Frame:
    """A container :func:`_scan` is inside of."""

    __slots__ = ("is_object", "pointer", "start", "next_index", "key_start", "key_end", "seen", "wanted")

    def __init__(self, is_object: bool, pointer: tuple, start: int, key_start: int, key_end: int,
                 seen: dict | None, wanted: set | None):
        self.is_object = is_object
        self.pointer = pointer
        self.start = start  # the offset of its opening bracket
        self.next_index = 0  # an array's: the index of its next item
        self.key_start, self.key_end = key_start, key_end  # its own key's offsets (-1: none)
        self.seen = seen  # an object's keys so far and their offsets, when duplicates are looked for
        self.wanted = wanted  # the keys (indices) of its members to map; None for all


def _scan(text: str, pos: int, prefix: tuple, pks: int, pke: int, kids, offsets: dict, dups,
          lines: Lines, pending: set | None = None) -> None:
    """Map the JSON value that starts at or after ``pos`` (whitespace first) and has the pointer
    ``prefix`` (its key at ``pks:pke``, -1 for none) into ``offsets``; stop where it ends, or
    as soon as every pointer of ``pending`` is mapped (the set is emptied: only for a text
    without duplicate keys, where the first mapping of a pointer is the only one).
    ``kids`` as :func:`_kids` gives it (None: map everything): a member is mapped when its key
    is one of its container's, and a container is read only when it is one of ``kids`` (the
    others are skipped in C); ``dups``: a list to append repeated keys to, or None."""
    _Scanner(text, kids, offsets, dups, lines, pending).run(pos, prefix, pks, pke)


class _Scanner:
    """One run of :func:`_scan`: the containers it is inside of (:class:`_Frame`) and where
    what it finds goes. :meth:`run` reads a token (or, inside an object, a whole member) at a
    time; the rarer steps (a key on its own, a skipped container, a duplicate) are methods."""

    __slots__ = ("text", "kids", "offsets", "dups", "lines", "pending", "stack")

    def __init__(self, text: str, kids, offsets: dict, dups, lines: Lines, pending: set | None):
        self.text, self.kids, self.offsets, self.dups, self.lines = text, kids, offsets, dups, lines
        self.pending = pending
        self.stack: list[_Frame] = []

    def found(self, ptr: tuple) -> bool:
        """``ptr`` is mapped: True when it was the last pending pointer (the scan stops)."""
        pending = self.pending
        pending.discard(ptr)
        return not pending

    def duplicate(self, top: _Frame, key: str) -> None:
        """``key`` repeats a key of the object ``top``: note it, with the first one's span."""
        self.dups.append(((*top.pointer, key), self.lines.span(*top.seen[key])))

    def key(self, m: re.Match) -> tuple[str, int, int]:
        """The object key a token match holds (read on its own, off the fast path), noted as seen."""
        raw = m.group(1)
        key = json.loads(raw) if "\\" in raw else raw[1:-1]
        top = self.stack[-1]
        if top.seen is not None:
            if key in top.seen:
                self.duplicate(top, key)
            else:
                top.seen[key] = m.span(1)
        return key, *m.span(1)

    def skip(self, ptr: tuple | None, ks: int, ke: int, vstart: int) -> int | None:
        """Skip the container at ``vstart``, where nothing is wanted (``ptr``: the container
        itself when it is wanted, else None). Where to go on, or None when the scan is over."""
        try:  # json's C scanner finds the end of a valid value far faster than any loop here
            pos = _SKIP_VALUE(self.text, vstart)[1]
        except (StopIteration, ValueError):
            pos = _skip_container(self.text, vstart + 1)
        if ptr is not None:  # wanted itself, nothing wanted within: map it, skip its content
            self.offsets[ptr] = (ks, ke, vstart, pos)
            if self.pending is not None and self.found(ptr):
                return None
        return pos if self.stack else None

    def run(self, pos: int, prefix: tuple, pks: int, pke: int) -> None:
        text, stack, offsets, pending, kids = self.text, self.stack, self.offsets, self.pending, self.kids
        loads, match, member = json.loads, _TOKEN.match, _MEMBER.match
        new_seen = dict if self.dups is not None else _no_seen
        expect_key, key, kstart, kend = False, None, -1, -1  # (kstart, kend: the offsets of the last key read)
        n = len(text)
        while pos < n:
            m = member(text, pos) if expect_key else None
            if m is not None:  # fast path: a whole member, or its key and opening bracket, at once
                raw, string, _, comma, tok = m.groups()
                key = loads(raw) if "\\" in raw else raw[1:-1]
                kstart, kend = m.span(1)
                top = stack[-1]
                seen = top.seen
                if seen is not None:
                    if key in seen:
                        self.duplicate(top, key)
                    else:
                        seen[key] = (kstart, kend)
                pos = m.end()
                if tok is None:  # a scalar value
                    if top.wanted is None or key in top.wanted:
                        ptr = (*top.pointer, key)
                        offsets[ptr] = (kstart, kend, *m.span(2 if string is not None else 3))
                        if pending is not None and self.found(ptr):
                            return
                    expect_key = comma is not None
                    continue
                step = key
            else:
                m = match(text, pos)
                if m is None:
                    break
                pos = m.end()
                tok = m.group(2)
                if tok is None and expect_key:  # an object key on its own
                    key, kstart, kend = self.key(m)
                    expect_key = False
                    continue
                if tok == "}" or tok == "]":
                    f = stack.pop()
                    offsets[f.pointer] = (f.key_start, f.key_end, f.start, pos)
                    if not stack or (pending is not None and self.found(f.pointer)):
                        return  # the value is complete, or nothing pending is left
                    expect_key = False
                    continue
                top = stack[-1] if stack else None
                if tok == "," or tok == ":":
                    expect_key = top is not None and top.is_object
                    continue
                if top is None:  # the scanned value itself
                    step, kstart, kend = None, pks, pke
                elif top.is_object:
                    step = key
                else:
                    step, kstart, kend = top.next_index, -1, -1
                    top.next_index += 1
                if tok is None:  # a scalar value (when top is None, the scanned value: then the scan is over)
                    if top is None or top.wanted is None or step in top.wanted:
                        ptr = prefix if top is None else (*top.pointer, step)
                        offsets[ptr] = (kstart, kend, *m.span(m.lastindex))
                        if top is None or (pending is not None and self.found(ptr)):
                            return
                    continue
            # a container opens: read it, or skip it when nothing in it is wanted
            if top is None:
                ptr, wanted = prefix, True
            else:
                wanted = top.wanted is None or step in top.wanted
                ptr = (*top.pointer, step) if wanted else None
            if kids is None or (wanted and ptr in kids):
                stack.append(_Frame(tok == "{", ptr, pos - 1, kstart, kend, new_seen(),
                                    None if kids is None else kids[ptr]))
                expect_key = tok == "{"
                continue
            pos = self.skip(ptr, kstart, kend, pos - 1)
            if pos is None:
                return
            expect_key = False


def _no_seen() -> None:
    return None  # (keys are not remembered when duplicates are not looked for)


# Strings as a run of plain characters, then (an escape, a run)*: a character class repeats without
# a backtracking frame per character, so a string megabytes long costs no memory to match.
_STR = re.compile(STRING_RE, re.DOTALL)


_SCALAR_RE = STRING_RE + r'|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null'
_SCALAR = re.compile(_SCALAR_RE, re.DOTALL)

_SCALARS = frozenset({str, int, float, bool, type(None)})


def _scalar_array_end(text: str, pos: int) -> int | None:
    """Where the array at ``pos`` ends, when it holds no object or array (None otherwise).
    json's C scanner reads it: a regular expression over a million-member array would keep
    a backtracking frame per member (hundreds of MiB)."""
    try:
        value, end = _SKIP_VALUE(text, pos)
    except (StopIteration, ValueError, RecursionError):
        return None
    return end if set(map(type, value)) <= _SCALARS else None


def json_duplicates(text: str) -> list:
    """The duplicate keys of well-formed JSON ``text``, as :func:`json_spans` reports them
    (``(pointer, first key span)``), without mapping every value: arrays that hold no
    object are skipped in one regular-expression match. For large files."""

    def ws(p: int) -> int:
        return WS.match(text, p).end()  # type: ignore[union-attr]

    found: list = []  # (pointer, (start, end) of the first key)
    stack: list = []  # [is_object, pointer, seen keys | index]

    def key_at(p: int, frame: list) -> tuple:
        m = _STR.match(text, p)
        key = json.loads(m.group())  # type: ignore[union-attr]
        seen = frame[2]
        if key in seen:
            found.append(((*frame[1], key), seen[key]))
        else:
            seen[key] = m.span()  # type: ignore[union-attr]
        return ws(ws(m.end()) + 1), (*frame[1], key)  # type: ignore[union-attr]

    pos, ptr = ws(bom_length(text)), ()
    while True:
        c = text[pos]
        if c == "{":
            pos = ws(pos + 1)
            if text[pos] == "}":
                pos += 1
            else:
                stack.append([True, ptr, {}])
                pos, ptr = key_at(pos, stack[-1])
                continue
        elif c == "[":
            end = _scalar_array_end(text, pos)
            if end is not None:
                pos = end
            else:
                pos = ws(pos + 1)
                stack.append([False, ptr, 0])
                ptr = (*ptr, 0)
                continue
        else:
            pos = _SCALAR.match(text, pos).end()  # type: ignore[union-attr]
        while True:  # a value ended: move on in its container
            if not stack:
                lines = Lines(text)
                return [(p, lines.span(*ks)) for p, ks in found]
            frame = stack[-1]
            pos = ws(pos)
            if text[pos] == ",":
                pos = ws(pos + 1)
                if frame[0]:
                    pos, ptr = key_at(pos, frame)
                else:
                    frame[2] += 1
                    ptr = (*frame[1], frame[2])
                break
            pos += 1  # the closing bracket
            stack.pop()


class JsonMapper:
    """The loader's :class:`~mcplint.model.SourceMapper` for JSON text: the whole map, or a
    partial one starting from the ``landmarks`` parsing recorded. A copy sent to another
    process leaves the landmarks behind (they are for the process that parsed the text)."""

    __slots__ = ("landmarks",)

    def __init__(self, landmarks: dict | None = None):
        self.landmarks = landmarks

    def full(self, text: str) -> OffsetMap:
        return json_spans(text, find_duplicates=False)[0]

    def partial(self, text: str, wanted: set) -> OffsetMap:
        return json_spans(text, False, wanted, self.landmarks)[0]

    def parse(self, text: str) -> Any:
        return parse_json(text)[0]

    def __reduce__(self):
        return JsonMapper, ()


__all__ = ["JsonMapper", "json_duplicates", "json_spans"]
