"""`mcplint scan --fix` / `--diff` / `--unsafe-fixes`: the fixes of the findings applied to JSON
and YAML files, rewriting only what they change (exact expected texts: comments, CRLF, tabs,
odd spacing and quoting elsewhere stay byte for byte), idempotent, never breaking a file."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mcplint.autofix.apply import edit_for, editor_for
from mcplint.autofix.patch import PatchError, apply_patch, splice
from mcplint.cli import main


def run(args):  # checked as 2026-07-28: a file that names no version gets no fix that only some versions ask for
    return CliRunner().invoke(main, ["scan", "--no-config", "--protocol-version", "2026-07-28", *args],
                              catch_exceptions=False)


def fix(path, *extra):
    return run(["--fix", *extra, str(path)])


# ----------------------------------------------------------------- whole files, exact results

JSON_TABS = (
    '{\n'
    '\t"tools": [\n'
    '\t\t{\n'
    '\t\t\t"name" :  "ping",\n'
    '\t\t\t"inputSchema" : { "type": "object" },\n'
    '\t\t\t"annotations": {"readOnlyHint": "true", "bogus": 1}\n'
    '\t\t},\n'
    '\t\t{\n'
    '\t\t\t"name": "echo",\n'
    '\t\t\t"inputSchema": {"properties": {"y": {"type": "string", "nullable": false}}}\n'
    '\t\t}\n'
    '\t]\n'
    '}'
)
JSON_TABS_SAFE = (
    '{\n'
    '\t"tools": [\n'
    '\t\t{\n'
    '\t\t\t"name" :  "ping",\n'
    '\t\t\t"inputSchema" : { "type": "object" },\n'
    '\t\t\t"annotations": {"readOnlyHint": true, "bogus": 1}\n'
    '\t\t},\n'
    '\t\t{\n'
    '\t\t\t"name": "echo",\n'
    '\t\t\t"inputSchema": {"properties": {"y": {"type": "string"}}, "type": "object"}\n'
    '\t\t}\n'
    '\t],\n'
    '\t"resultType": "complete"\n'
    '}'
)


def test_fix_json_tabs_odd_spacing_no_final_newline(tmp_path):
    f = tmp_path / "tools.json"
    f.write_bytes(JSON_TABS.encode())
    r = fix(f)
    assert f.read_bytes().decode() == JSON_TABS_SAFE
    assert "Fixed 4 findings in 1 file" in r.stderr and "with --unsafe-fixes" in r.stderr
    assert r.exit_code == 1  # MCP128 (ttlMs, cacheScope) has no mechanical fix: it remains
    again = fix(f)
    assert f.read_bytes().decode() == JSON_TABS_SAFE and "Fixed 0 findings in 0 files" in again.stderr


def test_fix_json_crlf_keeps_crlf_and_unsafe_fixes(tmp_path):
    f = tmp_path / "tools.json"
    f.write_bytes(JSON_TABS.replace("\n", "\r\n").encode())
    fix(f, "--unsafe-fixes")
    got = f.read_bytes().decode()
    assert "\n" not in got.replace("\r\n", "")  # every line break is still CRLF
    assert got == (
        '{\r\n\t"tools": [\r\n\t\t{\r\n\t\t\t"name" :  "ping",\r\n'
        '\t\t\t"inputSchema" : { "type": "object", "additionalProperties": false },\r\n'
        '\t\t\t"annotations": {"readOnlyHint": true}\r\n'
        '\t\t},\r\n\t\t{\r\n\t\t\t"name": "echo",\r\n'
        '\t\t\t"inputSchema": {"properties": {"y": {"type": "string"}}, "type": "object"}\r\n'
        '\t\t}\r\n\t],\r\n\t"resultType": "complete"\r\n}'
    )
    before = f.read_bytes()
    fix(f, "--unsafe-fixes")
    assert f.read_bytes() == before


YAML = """\
# tools for the demo server
defaults: &closed {type: object, additionalProperties: false}
tools:
  - name: ping   # the simplest tool
    inputSchema:
      type: object
    annotations: {readOnlyHint: "true", bogus: 1}
  - name: echo
    inputSchema:
      properties:
        y:
          type: 'string'
          nullable: false   # OpenAPI leftover
        z: {type: "string", description: 'keep ''this'' quoting'}
      # end of echo's properties
  - name: shared
    inputSchema: *closed
"""

YAML_SAFE = """\
# tools for the demo server
defaults: &closed {type: object, additionalProperties: false}
tools:
  - name: ping   # the simplest tool
    inputSchema:
      type: object
    annotations: {readOnlyHint: true, bogus: 1}
  - name: echo
    inputSchema:
      properties:
        y:
          type: 'string'
        z: {type: "string", description: 'keep ''this'' quoting'}
      type: object
      # end of echo's properties
  - name: shared
    inputSchema: *closed
resultType: complete
"""


def test_fix_yaml_keeps_comments_anchors_and_quoting(tmp_path):
    f = tmp_path / "tools.yaml"
    f.write_text(YAML)
    fix(f)
    assert f.read_text() == YAML_SAFE
    fix(f)
    assert f.read_text() == YAML_SAFE


def test_fix_yaml_crlf(tmp_path):
    f = tmp_path / "tools.yaml"
    f.write_bytes(YAML.replace("\n", "\r\n").encode())
    fix(f)
    assert f.read_bytes().decode() == YAML_SAFE.replace("\n", "\r\n")


def test_fix_yaml_unsafe_removes_member_lines_only(tmp_path):
    f = tmp_path / "tools.yaml"
    f.write_text(YAML)
    fix(f, "--unsafe-fixes")
    got = f.read_text()
    assert "    annotations: {readOnlyHint: true}\n" in got  # bogus removed inside the flow mapping
    assert "    inputSchema:\n      type: object\n      additionalProperties: false\n    annotations" in got
    assert got.startswith("# tools for the demo server\ndefaults: &closed {type: object, additionalProperties: false}")
    assert yaml.safe_load(got)["tools"][2]["inputSchema"] == {"type": "object", "additionalProperties": False}


def test_diff_prints_and_writes_nothing(tmp_path):
    f = tmp_path / "tools.json"
    f.write_text(JSON_TABS)
    r = run(["--diff", str(f)])
    assert f.read_text() == JSON_TABS
    assert r.exit_code == 1
    assert r.stdout.startswith(f"--- {f}\n+++ {f}\n")  # an absolute path keeps no a/ b/ prefix
    assert '-\t\t\t"annotations": {"readOnlyHint": "true", "bogus": 1}' in r.stdout
    assert '+\t\t\t"annotations": {"readOnlyHint": true, "bogus": 1}' in r.stdout
    assert "\\ No newline at end of file" in r.stdout
    assert "Would fix 4 findings in 1 file" in r.stderr
    f.write_text(JSON_TABS_SAFE)
    clean = run(["--diff", str(f)])
    assert clean.exit_code == 0 and clean.stdout == ""


def test_fix_and_diff_usage_errors(tmp_path):
    f = tmp_path / "tools.json"
    f.write_text(JSON_TABS)
    assert run(["--fix", "--diff", str(f)]).exit_code == 2
    assert run(["--fix", "-"]).exit_code == 2


def test_fix_never_writes_a_file_it_cannot_fix_and_reports_why(tmp_path):
    # the fix would edit a value shared through an anchor: every alias would change with it
    f = tmp_path / "tools.yaml"
    text = ("base: &s {type: object}\ntools:\n  - name: a\n    inputSchema: *s\n  - name: b\n    inputSchema: *s\n"
            "resultType: complete\n")
    f.write_text(text)
    r = fix(f, "--unsafe-fixes")
    assert f.read_text() == text
    assert "MCP125 fix not applied" in r.stderr and "anchor" in r.stderr


def test_fix_skips_file_with_duplicate_keys(tmp_path):
    f = tmp_path / "t.json"
    text = '{"name": "a", "name": "b", "inputSchema": {"type": "object"}}'
    f.write_text(text)
    r = fix(f, "--unsafe-fixes")
    assert f.read_text() == text and "repeats a key" in r.stderr


def test_conflicting_fixes_apply_over_rounds(tmp_path):
    # two adds to the same object insert at one point: one per round, both in the end
    f = tmp_path / "t.json"
    f.write_text('{"tools": [{"name": "a", "inputSchema": {}}]}')
    fix(f, "--unsafe-fixes")
    data = json.loads(f.read_text())
    assert data["tools"][0]["inputSchema"] == {"type": "object", "additionalProperties": False}
    assert data["resultType"] == "complete"
    assert f.read_text() == ('{"tools": [{"name": "a", "inputSchema": {"type": "object", '
                             '"additionalProperties": false}}], "resultType": "complete"}')


def test_fix_reports_what_remains(tmp_path):
    f = tmp_path / "t.json"
    f.write_text(JSON_TABS)
    r = run(["--fix", "--output-format", "concise", str(f)])
    lines = [ln for ln in r.stdout.splitlines() if ": MCP" in ln or ": SCH" in ln]
    assert {ln.split()[1] for ln in lines} == {"MCP128", "MCP125", "MCP112"}  # what a safe fix leaves


# ----------------------------------------------------------------- single operations

OBJECTS = [
    '{"a": 1, "b": {"c": [1, 2]}}',
    '{\n  "a": 1,\n  "b": {\n    "c": [\n      1,\n      2\n    ]\n  }\n}\n',
    '{\r\n\t"a" : 1 ,\r\n\t"b" : {"c" : [1 , 2]}\r\n}',
    '{"a":1,"b":{"c":[1,2]}}',
]
YAMLS = [
    "a: 1\nb:\n  c:\n    - 1\n    - 2\n",
    "# head\na: 1   # one\nb: {c: [1, 2]}\n# tail\n",
    "a: 1\r\nb:\r\n  c: [1, 2]\r\n",
    "a: 1\nb:\n  c:\n  - 1\n  - 2",
]
OPS = [
    {"op": "add", "path": "/z", "value": False},
    {"op": "add", "path": "/b/z", "value": "x y"},
    {"op": "add", "path": "/b/c/-", "value": 3},
    {"op": "replace", "path": "/a", "value": {"k": [None]}},
    {"op": "replace", "path": "/b/c/1", "value": "two"},
    {"op": "remove", "path": "/a"},
    {"op": "remove", "path": "/b"},
    {"op": "move", "from": "/a", "path": "/renamed"},
    {"op": "move", "from": "/a", "path": "/b/a"},
]


@pytest.mark.parametrize("fmt,text", [("json", t) for t in OBJECTS] + [("yaml", t) for t in YAMLS])
@pytest.mark.parametrize("op", OPS, ids=lambda op: f"{op['op']}{op['path']}")
def test_each_operation_gives_the_patched_data_and_keeps_the_rest(fmt, text, op):
    editor = editor_for(fmt, text)
    try:
        edit = edit_for(text, fmt, (op,), editor)
    except PatchError:
        pytest.fail(f"{op} could not be applied to {text!r}")
    new = splice(text, [edit])
    parsed = json.loads(new) if fmt == "json" else yaml.safe_load(new)
    assert parsed == apply_patch(editor.data, [op])
    start, end, _ = edit
    assert new[:start] == text[:start] and new[len(new) - (len(text) - end):] == text[end:]
    if op["op"] != "remove" and "\r\n" in text:  # a new line takes the file's line ending
        assert "\n" not in new.replace("\r\n", "")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.dictionaries(st.text("abcxyz", min_size=1, max_size=3), st.integers() | st.booleans() | st.text(max_size=4),
                       min_size=1, max_size=5), st.sampled_from([None, 0, 1, 2, "\t"]),
       st.sampled_from(["add", "remove", "replace"]), st.data())
def test_json_edits_match_json_patch(obj, indent, name, data):
    text = json.dumps({"o": obj, "tail": [1]}, indent=indent)
    key = data.draw(st.sampled_from(sorted(obj)) if name != "add" else st.text("klm", min_size=1, max_size=2))
    op = {"op": name, "path": f"/o/{key}"}
    if name != "remove":
        op["value"] = {"new": [1, "x"]}
    editor = editor_for("json", text)
    new = splice(text, [edit_for(text, "json", (op,), editor)])
    assert json.loads(new) == apply_patch(json.loads(text), [op])


# ----------------------------------------------------------------- which fixes are safe

def test_every_rule_with_a_patch_declares_its_fix_safety():
    import inspect

    from mcplint.registry import FIX_SAFETY, all_rules

    metas = all_rules()
    with_patch = {m.id for m in metas if "patch" in inspect.getsource(m.func)}
    declared = {m.id for m in metas if m.fix_safety}
    # every rule whose code builds a patch declares it (JST110/JST112's patches are built by helpers)
    assert with_patch - {"JST110", "JST112"} <= declared, with_patch - declared
    assert {m.fix_safety for m in metas} <= {None, *FIX_SAFETY}
    assert all(m.fix_note for m in metas if m.fix_safety)


def test_every_patch_of_every_fixture_case_is_as_safe_as_its_rule_declares():
    from conftest import load_cases, run_case
    from mcplint.registry import get

    seen: dict = {}
    for _, case in load_cases():
        for f in run_case(case, only_rule=case["rule"]):
            if f.fix is None or not f.fix.patch:
                continue
            declared = get(f.rule).fix_safety
            assert declared, f"{f.rule} yields a patch but declares no fix_safety"
            if declared != "varies":
                assert f.fix.applicability == declared, (f.rule, f.fix)
            seen.setdefault(f.rule, set()).add(f.fix.applicability)
    varies = {m.id for m in __import__("mcplint.registry", fromlist=["x"]).all_rules() if m.fix_safety == "varies"}
    # a rule that says its patches differ has a fixture case of each kind
    assert {r for r in varies if seen.get(r) == {"safe", "unsafe"}} == varies, {r: seen.get(r) for r in varies}


def _fix_of(rule, tool, **settings):
    from conftest import lint_json

    settings.setdefault("protocol-versions", ["2026-07-28"])
    found = [f for f in lint_json({"tools": [tool]}, select=[rule], **settings) if f.fix and f.fix.patch]
    assert found, rule
    return {f.fix.applicability for f in found}


def test_safety_decisions():
    obj = {"type": "object"}
    assert _fix_of("MCP125", {"name": "t", "inputSchema": obj}) == {"unsafe"}  # changes what the schema accepts
    assert _fix_of("MCP104", {"name": "t", "inputSchema": obj, "bogus": 1}) == {"unsafe"}  # removes data
    assert _fix_of("MCP113", {"name": "t", "inputSchema": obj, "annotations": {"readOnlyHint": "true"}}) == {"safe"}
    prop = lambda s: {"name": "t", "inputSchema": {"type": "object", "properties": {"a": s}}}  # noqa: E731
    assert _fix_of("SCH104", prop({"type": "string", "example": "x"})) == {"safe"}  # an annotation moves
    assert _fix_of("SCH104", prop({"type": "string", "nullable": False})) == {"safe"}  # no effect
    assert _fix_of("SCH104", prop({"type": "string", "nullable": True})) == {"unsafe"}  # now accepts null
    assert _fix_of("MCP106", {"name": "t", "inputSchema": {}}) == {"safe"}  # arguments are objects anyway
    assert _fix_of("MCP106", {"name": "t", "inputSchema": {"type": "string"}}) == {"unsafe"}  # drops a type
    assert _fix_of("SCH105", prop({"type": "string", "required": True})) == {"unsafe"}  # makes it required
    assert _fix_of("SCH105", prop({"type": "string", "required": False})) == {"safe"}  # removes what never worked


def test_a_rule_cannot_yield_a_patch_of_undeclared_safety():
    from mcplint.model import Severity
    from mcplint.registry import REGISTRY, BY_NAME, Context, rule

    def make(id, **kw):
        try:
            @rule(id, f"test-{id.lower()}", severity=Severity.INFO, scope="tool", fix="f", **kw)
            def r(tool, ctx):
                """x"""
                yield from ()
            return Context(r.meta, ("2025-11-25",), None)
        finally:
            REGISTRY.pop(id, None)
            BY_NAME.pop(f"test-{id.lower()}", None)

    patch = [{"op": "remove", "path": "/a"}]
    varies = make("ZZZ901", fix_safety="varies", fix_note="it depends")
    with pytest.raises(ValueError, match="varies"):
        varies.finding((), "m", patch=patch)  # a rule whose patches differ says which each is
    assert varies.finding((), "m", patch=patch, safe=True).fix.applicability == "safe"
    safe = make("ZZZ902", fix_safety="safe", fix_note="same schema")
    assert safe.finding((), "m", patch=patch).fix.applicability == "safe"
    assert safe.finding((), "m").fix.applicability == "display-only"
    with pytest.raises(ValueError):
        safe.finding((), "m", patch=patch, safe=False)  # the declaration is the decision
    undeclared = make("ZZZ903")
    assert undeclared.finding((), "m", patch=patch).fix.applicability == "unsafe"  # unsafe unless declared
    with pytest.raises(ValueError, match="fix_note"):
        make("ZZZ904", fix_safety="safe")
    with pytest.raises(ValueError, match="not in"):
        make("ZZZ905", fix_safety="always", fix_note="x")


def test_fix_json_with_byte_order_mark(tmp_path):
    f = tmp_path / "t.json"
    text = '\ufeff[{"name": "a", "inputSchema": {"properties": {"b": {"type": "boolean", "nullable": false}}}}]'
    f.write_text(text, encoding="utf-8")
    fix(f)
    assert f.read_text(encoding="utf-8") == (
        '\ufeff[{"name": "a", "inputSchema": {"properties": {"b": {"type": "boolean"}}, "type": "object"}}]')


@pytest.mark.parametrize("name,text,fixed", [
    ("t.json",  # fixes on line 1 (after the BOM) and on line 2; CRLF and the BOM stay
     '\ufeff{"tools": [{"name": "a", "annotations": {"readOnlyHint": "true"}, "inputSchema": {"type": "object",\r\n'
     '  "properties": {"b": {"type": "boolean", "nullable": false}}}}]}\r\n',
     '\ufeff{"tools": [{"name": "a", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object",\r\n'
     '  "properties": {"b": {"type": "boolean"}}}}], "resultType": "complete"}\r\n'),
    ("t.yaml",  # a flow mapping on line 1: its offsets were one short of the BOM (the edit was refused)
     '\ufeffannotations: {readOnlyHint: "true"}  # hint\nname: a\ninputSchema: {type: object, properties: {\n'
     '    b: {type: boolean, nullable: false}}}\n',
     '\ufeffannotations: {readOnlyHint: true}  # hint\nname: a\ninputSchema: {type: object, properties: {\n'
     '    b: {type: boolean}}}\n'),
    ("u.yaml",  # block style: a replace on line 1 and a removal further down
     '\ufeffresultType: complete\ntools:\n- name: a\n  annotations: {readOnlyHint: "true"}\n  inputSchema:\n'
     '    type: object\n    properties:\n      b: {type: boolean, nullable: false}  # keep\n',
     '\ufeffresultType: complete\ntools:\n- name: a\n  annotations: {readOnlyHint: true}\n  inputSchema:\n'
     '    type: object\n    properties:\n      b: {type: boolean}  # keep\n'),
])
def test_fix_files_with_byte_order_mark_byte_for_byte(tmp_path, name, text, fixed):
    f = tmp_path / name
    f.write_bytes(text.encode("utf-8"))
    r = fix(f)
    assert f.read_bytes() == fixed.encode("utf-8"), r.output
    assert "not applied" not in r.output
    fix(f)
    assert f.read_bytes() == fixed.encode("utf-8")  # idempotent


def test_fix_yaml_that_only_libyaml_reads_and_a_last_line_without_newline(tmp_path):
    # a tab after a comma in a flow mapping: libyaml (which mcplint reads YAML with) accepts it
    f = tmp_path / "t.yaml"
    f.write_text("- name: a\n  inputSchema:\n    properties:\n      b: {type: boolean,\tnullable: false}\n"
                 "    required: [b]")
    fix(f)
    assert f.read_text() == ("- name: a\n  inputSchema:\n    properties:\n      b: {type: boolean}\n"
                             "    required: [b]\n    type: object")


def _random_value(rnd, depth=0):
    r = rnd.random()
    if depth < 3 and r < 0.3:
        return {rnd.choice("abcdefg") + str(i): _random_value(rnd, depth + 1) for i in range(rnd.randint(0, 3))}
    if depth < 3 and r < 0.45:
        return [_random_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))]
    return rnd.choice([1, "x", True, None, "two words", 2.5, "yes", "", "a:b", "#c", "it's"])


def _places(value, at=()):
    yield at, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        yield from _places(v, (*at, k))


def _random_case(rnd):
    """A document written in one of many styles (JSON indented or not, YAML block, flow or
    mixed, with comments, CRLF), and one operation on it."""
    doc = {"root": _random_value(rnd), "z": _random_value(rnd)}
    fmt = rnd.choice(["json", "yaml"])
    if fmt == "json":
        text = json.dumps(doc, indent=rnd.choice([None, 2, "\t"]), ensure_ascii=rnd.random() < 0.5)
    else:
        style = rnd.choice([False, None, True])
        text = yaml.safe_dump(doc, default_flow_style=style, sort_keys=False, width=10000)
        if style is False:  # comments at line ends and on lines of their own
            out = []
            for line in text.split("\n"):
                out.append(line + ("   # c: [x]" if line and rnd.random() < 0.3 else ""))
                if rnd.random() < 0.2:
                    out.append(rnd.choice(["# note", "    # deeper note", ""]))
            text = "\n".join(out)
    if rnd.random() < 0.3:
        text = text.replace("\n", "\r\n")
    at, value = rnd.choice([p for p in _places(doc) if p[0]])
    path = "".join(f"/{k}" for k in at)
    kind = rnd.choice(["add", "remove", "replace", "move"])
    if kind == "add" and isinstance(value, dict):
        op = {"op": "add", "path": path + "/new", "value": _random_value(rnd)}
    elif kind == "add" and isinstance(value, list):
        op = {"op": "add", "path": path + "/-", "value": _random_value(rnd)}
    elif kind == "move" and isinstance(at[-1], str):
        op = {"op": "move", "from": path, "path": "".join(f"/{k}" for k in at[:-1]) + "/renamed"}
    elif kind == "remove":
        op = {"op": "remove", "path": path}
    else:
        op = {"op": "replace", "path": path, "value": _random_value(rnd)}
    return fmt, text, op


@pytest.mark.parametrize("seed", range(4))
def test_random_documents_and_operations(seed):
    import random

    rnd = random.Random(seed)
    done = 0
    for _ in range(300):
        fmt, text, op = _random_case(rnd)
        editor = editor_for(fmt, text)
        try:
            edit = edit_for(text, fmt, (op,), editor)
        except PatchError:
            continue
        new = splice(text, [edit])
        got = json.loads(new) if fmt == "json" else yaml.safe_load(new)
        assert got == apply_patch(editor.data, [op]), (fmt, op, text, new)
        start, end, _ = edit
        assert new[:start] == text[:start] and new[len(new) - (len(text) - end):] == text[end:]
        done += 1
    assert done >= 290  # refusals are rare: the editors handle these shapes


def test_a_round_whose_result_mcplint_cannot_read_is_undone():
    from mcplint.autofix.apply import fix_text
    from mcplint.errors import InputError
    from mcplint.model import Finding, Fix, Pointer, Severity

    text = '{"name": "a", "inputSchema": {"type": "object"}}'
    f = Finding("MCP128", "missing-list-result-member", Severity.WARNING, "m", "t.json", Pointer(),
                fix=Fix("Add resultType", ({"op": "add", "path": "/resultType", "value": "complete"},), safe=True))

    def relint(new_text):
        raise InputError("unrecognised document shape", origin="t.json")

    out = fix_text("t.json", "json", text, [f], relint)
    assert out.after == text and not out.applied
    [(rule, _, reason)] = out.skipped.values()
    assert rule == "MCP128" and "could not read the file (unrecognised document shape)" in reason
    ok = fix_text("t.json", "json", text, [f], lambda new_text: [])
    assert ok.after == '{"name": "a", "inputSchema": {"type": "object"}, "resultType": "complete"}'
    assert [c.rule for c in ok.applied] == ["MCP128"] and ok.rounds == 1


def test_diff_names_unreadable_inputs_and_paths_patch_can_apply(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "tools.json").write_text('{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}')
    (tmp_path / "d" / "broken.json").write_text('{"tools": [')
    r = run(["--diff", "./d"])
    assert r.exit_code == 2 and "d/broken.json:1:12: input error: invalid JSON: unexpected end of file" in r.stderr
    assert r.stdout.startswith("--- a/d/tools.json\n+++ b/d/tools.json\n")


def test_fix_edits_only_the_text_that_was_linted(tmp_path):
    from mcplint.autofix.run import on_disk
    from mcplint.model import Source

    server = tmp_path / "server.py"
    server.write_text("from mcp.server.fastmcp import FastMCP\n")
    # a Python server's document is JSON that mcplint generated from the code: never written back
    assert "Python code" in on_disk(Source(str(server), '[{"name": "a"}]\n', "json"))
    f = tmp_path / "t.json"
    f.write_bytes(b'{"a": 1}\r\n')
    assert on_disk(Source(str(f), '{"a": 1}\r\n', "json")) is True  # CRLF read as written
    assert "changed since it was read" in on_disk(Source(str(f), '{"a": 2}\r\n', "json"))


def test_a_probe_capture_offers_no_fix(tmp_path):
    """A capture records what a server sent: its findings' fixes belong in the server, so neither
    the report's fix count nor --fix touches it (and a probe without --save has no file)."""
    from mcplint.autofix.safety import fixable
    from mcplint.model import Fix, Finding, Pointer, Severity

    patch = ({"op": "add", "path": "/x", "value": 1},)
    def finding(*pointer):
        return Finding("MCP101", "n", Severity.ERROR, "m", "f.json", Pointer(pointer), fix=Fix("t", patch))
    assert fixable(finding("tools", 0, "inputSchema"), unsafe=True)
    assert not fixable(finding("captures", 0, "result", "tools", 0, "inputSchema"), unsafe=True)


# ----------------------------------------------------------------- stdin, as ruff does it

STDIN_YAML = ('resultType: complete\nttlMs: 0\ncacheScope: private\ntools:\n- name: a   # the tool\n  annotations: {readOnlyHint: "true"}\n'
              '  description: Adds a row.\n  inputSchema: {type: object, additionalProperties: false}\n')


def test_fix_on_stdin_prints_the_fixed_text_and_reports_what_remains_on_stderr():
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "--output-format", "concise", "-"],
                           input=STDIN_YAML, catch_exceptions=False)
    assert r.stdout == STDIN_YAML.replace('"true"', "true")  # the comment and the layout kept
    assert r.exit_code == 0 and "Fixed 1 finding; 0 remain." in r.stderr and "MCP113" not in r.stderr
    # what cannot be fixed is reported on stderr, with its exit code; the text still comes out whole
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "--fail-on", "warning", "--output-format", "concise",
                                  "-"], input=STDIN_YAML.replace("a   #", "a\n  bogus: 1   #"), catch_exceptions=False)
    assert r.exit_code == 1 and "bogus: 1" in r.stdout and "readOnlyHint: true" in r.stdout
    assert "<stdin>:6:3: MCP104" in r.stderr and "Fixed 1 finding; 1 remains (1 more fix with --unsafe-fixes)" in r.stderr
    unsafe = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "--unsafe-fixes", "-"],
                                input=STDIN_YAML.replace("a   #", "a\n  bogus: 1   #"), catch_exceptions=False)
    assert unsafe.exit_code == 0 and "bogus" not in unsafe.stdout


def test_diff_on_stdin_and_what_stdin_refuses(tmp_path):
    r = CliRunner().invoke(main, ["scan", "--no-config", "--diff", "-"], input=STDIN_YAML, catch_exceptions=False)
    assert r.exit_code == 1 and '-  annotations: {readOnlyHint: "true"}\n+  annotations: {readOnlyHint: true}\n' in r.stdout
    assert "Would fix 1 finding." in r.stderr
    clean = STDIN_YAML.replace('"true"', "true")
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "-"], input=clean, catch_exceptions=False)
    assert r.exit_code == 0 and r.stdout == clean  # nothing to fix: the text as it came
    other = tmp_path / "x.json"
    other.write_text("[]")
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "-", str(other)], input=clean)
    assert r.exit_code == 2 and "take stdin (-) alone" in r.output
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "--format", "json", "-"], input=clean)
    assert r.exit_code == 2 and "-o FILE" in r.output
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "-"], input='{"tools": [')
    assert r.exit_code == 2 and r.stdout == "" and "unexpected end of file" in r.stderr


def test_fix_with_show_fixes_lists_what_was_fixed_per_file_and_rule(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"name": "a", "inputSchema": {"type": "object", "additionalProperties": False},
                             "annotations": {"readOnlyHint": "true", "destructiveHint": "false"}}))
    b.write_text(json.dumps({"name": "b", "inputSchema": {"type": "object", "additionalProperties": False}}))
    r = run(["--fix", "--show-fixes", str(a), str(b)])
    lines = r.stderr.splitlines()
    i = lines.index(f"- {a}:")
    assert lines[i + 1] == "    2 \u00d7 MCP113 (invalid-annotation-type)"
    assert f"- {b}:" not in lines  # nothing was fixed there
    c = tmp_path / "c.json"
    c.write_text(json.dumps({"name": "c", "inputSchema": {"type": "object", "additionalProperties": False},
                             "annotations": {"readOnlyHint": "true"}}))
    plain = run(["--fix", str(c)]).stderr
    assert "Fixed 1 finding" in plain and "\u00d7" not in plain  # the list only with --show-fixes


def test_exit_non_zero_on_fix(tmp_path):
    """As ruff's flag: a file --fix changed fails the run even when no finding remains."""
    body = {"name": "a", "inputSchema": {"type": "object", "additionalProperties": False},
            "annotations": {"readOnlyHint": "true"}}
    f = tmp_path / "a.json"
    f.write_text(json.dumps(body))
    assert fix(f).exit_code == 0  # fixed, nothing remains
    f.write_text(json.dumps(body))
    assert fix(f, "--exit-non-zero-on-fix").exit_code == 1 and "true}" in f.read_text()
    assert fix(f, "--exit-non-zero-on-fix").exit_code == 0  # nothing left to change
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", "--exit-non-zero-on-fix", "-"],
                           input=json.dumps(body), catch_exceptions=False)
    assert r.exit_code == 1 and '"readOnlyHint": true' in r.stdout
