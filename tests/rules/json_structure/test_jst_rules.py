"""The JST rules on the binding's own examples: its example is clean, the fixes are JSON
patches, plain JSON Schema slots are left alone, and no rule touches the network."""

from __future__ import annotations

import json

from conftest import lint_json
from mcplint.jstruct import check_fallback, to_json_schema, validate_instance
from jstruct.common import CONVERT_TEMP, COUNT, EXTENDED, ZERO_ARG, _tool


def test_binding_example_is_clean_under_every_jst_rule():
    assert lint_json(_tool("convert_temperature", inputSchema=CONVERT_TEMP), select=["JST"]) == []


def test_zero_argument_fix_is_a_patch():
    schema = {k: v for k, v in ZERO_ARG.items() if k != "properties"}
    (f,) = lint_json(_tool("refresh", inputSchema=schema), select=["JST107"])
    assert f.fix.patch == ({"op": "add", "path": "/inputSchema/properties", "value": {"null": {"type": "null"}}},)


def test_big_number_fix_quotes_the_value():
    schema = json.loads(json.dumps(COUNT))
    schema["properties"]["count"]["examples"] = [9007199254740993]
    (f,) = lint_json(_tool("count", inputSchema=schema), select=["JST113"])
    assert f.fix.patch == ({"op": "replace", "path": "/inputSchema/properties/count/examples/0",
                            "value": "9007199254740993"},)


def test_json_schema_slots_are_left_alone():
    tool = _tool("plain", inputSchema={"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}})
    assert lint_json(tool, select=["JST"]) == []


def test_jst_rules_never_touch_the_network(monkeypatch):
    import socket

    def trap(*a, **k):
        raise AssertionError("network access attempted")

    for name in ("create_connection", "getaddrinfo"):
        monkeypatch.setattr(socket, name, trap)
    monkeypatch.setattr(socket.socket, "connect", trap)
    schema = {"$schema": EXTENDED, "$id": "https://evil.test/in", "name": "In", "type": "object",
              "$uses": ["JSONStructureImport"], "$import": "https://evil.test/lib.json",
              "properties": {"a": {"type": {"$ref": "https://evil.test/a.json"}},
                             "b": {"type": "object", "$extends": "http://127.0.0.1:9/b.json",
                                   "properties": {"x": {"type": "string"}}}}}
    found = {f.rule for f in lint_json(_tool("in", inputSchema=schema, outputSchema=schema), select=["JST"])}
    assert {"JST108", "JST109"} <= found
    assert validate_instance(schema, {"a": 1, "b": {"x": "y"}})
    projected, notes = to_json_schema(schema)
    assert notes and check_fallback(schema, projected, samples=20) == []
