"""An iterative, bounded walker over the schemas of a JSON Structure document.

JSON Structure places schemas differently from JSON Schema: ``definitions`` is a tree of
namespaces (an object without ``type`` is a namespace), ``choices`` is a map of schemas,
``values`` holds a map's value schema, and ``$ref`` only ever appears inside ``type``. So
``mcplint.schemawalk`` (JSON Schema) does not apply; this walker does, with no recursion
and a hard cap on nodes and depth (binding §10).
"""

from __future__ import annotations

from typing import Any, Iterator, NamedTuple

from .keywords import SCHEMA_MANY, SCHEMA_MAP, SCHEMA_ONE

DEFAULT_MAX_NODES = 20_000
DEFAULT_MAX_DEPTH = 64


class Node(NamedTuple):
    """One schema (or namespace) object met by :func:`nodes` (a named tuple: cheap to build)."""

    pointer: tuple  # relative to the document root
    schema: Any  # a dict (a schema or a namespace)
    depth: int
    via: str | None  # the keyword that led here
    namespace: bool = False  # a namespace inside definitions (not a schema)


def _children(node: Node) -> list[Node]:
    s = node.schema
    out: list[Node] = []
    if not isinstance(s, dict):
        return out
    depth = node.depth + 1
    if node.namespace:
        for name, v in s.items():
            if isinstance(v, dict):
                out.append(Node(node.pointer + (name,), v, depth, "definitions", "type" not in v))
        return out
    for kw, v in s.items():
        if kw == "definitions" and isinstance(v, dict):
            for name, sub in v.items():
                if isinstance(sub, dict):
                    out.append(Node(node.pointer + (kw, name), sub, depth, kw, "type" not in sub))
        elif kw in SCHEMA_MAP and isinstance(v, dict):
            for name, sub in v.items():
                if isinstance(sub, dict):
                    out.append(Node(node.pointer + (kw, name), sub, depth, kw))
        elif kw in SCHEMA_ONE and isinstance(v, dict):
            out.append(Node(node.pointer + (kw,), v, depth, kw))
        elif kw in SCHEMA_MANY and isinstance(v, list):
            for i, sub in enumerate(v):
                if isinstance(sub, dict):
                    out.append(Node(node.pointer + (kw, i), sub, depth, kw))
        elif kw == "additionalProperties" and isinstance(v, dict):
            out.append(Node(node.pointer + (kw,), v, depth, kw))
    return out


def nodes(schema: Any, max_nodes: int = DEFAULT_MAX_NODES, max_depth: int = DEFAULT_MAX_DEPTH) -> Iterator[Node]:
    """Every schema (and namespace) object in the document, pre-order, document order.

    Stops silently after ``max_nodes`` nodes and does not descend below ``max_depth``;
    the size and depth findings themselves belong to the safety rules.
    """
    if not isinstance(schema, dict):
        return
    stack = [Node((), schema, 0, None)]
    count = 0
    while stack:
        node = stack.pop()
        yield node
        count += 1
        if count >= max_nodes:
            return
        if node.depth >= max_depth:
            continue
        stack.extend(reversed(_children(node)))


def schemas(schema: Any, **bounds) -> Iterator[Node]:
    """Like :func:`nodes`, without the namespaces."""
    return (n for n in nodes(schema, **bounds) if not n.namespace)


WALK_KEY = "jstruct.walk"  # memo.target (mcplint.memo): (the slot's schema, its walk)


def walked(schema: Any, memo=None) -> tuple[Node, ...]:
    """:func:`nodes` with default bounds. With the ``memo`` of a rule's context the walk is kept
    for the target: every JST rule looks at the same slot in turn, and the walk is done once."""
    if memo is None:
        return tuple(nodes(schema))
    hit = memo.target.get(WALK_KEY)
    if hit is None or hit[0] is not schema:
        hit = memo.target[WALK_KEY] = (schema, tuple(nodes(schema)))
    return hit[1]


def walked_schemas(schema: Any, memo=None) -> tuple[Node, ...]:
    return tuple(n for n in walked(schema, memo) if not n.namespace)


def resolve(doc: dict, ref: Any) -> tuple[tuple, Any] | None:
    """Resolve a same-document JSON Pointer fragment (``#/definitions/…``); None if it
    is not one or does not resolve. Never retrieves anything."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    parts = tuple(p.replace("~1", "/").replace("~0", "~") for p in ref[2:].split("/"))
    node: Any = doc
    for p in parts:
        if isinstance(node, dict) and p in node:
            node = node[p]
        else:
            return None
    return parts, node
