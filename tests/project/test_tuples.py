"""Projection step: draft-07's tuple form (``items`` an array, ``additionalItems``), rewritten by
each target's facts: 2020-12 ``prefixItems`` where they are enforced, kept where the target reads
the form itself, else one ``items`` schema reported as weakened."""

from __future__ import annotations

import jsonschema

from conftest import lint_json
from mcplint import project_schema
from mcplint.project.tuples import SCHEMA_2020, as_2020
from .common import kinds

DRAFT7 = "http://json-schema.org/draft-07/schema#"


def _tool(at: dict, **root) -> dict:
    return {**root, "type": "object", "properties": {"at": at}, "required": ["at"], "additionalProperties": False}


CLOSED = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}
FIXED = {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": False,
         "minItems": 2, "maxItems": 2}
REST = {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}


def _valid(schema, value) -> bool:
    return jsonschema.validators.validator_for(schema)(schema).is_valid(value)


def test_where_prefix_items_are_enforced_the_tuple_is_written_with_them_and_means_the_same():
    s = _tool(CLOSED, **{"$schema": DRAFT7})
    out, items = project_schema(s, "gemini")
    # closed by its length, not by 'items: false', which a draft-07 reader would apply to every element
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                                       "maxItems": 2}
    assert out["$schema"] == SCHEMA_2020  # else a reader of the projection would ignore prefixItems
    k = kinds(items)
    assert [i.pointer for i in k["rewritten"] if i.subject == "tuple-items"] == [("properties", "at", "items")]
    assert not [i for i in items if i.changes_values]
    for v, ok in ((["a", 1], True), (["a"], True), ([1, "a"], False), (["a", 1, 2], False)):
        assert _valid(s, {"at": v}) is ok and _valid(out, {"at": v}) is ok, v


def test_a_closed_tuple_is_closed_by_its_length_where_the_target_reads_that_else_by_items_false():
    out, items = project_schema(_tool(CLOSED), "xgrammar")  # xgrammar closes a tuple that maxItems closes
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                                       "maxItems": 2}
    assert not [i for i in items if i.changes_values]
    out, items = project_schema(_tool(CLOSED), "outlines")  # Outlines reads any prefixItems as a fixed tuple
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                                       "items": False}
    assert [(i.kind, i.subject) for i in items if i.changes_values] == [("target-rewrite", "prefixItems")]


def test_the_rest_schema_becomes_items_and_an_open_tuple_stays_open():
    out, items = project_schema(_tool(REST), "llguidance")
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}
    out, _ = project_schema(_tool({"type": "array", "items": [{"type": "string"}]}), "gemini")
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}]}
    assert _valid(out, {"at": ["a", {"any": 1}]})


def test_a_target_that_closes_an_open_tuple_gets_an_explicit_open_rest():
    out, items = project_schema(_tool({"type": "array", "items": [{"type": "string"}]}), "xgrammar")
    assert out["properties"]["at"] == {"type": "array", "prefixItems": [{"type": "string"}], "items": {}}
    assert not [i for i in items if i.changes_values]


def test_where_neither_form_is_enforced_one_items_schema_is_weakened_and_says_where():
    s = _tool(CLOSED)
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["at"] == {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                       "maxItems": 2}
    weak = [i for i in items if i.kind == "weakened" and i.subject == "tuple-items"]
    assert [i.pointer for i in weak] == [("properties", "at", "items")]
    assert "any position" in weak[0].message and "prefixItems" in weak[0].message
    assert not [f for f in lint_json({"name": "t", "inputSchema": out}, profiles=["openai-strict"], select=["DEC"])
                if f.consequence in ("reject", "drop", "weaken")]
    assert _valid(out, {"at": [1, "a"]}) and not _valid({"$schema": DRAFT7, **s}, {"at": [1, "a"]})  # as reported


def test_identical_members_give_that_one_schema_exactly_and_an_open_any_rest_gives_no_items():
    out, items = project_schema(_tool(FIXED), "gemini-openapi")
    assert out["properties"]["at"] == {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
    tup = [i for i in items if i.subject == "tuple-items"]
    assert [i.kind for i in tup] == ["rewritten"] and "same accepted values" in tup[0].message  # nothing is lost
    out, items = project_schema(_tool({"type": "array", "items": [{"type": "number"}] * 3, "additionalItems": False}),
                                "openai-strict")
    assert out["properties"]["at"] == {"type": "array", "items": {"type": "number"}, "maxItems": 3}
    assert [i.kind for i in items if i.subject == "tuple-items"] == ["rewritten"]
    out, items = project_schema(_tool({"type": "array", "items": [{"type": "number"}]}), "xai")
    assert "items" not in out["properties"]["at"] and "maxItems" not in out["properties"]["at"]
    assert [i.subject for i in items if i.kind == "weakened"] == ["tuple-items"]


def test_llama_cpp_keeps_the_tuple_form_it_reads_and_reports_a_tuple_that_may_be_shorter():
    out, items = project_schema(_tool(FIXED), "llama-cpp")  # fixed: prefixItems with its length, exactly
    assert out["properties"]["at"] == {"type": "array", "minItems": 2, "maxItems": 2, "prefixItems": FIXED["items"]}
    assert not [i for i in items if i.changes_values]
    out, items = project_schema(_tool(CLOSED, **{"$schema": DRAFT7}), "llama-cpp")
    assert out["properties"]["at"] == CLOSED and out["$schema"] == DRAFT7  # kept: its dialect stays
    rw = [i for i in items if i.kind == "target-rewrite"]
    assert [(i.subject, i.pointer) for i in rw] == [("tuple-items", ("properties", "at", "items"))]
    assert "fixed tuple of exactly 2 item(s)" in rw[0].message


def test_a_tuple_form_is_not_an_invalid_schema_for_a_target_that_checks_the_2020_12_meta_schema():
    out, items = project_schema(_tool(CLOSED), "anthropic-api")
    assert out is not None and out["properties"]["at"]["prefixItems"] == CLOSED["items"]
    out, items = project_schema(_tool({"type": "array", "items": [{"type": "string"}], "minItems": -1}), "anthropic-api")
    assert out is None and [i.subject for i in items if i.kind == "left-out"] == ["invalid-schema"]


def test_additional_items_beside_one_items_schema_is_removed_without_a_change_of_values():
    s = _tool({"type": "array", "items": {"type": "integer"}, "additionalItems": False})
    out, items = project_schema(s, "xgrammar")
    assert out["properties"]["at"] == {"type": "array", "items": {"type": "integer"}}
    assert [(i.kind, i.subject) for i in items] == [("removed", "additionalItems")]
    out, items = project_schema(s, "llguidance")  # it reads additionalItems: nothing to remove
    assert out == s and items == []


def test_nested_tuples_are_rewritten_inside_out_and_as_2020_covers_every_one():
    inner = {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": False}
    s = _tool({"type": "array", "items": [inner, inner], "additionalItems": False}, **{"$schema": DRAFT7})
    out, items = project_schema(s, "outlines")
    at = out["properties"]["at"]
    assert at["prefixItems"][0] == at["prefixItems"][1] == {"type": "array", "prefixItems": inner["items"], "items": False}
    assert at["items"] is False
    assert sorted(i.pointer for i in items if i.subject == "tuple-items") == [
        ("properties", "at", "items"), ("properties", "at", "items", 0, "items"), ("properties", "at", "items", 1, "items")]
    conv = as_2020(s)
    assert conv["properties"]["at"] == at and s["properties"]["at"]["items"][0] == inner  # input untouched


PYDANTIC_PAIR = {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "minItems": 2, "maxItems": 2}


def test_a_2020_12_tuple_meets_the_same_last_step_where_prefix_items_is_not_enforced():
    # pydantic's tuple[float, float]: for OpenAI strict, exactly one number schema with its length
    out, items = project_schema(_tool(PYDANTIC_PAIR), "openai-strict")
    assert out["properties"]["at"] == {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"}}
    assert [(i.kind, i.subject, i.pointer) for i in items if i.subject == "tuple-items"] == [
        ("rewritten", "tuple-items", ("properties", "at", "prefixItems"))]
    mixed = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    out, items = project_schema(_tool(mixed), "gemini-openapi")
    assert out["properties"]["at"] == {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                       "maxItems": 2}
    assert [i.kind for i in items if i.subject == "tuple-items"] == ["weakened"]
    out, items = project_schema(_tool(PYDANTIC_PAIR), "llguidance")  # enforced there: unchanged
    assert out["properties"]["at"] == PYDANTIC_PAIR and items == []


def test_items_false_after_prefix_items_becomes_max_items_for_a_target_that_refuses_a_boolean_items():
    closed = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    out, items = project_schema(_tool(closed), "llama-cpp")
    assert out["properties"]["at"] == {"type": "array", "prefixItems": closed["prefixItems"], "maxItems": 2}
    assert [(i.kind, i.subject) for i in items] == [("target-rewrite", "prefixItems"), ("rewritten", "items")]
    assert not [f for f in lint_json({"name": "t", "inputSchema": out}, profiles=["llama-cpp"], select=["DEC"])
                if f.consequence in ("reject", "drop", "weaken")]
    out, items = project_schema(_tool(PYDANTIC_PAIR), "llama-cpp")  # a fixed tuple is what llama.cpp generates
    assert out["properties"]["at"] == PYDANTIC_PAIR and items == []
