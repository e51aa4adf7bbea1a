"""SCH101 and SCH102 beyond the fixture table: how a slot's dialect is read, near misses of known
dialect URIs, and the meta-schema check's bounds (deep nesting, more errors than the bound)."""

from __future__ import annotations

import pytest

from conftest import lint_json
from mcplint.config import Config
from mcplint.dialects import JSON_STRUCTURE_URIS, dialect_of, near_miss
from mcplint.engine import lint_document
from mcplint.model import Document, Source

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


def test_unknown_dialect_is_never_read_as_2020_12():
    tool = {"name": "a", "inputSchema": {"$schema": "https://example.test/dialect", "type": "objekt",
                                         "properties": {"q": {"type": "array", "requried": True}}}}
    findings = lint_json(tool, select=["SCH"])
    assert [(f.rule, str(f.pointer)) for f in findings] == [("SCH102", "/inputSchema/$schema")]


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


def test_meta_errors_beyond_the_bound_are_counted_not_listed():
    props = {f"p{i}": {"type": "string", "minLength": -1, "maxLength": -1} for i in range(8)}
    findings = lint_json({"name": "t", "inputSchema": {"type": "object", "properties": props}},
                         select=["SCH101"], bounds={"max-subschemas": 10})
    assert len(findings) == 11 and any("6 more meta-schema errors" in f.message for f in findings)
