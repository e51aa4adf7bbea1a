"""The binding's own examples and the public API of mcplint.jstruct."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import lint_json
from mcplint.cli import main
from mcplint.jstruct import (META_SCHEMA_URIS, check_fallback, check_requested_schema, is_jstruct, to_json_schema,
                             validate_instance)
from mcplint.jstruct import dialects

from .common import CONVERT_TEMP, CORE, COUNT, EXTENDED, ZERO_ARG, _tool

def test_binding_example_validates_arguments_with_pointers_and_keywords():
    assert validate_instance(CONVERT_TEMP, {"celsius": 21.5}) == []
    assert [(p, k) for p, k, _ in validate_instance(CONVERT_TEMP, {"celsius": -300})] == [(("celsius",), "minimum")]
    assert [(p, k) for p, k, _ in validate_instance(CONVERT_TEMP, {})] == [((), "required")]
    assert [(p, k) for p, k, _ in validate_instance(CONVERT_TEMP, {"celsius": "warm"})] == [(("celsius",), "type")]


def test_what_the_checks_report_is_named():
    """A place the JSON Structure checks report is a named tuple, read by field: an instance's
    error, a note of the projection, a signal of an undeclared JSON Structure schema."""
    from mcplint.jstruct.instance import InstanceError
    from mcplint.jstruct.project import ProjectionNote
    from mcplint.jstruct.schema import Signal, jstruct_signals

    err = validate_instance(CONVERT_TEMP, {"celsius": -300})[0]
    assert type(err) is InstanceError and (err.path, err.keyword) == (("celsius",), "minimum") and err.message
    _, notes = to_json_schema({"type": "object", "properties": {"n": {"type": "nosuchtype"}}})
    assert [type(n) for n in notes] == [ProjectionNote] and notes[0].path == ("properties", "n")
    assert notes[0].text.startswith("unknown type 'nosuchtype'")
    signals = jstruct_signals({"$root": "#/definitions/x", "properties": {"n": {"type": "int64"}}})
    assert [(type(s), s.path) for s in signals] == [(Signal, ("$root",)), (Signal, ("properties", "n", "type"))]
    assert signals[1].what == "type 'int64' is a JSON Structure type"


def test_binding_example_projection_and_fallback():
    projected, notes = to_json_schema(CONVERT_TEMP)
    assert projected["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert projected["properties"]["celsius"] == {"type": "number", "minimum": -273.15}
    assert projected["required"] == ["celsius"] and notes == []
    assert check_fallback(CONVERT_TEMP, projected) == []


def test_fallback_problems():
    too_strict = {"type": "object", "properties": {"celsius": {"type": "integer"}}}
    found = check_fallback(CONVERT_TEMP, too_strict)
    assert found and all("the fallback rejects" in p.message for p in found)
    assert check_fallback(CONVERT_TEMP, CONVERT_TEMP)[0].keyword == "$schema"  # JSON Structure, not JSON Schema
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}
    assert check_fallback(CONVERT_TEMP, draft7)[0].keyword == "$schema"
    assert check_fallback(CONVERT_TEMP, {"type": 12})[0].message.startswith("the fallback is not valid JSON Schema")
    # an accepting fallback is fine, however loose
    assert check_fallback(CONVERT_TEMP, {}) == []


def test_fallback_never_fetches_a_remote_reference(monkeypatch):
    import socket

    def trap(*a, **k):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket, "create_connection", trap)
    monkeypatch.setattr(socket, "getaddrinfo", trap)
    remote = {"type": "object", "properties": {"celsius": {"$ref": "https://schemas.example.com/temp.json"}}}
    found = check_fallback(CONVERT_TEMP, remote)
    assert found and found[0].keyword == "$ref"


# Binding §5.2
def test_zero_argument_convention():
    assert lint_json(_tool("refresh", inputSchema=ZERO_ARG), select=["JST"]) == []
    assert validate_instance(ZERO_ARG, {}) == []
    assert [(p, k) for p, k, _ in validate_instance(ZERO_ARG, {"x": 1})] == [(("x",), "additionalProperties")]
    projected, _ = to_json_schema(ZERO_ARG)
    assert check_fallback(ZERO_ARG, projected) == []


# Binding §6
MAX_RESULTS = {"$schema": EXTENDED, "$id": "https://t.example/s", "name": "SearchInput", "type": "object",
               "$uses": ["JSONStructureAlternateNames"],
               "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}},
               "required": ["maxResults"], "additionalProperties": False}


def test_wire_names_follow_altnames_json():
    assert validate_instance(MAX_RESULTS, {"max-results": 20}) == []
    errors = {(p, k) for p, k, _ in validate_instance(MAX_RESULTS, {"maxResults": 20})}
    assert errors == {((), "required"), (("maxResults",), "additionalProperties")}
    projected, _ = to_json_schema(MAX_RESULTS)
    assert list(projected["properties"]) == ["max-results"] and projected["required"] == ["max-results"]
    # not activated: altnames is ignored (§5.4), the property name is the wire name
    inactive = dict(MAX_RESULTS, **{"$uses": []})
    assert validate_instance(inactive, {"maxResults": 20}) == []


# Binding §7
def test_big_numbers_travel_as_strings():
    assert validate_instance(COUNT, {"count": "9007199254740993", "price": "19.99"}) == []
    errors = validate_instance(COUNT, {"count": 9007199254740993, "price": 19.99})
    assert [(p, k) for p, k, _ in errors] == [(("count",), "type"), (("price",), "type")]
    assert "string" in errors[0][2]
    assert validate_instance(COUNT, {"count": "9223372036854775808"})[0][1] == "type"  # out of int64 range


# Binding §8: nested pointers and keyword names
def test_nested_pointers_and_keywords():
    schema = {"$schema": "https://json-structure.org/meta/validation/v0/#", "$id": "https://t.example/o",
              "name": "OrderInput", "type": "object",
              "properties": {"items": {"type": "array", "items": {"type": {"$ref": "#/definitions/Line"}}},
                             "when": {"type": "date"}},
              "definitions": {"Line": {"type": "object", "properties": {"qty": {"type": "uint16", "minimum": 1},
                                                                        "sku": {"type": "string"}},
                                       "required": ["sku"]}}}
    inst = {"items": [{"sku": "a", "qty": 1}, {"qty": 0}, {"sku": "c", "qty": 70000}], "when": "2025-13-01"}
    got = {(p, k) for p, k, _ in validate_instance(schema, inst)}
    assert got == {(("items", 1), "required"), (("items", 1, "qty"), "minimum"), (("items", 2, "qty"), "type"),
                   (("when",), "type")}


def test_choice_tuple_set_map_and_union():
    schema = {"$schema": CORE, "$id": "https://t.example/x", "name": "X", "type": "object",
              "properties": {
                  "shape": {"type": "choice", "choices": {"circle": {"type": "double"}, "sq": {"type": "double"}}},
                  "pt": {"type": "tuple", "name": "Pt", "properties": {"x": {"type": "int8"}, "y": {"type": "int8"}},
                         "tuple": ["x", "y"]},
                  "tags": {"type": "set", "items": {"type": "string"}},
                  "attrs": {"type": "map", "values": {"type": "uuid"}},
                  "either": {"type": ["int32", "string"]}}}
    ok = {"shape": {"circle": 1.5}, "pt": [1, 2], "tags": ["a", "b"],
          "attrs": {"k": "123e4567-e89b-12d3-a456-426614174000"}, "either": "s"}
    assert validate_instance(schema, ok) == []
    bad = {"shape": {"tri": 1}, "pt": [1, 200, 3], "tags": ["a", "a"], "attrs": {"k": "nope"}, "either": 1.5}
    got = {(p, k) for p, k, _ in validate_instance(schema, bad)}
    assert got == {(("shape", "tri"), "choices"), (("pt",), "tuple"), (("pt", 1), "type"), (("tags", 1), "type"),
                   (("attrs", "k"), "type"), (("either",), "type")}


# Binding §3.1
def test_is_jstruct_and_dialects():
    for uri in META_SCHEMA_URIS:
        assert is_jstruct({"$schema": uri}) and is_jstruct({"$schema": uri.rstrip("#")})
    assert not is_jstruct({"$schema": "https://json-schema.org/draft/2020-12/schema"})
    assert not is_jstruct({"type": "object"}) and not is_jstruct(True) and not is_jstruct(None)
    assert not is_jstruct({"$schema": "https://json-structure.github.io/meta/core/v0/#"})  # stale variant
    assert dialects.offered(CORE) == frozenset()
    assert "JSONStructureValidation" in dialects.offered(EXTENDED)
    assert dialects.default_active(EXTENDED) == frozenset()
    assert "JSONStructureAlternateNames" in dialects.default_active("https://json-structure.org/meta/validation/v0/#")
    assert "JSONStructureSemanticAnnotations" in dialects.offered(
        "https://json-structure.org/meta/semantic-annotations/v0/#")


# Binding §9
REQUESTED = {"$schema": CORE, "$id": "https://t.example/ask", "name": "AskInput", "type": "object",
             "properties": {"email": {"type": "string"}, "age": {"type": "uint8"}, "when": {"type": "date"},
                            "colour": {"type": "string", "enum": ["red", "green"]},
                            "toppings": {"type": "set", "items": {"type": "string", "enum": ["a", "b"]}}},
             "required": ["email"]}


def test_elicitation_profile_accepts_the_allowed_types():
    assert check_requested_schema(REQUESTED) == []


@pytest.mark.parametrize("change,pointer,keyword", [
    ({"properties": {"addr": {"type": "object", "properties": {"c": {"type": "string"}}}}}, ("properties", "addr", "type"), "type"),
    ({"properties": {"id": {"type": "int64"}}}, ("properties", "id", "type"), "type"),
    ({"properties": {"tags": {"type": "array", "items": {"type": "string"}}}}, ("properties", "tags", "type"), "type"),
    ({"properties": {"n": {"type": "int32", "enum": [1, 2]}}}, ("properties", "n", "enum"), "enum"),
    ({"properties": {"null": {"type": "null"}}, "additionalProperties": False}, ("properties", "null"), "properties"),
    ({"properties": {"p": {"type": {"$ref": "#/definitions/P"}}}, "definitions": {"P": {"type": "string"}}},
     ("definitions",), "definitions"),
    ({"properties": {"p": {"type": {"$ref": "#/definitions/P"}}}, "definitions": {"P": {"type": "string"}}},
     ("properties", "p", "type"), "$ref"),
    ({"type": "map", "values": {"type": "string"}, "properties": {"a": {"type": "string"}}}, ("type",), "type"),
])
def test_elicitation_profile_violations(change, pointer, keyword):
    schema = dict(REQUESTED, **change)
    schema.pop("required", None)
    found = {(p.path, p.keyword) for p in check_requested_schema(schema)}
    assert (pointer, keyword) in found, found


def test_elicitation_needs_a_property():
    schema = {k: v for k, v in REQUESTED.items() if k not in ("properties", "required")}
    assert ((), "properties") in {(p.path, p.keyword) for p in check_requested_schema(schema)}


# CLI
def test_cli_project(tmp_path):
    src = tmp_path / "in.json"
    src.write_text(json.dumps(MAX_RESULTS))
    r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["properties"] == {"max-results": {"type": "integer", "minimum": -2**31,
                                                                  "maximum": 2**31 - 1}}
    out = tmp_path / "out.json"
    r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema", "-o", str(out)])
    assert r.exit_code == 0 and json.loads(out.read_text())["required"] == ["max-results"]


def test_cli_project_a_tools_file(tmp_path):
    """Given a tools file, every JSON Structure slot is projected in place, the rest is left as it
    is, and each note names its pointer in the file."""
    from mcplint.jstruct import to_json_schema

    odd = {"$schema": CORE, "$id": "https://t.example/o", "name": "Odd", "type": "object",
           "properties": {"n": {"type": "nosuchtype"}}}
    plain = {"type": "object", "properties": {"q": {"type": "string"}}}
    doc = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "search", "inputSchema": MAX_RESULTS},
        {"name": "plain", "inputSchema": plain},
        {"name": "odd", "inputSchema": plain, "outputSchema": odd}]}}
    src = tmp_path / "tools.json"
    src.write_text(json.dumps(doc, indent=1))
    r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    tools = out["result"]["tools"]
    assert tools[0]["inputSchema"] == to_json_schema(MAX_RESULTS)[0]
    assert tools[1] == doc["result"]["tools"][1] and tools[2]["inputSchema"] == plain
    assert tools[2]["outputSchema"] == to_json_schema(odd)[0] and out["jsonrpc"] == "2.0"
    assert f"{src}:/result/tools/2/outputSchema/properties/n: note: unknown type 'nosuchtype'" in r.stderr
    for tools in ([{"name": "plain", "inputSchema": plain}], []):
        src.write_text(json.dumps({"tools": tools}))
        r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema"])
        assert r.exit_code == 2 and "no tool's inputSchema or outputSchema names a JSON Structure" in r.output


def test_cli_project_bad_input(tmp_path):
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}))
    r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema"])
    assert r.exit_code == 2 and "not a JSON Structure schema" in r.output and "in.json:1:" in r.output
    src.write_text("{")
    r = CliRunner().invoke(main, ["project", str(src), "--to", "json-schema"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["project", str(src), "--to", "avro"])
    assert r.exit_code == 2


def test_signal_prefilter_never_hides_a_signal():
    """jstruct_signals skips its walk when the schema's encoding holds no JSON Structure type
    name and no object-valued `type`: every signal the walk finds must survive the filter."""
    from mcplint.jstruct.keywords import JSTRUCT_ONLY_TYPES
    from mcplint.jstruct.schema import _may_signal, jstruct_signals
    from mcplint.schemawalk import encoded

    cases = [{"type": "object", "properties": {"n": {"type": name}}} for name in sorted(JSTRUCT_ONLY_TYPES)]
    cases += [{"type": "object", "properties": {"n": {"type": ["null", "int64"]}}},
              {"definitions": {"ns": {"T": {"type": {"$ref": "#/definitions/x"}}}}},
              {"type": "object", "properties": {"é\u2028": {"type": "decimal", "description": "\x00"}}}]
    for schema in cases:
        assert jstruct_signals(schema), schema
        assert _may_signal(encoded(schema)), schema
    plain = {"type": "object", "properties": {"t": {"type": "string", "description": "an int64 or a map"}}}
    assert not _may_signal(encoded(plain)) and jstruct_signals(plain) == []
    named = {"type": "object", "properties": {"int64": {"type": "string", "format": "uuid"}}}  # names, not types
    assert not _may_signal(encoded(named)) and jstruct_signals(named) == []
    assert not _may_signal(encoded({"type": ["object", "null"], "properties": {"a": {"type": ["string", "null"]}}}))
    assert _may_signal(encoded({"type": ["null", {"odd": 1}]}))  # not a plain name list: the walk decides
    member = {"type": "object", "properties": {"type": {"type": ["string", "null"]}}}  # a property called type
    assert not _may_signal(encoded(member)) and jstruct_signals(member) == []  # no $ref: no {"$ref"} type
    member = {"type": "object", "properties": {"type": {"$ref": "#/$defs/t"}}, "$defs": {"t": {"type": "string"}}}
    assert _may_signal(encoded(member)) and jstruct_signals(member) == []  # the walk decides


def test_signal_prefilter_agrees_with_the_walk_on_real_schemas():
    """Over every slot of the real servers' results: where the filter finds nothing, the walk
    (forced by hiding the encoding) finds nothing either."""
    import json
    from pathlib import Path

    from mcplint.jstruct import schema as jschema
    from mcplint.schemawalk import Walks, encoded

    class NoEncoding(Walks):
        __slots__ = ()

        def encoded(self, schema):
            return None

    slots = []
    for f in sorted((Path(__file__).parent.parent / "data" / "corpus").glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        tools = data.get("tools") or data.get("result", {}).get("tools") or []
        slots += [t[k] for t in tools for k in ("inputSchema", "outputSchema") if isinstance(t.get(k), dict)]
    assert len(slots) > 100
    filtered = [s for s in slots if not jschema._may_signal(encoded(s))]
    assert filtered  # most real schemas are plain JSON Schema
    assert [s for s in filtered if jschema.jstruct_signals(s, NoEncoding())] == []
