"""Projection step: object structure (optional properties made nullable, objects closed,
distinct first keys in `anyOf` branches)."""

from __future__ import annotations

import jsonschema
import pytest

from mcplint import project_schema
from .common import kinds


def test_optional_properties_become_required_and_nullable():
    s = {"type": "object", "required": ["a"], "properties": {
        "a": {"type": "string"}, "b": {"type": "integer", "minimum": 1}, "c": {"enum": ["x", "y"], "type": "string"},
        "d": {"const": 3}, "e": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}
    out, items = project_schema(s, "openai-strict")
    p = out["properties"]
    assert out["required"] == ["a", "b", "c", "d", "e"]
    assert p["a"] == {"type": "string"}
    assert p["b"] == {"type": ["integer", "null"], "minimum": 1}
    assert p["c"] == {"enum": ["x", "y", None], "type": ["string", "null"]}
    assert p["d"] == {"anyOf": [{"const": 3}, {"type": "null"}]}
    assert p["e"] == {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    nullable = sorted(i.pointer for i in items if i.kind == "nullable")
    assert nullable == [("properties", k) for k in "bcde"]
    assert all("null" in i.message and "absent" in i.message for i in items if i.kind == "nullable")
    for v in ({"a": "x", "b": None, "c": None, "d": None, "e": None}, {"a": "x", "b": 2, "c": "y", "d": 3, "e": 1}):
        jsonschema.validate(v, out)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"a": "x"}, out)  # the model must now send every key


def test_openai_agents_requires_a_null_defaulted_property_as_it_is():
    """Decided per property: Optional[X] = None takes null already, so it is required unchanged and
    no nullable note is made for it; a plain optional one is made nullable. A nullable parent object
    does not stand for its properties."""
    s = {"type": ["object", "null"], "additionalProperties": False, "properties": {
        "a": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}, "b": {"type": "string"}}}
    out, items = project_schema(s, "openai-agents")
    assert out["required"] == ["a", "b"]
    # the null default is kept: the SDK removes it itself, so the profile has nothing to say of it
    assert out["properties"]["a"] == {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    assert "default" not in project_schema(s, "openai-strict")[0]["properties"]["a"]  # the API's own rule
    assert out["properties"]["b"] == {"type": ["string", "null"]}
    assert sorted(i.pointer for i in items if i.kind == "nullable") == [("properties", "b")]


def test_optional_properties_stay_optional_where_the_target_allows_them():
    s = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    out, items = project_schema(s, "anthropic-strict")
    assert out == s and items == []


def test_objects_are_closed_and_the_narrowing_is_reported():
    s = {"type": "object", "required": ["m"], "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    out, items = project_schema(s, "anthropic-strict")
    assert out["additionalProperties"] is False and out["properties"]["m"]["additionalProperties"] is False
    k = kinds(items)
    assert {i.pointer for i in k["narrowed"]} == {(), ("properties", "m", "additionalProperties")}
    assert any("only an empty object" in i.message for i in k["narrowed"])
    assert [i.output for i in k["narrowed"] if i.pointer == ()] == [[("additionalProperties",)]]


def test_anyof_branches_get_distinct_first_keys():
    s = {"type": "object", "additionalProperties": False, "required": ["v"], "properties": {"v": {"anyOf": [
        {"type": "object", "additionalProperties": False, "required": ["k", "a"],
         "properties": {"k": {"const": "a"}, "a": {"type": "string"}}},
        {"type": "object", "additionalProperties": False, "required": ["k", "b"],
         "properties": {"k": {"const": "b"}, "b": {"type": "string"}}}]}}}
    out, items = project_schema(s, "openai-strict")
    firsts = [next(iter(b["properties"])) for b in out["properties"]["v"]["anyOf"]]
    assert len(set(firsts)) == 2
    assert ("rewritten", "anyof-shared-first-key") in {(i.kind, i.subject) for i in items}


def test_what_is_done_to_a_typeless_schemas_branches_is_reported_at_that_schema():
    """A schema without a type becomes anyOf string|number|boolean|object, and the object branch is
    then closed for a strict target: that is reported at the property, not at the root (which
    already was closed, and of which the report would have said it was not)."""
    s = {"type": "object", "properties": {"x": {"description": "any"}}, "required": ["x"], "additionalProperties": False}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["x"]["anyOf"][3]["additionalProperties"] is False
    assert items and all(i.pointer == ("properties", "x") for i in items)


def test_openai_agents_js_keeps_an_anyof_once_its_branch_properties_are_required():
    """The SDK refuses an anyOf whose branch holds an optional property it would wrap for null
    (pydantic's Optional[Model] where the model has optional fields): the projection makes those
    properties required and nullable, which it takes, rather than letting the anyOf go. (Every
    projection of the recorded cases and real-server schemas with arguments was then converted
    strict by @openai/agents-core 0.20.0, run here.)"""
    branch = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "number"}},
              "required": ["name"], "additionalProperties": False}
    s = {"type": "object", "properties": {"f": {"anyOf": [branch, {"type": "null"}]}}, "required": ["f"],
         "additionalProperties": False}
    out, items = project_schema(s, "openai-agents-js")
    kept = out["properties"]["f"]["anyOf"][0]
    assert kept["required"] == ["name", "age"] and kept["properties"]["age"] == {"type": ["number", "null"]}
    assert [(i.kind, i.pointer) for i in items] == [("nullable", ("properties", "f", "anyOf", 0, "properties", "age"))]
    # near miss: outside an anyOf the SDK wraps the optional property itself, so it is left optional
    plain = {"type": "object", "properties": {"age": {"type": "number"}}, "additionalProperties": False}
    out, items = project_schema(plain, "openai-agents-js")
    assert out["properties"] == plain["properties"] and out.get("required", []) == [] and items == []
    # and a target that does not refuse the anyOf leaves the branch as it is
    assert project_schema(s, "anthropic-strict")[0]["properties"]["f"]["anyOf"][0] == branch
