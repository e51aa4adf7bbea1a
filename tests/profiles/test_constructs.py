"""The registry of constructs (mcplint.profiles.constructs) against the code that finds them
and the profile schema written from it."""

from __future__ import annotations

import json

from mcplint.profiles import evaluate_slot, load_profile
from mcplint.profiles.constructs import CONSTRUCTS, NODE_DETECTORS, construct, doc_table
from mcplint.profiles.facts import SlotFacts

from .common import ROOT, write

# one schema showing every construct found at a node, below a root that shows the slot's own
_EVERY_NODE_CONSTRUCT = {
    "type": ["object", "null"], "anyOf": [{"type": "object"}],
    "$defs": {"loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/loop"}}}},
    "properties": {
        "o": {"type": "object", "additionalProperties": True},
        "p": {"type": "object", "additionalProperties": 3, "properties": {"x": {"type": "string"}},
              "required": ["x", "ghost"], "anyOf": [{"properties": {"k": {}}}, {"properties": {"k": {}}}]},
        "u": {"description": "no type"},
        "a": {"type": "array"},
        "r": {"$ref": "#/$defs/loop", "minLength": 1},
        "n": {"$ref": "#/$defs/loop", "description": "annotated"},
        "t": {"type": "custom"},
        "i": {"type": "string", "items": {}},
        "tup": {"type": "array", "items": [{"type": "string"}]},
        "b": True,
        "remote": {"$ref": "https://example.com/s.json"},
        "bad": {"type": "string", "minLength": -1},
    },
}


def test_the_schema_lists_the_registry_in_order():
    schema = json.loads((ROOT / "mcplint" / "data" / "profile.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["construct_name"]["enum"] == list(CONSTRUCTS)
    assert all(c.scope in ("node", "slot") and c.found and c.at for c in CONSTRUCTS.values())


def test_the_nodes_show_exactly_the_registered_node_constructs():
    facts = SlotFacts(_EVERY_NODE_CONSTRUCT)
    shown = {c.name for n in facts.nodes for c in n.constructs} - {"large_string_enum"}  # a limit, not a construct
    assert shown == {c.name for c in CONSTRUCTS.values() if c.scope == "node"}


def test_every_registered_construct_is_reported_with_its_message_values(tmp_path):
    need = {"schema-over-budget": ", threshold: 1"}  # (measured against the rule's own threshold)
    entries = "\n".join(f"  {name}: {{action: reject{need.get(name, '')}}}" for name in CONSTRUCTS)
    prof = load_profile(str(write(tmp_path, f"id: every-construct\ntitle: t\nkind: hosted\n"
                                            f"source: {{url: 'https://example.com', seen: '2026-12-01', "
                                            f"confidence: high, tag: D}}\nconstructs:\n{entries}\n")))
    found = {}
    for e in evaluate_slot(prof, _EVERY_NODE_CONSTRUCT):
        if e.kind == "construct":
            found.setdefault(e.subject, set()).update(k for k in e.params if not k.startswith("_"))
    assert set(found) == set(CONSTRUCTS)
    for name, params in found.items():
        assert params == set(CONSTRUCTS[name].params), name


def test_the_docs_table_has_a_row_per_construct_and_names_are_unique():
    rows = doc_table().splitlines()[2:]
    assert [r.split("`")[1] for r in rows] == list(CONSTRUCTS)
    assert all(c.found and c.found in doc_table() for c in CONSTRUCTS.values())  # each docstring, as its docs
    try:
        construct("tuple-items", at="items")(lambda: None)
    except ValueError as err:
        assert "twice" in str(err)
    else:
        raise AssertionError("a second registration of a name must fail")
    assert CONSTRUCTS["tuple-items"].detect is not None and CONSTRUCTS["tuple-items"].found


def test_each_node_construct_has_its_function_asked_in_report_order():
    node = [c for c in CONSTRUCTS.values() if c.scope == "node"]
    assert {d for _, d in NODE_DETECTORS} == {c.detect for c in node} and len(NODE_DETECTORS) == len(node)
    assert all(c.detect not in {d for _, d in NODE_DETECTORS} for c in CONSTRUCTS.values() if c.scope == "slot")
    # one node showing several: reported in the detectors' order, each found by its own function
    shown = [c.name for n in SlotFacts({"type": "object", "properties": {"p": {
        "type": "object", "additionalProperties": 3, "properties": {"x": {}}, "required": ["y"],
        "oneOf": [{}]}}}).nodes if n.pointer == ("properties", "p") for c in n.constructs]
    assert shown == ["additional-properties-invalid" if s == "ap-invalid" else s for s in (
        "optional-property", "ap-invalid", "required-undeclared", "properties-beside-combinator")]
    assert CONSTRUCTS["optional-property"].detect({"properties": {"a": {}}, "required": ["a"]}, (), "object",
                                                   {"object"}, None, True) == []
