"""What every SEC rule reads: one bounded analysis of the slot (:func:`analysis`), the slot's
reference graph made from it on demand (:func:`slot_refs`), and the wording of a bound passed."""

from __future__ import annotations

from typing import Any

from ...refs import REF_KEYWORDS
from ...schemawalk import UNSHARED, Walks
from .refgraph import RefInfo

_REF_HINTS = (*REF_KEYWORDS, "$id", "$anchor", "$dynamicAnchor")
_ANALYSED = frozenset({"enum", "pattern", "patternProperties", *_REF_HINTS})  # what analysis() reads of a node


class Analysis:
    """What the safety rules need of one slot, from one pass over its walk."""

    __slots__ = ("subs", "truncated", "depth", "too_deep", "enums", "patterns", "has_refs", "_nodes", "_refs")

    def __init__(self):
        self.subs: list = []  # the walk itself (schemawalk.Sub), up to the bound
        self.truncated = False  # more subschemas than the bound: later checks stand down
        self.depth = 0
        self.too_deep: tuple | None = None  # first node beyond max_depth
        self.enums: list = []  # (relative pointer of enum, length)
        self.patterns: list = []  # (relative pointer, pattern text, is_key)
        self.has_refs = False
        self._nodes: dict | None = None
        self._refs: Any = None

    @property
    def nodes(self) -> dict:
        """relative pointer -> (walk position, via keyword); built only for slots with references."""
        if self._nodes is None:
            self._nodes = {sub[0]: (i, sub[3]) for i, sub in enumerate(self.subs, 1)}
        return self._nodes

    def ref_info(self, schema):
        if self._refs is None:
            self._refs = RefInfo(schema, self)
        return self._refs


ANALYSIS_KEY = "safety.analysis"  # ctx.memo.target: (the slot, its Analysis), made by its first SEC rule


def shared_analysis(slot, ctx) -> Analysis:
    """The slot's :func:`analysis` under the run's bounds, made once for every SEC rule of the slot."""
    kept = ctx.memo.target.get(ANALYSIS_KEY)
    if kept is None or kept[0] is not slot:
        kept = ctx.memo.target[ANALYSIS_KEY] = (slot, analysis(slot, ctx.bounds, ctx.walks))
    return kept[1]


def analysis(slot, bounds, walks: Walks = UNSHARED) -> Analysis:
    """One pass over the slot's walk (up to ``bounds.max_subschemas`` nodes): what the SEC rules
    read. ``walks``: the rule's (``ctx.walks``), whose walk of the slot the other families share."""
    a = Analysis()
    limit, max_depth = bounds.max_subschemas, bounds.max_depth
    walk = walks.walk_prefix(slot.schema, limit)
    if len(walk) > limit:
        a.truncated = True
        walk = walk[:limit]
    a.subs = walk  # read-only: it may be the walk every family shares
    enums, patterns = a.enums, a.patterns
    depth = 0
    has_refs = False
    for sub in walk:
        ptr, node, d = sub[0], sub[1], sub[2]
        if d > depth:
            depth = d
            if a.too_deep is None and d > max_depth:
                a.too_deep = ptr
        if not isinstance(node, dict) or _ANALYSED.isdisjoint(node):  # most nodes: decided in C
            continue
        if "enum" in node and isinstance(node["enum"], list):
            enums.append((ptr + ("enum",), len(node["enum"])))
        if "pattern" in node and isinstance(node["pattern"], str):
            patterns.append((ptr + ("pattern",), node["pattern"], False))
        if "patternProperties" in node:
            pp = node["patternProperties"]
            if isinstance(pp, dict):
                patterns += [(ptr + ("patternProperties", k), k, True) for k in pp]
        if not has_refs:
            for k in _REF_HINTS:
                if k in node:
                    has_refs = True
                    break
    a.depth, a.has_refs = depth, has_refs
    return a


def slot_refs(slot, ctx):
    """The slot's reference graph (:class:`RefInfo`), or None when the slot holds no reference
    or its walk stopped at a bound."""
    a = shared_analysis(slot, ctx)
    if a.truncated or not a.has_refs:
        return None
    return a.ref_info(slot.schema)


def bound_message(what: str, got: str, limit: int, key: str, why: str) -> str:
    """The message of a finding over a bound: what, what it has, the bound and its key, and why it matters."""
    return f"{what} {got}, over the bound of {limit} (bounds.{key}); {why}"
