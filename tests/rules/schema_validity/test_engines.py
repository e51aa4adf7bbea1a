"""The two validation engines behind the SCH rules agree.

jsonschema-rs (the engine mcplint uses) is checked against python-jsonschema (the reference
oracle) over every schema slot of the corpus and the official examples, and over schemas
generated and mutated with hypothesis, in every dialect mcplint supports: both must report the
same set of (pointer, meta-schema keyword) errors after mcplint's normalisation
(:func:`mcplint.rules.schema_validity.dialect.meta_findings`). The differences that normalisation
covers are by design and documented there and in the README:

* jsonschema-rs's built-in draft-04 meta-schema lacks ``enum``'s ``minItems: 1`` and
  ``uniqueItems: true``; mcplint adds those two checks for draft-04 itself.
* jsonschema-rs names a failed draft-04 ``dependencies`` (array form) ``required``.
"""

from __future__ import annotations

import copy
import json
import socket
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcplint.dialects import CANONICAL, JSON_SCHEMA_DIALECTS, dialect_of
from mcplint.metaschema import ValueChecker, engine, meta_errors
from mcplint.rules.schema_validity.dialect import meta_findings
from mcplint.rules.schema_validity.values import DATA
from mcplint.schemawalk import subschemas

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


def _slots():
    out = []
    for f in sorted((DATA_DIR / "corpus").glob("*.json")) + sorted((DATA_DIR / "mcp-examples").rglob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "tools" in data:
            tools = data["tools"]
        elif isinstance(data, dict) and isinstance(data.get("result"), dict):
            tools = data["result"].get("tools", [])
        elif isinstance(data, dict) and "inputSchema" in data:
            tools = [data]
        else:
            tools = []
        for t in tools:
            for kind in ("inputSchema", "outputSchema"):
                if isinstance(t.get(kind), (dict, bool)):
                    out.append((f"{f.stem}:{t.get('name')}:{kind}", t[kind]))
    return out


SLOTS = _slots()


def errors_of(schema, dialect, eng):
    return sorted({(json.dumps(e.path), e.keyword) for e, _ in meta_findings(schema, dialect, eng)})


def messages_of(schema, dialect, eng):
    return sorted(m for _, m in meta_findings(schema, dialect, eng))


def test_default_engine_is_rust():
    import os

    if os.environ.get("MCPLINT_SCHEMA_ENGINE"):
        pytest.skip("engine chosen by MCPLINT_SCHEMA_ENGINE")
    assert engine() == "rs"


def test_corpus_is_large_enough():
    assert len(SLOTS) >= 150


@pytest.mark.slow
def test_engines_agree_on_the_corpus_in_every_dialect():
    """Each real slot, read in each dialect (not only its own): same errors, same messages."""
    disagreements = []
    compared = 0
    for name, schema in SLOTS:
        for dialect in JSON_SCHEMA_DIALECTS:
            s = copy.deepcopy(schema)
            if isinstance(s, dict):
                s["$schema"] = CANONICAL[dialect]
            rs, py = errors_of(s, dialect, "rs"), errors_of(s, dialect, "python")
            compared += 1
            if rs != py or messages_of(s, dialect, "rs") != messages_of(s, dialect, "python"):
                disagreements.append((name, dialect, rs, py))
    assert compared >= 5 * 150
    assert not disagreements, disagreements[:3]


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "enum": []}}}},
    {"properties": {"a": {"enum": []}}}, {"items": [{"enum": [1, 1]}]},
    {"dependencies": {"a": {"properties": {"b": {"enum": []}}}}}, {"$defs": {"a": {"enum": []}}},
    {"additionalProperties": {"not": {"enum": []}}}, {"allOf": [{"enum": []}], "not": {"enum": [2, 2]}},
    {"if": {"enum": []}}, {"properties": {"x": {"items": {"enum": []}, "minimum": "a"}}},
], ids=lambda s: json.dumps(s)[:40])
def test_draft04_enum_errors_are_placed_as_the_meta_schema_places_them(schema):
    """jsonschema-rs's draft-04 meta-schema omits `enum`'s minItems/uniqueItems, so SCH101 adds
    them; where the meta-schema reads the subschema inside an anyOf (items, additionalItems,
    additionalProperties, a dependencies member) the error is that anyOf failing, and where it
    does not read it at all (under $defs or if, unknown to draft-04) there is none."""
    schema = {"$schema": CANONICAL["draft-04"], **schema}
    assert errors_of(schema, "draft-04", "rs") == errors_of(schema, "draft-04", "python")
    assert messages_of(schema, "draft-04", "rs") == messages_of(schema, "draft-04", "python")


def test_engines_agree_on_value_checks_over_the_corpus():
    checked = 0
    for name, schema in SLOTS:
        d = dialect_of(schema)
        if not isinstance(schema, dict) or d not in JSON_SCHEMA_DIALECTS:
            continue
        rs, py = ValueChecker(schema, d, "rs"), ValueChecker(schema, d, "python", fast=False)
        for sub in subschemas(schema):
            if not isinstance(sub.schema, dict):
                continue
            for kw in DATA:
                if kw in sub.schema:
                    for probe in (sub.schema[kw], None, "x", 1, [], {}):
                        a, b = rs.errors(sub.pointer, probe), py.errors(sub.pointer, probe)
                        assert (a is None) == (b is None) and bool(a) == bool(b), (name, sub.pointer, probe, a, b)
                        checked += 1
    assert checked > 500


def test_subschemas_compiled_beside_the_defs_agree_with_the_whole_slot():
    """A subschema holding references is compiled on its own beside the root's $defs when every
    reference points into them: the same verdicts as looking it up in a compilation of the slot."""
    checked = 0
    for name, schema in SLOTS:
        d = dialect_of(schema)
        if not isinstance(schema, dict) or d not in JSON_SCHEMA_DIALECTS:
            continue
        beside, whole = ValueChecker(schema, d, "rs"), ValueChecker(schema, d, "rs")
        whole._defs = None  # as if some reference pointed elsewhere
        if beside._defs_only() is None:
            continue
        for sub in subschemas(schema):
            node = sub.schema
            if not isinstance(node, dict) or "$ref" not in str(node):
                continue
            for probe in (*(node[k] for k in DATA if k in node), None, "x", 1, [], {}, {"a": 1}, [1, "x"]):
                assert beside.errors(sub.pointer, probe) == whole.errors(sub.pointer, probe), (name, sub.pointer)
                checked += 1
    assert checked > 100


def test_references_outside_the_defs_compile_the_whole_slot():
    schema = {"type": "object", "$defs": {"n": {"type": "integer"}},
              "properties": {"a": {"items": {"$ref": "#/$defs/n"}, "default": ["x"]},
                             "b": {"items": {"$ref": "#/properties/a/items"}, "default": [1]}}}
    assert ValueChecker(schema, "2020-12", "rs")._defs_only() is None
    del schema["properties"]["b"]
    checker = ValueChecker(schema, "2020-12", "rs")
    assert checker._defs_only() == {"$defs": {"n": {"type": "integer"}}}
    assert checker.errors(("properties", "a"), ["x"]) == ["type"] and checker.errors(("properties", "a"), [2]) == []
    anchored = {"$defs": {"n": {"$anchor": "n", "type": "integer"}}, "items": {"$ref": "#/$defs/n"}}
    assert ValueChecker(anchored, "2020-12", "rs")._defs_only() is None


# ---------------------------------------------------------------- generated and mutated schemas

KEYWORDS = [
    "type", "properties", "required", "items", "prefixItems", "additionalProperties", "enum", "const",
    "minLength", "maxLength", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
    "pattern", "format", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$defs",
    "definitions", "dependencies", "dependentRequired", "dependentSchemas", "additionalItems", "contains",
    "minItems", "maxItems", "uniqueItems", "propertyNames", "patternProperties", "$id", "$anchor",
    "$dynamicRef", "$dynamicAnchor", "$comment", "title", "description", "default", "examples",
    "deprecated", "readOnly", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains",
    "contentMediaType", "contentSchema", "id", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.5, -0.5, 2.0, 0.0]),
    st.sampled_from(["string", "object", "array", "integer", "null", "objekt", "#/$defs/a", "#a", "a", "",
                     "^[a-z]+$", "https://x.test/s", "date-time", "1x"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(KEYWORDS + ["a", "b"]), inner, max_size=3)),
    max_leaves=12,
)
schemas = st.recursive(
    st.one_of(st.booleans(), st.dictionaries(st.sampled_from(KEYWORDS), values, max_size=4)),
    lambda inner: st.dictionaries(
        st.sampled_from(KEYWORDS),
        st.one_of(values, inner, st.lists(inner, max_size=3),
                  st.dictionaries(st.sampled_from(["a", "b", "x_1"]), inner, max_size=3)),
        max_size=5),
    max_leaves=20,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=schemas, dialect=st.sampled_from(JSON_SCHEMA_DIALECTS))
def test_engines_agree_on_generated_schemas(schema, dialect):
    if isinstance(schema, dict):
        schema["$schema"] = CANONICAL[dialect]
    assert errors_of(schema, dialect, "rs") == errors_of(schema, dialect, "python")


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), dialect=st.sampled_from(JSON_SCHEMA_DIALECTS))
def test_engines_agree_on_mutated_corpus_schemas(data, dialect):
    name, schema = data.draw(st.sampled_from([s for s in SLOTS if isinstance(s[1], dict)]))
    schema = copy.deepcopy(schema)
    nodes = [s.schema for s in subschemas(schema) if isinstance(s.schema, dict)]
    for _ in range(data.draw(st.integers(1, 3))):
        node = data.draw(st.sampled_from(nodes))
        op = data.draw(st.sampled_from(["set", "delete"]))
        if op == "set":
            node[data.draw(st.sampled_from(KEYWORDS))] = data.draw(values)
        elif node:
            node.pop(data.draw(st.sampled_from(sorted(node))))
    schema["$schema"] = CANONICAL[dialect]
    assert errors_of(schema, dialect, "rs") == errors_of(schema, dialect, "python"), name


# ---------------------------------------------------------------- differences covered by design

def test_draft04_enum_checks_are_completed_for_the_rust_engine():
    s = {"$schema": CANONICAL["draft-04"], "properties": {"a": {"enum": []}, "b": {"enum": [1, 1.0]}}}
    raw = {(e.path, e.keyword) for e in meta_errors(s, "draft-04", "rs")}
    assert raw == set()  # the engine's own draft-04 meta-schema misses both
    assert errors_of(s, "draft-04", "rs") == errors_of(s, "draft-04", "python") == sorted(
        {(json.dumps(["properties", "a", "enum"]), "minItems"), (json.dumps(["properties", "b", "enum"]), "uniqueItems")})


def test_draft04_exclusive_bound_is_named_alike_by_both_engines():
    """draft-04's meta-schema bounds multipleOf with minimum 0 and a boolean exclusiveMinimum:
    python-jsonschema names `minimum`, jsonschema-rs names the flag (found by the mutation test)."""
    s = {"$schema": CANONICAL["draft-04"], "properties": {"a": {"multipleOf": 0}}}
    assert {e.keyword for e in meta_errors(s, "draft-04", "rs")} == {"exclusiveMinimum"}
    assert errors_of(s, "draft-04", "rs") == errors_of(s, "draft-04", "python") == [
        (json.dumps(["properties", "a", "multipleOf"]), "minimum")]


# ---------------------------------------------------------------- never any network

@pytest.fixture
def no_network(monkeypatch):
    def trap(*a, **k):
        raise AssertionError(f"network access attempted: {a!r}")

    monkeypatch.setattr(socket.socket, "connect", trap)
    monkeypatch.setattr(socket.socket, "connect_ex", trap)
    monkeypatch.setattr(socket, "create_connection", trap)
    monkeypatch.setattr(socket, "getaddrinfo", trap)


@pytest.mark.parametrize("eng", ["rs", "python"])
@pytest.mark.parametrize("dialect", JSON_SCHEMA_DIALECTS)
def test_engines_never_retrieve(no_network, eng, dialect):
    schema = {
        "$schema": CANONICAL[dialect], "$id": "https://evil.test/root.json", "type": "object",
        "properties": {
            "a": {"$ref": "https://evil.test/a.json", "default": 1},
            "b": {"$ref": "http://127.0.0.1:9/b.json#/x", "enum": [1]},
            "c": {"allOf": [{"$ref": "other.json"}], "default": "x"},
            "d": {"type": "integer", "default": "not an integer"},
        },
    }
    meta_errors(schema, dialect, eng)
    checker = ValueChecker(schema, dialect, eng)
    assert checker.errors(("properties", "d"), "not an integer")  # the local part is still checked
    checker.errors(("properties", "a"), 1)


_plain_values = st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False), st.text(max_size=3), st.booleans(),
                          st.none(), st.lists(st.integers(0, 2), max_size=2), st.dictionaries(st.text(max_size=1),
                                                                                                st.none(), max_size=2))
_simple_branches = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["integer", "number", "string", "null", "boolean", "array", "object", ["string", "null"]]),
    "enum": st.lists(_plain_values, min_size=1, max_size=3), "const": _plain_values, "description": st.just("d")})


@settings(max_examples=300, deadline=None)
@given(branches=st.lists(_simple_branches, min_size=1, max_size=3), value=_plain_values,
       dialect=st.sampled_from(["2020-12", "draft-07"]))
@pytest.mark.slow
def test_anyof_value_plans_agree_with_the_engine(branches, value, dialect):
    """Value checks answer an anyOf of simple branches (Pydantic's optional fields) in Python:
    the same verdict as the engine, which names `anyOf` when no branch accepts the value."""
    import jsonschema_rs

    from mcplint.metaschema import AnyOfPlan, value_plan

    node = {"anyOf": branches, "default": None, "title": "T"}
    plan = value_plan(node)
    assert isinstance(plan, AnyOfPlan)
    got = plan.errors(value)
    cls = jsonschema_rs.Draft202012Validator if dialect == "2020-12" else jsonschema_rs.Draft7Validator
    engine = [e.kind.name for e in cls(node).iter_errors(value)]
    if got is not None:
        assert got == engine, (node, value)


_bounded_nodes = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["integer", "number", "string", ["string", "null"], ["integer", "string"]]),
    "enum": st.lists(_plain_values, min_size=1, max_size=3), "description": st.just("d"),
    "minimum": st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False)),
    "maximum": st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False)),
    "exclusiveMinimum": st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False), st.booleans()),
    "exclusiveMaximum": st.one_of(st.integers(-3, 3), st.booleans()),
    "minLength": st.integers(0, 3), "maxLength": st.integers(0, 3)})


@settings(max_examples=400, deadline=None)
@given(node=_bounded_nodes, value=st.one_of(_plain_values, st.text(max_size=4), st.integers(-5, 5)),
       dialect=st.sampled_from(["2020-12", "draft-07", "draft-04"]), in_anyof=st.booleans())
@pytest.mark.slow
def test_bounded_value_plans_agree_with_the_engine(node, value, dialect, in_anyof):
    """Numeric bounds and string lengths are checked in Python as well: wherever the plan gives a
    verdict it is the engine's, keyword for keyword; where the engine's order would decide which
    keyword is named first, or the dialect reads a bound otherwise (draft-04), the plan leaves it
    to the engine."""
    import jsonschema_rs

    from mcplint.metaschema import value_plan

    if in_anyof:  # beside a branch only the engine can read
        node = {"anyOf": [node, {"type": "array", "items": {"pattern": "^x"}}]}
    plan = value_plan(node, dialect)
    classes = {"2020-12": jsonschema_rs.Draft202012Validator, "draft-07": jsonschema_rs.Draft7Validator,
               "draft-04": jsonschema_rs.Draft4Validator}
    got = plan.errors(value) if plan is not None else None
    try:
        validator = classes[dialect](node)
    except jsonschema_rs.ValidationError:  # a schema the engine refuses: the plan must not judge it either
        assert got is None, (node, value)
        return
    if got is not None:
        assert got == [e.kind.name for e in validator.iter_errors(value)], (node, value)


def test_bounded_plans_answer_the_usual_defaults_without_an_engine():
    from mcplint.metaschema import value_plan

    node = {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}
    assert value_plan(node).errors(10) == [] and value_plan(node).errors(0) == ["minimum"]
    assert value_plan({"type": "string", "minLength": 2}).errors("a") == ["minLength"]
    assert value_plan({"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}).errors(None) == []
    assert value_plan({"type": "number", "exclusiveMinimum": True, "minimum": 0}, "draft-04") is None
    assert value_plan({"type": "string", "minLength": 1}).errors("é") is None  # non-ASCII: the engine counts
