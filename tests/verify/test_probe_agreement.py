"""The local-decoder profiles agree with what the real decoders did when probed keyword by
keyword (tests/data/decoder-probes/): ENFORCED -> the profile enforces it, IGNORED -> the
profile reports a silent weakening, REJECTS schema -> the profile reports a rejection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcplint.profiles import evaluate_slot, load_profile

PROBES = Path(__file__).parent.parent / "data" / "decoder-probes"
OBJ2 = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}

# probe case -> the property schema that exercises it (the violating instance is implied)
CASES = {
    **{f"format_{f}": {"type": "string", "format": f} for f in (
        "date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri",
        "uri-reference", "iri", "regex", "json-pointer")},
    "format_byte(openapi)": {"type": "string", "format": "byte"},
    "minLength": {"type": "string", "minLength": 2},
    "maxLength": {"type": "string", "maxLength": 2},
    "pattern_lookahead": {"type": "string", "pattern": "^(?=a)[a-z]+$"},
    "minimum": {"type": "integer", "minimum": 2},
    "maximum": {"type": "integer", "maximum": 2},
    "exclusiveMinimum": {"type": "integer", "exclusiveMinimum": 2},
    "exclusiveMaximum": {"type": "integer", "exclusiveMaximum": 2},
    "multipleOf": {"type": "integer", "multipleOf": 3},
    "number_minimum_float": {"type": "number", "minimum": 1.5},
    "minItems": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
    "maxItems": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
    "uniqueItems": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
    "contains": {"type": "array", "items": {"type": "integer"}, "contains": {"const": 1}},
    # closed (items: false): the recorded conforming instance had no items after the tuple, and xgrammar and
    # Outlines close an open tuple (live probe prefixItems-open, mcplint verify, 2026-11-30)
    "prefixItems": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    # without additionalProperties: false, which Outlines cannot compile on an object without properties
    # (live probe, mcplint verify --decoder outlines, 2026-11-30)
    "patternProperties": {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}},
    "propertyNames": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
    "maxProperties": {"type": "object", "maxProperties": 1},
    "dependentRequired": {**OBJ2, "dependentRequired": {"a": ["b"]}},
    "dependentSchemas": {**OBJ2, "dependentSchemas": {"a": {"required": ["b"]}}},
    "oneOf_overlapping": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 1}]},
    "not": {"type": "string", "not": {"const": "x"}},
    "if_then": {**OBJ2, "if": {"required": ["b"]}, "then": {"properties": {"a": {"const": "x"}}}},
    "allOf_objects": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                                {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}]},
    "ref_with_sibling_minimum": {"$ref": "#/$defs/n", "minimum": 3},
}
PROFILES = {"llguidance": "llguidance-1.9.1.json", "xgrammar": "xgrammar-0.2.9.json",
            "outlines": "outlines-core-0.2.14.json"}
# Known gaps, each a documented simplification of the profile (not a silent disagreement).
KNOWN = {
    ("outlines", "prefixItems"): "the recorded conforming instance filled the tuple; run live (mcplint verify "
                                 "--decoder outlines, 2026-12-01) a shorter one is refused, so the profile says "
                                 "Outlines reads prefixItems as a fixed tuple unless minItems fills it",
    ("outlines", "pattern_lookahead"): "the recorded probe compiled a lookahead; run live (mcplint verify "
                                       "--decoder outlines, 2026-11-30) the same pattern fails to build the DFA, "
                                       "and the profile follows the live run",
}


def verdict_of_probe(text: str) -> str | None:
    if "conforming accepted=False" in text:
        return "broken"  # over-constrained: a valid instance is refused
    if text.startswith("ENFORCED"):
        return "enforce"
    if text.startswith("IGNORED"):
        return "drop"
    if text.startswith("REJECTS"):
        return "reject"
    return None


def verdict_of_profile(profile, prop: dict) -> str:
    schema = {"type": "object", "properties": {"x": prop}, "required": ["x"], "additionalProperties": False,
              "$defs": {"n": {"type": "integer"}}}
    actions = {e.rule.action for e in evaluate_slot(profile, schema)
               if e.pointer[:2] == ("properties", "x") and e.subject not in ("unanchored",)
               and e.rule.action in ("reject", "drop", "rewrite")}
    for worst in ("reject", "drop", "rewrite"):
        if worst in actions:
            return worst
    return "enforce"


def rows():
    for name, fname in PROFILES.items():
        data = json.loads((PROBES / fname).read_text(encoding="utf-8"))
        data = data.get("strict_mode_true", data)
        for case, prop in CASES.items():
            probe = verdict_of_probe(str(data.get(case, "")))
            if probe is not None:
                yield name, case, prop, probe


@pytest.mark.parametrize("name, case, prop, probe", list(rows()), ids=[f"{r[0]}-{r[1]}" for r in rows()])
def test_profile_agrees_with_probe(name, case, prop, probe):
    if (name, case) in KNOWN:
        pytest.skip(KNOWN[(name, case)])
    got = verdict_of_profile(load_profile(name), prop)
    if probe == "broken":
        assert got != "enforce", "the decoder mishandles this; the profile must say so"
    else:
        assert got == probe
