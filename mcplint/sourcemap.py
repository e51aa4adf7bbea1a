"""Map JSON Pointers back to line:column in the original text.

JSON: the data comes from :func:`json.loads` (fast, exact semantics); the map from a
small regex tokenizer that runs only when a finding needs a location, or when the
fast parse saw a duplicate key. Keys are decoded with ``json.loads`` so escaped keys
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
from typing import Any

from .model import Span

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\n\r]+)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<punct>[{}\[\]:,])
  | (?P<lit>-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)
    """,
    re.VERBOSE | re.DOTALL,
)


class _Lines:
    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, offset: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def span(self, start: int, end: int) -> Span:
        l1, c1 = self.pos(start)
        l2, c2 = self.pos(end)
        return Span(l1, c1, l2, c2)


def json_spans(text: str) -> tuple[dict, list]:
    """Scan well-formed JSON ``text`` (already accepted by ``json.loads``).

    Returns the span map and the list of ``(pointer, first key span)`` of every
    member whose key repeats an earlier key of the same object.
    """
    if text.startswith("\ufeff"):  # a byte-order mark is not a column
        text = text[1:]
    lines = _Lines(text)
    spans: dict = {}
    dups: list = []
    # frame: [kind, pointer, start offset, next index | pending key, key span, seen keys]
    stack: list[list] = []
    expect_key = False
    pending_key: tuple | None = None  # (key, key_span)
    pos = 0
    n = len(text)

    def value_pointer() -> tuple[tuple, Span | None]:
        if not stack:
            return (), None
        frame = stack[-1]
        if frame[0] == "o":
            key, kspan = pending_key  # type: ignore[misc]
            return (*frame[1], key), kspan
        idx = frame[3]
        frame[3] += 1
        return (*frame[1], idx), None

    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:  # not reachable for text json.loads accepted; stop quietly
            break
        kind = m.lastgroup
        start, end = m.span()
        pos = end
        if kind == "ws":
            continue
        tok = m.group()
        if kind == "punct":
            if tok in "{[":
                ptr, kspan = value_pointer()
                stack.append(["o" if tok == "{" else "a", ptr, start, 0, kspan, {}])
                expect_key = tok == "{"
            elif tok in "}]":
                frame = stack.pop()
                spans[frame[1]] = (frame[4], lines.span(frame[2], end))
                expect_key = False
            elif tok == ",":
                expect_key = bool(stack) and stack[-1][0] == "o"
            # ":" needs no action
            continue
        if expect_key and kind == "str":
            key = json.loads(tok)
            kspan = lines.span(start, end)
            seen = stack[-1][5]
            if key in seen:
                dups.append(((*stack[-1][1], key), seen[key]))
            else:
                seen[key] = kspan
            pending_key = (key, kspan)
            expect_key = False
            continue
        ptr, kspan = value_pointer()
        spans[ptr] = (kspan, lines.span(start, end))
    return spans, dups


_WS = re.compile(r"[ \t\n\r]*")
_STR = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_DECODER = json.JSONDecoder()


class JsonLocator:
    """Locate single pointers in a large JSON text without mapping all of it.

    Walks only the path to the pointer and skips every other value with the C
    decoder, so one lookup costs a fraction of :func:`json_spans` on a big file (a
    million-value array is skipped in one call). Same answers as the full map:
    the key-or-value start to the value end of the deepest existing prefix.
    Raises RecursionError on values nested too deeply for the C decoder's stack.
    """

    def __init__(self, text: str):
        self.text = text[1:] if text.startswith("\ufeff") else text
        self._lines: _Lines | None = None

    def _ws(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()  # type: ignore[union-attr]

    def _skip(self, pos: int) -> int:
        return _DECODER.raw_decode(self.text, pos)[1]

    def locate(self, ptr: tuple) -> Span | None:
        text = self.text
        pos = self._ws(0)
        if pos >= len(text):
            return None
        kspan = None
        for part in ptr:
            here = (pos, kspan)  # the deepest existing prefix so far
            c = text[pos]
            if c == "{":
                pos = self._ws(pos + 1)
                hit = None
                while text[pos] != "}":
                    m = _STR.match(text, pos)
                    if m is None:
                        return None
                    key = json.loads(m.group())
                    vpos = self._ws(self._ws(m.end()) + 1)  # past the colon
                    if key == part:
                        hit = (m.start(), m.end(), vpos)  # the last duplicate wins, as in json.loads
                    pos = self._ws(self._skip(vpos))
                    if text[pos] == ",":
                        pos = self._ws(pos + 1)
                if hit is None:
                    pos, kspan = here
                    break
                kspan = (hit[0], hit[1])
                pos = hit[2]
            elif c == "[":
                if isinstance(part, str) and not part.isdigit():
                    break
                want = int(part)
                pos = self._ws(pos + 1)
                i = 0
                while text[pos] != "]" and i < want:
                    pos = self._ws(self._skip(pos))
                    if text[pos] == ",":
                        pos = self._ws(pos + 1)
                    i += 1
                if text[pos] == "]":
                    pos, kspan = here
                    break
                kspan = None
            else:
                break
        if self._lines is None:
            self._lines = _Lines(text)
        end = self._skip(pos)
        start = kspan[0] if kspan else pos
        return self._lines.span(start, end)


_SCALAR_RE = r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null'
_SCALAR = re.compile(_SCALAR_RE, re.DOTALL)
_SCALAR_ARRAY = re.compile(  # an array holding no object: skipped in one match
    r"\[[ \t\n\r]*(?:(?:%s)[ \t\n\r]*(?:,[ \t\n\r]*(?:%s)[ \t\n\r]*)*+)?\]" % (_SCALAR_RE, _SCALAR_RE),
    re.DOTALL)


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
            m = _SCALAR_ARRAY.match(text, pos)
            if m:
                pos = m.end()
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
    data = json.loads(text.lstrip("\ufeff"), object_pairs_hook=_json_hook_factory(flag))
    return data, bool(flag)


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


__all__ = ["json_spans", "parse_json", "parse_yaml", "YamlTooLarge"]
