"""Walk the subschemas of a JSON Schema, iteratively (no recursion limits), in
document order, knowing which keywords hold schemas in 2020-12 and draft-07.

Every rule that looks inside a schema uses :func:`subschemas`; none writes its own
walker. Pointers yielded are relative to the schema root.
"""

from __future__ import annotations

import marshal
import threading
from typing import Any, Iterator, NamedTuple

# keyword -> how it holds subschemas
ONE = frozenset({
    "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else",
    "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema",
})
MANY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
MAP = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
COMBINATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else"})
# keywords whose values are data, never schemas (do not walk into them)
DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})


class Sub(NamedTuple):
    """One schema node met by :func:`subschemas` (a named tuple: cheap to build, immutable)."""

    pointer: tuple  # relative to the schema root
    schema: Any  # a dict or a bool
    depth: int  # number of applicator steps from the root
    via: str | None  # the keyword that led here (None at the root)


def children(schema: dict) -> Iterator[tuple[tuple, Any, str]]:
    """Immediate subschemas of ``schema``: (relative pointer, subschema, keyword)."""
    for kw, value in schema.items():
        if kw in ONE:
            if isinstance(value, (dict, bool)):
                yield (kw,), value, kw
        elif kw in MANY:
            if isinstance(value, list):
                for i, s in enumerate(value):
                    if isinstance(s, (dict, bool)):
                        yield (kw, i), s, kw
        elif kw in MAP:
            if isinstance(value, dict):
                for name, s in value.items():
                    if isinstance(s, (dict, bool)):
                        yield (kw, name), s, kw
        elif kw == "items":
            if isinstance(value, (dict, bool)):
                yield (kw,), value, kw
            elif isinstance(value, list):
                for i, s in enumerate(value):
                    if isinstance(s, (dict, bool)):
                        yield (kw, i), s, kw
        elif kw == "dependencies" and isinstance(value, dict):
            for name, s in value.items():
                if isinstance(s, (dict, bool)):
                    yield (kw, name), s, kw


def subschemas(schema: Any, max_depth: int | None = None) -> Iterator[Sub]:
    """Every schema node under ``schema`` (itself included), pre-order, document order.

    With ``max_depth``, nodes deeper than it are not descended into (they are still
    yielded once, at ``max_depth + 1``, so a caller can report the overflow).

    Inside :func:`shared_walks` (the engine uses it while rules run, when no schema
    changes), every rule family walking the same slot shares one walk.
    """
    memo = getattr(_shared, "memo", None)
    if memo is not None and max_depth is None and isinstance(schema, dict):
        return _memo_walk(memo, schema)
    return _walk(schema, max_depth)


class _Shared(threading.local):
    memo: dict | None = None


_shared = _Shared()
_MEMO_SLOTS = 8  # rules run slot by slot: the last few slots are all that is ever walked again


class shared_walks:
    """Context manager: while active (in this thread), :func:`subschemas` of the same schema
    object is walked once and replayed to every later caller. Only for code that does not
    change the schemas it walks (rules never do)."""

    def __enter__(self):
        self.outer = _shared.memo
        if self.outer is None:
            _shared.memo = {}
        return self

    def __exit__(self, *exc):
        if self.outer is None:
            _shared.memo = None
        return False


def encoded(schema: Any) -> bytes | None:
    """``marshal``'s version-2 encoding of a schema (None when it cannot be encoded: too deep).
    Fast (C) and exact enough to answer "might this schema hold X?" without walking it: a
    string is encoded as ``u``, its UTF-8 length in 4 little-endian bytes, then its bytes
    (:func:`encoded_string`). Inside :func:`shared_walks` each schema is encoded once."""
    memo = getattr(_shared, "memo", None)
    key = ("encoded", id(schema))
    if memo is not None:
        hit = memo.get(key)
        if hit is not None and hit[0] is schema:
            return hit[1]
    try:
        blob = marshal.dumps(schema, 2)
    except (ValueError, TypeError, RecursionError):
        blob = None
    if memo is not None:
        if len(memo) >= _MEMO_SLOTS:
            memo.clear()
        memo[key] = (schema, blob)
    return blob


def encoded_string(text: str) -> bytes:
    """How :func:`encoded` writes the string ``text`` (to search an encoding for it)."""
    data = text.encode("utf-8", "surrogatepass")
    return b"u" + len(data).to_bytes(4, "little") + data


def walk_prefix(schema: Any, limit: int) -> list:
    """The first ``limit + 1`` nodes of :func:`subschemas` (all of them when there are fewer),
    as a list: a caller that stops at a bound of ``limit`` nodes sees whether there are more.
    Inside :func:`shared_walks` the list is the shared walk itself (read it, never change it;
    it may hold more than ``limit + 1`` nodes)."""
    memo = getattr(_shared, "memo", None)
    if memo is None or not isinstance(schema, dict):
        walker = _Walker(schema)
        walker.fill(limit + 1)
        return walker.items
    walker = _memo_entry(memo, schema)
    if len(walker.items) <= limit:
        walker.fill(limit + 1)
    return walker.items


def _memo_entry(memo: dict, schema: dict) -> "_Walker":
    walker = memo.get(id(schema))
    if walker is None or walker.schema is not schema:
        if len(memo) >= _MEMO_SLOTS:
            memo.clear()
        walker = memo[id(schema)] = _Walker(schema)
    return walker


def _memo_walk(memo: dict, schema: dict) -> Iterator[Sub]:
    # the walk is advanced only as far as some caller reads it, so a caller that stops at
    # a bound still bounds the work; later callers replay what was read, then extend it
    walker = _memo_entry(memo, schema)
    items = walker.items
    i = 0
    while True:
        if i >= len(items):
            if not walker.stack:
                return
            walker.fill(len(items) + 64)
            continue
        yield items[i]
        i += 1


class _Walker:
    """A pre-order walk that can be advanced in steps (:meth:`fill`), keeping what it read.
    With ``max_depth``, nodes deeper than it are read but not descended into."""

    __slots__ = ("schema", "items", "stack", "max_depth")

    def __init__(self, schema: Any, max_depth: int | None = None):
        self.schema = schema
        self.items: list = []
        self.stack = [Sub((), schema, 0, None)]
        self.max_depth = max_depth

    def fill(self, n: int) -> None:
        """Walk on until ``items`` holds ``n`` nodes or the walk ends."""
        items, stack, max_depth = self.items, self.stack, self.max_depth
        while stack and len(items) < n:
            sub = stack.pop()
            items.append(sub)
            node = sub.schema
            if not isinstance(node, dict) or (max_depth is not None and sub.depth > max_depth):
                continue
            ptr, depth = sub.pointer, sub.depth + 1
            stack.extend(reversed([Sub(ptr + rel, child, depth, kw) for rel, child, kw in children(node)]))


def _walk(schema: Any, max_depth: int | None) -> Iterator[Sub]:
    # streamed in chunks: a walk nobody shares keeps no more than a chunk of what it read
    walker = _Walker(schema, max_depth)
    while walker.stack:
        walker.fill(64)
        items, walker.items = walker.items, []
        yield from items
