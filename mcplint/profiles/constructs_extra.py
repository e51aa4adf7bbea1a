"""Constructs the main walk of :mod:`.evaluate` does not see, each in its own small
function: the walk visits object nodes only, so a boolean subschema (``true`` /
``false`` where a schema goes) is found here.

Each function returns (pointer, params) pairs, kept once per slot in :class:`.facts.SlotFacts`;
:func:`.evaluate.evaluate_slot` turns them into effects of the profile's rule for the construct.
"""

from __future__ import annotations

from typing import Any

from ..schemawalk import UNSHARED, Walks

# false under these is the usual way to close an object or a tuple, not a schema in its own right
# (and items beside prefixItems: see _closes_prefix_items)
_CLOSING = frozenset({"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems"})


def boolean_subschemas(schema: Any, max_nodes: int = 20_000, walks: Walks = UNSHARED) -> list[tuple[tuple, dict]]:
    """Each ``true``/``false`` schema below the root that is not closing an object or tuple
    (a property, an array's items, a branch of anyOf/oneOf/allOf, a definition, ...).
    ``walks``: where the schema is walked (:mod:`mcplint.schemawalk`)."""
    out = []
    if not isinstance(schema, dict):
        return out
    for i, sub in enumerate(walks.subschemas(schema)):
        if i >= max_nodes:
            break
        if isinstance(sub.schema, bool) and sub.pointer and sub.via not in _CLOSING and \
                not _closes_prefix_items(schema, sub):
            parent = sub.pointer[:-1] if sub.via in ("items", "not", "if", "then", "else", "contains",
                                                      "propertyNames", "contentSchema") else sub.pointer[:-2]
            out.append((sub.pointer, {"value": "true" if sub.schema else "false", "_node": parent, "_via": sub.via}))
    return out


def _closes_prefix_items(schema: Any, sub) -> bool:
    """``items: false`` (or ``true``) right beside ``prefixItems``: 2020-12's way to close (or open)
    a tuple, as ``additionalItems`` is draft-07's (zod v4 writes ``z.tuple`` so)."""
    if sub.via != "items" or not sub.pointer or sub.pointer[-1] != "items":
        return False
    from ..model import Pointer

    parent = Pointer(sub.pointer[:-1]).resolve_in(schema)
    return isinstance(parent, dict) and isinstance(parent.get("prefixItems"), list)
