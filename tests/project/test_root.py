"""Projection step: the root of `inputSchema` (typed, merged, or the tool left out)."""

from __future__ import annotations

from mcplint import project_schema


def test_root_combinator_is_merged_into_one_object():
    s = {"type": "object", "properties": {"q": {"type": "string"}},
         "anyOf": [{"required": ["q"]}, {"properties": {"id": {"type": "integer"}}, "required": ["id"]}]}
    out, items = project_schema(s, "anthropic-strict")
    assert "anyOf" not in out
    assert any(i.kind == "weakened" and i.subject == "root-combinator" and i.pointer == ("anyOf",) for i in items)


def test_root_oneof_keeps_keys_only_some_branches_name():
    s = {"type": "object", "oneOf": [{"properties": {"x": {"type": "integer"}}, "required": ["x"]},
                                     {"properties": {"x": {"type": "string"}, "y": {"type": "boolean"}},
                                      "required": ["x", "y"]}]}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["x"] == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert "y" in out["properties"] and "x" in out["required"]
    (it,) = [i for i in items if i.subject == "root-combinator"]
    assert it.kind == "weakened" and it.pointer == ("oneOf",) and "'oneOf'" in it.message


def test_root_that_is_not_an_object_is_left_out():
    out, items = project_schema({"type": "array", "items": {"type": "string"}}, "openai-strict")
    assert out is None
    (it,) = [i for i in items if i.kind == "left-out"]
    assert it.pointer == ("type",) and "cannot be projected" in it.message


def test_untyped_root_becomes_object():
    out, items = project_schema({"properties": {"a": {"type": "string"}}, "required": ["a"]}, "openai-strict")
    assert out["type"] == "object"
    assert ("rewritten", "root-not-object") in {(i.kind, i.subject) for i in items}
