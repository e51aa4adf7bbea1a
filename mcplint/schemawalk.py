"""Walk the subschemas of a JSON Schema, iteratively (no recursion limits), in
document order, knowing which keywords hold schemas in 2020-12 and draft-07.

Every rule that looks inside a schema uses this walk; none writes its own walker. A rule
walks through its context (``ctx.walks``, a :class:`SharedWalks` the engine makes for each
collection: every rule family walking a slot shares one walk); other code calls
:func:`subschemas` or takes a :class:`Walks` argument (:data:`UNSHARED` by default). Pointers
yielded are relative to the schema root.
"""

from __future__ import annotations

import marshal
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

    Every call walks anew; several readers of the same schema share one walk through
    :class:`SharedWalks` (the engine gives the rules of a collection one: ``ctx.walks``)."""
    return _walk(schema, max_depth)


def encoded(schema: Any) -> bytes | None:
    """``marshal``'s version-2 encoding of a schema (None when it cannot be encoded: too deep).
    Fast (C) and exact enough to answer "might this schema hold X?" without walking it: a
    string is encoded as ``u``, its UTF-8 length in 4 little-endian bytes, then its bytes
    (:func:`encoded_string`)."""
    try:
        return marshal.dumps(schema, 2)
    except (ValueError, TypeError, RecursionError):
        return None


def encoded_string(text: str) -> bytes:
    """How :func:`encoded` writes the string ``text`` (to search an encoding for it)."""
    data = text.encode("utf-8", "surrogatepass")
    return b"u" + len(data).to_bytes(4, "little") + data


def walk_prefix(schema: Any, limit: int) -> list:
    """The first ``limit + 1`` nodes of :func:`subschemas` (all of them when there are fewer),
    as a list: a caller that stops at a bound of ``limit`` nodes sees whether there are more."""
    walker = _Walker(schema)
    walker.fill(limit + 1)
    return walker.items


class Walks:
    """The walks of :func:`subschemas`, :func:`walk_prefix` and :func:`encoded` as methods, so
    that code which may share them with other readers takes a ``walks`` argument. This class
    keeps nothing (:data:`UNSHARED`: every call walks anew); :class:`SharedWalks` keeps them."""

    __slots__ = ()

    def clear(self) -> None:
        """Forget every walk and encoding kept (here: none)."""

    def subschemas(self, schema: Any) -> Iterator[Sub]:
        """:func:`subschemas` of ``schema``."""
        return _walk(schema, None)

    def walk_prefix(self, schema: Any, limit: int) -> list:
        """:func:`walk_prefix` of ``schema`` (read the list, never change it: with
        :class:`SharedWalks` it is the shared walk itself, and may hold more than ``limit + 1``
        nodes)."""
        return walk_prefix(schema, limit)

    def encoded(self, schema: Any) -> bytes | None:
        """:func:`encoded` of ``schema``."""
        return encoded(schema)


UNSHARED = Walks()  # for callers with nothing to share a walk with


class SharedWalks(Walks):
    """Walks kept for every later reader: the same schema object is walked (and encoded) once,
    and the walk is replayed to every later caller. Only for readers that do not change the
    schemas they walk (rules never do). The engine makes one per collection it lints
    (:attr:`mcplint.memo.Memo.walks`, which a rule reads as ``ctx.walks``), so every rule family
    walking a slot shares one walk, and nothing kept outlives the collection's rules.

    Only the last few schemas are kept: rules run slot by slot, and the last few slots are all
    that is ever walked again. An entry is keyed by ``id()`` of its schema and holds the schema
    itself (so the ``id`` cannot be reused while it is kept)."""

    __slots__ = ("_kept",)

    KEPT = 8  # schemas (walks and encodings together) kept at most

    def __init__(self) -> None:
        self._kept: dict = {}

    def clear(self) -> None:
        self._kept.clear()

    def subschemas(self, schema: Any) -> Iterator[Sub]:
        if not isinstance(schema, dict):
            return _walk(schema, None)
        return _replay(self._walker(schema))

    def walk_prefix(self, schema: Any, limit: int) -> list:
        if not isinstance(schema, dict):
            return walk_prefix(schema, limit)
        walker = self._walker(schema)
        if len(walker.items) <= limit:
            walker.fill(limit + 1)
        return walker.items

    def encoded(self, schema: Any) -> bytes | None:
        kept = self._kept
        key = ("encoded", id(schema))
        hit = kept.get(key)
        if hit is not None and hit[0] is schema:
            return hit[1]
        blob = encoded(schema)
        if len(kept) >= self.KEPT:
            kept.clear()
        kept[key] = (schema, blob)
        return blob

    def _walker(self, schema: dict) -> "_Walker":
        kept = self._kept
        walker = kept.get(id(schema))
        if walker is None or walker.schema is not schema:
            if len(kept) >= self.KEPT:
                kept.clear()
            walker = kept[id(schema)] = _Walker(schema)
        return walker


def _replay(walker: "_Walker") -> Iterator[Sub]:
    # the walk is advanced only as far as some caller reads it, so a caller that stops at
    # a bound still bounds the work; later callers replay what was read, then extend it
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
