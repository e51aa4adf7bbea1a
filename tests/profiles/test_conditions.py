"""The registry of profile conditions: every condition holds where it should and not beside,
is built by name, and the profile schema and docs/profiles.md show exactly the registry."""

import importlib
import importlib.util
import json
import pickle
from pathlib import Path

import pytest

from mcplint.errors import ConfigError
from mcplint.profiles.conditions import CONDITIONS, JSON_ORDER, Condition, holds, option_schema
from mcplint.profiles.loader import load_profile

ROOT = Path(__file__).resolve().parents[2]
CYCLE = {"$defs": {"a": {"properties": {"x": {"$ref": "#/$defs/a"}}}, "b": {"type": "string"}}}

# name -> (option, a site where it holds, a near miss where it does not); a site is
# (node, keyword, at_root, schema, via)
CASES = {
    "value_in": ([0, 1], ({"minItems": 1}, "minItems", False, None, None), ({"minItems": 2}, "minItems", False, None, None)),
    "value_max": (10, ({"maxLength": 10}, "maxLength", False, None, None), ({"maxLength": True}, "maxLength", False, None, None)),
    "count_max": (2, ({"enum": [1, 2]}, "enum", False, None, None), ({"enum": [1, 2, 3]}, "enum", False, None, None)),
    "values_are": ("string", ({"enum": ["a", "b"]}, "enum", False, None, None), ({"enum": ["a", 1]}, "enum", False, None, None)),
    "no_sibling": (["type"], ({"enum": [1]}, "enum", False, None, None), ({"enum": [1], "type": "integer"}, "enum", False, None, None)),
    "has_sibling": (["type"], ({"enum": [1], "type": "integer"}, "enum", False, None, None), ({"enum": [1]}, "enum", False, None, None)),
    "sibling_false": (["additionalProperties"], ({"properties": {}, "additionalProperties": False}, "properties", False, None, None),
                      ({"properties": {}, "additionalProperties": {}}, "properties", False, None, None)),
    "sibling_schema": (["additionalProperties"], ({"properties": {}, "additionalProperties": {}}, "properties", False, None, None),
                       ({"properties": {}, "additionalProperties": True}, "properties", False, None, None)),
    "value_pattern": ("^date", ({"format": "date-time"}, "format", False, None, None), ({"format": "uri"}, "format", False, None, None)),
    "key_pattern": ("\\[", ({"properties": {"a[1]": {}}}, "properties", False, None, None), ({"properties": {"a": {}}}, "properties", False, None, None)),
    "type_is": (["string", "null"], ({"type": ["string", "null"]}, None, False, None, None), ({"type": ["string", "integer"]}, None, False, None, None)),
    "no_ref_inside": (True, ({"anyOf": [{"type": "string"}]}, "anyOf", False, None, None), ({"anyOf": [{"$ref": "#"}]}, "anyOf", False, None, None)),
    "branches_disjoint": (True, ({"oneOf": [{"$ref": "#/$defs/b"}, {"type": "integer"}]}, "oneOf", False, CYCLE, None),
                          ({"oneOf": [{"type": "string"}, {"type": "string"}]}, "oneOf", False, None, None)),
    "branches_disjoint_inline": (True, ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "oneOf", False, None, None),
                                 ({"oneOf": [{"$ref": "#/$defs/b"}, {"type": "integer"}]}, "oneOf", False, CYCLE, None)),
    "at_root": (True, ({"type": "object"}, None, True, None, None), ({"type": "object"}, None, False, None, None)),
    "value_integer": (True, ({"maximum": 5.0}, "maximum", False, None, None), ({"maximum": 5.5}, "maximum", False, None, None)),
    "range_width_max": (10, ({"minimum": 0, "exclusiveMaximum": 10}, None, False, None, None), ({"minimum": 0}, None, False, None, None)),
    "all_required": (True, ({"properties": {"a": {}}, "required": ["a"]}, None, False, None, None), ({"properties": {"a": {}}}, None, False, None, None)),
    "type_has": (["null"], ({"type": ["string", "null"]}, None, False, None, None), ({"type": "string"}, None, False, None, None)),
    "type_list": (True, ({"type": ["integer", "null"]}, None, False, None, None), ({"type": ["integer"]}, None, False, None, None)),
    "via_in": (["anyOf"], ({}, None, False, None, "anyOf"), ({}, None, False, None, "properties")),
    "fixed_length": (True, ({"items": [{}], "additionalItems": False, "minItems": 1}, None, False, None, None),
                     ({"items": [{}], "additionalItems": False}, None, False, None, None)),
    "closed_tuple": (True, ({"prefixItems": [{}], "items": False}, None, False, None, None), ({"prefixItems": [{}]}, None, False, None, None)),
    "alone": (True, ({"$ref": "#"}, "$ref", False, None, None), ({"$ref": "#", "title": "t"}, "$ref", False, None, None)),
    "ref_cycle": (True, ({"$ref": "#/$defs/a"}, "$ref", False, CYCLE, None), ({"$ref": "#/$defs/b"}, "$ref", False, CYCLE, None)),
    "accepts_null": (True, ({"enum": ["a", None]}, None, False, None, None), ({"enum": ["a"]}, None, False, None, None)),
    "null_as_absent": (True, ({"type": ["string", "null"]}, None, False, None, None),
                       ({"type": ["string", "null"], "default": "a"}, None, False, None, None)),
    "patterns_disjoint": (True, ({"patternProperties": {"^a": {}, "^b": {}}}, None, False, None, None),
                          ({"patternProperties": {"a": {}, "b": {}}}, None, False, None, None)),
    "allof_merges": (True, ({"allOf": [{"type": "string"}], "type": "string"}, None, False, None, None),
                     ({"allOf": [{"type": "string"}], "type": "integer"}, None, False, None, None)),
    "siblings_in": (["description"], ({"$ref": "#", "description": "d", "\x00mark": 1}, "$ref", False, None, None),
                    ({"$ref": "#", "title": "t"}, "$ref", False, None, None)),
    "declares_properties": (True, ({"properties": {"a": {}}}, None, False, None, None), ({"properties": {}}, None, False, None, None)),
    "nullability": ("allows", ({}, None, False, None, None), ({"type": "string"}, None, False, None, None)),
    "wraps_null_inside": (True, ({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}, "anyOf", False, None, None),
                          ({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}]}, "anyOf",
                           False, None, None)),
    "ref_resolves": (True, ({"$ref": "#/$defs/b"}, "$ref", False, CYCLE, None), ({"$ref": "#/$defs/zz"}, "$ref", False, CYCLE, None)),
}


def test_every_condition_has_a_case():
    assert set(CASES) == set(CONDITIONS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_condition_holds_and_its_near_miss_does_not(name):
    option, hit, miss = CASES[name]
    c = Condition.from_dict({name: option})
    assert holds(c, *hit)
    assert not holds(c, *miss)
    assert c.describe()  # says what held


def test_every_given_condition_must_hold():
    c = Condition(value_in=(1,), has_sibling=("type",))
    assert holds(c, {"minItems": 1, "type": "array"}, "minItems", False)
    assert not holds(c, {"minItems": 1}, "minItems", False)
    assert not holds(c, {"minItems": 2, "type": "array"}, "minItems", False)
    assert holds(Condition(), {}, None, False)


def test_options_are_taken_by_name_whatever_the_order():
    d = {"via_in": ["anyOf"], "at_root": False, "value_in": [0, 1], "no_ref_inside": True}
    c = Condition.from_dict(dict(reversed(list(d.items()))))
    assert c.via_in == ("anyOf",) and c.at_root is False and c.value_in == (0, 1) and c.no_ref_inside is True
    assert c.value_max is None and c.branches_disjoint is False  # not given
    assert c == Condition.from_dict(d) and hash(c) == hash(Condition.from_dict(d))
    assert Condition.from_dict(c.as_dict()) == c
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(TypeError, match="value_inn"):
        Condition(value_inn=(1,))


def test_describe_follows_the_registry_and_json_keeps_its_order():
    c = Condition(sibling_schema=("items",), type_has=("array",), at_root=False, key_pattern="x")
    assert c.describe() == "beside items: a schema object, a key matches x, not at the root, type includes array"
    assert list(c.as_dict()) == ["at_root", "type_has", "key_pattern", "sibling_schema"]
    assert sorted(JSON_ORDER) == sorted(CONDITIONS) and len(set(JSON_ORDER)) == len(JSON_ORDER)


def _generator():
    spec = importlib.util.spec_from_file_location("gen_vocab", ROOT / "scripts" / "gen_profile_vocabulary.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_profile_schema_and_docs_are_generated_from_the_registry():
    schema_text = (ROOT / "mcplint" / "data" / "profile.schema.json").read_text(encoding="utf-8")
    assert json.loads(schema_text)["$defs"]["condition"] == option_schema()
    gen = _generator()
    assert gen.schema_text(schema_text) == schema_text, "run scripts/gen_profile_vocabulary.py"
    docs = (ROOT / "docs" / "profiles.md").read_text(encoding="utf-8")
    assert gen.docs_text(docs) == docs, "run scripts/gen_profile_vocabulary.py"
    for name in CONDITIONS:
        assert f"| `{name}` |" in docs


def test_an_unknown_condition_in_a_users_profile_is_a_located_error(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("id: mine\ntitle: Mine\nkind: hosted\nextends: openai-strict\n"
                    "source: {url: 'https://example.invalid', seen: '2026-11-30', confidence: high, tag: D}\n"
                    "keywords:\n  minItems:\n    action: enforce\n    when: {value_inn: [0, 1]}\n"
                    "    otherwise: {action: reject}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert "mine.yaml:9:" in str(e.value) and "value_inn" in str(e.value)


# regex feature -> (a pattern that uses it, a near miss that does not)
REGEX_CASES = {
    "lookaround": ("^(?=a)b$", "^[(?=]b$"),
    "backreference": (r"^(a)\1$", r"^(a)\\1$"),
    "word_boundary": (r"^\bw$", r"^\\b$"),
    "unicode_property": (r"^\p{L}$", r"^\\p{L}$"),
    "lazy_quantifier": ("^a+?$", "^a+$"),
    "large_repetition": ("^a{1,500}$", "^a{1,50}$"),
    "unanchored": ("^abc", "^abc$"),
    "partial_anchor": ("abc$", "abc"),
    "python_re_invalid": ("^(?<n>a)$", "^(?P<n>a)$"),
    "gbnf_escape": (r"^\d$", "^[0-9]$"),
    "inline_modifier": ("(?i)^yes$", "^(?:yes)$"),
}


def _regex_registry():
    return importlib.import_module("mcplint.profiles.regex_features")


def test_every_regex_feature_is_found_and_its_near_miss_is_not():
    reg = _regex_registry()
    assert set(REGEX_CASES) == set(reg.REGEX_FEATURES)
    for name, (hit, miss) in REGEX_CASES.items():
        assert name in reg.regex_features(hit, dialect=True), name
        assert name not in reg.regex_features(miss, dialect=True), name
    assert "inline_modifier" not in reg.regex_features("(?i)^yes$")  # the dialect features only when asked


def test_the_schemas_regex_names_are_the_registry():
    schema = json.loads((ROOT / "mcplint" / "data" / "profile.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["rule"]["properties"]["regex"]["propertyNames"]["enum"] == list(_regex_registry().REGEX_FEATURES)
