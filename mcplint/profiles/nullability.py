"""How the OpenAI Agents SDK for JavaScript (``@openai/agents-core``) decides, when it makes an
MCP tool's schema strict, whether an optional property already takes null.

Its strict conversion (``utils/strictToolSchema``) lists every property in ``required``. An
optional property whose schema does not take null is wrapped as ``anyOf: [schema, {type:
null}]``, and a null the model sends there is removed from the arguments before the server sees
them: the property stays optional in effect. One whose schema takes null is only added to
``required``, and a null is passed on. Where the SDK cannot tell, it refuses the conversion
and sends the tool non-strict; it also refuses an ``anyOf`` branch that holds such a wrapped
property anywhere inside, since it never works out which branch the model's value took.

These are the SDK's own rules (``getJsonSchemaNullability`` and
``jsonSchemaRequiresSyntheticNullStripping`` in 0.20.0), not JSON Schema's meaning of the
schema: a schema without ``type``, ``enum``, ``const`` or ``anyOf`` counts as taking null,
``oneOf`` and ``allOf`` are not looked into (the conversion refuses them anyway), and a
reference followed twice is unknown. Pure functions of the node and its slot's schema.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

ALLOWS, DISALLOWS, UNKNOWN = "allows", "disallows", "unknown"
_UNSET = object()


def is_null_type(t) -> bool:
    """A ``type`` value that names null (alone or in a type array)."""
    return t == "null" or (isinstance(t, list) and "null" in t)


def resolve_local(ref, root) -> Any:
    """The target of a ``#``-relative reference in ``root`` as the SDK resolves it (percent-decoded,
    ``~0``/``~1`` unescaped, own members only), or ``_UNSET`` when it does not resolve."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return _UNSET
    if ref == "#":
        return root
    try:
        pointer = unquote(ref[1:], errors="strict")
    except UnicodeDecodeError:
        return _UNSET
    if not pointer.startswith("/"):
        return _UNSET  # an anchor such as '#num'
    current = root
    for raw in pointer[1:].split("/"):
        i = 0
        while (i := raw.find("~", i)) != -1:
            if raw[i + 1:i + 2] not in ("0", "1"):
                return _UNSET
            i += 2
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(current, dict) and token in current:
            current = current[token]
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current) and \
                (token == "0" or not token.startswith("0")):
            current = current[int(token)]
        else:
            return _UNSET
    return current


def ref_resolves(ref, root) -> bool:
    """Whether the SDK can resolve ``ref`` inside the slot (an anchor, a remote reference or a
    dangling pointer cannot: it refuses the conversion)."""
    return resolve_local(ref, root) is not _UNSET


def nullability(schema, root, seen: frozenset = frozenset(), depth: int = 0) -> str:
    """``allows``, ``disallows`` or ``unknown``: whether the SDK takes ``schema`` to accept null."""
    if schema is True:
        return ALLOWS
    if schema is False:
        return DISALLOWS
    if not isinstance(schema, dict) or depth > 100:
        return UNKNOWN
    if "type" in schema:
        t = schema["type"]
        if not isinstance(t, (str, list)):
            return UNKNOWN
        if not is_null_type(t):
            return DISALLOWS
    if "enum" in schema:
        if not isinstance(schema["enum"], list):
            return UNKNOWN
        if None not in schema["enum"]:
            return DISALLOWS
    if "const" in schema and schema["const"] is not None:
        return DISALLOWS
    if "$ref" in schema:
        ref = schema["$ref"]
        target = resolve_local(ref, root) if isinstance(ref, str) and ref not in seen else _UNSET
        found = UNKNOWN if target is _UNSET else nullability(target, root, seen | {ref}, depth + 1)
        if found != ALLOWS:
            return found
    if "anyOf" in schema:
        branches = schema["anyOf"]
        if not isinstance(branches, list):
            return UNKNOWN
        found = [nullability(b, root, seen, depth + 1) for b in branches]
        if ALLOWS in found:
            return ALLOWS
        return DISALLOWS if all(f == DISALLOWS for f in found) else UNKNOWN
    if "type" not in schema and isinstance(schema.get("properties"), dict):
        return DISALLOWS  # the conversion types such a schema as an object
    return ALLOWS


def _converts_properties(schema: dict) -> bool:
    t = schema.get("type")
    return isinstance(schema.get("properties"), dict) and (
        t == "object" or (isinstance(t, list) and "object" in t) or "type" not in schema)


def wraps_for_null(schema, root, _active: frozenset = frozenset(), depth: int = 0) -> bool:
    """Whether the conversion wraps some optional property inside ``schema`` for null (one whose
    schema does not take null), looking through local references, ``anyOf``, ``properties`` and
    ``items``: the case the SDK refuses inside an ``anyOf`` branch."""
    if not isinstance(schema, dict) or id(schema) in _active or depth > 100:
        return False
    active = _active | {id(schema)}
    if isinstance(schema.get("$ref"), str):
        target = resolve_local(schema["$ref"], root)
        return target is not _UNSET and wraps_for_null(target, root, active, depth + 1)
    if isinstance(schema.get("anyOf"), list):
        return any(wraps_for_null(b, root, active, depth + 1) for b in schema["anyOf"])
    props = schema["properties"] if _converts_properties(schema) else {}
    req = schema.get("required")
    req = {str(r) for r in req} if isinstance(req, list) else set()
    for key, sub in props.items():
        if key not in req and nullability(sub, root, depth=depth + 1) == DISALLOWS:
            return True
        if wraps_for_null(sub, root, active, depth + 1):
            return True
    items = schema.get("items")
    if isinstance(items, list):
        return any(wraps_for_null(i, root, active, depth + 1) for i in items)
    return wraps_for_null(items, root, active, depth + 1)
