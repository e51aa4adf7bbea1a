"""The MCP Inspector's `--strict` schema lint (2.12: boolean-schema, type-union, remote-ref,
untyped-schema) is a subset of mcplint's findings under default settings: each of its shapes
gets a finding from the rule docs/inspector-strict.md maps it to."""

from __future__ import annotations

import pytest

from conftest import lint_json

SHAPES = {  # the Inspector's check -> (a property schema of that shape, mcplint's rule, where)
    "boolean-schema (property)": ({"flag": True}, "MCP108", "/properties/flag"),
    "boolean-schema (items)": ({"tags": {"type": "array", "items": True}}, "SCH112", "/properties/tags/items"),
    "type-union": ({"v": {"type": ["string", "number"]}}, "SCH113", "/properties/v/type"),
    "remote-ref": ({"a": {"$ref": "https://example.com/address.json"}}, "SEC101", "/properties/a/$ref"),
    "untyped-schema (property)": ({"x": {"description": "anything"}}, "SCH108", "/properties/x"),
    "untyped-schema (items)": ({"ids": {"type": "array", "items": {"description": "an id"}}}, "SCH114",
                               "/properties/ids/items"),
}


@pytest.mark.parametrize("check", sorted(SHAPES))
def test_each_inspector_strict_shape_gets_a_finding_under_default_settings(check):
    props, rule, where = SHAPES[check]
    tool = {"name": "t", "description": "A tool.", "inputSchema": {"type": "object", "properties": props}}
    found = {(f.rule, str(f.pointer)) for f in lint_json({"tools": [tool]})}
    assert (rule, "/tools/0/inputSchema" + where) in found, found


def test_the_portable_forms_get_none_of_those_findings():
    tool = {"name": "t", "description": "A tool.", "inputSchema": {"type": "object", "additionalProperties": False,
            "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "number"}], "description": "V value"},
                           "tags": {"type": "array", "items": {"type": "string"}, "description": "Tag list"}}}}
    rules = {rule for _, rule, _ in SHAPES.values()}
    assert not [f for f in lint_json({"tools": [tool]}) if f.rule in rules]
