"""JSON Structure under the MCP binding (draft-vasters-json-structure-mcp-binding).

Public API (other parts of mcplint call these):

* :func:`is_jstruct` (schema) -> bool: the slot selects a recognised JSON Structure
  meta-schema in ``$schema`` (§3.1).
* :func:`validate_instance` (schema, instance) -> [InstanceError(path, keyword, message)]
  (§8): arguments or structured results against a bound slot.
* :func:`check_fallback` (jstruct_schema, fallback_schema) -> [Problem] (§4.1).
* :func:`to_json_schema` (schema) -> (json_schema, [ProjectionNote(path, text)]): mcplint's
  §4.1 projection.
* :func:`check_requested_schema` (schema) -> [Problem]: the §9 elicitation profile.
* ``META_SCHEMA_URIS``: the recognised ``$schema`` values.

Heavy modules (the ``json-structure`` package, jsonschema) load only when used.
"""

from __future__ import annotations

from .dialects import META_SCHEMA_URIS, is_jstruct


def __getattr__(name: str):
    # validate_instance and Problem load on first use: a scan of plain JSON Schema needs neither
    if name == "validate_instance":
        from .instance import validate_instance

        return validate_instance
    if name == "Problem":
        from ..problems import Problem

        return Problem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_fallback(jstruct_schema, fallback_schema, samples: int = 200, seed: int = 0):
    from .fallback import check_fallback as run

    return run(jstruct_schema, fallback_schema, samples, seed)


def to_json_schema(schema):
    from .project import to_json_schema as run

    return run(schema)


def check_requested_schema(schema):
    from .elicitation import check_requested_schema as run

    return run(schema)


__all__ = ["META_SCHEMA_URIS", "Problem", "is_jstruct", "validate_instance", "check_fallback", "to_json_schema",
           "check_requested_schema"]
