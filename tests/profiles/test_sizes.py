"""A schema over a client's byte budget (the construct ``schema-over-budget``, measured by
mcplint/profiles/sizes.py): Codex compacts an input schema over 5,000 bytes as it sends it. The
threshold is held to the Codex CLI itself in tests/verify/test_codex_cli_request.py; here, what is
measured and what the finding says."""

from __future__ import annotations

import json

from conftest import lint_json
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.profiles.sizes import measure

KEEPS = ("type", "description", "enum", "const", "items", "properties", "required", "anyOf", "$ref", "$defs")


def _compact(value) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _described(n: int, words: str = "what this parameter is for, in a sentence or two", **extra) -> dict:
    return {"type": "object", "properties": {f"p{i}": {"type": "string", "description": words, **extra}
                                             for i in range(n)}}


def test_measured_as_the_client_coerces_it():
    schema = {"properties": {"a": {"const": "x", "title": "A", "pattern": "^x$"}, "b": True,
                             "c": {"type": "array"}, "d": {"$ref": "#/$defs/used"}},
              "$defs": {"used": {"type": "object"}, "unused": {"type": "string", "description": "never reached"}}}
    sent = {"properties": {"a": {"enum": ["x"], "type": "string"}, "b": {"type": "string"},
                           "c": {"type": "array", "items": {"type": "string"}}, "d": {"$ref": "#/$defs/used"}},
            "$defs": {"used": {"type": "object", "properties": {}}}, "type": "object"}
    size = measure(schema, KEEPS)
    assert size.bytes == _compact(sent) and size.descriptions == 0 and size.bare == size.bytes
    assert measure(schema, None).bytes == _compact(schema)  # no keywords named: as written


def test_descriptions_are_counted_and_a_property_named_description_stays():
    schema = {"type": "object", "description": "root", "properties": {
        "description": {"type": "string", "description": "the text"}, "n": {"type": "integer"}}}
    size = measure(schema, KEEPS)
    assert size.descriptions == 2
    assert size.bare == _compact({"type": "object", "properties": {"description": {"type": "string"},
                                                                     "n": {"type": "integer"}}})


def test_codex_removes_the_descriptions_of_a_schema_over_its_budget():
    profile = load_profile("codex-cli")
    big = _described(90)
    assert measure(big, profile.constructs["schema-over-budget"].keywords).bytes > 5000
    found = [e for e in evaluate_slot(profile, big) if e.subject == "schema-over-budget"]
    assert [(e.pointer, e.rule.action) for e in found] == [((), "rewrite")]
    assert found[0].params["descriptions"] == "all 90 of its descriptions" and not found[0].params["still"]
    findings = [f for f in lint_json({"name": "t", "inputSchema": big}, profiles=["codex-cli"], select=["DEC004"])
                if "bytes of compact JSON" in f.message]
    assert [(str(f.pointer), f.severity.label) for f in findings] == [("/inputSchema", "warning")]
    assert "over the 5,000 it keeps a tool's input schema to, so it removes all 90 of its descriptions" in \
        findings[0].message


def test_still_over_without_descriptions_says_more_is_cut():
    profile = load_profile("codex-cli")
    wide = {"type": "object", "description": "d", "properties": {
        f"p{i}": {"type": "object", "properties": {"x": {"type": "string", "enum": [f"v{j}" for j in range(20)]}}}
        for i in range(30)}}
    (e,) = [e for e in evaluate_slot(profile, wide) if e.subject == "schema-over-budget"]
    assert e.params["descriptions"] == "its one description"
    assert "Without them it is still" in e.params["still"] and "cut as well" in e.params["still"]


def test_a_schema_large_as_written_but_small_as_codex_sends_it_is_not_reported():
    """(near miss) what Codex removes anyway (patterns, defaults, titles) does not count."""
    profile = load_profile("codex-cli")
    schema = _described(40, words="short", pattern="^[a-z0-9]{1,64}(-[a-z0-9]{1,64})*$", title="A title here",
                        default="a-default-value")
    assert _compact(schema) > 5000
    assert not [e for e in evaluate_slot(profile, schema) if e.subject == "schema-over-budget"]
    assert not [e for e in evaluate_slot(profile, _described(10)) if e.subject == "schema-over-budget"]
