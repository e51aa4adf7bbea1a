"""The form-mode elicitation ``requestedSchema`` profile of the binding (§9).

mcplint's inputs are tool lists, which carry no elicitation request; this function is
what a linter of captured ``elicitation/create`` requests (or a probe) calls.
"""

from __future__ import annotations

from typing import Any

from ..problems import Problem
from .schema import (check_activation, check_altnames_activation, check_external, check_imports, check_name_and_id,
                     check_root_form, check_valid)
from .walk import schemas

ALLOWED_PRIMITIVES = frozenset({
    "string", "boolean", "number", "integer", "int8", "uint8", "int16", "uint16", "int32", "uint32", "float",
    "double", "date", "datetime", "uri",
})


def _enum_string(s: Any) -> bool:
    return isinstance(s, dict) and s.get("type") == "string" and isinstance(s.get("enum"), list) and bool(s["enum"])


def check_requested_schema(schema: Any) -> list[Problem]:
    """Every way ``schema`` breaks binding §9 (which includes §5): pointers are relative
    to the ``requestedSchema`` root. Empty when the schema fits the profile."""
    if not isinstance(schema, dict):
        return [Problem((), "type", "requestedSchema must be a JSON object")]
    out: list[Problem] = []
    out += check_valid(schema, "requestedSchema")
    out += check_root_form(schema, "requestedSchema")
    out += check_name_and_id(schema)
    out += check_imports(schema)
    out += check_external(schema)
    out += check_activation(schema)
    out += check_altnames_activation(schema)
    if "definitions" in schema:
        out.append(Problem(("definitions",), "definitions", "a requestedSchema must not carry definitions"))
    for node in schemas(schema):
        t = node.schema.get("type")
        refs = [t] if isinstance(t, dict) else [m for m in t if isinstance(m, dict)] if isinstance(t, list) else []
        if any("$ref" in r for r in refs) or "$ref" in node.schema:
            out.append(Problem(node.pointer + ("type",), "$ref", "a requestedSchema must not use $ref"))
    props = schema.get("properties")
    if not isinstance(props, dict) or not props:
        out.append(Problem(("properties",) if "properties" in schema else (), "properties",
                           "a requestedSchema must declare at least one property"))
        return out
    for name, p in props.items():
        ptr = ("properties", name)
        if not isinstance(p, dict):
            out.append(Problem(ptr, "type", "each property must be a schema object"))
            continue
        t = p.get("type")
        if name == "null" and t == "null":
            out.append(Problem(ptr, "properties", "the zero-argument \"null\" property convention is not allowed "
                                                  "in a requestedSchema"))
            continue
        if isinstance(t, str) and t in ALLOWED_PRIMITIVES:
            if "enum" in p and t != "string":
                out.append(Problem(ptr + ("enum",), "enum", "single selection (enum) is allowed on string only"))
            continue
        if t in ("array", "set") and _enum_string(p.get("items")):
            continue
        shown = t if isinstance(t, str) else "a union or reference"
        out.append(Problem(ptr + ("type",) if "type" in p else ptr, "type",
                           f"property type {shown!r} is outside the elicitation profile: use a primitive, a "
                           "string enum, or an array/set of a string enum"))
    return out
