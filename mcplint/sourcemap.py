"""Map JSON Pointers back to line:column in the original text.

JSON: the data comes from json's own C scanner (fast, exact semantics), with the offsets
of the document's upper levels recorded on the way (:func:`parse_json_indexed`); the map
from a small regex tokenizer that runs only when a finding needs a location, starting at
the recorded offset above it. Keys are decoded with ``json.loads`` so escaped keys
(``"a\\u0062"``), keys holding ``~`` or ``/``, and non-ASCII keys map to the right
pointer. Columns count code points, 1-based; a tab is one column; CRLF is one break.

YAML: ``yaml.compose`` keeps a mark on every node, including both sides of a
duplicated key, so one walk yields the data, the map and the duplicates together.

The map is ``{pointer tuple: (key span or None, value span)}``.
"""

from __future__ import annotations

import bisect
import json
import re
from itertools import accumulate
from typing import Any

from .model import Span

# One match per token, leading whitespace folded in: group 1 string, 2 punctuation, 3 literal.
_TOKEN = re.compile(
    r'[ \t\n\r]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([{}\[\]:,])|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))',
    re.DOTALL,
)


# An object member in one match: group 1 the key; then a scalar value (2 string, 3 literal) and
# the comma after it, 4; or 5, the bracket opening an object or array value. Most members are one.
_STRING_RE = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_MEMBER = re.compile(
    r'[ \t\n\r]*(' + _STRING_RE + r')[ \t\n\r]*:[ \t\n\r]*(?:(?:(' + _STRING_RE
    + r')|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null))[ \t\n\r]*(,)?|([{\[]))',
    re.DOTALL,
)


class _Lines:
    """Offset -> (line, column). :meth:`warm` converts a batch of offsets in one pass over the
    text; for other offsets, line breaks are counted (in C) from the nearest offset already
    converted, so a big file with a handful of findings is never split into lines; past a few
    hundred such offsets, a table of every line start is built once."""

    __slots__ = ("text", "offsets", "lines", "starts", "known")
    CHECKPOINTS = 256

    def __init__(self, text: str):
        self.text = text
        self.offsets = [0]  # converted offsets, sorted, and the line each is on
        self.lines = [1]
        self.starts: list | None = None  # offset of every line's first character, when built
        self.known: dict = {}  # offset -> (line, column), from warm()

    def warm(self, offsets) -> None:
        """Convert ``offsets`` (ascending), counting line breaks once from the start."""
        known, text = self.known, self.text
        count, rfind = text.count, text.rfind
        line, prev = 1, 0
        for o in offsets:
            line += count("\n", prev, o)
            known[o] = (line, o - rfind("\n", 0, o))
            prev = o
        if len(self.offsets) == 1 and len(known) < self.CHECKPOINTS:  # and keep them as checkpoints
            pairs = sorted(known.items())
            self.offsets = [0] + [o for o, _ in pairs if o]
            self.lines = [1] + [lc[0] for o, lc in pairs if o]

    def pos(self, offset: int) -> tuple[int, int]:
        hit = self.known.get(offset)
        if hit is not None:
            return hit
        starts = self.starts
        if starts is not None:
            i = bisect.bisect_right(starts, offset) - 1
            return i + 1, offset - starts[i] + 1
        offsets = self.offsets
        i = bisect.bisect_right(offsets, offset) - 1
        line = self.lines[i] + self.text.count("\n", offsets[i], offset)
        if offsets[i] != offset:
            if len(offsets) >= self.CHECKPOINTS:
                # running sum of (line length + 1), all in C
                self.starts = list(accumulate(map((1).__add__, map(len, self.text.split("\n"))), initial=0))[:-1]
            else:
                offsets.insert(i + 1, offset)
                self.lines.insert(i + 1, line)
        return line, offset - self.text.rfind("\n", 0, offset)

    def span(self, start: int, end: int) -> Span:
        l1, c1 = self.pos(start)
        l2, c2 = self.pos(end)
        return Span(l1, c1, l2, c2)


class OffsetMap:
    """``{pointer: (key start, key end, value start, value end)}`` in character offsets
    (key offsets -1 for array items and the root); :meth:`get` turns an entry into
    ``(key span, value span)`` only when asked, so building the map stays cheap."""

    __slots__ = ("offsets", "lines")

    def __init__(self, offsets: dict, lines: _Lines):
        self.offsets = offsets
        self.lines = lines

    def get(self, ptr, default=None):
        entry = self.offsets.get(ptr)
        if entry is None:
            return default
        ks, ke, vs, ve = entry
        return (self.lines.span(ks, ke) if ks >= 0 else None), self.lines.span(vs, ve)

    def __contains__(self, ptr) -> bool:
        return ptr in self.offsets

    def warm(self, ptrs) -> None:
        """Convert the offsets of ``ptrs`` to lines and columns in ascending order, so that
        counting line breaks passes over the text once rather than once per finding."""
        offs = set()
        for p in ptrs:
            entry = self.offsets.get(p)
            if entry is not None:
                offs.update(entry)
        offs.discard(-1)
        self.lines.warm(sorted(offs))

    def __len__(self) -> int:
        return len(self.offsets)


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
    if text.startswith("\ufeff"):  # a byte-order mark is not a column
        text = text[1:]
    keep = inside = None
    if wanted is not None:
        keep = {w[:i] for w in wanted for i in range(len(w) + 1)}  # wanted pointers and their ancestors
        inside = {w[:i] for w in wanted for i in range(len(w))}  # containers something wanted lies in
    lines = _Lines(text)
    offsets: dict = {}
    dups: list = []
    if wanted is not None and not inside:  # only the root wanted: its span is the whole text, no scan
        start = len(text) - len(text.lstrip(" \t\n\r"))
        end = len(text.rstrip(" \t\n\r"))
        if () in keep and start < end:
            offsets[()] = (-1, -1, start, end)
        return OffsetMap(offsets, lines), dups
    if wanted is None or not landmarks:
        _scan(text, 0, (), -1, -1, keep, inside, offsets, dups if find_duplicates else None, lines)
        return OffsetMap(offsets, lines), dups
    below: dict = {}  # deepest landmark above -> the wanted pointers (and ancestors) no landmark holds
    for ptr in keep:
        entry = landmarks.get(ptr)
        if entry is not None:
            offsets[ptr] = entry
            continue
        root = ptr[:-1]
        while root not in landmarks:
            root = root[:-1]
        below.setdefault(root, set()).add(ptr)
    roots: dict = {}  # where to scan -> what the scan must find (then it stops)
    for root in sorted(below, key=len):
        outer = next((root[:i] for i in range(len(root)) if root[:i] in roots), None)
        if outer is None:
            roots[root] = below[root]
        else:  # an enclosing scan maps it
            roots[outer] |= below[root]
    for root, pending in roots.items():
        ks, ke, vs, _ = landmarks[root]
        _scan(text, vs, root, ks, ke, keep, inside, offsets, dups if find_duplicates else None, lines, pending)
    return OffsetMap(offsets, lines), dups


def _scan(text: str, pos: int, prefix: tuple, pks: int, pke: int, keep, inside, offsets: dict, dups,
          lines: _Lines, pending: set | None = None) -> None:
    """Map the JSON value that starts at or after ``pos`` (whitespace first) and has the pointer
    ``prefix`` (its key at ``pks:pke``, -1 for none) into ``offsets``; stop where it ends, or
    as soon as every pointer of ``pending`` is mapped (the set is emptied: only for a text
    without duplicate keys, where the first mapping of a pointer is the only one).
    ``keep``/``inside`` as in :func:`json_spans` (None: map everything); ``dups``: a list to
    append repeated keys to, or None."""
    # frame: [is_object, pointer, start offset, next index, key start, key end, seen keys]
    stack: list[list] = []
    expect_key = False
    key = None
    kstart = kend = -1
    loads = json.loads
    match = _TOKEN.match
    member = _MEMBER.match
    skip_value = _SKIP_VALUE
    find_duplicates = dups is not None
    n = len(text)
    while pos < n:
        opening = None  # (pointer, key start, key end, offset, bracket) of a container that starts here
        if expect_key:
            m = member(text, pos)
            if m is not None:  # fast path: a whole member, or its key and opening bracket, at once
                raw = m.group(1)
                key = loads(raw) if "\\" in raw else raw[1:-1]
                kstart, kend = m.span(1)
                top = stack[-1]
                seen = top[6]
                if seen is not None:
                    if key in seen:
                        dups.append(((*top[1], key), lines.span(*seen[key])))
                    else:
                        seen[key] = (kstart, kend)
                ptr = (*top[1], key)
                pos = m.end()
                if m.group(5) is None:  # a scalar value
                    if keep is None or ptr in keep:
                        vs, ve = m.span(2) if m.group(2) is not None else m.span(3)
                        offsets[ptr] = (kstart, kend, vs, ve)
                        if pending is not None:
                            pending.discard(ptr)
                            if not pending:
                                return
                    expect_key = m.group(4) is not None
                    continue
                opening = (ptr, kstart, kend, m.start(5), m.group(5))
        if opening is None:
            m = match(text, pos)
            if m is None:
                break
            pos = m.end()
            group = m.lastindex
            if group == 2:
                tok = m.group(2)
                if tok == "{" or tok == "[":
                    if stack:
                        top = stack[-1]
                        if top[0]:
                            opening = ((*top[1], key), kstart, kend, m.start(2), tok)
                        else:
                            opening = ((*top[1], top[3]), -1, -1, m.start(2), tok)
                            top[3] += 1
                    else:
                        opening = (prefix, pks, pke, m.start(2), tok)
                elif tok == "}" or tok == "]":
                    f = stack.pop()
                    offsets[f[1]] = (f[4], f[5], f[2], m.end(2))
                    if not stack:
                        return  # the value is complete
                    if pending is not None:
                        pending.discard(f[1])
                        if not pending:
                            return
                    expect_key = False
                    continue
                else:  # ","
                    expect_key = bool(stack) and stack[-1][0]
                    continue
        if opening is not None:
            ptr, ks, ke, vstart, tok = opening
            if keep is not None and ptr not in inside:
                try:  # json's C scanner finds the end of a valid value far faster than any loop here
                    pos = skip_value(text, vstart)[1]
                except (StopIteration, ValueError):
                    pos = _skip_container(text, vstart + 1)
                if ptr in keep:  # wanted itself, nothing wanted within: map it, skip its content
                    offsets[ptr] = (ks, ke, vstart, pos)
                    if pending is not None:
                        pending.discard(ptr)
                        if not pending:
                            return
                if not stack:
                    return
                expect_key = False
                continue
            stack.append([tok == "{", ptr, vstart, 0, ks, ke, {} if find_duplicates else None])
            expect_key = tok == "{"
            continue
        start, end = m.span(group)
        if expect_key:  # an object key (always a string in valid JSON)
            raw = m.group(1)
            key = loads(raw) if "\\" in raw else raw[1:-1]
            kstart, kend = start, end
            seen = stack[-1][6]
            if seen is not None:
                if key in seen:
                    dups.append(((*stack[-1][1], key), lines.span(*seen[key])))
                else:
                    seen[key] = (start, end)
            expect_key = False
            continue
        if stack:
            top = stack[-1]
            if top[0]:
                ptr = (*top[1], key)
                ks, ke = kstart, kend
            else:
                ptr = (*top[1], top[3])
                ks = ke = -1
                top[3] += 1
        else:
            ptr, ks, ke = prefix, pks, pke
        if keep is None or ptr in keep:
            offsets[ptr] = (ks, ke, start, end)
            if pending is not None:
                pending.discard(ptr)
                if not pending:
                    return
        if not stack:
            return


_WS = re.compile(r"[ \t\n\r]*")
# Strings as a run of plain characters, then (an escape, a run)*: a character class repeats without
# a backtracking frame per character, so a string megabytes long costs no memory to match.
_STR = re.compile(_STRING_RE, re.DOTALL)


_SCALAR_RE = _STRING_RE + r'|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null'
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
    if text.startswith("\ufeff"):
        text = text[1:]

    def ws(p: int) -> int:
        return _WS.match(text, p).end()  # type: ignore[union-attr]

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

    pos, ptr = ws(0), ()
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
                lines = _Lines(text)
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


def parse_json_indexed(text: str) -> tuple[Any, bool, dict | None]:
    """:func:`parse_json`, and the offsets of the document's upper levels (its landmarks):
    ``{pointer: (key start, key end, value start, value end)}`` as :func:`json_spans` maps them,
    for every value down to each tool in every document shape (the root's members, their
    members, and the items of arrays at that depth: a JSON-RPC response's tools).

    The upper levels are read here, every value below them by json's own C scanner, so the
    cost stays that of parsing; a locator can then start at the landmark above a finding
    instead of scanning the file again from the top. None for landmarks when the text is not
    valid JSON (then :func:`parse_json` raises its error) or starts with more than one
    byte-order mark."""
    stripped = text.lstrip("\ufeff")
    if len(text) - len(stripped) <= 1:
        flag: list = []
        hook = _json_hook_factory(flag)
        scan = json.JSONDecoder(object_pairs_hook=hook, parse_constant=_no_constant(stripped)).scan_once
        try:
            data, marks = _landmarks(stripped, scan, hook)
            return data, bool(flag), marks
        except (_NotIndexed, StopIteration, IndexError, ValueError):
            pass  # parse_json reports it, with json's own message and position
    data, dups = parse_json(text)
    return data, dups, None


def _landmarks(text: str, scan, hook) -> tuple[Any, dict]:
    marks: dict = {}
    data, end = _landmark_value(text, scan, hook, marks, _WS.match(text, 0).end(), (), -1, -1, 0)
    if _WS.match(text, end).end() != len(text):
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
        p = _WS.match(text, pos + 1).end()
        items: list = []  # (key, value) pairs of an object, values of an array
        end = p + 1 if text[p] == closer else None
        while end is None:
            if c == "{":
                if text[p] != '"':
                    raise _NotIndexed
                key, kend = scan(text, p)
                q = _WS.match(text, kend).end()
                if text[q] != ":":
                    raise _NotIndexed
                v, q = _landmark_value(text, scan, hook, marks, _WS.match(text, q + 1).end(), (*ptr, key), p, kend,
                                       depth + 1)
                items.append((key, v))
            else:
                v, q = _landmark_value(text, scan, hook, marks, p, (*ptr, len(items)), -1, -1, depth + 1)
                items.append(v)
            p = _WS.match(text, q).end()
            if text[p] == ",":
                p = _WS.match(text, p + 1).end()
            elif text[p] == closer:
                end = p + 1
            else:
                raise _NotIndexed
        result: Any = hook(items) if c == "{" else items
    else:
        result, end = scan(text, pos)
    marks[ptr] = (ks, ke, pos, end)
    return result, end


_CONSTANT_RE = re.compile(_STRING_RE + r'|(-?Infinity|NaN)', re.DOTALL)


def _no_constant(text: str):
    """NaN and Infinity are not JSON (RFC 8259 §6), though Python's parser takes them."""
    def refuse(name: str):
        pos = next((m.start(1) for m in _CONSTANT_RE.finditer(text) if m.group(1)), 0)
        raise json.JSONDecodeError(f"{name} is not a JSON value (JSON has no NaN or Infinity)", text, pos)
    return refuse


class YamlTooLarge(Exception):
    pass


def parse_yaml(text: str, max_nodes: int) -> tuple[Any, dict, list]:
    """Compose YAML and build data, span map and duplicates in one walk.

    Aliases are expanded as they are met; ``max_nodes`` bounds the expansion so an
    alias bomb ends in a clear error instead of eating memory.
    """
    import yaml

    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    node = yaml.compose(text, Loader=loader_cls)
    if node is None:
        return None, {}, []
    constructor = yaml.constructor.SafeConstructor()
    spans: dict = {}
    dups: list = []
    budget = [max_nodes]

    def mk(n) -> Span:
        return Span(n.start_mark.line + 1, n.start_mark.column + 1, n.end_mark.line + 1, n.end_mark.column + 1)

    def scalar(n) -> Any:
        if n.tag == "tag:yaml.org,2002:timestamp":
            return n.value  # keep dates as the text the user wrote: JSON has no date type
        value = constructor.construct_object(n, deep=True)
        if isinstance(value, (bytes, set)) or type(value).__module__ == "datetime":
            return n.value
        return value

    def key_text(n) -> str:
        if not isinstance(n, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value, not a collection", n.start_mark
            )
        v = scalar(n)
        if isinstance(v, bool):
            return "true" if v else "false"
        return "null" if v is None else str(v)

    # Iterative walk: (node, pointer, key span, setter)
    root: list = [None]
    work = [(node, (), None, lambda v: root.__setitem__(0, v))]
    while work:
        n, ptr, kspan, put = work.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise YamlTooLarge(f"more than {max_nodes} values after expanding aliases")
        spans[ptr] = (kspan, mk(n))
        if isinstance(n, yaml.MappingNode):
            constructor.flatten_mapping(n)
            obj: dict = {}
            put(obj)
            seen: dict = {}
            items = []
            for kn, vn in n.value:
                k = key_text(kn)
                if k in seen:
                    dups.append(((*ptr, k), seen[k]))
                else:
                    seen[k] = mk(kn)
                obj[k] = None
                items.append((vn, (*ptr, k), mk(kn), (lambda o, k: lambda v: o.__setitem__(k, v))(obj, k)))
            work.extend(reversed(items))
        elif isinstance(n, yaml.SequenceNode):
            arr: list = [None] * len(n.value)
            put(arr)
            work.extend(
                reversed([(vn, (*ptr, i), None, (lambda a, i: lambda v: a.__setitem__(i, v))(arr, i))
                          for i, vn in enumerate(n.value)])
            )
        else:
            put(scalar(n))
    return root[0], spans, dups


__all__ = ["json_spans", "parse_json", "parse_json_indexed", "parse_yaml", "YamlTooLarge"]
