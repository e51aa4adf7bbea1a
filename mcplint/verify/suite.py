"""The per-keyword probe suite.

Each probe isolates one keyword or construct: a schema, an instance that violates
ONLY that keyword (``bad``; None when the construct has nothing to violate, e.g. a
default that should permit more), and a conforming instance (``good``). Run against a
real decoder, a probe yields one verdict:

* ``enforced``        the bad instance is refused, the good one accepted
* ``dropped``         the schema compiles but the bad instance is accepted
* ``rejected``        the schema does not compile (the request would fail)
* ``over-constrained`` the good instance is refused (the decoder forbids valid output)

Instances are written in schema property order and ASCII only: decoders fix property
order, and byte-level test vocabularies stay simple.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

VERDICTS = ("enforced", "dropped", "rejected", "over-constrained")


@dataclass(frozen=True)
class Probe:
    id: str  # stable identifier, also the construct name profiles use
    keyword: str  # the JSON Schema keyword under test
    schema: Any
    good: Any
    bad: Any = None
    note: str = ""


def _obj(prop_schema: dict, name: str = "v") -> dict:
    return {"type": "object", "properties": {name: prop_schema}, "required": [name], "additionalProperties": False}


def _p(id: str, keyword: str, prop_schema: dict, good, bad=None, note: str = "") -> Probe:
    """A probe on one property ``v`` of a closed object (what tool schemas look like)."""
    return Probe(id, keyword, _obj(prop_schema), {"v": good}, None if bad is None else {"v": bad}, note)


FORMATS = {
    "date-time": ("2024-05-01T10:00:00Z", "yesterday"),
    "date": ("2024-05-01", "May 1st"),
    "time": ("10:00:00Z", "ten"),
    "duration": ("P3D", "three days"),
    "email": ("a@example.com", "not-an-email"),
    "hostname": ("example.com", "-bad-.host_name"),
    "ipv4": ("192.0.2.1", "999.1"),
    "ipv6": ("2001:db8::1", "2001:::zz"),
    "uuid": ("123e4567-e89b-12d3-a456-426614174000", "1234"),
    "uri": ("https://example.com/a", "not a uri"),
    "uri-reference": ("/a/b", "a b\\\\"),
    "my-custom-format": ("anything", None),
}

DRAFT7 = "http://json-schema.org/draft-07/schema#"


def _d7(probe: Probe) -> Probe:
    """The probe with its schema in draft-07 (the dialect of the keywords it tests)."""
    return Probe(probe.id, probe.keyword, {"$schema": DRAFT7, **probe.schema}, probe.good, probe.bad, probe.note)


PROBES: list[Probe] = [
    # --- types and basics
    _p("type-string", "type", {"type": "string"}, "x", 1),
    _p("type-integer", "type", {"type": "integer"}, 3, 2.5),
    _p("type-number", "type", {"type": "number"}, 2.5, "2.5"),
    _p("type-boolean", "type", {"type": "boolean"}, True, "true"),
    _p("type-null", "type", {"type": "null"}, None, 0),
    _p("type-union", "type", {"type": ["string", "null"]}, None, 1),
    _p("enum", "enum", {"type": "string", "enum": ["a", "b"]}, "a", "c"),
    _p("enum-object", "enum", {"enum": [{"k": 1}, {"k": 2}]}, {"k": 1}, {"k": 3}),
    _p("const", "const", {"const": "fixed"}, "fixed", "other"),
    # --- strings
    _p("minLength", "minLength", {"type": "string", "minLength": 3}, "abc", "ab"),
    _p("maxLength", "maxLength", {"type": "string", "maxLength": 3}, "abc", "abcd"),
    _p("pattern", "pattern", {"type": "string", "pattern": "^[a-z]+$"}, "abc", "ABC"),
    _p("pattern-unanchored", "pattern", {"type": "string", "pattern": "[0-9]{3}"}, "x123y", "x12y",
       note="JSON Schema patterns search (unanchored); a full-match decoder refuses the good instance"),
    _p("pattern-lookahead", "pattern", {"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]+$"}, "a1", "ab"),
    _p("pattern-backreference", "pattern", {"type": "string", "pattern": "^(a|b)\\1$"}, "aa", "ab"),
    _p("pattern-word-boundary", "pattern", {"type": "string", "pattern": "^\\bab\\b$"}, "ab", "a b"),
    _p("pattern-unicode-class", "pattern", {"type": "string", "pattern": "^\\p{L}+$"}, "abc", "a1"),
    _p("pattern-with-length", "maxLength", {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3}, "abc", "abcd",
       note="some decoders drop length bounds next to pattern or format"),
    *[_p(f"format-{name}", "format", {"type": "string", "format": name}, good, bad)
      for name, (good, bad) in FORMATS.items()],
    # --- numbers
    _p("minimum", "minimum", {"type": "integer", "minimum": 3}, 3, 2),
    _p("maximum", "maximum", {"type": "integer", "maximum": 3}, 3, 4),
    _p("exclusiveMinimum", "exclusiveMinimum", {"type": "integer", "exclusiveMinimum": 3}, 4, 3),
    _p("exclusiveMaximum", "exclusiveMaximum", {"type": "integer", "exclusiveMaximum": 3}, 2, 3),
    _p("multipleOf", "multipleOf", {"type": "integer", "multipleOf": 5}, 10, 7),
    # --- arrays
    _p("items", "items", {"type": "array", "items": {"type": "integer"}}, [1, 2], [1, "x"]),
    _p("prefixItems", "prefixItems", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                                      "items": False}, ["a"], [1, "a"], note="a closed tuple may be shorter"),
    _p("prefixItems-fixed", "prefixItems", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                                            "minItems": 2, "maxItems": 2}, ["a", 1], [1, "a"],
       note="pydantic's tuple[str, int]: fixed by its length, no items"),
    _p("minItems", "minItems", {"type": "array", "items": {"type": "integer"}, "minItems": 2}, [1, 2], [1]),
    _p("minItems-1", "minItems", {"type": "array", "items": {"type": "integer"}, "minItems": 1}, [1], []),
    _p("maxItems", "maxItems", {"type": "array", "items": {"type": "integer"}, "maxItems": 2}, [1, 2], [1, 2, 3]),
    _p("uniqueItems", "uniqueItems", {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
       [1, 2], [1, 1]),
    _p("contains", "contains", {"type": "array", "items": {"type": "integer"}, "contains": {"const": 5}},
       [1, 5], [1, 2]),
    _p("minContains", "minContains", {"type": "array", "items": {"type": "integer"}, "contains": {"const": 5},
                                      "minContains": 2}, [5, 5], [5, 1]),
    _p("unevaluatedItems", "unevaluatedItems", {"type": "array", "prefixItems": [{"type": "integer"}],
                                                "unevaluatedItems": False}, [1], [1, 2]),
    # --- objects
    Probe("required", "required", {"type": "object", "properties": {"a": {"type": "integer"}},
                                   "required": ["a"], "additionalProperties": False}, {"a": 1}, {}),
    Probe("optional-property", "required",
          {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
           "required": ["a"], "additionalProperties": False}, {"a": 1}, None,
          note="an optional property may be left out"),
    Probe("additionalProperties-false", "additionalProperties",
          {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
           "additionalProperties": False}, {"a": 1}, {"a": 1, "z": 2}),
    Probe("additionalProperties-default", "additionalProperties",
          {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}, {"a": 1, "z": 2}, None,
          note="without additionalProperties, extra keys are allowed"),
    Probe("additionalProperties-schema", "additionalProperties",
          {"type": "object", "additionalProperties": {"type": "integer"}}, {"k": 1}, {"k": "x"}),
    Probe("patternProperties", "patternProperties",
          {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": False},
          {"x_a": 1}, {"x_a": "s"}),
    Probe("propertyNames", "propertyNames",
          {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "integer"}},
          {"ab": 1}, {"AB": 1}),
    Probe("propertyNames-closed", "additionalProperties",
          {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": False}, {}, {"ab": 1},
          note="additionalProperties: false allows no key at all, whatever propertyNames admits"),
    Probe("propertyNames-boolean", "propertyNames",
          {"type": "object", "propertyNames": True, "additionalProperties": {"type": "integer"}}, {"a": 1}, None,
          note="a boolean schema in propertyNames: true allows every key"),
    Probe("minProperties", "minProperties",
          {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1}, {"a": 1}, {}),
    Probe("maxProperties", "maxProperties",
          {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 1}, {"a": 1},
          {"a": 1, "b": 2}),
    Probe("dependentRequired", "dependentRequired",
          {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
           "dependentRequired": {"a": ["b"]}, "additionalProperties": False}, {"a": 1, "b": 2}, {"a": 1}),
    Probe("dependentSchemas", "dependentSchemas",
          {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
           "dependentSchemas": {"a": {"required": ["b"]}}, "additionalProperties": False},
          {"a": 1, "b": 2}, {"a": 1}),
    Probe("unevaluatedProperties", "unevaluatedProperties",
          {"type": "object", "properties": {"a": {"type": "integer"}}, "unevaluatedProperties": False},
          {"a": 1}, {"a": 1, "z": 2}),
    # --- composition
    _p("anyOf", "anyOf", {"anyOf": [{"type": "string"}, {"type": "integer"}]}, 1, True),
    _p("oneOf-disjoint", "oneOf", {"oneOf": [{"type": "string"}, {"type": "integer"}]}, 1, True),
    _p("oneOf-overlapping", "oneOf", {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "integer", "maximum": 10}]},
       20, 5, note="5 matches both branches, so oneOf refuses it"),
    Probe("allOf", "allOf", {"allOf": [
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}]},
        {"a": 1, "b": 2}, {"a": 1}),
    _p("not", "not", {"type": "integer", "not": {"const": 3}}, 4, 3),
    Probe("if-then-else", "if", {"type": "object", "properties": {"u": {"type": "string"}, "t": {"type": "integer"}},
                                 "if": {"properties": {"u": {"const": "f"}}}, "then": {"required": ["t"]},
                                 "additionalProperties": False}, {"u": "f", "t": 1}, {"u": "f"}),
    # --- combinations where decoders take shortcuts
    _p("format-with-pattern", "format", {"type": "string", "format": "date", "pattern": "^2.*$"}, "2024-05-01",
       "2024-13-45", note="some decoders ignore format next to a pattern"),
    _p("pattern-partial-anchor", "pattern", {"type": "string", "pattern": "^ab"}, "abc", "xab",
       note="anchored at the start only: JSON Schema searches, so anything may follow"),
    _p("number-minimum", "minimum", {"type": "number", "minimum": 1.5}, 2.5, 1.0),
    _p("prefixItems-open", "prefixItems", {"type": "array", "prefixItems": [{"type": "integer"}]}, [1, "x"], ["x"],
       note="without items: false, more items may follow the tuple"),
    # draft-07's tuple form (items an array of schemas, additionalItems for the rest), under a draft-07 $schema
    _d7(_p("items-tuple", "items", {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                                    "additionalItems": False, "minItems": 2}, ["a", 1], [1, "a"],
           note="draft-07 tuple of fixed length")),
    _d7(_p("items-tuple-open", "items", {"type": "array", "items": [{"type": "string"}]}, ["a", 5], [1],
           note="draft-07 tuple: without additionalItems, anything may follow")),
    _d7(_p("additionalItems", "additionalItems", {"type": "array", "items": [{"type": "string"}],
                                                  "additionalItems": {"type": "integer"}}, ["a"], ["a", "b"],
           note="draft-07 tuple: additionalItems constrains what follows it")),
    _p("enum-mixed", "enum", {"enum": ["a", 1, None]}, 1, 2),
    _p("const-object", "const", {"const": {"k": [1, 2]}}, {"k": [1, 2]}, {"k": [2, 1]}),
    _p("maxContains", "maxContains", {"type": "array", "items": {"type": "integer"}, "contains": {"const": 5},
                                      "maxContains": 1}, [5, 1], [5, 5]),
    Probe("additionalProperties-true", "additionalProperties",
          {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
           "additionalProperties": True}, {"a": 1, "z": 2}, None),
    Probe("required-undeclared", "required",
          {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a", "b"]},
          {"a": 1, "b": 2}, {"a": 1}, note="a required key that properties does not describe"),
    Probe("anyOf-beside-properties", "anyOf",
          {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
           "anyOf": [{"required": ["a"]}, {"required": ["b"]}], "additionalProperties": False}, {"a": 1}, {}),
    _p("format-on-integer", "format", {"type": "integer", "format": "int32"}, 5, None,
       note="format applies to strings only; on another type it constrains nothing"),
    Probe("oneOf-ref-discriminated", "oneOf", {
        "type": "object", "$defs": {
            "a": {"type": "object", "properties": {"k": {"const": "a"}, "x": {"type": "integer"}}, "required": ["k", "x"],
                  "additionalProperties": False},
            "b": {"type": "object", "properties": {"k": {"const": "b"}, "y": {"type": "string"}}, "required": ["k", "y"],
                  "additionalProperties": False}},
        "properties": {"v": {"oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]}}, "required": ["v"],
        "additionalProperties": False}, {"v": {"k": "a", "x": 1}}, {"v": {"k": "a", "x": "s"}},
        note="branches behind references, told apart by a const discriminator"),
    # --- references
    Probe("ref-local", "$ref", {"type": "object", "$defs": {"n": {"type": "integer"}},
                                "properties": {"v": {"$ref": "#/$defs/n"}}, "required": ["v"],
                                "additionalProperties": False}, {"v": 3}, {"v": "x"}),
    Probe("ref-sibling", "$ref", {"type": "object", "$defs": {"s": {"type": "string"}},
                                  "properties": {"v": {"$ref": "#/$defs/s", "maxLength": 3}}, "required": ["v"],
                                  "additionalProperties": False}, {"v": "abc"}, {"v": "abcd"},
          note="a keyword next to $ref constrains too (2020-12)"),
    Probe("ref-recursive", "$ref", {
        "type": "object", "$defs": {"node": {"type": "object", "properties": {
            "c": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["c"],
            "additionalProperties": False}},
        "properties": {"v": {"$ref": "#/$defs/node"}}, "required": ["v"], "additionalProperties": False},
        {"v": {"c": [{"c": [{"c": [{"c": [{"c": [{"c": []}]}]}]}]}]}}, {"v": {"c": [{"d": 1}]}},
        note="recursion six levels deep"),
    Probe("ref-anchor", "$anchor", {"type": "object", "$defs": {"n": {"$anchor": "num", "type": "integer"}},
                                    "properties": {"v": {"$ref": "#num"}}, "required": ["v"],
                                    "additionalProperties": False}, {"v": 3}, {"v": "x"}),
    # --- annotations that must not constrain
    Probe("nullable", "nullable", _obj({"type": "string", "nullable": True}), {"v": "x"}, {"v": None},
          note="OpenAPI's nullable is not JSON Schema: under 2020-12 it is an annotation and null stays invalid"),
    _p("default", "default", {"type": "integer", "default": 3}, 5, None),
]

BY_ID = {p.id: p for p in PROBES}
assert len(BY_ID) == len(PROBES), "probe ids must be unique"
