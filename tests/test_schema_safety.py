"""SEC family beyond the fixture table: big reference graphs without recursion, exact
expansion counts, the ReDoS detector against its labelled table, and the deepest
document the loader accepts going through every rule."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from conftest import lint_json
from mcplint.config import Bounds, Config, _Where, parse_settings
from mcplint.engine import lint_paths
from mcplint.redos import analyse, validity
from mcplint.rules.schema_safety import _RefInfo, analysis
from mcplint.model import Pointer, Slot, Tool

DATA = Path(__file__).parent / "data"
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
    t = time.perf_counter()
    findings = lint_json(chain(10_000), select=["SEC"], **BIG)
    assert rules_of(findings) == []
    assert time.perf_counter() - t < 5


def test_ten_thousand_long_loop_is_one_finding_naming_the_chain():
    findings = lint_json(chain(10_000, loop=True), select=["SEC"], **BIG)
    loops = [f for f in findings if f.rule == "SEC103"]
    assert len(loops) == 1 and str(loops[0].pointer) == "/inputSchema/$defs/d0/$ref"
    assert "'#/$defs/d1' -> '#/$defs/d2'" in loops[0].message
    assert not [f for f in findings if f.rule == "SEC104"]


def test_default_bounds_stand_down_on_a_huge_slot():
    findings = lint_json(chain(10_000, loop=True), select=["SEC"])
    assert rules_of(findings) == ["SEC106", "SEC108"]  # size is measured whatever the count


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
    t = time.perf_counter()
    assert a.ref_info(slot.schema).expansions(10_000) == 10_001
    assert time.perf_counter() - t < 1
    findings = lint_json(fanout(200), select=["SEC109"])
    assert [str(f.pointer) for f in findings] == ["/inputSchema"]


def test_in_place_loop_through_ancestor_vs_recursion_through_items():
    loop = {"name": "l", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
                                         "$defs": {"a": {"oneOf": [{"type": "null"}, {"allOf": [{"$ref": "#/$defs/a"}]}]}}}}
    rec = {"name": "r", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
                                        "$defs": {"a": {"oneOf": [{"type": "null"}, {"items": {"$ref": "#/$defs/a"}}]}}}}
    assert rules_of(lint_json(loop, select=["SEC103", "SEC104"])) == ["SEC103"]
    assert rules_of(lint_json(rec, select=["SEC103", "SEC104"])) == ["SEC104"]


def test_external_ref_is_reported_not_fetched_and_unreachable_hosts_cost_nothing():
    tool = {"name": "x", "inputSchema": {"type": "object", "properties": {
        "a": {"$ref": "http://10.255.255.1/slow.json"}, "b": {"$ref": "file:///etc/passwd"}}}}
    t = time.perf_counter()
    findings = lint_json(tool, select=["SEC101"])
    assert time.perf_counter() - t < 1
    assert [str(f.pointer) for f in findings] == ["/inputSchema/properties/a/$ref", "/inputSchema/properties/b/$ref"]
    assert all("not fetched" in f.message for f in findings)


# ------------------------------------------------------------------ ReDoS detector

TABLE = yaml.safe_load((DATA / "redos" / "patterns.yaml").read_text(encoding="utf-8"))


def test_table_patterns_are_valid_ecma262():
    for entry in TABLE["vulnerable"] + TABLE["safe"]:
        assert validity(entry["pattern"]).ok, entry["pattern"]


def test_detector_precision_and_recall_on_the_table():
    vul = [e for e in TABLE["vulnerable"]]
    safe = [e for e in TABLE["safe"]]
    tp = sum(1 for e in vul if analyse(e["pattern"]) is not None)
    fp = sum(1 for e in safe if analyse(e["pattern"]) is not None)
    recall = tp / len(vul)
    precision = tp / (tp + fp)
    assert recall >= 0.9 and precision >= 0.9, (recall, precision)
    expo = [e for e in vul if e["label"] == "exponential"]
    found = [e for e in expo if (r := analyse(e["pattern"])) is not None and r.kind == "exponential"]
    assert len(found) / len(expo) >= 0.9


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(a|aa)*$", "(\\w+\\s?)+$", "^(\\d+|\\d+\\.\\d+)+$"])
def test_classics_are_exponential(pattern):
    assert analyse(pattern).kind == "exponential"


@pytest.mark.parametrize("pattern", ["^[a-z]+$", "^(ab)+$", "^[a-z0-9]+(-[a-z0-9]+)*$", "^(\\d+,)*\\d+$"])
def test_delimited_repetition_is_safe(pattern):
    assert analyse(pattern) is None


def test_hostile_expressions_are_bounded():
    for p in ["(" * 400 + "a" + ")" * 400, "(" * 150 + "a*" + ")*" * 150, "[a-z]*" * 166]:
        t = time.perf_counter()
        analyse(p)
        validity(p)
        assert time.perf_counter() - t < 1


def test_analysis_budget_reports_instead_of_going_quiet():
    props = {f"p{i}": {"type": "string", "pattern": f"^(a+)+{i:04d}" + "b" * 90} for i in range(40)}
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": props}}
    findings = lint_json(tool, select=["SEC111", "SEC112"], bounds={"max-pattern-length": 100})
    sec111 = [f for f in findings if f.rule == "SEC111"]
    sec112 = [f for f in findings if f.rule == "SEC112"]
    assert 0 < len(sec111) < 40
    assert [str(f.pointer) for f in sec112] == ["/inputSchema"]


# ------------------------------------------------------------------ the deepest accepted document

def nested(depth):
    return ('{"name": "deep", "inputSchema": {"type": "object", "properties": {"x": '
            + '{"items": ' * depth + '{"const": [[[]]]}' + "}" * depth + "}}}")


def test_deepest_parseable_document_runs_every_rule(tmp_path):
    """Find, in this very process, the deepest nesting the loader accepts; every rule,
    every reporter-facing step must then run on it without a RecursionError (which the
    engine would turn into exit 3)."""
    cfg = parse_settings({"select": ["ALL"]}, _Where("t"), Config())
    f = tmp_path / "deep.json"

    def attempt(depth):
        f.write_text(nested(depth))
        res = lint_paths([str(f)], cfg)  # raises InternalError on a rule's RecursionError
        return res

    lo, hi = 10, 5000
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if attempt(mid).errors:
            hi = mid - 1
        else:
            lo = mid
    assert lo > 100
    res = attempt(lo)
    assert not res.errors
    assert "SEC105" in {x.rule for x in res.findings}
    assert all(x.span is not None for x in res.findings)
    over = attempt(lo + 1)
    assert over.errors and "too deep" in over.errors[0].message


# ------------------------------------------------------------------ real schemas pass

def test_real_servers_and_official_examples_pass_the_safety_rules():
    """The bundled real servers and official examples raise nothing but the two recursive
    schemas FastMCP generates (info); a bound or rule change that flags them is reviewed."""
    cfg = parse_settings({"select": ["SEC"]}, _Where("t"), Config())
    res = lint_paths([str(DATA / "corpus"), str(DATA / "mcp-examples")], cfg)
    got = sorted((Path(f.origin).name, f.rule, str(f.pointer)) for f in res.findings)
    assert got == [
        ("fastmcp-realistic.tools.json", "SEC104", "/tools/5/inputSchema/$defs/TreeNode/properties/children/items/$ref"),
        ("fastmcp-realistic.tools.json", "SEC104", "/tools/5/outputSchema/$defs/TreeNode/properties/children/items/$ref"),
    ]
    assert res.tools > 150


def test_marshal_bound_on_compact_json_size():
    """SEC108 skips measuring a schema whose marshal encoding is under a sixth of the bound: the
    compact JSON of any JSON value is at most six times that encoding, escapes and literals included."""
    import json
    import marshal

    from mcplint.rules.schema_safety import _JSON_PER_MARSHAL_BYTE, _surely_within

    worst = [
        "\x00\x01\x1f" * 50, '"\\' * 40, "", "é€😀" * 10, "\ud800", [True, False, None] * 30, {"": None},
        {"a": [0.1, -1e300, 1.7976931348623157e308, 123456789012345678901234567890, -2**31]}, [[[[]]]], {},
        {"k" * 300: {"k" * 300: {"k" * 300: True}}},
    ]
    for value in worst:
        exact = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        assert exact <= _JSON_PER_MARSHAL_BYTE * len(marshal.dumps(value, 2)), value
        assert _surely_within(value, exact * _JSON_PER_MARSHAL_BYTE * 2 + 100)
    assert not _surely_within({"a": "x" * 1000}, 1000)  # over a sixth: measured exactly instead
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    assert not _surely_within(deep, 10**9)  # too deep for marshal: measured exactly instead


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
    from mcplint.rules.schema_safety import _tarjan

    checked = 0
    for schema in _ref_schemas():
        a = analysis(Slot(None, "inputSchema", Pointer(), schema), Bounds())
        info = _RefInfo(schema, a)
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

