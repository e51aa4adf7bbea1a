"""The JSON Structure SDKs' shared test assets as a conformance table.

Every file has an expected outcome here, with the reason where mcplint differs from what
the asset's README says an SDK should do (the binding, not the SDK, is the reference).
Schema outcomes: "invalid" (a Core/add-in validity problem, rule JST102), "warns" (valid,
with add-in keywords that are not activated, rule JST110), "valid" (neither).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from mcplint.jstruct import validate_instance
from mcplint.jstruct.schema import check_activation, check_valid
from mcplint.jstruct.sdk import instance_errors

ASSETS = Path(__file__).parent.parent / "data" / "json-structure" / "sdk-test-assets"


def _load(p: Path):
    return json.loads(p.read_text(encoding="utf-8"))


def outcome(schema) -> str:
    if check_valid(schema):
        return "invalid"
    return "warns" if check_activation(schema) else "valid"


INVALID = sorted(p.name for p in (ASSETS / "schemas" / "invalid").glob("*.json"))
WARNINGS = {p.name: "warns" for p in (ASSETS / "schemas" / "warnings").glob("*.json")}
WARNINGS["all-extension-keywords-with-uses.struct.json"] = "valid"
# contentEncoding / contentMediaType are Core annotations (Core, "Annotation keywords"); the SDK warns.
WARNINGS["content-keywords-without-uses.struct.json"] = "valid"
VALIDATION = {p.name: "valid" for p in (ASSETS / "schemas" / "validation").glob("*.json")}
ADVERSARIAL = {
    "additionalProperties-combined.struct.json": "valid",
    "allof-conflicting-types.struct.json": "valid",  # unsatisfiable is not invalid
    "anyof-none-match.struct.json": "warns",  # anyOf without JSONStructureConditionalComposition
    "conflicting-constraints.struct.json": "invalid",  # minimum > maximum, minLength > maxLength
    "deep-nesting-100.struct.json": "valid",
    "deeply-nested-allof.struct.json": "valid",
    "default-vs-required.struct.json": "warns",  # default is a validation add-in keyword
    "duplicate-keys.struct.json": "invalid",
    "empty-arrays-objects.struct.json": "invalid",  # an object must declare a property
    "extends-circular-chain.struct.json": "invalid",
    "extends-with-overrides.struct.json": "invalid",  # bare $ref outside type
    "extremely-long-string.struct.json": "warns",
    "floating-point-precision.struct.json": "warns",
    "format-edge-cases.struct.json": "invalid",  # date-time, uri are not JSON Structure formats
    "indirect-circular-ref.struct.json": "valid",  # a cycle through an object property is a recursive type
    "int64-precision-loss.struct.json": "valid",
    "integer-boundary-values.struct.json": "valid",
    "malformed-json-pointer.struct.json": "invalid",
    "massive-enum.struct.json": "valid",  # enum cardinality is a SEC bound, not validity
    "null-edge-cases.struct.json": "warns",
    "oneof-all-match.struct.json": "valid",
    "pattern-with-flags.struct.json": "warns",  # ECMA-only syntax (\p{L}, (?<n>)) is valid ECMA-262
    "property-name-edge-cases.struct.json": "invalid",  # "" and "$ref" are not identifiers
    "quadratic-blowup.struct.json": "invalid",
    "recursive-array-items.struct.json": "invalid",
    "redos-catastrophic-backtracking.struct.json": "valid",  # regex safety is a SEC rule
    "redos-pattern.struct.json": "valid",
    "ref-to-nowhere.struct.json": "invalid",
    "ref-vs-property.struct.json": "invalid",
    "self-referencing-extends.struct.json": "invalid",
    "string-length-surrogate.struct.json": "warns",
    "type-union-ambiguous.struct.json": "valid",
    "unicode-edge-cases.struct.json": "warns",
}

SCHEMA_TABLE = [("invalid", n, "invalid") for n in INVALID] + \
               [("warnings", n, o) for n, o in sorted(WARNINGS.items())] + \
               [("validation", n, o) for n, o in sorted(VALIDATION.items())] + \
               [("adversarial", n, o) for n, o in sorted(ADVERSARIAL.items())]


def test_table_covers_every_schema_file():
    on_disk = {(p.parent.name, p.name) for p in (ASSETS / "schemas").glob("*/*.json")}
    assert on_disk == {(d, n) for d, n, _ in SCHEMA_TABLE}


@pytest.mark.parametrize("folder,name,expected", SCHEMA_TABLE, ids=[f"{d}/{n}" for d, n, _ in SCHEMA_TABLE])
def test_schema_outcome(folder, name, expected):
    schema = _load(ASSETS / "schemas" / folder / name)
    before = json.dumps(schema, sort_keys=True)
    assert outcome(schema) == expected
    assert json.dumps(schema, sort_keys=True) == before  # never modified


def test_warning_schemas_name_the_keyword():
    """Each single-keyword warning schema is reported at that keyword."""
    for p in sorted((ASSETS / "schemas" / "warnings").glob("numeric-*-without-uses.struct.json")) + \
            sorted((ASSETS / "schemas" / "warnings").glob("string-*-without-uses.struct.json")):
        words = {p.keyword for p in check_activation(_load(p))}
        stem = p.name.split("-without-uses")[0].split("-", 1)[1]
        wanted = {"minimum": "minimum", "maximum": "maximum", "exclusive-minimum": "exclusiveMinimum",
                  "exclusive-maximum": "exclusiveMaximum", "multiple-of": "multipleOf", "minlength": "minLength",
                  "pattern": "pattern", "format": "format"}[stem]
        assert wanted in words, (p.name, words)


# ------------------------------------------------------------------ instances

EXPECTED_KEYWORD = {
    "INSTANCE_NUMBER_MAXIMUM": {"maximum"}, "INSTANCE_NUMBER_MINIMUM": {"minimum"},
    "INSTANCE_NUMBER_MULTIPLE_OF": {"multipleOf"}, "INSTANCE_STRING_PATTERN_MISMATCH": {"pattern"},
    "INSTANCE_STRING_MIN_LENGTH": {"minLength"}, "INSTANCE_NUMBER_EXCLUSIVE_MAXIMUM": {"exclusiveMaximum"},
    "INSTANCE_NUMBER_EXCLUSIVE_MINIMUM": {"exclusiveMinimum"}, "INSTANCE_MIN_ITEMS": {"minItems"},
    "INSTANCE_MAX_ITEMS": {"maxItems"}, "INSTANCE_MIN_CONTAINS": {"contains", "minContains"},
    "INSTANCE_MAX_CONTAINS": {"maxContains"}, "INSTANCE_SET_DUPLICATE": {"uniqueItems"},
    "INSTANCE_MAP_KEY_INVALID": {"keyNames"}, "INSTANCE_MAP_MIN_ENTRIES": {"minEntries"},
    "INSTANCE_MAP_MAX_ENTRIES": {"maxEntries"}, "INSTANCE_DEPENDENT_REQUIRED": {"dependentRequired"},
    "INSTANCE_MAX_PROPERTIES": {"maxProperties"}, "INSTANCE_MIN_PROPERTIES": {"minProperties"},
}
VALIDATION_INSTANCES = sorted((ASSETS / "instances" / "validation").glob("*/*.json"))


def _unwrap(schema, inst):
    """The assets wrap a value for a non-object root in {"value": ...}."""
    inst = {k: v for k, v in inst.items() if not k.startswith("_")}
    if schema.get("type") != "object" and set(inst) == {"value"}:
        return inst["value"]
    return inst


@pytest.mark.parametrize("path", VALIDATION_INSTANCES, ids=[f"{p.parent.name}/{p.name}" for p in VALIDATION_INSTANCES])
def test_validation_instance_fails_on_its_keyword(path):
    schema = _load(ASSETS / "schemas" / "validation" / f"{path.parent.name}.struct.json")
    raw = _load(path)
    inst = _unwrap(schema, raw)
    errors = validate_instance(schema, inst)
    assert {k for _, k, _ in errors} & EXPECTED_KEYWORD[raw["_expectedError"]], errors
    assert instance_errors(schema, inst), "the json-structure package agrees that it is invalid"
    # The same instance without the constraining add-in: the keyword constrains nothing (binding §5.4).
    unactivated = dict(schema, **{"$uses": []})
    assert not {k for _, k, _ in validate_instance(unactivated, inst)} & EXPECTED_KEYWORD[raw["_expectedError"]]


# instance file -> (schema file, expected valid?, why)
ADVERSARIAL_INSTANCES = {
    "additionalProperties-combined.json": ("additionalProperties-combined.struct.json", False, "undeclared nested member"),
    "allof-conflict.json": ("allof-conflicting-types.struct.json", False, "no value is both string and int32"),
    "anyof-none-match.json": ("anyof-none-match.struct.json", True, "anyOf is not activated: unconstraining"),
    "conflicting-constraints.json": ("conflicting-constraints.struct.json", True, "constraints not activated"),
    "deep-nesting.json": ("deep-nesting-100.struct.json", True, "20 levels are fine"),
    "empty-collections-invalid.json": ("empty-arrays-objects.struct.json", False, "required member missing"),
    "extends-override.json": ("extends-with-overrides.struct.json", True, "the bare $ref constrains nothing"),
    "floating-point.json": ("floating-point-precision.struct.json", True, ""),
    "format-invalid.json": ("format-edge-cases.struct.json", True, "format not activated"),
    "format-valid.json": ("format-edge-cases.struct.json", True, ""),
    "int64-precision.json": ("int64-precision-loss.struct.json", True, "the schema types them as double"),
    "null-edge-cases.json": ("null-edge-cases.struct.json", False, "null where a string is required"),
    "oneof-all-match.json": ("oneof-all-match.struct.json", False, "oneOf matches three branches"),
    "pattern-flags.json": ("pattern-with-flags.struct.json", True, "pattern not activated"),
    "property-name-edge-cases.json": ("property-name-edge-cases.struct.json", True, ""),
    "quadratic-blowup.json": ("quadratic-blowup.struct.json", True, ""),
    "recursive-tree.json": ("recursive-array-items.struct.json", True, ""),
    "redos-attack.json": ("redos-pattern.struct.json", False, "an object where a string is required"),
    "string-length-surrogate.json": ("string-length-surrogate.struct.json", True, "maxLength not activated"),
    "type-union-int.json": ("type-union-ambiguous.struct.json", True, ""),
    "type-union-number.json": ("type-union-ambiguous.struct.json", True, ""),
    "unicode-edge-cases.json": ("unicode-edge-cases.struct.json", True, ""),
}


def test_adversarial_table_covers_every_instance_file():
    assert {p.name for p in (ASSETS / "instances" / "adversarial").glob("*.json")} == set(ADVERSARIAL_INSTANCES)


@pytest.mark.parametrize("name", sorted(ADVERSARIAL_INSTANCES))
def test_adversarial_instance(name):
    schema_file, valid, why = ADVERSARIAL_INSTANCES[name]
    schema = _load(ASSETS / "schemas" / "adversarial" / schema_file)
    inst = _load(ASSETS / "instances" / "adversarial" / name)
    assert inst["$schema"] == schema["$id"]
    inst = _unwrap(schema, {k: v for k, v in inst.items() if k != "$schema"})
    start = time.process_time()  # CPU time: a busy machine does not fail this
    errors = validate_instance(schema, inst)
    assert time.process_time() - start < 1.0
    assert (not errors) == valid, (why, errors)


def test_redos_pattern_is_not_run_against_untrusted_text():
    schema = _load(ASSETS / "schemas" / "adversarial" / "redos-pattern.struct.json")
    start = time.process_time()  # CPU time: a loaded machine does not fail it
    errors = validate_instance(schema, "a" * 64 + "b")
    assert time.process_time() - start < 0.5
    assert [(p, k) for p, k, _ in errors] == [((), "pattern")]
    assert "not evaluated" in errors[0][2]


VALID_SCHEMAS = [(d, n) for d, n, o in SCHEMA_TABLE if o != "invalid"]


@pytest.mark.parametrize("folder,name", VALID_SCHEMAS, ids=[f"{d}/{n}" for d, n in VALID_SCHEMAS])
def test_projection_of_every_valid_asset_passes_the_fallback_check(folder, name):
    from mcplint.jstruct import check_fallback, to_json_schema

    schema = _load(ASSETS / "schemas" / folder / name)
    projected, _ = to_json_schema(schema)
    assert check_fallback(schema, projected, samples=50) == []
