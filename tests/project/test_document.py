"""Whole documents: the projection of every tool in the corpus, the example file, the
official MCP examples and the rule fixtures lints clean under the same profile (mcplint's
own DEC rules); every real breakage is repaired or the tool left out with an error; the
output keeps the input's shape."""

from __future__ import annotations

import json

import pytest

from conftest import lint_json
from mcplint.load import load_text
from mcplint.project import project_document
from .common import ALL, DATA, FILES, FIXTURE_TOOLS, load_doc


@pytest.mark.parametrize("profile", ALL)
def test_projection_lints_clean_under_its_profile(profile):
    bad = []
    for path in FILES:
        res = project_document(load_doc(path), profile)
        if res.data is None:
            continue
        for f in lint_json(res.data, profiles=[profile], select=["DEC"]):
            if f.consequence in ("reject", "drop", "weaken") and f.rule != "DEC009":
                bad.append(f"{path.name} {f.rule} {f.pointer}: {f.message}")
        # a tool is left out only with an error item that names it
        for t in res.tools:
            if t.status == "left-out":
                assert any(i.kind == "left-out" and i.tool == t.name for i in res.items)
    assert not bad, bad[:10]


@pytest.mark.parametrize("profile", ALL)
def test_fixture_tools_project_clean_under_their_profile(profile):
    assert len(FIXTURE_TOOLS) > 50
    bad = []
    for label, tool in FIXTURE_TOOLS:
        res = project_document(load_text(json.dumps(tool), "t.json"), profile)
        if res.data is None:
            assert any(i.kind == "left-out" for i in res.items)
            continue
        for f in lint_json(res.data, profiles=[profile], select=["DEC"]):
            # (a warning on a name only another endpoint refuses, Vertex AI's 64 characters under
            # gemini, is not the projection's: it keeps the tool's name, which calls go to)
            if f.consequence in ("reject", "drop", "weaken") and f.rule != "DEC009" and not (
                    f.rule == "DEC007" and f.consequence == "weaken"):
                bad.append(f"{label} {f.rule} {f.pointer}: {f.message}")
    assert not bad, bad[:10]


def _breakages():
    from breakage_cases import CASES

    return CASES


@pytest.mark.parametrize("number,profile,document,rule,pointer,needle", _breakages(),
                         ids=[f"{c[0]}-{c[1]}" for c in _breakages()])
def test_every_real_breakage_is_projected_or_left_out_with_an_error(number, profile, document, rule, pointer,
                                                                    needle):
    """The 32 real-world breakages: the projection either repairs the construct (the output
    lints clean under the profile) or leaves the tool out with an error that says why."""
    res = project_document(load_text(json.dumps(document), "t.json"), profile)
    assert res.items, "a breakage never projects silently"
    if rule == "DEC009":
        assert any(i.kind == "limit" for i in res.items)
        return
    if res.data is not None:
        left = [f for f in lint_json(res.data, profiles=[profile], select=["DEC"])
                if f.consequence in ("reject", "drop", "weaken") and f.rule != "DEC009"]
        assert not left, [f.message for f in left]
    if any(t.status == "left-out" for t in res.tools):
        assert any(i.kind == "left-out" and i.message for i in res.items)
        assert res.changed


def test_output_keeps_the_input_shape():
    rpc = DATA / "mcp-examples" / "2026-07-28" / "ListToolsResultResponse" / "list-tools-result-response.json"
    res = project_document(load_doc(rpc), "openai-strict")
    src = json.loads(rpc.read_text())
    assert set(res.data) == set(src) and res.data["jsonrpc"] == "2.0" and "tools" in res.data["result"]
    assert len(res.data["result"]["tools"]) == len(src["result"]["tools"])


def test_an_output_root_the_client_refuses_leaves_the_tool_out():
    # gemini-cli's SDK requires type: object at an outputSchema's root; an object root with an anyOf passes
    tools = {"tools": [
        {"name": "listing", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {}}},
        {"name": "either", "inputSchema": {"type": "object"},
         "outputSchema": {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}}]}
    res = project_document(load_text(json.dumps(tools), "t.json"), "gemini-cli")
    assert {t.name: t.status for t in res.tools} == {"listing": "left-out", "either": "exact"}
    (item,) = [i for i in res.items if i.kind == "left-out"]
    assert item.tool == "listing" and item.pointer == ("tools", 0, "outputSchema")
    assert [t["name"] for t in res.data["tools"]] == ["either"]
