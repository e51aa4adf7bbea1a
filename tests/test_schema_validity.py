"""SCH family behaviour beyond the fixture table: dialect detection, both engines giving the
same findings through the whole pipeline, the corpus, JSON Structure slots, deep nesting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import lint_json, load_cases, run_case
from mcplint import metaschema
from mcplint.config import Config
from mcplint.dialects import JSON_STRUCTURE_URIS, dialect_of, near_miss
from mcplint.engine import lint_document, lint_paths
from mcplint.model import Document, Source

DATA = Path(__file__).parent / "data"
SCH_CASES = [c for _, c in load_cases() if c["rule"].startswith("SCH")]


@pytest.mark.parametrize("schema, expected", [
    ({}, "2020-12"),
    (True, "2020-12"),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, "2020-12"),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema#"}, "2020-12"),
    ({"$schema": "https://json-schema.org/draft/2019-09/schema"}, "2019-09"),
    ({"$schema": "http://json-schema.org/draft-07/schema#"}, "draft-07"),
    ({"$schema": "http://json-schema.org/draft-07/schema"}, "draft-07"),
    ({"$schema": "http://json-schema.org/draft-06/schema#"}, "draft-06"),
    ({"$schema": "http://json-schema.org/draft-04/schema#"}, "draft-04"),
    ({"$schema": "https://json-schema.org/draft-07/schema#"}, None),  # https is a different URI
    ({"$schema": "https://example.test/dialect"}, None),
    ({"$schema": 7}, None),
    ({"$schema": None}, None),
])
def test_dialect_of(schema, expected):
    assert dialect_of(schema) == expected


@pytest.mark.parametrize("uri", JSON_STRUCTURE_URIS)
def test_json_structure_uris_are_their_own_dialect(uri):
    assert dialect_of({"$schema": uri}) == "json-structure"
    assert dialect_of({"$schema": uri.rstrip("#")}) == "json-structure"


def test_near_miss():
    assert near_miss("https://json-schema.org/draft-07/schema") == "http://json-schema.org/draft-07/schema#"
    assert near_miss("http://json-schema.org/draft/2020-12/schema/") == "https://json-schema.org/draft/2020-12/schema"
    assert near_miss("https://example.test/x") is None


JSTRUCT_TOOL = {
    "name": "convert",
    "inputSchema": {
        "$schema": "https://json-structure.org/meta/extended/v0/#", "$id": "https://tools.example.test/convert",
        "$uses": ["JSONStructureValidation"], "name": "ConvertInput", "type": "object",
        "properties": {"celsius": {"type": "double", "minimum": -273.15}, "tags": {"type": "array"},
                       "mode": {"type": "string", "requried": True, "nullable": True}},
        "required": ["celsius", "unknown"], "additionalProperties": False,
    },
}


def test_json_structure_slots_are_left_to_the_jst_family():
    findings = lint_json(JSTRUCT_TOOL, select=["SCH"])
    assert findings == []
    # the same body declared as 2020-12 fires several SCH rules: the skip is what keeps it quiet
    as_json_schema = json.loads(json.dumps(JSTRUCT_TOOL))
    del as_json_schema["inputSchema"]["$schema"]
    assert {f.rule for f in lint_json(as_json_schema, select=["SCH"])} >= {"SCH101", "SCH103", "SCH106", "SCH107"}


def _signature(findings):
    return sorted((f.rule, str(f.pointer), f.severity.label, f.message) for f in findings)


@pytest.mark.parametrize("case", SCH_CASES, ids=[f"{c['rule']}: {c['description']}" for c in SCH_CASES])
def test_both_engines_give_identical_findings(case, monkeypatch):
    results = {}
    for eng in metaschema.ENGINES:
        monkeypatch.setattr(metaschema, "_engine", eng)
        results[eng] = _signature(run_case(case))
    assert results["rs"] == results["python"]


def test_corpus_has_no_schema_validity_findings():
    """Every corpus slot was reviewed: the servers' schemas are valid in their dialects and hold none
    of the mistakes SCH looks for (their enums, defaults and consts validate; arrays have items;
    untyped properties use anyOf/$ref/const). A change here is a false positive or a new rule to review."""
    result = lint_paths([str(DATA / "corpus"), str(DATA / "mcp-examples")], Config(select=("SCH",)))
    assert result.tools >= 150
    # reviewed: OpenAPI-converted schemas (github, notion) use formats JSON Schema does not define
    formats = sorted(f.message.split('"')[1] for f in result.findings if f.rule == "SCH110")
    assert formats == ["binary", "int32", "int32", "int32", "int32", "json", "json"]
    assert [(f.origin, str(f.pointer), f.message) for f in result.findings if f.rule != "SCH110"] == []


def test_official_examples_are_clean_for_their_own_versions():
    for vdir in sorted((DATA / "mcp-examples").iterdir()):
        files = [str(p) for p in vdir.rglob("*.json") if "Tool" in p.parent.name and "Result" not in p.parent.name]
        result = lint_paths(files, Config(select=("SCH",), protocol_versions=(vdir.name,)))
        assert result.findings == [], vdir.name


def _doc(data):
    return Document(Source("deep.json", "", "json"), data)


@pytest.mark.parametrize("levels", [60, 20_000])
def test_deep_nesting_is_reported_not_crashed_on(levels):
    schema: dict = {"type": "object"}
    node = schema
    for _ in range(levels):
        node["not"] = {}
        node = node["not"]
    tool = {"name": "deep", "inputSchema": schema}
    _, findings = lint_document(_doc(tool), Config(select=("SCH",)))
    notes = [f for f in findings if f.rule == "SCH101"]
    assert len(notes) == 1 and notes[0].severity.label == "info" and "not checked" in notes[0].message


def test_deep_data_values_do_not_crash():
    deep: list = []
    node = deep
    for _ in range(5_000):
        node.append([])
        node = node[0]
    tool = {"name": "d", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "string", "default": deep}, "b": {"type": "array", "enum": [deep, "x"], "default": deep}}}}
    _, findings = lint_document(_doc(tool), Config(select=("SCH",)))
    assert {(f.rule, str(f.pointer)) for f in findings} >= {("SCH109", "/inputSchema/properties/a/default"),
                                                            ("SCH109", "/inputSchema/properties/b/enum/1")}


def test_required_boolean_patch_moves_the_name_to_the_parent():
    tool = {"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "required": True}},
                                         "required": ["z"]}}
    [f] = lint_json(tool, select=["SCH105"])
    assert list(f.fix.patch) == [{"op": "remove", "path": "/inputSchema/properties/q/required"},
                                 {"op": "add", "path": "/inputSchema/required/-", "value": "q"}]


def test_nullable_patch_widens_the_type():
    tool = {"name": "a", "inputSchema": {"type": "object", "properties": {"c": {"type": "string", "nullable": True}}}}
    [f] = lint_json(tool, select=["SCH104"])
    assert list(f.fix.patch) == [{"op": "replace", "path": "/inputSchema/properties/c/type", "value": ["string", "null"]},
                                 {"op": "remove", "path": "/inputSchema/properties/c/nullable"}]


def test_unknown_dialect_is_never_read_as_2020_12():
    tool = {"name": "a", "inputSchema": {"$schema": "https://example.test/dialect", "type": "objekt",
                                         "properties": {"q": {"type": "array", "requried": True}}}}
    findings = lint_json(tool, select=["SCH"])
    assert [(f.rule, str(f.pointer)) for f in findings] == [("SCH102", "/inputSchema/$schema")]


def test_pipeline_never_retrieves_while_checking_values(monkeypatch):
    import socket

    def trap(*a, **k):
        raise AssertionError(f"network access attempted: {a!r}")

    for obj, name in ((socket.socket, "connect"), (socket.socket, "connect_ex"), (socket, "create_connection"),
                      (socket, "getaddrinfo")):
        monkeypatch.setattr(obj, name, trap)
    for dialect in ("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"):
        tool = {"name": "r", "inputSchema": {
            "$schema": dialect, "$id": "https://evil.test/in.json", "type": "object",
            "definitions": {"n": {"type": "integer"}},
            "properties": {
                "a": {"$ref": "https://evil.test/a.json", "default": 1},
                "b": {"allOf": [{"$ref": "#/definitions/n"}, {"$ref": "b.json"}], "default": "x"},
                "c": {"$ref": "#/definitions/n", "default": "not a number"},
            }}}
        for eng in metaschema.ENGINES:
            monkeypatch.setattr(metaschema, "_engine", eng)
            findings = lint_json(tool, select=["SCH"])
            assert [(f.rule, str(f.pointer)) for f in findings] == [("SCH109", "/inputSchema/properties/c/default")]


def test_keyword_suggestions_match_the_exhaustive_search():
    import random
    import string

    from mcplint.rules.schema_validity import KEYWORDS, TOLERATED, _suggest, closest

    rng = random.Random(7)
    for dialect, known in KEYWORDS.items():
        words = sorted(known | TOLERATED)
        for _ in range(1500):
            w = list(rng.choice(words))
            for _ in range(rng.randint(0, 3)):
                i = rng.randrange(len(w)) if w else 0
                op = rng.choice("dirt")
                if op == "d" and w:
                    del w[i]
                elif op == "i":
                    w.insert(i, rng.choice(string.ascii_letters))
                elif op == "r" and w:
                    w[i] = rng.choice(string.ascii_letters)
                elif op == "t" and i < len(w) - 1:
                    w[i], w[i + 1] = w[i + 1], w[i]
            word = "".join(w)
            if word:
                assert _suggest(word, dialect) == closest(word, known | TOLERATED), (dialect, word)


def test_slots_over_the_subschema_bound_are_bounded_and_said_so():
    props = {f"p{i}": {"type": "array", "requried": True} for i in range(50)}
    tool = {"name": "big", "inputSchema": {"type": "objekt", "properties": props}}
    findings = lint_json(tool, select=["SCH"], bounds={"max-subschemas": 10})
    by_rule: dict = {}
    for f in findings:
        by_rule.setdefault(f.rule, []).append(f)
    [note] = by_rule["SCH101"]
    assert note.severity.label == "info" and "more than 10 subschemas" in note.message
    # the keyword rules look at the first 10 subschemas only: the root and 9 properties
    assert len(by_rule["SCH103"]) == 9 and len(by_rule["SCH107"]) == 9


def test_meta_errors_beyond_the_bound_are_counted_not_listed():
    props = {f"p{i}": {"type": "string", "minLength": -1, "maxLength": -1} for i in range(8)}
    findings = lint_json({"name": "t", "inputSchema": {"type": "object", "properties": props}},
                         select=["SCH101"], bounds={"max-subschemas": 10})
    assert len(findings) == 11 and any("6 more meta-schema errors" in f.message for f in findings)


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {f"p{i}": {"type": "strin", "x": 1, "requried": 1} for i in range(20_000)}},
    {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(1_500)},
     "required": [f"q{i}" for i in range(20_000)], "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "string", "enum": [str(i) for i in range(200_000)] + [1]}}},
    {"type": "object", "$defs": {"a": {"type": "string", "default": 1}},
     "properties": {f"p{i}": {"$ref": "#/$defs/a", "default": 2} for i in range(20_000)}},
], ids=["20k-invalid-properties", "20k-undeclared-required", "200k-enum", "20k-ref-fan-out"])
def test_adversarial_slots_finish_quickly(schema):
    import time

    t = time.perf_counter()
    lint_document(_doc({"name": "t", "inputSchema": schema}), Config(select=("SCH",)))
    assert time.perf_counter() - t < 2.0
