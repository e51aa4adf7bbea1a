"""JSON values as JSON sees them: a parsed value's JSON type, equality, and nesting depth."""

from __future__ import annotations

from typing import Any

# The largest integer a JSON receiver is expected to hold exactly (RFC 7493, I-JSON, section 2.2:
# integers outside [-(2**53)+1, (2**53)-1] are not interoperable as exact values).
SAFE_INTEGER = 2**53 - 1


def json_kind(v: Any, integer: bool = False) -> str:
    """The JSON type of a parsed value: null, boolean, number, string, array or object
    (``integer=True``: a whole number parsed as an int is "integer", as JSON Schema's ``type``
    names it)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer" if integer else "number"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def json_equal(a: Any, b: Any) -> bool:
    """Equality of two JSON values as JSON sees them: ``1 == 1.0``, ``true != 1``, key order
    ignored. Iterative, so any depth is safe."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        kx, ky = json_kind(x), json_kind(y)
        if kx != ky:
            return False
        if kx == "array":
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif kx == "object":
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether arrays and objects in ``value`` nest deeper than ``limit`` levels. Iterative."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > limit:
                return True
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def depth_of(value: Any) -> int:
    """Nesting depth of any JSON value (objects and arrays), iteratively."""
    best = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            best = max(best, d)
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            best = max(best, d)
            stack.extend((x, d + 1) for x in v)
    return best
