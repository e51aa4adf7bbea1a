"""Projection step: combinators (`oneOf` to `anyOf`, `allOf` merged, object keywords
beside `anyOf` distributed)."""

from __future__ import annotations

from mcplint import project_schema


def test_oneof_disjoint_becomes_anyof_exactly():
    s = {"type": "object", "required": ["v"], "additionalProperties": False,
         "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["v"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert [(i.kind, i.subject, i.pointer) for i in items] == [("rewritten", "oneOf", ("properties", "v", "oneOf"))]


def test_oneof_overlapping_becomes_anyof_and_is_reported_weakened():
    s = {"type": "object", "required": ["v"], "additionalProperties": False,
         "properties": {"v": {"oneOf": [{"type": "number"}, {"type": "integer"}]}}}
    out, items = project_schema(s, "openai-strict")
    assert "anyOf" in out["properties"]["v"] and "oneOf" not in out["properties"]["v"]
    (it,) = items
    assert (it.kind, it.subject, it.pointer) == ("weakened", "oneOf", ("properties", "v", "oneOf"))
    assert "exactly one" in it.message


def test_oneof_kept_where_the_target_enforces_disjoint_branches():
    s = {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}
    out, items = project_schema(s, "llguidance")
    assert out == s and items == []


def test_allof_is_merged_into_its_parent():
    s = {"type": "object", "additionalProperties": False, "required": ["x"], "properties": {"x": {"allOf": [
        {"type": "integer", "minimum": 0}, {"maximum": 9, "minimum": 2}]}}}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["x"] == {"type": "integer", "minimum": 2, "maximum": 9}
    assert [(i.kind, i.subject) for i in items] == [("rewritten", "allOf")]


def test_allof_conflict_keeps_one_side_and_says_so():
    s = {"type": "object", "additionalProperties": False, "required": ["x"], "properties": {"x": {"allOf": [
        {"type": "string", "pattern": "^a"}, {"pattern": "b$"}]}}}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["x"] == {"type": "string", "pattern": "^a"}
    assert ("weakened", "pattern", ("properties", "x", "allOf", 1, "pattern")) in \
        [(i.kind, i.subject, i.pointer) for i in items]


def test_properties_beside_anyof_are_distributed_for_outlines():
    s = {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string"}},
         "anyOf": [{"required": ["a"]}, {"properties": {"b": {"type": "integer"}}}]}
    out, items = project_schema(s, "outlines")
    assert "properties" not in out and all("properties" in b for b in out["anyOf"])
    assert ("rewritten", "properties-beside-combinator") in {(i.kind, i.subject) for i in items}
