"""The validation gateway: mcplint.validate_arguments / validate_result and `mcplint validate`."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import mcplint
from mcplint.cli import main
from mcplint.validate import (INCOMPLETE, INPUT_MISMATCH, MIRROR_MISMATCH, MIRROR_MISSING, MISSING_STRUCTURED,
                              OUTPUT_MISMATCH, RESULT_SHAPE, RESULT_TYPE, STRUCTURED_ERROR, VERSION_FIELD, Limits,
                              json_equal)

EXAMPLES = Path(__file__).parent / "data" / "mcp-examples"

WEATHER = {
    "name": "get_weather_data",
    "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}, "days": {"type": "integer"}},
                    "required": ["location"]},
    "outputSchema": {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]},
}
USERS = {
    "name": "list_users",
    "inputSchema": {"type": "object"},
    "outputSchema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}},
                                                 "required": ["id"]}},
}


def ok(sc, text=None, **extra):
    content = [{"type": "text", "text": json.dumps(sc) if text is None else text}]
    return {"resultType": "complete", "content": content, "structuredContent": sc, **extra}


def summary(problems):
    return sorted((p.code, p.pointer, p.keyword, p.severity) for p in problems)


@pytest.fixture
def no_network(monkeypatch):
    def trap(*a, **k):
        raise AssertionError(f"network access attempted: {a!r}")

    monkeypatch.setattr(socket.socket, "connect", trap)
    monkeypatch.setattr(socket, "create_connection", trap)
    monkeypatch.setattr(socket, "getaddrinfo", trap)


# ------------------------------------------------------------------ arguments

def test_valid_arguments_have_no_problems():
    assert mcplint.validate_arguments(WEATHER, {"location": "Paris", "days": 3}) == []


def test_each_failing_location_is_a_pointer_into_the_arguments():
    problems = mcplint.validate_arguments(WEATHER, {"days": "3"})
    assert summary(problems) == [(INPUT_MISMATCH, "", "required", "error"),
                                 (INPUT_MISMATCH, "/days", "type", "error")]
    days = next(p for p in problems if p.keyword == "type")
    assert days.path == ("days",) and days.schema_pointer == "/inputSchema/properties/days/type"
    assert "'3' is not of type 'integer'" in days.message and days.is_error


def test_pointers_escape_tilde_and_slash_and_use_array_indices():
    tool = {"inputSchema": {"type": "object", "properties": {"a/b": {"type": "array", "items": {
        "type": "object", "properties": {"c~d": {"type": "integer"}}}}}}}
    (p,) = mcplint.validate_arguments(tool, {"a/b": [{"c~d": 1}, {"c~d": "x"}]})
    assert p.pointer == "/a~1b/1/c~0d" and p.path == ("a/b", 1, "c~d")


def test_draft_07_is_used_when_declared():
    tool = json.loads((EXAMPLES / "2026-07-28/Tool/with-explicit-draft-07-input-schema.json").read_text())
    assert mcplint.validate_arguments(tool, {"a": 1, "b": 2.5}) == []
    assert summary(mcplint.validate_arguments(tool, {"a": "1"})) == [
        (INPUT_MISMATCH, "", "required", "error"), (INPUT_MISMATCH, "/a", "type", "error")]
    # draft-07 array-form items + additionalItems: a 2020-12 reading would differ
    pair = {"inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                            "properties": {"p": {"items": [{"type": "string"}], "additionalItems": False}}}}
    assert summary(mcplint.validate_arguments(pair, {"p": ["a", "b"]})) == [
        (INPUT_MISMATCH, "/p", "additionalItems", "error")]
    as_2020 = {"inputSchema": {k: v for k, v in pair["inputSchema"].items() if k != "$schema"}}
    (p,) = mcplint.validate_arguments(as_2020, {"p": ["a", "b"]})
    assert p.code == INCOMPLETE and "not valid JSON Schema 2020-12" in p.message


def test_unknown_dialect_is_reported_not_read_as_2020_12():
    tool = {"inputSchema": {"$schema": "https://example.com/my-dialect", "type": "object",
                            "properties": {"a": {"type": "integer"}}}}
    (p,) = mcplint.validate_arguments(tool, {"a": "not checked"})
    assert (p.code, p.keyword, p.severity) == (INCOMPLETE, "$schema", "error")
    assert "unsupported schema dialect" in p.message


def test_external_ref_is_refused_without_network(no_network):
    tool = {"inputSchema": {"$id": "https://tools.example.com/in.json", "type": "object", "properties": {
        "a": {"$ref": "https://evil.test/a.json"}, "b": {"$ref": "other.json#/x"}, "c": {"type": "integer"}}}}
    problems = mcplint.validate_arguments(tool, {"a": 1, "b": 2, "c": "x"})
    assert summary(problems) == [(INCOMPLETE, "/a", "$ref", "error"), (INCOMPLETE, "/b", "$ref", "error"),
                                 (INPUT_MISMATCH, "/c", "type", "error")]
    messages = " ".join(p.message for p in problems)
    assert "external $ref not fetched: 'https://evil.test/a.json'" in messages
    assert "https://tools.example.com/other.json" in messages  # resolved against $id, still not fetched


def test_local_refs_resolve_and_missing_ones_are_reported():
    tool = {"inputSchema": {"type": "object", "$defs": {"pos": {"type": "integer", "minimum": 1}},
                            "properties": {"n": {"$ref": "#/$defs/pos"}, "m": {"$ref": "#/$defs/nope"}}}}
    problems = mcplint.validate_arguments(tool, {"n": 0, "m": 1})
    assert summary(problems) == [(INCOMPLETE, "/m", "$ref", "error"), (INPUT_MISMATCH, "/n", "minimum", "error")]


def test_bad_schemas_are_problems_not_crashes():
    for schema in ({"type": "object", "properties": {"a": {"type": "strng"}}}, "not a schema",
                   {"type": "object", "properties": {"a": {"type": "string", "pattern": "(["}}}):
        problems = mcplint.validate_arguments({"inputSchema": schema}, {"a": "x"})
        assert problems and all(p.code == INCOMPLETE and p.is_error for p in problems), problems
    assert mcplint.validate_arguments({"name": "x"}, {})[0].keyword == "inputSchema"
    with pytest.raises(TypeError):
        mcplint.validate_arguments(["not", "a", "tool"], {})


def test_pathological_inputs_are_bounded():
    # catastrophic backtracking: stopped by the time budget, reported, no hang
    redos = {"inputSchema": {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|a)*$"}}}}
    start = time.process_time()  # CPU time: a busy machine does not fail this
    (p,) = mcplint.validate_arguments(redos, {"s": "a" * 40 + "!"}, limits=Limits(timeout=0.3))
    assert time.process_time() - start < 2 and (p.code, p.keyword) == (INCOMPLETE, "timeout")
    # a $ref cycle that never consumes the instance
    cycle = {"inputSchema": {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}}
    (p,) = mcplint.validate_arguments(cycle, {})
    assert (p.code, p.keyword) == (INCOMPLETE, "$ref")
    # 100k-deep arguments
    deep: dict = {}
    for _ in range(100_000):
        deep = {"a": deep}
    (p,) = mcplint.validate_arguments({"inputSchema": {"type": "object"}}, deep)
    assert (p.code, p.keyword) == (INCOMPLETE, "depth")
    # 5k-deep schema
    schema: dict = {"type": "object"}
    for _ in range(5_000):
        schema = {"properties": {"a": schema}}
    assert mcplint.validate_arguments({"inputSchema": schema}, {})[0].code == INCOMPLETE


def test_json_structure_schemas_dispatch_to_jstruct(monkeypatch):
    tool = {"inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://x.example/t",
                            "name": "T", "type": "object", "properties": {"n": {"type": "int32"}}}}
    monkeypatch.setitem(sys.modules, "mcplint.jstruct", None)  # not installed: never a silent pass
    monkeypatch.delattr(mcplint, "jstruct", raising=False)  # an earlier import binds it on the package
    (p,) = mcplint.validate_arguments(tool, {"n": "x"})
    assert (p.code, p.keyword, p.severity) == (INCOMPLETE, "$schema", "error")
    assert "JSON Structure validation is not available" in p.message

    calls = []

    def validate_instance(schema, instance):
        calls.append((schema, instance))
        return [(("n",), "type", "expected int32")]

    fake = types.ModuleType("mcplint.jstruct")
    fake.validate_instance = validate_instance
    monkeypatch.setitem(sys.modules, "mcplint.jstruct", fake)
    monkeypatch.setattr(mcplint, "jstruct", fake, raising=False)
    (p,) = mcplint.validate_arguments(tool, {"n": "x"})
    assert (p.pointer, p.keyword, p.message, p.code) == ("/n", "type", "expected int32", INPUT_MISMATCH)
    assert calls == [(tool["inputSchema"], {"n": "x"})]
    # a structured result under a bound outputSchema: pointers are prefixed into the result
    bound = {"inputSchema": {"type": "object"}, "outputSchema": tool["inputSchema"]}
    problems = mcplint.validate_result(bound, ok({"n": "x"}))
    assert summary(problems) == [(OUTPUT_MISMATCH, "/structuredContent/n", "type", "error")]


# ------------------------------------------------------------------ results

def test_structured_content_is_checked_against_the_full_output_schema():
    assert mcplint.validate_result(WEATHER, ok({"temperature": 21.5})) == []
    problems = mcplint.validate_result(WEATHER, ok({"temperature": "hot"}))
    assert summary(problems) == [(OUTPUT_MISMATCH, "/structuredContent/temperature", "type", "error")]
    assert problems[0].schema_pointer == "/outputSchema/properties/temperature/type"


def test_non_object_structured_content():
    assert mcplint.validate_result(USERS, ok([{"id": "1"}, {"id": "2"}])) == []
    assert summary(mcplint.validate_result(USERS, ok([{"id": 1}, "x"]))) == [
        (OUTPUT_MISMATCH, "/structuredContent/0/id", "type", "error"),
        (OUTPUT_MISMATCH, "/structuredContent/1", "type", "error")]
    primitive = {"inputSchema": {"type": "object"}, "outputSchema": {"type": "string", "maxLength": 3}}
    assert summary(mcplint.validate_result(primitive, ok("toolong"))) == [
        (OUTPUT_MISMATCH, "/structuredContent", "maxLength", "error")]
    # before 2026-07-28 only an object is allowed
    old = {k: v for k, v in ok([{"id": "1"}]).items() if k != "resultType"}
    assert (VERSION_FIELD, "/structuredContent", "type", "error") in summary(
        mcplint.validate_result(USERS, old, protocol_version="2025-11-25"))


def test_text_content_mirror():
    sc = [{"id": "1"}]
    # exact mirror, compared as parsed JSON (spacing, 1 vs 1.0, key order do not matter)
    assert mcplint.validate_result(USERS, ok(sc, text='[ {"id" : "1"} ]')) == []
    # non-object without a mirror: warning (SEP-2106 MUST, spec page SHOULD)
    (p,) = mcplint.validate_result(USERS, ok(sc, text="Found one user"))
    assert (p.code, p.pointer, p.severity) == (MIRROR_MISSING, "/content", "warning")
    # an object without a mirror: only informational
    (p,) = mcplint.validate_result(WEATHER, ok({"temperature": 1}, text="It is warm"))
    assert (p.code, p.severity) == (MIRROR_MISSING, "info")
    assert mcplint.validate_result(WEATHER, ok({"temperature": 1}, text='{"temperature": 1.0}')) == []
    # a JSON text of the same kind holding another value: a stale mirror
    (p,) = mcplint.validate_result(WEATHER, ok({"temperature": 1}, text='{"temperature": 2}'))
    assert (p.code, p.pointer, p.severity) == (MIRROR_MISMATCH, "/content/0/text", "warning")
    # a primitive mirror
    count = {"inputSchema": {"type": "object"}, "outputSchema": {"type": "integer"}}
    assert mcplint.validate_result(count, ok(3, text="3")) == []
    assert mcplint.validate_result(count, ok(3, text="4"))[0].code == MIRROR_MISMATCH


def test_mirror_mismatch_is_an_error_under_a_json_structure_output_schema(monkeypatch):
    fake = types.ModuleType("mcplint.jstruct")
    fake.validate_instance = lambda schema, instance: []
    monkeypatch.setitem(sys.modules, "mcplint.jstruct", fake)
    monkeypatch.setattr(mcplint, "jstruct", fake, raising=False)
    tool = {"inputSchema": {"type": "object"}, "outputSchema": {
        "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://x.example/o", "name": "O",
        "type": "object", "properties": {"c": {"type": "double"}}}}
    (p,) = mcplint.validate_result(tool, ok({"c": 1}, text='{"c": 2}'))
    assert (p.code, p.severity) == (MIRROR_MISMATCH, "error") and "§8" in p.message


def test_is_error_results_need_not_match_the_output_schema():
    err = {"resultType": "complete", "isError": True, "content": [{"type": "text", "text": "rate limited"}]}
    assert mcplint.validate_result(WEATHER, err) == []
    with_sc = dict(err, structuredContent={"temperature": "not checked"})
    assert summary(mcplint.validate_result(WEATHER, with_sc)) == [
        (STRUCTURED_ERROR, "/structuredContent", "isError", "info")]


def test_success_without_structured_content_despite_output_schema():
    res = {"resultType": "complete", "content": [{"type": "text", "text": "21"}]}
    assert summary(mcplint.validate_result(WEATHER, res)) == [(MISSING_STRUCTURED, "", "structuredContent", "error")]


def test_content_and_result_type_are_required():
    tool = {"inputSchema": {"type": "object"}}
    assert summary(mcplint.validate_result(tool, {"resultType": "complete"})) == [
        (RESULT_SHAPE, "", "required", "error")]
    assert summary(mcplint.validate_result(tool, {"content": []})) == [(RESULT_TYPE, "", "required", "error")]
    assert mcplint.validate_result(tool, {"content": []}, protocol_version="2025-11-25") == []
    assert summary(mcplint.validate_result(tool, {"content": [], "resultType": "complete"},
                                           protocol_version="2025-11-25")) == [
        (VERSION_FIELD, "/resultType", "resultType", "warning")]
    bad_blocks = {"resultType": "complete", "content": [{"type": "text"}, {"type": "video"}, {"type": "image"}]}
    problems = mcplint.validate_result(tool, bad_blocks)
    assert [(p.pointer, p.keyword) for p in problems] == [
        ("/content/0", "required"), ("/content/1", "anyOf"), ("/content/2", "required"), ("/content/2", "required")]
    assert "unknown type 'video'" in problems[1].message
    assert mcplint.validate_result(tool, "nope")[0].code == RESULT_SHAPE
    with pytest.raises(ValueError):
        mcplint.validate_result(tool, {"content": []}, protocol_version="2099-01-01")


def test_structured_content_before_2025_06_18_is_a_warning():
    res = {"content": [{"type": "text", "text": '{"temperature": 1}'}], "structuredContent": {"temperature": 1}}
    assert summary(mcplint.validate_result(WEATHER, res, protocol_version="2025-03-26")) == [
        (VERSION_FIELD, "/structuredContent", "structuredContent", "warning")]


def test_json_equal():
    assert json_equal({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not json_equal(True, 1) and not json_equal(0, False) and not json_equal(None, 0)
    assert not json_equal([1, 2], [2, 1]) and not json_equal({"a": 1}, {"a": 1, "b": 2})


# ------------------------------------------------------------------ the official MCP examples

def _load(rel: str):
    return json.loads((EXAMPLES / rel).read_text(encoding="utf-8"))


MDX = "Tool-from-tools-mdx"
PAIRS = [  # (version, result file, tool file): results next to the tool they document
    ("2024-11-05", "CallToolResult-from-tools-mdx/result-1.json", f"{MDX}/get_weather.json"),
    ("2024-11-05", "CallToolResult-from-tools-mdx/result-2.json", f"{MDX}/get_weather.json"),
    ("2025-03-26", "CallToolResult-from-tools-mdx/result-1.json", f"{MDX}/get_weather.json"),
    ("2025-03-26", "CallToolResult-from-tools-mdx/result-2.json", f"{MDX}/get_weather.json"),
    ("2025-06-18", "CallToolResult-from-tools-mdx/result-1.json", f"{MDX}/get_weather.json"),
    ("2025-06-18", "CallToolResult-from-tools-mdx/result-2.json", f"{MDX}/get_weather_data.json"),
    ("2025-06-18", "CallToolResult-from-tools-mdx/result-3.json", f"{MDX}/get_weather_data.json"),
    ("2025-11-25", "CallToolResult-from-tools-mdx/result-1.json", f"{MDX}/get_weather.json"),
    ("2025-11-25", "CallToolResult-from-tools-mdx/result-2.json", f"{MDX}/get_weather_data.json"),
    ("2025-11-25", "CallToolResult-from-tools-mdx/result-3.json", f"{MDX}/get_weather_data.json"),
    ("2026-07-28", "CallToolResult-from-tools-mdx/result-1.json", f"{MDX}/get_weather.json"),
    ("2026-07-28", "CallToolResult-from-tools-mdx/result-2.json", f"{MDX}/get_weather_data.json"),
    ("2026-07-28", "CallToolResult-from-tools-mdx/result-3.json", f"{MDX}/list_users.json"),
    ("2026-07-28", "CallToolResult-from-tools-mdx/result-4.json", f"{MDX}/get_weather_data.json"),
    ("2026-07-28", "CallToolResult/result-with-array-structured-content.json", "Tool/tool-with-array-output-schema.json"),
    ("2026-07-28", "CallToolResult/result-with-structured-content.json",
     "Tool/with-output-schema-for-structured-content.json"),
    ("2026-07-28", "CallToolResult/result-with-unstructured-text.json", f"{MDX}/get_weather.json"),
    ("2026-07-28", "CallToolResult/invalid-tool-input-error.json", "Tool/with-output-schema-for-structured-content.json"),
]


@pytest.mark.parametrize("version,result_file,tool_file", PAIRS, ids=[f"{v}:{r}" for v, r, _ in PAIRS])
def test_official_results_validate_against_their_tools(version, result_file, tool_file):
    problems = mcplint.validate_result(_load(f"{version}/{tool_file}"), _load(f"{version}/{result_file}"), version)
    assert not [p for p in problems if p.is_error], problems
    result = _load(f"{version}/{result_file}")
    if isinstance(result.get("structuredContent"), list):
        # the official array example has no JSON text mirror: SEP-2106 says MUST, the spec page SHOULD
        assert summary(problems) == [(MIRROR_MISSING, "/content", "structuredContent", "warning")]
    else:
        assert problems == []


def test_official_results_catch_a_changed_value():
    tool = _load("2026-07-28/Tool/tool-with-array-output-schema.json")
    result = _load("2026-07-28/CallToolResult/result-with-array-structured-content.json")
    del result["structuredContent"][1]["email"]
    assert (OUTPUT_MISMATCH, "/structuredContent/1", "required", "error") in summary(
        mcplint.validate_result(tool, result))


# ------------------------------------------------------------------ import cost

def test_import_mcplint_stays_cheap_and_exports_lazily():
    code = ("import sys, mcplint; heavy = [m for m in ('jsonschema', 'regex', 'referencing', 'mcplint.validate') "
            "if m in sys.modules]; print(heavy); print(mcplint.validate_arguments.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["[]", "mcplint.validate"]
    with pytest.raises(AttributeError):
        mcplint.no_such_thing  # noqa: B018


# ------------------------------------------------------------------ the CLI

def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


@pytest.fixture
def tools_file(tmp_path):
    f = tmp_path / "tools.json"
    f.write_text(json.dumps({"tools": [WEATHER, USERS]}, indent=2))
    return f


def test_cli_valid_and_invalid_arguments(tools_file, tmp_path):
    good = tmp_path / "good.json"
    good.write_text('{"location": "Paris"}')
    r = run(["validate", str(tools_file), "--tool", "get_weather_data", "--arguments", str(good)])
    assert r.exit_code == 0, r.output
    assert "arguments valid" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("location: Paris\ndays: three\n")
    r = run(["validate", str(tools_file), "--tool", "get_weather_data", "--arguments", str(bad)])
    assert r.exit_code == 1
    assert f"{bad}:2:1: error [type] at /days: 'three' is not of type 'integer'" in r.output


def test_cli_result_json_output(tools_file, tmp_path):
    res = tmp_path / "res.json"
    res.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": ok([{"id": 7}])}, indent=2))
    r = run(["validate", str(tools_file), "--tool", "list_users", "--result", str(res), "--format", "json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["valid"] is False and out["tool"] == "list_users" and out["protocol_version"] == "2026-07-28"
    (p,) = [p for p in out["problems"] if p["severity"] == "error"]
    assert (p["target"], p["pointer"], p["keyword"], p["code"]) == ("result", "/structuredContent/0/id", "type",
                                                                    OUTPUT_MISMATCH)
    assert p["line"] > 1 and p["file"] == str(res)  # located in the file, inside the JSON-RPC envelope
    assert out["summary"]["errors"] == 1


def test_cli_official_array_example_is_valid_and_warning_can_fail(tmp_path):
    tool = EXAMPLES / "2026-07-28/Tool/tool-with-array-output-schema.json"
    res = EXAMPLES / "2026-07-28/CallToolResult/result-with-array-structured-content.json"
    r = run(["validate", str(tool), "--result", str(res)])
    assert r.exit_code == 0 and "warning [structuredContent] at /content" in r.output
    assert run(["validate", str(tool), "--result", str(res), "--fail-on", "warning"]).exit_code == 1


def test_cli_stdin_and_tools_call_request(tools_file):
    req = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather_data",
                                                                          "arguments": {"location": 5}}}
    r = run(["validate", str(tools_file), "--arguments", "-", "--format", "json"], input=json.dumps(req))
    assert r.exit_code == 1
    (p,) = json.loads(r.output)["problems"]
    assert p["pointer"] == "/location" and p["file"] == "<stdin>"


def test_cli_input_errors_are_located_exit_2(tools_file, tmp_path):
    args = tmp_path / "a.json"
    args.write_text("{}")
    r = run(["validate", str(tools_file), "--tool", "nope", "--arguments", str(args)])
    assert r.exit_code == 2
    assert f"{tools_file}:2:3: input error: no tool named 'nope'" in r.output and "'list_users'" in r.output
    r = run(["validate", str(tools_file), "--arguments", str(args)])
    assert r.exit_code == 2 and "name one with --tool" in r.output
    r = run(["validate", str(tools_file), "--tool", "list_users", "--arguments", str(tmp_path / "missing.json")])
    assert r.exit_code == 2 and "cannot read file" in r.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"location": }')
    r = run(["validate", str(tools_file), "--tool", "list_users", "--arguments", str(broken)])
    assert r.exit_code == 2 and f"{broken}:1:14: input error: invalid JSON" in r.output
    assert run(["validate", str(tools_file), "--tool", "list_users"]).exit_code == 2
    err = tmp_path / "err.json"
    err.write_text('{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad"}}')
    r = run(["validate", str(tools_file), "--tool", "list_users", "--result", str(err)])
    assert r.exit_code == 2 and "JSON-RPC error response" in r.output


def test_cli_mcpdesc_variants_pick_the_declaration_for_the_version(tmp_path):
    doc = {"mcpdesc": "0.9.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2025-11-25", "2026-07-28"],
           "tools": [
               {"name": "lookup", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"},
                "outputSchema": {"type": "object", "properties": {"records": {"type": "array"}},
                                 "required": ["records"]}},
               {"name": "lookup", "protocolVersions": ["2026-07-28"], "inputSchema": {"type": "object"},
                "outputSchema": {"type": "array", "items": {"type": "string"}}}]}
    f = tmp_path / "desc.json"
    f.write_text(json.dumps(doc))
    res = tmp_path / "res.json"
    res.write_text(json.dumps(ok(["a", "b"])))
    assert run(["validate", str(f), "--tool", "lookup", "--result", str(res)]).exit_code == 0
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"content": [{"type": "text", "text": '{"records": []}'}],
                               "structuredContent": {"records": []}}))
    assert run(["validate", str(f), "--tool", "lookup", "--result", str(old),
                "--protocol-version", "2025-11-25"]).exit_code == 0
    r = run(["validate", str(f), "--tool", "lookup", "--result", str(old), "--protocol-version", "2025-06-18"])
    assert r.exit_code == 2 and "not declared for MCP 2025-06-18" in r.output
