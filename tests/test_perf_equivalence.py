"""The speed-ups must not change results: shared walks, shared slot facts and the partial
source map give exactly what the plain computations give, on the real servers' schemas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcplint.profiles import SlotFacts, builtin_names, evaluate_slot, load_profile
from mcplint import schemawalk
from mcplint.schemawalk import SharedWalks, Sub, children, encoded, subschemas, walk_prefix
from mcplint.sourcemap import json_spans

CORPUS = Path(__file__).parent / "data" / "corpus"


def _schemas() -> list:
    out = []
    for f in sorted(CORPUS.glob("*.tools.json")):
        for t in json.loads(f.read_text(encoding="utf-8"))["tools"]:
            out += [t[k] for k in ("inputSchema", "outputSchema") if isinstance(t.get(k), dict)]
    return out


SCHEMAS = _schemas()


def test_corpus_has_schemas():
    assert len(SCHEMAS) > 100


def test_shared_walks_replay_the_same_walk():
    plain = [list(subschemas(s)) for s in SCHEMAS]
    walks = SharedWalks()
    for s, want in zip(SCHEMAS, plain):
        it = walks.subschemas(s)
        head = [next(it) for _ in range(min(2, len(want)))]  # a caller that stops early ...
        assert list(walks.subschemas(s)) == want  # ... leaves a walk others can finish
        assert head + list(it) == want  # and it resumes where it was
        assert list(walks.subschemas(s)) == want  # replayed
        assert walks.walk_prefix(s, 3)[:4] == walk_prefix(s, 3) == want[:4]
        assert walks.walk_prefix(s, 10**6) is walks.walk_prefix(s, 10**6)  # the one walk, not a copy
        assert walks.encoded(s) == encoded(s) and walks.encoded(s) is walks.encoded(s)
    assert [list(subschemas(s)) for s in SCHEMAS] == plain  # the plain walk shares nothing


def _plain_walk(schema, max_depth=None) -> list:
    """subschemas() written plainly and recursively: pre-order over children()."""
    def walk(sub):
        out.append(sub)
        if isinstance(sub.schema, dict) and (max_depth is None or sub.depth <= max_depth):
            for ptr, s, kw in children(sub.schema):
                walk(Sub(sub.pointer + ptr, s, sub.depth + 1, kw))
    out: list = []
    walk(Sub((), schema, 0, None))
    return out


ODD = {"items": [{"type": "string"}, True, 3], "dependencies": {"a": ["b"], "c": {"not": {}}},
       "properties": {"p": {"enum": [{"properties": {}}]}, "q": False, "r": 1}, "allOf": {"x": {}}}


def test_children_are_the_schemas_the_applicators_hold():
    assert list(children(ODD)) == [(("items", 0), {"type": "string"}, "items"), (("items", 1), True, "items"),
                                   (("dependencies", "c"), {"not": {}}, "dependencies"),
                                   (("properties", "p"), {"enum": [{"properties": {}}]}, "properties"),
                                   (("properties", "q"), False, "properties")]
    assert list(children({"items": {}, "prefixItems": [{}], "$defs": {"d": True}, "const": {"items": {}}})) == [
        (("items",), {}, "items"), (("prefixItems", 0), {}, "prefixItems"), (("$defs", "d"), True, "$defs")]


def test_the_walk_is_the_plain_recursive_walk_over_children():
    for s in SCHEMAS + [ODD, True, {}]:
        assert list(subschemas(s)) == _plain_walk(s)
        assert list(subschemas(s, max_depth=1)) == _plain_walk(s, max_depth=1)


def test_shared_walks_are_forgotten_with_the_collection():
    from mcplint.memo import Memo

    s = {"type": "object", "properties": {"a": {"type": "string"}}}
    memo = Memo()
    assert len(list(memo.walks.subschemas(s))) == 2
    s["properties"]["b"] = {"type": "integer"}
    assert len(list(subschemas(s))) == 3  # the plain walk keeps nothing
    memo.forget()  # (the engine, when a collection's rules are done)
    assert len(list(memo.walks.subschemas(s))) == 3


def test_every_rule_family_of_a_slot_reads_one_walk(monkeypatch):
    """The engine hands every rule of a collection the same walks (ctx.walks): with the schema,
    validity, safety and decoder-profile families all walking each slot, each slot is walked
    once (its root's subschemas are looked up once, not once per family)."""
    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.load import parse
    from mcplint.model import Source

    tools = [{"name": f"t{i}", "description": "d", "inputSchema": s} for i, s in enumerate(SCHEMAS[:40])]
    doc = parse(Source("walks.json", json.dumps({"tools": tools}), "json"))
    roots = sorted(id(t["inputSchema"]) for t in doc.data["tools"])
    looked = []
    real = schemawalk.children

    def counted(node):
        looked.append(id(node))
        return real(node)

    monkeypatch.setattr(schemawalk, "children", counted)
    _, findings = lint_document(doc, Config(profiles=("openai-strict",)))
    assert {f.rule[:3] for f in findings} >= {"SCH", "SEC", "DEC"}
    assert sorted(i for i in looked if i in set(roots)) == roots


@pytest.mark.parametrize("name", builtin_names())
def test_slot_facts_shared_across_profiles_change_nothing(name):
    profile = load_profile(name)
    for s in SCHEMAS:
        facts = SlotFacts(s)
        evaluate_slot(load_profile("openai-strict"), s, facts=facts)  # facts filled by another profile first
        assert evaluate_slot(profile, s, facts=facts) == evaluate_slot(profile, s)


def test_partial_source_map_matches_the_full_map():
    for f in sorted(CORPUS.glob("*.json"))[:20]:
        text = f.read_text(encoding="utf-8")
        full, dups = json_spans(text)
        ptrs = sorted(full.offsets, key=str)
        wanted = set(ptrs[:: max(1, len(ptrs) // 25)])
        part, pdups = json_spans(text, wanted=wanted)
        for p in wanted:
            assert part.offsets[p] == full.offsets[p], (f.name, p)
        assert [d[0] for d in pdups] == [d[0] for d in dups]
