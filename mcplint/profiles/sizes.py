"""The size of a schema slot as a client sends it, for a client that compacts a schema over a
byte budget (the construct ``schema-over-budget`` of :mod:`.constructs`).

The Codex CLI measures each tool's input schema as compact JSON after it has coerced the schema
into its own subset, and compacts one over its budget as a waterfall: every ``description`` goes
first; if the schema is still over, the root's definitions and the schemas nested deepest (openai/codex
pull requests 23904, 27084 and 31497). :func:`measure` gives the size before the waterfall and
the size once the descriptions are gone, counting only the keys a rule's ``keywords:`` names
(all of them when it names none).
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

# keys whose value is a map of names to schemas (the names are not keywords)
_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})
# keys whose value is data, not a schema
_DATA = frozenset({"enum", "const", "required", "default", "examples", "dependentRequired", "type"})
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_COMBINED = ("anyOf", "oneOf", "allOf", "$ref")


class Size(NamedTuple):
    bytes: int  # compact JSON (UTF-8) of the schema as the client sends it
    descriptions: int  # how many descriptions it holds
    bare: int  # its bytes once every description is removed


def measure(schema: Any, keeps: tuple | None) -> Size:
    """The size of ``schema`` as a client sends it: as written when ``keeps`` is None, else as a
    client that keeps only the keys ``keeps`` names coerces it (an untyped schema given the type
    its other keywords imply, an object without properties given ``properties: {}``, an array
    without items given ``items: {"type": "string"}``, ``const`` written as a one-value ``enum``, a
    boolean schema sent as ``{"type": "string"}``, root definitions no ``$ref`` reaches left out)."""
    sent = schema if keeps is None else _coerced(schema, frozenset(keeps), _refs(schema))
    count = [0]
    bare = _without_descriptions(sent, count)
    return Size(_bytes(sent), count[0], _bytes(bare) if count[0] else _bytes(sent))


def _bytes(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str).encode("utf-8"))


def _refs(schema: Any) -> frozenset:
    """The definitions at the root a ``$ref`` reaches ("$defs/name", "definitions/name"), directly
    or through other definitions."""
    if not isinstance(schema, dict):
        return frozenset()
    found: set = set()
    todo = _ref_values(schema, skip_root_defs=True)
    while todo:
        ref = todo.pop()
        parts = ref[2:].split("/") if ref.startswith("#/") else []
        if len(parts) < 2 or parts[0] not in ("$defs", "definitions"):
            continue
        key = f"{parts[0]}/{parts[1]}"
        if key in found:
            continue
        found.add(key)
        target = (schema.get(parts[0]) or {}).get(parts[1]) if isinstance(schema.get(parts[0]), dict) else None
        todo += _ref_values(target, skip_root_defs=False)
    return frozenset(found)


def _ref_values(node: Any, skip_root_defs: bool) -> list:
    out: list = []
    stack = [(node, skip_root_defs)]
    while stack:
        n, skip = stack.pop()
        if isinstance(n, dict):
            for k, v in n.items():
                if k == "$ref" and isinstance(v, str):
                    out.append(v)
                elif not (skip and k in ("$defs", "definitions")) and k not in _DATA:
                    stack.append((v, False))
        elif isinstance(n, list):
            stack += [(v, False) for v in n]
    return out


def _coerced(node: Any, keeps: frozenset, reached: frozenset, root: bool = True) -> Any:
    if isinstance(node, bool):
        return {"type": "string"}
    if isinstance(node, list):
        return [_coerced(v, keeps, reached, False) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict = {}
    for k, v in node.items():
        if k not in keeps:
            continue
        if k in _MAPS and isinstance(v, dict):
            out[k] = {name: _coerced(sub, keeps, reached, False) for name, sub in v.items()
                      if not (root and k in ("$defs", "definitions")) or f"{k}/{name}" in reached}
            if root and k in ("$defs", "definitions") and not out[k]:
                del out[k]
        elif k in _DATA or (k == "additionalProperties" and isinstance(v, bool)):
            out[k] = v
        else:
            out[k] = _coerced(v, keeps, reached, False)
    if "const" in out:
        out["enum"] = [out.pop("const")]
    types = out.get("type")
    if types is None and not any(k in out for k in _COMBINED):
        types = _implied_type(node, out)
        if types is not None:
            out["type"] = types
    names = types if isinstance(types, list) else [types]
    if "object" in names and "properties" not in out:
        out["properties"] = {}
    if "array" in names and "items" not in out:
        out["items"] = {"type": "string"}
    return out


def _implied_type(node: dict, out: dict) -> str | None:
    if any(k in node for k in ("properties", "required", "additionalProperties")):
        return "object"
    if "items" in node or "prefixItems" in node:
        return "array"
    if "enum" in out or "format" in node:
        return "string"
    if any(k in node for k in _NUMERIC):
        return "number"
    return None


def _without_descriptions(node: Any, count: list, in_map: bool = False) -> Any:
    """``node`` with every description of a schema removed (a property named description stays),
    counting them in ``count[0]``."""
    if isinstance(node, list):
        return [_without_descriptions(v, count) for v in node]
    if not isinstance(node, dict):
        return node
    if in_map:
        return {k: _without_descriptions(v, count) for k, v in node.items()}
    out = {}
    for k, v in node.items():
        if k == "description" and isinstance(v, str):
            count[0] += 1
            continue
        out[k] = v if k in _DATA else _without_descriptions(v, count, k in _MAPS)
    return out
