"""Property test of the fallback projection (binding §4.1): every instance the JSON
Structure schema accepts, the JSON Schema projection accepts too.

Hypothesis draws JSON Structure schemas (all Core types, definitions and $ref, unions,
choices, tuples, alternate names, validation keywords with and without activation);
instances come from mcplint's own generator, and only those mcplint's validator accepts
are used.
"""

from __future__ import annotations

import pytest

import random
import string

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcplint.jstruct import to_json_schema, validate_instance
from mcplint.jstruct.generate import instances
from mcplint.jstruct.keywords import PRIMITIVES

IDENT = st.text(string.ascii_letters + "_", min_size=1, max_size=6).filter(lambda s: s != "null")
PRIMS = sorted(PRIMITIVES)


def _primitive():
    base = st.sampled_from(PRIMS).map(lambda t: {"type": t})
    constrained = st.one_of(
        st.builds(lambda lo, span: {"type": "int32", "minimum": lo, "maximum": lo + span},
                  st.integers(-100, 100), st.integers(0, 50)),
        st.builds(lambda lo: {"type": "double", "exclusiveMinimum": lo}, st.floats(-10, 10)),
        st.builds(lambda a, b: {"type": "string", "minLength": a, "maxLength": a + b},
                  st.integers(0, 3), st.integers(0, 5)),
        st.just({"type": "string", "pattern": "^[a-z]*$"}),
        st.lists(st.text(string.ascii_lowercase, min_size=1, max_size=4), min_size=1, max_size=4, unique=True)
        .map(lambda e: {"type": "string", "enum": e}),
        st.lists(st.integers(-2**63, 2**63 - 1).map(str), min_size=1, max_size=3, unique=True)
        .map(lambda e: {"type": "int64", "enum": e}),
        st.just({"type": "decimal", "const": "12.50"}),
        st.lists(st.sampled_from(["string", "int32", "boolean", "null", "double", "uuid"]), min_size=1, max_size=3,
                 unique=True).map(lambda ts: {"type": ts}),
        st.just({"type": {"$ref": "#/definitions/ns/Shared"}}),
    )
    return st.one_of(base, constrained)


def _compound(children):
    props = st.dictionaries(IDENT, children, min_size=1, max_size=3)

    def obj(p, req_bits, addl, alt):
        names = list(p)
        out = {"type": "object", "properties": p}
        req = [n for n, b in zip(names, req_bits) if b]
        if req:
            out["required"] = req
        if addl == "false":
            out["additionalProperties"] = False
        elif addl == "schema":
            out["additionalProperties"] = {"type": "string"}
        if alt:
            first = names[0]
            p[first] = dict(p[first], altnames={"json": first + "-w"})
        return out

    def tup(p):
        return {"type": "tuple", "name": "T", "properties": p, "tuple": list(p)}

    return st.one_of(
        st.builds(obj, props, st.lists(st.booleans(), min_size=3, max_size=3),
                  st.sampled_from(["none", "false", "schema"]), st.booleans()),
        st.builds(lambda i, lo: {"type": "array", "items": i, "minItems": lo, "maxItems": lo + 3},
                  children, st.integers(0, 2)),
        st.builds(lambda i: {"type": "array", "items": i, "uniqueItems": True}, children),
        st.builds(lambda i: {"type": "set", "items": i}, _primitive()),
        st.builds(lambda v: {"type": "map", "values": v, "maxEntries": 3}, children),
        st.builds(tup, props),
        st.builds(lambda c: {"type": "choice", "choices": c}, st.dictionaries(IDENT, children, min_size=1, max_size=3)),
    )


def _composed():
    i32 = {"type": "int32"}
    return st.one_of(
        st.builds(lambda a, b: {"type": "int32", "anyOf": [dict(i32, minimum=a), dict(i32, maximum=b)]},
                  st.integers(-5, 5), st.integers(-5, 5)),
        st.builds(lambda a, b: {"type": "int32", "oneOf": [dict(i32, minimum=a), dict(i32, maximum=b)]},
                  st.integers(-5, 5), st.integers(-5, 5)),
        st.builds(lambda a: {"type": "string", "allOf": [{"type": "string", "maxLength": a}]}, st.integers(0, 6)),
        st.builds(lambda a: {"type": "int32", "if": dict(i32, minimum=a), "then": dict(i32, maximum=a + 50),
                             "else": dict(i32, minimum=a - 50)}, st.integers(-20, 20)),
        st.just({"type": "int32", "not": {"type": "int32", "minimum": 0}}),
    )


INHERITANCE = {
    "Base": {"abstract": True, "type": "object",
             "properties": {"kind": {"type": "string"}, "label": {"type": "string"}}},
    "A": {"type": "object", "$extends": "#/definitions/Base", "properties": {"a": {"type": "int32"}},
          "additionalProperties": False, "required": ["a"]},
    "B": {"type": "object", "$extends": "#/definitions/Base", "properties": {"b": {"type": "uuid"}}},
}
INHERITED = st.sampled_from([
    {"type": {"$ref": "#/definitions/A"}},
    {"type": "choice", "$extends": "#/definitions/Base", "selector": "kind",
     "choices": {"A": {"type": {"$ref": "#/definitions/A"}}, "B": {"type": {"$ref": "#/definitions/B"}}}},
    {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "int8"}},
     "required": [["x"], ["y"]]},
])

NODE = st.recursive(st.one_of(_primitive(), _composed(), INHERITED), _compound, max_leaves=8)
DIALECT = st.sampled_from([
    ("https://json-structure.org/meta/validation/v0/#", None),
    ("https://json-structure.org/meta/extended/v0/#", ["JSONStructureValidation", "JSONStructureAlternateNames"]),
    ("https://json-structure.org/meta/extended/v0/#", []),  # add-in keywords present but not activated
])


@st.composite
def schemas(draw):
    uri, uses = draw(DIALECT)
    props = draw(st.dictionaries(IDENT, NODE, min_size=1, max_size=4))
    schema = {"$schema": uri, "$id": "https://t.example/p", "name": "P", "type": "object", "properties": props,
              "definitions": dict(INHERITANCE, ns={"Shared": draw(
                  _primitive().filter(lambda s: not isinstance(s["type"], dict)))})}
    if uses is not None:
        schema["$uses"] = uses
    return schema


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas(), st.randoms(use_true_random=False))
def test_projection_accepts_every_valid_instance(schema, rnd):
    projected, _ = to_json_schema(schema)
    jsonschema.Draft202012Validator.check_schema(projected)
    validator = jsonschema.Draft202012Validator(projected)
    for inst in instances(schema, random.Random(rnd.random()), 20):
        if validate_instance(schema, inst):
            continue
        errors = [e.message for e in validator.iter_errors(inst)]
        assert not errors, (inst, errors)


def test_generator_is_not_vacuous():
    """Most generated instances are valid, so the property test above checks something."""
    rnd = random.Random(7)
    valid = total = 0
    fixed = [
        {"$schema": "https://json-structure.org/meta/validation/v0/#", "$id": "https://t.example/a", "name": "A",
         "type": "object", "properties": {
             "n": {"type": "int64"}, "d": {"type": "decimal"}, "when": {"type": "datetime"},
             "tags": {"type": "set", "items": {"type": "string"}, "maxItems": 3},
             "pt": {"type": "tuple", "name": "Pt", "properties": {"x": {"type": "int8"}}, "tuple": ["x"]},
             "c": {"type": "choice", "choices": {"a": {"type": "uuid"}, "b": {"type": "duration"}}},
             "m": {"type": "map", "values": {"type": "jsonpointer"}}},
         "required": ["n", "pt"]},
    ]
    for schema in fixed:
        for inst in instances(schema, rnd, 100):
            total += 1
            valid += not validate_instance(schema, inst)
    assert valid / total > 0.9
