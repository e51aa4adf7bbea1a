"""``--call``: one set of arguments per tool that its own inputSchema rejects.

The arguments are checked against the schema with the jsonschema validator before they
are sent (no reference is ever retrieved); when no simple invalid value can be built,
or the schema cannot be evaluated offline, the tool is not called.
"""

from __future__ import annotations

from typing import Any

WRONG = {"string": 12345, "integer": "not-a-number", "number": "not-a-number", "boolean": "not-a-boolean",
         "object": 12345, "array": 12345, "null": 12345}


def _candidates(schema: dict) -> list[dict]:
    out: list[dict] = []
    required = schema.get("required")
    if isinstance(required, list) and required:
        out.append({})  # a required argument missing
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            if isinstance(sub, dict) and isinstance(sub.get("type"), str) and sub["type"] in WRONG:
                out.append({name: WRONG[sub["type"]]})  # a wrongly typed argument
    if schema.get("additionalProperties") is False:
        out.append({"mcplint_unexpected_argument": 1})
    return out


def invalid_arguments(schema: Any) -> dict | None:
    """Arguments ``schema`` rejects, or None."""
    if not isinstance(schema, dict):
        return None
    try:
        from jsonschema.validators import validator_for
        from referencing import Registry

        cls = validator_for(schema)
        validator = cls(schema, registry=Registry())  # an empty registry: nothing is retrieved
        for args in _candidates(schema):
            if not validator.is_valid(args):
                return args
    except Exception:  # an unusual schema this check cannot evaluate offline: do not call
        return None
    return None
