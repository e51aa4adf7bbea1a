"""The projector as a whole: its API, an exact projection, a target dialect end to end,
schemas deeper than the interpreter's stack."""

from __future__ import annotations

import jsonschema

from mcplint import project_schema
from mcplint.project import to_validation_schema
from .common import HOSTED


def test_api_is_exported_lazily():
    import mcplint

    assert mcplint.project_schema is project_schema


def test_gemini_openapi_dialect():
    s = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "properties": {"a": {"type": ["string", "null"]}, "b": {"const": "x"}, "c": {"type": ["string", "integer"]},
                        "d": {"type": "integer", "enum": [1, 2]}, "e": {"description": "anything"}}}
    out, items = project_schema(s, "gemini-openapi")
    p = out["properties"]
    assert "$schema" not in out
    assert p["a"] == {"type": "string", "nullable": True}
    # Gemini's OpenAPI dialect takes an enum only beside type: string, so the const's enum is typed by its value
    assert p["b"] == {"type": "string", "enum": ["x"]}
    assert p["c"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert p["d"] == {"type": "integer"}
    assert "anyOf" in p["e"]
    k = {(i.kind, i.subject) for i in items}
    assert ("removed", "$schema") in k and ("weakened", "enum") in k and ("narrowed", "untyped-schema") in k
    v = to_validation_schema(out, "gemini-openapi")
    jsonschema.validate({"a": None, "b": "x", "c": 3}, v)


def test_exact_projection_has_no_changes():
    s = {"type": "object", "additionalProperties": False, "required": ["a"], "properties": {"a": {"type": "string"}}}
    for prof in HOSTED:
        schema = {k: v for k, v in s.items() if k != "additionalProperties"} if prof == "gemini-openapi" else s
        out, items = project_schema(schema, prof)
        assert out == schema and not [i for i in items if i.changes_values], prof


def test_deep_schema_does_not_exhaust_the_stack():
    node = {"type": "object", "additionalProperties": False, "required": ["n"], "properties": {}}
    root = node
    for _ in range(1500):  # deeper than the interpreter's recursion limit
        child = {"type": "object", "additionalProperties": False, "required": ["n"], "properties": {}}
        node["properties"]["n"] = child
        node = child
    out, items = project_schema(root, "anthropic-strict")
    assert out is not None
