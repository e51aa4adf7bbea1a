"""``mcplint diff OLD NEW``: breaking changes with a severity, a pointer and line:col."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.diff import diff_documents
from mcplint.load import load_text

DATA = Path(__file__).parent / "data" / "diff"
V1, V2 = str(DATA / "search-v1.tools.json"), str(DATA / "search-v2.tools.json")


def run(*args):
    return CliRunner().invoke(main, ["diff", *args], catch_exceptions=False)


def changes(old, new, **kw):
    o = load_text(json.dumps(old), "old.json")
    n = load_text(json.dumps(new), "new.json")
    return {(c.kind, c.severity.label, c.side, str(c.pointer)) for c in diff_documents(o, n, ("2026-07-28",), **kw)}


def test_every_kind_of_change_in_a_real_pair():
    r = run(V1, V2, "--format", "json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    got = {(c["kind"], c["severity"], c["side"], c["pointer"]) for c in out["changes"]}
    p = "/tools/0/"
    assert got == {
        ("type-narrowed", "error", "new", p + "inputSchema/properties/q/type"),
        ("type-narrowed", "error", "new", p + "inputSchema/properties/limit/type"),
        ("enum-narrowed", "error", "new", p + "inputSchema/properties/mode/enum"),
        ("argument-required", "error", "new", p + "inputSchema/required/0"),
        ("argument-required", "error", "new", p + "inputSchema/required/1"),
        ("argument-removed", "error", "old", p + "inputSchema/properties/old"),
        ("constraint-tightened", "warning", "new", p + "inputSchema/properties/limit/maximum"),
        ("output-property-optional", "error", "new", p + "outputSchema/required"),
        ("output-type-widened", "error", "new", p + "outputSchema/properties/hits/items/properties/score/type"),
        ("output-enum-widened", "warning", "new", p + "outputSchema/properties/status/enum"),
        ("tool-removed", "error", "old", "/tools/1/name"),
        ("tool-added", "info", "new", "/tools/1/name"),
    }
    assert out["summary"] == {"breaking": 9, "warnings": 2, "infos": 1}
    removed = next(c for c in out["changes"] if c["kind"] == "tool-removed")
    assert (removed["file"], removed["line"], removed["column"], removed["breaking"]) == (V1, 8, 4, True)
    lang = next(c for c in out["changes"] if c["pointer"].endswith("required/1"))
    assert (lang["file"], lang["line"], lang["column"]) == (V2, 5, 23) and "'lang'" in lang["message"]


def test_text_format_and_exit_codes(tmp_path):
    r = run(V1, V2)
    assert r.exit_code == 1
    assert f"{V1}:8:4: error tool-removed [tool gone] tool 'gone' was removed" in r.stdout
    assert r.stdout.rstrip().endswith(f"9 breaking changes, 2 warnings, 1 compatible change between {V1} and {V2}.")
    assert run(V1, V1).exit_code == 0
    # reordering tools and reformatting is not a change
    data = json.loads(Path(V1).read_text())
    data["tools"].reverse()
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(data, indent=4))
    r = run(V1, str(moved))
    assert r.exit_code == 0 and "No changes" in r.stdout


def test_warnings_only_pass_unless_fail_on_warning():
    old = {"name": "t", "inputSchema": {"type": "object", "properties": {"s": {"type": "string"}}}}
    new = {"name": "t", "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "maxLength": 9}}}}
    assert changes(old, new) == {("constraint-tightened", "warning", "new", "/inputSchema/properties/s/maxLength")}
    assert changes(new, old) == set()  # loosening an input is compatible


@pytest.mark.parametrize("old,new,expected", [
    ({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}},
     {"name": "t", "inputSchema": {"type": "object"}},
     {("output-schema-removed", "error", "old", "/outputSchema")}),
    ({"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}},
     {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/B"}}}},
     {("input-composition-changed", "warning", "new", "/inputSchema/properties/a/$ref")}),
    ({"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
     {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                                   "additionalProperties": False}},
     {("argument-required", "error", "new", "/inputSchema/required/0"),
      ("closed-to-extra-arguments", "warning", "new", "/inputSchema/additionalProperties")}),
    ({"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
     {"name": "t", "inputSchema": {"type": "object"}},
     {("argument-removed", "warning", "old", "/inputSchema/properties/a")}),  # open object: ignored, not rejected
    ({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {
        "n": {"type": "string", "maxLength": 5}}}},
     {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {
         "n": {"type": "string"}, "m": {"type": "integer"}}}},
     {("output-schema-changed", "warning", "old", "/outputSchema/properties/n/maxLength"),
      ("output-property-added", "info", "new", "/outputSchema/properties/m")}),
    ({"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
     {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": False}},
     {("annotation-changed", "warning", "new", "/annotations")}),
])
def test_single_changes(old, new, expected):
    assert changes(old, new) == expected


def test_boolean_schemas():
    t = lambda s: {"name": "t", "inputSchema": {"type": "object", "properties": {"a": s}}}  # noqa: E731
    assert changes(t(True), t({})) == set()
    assert changes(t(True), t(False)) == {("input-schema-changed", "error", "new", "/inputSchema/properties/a")}
    assert changes(t(False), t(True)) == {("input-schema-changed", "info", "new", "/inputSchema/properties/a")}


def test_deep_nesting_is_bounded():
    def nest(n, leaf):
        s = leaf
        for _ in range(n):
            s = {"type": "object", "properties": {"x": s}}
        return s

    old = {"name": "t", "inputSchema": nest(200, {"type": "string"})}
    new = {"name": "t", "inputSchema": nest(200, {"type": "integer"})}
    assert changes(old, new, max_depth=32) == set()  # too deep to compare: no crash, nothing invented
    shallow = changes({"name": "t", "inputSchema": nest(3, {"type": "string"})},
                      {"name": "t", "inputSchema": nest(3, {"type": "integer"})})
    assert shallow == {("type-changed", "error", "new", "/inputSchema" + "/properties/x" * 3 + "/type")}


def test_bad_input_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tools": [')
    r = run(V1, str(bad))
    assert r.exit_code == 2 and f"{bad}:1:12: input error: invalid JSON" in r.output
    assert run(V1, str(tmp_path / "missing.json")).exit_code == 2
    shape = tmp_path / "shape.json"
    shape.write_text('{"hello": 1}')
    assert run(str(shape), V1).exit_code == 2
    assert run("-", "-").exit_code == 2
