"""Projection step: references (`$defs` kept or inlined, `definitions` renamed, recursion
unrolled and cut, expansion bounded, remote references removed, never fetched)."""

from __future__ import annotations

import json

from conftest import lint_json
from mcplint import project_schema


def test_defs_are_kept_where_the_target_follows_refs():
    s = {"type": "object", "additionalProperties": False, "required": ["p"], "properties": {"p": {"$ref": "#/$defs/P"}},
         "$defs": {"P": {"type": "object", "properties": {"x": {"type": "string"}}}}}
    out, items = project_schema(s, "openai-strict")
    assert out["properties"]["p"] == {"$ref": "#/$defs/P"}
    assert out["$defs"]["P"]["additionalProperties"] is False and out["$defs"]["P"]["required"] == ["x"]
    assert {i.pointer for i in items} == {("$defs", "P"), ("$defs", "P", "properties", "x")}


def test_draft07_definitions_are_renamed_for_gemini():
    s = {"type": "object", "properties": {"p": {"$ref": "#/definitions/P"}},
         "definitions": {"P": {"type": "string"}}}
    out, items = project_schema(s, "gemini")
    assert out == {"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "string"}}}
    assert [(i.kind, i.subject) for i in items] == [("rewritten", "definitions")]


TREE = {"type": "object", "required": ["root"], "additionalProperties": False,
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "additionalProperties": False, "required": ["name"],
                           "properties": {"name": {"type": "string"},
                                          "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}


def test_recursion_is_unrolled_to_a_bounded_depth_and_reported():
    out, items = project_schema(TREE, "anthropic-strict", unroll_depth=2)
    assert "$defs" not in out and "$ref" not in json.dumps(out)
    level = out["properties"]["root"]
    for _ in range(1):
        level = level["properties"]["kids"]["items"]
    assert level["properties"]["kids"]["items"] == {}  # cut: any value below depth 2
    rec = [i for i in items if i.subject == "recursion"]
    assert len(rec) == 1 and rec[0].kind == "weakened" and "2 level" in rec[0].message
    assert rec[0].pointer == ("$defs", "Node", "properties", "kids", "items", "$ref")
    assert not [f for f in lint_json({"name": "t", "inputSchema": out}, profiles=["anthropic-strict"], select=["DEC"])
                if f.consequence in ("reject", "drop", "weaken")]


def test_recursion_is_kept_where_the_target_supports_it():
    out, items = project_schema(TREE, "openai-strict")
    assert out["$defs"]["Node"]["properties"]["kids"]["items"] == {"$ref": "#/$defs/Node"}
    assert not [i for i in items if i.subject == "recursion"]


def test_self_recursive_root_terminates():
    s = {"type": "object", "properties": {"next": {"$ref": "#"}}}
    out, items = project_schema(s, "gemini-openapi", unroll_depth=3)
    assert json.dumps(out).count('"next"') == 4  # the root, three unrolled levels, then the cut
    assert any(i.subject == "recursion" for i in items)


def test_exponential_references_are_bounded():
    """Each definition uses the next one twice: full inlining would have 2**30 copies."""
    defs = {f"d{i}": {"type": "object", "properties": {"l": {"$ref": f"#/$defs/d{i + 1}"},
                                                       "r": {"$ref": f"#/$defs/d{i + 1}"}}} for i in range(30)}
    defs["d30"] = {"type": "object", "properties": {"back": {"$ref": "#/$defs/d0"}}}  # recursion: inline all
    s = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    import time

    t = time.process_time()  # CPU time: a busy machine does not fail this
    out, items = project_schema(s, "anthropic-strict")
    assert time.process_time() - t < 20
    assert out is not None
    assert any(i.kind == "weakened" and "bound" in i.message for i in items)


def test_ref_brought_in_by_allof_is_inlined_where_siblings_are_ignored():
    s = {"type": "object", "properties": {"d": {"$ref": "#/$defs/D"}},
         "$defs": {"D": {"allOf": [{"$ref": "#/$defs/E"}, {"description": "d", "minLength": 2}]},
                   "E": {"type": "string", "maxLength": 5}}}
    out, items = project_schema(s, "gemini")
    assert out["$defs"]["D"] == {"description": "d", "type": "string"}
    ref = [i for i in items if i.subject == "ref-siblings"]
    assert ref and ref[0].pointer == ("$defs", "D", "allOf", 0, "$ref") and ref[0].kind == "rewritten"
    assert not [i for i in items if "could not be resolved" in i.message]


def test_remote_ref_is_removed_and_reported_never_fetched():
    s = {"type": "object", "properties": {"s": {"$ref": "https://example.com/s.json"}}}
    out, items = project_schema(s, "llguidance")
    assert out["properties"]["s"] == {}
    (it,) = items
    assert (it.kind, it.subject, it.pointer) == ("weakened", "remote-ref", ("properties", "s", "$ref"))
