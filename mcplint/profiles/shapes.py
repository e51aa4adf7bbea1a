"""Structural constructs added for the second round of provider facts: a ``$ref`` whose only
siblings are annotations, a ``type`` no JSON Schema knows, ``items`` on a schema that is not
an array, draft-07's tuple form (``items`` an array of schemas). One function per construct,
each a pure test of one node; :func:`.facts.node_constructs` asks them once per node, for
every profile."""

from __future__ import annotations

import json

from .model import NON_CONSTRAINING

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


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


def tuple_items(node: dict) -> dict | None:
    """Draft-07 (and 2019-09) tuple typing: ``items`` is an array of schemas, one per position,
    with ``additionalItems`` for the rest. 2020-12 writes it ``prefixItems`` + ``items``; a
    2020-12 or OpenAPI reader takes no array under ``items``. The message parameters, or None."""
    items = node.get("items")
    if not isinstance(items, list):
        return None
    extra = node.get("additionalItems", None)
    shown = repr(items)  # as a Python validator prints it (OpenAI's message quotes the list so)
    return {"count": len(items), "additional": "absent" if "additionalItems" not in node else json.dumps(extra),
            "closed": "yes" if extra is False else "no", "value": shown if len(shown) <= 120 else shown[:117] + "..."}


def additional_items_moot(profile, node: dict, at_root: bool, schema=None, via=None) -> bool:
    """Whether ``additionalItems`` constrains nothing a target could drop: beside a single
    ``items`` schema (or none) every draft ignores it, and beside a tuple form the target
    rejects, the rejection speaks for the node."""
    if not isinstance(node.get("items"), list):
        return True
    rule = profile.constructs.get("tuple-items")
    return rule is not None and profile.decide(rule, node, "items", at_root, schema, via).action == "reject"
