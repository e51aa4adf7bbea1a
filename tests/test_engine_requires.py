"""A rule may declare a precondition (``requires=``) so that the engine skips it for targets
that do not meet it. That is only an optimisation: called anyway, the rule must find nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import case_document, load_cases
from mcplint.collect import collect
from mcplint.config import Config
from mcplint.engine import _slot_facts, _tool_facts
from mcplint.load import load
from mcplint.registry import Context, all_rules
from mcplint.versions import VERSIONS

DATA = Path(__file__).parent / "data"


def _collections():
    docs = load([str(DATA / "corpus"), str(DATA / "mcp-examples")])
    docs += [case_document(case) for _, case in load_cases() if "transcript" not in case]
    for doc in docs:
        try:
            yield collect(doc, VERSIONS)
        except Exception:  # noqa: BLE001 (a case of an unreadable shape: nothing to call rules on)
            continue


def test_rules_find_nothing_where_their_requirement_is_unmet():
    config = Config()
    rules = [m for m in all_rules() if m.requires is not None]
    assert {m.requires for m in rules} == {"examples", "mcpdesc", "jstruct", "x-mcp-header", "pattern", "ref",
                                           "server-json", "client-config"}
    checked = 0
    for coll in _collections():
        for kind in ("server-json", "client-config"):  # a document of another kind: none of its rules finds anything
            if coll.shape == kind:
                continue
            for meta in rules:
                if meta.requires == kind:
                    found = list(meta.func(coll, Context(meta, VERSIONS, config, None, coll)))
                    assert found == [], (meta.id, coll.doc.source.origin, [f.message for f in found])
                    checked += 1
        for tool in coll.tools:
            targets = [(tool, _tool_facts(tool), "tool")]
            targets += [(slot, _slot_facts(slot), "slot") for slot in tool.slots()]
            for target, met, scope in targets:
                for meta in rules:
                    if meta.scope != scope or meta.requires in met:
                        continue
                    versions = tuple(v for v in VERSIONS if v in meta.versions)
                    calls = [(v,) for v in versions] if meta.per_version else [versions]
                    for vs in calls:
                        found = list(meta.func(target, Context(meta, vs, config, None, coll)))
                        assert found == [], (meta.id, coll.doc.source.origin, [f.message for f in found])
                        checked += 1
    assert checked > 1000


def test_the_requirements_are_met_where_they_should_be():
    from mcplint.load import load_text

    doc = load_text('{"tools": [{"name": "a", "inputSchema": {"$schema": '
                    '"https://json-structure.org/meta/core/v0/#", "type": "object"}}]}', "t.json")
    tool = collect(doc, VERSIONS).tools[0]
    assert _tool_facts(tool) == frozenset()
    assert _slot_facts(next(tool.slots())) == frozenset({"jstruct", "ref"})  # "$schema": a "$" word
    doc = load_text('{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"p": {"type": '
                    '"string", "pattern": "^a", "x-mcp-header": "P"}, "r": {"$ref": "#/$defs/d"}}}}, '
                    '{"name": "b", "inputSchema": {"type": "object"}}]}', "t.json")
    a, b = collect(doc, VERSIONS).tools
    assert _slot_facts(next(a.slots())) == frozenset({"x-mcp-header", "pattern", "ref"})
    assert _slot_facts(next(b.slots())) == frozenset()
    deep: dict = {}
    for _ in range(3000):  # too deep to encode: every word requirement is assumed met
        deep = {"items": deep}
    from mcplint.model import Slot

    assert _slot_facts(Slot(b, "inputSchema", b.pointer, deep)) == frozenset({"x-mcp-header", "pattern", "ref"})


def test_a_server_json_manifest_gets_only_its_own_rules_and_the_files():
    """A manifest is linted by the REG rules and DOC's (a duplicate key), never by the rules for
    tool definitions; its findings name no protocol version."""
    from conftest import lint_json

    from mcplint.engine import lint_document
    from mcplint.load import load_text

    text = ('{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", '
            '"name": "weather", "name": "weather", "description": "W", "version": "latest", "tools": 1}')
    coll, findings = lint_document(load_text(text, "server.json"), Config())
    assert coll.shape == "server-json" and coll.tools == []
    assert {f.rule for f in findings} == {"DOC001", "REG003", "REG005"}
    assert all(f.versions == () for f in findings if f.rule.startswith("REG"))
    assert lint_json({"tools": [{"name": "a/b", "inputSchema": {"type": "object"}}]}, select=["REG"]) == []


def test_every_word_requirement_has_a_search():
    from mcplint.engine import _WORDS
    from mcplint.registry import REQUIREMENTS

    assert set(_WORDS) == {name for name, (_, how) in REQUIREMENTS.items() if how == "word"}
