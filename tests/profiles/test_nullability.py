"""The OpenAI Agents SDK for JavaScript's own rules for null and references
(mcplint/profiles/nullability.py), and the conditions built on them. The rules are the SDK's,
held to a run of the SDK over every recorded case in tests/verify/test_agents_js.py; here each one
fires and has its near miss."""

from __future__ import annotations

from mcplint.profiles.conditions import Condition, holds
from mcplint.profiles.nullability import ALLOWS, DISALLOWS, UNKNOWN, nullability, ref_resolves, resolve_local, \
    wraps_for_null

ROOT = {"type": "object", "$defs": {"S": {"type": "string"}, "N": {"type": ["string", "null"]},
                                     "Loop": {"$ref": "#/$defs/Loop"}, "a/b": {"type": "null"}},
        "items": [{"type": "integer"}]}


def test_nullability_is_the_sdks_rule():
    assert nullability({"type": "string"}, ROOT) == DISALLOWS
    assert nullability({"type": ["string", "null"]}, ROOT) == ALLOWS
    assert nullability({"enum": ["a"]}, ROOT) == DISALLOWS and nullability({"enum": ["a", None]}, ROOT) == ALLOWS
    assert nullability({"const": 1}, ROOT) == DISALLOWS and nullability({"const": None}, ROOT) == ALLOWS
    # no type, enum, const or anyOf: the SDK takes it to accept null (JSON Schema agrees), unless it has
    # properties, which the conversion types as an object
    assert nullability({}, ROOT) == ALLOWS and nullability({"description": "d", "format": "uri"}, ROOT) == ALLOWS
    assert nullability({"properties": {}}, ROOT) == DISALLOWS
    assert nullability({"anyOf": [{"type": "string"}, {"type": "null"}]}, ROOT) == ALLOWS
    assert nullability({"anyOf": [{"type": "string"}, {"type": "integer"}]}, ROOT) == DISALLOWS
    assert nullability({"anyOf": [{"type": "string"}, {"type": 3}]}, ROOT) == UNKNOWN
    assert nullability({"$ref": "#/$defs/S"}, ROOT) == DISALLOWS and nullability({"$ref": "#/$defs/N"}, ROOT) == ALLOWS
    assert nullability({"$ref": "#/$defs/Loop"}, ROOT) == UNKNOWN  # a reference followed twice
    assert nullability({"$ref": "#/$defs/none"}, ROOT) == UNKNOWN
    assert nullability({"type": 3}, ROOT) == UNKNOWN and nullability(True, ROOT) == ALLOWS
    assert nullability(False, ROOT) == DISALLOWS


def test_references_resolve_as_the_sdk_resolves_them():
    assert resolve_local("#", ROOT) is ROOT
    assert resolve_local("#/$defs/a~1b", ROOT) == {"type": "null"}
    assert resolve_local("#/items/0", ROOT) == {"type": "integer"}
    assert ref_resolves("#/$defs/S", ROOT) and ref_resolves("#/%24defs/S", ROOT)  # percent-decoded
    for ref in ("#a", "#/items/00", "#/items/1", "#/$defs/a~2b", "#/$defs/none", "https://example.com/s.json", 3):
        assert not ref_resolves(ref, ROOT), ref


def test_a_branch_is_wrapped_for_null_when_some_optional_property_inside_does_not_take_null():
    optional = {"type": "object", "properties": {"x": {"type": "string"}}}
    assert wraps_for_null(optional, ROOT)
    assert not wraps_for_null({**optional, "required": ["x"]}, ROOT)
    assert not wraps_for_null({"type": "object", "properties": {"x": {"type": ["string", "null"]}}}, ROOT)
    assert wraps_for_null({"type": "array", "items": optional}, ROOT)
    assert wraps_for_null({"type": "object", "properties": {"o": {**optional}}, "required": ["o"]}, ROOT)
    root = {"$defs": {"M": optional, "R": {"type": "object", "properties": {"r": {"$ref": "#/$defs/R"}},
                                           "required": ["r"]}}}
    assert wraps_for_null({"$ref": "#/$defs/M"}, root)
    assert not wraps_for_null({"$ref": "#/$defs/R"}, root)  # a cycle ends


def test_the_conditions():
    meta = ("description", "title", "default")
    assert holds(Condition(siblings_in=meta), {"anyOf": [], "description": "d"}, "anyOf", False)
    assert not holds(Condition(siblings_in=meta), {"anyOf": [], "type": "string"}, "anyOf", False)
    assert holds(Condition(declares_properties=True), {"properties": {"a": {}}}, None, False)
    assert holds(Condition(declares_properties=False), {"properties": {}}, None, False)
    assert holds(Condition(declares_properties=False), {"type": "object"}, None, False)
    assert holds(Condition(nullability="disallows"), {"type": "string"}, None, False, ROOT)
    assert not holds(Condition(nullability="disallows"), {}, None, False, ROOT)
    branches = [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "null"}]
    assert holds(Condition(wraps_null_inside=True), {"anyOf": branches}, "anyOf", False, ROOT)
    assert holds(Condition(wraps_null_inside=False), {"anyOf": branches[1:]}, "anyOf", False, ROOT)
    assert holds(Condition(ref_resolves=True), {"$ref": "#/$defs/S"}, "$ref", False, ROOT)
    assert holds(Condition(ref_resolves=False), {"$ref": "#nope"}, "$ref", False, ROOT)
    c = Condition.from_dict({"siblings_in": ["title"], "declares_properties": True, "nullability": "unknown",
                             "wraps_null_inside": False, "ref_resolves": True})
    assert Condition.from_dict(c.as_dict()) == c and "every other key beside it is one of title" in c.describe()
