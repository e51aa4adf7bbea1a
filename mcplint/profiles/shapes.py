"""Structural constructs added for the second round of provider facts: a ``$ref`` whose only
siblings are annotations, a ``type`` no JSON Schema knows, ``items`` on a schema that is not
an array. One function per construct, each a pure test of one node; :mod:`.evaluate` calls
:func:`shape_effects` once per node for the profiles that list any of them."""

from __future__ import annotations

import json

from .model import NON_CONSTRAINING

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
SHAPES = ("ref-annotation-siblings", "unknown-type", "items-on-non-array")


def sibling_set(keys) -> str:
    """How Python prints a set of keyword names (OpenAI's "$ref cannot have keywords {'description'}")."""
    return "{" + ", ".join(repr(k) for k in keys) + "}"


def ref_annotation_siblings(node: dict) -> list:
    """Annotation-only siblings of a ``$ref`` (``description``, ``title``, ``default``, ...):
    they change no accepted value, yet a target may refuse them beside a reference."""
    if "$ref" not in node:
        return []
    return [k for k in node if k != "$ref" and k in NON_CONSTRAINING and not k.startswith("$")]


def unknown_types(node: dict) -> list:
    """``type`` values that are not one of the seven JSON Schema types."""
    t = node.get("type")
    vals = t if isinstance(t, list) else [t] if "type" in node else []
    return [v for v in vals if not (isinstance(v, str) and v in JSON_TYPES)]


def items_on_non_array(node: dict, types: set) -> bool:
    """``items`` beside a type other than exactly ``array`` (a type array, another type, or
    no type at all as on an ``anyOf`` node)."""
    return "items" in node and types != {"array"}


def shape_effects(make, node: dict, rel: tuple, types: set, cons: dict) -> list:
    """The effects of the constructs above that ``cons`` (a profile's constructs) lists.
    ``make(pointer, subject, rule, params)`` builds one effect."""
    out = []
    rule = cons.get("ref-annotation-siblings")
    if rule is not None:
        sibs = ref_annotation_siblings(node)
        constraining = [k for k in node if k != "$ref" and k not in NON_CONSTRAINING]
        if sibs and not constraining:  # with a constraining sibling, ref-siblings speaks for the node
            out.append(make(rel + (sibs[0],), "ref-annotation-siblings", rule,
                            {"siblings": ", ".join(sibs), "keyword": sibs[0], "sibling_set": sibling_set(sibs)}))
    rule = cons.get("unknown-type")
    if rule is not None:
        bad = unknown_types(node)
        if bad:
            out.append(make(rel + ("type",), "unknown-type", rule,
                            {"value": json.dumps(bad[0]) if not isinstance(bad[0], str) else bad[0]}))
    rule = cons.get("items-on-non-array")
    if rule is not None and items_on_non_array(node, types):
        out.append(make(rel + ("items",), "items-on-non-array", rule,
                        {"value": json.dumps(node.get("type")) if "type" in node else "none"}))
    return out
