"""SEC101-SEC104 and the reference graph beyond the fixture table: long chains and loops, exact
expansion counts (SEC109 reads them), in-place loops against recursion, external references never
fetched, and the cycle search against a search of the whole graph."""

from __future__ import annotations

import builtins
import io
import json
import socket
import time
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.config import Bounds
from mcplint.model import Pointer, Slot, Tool
from mcplint.rules.schema_safety.common import analysis
from mcplint.rules.schema_safety.refgraph import RefInfo, _tarjan

DATA = Path(__file__).resolve().parents[2] / "data"
BIG = {"bounds": {"max-subschemas": 100_000, "max-ref-expansions": 1_000_000, "max-schema-bytes": 10_000_000}}

def chain(length, loop=False):
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length - 1)}
    defs[f"d{length - 1}"] = {"$ref": "#/$defs/d0"} if loop else {"type": "string"}
    return {"name": "c", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}},
                                         "$defs": defs}}


def fanout(levels):
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]}
            for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"name": "f", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}},
                                         "$defs": defs}}


def rules_of(findings):
    return sorted({f.rule for f in findings})


def test_ten_thousand_long_chain_is_neither_loop_nor_recursion():
    t = time.process_time()  # CPU time: a busy machine does not fail this
    findings = lint_json(chain(10_000), select=["SEC"], **BIG)
    assert rules_of(findings) == []
    assert time.process_time() - t < 5


@pytest.mark.slow
def test_ten_thousand_long_loop_is_one_finding_naming_the_chain():
    findings = lint_json(chain(10_000, loop=True), select=["SEC"], **BIG)
    loops = [f for f in findings if f.rule == "SEC103"]
    assert len(loops) == 1 and str(loops[0].pointer) == "/inputSchema/$defs/d0/$ref"
    assert "'#/$defs/d1' -> '#/$defs/d2'" in loops[0].message
    assert not [f for f in findings if f.rule == "SEC104"]


def _slot(schema):
    tool = Tool(None, Pointer(), {"name": "t", "inputSchema": schema}, ("2026-07-28",))
    return Slot(tool, "inputSchema", Pointer(("inputSchema",)), schema)


@pytest.mark.parametrize("levels", [1, 2, 5, 10, 20])
def test_expansion_count_is_exact_for_fanout(levels):
    slot = _slot(fanout(levels)["inputSchema"])
    a = analysis(slot, Bounds(max_subschemas=10**6))
    assert a.ref_info(slot.schema).expansions(10**9) == 2 ** (levels + 1) - 1


def test_expansion_count_stops_at_the_bound_quickly():
    slot = _slot(fanout(200)["inputSchema"])  # 2**201 substitutions if inlined
    a = analysis(slot, Bounds(max_subschemas=10**6))
    t = time.process_time()  # CPU time: a busy machine does not fail this
    assert a.ref_info(slot.schema).expansions(10_000) == 10_001
    assert time.process_time() - t < 1
    findings = lint_json(fanout(200), select=["SEC109"])
    assert [str(f.pointer) for f in findings] == ["/inputSchema"]


def test_in_place_loop_through_ancestor_vs_recursion_through_items():
    loop = {"name": "l", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
                                         "$defs": {"a": {"oneOf": [{"type": "null"}, {"allOf": [{"$ref": "#/$defs/a"}]}]}}}}
    rec = {"name": "r", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
                                        "$defs": {"a": {"oneOf": [{"type": "null"}, {"items": {"$ref": "#/$defs/a"}}]}}}}
    assert rules_of(lint_json(loop, select=["SEC103", "SEC104"])) == ["SEC103"]
    assert rules_of(lint_json(rec, select=["SEC103", "SEC104"])) == ["SEC104"]


def test_external_ref_is_reported_not_fetched_and_unreachable_hosts_cost_nothing(monkeypatch):
    tool = {"name": "x", "inputSchema": {"type": "object", "properties": {
        "a": {"$ref": "http://10.255.255.1/slow.json"}, "b": {"$ref": "file:///etc/passwd"}}}}
    tried = []  # every connection or name lookup the lint attempts (none may happen)
    monkeypatch.setattr(socket.socket, "connect", lambda self, *a: tried.append(("connect", a)))
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: tried.append(("create_connection", a)))
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: tried.append(("getaddrinfo", a)) or [])
    opened = []  # every file the lint opens (pathlib and urllib open through io.open)
    real_open = io.open
    for where in (builtins, io):
        monkeypatch.setattr(where, "open", lambda f, *a, **k: opened.append(str(f)) or real_open(f, *a, **k))
    findings = lint_json(tool, select=["SEC101"])
    assert tried == [] and "/etc/passwd" not in opened
    assert [str(f.pointer) for f in findings] == ["/inputSchema/properties/a/$ref", "/inputSchema/properties/b/$ref"]
    assert all("not fetched" in f.message for f in findings)


def _ref_schemas():
    import random

    for f in sorted((DATA / "corpus").glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for t in data.get("tools") or data.get("result", {}).get("tools") or []:
            for k in ("inputSchema", "outputSchema"):
                if isinstance(t.get(k), dict) and "$ref" in json.dumps(t[k]):
                    yield t[k]
    rnd = random.Random(5)
    appliers = ["allOf", "anyOf", "items", "not", "properties", "additionalProperties", "then"]
    for _ in range(300):  # random reference graphs: in-place and deferred edges, loops, self-references
        n = rnd.randint(1, 6)
        defs = {}
        for i in range(n):
            node: dict = {}
            for _ in range(rnd.randint(1, 3)):
                kw, target = rnd.choice(appliers), {"$ref": f"#/$defs/d{rnd.randrange(n)}"}
                if kw in ("allOf", "anyOf"):
                    node.setdefault(kw, []).append(target)
                elif kw == "properties":
                    node.setdefault(kw, {})[f"p{rnd.randrange(9)}"] = target
                else:
                    node[kw] = target
            defs[f"d{i}"] = node
        yield {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def test_in_place_cycles_found_inside_the_full_graphs_components_are_all_of_them():
    """Reference cycles of the in-place graph are looked for only inside the components of the
    full graph (every in-place cycle is one of its cycles): the same cycles as a search of the
    whole in-place graph."""
    checked = 0
    for schema in _ref_schemas():
        a = analysis(Slot(None, "inputSchema", Pointer(), schema), Bounds())
        info = RefInfo(schema, a)
        got = {frozenset(id(r) for _, r in comp) for comp in info.cycles(in_place_only=True)}
        want = set()
        for comp in _tarjan(info.successors(True)):  # the whole in-place graph
            members = set(comp)
            refs = frozenset(id(r) for src in comp for t, r in info.edges.get(src, ()) if t in members)
            if refs:
                want.add(refs)
        assert got == want, schema
        checked += bool(want)
    assert checked > 20
