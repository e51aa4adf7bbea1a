"""Soundness, with generated instances (hypothesis-jsonschema): every value valid under the
original schema is valid under the projection (both validated with patterns as ECMA-262 reads
them, by mcplint's own engine), once the two documented narrowings are
undone (an optional property made required-and-nullable may be absent again; an object
the projection closed is open again). Recursion cuts and removed keywords only admit
more values, so they need no undoing."""

from __future__ import annotations

import copy
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import lint_json
from mcplint import project_schema
from mcplint.project import to_validation_schema
from mcplint.refs import index, is_local
from mcplint.schemawalk import subschemas
from .common import FILES, FIXTURE_TOOLS, HOSTED, LOCAL, EcmaValidator, load_doc, node_at


def relax(projected, items):
    """Undo the two documented narrowings on a copy of the projection (see module doc)."""
    out = copy.deepcopy(projected)
    # innermost first: undoing an outer narrowing (an added anyOf) removes the nodes inner ones point into
    for it, ptr in sorted(((it, ptr) for it in items for ptr in it.output), key=lambda x: -len(x[1])):
        if it.kind == "nullable":
            node = node_at(out, ptr[:-2])
            if isinstance(node, dict) and isinstance(node.get("required"), list):
                node["required"] = [k for k in node["required"] if k != ptr[-1]]
        elif it.kind == "narrowed" and ptr and ptr[-1] == "additionalProperties":
            node = node_at(out, ptr[:-1])
            if isinstance(node, dict):
                node.pop("additionalProperties", None)
        elif it.kind == "narrowed" and it.subject == "untyped-schema":
            node = node_at(out, ptr)
            if isinstance(node, dict):
                for k in ("type", "anyOf"):
                    node.pop(k, None)
    return out


def _slots():
    out = []
    for path in FILES:
        from mcplint.collect import collect
        from mcplint.config import Config

        coll = collect(load_doc(path), Config().protocol_versions)
        for tool in coll.tools:
            s = tool.data.get("inputSchema") if isinstance(tool.data, dict) else None
            if isinstance(s, dict):
                out.append((f"{path.name}:{tool.label}", s))
    return out


SLOTS = _slots() + [(label, t["inputSchema"]) for label, t in FIXTURE_TOOLS]


def _generatable(schema) -> bool:
    idx = index(schema)
    return all(is_local(r, idx) for r in idx.refs)


def has_tuple(schema) -> bool:
    return any(isinstance(sub.schema, dict) and isinstance(sub.schema.get("items"), list) for sub in subschemas(schema))


DRAFT7 = "http://json-schema.org/draft-07/schema#"


def original(schema) -> EcmaValidator:
    """A validator for a schema's meaning: an array under ``items`` has only ever meant draft-07's
    tuple form, so a schema that uses it without naming a dialect is read as draft-07 (an input,
    or a projection that keeps the form for a target that reads it, llama.cpp)."""
    if isinstance(schema, dict) and "$schema" not in schema and has_tuple(schema):
        schema = {"$schema": DRAFT7, **schema}
    return EcmaValidator(schema)


def test_tuple_forms_take_part_in_the_soundness_test():
    """Draft-07's tuple form (``items`` an array) is projected like everything else, so the slots
    that use it are tested too (they were left out while the projection kept the form as written)."""
    tuples = [i for i, (_, s) in enumerate(SLOTS) if has_tuple(s)]
    assert len(tuples) >= 3 and set(tuples) <= set(TESTED), tuples


@lru_cache(maxsize=None)
def _strategy(i: int):
    from hypothesis_jsonschema import from_schema

    try:
        return from_schema(SLOTS[i][1])
    except Exception:
        return None


@lru_cache(maxsize=None)
def _projection(i: int, profile: str):
    out, items = project_schema(SLOTS[i][1], profile)
    if out is None:
        return None
    projected = to_validation_schema(relax(out, items), profile)
    return original(projected)


TESTED = [i for i, (_, s) in enumerate(SLOTS) if _generatable(s)]


def test_most_slots_take_part_in_the_soundness_test():
    assert len(TESTED) >= 0.8 * len(SLOTS), (len(TESTED), len(SLOTS))


SOUND = HOSTED + LOCAL


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_valid_instance_stays_valid(data):
    """Corpus, example file and official examples, every hosted profile and local decoder."""
    i = data.draw(st.sampled_from(TESTED), label="slot")
    strat = _strategy(i)
    if strat is None:
        return
    try:
        instance = data.draw(strat, label="instance")
    except Exception:  # noqa: BLE001 - hypothesis-jsonschema gives up on a few schemas (e.g. invalid ones)
        return
    name, schema = SLOTS[i]
    full = original(schema)
    if not isinstance(instance, dict) or not full.is_valid(instance):  # (the slot's own dialect)
        return  # tool arguments are always an object
    for profile in SOUND:
        v = _projection(i, profile)
        if v is None:
            continue
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(instance)]
        assert not errors, (name, profile, instance, errors)


TUPLES = [i for i, (_, s) in enumerate(SLOTS) if has_tuple(s)]


@pytest.mark.parametrize("i", TUPLES, ids=[SLOTS[i][0] for i in TUPLES])
def test_every_tuple_slot_stays_sound_for_every_profile(i):
    """Each slot that uses the tuple form, for each profile (the sampled test above may miss them)."""
    strat = _strategy(i)
    assert strat is not None, SLOTS[i][0]
    full = original(SLOTS[i][1])

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strat)
    def check(instance):
        if not isinstance(instance, dict) or not full.is_valid(instance):
            return
        for profile in SOUND:
            v = _projection(i, profile)
            if v is not None:
                assert not [e.message for e in v.iter_errors(instance)], (SLOTS[i][0], profile, instance)

    check()


def _tree():
    return st.recursive(st.fixed_dictionaries({"v": st.integers()}),
                        lambda kids: st.fixed_dictionaries({"v": st.integers()},
                                                           optional={"kids": st.lists(kids, max_size=2)}),
                        max_leaves=12)


HARD = [
    ({"type": "object", "properties": {
        "shape": {"oneOf": [{"type": "object", "properties": {"r": {"type": "number", "minimum": 0}}, "required": ["r"]},
                            {"type": "object", "properties": {"w": {"type": "number"}, "h": {"type": "number"}}}]},
        "tags": {"type": "array", "items": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"}, "minItems": 2,
                 "maxItems": 4, "uniqueItems": True},
        "meta": {"type": "object", "additionalProperties": {"type": "integer"}},
        "mode": {"allOf": [{"type": "string"}, {"enum": ["a", "b", "c"]}]},
        "n": {"type": ["integer", "null"], "multipleOf": 3, "exclusiveMaximum": 100},
        "c": {"const": "fixed"}}, "required": ["shape"]}, None),
    ({"type": "object", "properties": {"q": {"type": "string"}, "id": {"type": "integer"}},
      "anyOf": [{"required": ["q"]}, {"required": ["id"]}], "not": {"required": ["bad"]}}, None),
    ({"type": "object", "properties": {"tree": {"$ref": "#/$defs/T"}},
      "$defs": {"T": {"type": "object", "properties": {"v": {"type": "integer"},
                                                      "kids": {"type": "array", "items": {"$ref": "#/$defs/T"},
                                                               "maxItems": 2}}}}},
     st.fixed_dictionaries({}, optional={"tree": _tree()})),
    # draft-07's tuple form as zod-to-json-schema writes z.tuple: closed, fixed, open with a rest schema
    ({"$schema": DRAFT7, "type": "object", "properties": {
        "at": {"type": "array", "items": [{"type": "number", "minimum": -180}, {"type": "number"}],
               "additionalItems": False, "minItems": 2, "maxItems": 2},
        "row": {"type": "array", "items": [{"type": "string", "maxLength": 3}, {"type": "integer"}],
                "additionalItems": {"type": "boolean"}},
        "pair": {"type": "array", "items": [{"type": "string"}, {"enum": ["x", "y"]}], "additionalItems": False}},
      "required": ["at"], "additionalProperties": False}, None),
]


@pytest.mark.slow
@pytest.mark.parametrize("k", range(len(HARD)))
def test_every_valid_instance_stays_valid_on_hard_schemas(k):
    from hypothesis_jsonschema import from_schema

    schema, strategy = HARD[k]
    orig = original(schema)
    checks = []
    for profile in SOUND:
        out, items = project_schema(schema, profile)
        assert out is not None, profile
        assert not [f for f in lint_json({"name": "t", "inputSchema": out}, profiles=[profile], select=["DEC"])
                    if f.consequence in ("reject", "drop", "weaken") and f.rule != "DEC009"], profile
        checks.append((profile, original(to_validation_schema(relax(out, items), profile))))

    @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy if strategy is not None else from_schema(schema))
    def check(instance):
        if not orig.is_valid(instance):
            return
        for profile, v in checks:
            errors = [e.message for e in v.iter_errors(instance)]
            assert not errors, (profile, instance, errors)

    check()


# Random schemas: the constructs the projection rewrites, nested, with instances generated
# from each schema. Small counts keep the file fast; the corpus test above covers breadth.
NAMES = st.sampled_from(["a", "b", "c", "kind", "n"])


def _leaf():
    return st.one_of(
        st.sampled_from([{"type": "string"}, {"type": "boolean"}, {"type": "integer"}, {"type": "null"}, {},
                         {"type": "string", "format": "date"}, {"type": "string", "format": "uri"},
                         {"type": "string", "pattern": "^[a-c]+$"}, {"type": "string", "pattern": "b"},
                         {"type": ["integer", "null"]}, {"type": ["string", "integer"]}, {"const": "x"}, {"const": 1},
                         {"enum": ["x", "y"]}, {"enum": [1, "x", None]}, {"type": "number", "multipleOf": 0.5},
                         {"type": "string", "enum": ["p", "q"]}]),
        st.builds(lambda lo, span: {"type": "integer", "minimum": lo, "maximum": lo + span},
                  st.integers(-5, 5), st.integers(0, 10)),
        st.builds(lambda lo, span: {"type": "string", "minLength": lo, "maxLength": lo + span},
                  st.integers(0, 3), st.integers(0, 4)),
    )


def _compound(kids):
    def obj(props, req_bits, ap):
        out = {"type": "object", "properties": props}
        req = [n for n, b in zip(props, req_bits) if b]
        if req:
            out["required"] = req
        if ap != "none":
            out["additionalProperties"] = {"false": False, "true": True, "schema": {"type": "integer"}}[ap]
        return out

    return st.one_of(
        st.builds(obj, st.dictionaries(NAMES, kids, max_size=3), st.lists(st.booleans(), min_size=3, max_size=3),
                  st.sampled_from(["none", "false", "true", "schema"])),
        st.builds(lambda i, lo, u: {"type": "array", "items": i, "minItems": lo, "maxItems": lo + 3,
                                    **({"uniqueItems": True} if u else {})}, kids, st.integers(0, 2), st.booleans()),
        st.lists(kids, min_size=2, max_size=3).map(lambda b: {"oneOf": b}),
        st.lists(kids, min_size=2, max_size=3).map(lambda b: {"anyOf": b}),
        st.lists(kids, min_size=1, max_size=2).map(lambda b: {"allOf": b}),
        st.builds(lambda k, c: {"type": "object", "properties": {"kind": {"type": "string"}, "a": k},
                                "if": {"properties": {"kind": {"const": c}}}, "then": {"required": ["a"]}},
                  kids, st.sampled_from(["x", "y"])),
        _leaf().map(lambda n: {"type": "string", "not": n}),
        st.builds(lambda ms, extra: {"type": "array", "items": ms, **extra}, st.lists(kids, min_size=1, max_size=3),
                  st.sampled_from([{}, {"additionalItems": False}, {"additionalItems": {"type": "integer"}},
                                   {"additionalItems": False, "minItems": 1}])),
    )


ROOTS = st.builds(lambda props, req_bits, ap: {"type": "object", "properties": props,
                                               "required": [n for n, b in zip(props, req_bits) if b],
                                               **({"additionalProperties": False} if ap else {})},
                  st.dictionaries(NAMES, st.recursive(_leaf(), _compound, max_leaves=5), min_size=1, max_size=3),
                  st.lists(st.booleans(), min_size=3, max_size=3), st.booleans())


# a schema that uses draft-07's tuple form names its dialect, as generators of it do
ROOTS = ROOTS.map(lambda s: {"$schema": DRAFT7, **s} if has_tuple(s) else s)


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=ROOTS, data=st.data())
def test_random_schemas_project_soundly_for_every_profile(schema, data):
    from hypothesis import assume
    from hypothesis_jsonschema import from_schema

    try:
        instance = data.draw(from_schema(schema), label="instance")
    except Exception:  # noqa: BLE001 - hypothesis-jsonschema fails on some unsatisfiable schemas
        assume(False)
    assume(original(schema).is_valid(instance))
    for profile in SOUND:
        out, items = project_schema(schema, profile)
        if out is None:  # honest: never silent
            assert [i for i in items if i.kind == "left-out" and i.message], profile
            continue
        v = original(to_validation_schema(relax(out, items), profile))
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(instance)]
        assert not errors, (profile, schema, out, instance, errors)
