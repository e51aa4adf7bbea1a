"""The projection's working tree and its results.

The projection works on a copy of the input schema in which every node carries its
pointer in the input (:data:`ORIGIN`; keywords merged in from elsewhere keep theirs in
:data:`KW_ORIGIN`), so each :class:`Item` can name the place in the INPUT it is about.
:func:`strip` removes that bookkeeping. Iterative throughout: deep schemas must not
exhaust the stack.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..model import Pointer

ORIGIN = "\x00o"  # hidden key on working nodes: the node's pointer in the input schema
KW_ORIGIN = "\x00k"  # hidden key: keyword -> input pointer, for keywords merged in from elsewhere
HIDDEN = (ORIGIN, KW_ORIGIN)

KINDS = ("left-out", "limit", "weakened", "narrowed", "nullable", "shortened", "target-rewrite", "rewritten",
         "removed")
# Kinds that change what the model can send: any of them makes `mcplint project` exit 1.
CHANGES = frozenset({"left-out", "weakened", "narrowed", "nullable", "target-rewrite", "limit", "shortened"})
DEFAULT_UNROLL = 3

# The keywords that bound a value, a length or a count from below, and from above.
LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")


@dataclass
class Item:
    """One change the projection made, or one reason it could not keep a tool."""

    kind: str
    subject: str  # the keyword or construct concerned
    pointer: tuple  # where, in the input: relative to the schema (project_schema) or absolute (documents)
    message: str
    output: list = field(default_factory=list)  # pointers of the affected places in the projected schema
    tool: str | None = None  # documents: the tool's name
    slot: str | None = None  # documents: inputSchema / outputSchema
    node: Any = field(default=None, repr=False, compare=False)  # working node (internal)
    suffix: tuple = field(default=(), repr=False, compare=False)

    @property
    def changes_values(self) -> bool:
        return self.kind in CHANGES

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "subject": self.subject, "pointer": _ptr(self.pointer), "message": self.message,
               "output": [_ptr(p) for p in self.output]}
        if self.tool is not None or self.slot is not None:
            out["tool"], out["slot"] = self.tool, self.slot
        return out


def _ptr(p) -> str:
    return str(Pointer(p))


def short_text(value, limit: int = 60) -> str:
    """``value`` as compact JSON for a message, cut to ``limit`` characters."""
    value = strip(value)
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError, TypeError):
        text = "..."
    return text if len(text) <= limit else text[: limit - 3] + "..."


def origin_of(node) -> tuple:
    """The input pointer a working node was copied from (() when it has none)."""
    return node.get(ORIGIN, ()) if isinstance(node, dict) else ()


def keyword_origin(node, kw) -> tuple:
    """The input pointer of keyword ``kw`` of a working node: where it was merged from, else
    under the node's own origin."""
    if isinstance(node, dict):
        k = node.get(KW_ORIGIN)
        if k and kw in k:
            return k[kw]
    return origin_of(node) + (kw,)


# The work one projection may do, in nodes: each node copied, stripped or visited by a pass
# counts one. [used, limit]; the limit is None outside a projection (see :func:`budget`).
WORK: list = [0, None]


class budget:
    """Context manager: the projection inside may do at most ``limit`` units of work (nodes
    copied, stripped or visited); past it :func:`charge` raises :class:`LeftOut` (``work``),
    so a schema whose rewrites multiply (references inlined into combinators rewritten again and
    again) ends as a reported left-out tool instead of minutes of CPU. ``used`` after the block."""

    def __init__(self, limit: int):
        self.limit, self.used = limit, 0

    def __enter__(self):
        self.saved = tuple(WORK)
        WORK[:] = [0, self.limit]
        return self

    def __exit__(self, *exc):
        self.used = WORK[0]
        WORK[:] = [self.saved[0] + self.used, self.saved[1]]  # an enclosing budget is charged too


def charge(n: int) -> None:
    """Count ``n`` units of work against the running projection's budget."""
    WORK[0] += n
    if WORK[1] is not None and WORK[0] > WORK[1]:
        limit, WORK[1] = WORK[1], None  # (reported once: what runs on the way out is not stopped)
        raise LeftOut("work", (), f"projecting this schema needs more than {limit:,} units of work (nodes "
                                   "copied or visited; raise bounds.max-subschemas, of which it is a multiple): "
                                   "the projection stops there and the tool is left out")


def copy_tree(value: Any) -> Any:
    """A deep copy of JSON data, iteratively."""
    out_root: list = [None]
    stack = [(value, out_root, 0)]
    n = 0
    while stack:
        v, parent, key = stack.pop()
        n += 1
        if isinstance(v, dict):
            new: Any = dict.fromkeys(v)
            parent[key] = new
            stack.extend((x, new, k) for k, x in v.items())
        elif isinstance(v, list):
            new = [None] * len(v)
            parent[key] = new
            stack.extend((x, new, i) for i, x in enumerate(v))
        else:
            parent[key] = v
    if WORK[1] is not None:
        charge(n)
    return out_root[0]


def strip(value: Any) -> Any:
    """A copy of a working tree without the hidden bookkeeping keys (iterative: deep
    schemas must not exhaust the stack)."""
    out_root: list = [None]
    stack = [(value, out_root, 0)]
    n = 0
    while stack:
        v, parent, key = stack.pop()
        n += 1
        if isinstance(v, dict):
            new: Any = {}
            parent[key] = new
            for k, x in v.items():
                if k not in HIDDEN:
                    new[k] = None
                    stack.append((x, new, k))
        elif isinstance(v, list):
            new = [None] * len(v)
            parent[key] = new
            for i, x in enumerate(v):
                stack.append((x, new, i))
        else:
            parent[key] = v
    if WORK[1] is not None:
        charge(n)
    return out_root[0]


class LeftOut(Exception):
    """Raised where a schema cannot be projected; ``item`` is the left-out item that says why."""

    def __init__(self, subject: str, pointer: tuple, message: str):
        super().__init__(message)
        self.item = Item("left-out", subject, pointer, message)


def is_number(v) -> bool:
    """A JSON number (a bool is not one)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def at_pointer(tree, ptr):
    """The node at pointer ``ptr`` (a tuple of keys and indices) of ``tree``, or None."""
    node = tree
    for part in ptr:
        try:
            node = node[part] if not isinstance(node, list) else node[int(part)]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return node


def malformed(schema: Any, base: tuple = ()) -> tuple | None:
    """(pointer, what) of the first node under ``schema`` (``base`` its pointer) that is not a
    schema, or whose ``type`` is not a type name or a list of them; None when there is none.
    Cheap (no meta-schema): the projection reads ``type`` as strings it can compare and merge.
    (Other invalid values are left to the profile's own ``invalid-schema`` verdict.)"""
    from ..schemawalk import subschemas

    for sub in subschemas(schema):
        node, at = sub.schema, (*base, *sub.pointer)
        if isinstance(node, bool):
            continue
        if not isinstance(node, dict):
            return at, f"{short_text(node)} is not a schema (an object or a boolean)"
        t = node.get("type")
        if t is not None and not (isinstance(t, str) or isinstance(t, list) and all(isinstance(x, str) for x in t)):
            return (*at, "type"), f"'type' is {short_text(t)}, not a type name or a list of them"
    return None
