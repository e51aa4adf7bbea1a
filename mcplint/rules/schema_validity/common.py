"""What every SCH rule shares: the one walk of a slot they all read, the keyword vocabularies
of each dialect, and the helpers that word their messages."""

from __future__ import annotations

import functools
import json
import operator
from typing import Any

from ...dialects import JSON_STRUCTURE, dialect_of
from ...jsonvalue import json_kind
from ...model import Pointer
from ...refs import REF_KEYWORDS
from ...schemawalk import COMBINATORS, Walks

# Subschema nesting (applicator steps) beyond which a slot is not handed to a validation
# engine: the Rust engine's stack and the Python engine's recursion limit both give out
# above it (measured: Python at about 100 nested properties, Rust at a few thousand nested
# `not`). No real tool schema comes near it, and the SEC family bounds depth far below it.
MAX_NESTING = 50

# ------------------------------------------------------------------ keyword vocabularies

_COMMON = {
    "$schema", "$ref", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "maxItems", "minItems",
    "uniqueItems", "maxProperties", "minProperties", "required", "additionalProperties", "properties",
    "patternProperties", "enum", "type", "format", "allOf", "anyOf", "oneOf", "not",
}
_D4 = _COMMON | {"id", "additionalItems", "definitions", "dependencies"}
_D6 = (_D4 - {"id"}) | {"$id", "examples", "const", "contains", "propertyNames"}
_D7 = _D6 | {"$comment", "readOnly", "writeOnly", "if", "then", "else", "contentMediaType", "contentEncoding"}
_D2019 = (_D7 - {"definitions", "dependencies"}) | {
    "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$defs", "deprecated", "maxContains",
    "minContains", "dependentRequired", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties",
    "contentSchema",
}
_D2020 = (_D2019 - {"$recursiveRef", "$recursiveAnchor", "additionalItems"}) | {
    "$dynamicRef", "$dynamicAnchor", "prefixItems",
}
# (The 2019-09 and 2020-12 meta-schemas still describe `definitions`, `dependencies` and, in
# 2020-12, `$recursiveRef`/`$recursiveAnchor` for compatibility, so SCH101 checks their shape;
# validators of those dialects do not assert `dependencies` and `$recursive*`, so SCH103 says so.
# `definitions` stays silent: it is only a place that `$ref`s point into.)
KEYWORDS: dict[str, frozenset] = {
    "2020-12": frozenset(_D2020), "2019-09": frozenset(_D2019), "draft-07": frozenset(_D7),
    "draft-06": frozenset(_D6), "draft-04": frozenset(_D4),
}
# Annotations seen in real tool schemas that an older dialect does not define: harmless
# everywhere (validators ignore them), so never reported. "$defs"/"definitions" are
# reached by JSON Pointer refs whatever the dialect.
TOLERATED = frozenset({
    "$defs", "definitions", "$comment", "$id", "examples", "deprecated", "readOnly", "writeOnly",
    "contentMediaType", "contentEncoding", "title", "description", "default", "format",
})
# OpenAPI 3.0 Schema Object keywords that JSON Schema does not have (SCH104 reports them).
OPENAPI = frozenset({"nullable", "example", "discriminator", "xml", "externalDocs"})
# Every keyword of every dialect mcplint knows.
ALL_KEYWORDS = frozenset().union(*KEYWORDS.values())

REFS = REF_KEYWORDS
_REF_KEYWORDS = frozenset(REFS)
TYPE_IMPLYING = frozenset({*REFS, "enum", "const", *COMBINATORS})
# Keywords that constrain an instance: a subschema with none of them (and no `if` with a `then` or
# `else`, which constrain only as a pair) accepts every value. The MCP Inspector's `--strict` lint
# (2.12, `CONSTRAINING_KEYWORDS` in core/json/schemaLint.ts) reports such a subschema as untyped.
CONSTRAINING = frozenset({
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "format", "contentMediaType", "contentEncoding", "contentSchema",
    "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
    "required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains",
    "additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties",
    "unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies", *REFS,
})


def constrains(node: dict) -> bool:
    """Whether the object schema ``node`` constrains its instance at all (see CONSTRAINING)."""
    return not CONSTRAINING.isdisjoint(node) or ("if" in node and ("then" in node or "else" in node))


# ------------------------------------------------------------------ the shared walk

def slot_walk(slot, ctx) -> "_Walk | None":
    """The slot's walk, when SCH rules may read the slot (its dialect is one they know); else None
    (not a schema at all, which the MCP family reports; a JSON Structure slot; an unknown dialect)."""
    if not isinstance(slot.schema, (dict, bool)):
        return None
    walk = _walk(slot, ctx)
    return walk if walk.dialect is not None else None


class _At(tuple):
    """(slot pointer, relative pointer): an absolute pointer built only when a rule reports
    something (most nodes are clean). A tuple, so that making one per node costs no Python call."""

    __slots__ = ()

    def __truediv__(self, key) -> Pointer:
        return Pointer((*self[0], *self[1], key))

    @property
    def full(self) -> Pointer:
        return Pointer((*self[0], *self[1]))


_DEPTH = operator.itemgetter(2)


class _Walk:
    """One walk of a slot, shared by every SCH rule that runs on it. It stops after ``limit``
    object subschemas (the max-subschemas bound): work stays bounded on adversarial input, and a
    slot over the bound is marked ``truncated`` (SCH101 says it was not fully checked). ``walks``:
    the rule's (``ctx.walks``), whose walk of the slot the other families share."""

    __slots__ = ("limit", "nodes", "depth", "dialect", "truncated", "_keys", "_refs")

    def __init__(self, schema: Any, base: Pointer, limit: int, walks: Walks):
        self.limit = limit
        self.truncated = False
        self._keys: frozenset | None = None
        self._refs: list | None = None
        tnew = tuple.__new__
        walked = walks.walk_prefix(schema, limit)
        if len(walked) <= limit:  # the whole walk, so no more object nodes than the bound: in C where it can
            # (pointer builder, dict node, sub) for each object node
            self.nodes: list = [(tnew(_At, (base, sub[0])), sub[1], sub) for sub in walked if type(sub[1]) is dict]
            self.depth = max(map(_DEPTH, walked))  # applicator steps of the deepest subschema
        else:  # perhaps more object nodes than the bound: count them as they come
            self.nodes, depth = [], 0
            for sub in walks.subschemas(schema):
                if sub[2] > depth:
                    depth = sub[2]
                if isinstance(sub[1], dict):
                    if len(self.nodes) >= limit:
                        self.truncated = True
                        break
                    self.nodes.append((tnew(_At, (base, sub[0])), sub[1], sub))
            self.depth = depth
        d = dialect_of(schema) if isinstance(schema, (dict, bool)) else None
        self.dialect = None if d in (None, JSON_STRUCTURE) else d

    @property
    def ref_nodes(self) -> list:
        """Relative pointers of the subschemas holding a reference keyword."""
        if self._refs is None:
            self._refs = [entry[2][0] for entry in self.nodes if not _REF_KEYWORDS.isdisjoint(entry[1])]
        return self._refs

    @property
    def keys(self) -> frozenset:
        """Every key of every walked subschema (one set union, in C): a rule that looks for a
        keyword can tell at once that no subschema has it."""
        if self._keys is None:
            self._keys = frozenset().union(*[entry[1] for entry in self.nodes])
        return self._keys

    @property
    def engine_safe(self) -> bool:
        """May the whole slot go to a validation engine (fully walked, not too deep)?"""
        return not self.truncated and self.depth <= MAX_NESTING


WALK_KEY = "schema.walk"  # ctx.memo.target: (the slot, its _Walk), made by its first SCH rule


def _walk(slot, ctx) -> _Walk:
    """The slot's walk, made once for every SCH rule of the slot."""
    kept = ctx.memo.target.get(WALK_KEY)
    if kept is None or kept[0] is not slot:
        kept = ctx.memo.target[WALK_KEY] = (slot, _Walk(slot.schema, slot.pointer, ctx.config.bounds.max_subschemas,
                                                        ctx.walks))
    return kept[1]


# ------------------------------------------------------------------ message helpers

def show(value: Any, limit: int = 60) -> str:
    """A short JSON rendering of a value for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError, RecursionError):
        text = "(a deeply nested value)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_type(value: Any) -> str:
    """The JSON type name of ``value``, with ``integer`` for whole numbers."""
    return json_kind(value, integer=True)


@functools.lru_cache(maxsize=4096)  # the same misspelling in every tool of a big file is measured once
def distance(a: str, b: str) -> int:
    """Optimal string alignment distance (edits, with adjacent transpositions)."""
    if abs(len(a) - len(b)) > 2:
        return 3
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > 2 and (not prev2 or min(prev) > 2):
            return 3  # no alignment can come back under the largest limit closest() uses
        prev2, prev = prev, cur
    return prev[-1]


def closest(word: str, candidates) -> str | None:
    """The candidate a misspelt ``word`` most likely meant, or None."""
    low = word.lower()
    for c in candidates:
        if c.lower() == low:
            return c
    best, best_d = None, 99
    limit = 1 if len(word) <= 4 else 2
    for c in sorted(candidates):
        if abs(len(c) - len(word)) > limit:
            continue
        d = distance(low, c.lower())
        if d < best_d:
            best, best_d = c, d
    return best if best_d <= limit else None
