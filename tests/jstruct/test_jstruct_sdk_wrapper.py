"""The wrapper around the json-structure package, tested against the package's known bugs:
it mutates the schema during instance validation, accumulates errors across calls,
ignores typos, and emits paths that are not RFC 6901.

Each bug is first shown on the bare package (so the test proves it exercises the bug; if
a new release fixes one, that assertion fails and the work-around can be reviewed), then
the wrapper is shown to be free of it.
"""

from __future__ import annotations

import copy

import pytest

from mcplint.jstruct import validate_instance
from mcplint.jstruct.schema import check_typos, check_valid
from mcplint.jstruct.sdk import instance_errors, schema_problems, to_pointer

json_structure = pytest.importorskip("json_structure")

EXTENDED = {
    "$schema": "https://json-structure.org/meta/extended/v0/#", "$id": "https://t.example/s", "name": "S",
    "type": "object", "properties": {"n": {"type": "int32"}}, "required": ["n"],
}


def test_package_mutates_schema_and_wrapper_does_not():
    schema = dict(copy.deepcopy(EXTENDED), **{"$uses": ["JSONStructureValidation"]})
    json_structure.InstanceValidator(schema).validate({"n": 1})
    assert len(schema["$uses"]) > 1  # the bug: the package added add-ins to the caller's schema
    schema = dict(copy.deepcopy(EXTENDED), **{"$uses": ["JSONStructureValidation"]})
    pristine = copy.deepcopy(schema)
    instance = {"n": "x", "$uses": ["JSONStructureValidation"]}
    pristine_instance = copy.deepcopy(instance)
    instance_errors(schema, instance)
    validate_instance(schema, instance)
    assert schema == pristine and instance == pristine_instance


def test_package_accumulates_errors_and_wrapper_does_not():
    iv = json_structure.InstanceValidator(copy.deepcopy(EXTENDED))
    first = len(iv.validate_instance({}))
    assert len(iv.validate_instance({"n": 1})) >= first > 0  # the bug: a valid instance still "fails"
    assert instance_errors(EXTENDED, {}) and validate_instance(EXTENDED, {})
    assert instance_errors(EXTENDED, {"n": 1}) == [] and validate_instance(EXTENDED, {"n": 1}) == []
    sv = json_structure.SchemaValidator(extended=True)
    assert sv.validate({"type": "object"})
    assert schema_problems(EXTENDED) == []  # a fresh validator per call
    assert schema_problems(EXTENDED) == []


def test_package_ignores_typos_and_wrapper_reports_them():
    schema = dict(EXTENDED, properties={"n": {"type": "string", "maxlength": 3}}, requird=["n"])
    schema.pop("required")
    assert json_structure.SchemaValidator(extended=True).validate(copy.deepcopy(schema)) == []  # the bug
    found = {(p.path, p.severity) for p in check_typos(schema)}
    assert found == {(("properties", "n", "maxlength"), "warning"), (("requird",), "warning")}


def test_package_paths_are_not_rfc6901_and_wrapper_paths_are():
    schema = dict(EXTENDED, properties={"a/b": {"type": "string"}, "c~d": {"type": "int32"}},
                  required=["a/b", "missing"])
    raw = [e.path for e in json_structure.SchemaValidator(extended=True).validate(copy.deepcopy(schema))]
    assert "#/required[1]" in raw  # the bug: an index in brackets
    assert ("required", 1) in {p.path for p in check_valid(schema)}


def test_to_pointer_reads_keys_with_slashes_tildes_and_brackets():
    doc = {"properties": {"a/b": {"type": {"x[1]": 1}}, "a": {"b": 2}}, "required": ["q", "r"]}
    assert to_pointer("#/properties/a/b/type", doc) == ("properties", "a/b", "type")
    assert to_pointer("#/properties/a/b/type/x[1]", doc) == ("properties", "a/b", "type", "x[1]")
    assert to_pointer("#/required[1]", doc) == ("required", 1)
    assert to_pointer("#/properties/a/type(inline)", doc) == ("properties", "a")
    assert to_pointer("#", doc) == ()


def test_instance_paths_come_back_as_pointer_tuples():
    schema = dict(EXTENDED, properties={"list": {"type": "array", "items": {"type": "int32"}},
                                        "m/k": {"type": "map", "values": {"type": "string"}}}, required=[])
    inst = {"list": [1, "two"], "m/k": {"x~y": 3}}
    problems = instance_errors(schema, inst)
    assert {p.path for p in problems} == {("list", 1), ("m/k", "x~y")}
    # the one Problem shape of validation: the same place as RFC 6901 text, escaped
    assert {p.pointer for p in problems} == {"/list/1", "/m~1k/x~0y"}
    assert {p for p, _, _ in validate_instance(schema, inst)} == {("list", 1), ("m/k", "x~y")}


def test_package_false_reports_are_dropped():
    # maxLength is Core, not the validation add-in; the package warns about it.
    core = dict(EXTENDED, properties={"n": {"type": "string", "maxLength": 3}})
    raw = json_structure.SchemaValidator(extended=True)
    raw.validate(copy.deepcopy(core))
    assert any("maxLength" in w.message for w in raw.warnings)
    assert schema_problems(core) == []
    # The semantic-annotations add-in is real; the package does not know it.
    sem = dict(EXTENDED, **{"$schema": "https://json-structure.org/meta/semantic-annotations/v0/#",
                            "$uses": ["JSONStructureSemanticAnnotations"]})
    assert any(e.code == "SCHEMA_USES_UNKNOWN_EXTENSION"
               for e in json_structure.SchemaValidator(extended=True).validate(copy.deepcopy(sem)))
    assert check_valid(sem) == []


def test_too_deep_for_the_package_is_not_handed_to_it():
    deep: dict = {"type": "string"}
    for _ in range(600):
        deep = {"type": "array", "items": deep}
    schema = dict(EXTENDED, properties={"d": deep})
    assert schema_problems(schema) == []  # no RecursionError, no traceback
    value: list = []
    for _ in range(300):
        value = [value]
    errs = validate_instance(schema, {"n": 1, "d": value})
    assert errs and all(k in ("type",) for _, k, _ in errs)
