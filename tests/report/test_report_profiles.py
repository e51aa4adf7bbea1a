"""The text report under several profiles: repeats fold onto one line per rule, tool and
profile (``--verbose`` expands them), errors come first, one code frame per place, and a
closing table says per profile how many tools it accepts as-is, weakens, rejects or leaves out;
the JSON report names the profile of each finding."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.report import Options, profile_matrix, render
from profiles.common import write

TOOLS = {"tools": [
    {"name": "many_optional", "inputSchema": {"type": "object", "additionalProperties": False,
                                              "properties": {f"p{i}": {"type": "string"} for i in range(6)}}},
    {"name": "clean", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["q"],
                                      "properties": {"q": {"type": "string"}}}},
    {"name": "unique", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["t"],
                                       "properties": {"t": {"type": "array", "items": {"type": "string"},
                                                            "uniqueItems": True}}}},
    {"name": "rows", "inputSchema": {"type": "object", "properties": {"r": {"type": "array"}}}},
]}


def run(tmp_path, profiles, verbose=False):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(TOOLS, indent=2), encoding="utf-8")
    result = lint_paths([str(path)], Config(profiles=tuple(profiles), select=("DEC",)))
    return result, render("text", result, Options(verbose=verbose))


def test_repeats_fold_to_one_line_and_verbose_expands(tmp_path):
    result, text = run(tmp_path, ["openai-strict"])
    opt = [f for f in result.findings if f.tool == "many_optional" and f.rule == "DEC001"]
    assert len(opt) == 6
    assert text.count("'required' is required to be supplied") == 1
    assert ("... and 5 more DEC001 for profile openai-strict in this tool: "
            "12:11 properties/p1, 15:11 properties/p2") in text
    _, verbose = run(tmp_path, ["openai-strict"], verbose=True)
    assert verbose.count("'required' is required to be supplied") == 6 + 1  # six properties + tool "rows"
    assert "more DEC001" not in verbose


def test_a_fold_of_several_severities_counts_each(tmp_path):
    """OpenAI strict's DEC001 is an error for an optional property and a warning ("can be rejected")
    for minLength: a fold holding both says how many of each; a fold of one severity says none."""
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": {
        "type": "object", "additionalProperties": False, "required": ["a"],
        "properties": {"a": {"type": "string", "minLength": 1, "maxLength": 9}, "b": {"type": "string"},
                       "c": {"type": "string"}}}}]}, indent=2), encoding="utf-8")
    result = lint_paths([str(path)], Config(profiles=("openai-strict",), select=("DEC",)))
    sev = sorted(f.severity.label for f in result.findings if f.rule == "DEC001")
    assert sev == ["error", "error", "warning", "warning"]
    text = render("text", result, Options())
    assert "... and 3 more DEC001 for profile openai-strict (1 error, 2 warnings) in this tool: " in text
    _, plain = run(tmp_path, ["openai-strict"])
    assert "... and 5 more DEC001 for profile openai-strict in this tool: " in plain  # six errors: one severity


def test_errors_first_and_one_frame_per_place(tmp_path):
    _, text = run(tmp_path, ["xgrammar", "llguidance"])
    block = text.split("tool unique")[1].split("tool rows")[0]
    assert block.index("error") < block.index("warning")
    assert block.count("at /tools/2/inputSchema/properties/t/uniqueItems") == 1  # two profiles, one place


def test_closing_summary_per_profile(tmp_path):
    result, text = run(tmp_path, ["openai-strict", "xgrammar", "vscode-copilot"])
    m = profile_matrix(result)
    assert set(m) == {"openai-strict", "xgrammar", "vscode-copilot"}
    assert m["vscode-copilot"][(str(tmp_path / "tools.json"), "rows")] == "drops"
    assert m["xgrammar"][(str(tmp_path / "tools.json"), "unique")] == "weakens"
    assert "Decoder profiles (4 tools):" in text
    assert "openai-strict   1 accepted as-is, 0 weakened, 3 rejected, 0 left out" in text
    assert "vscode-copilot  3 accepted as-is, 0 weakened, 0 rejected, 1 left out" in text
    assert "xgrammar        2 accepted as-is, 2 weakened, 0 rejected, 0 left out" in text


def test_no_summary_when_no_tool_was_read(tmp_path):
    """A run whose every input failed has no tools to tally: no table of zeros, the input error shows."""
    bad = write(tmp_path, '{"tools": [', "bad.json")
    r = CliRunner().invoke(main, ["scan", str(bad), "--profile", "openai-strict", "--no-config"])
    assert r.exit_code == 2 and "Decoder profiles" not in r.output and "could not be read" in r.output
    good = write(tmp_path, json.dumps({"name": "a", "inputSchema": {"type": "object"}}), "good.json")
    r = CliRunner().invoke(main, ["scan", str(bad), str(good), "--profile", "openai-strict", "--no-config"])
    assert "Decoder profiles (1 tool):" in r.output


def test_json_report_names_the_profile(tmp_path):
    tools = write(tmp_path, json.dumps({"name": "a", "inputSchema": {"type": "object", "properties": {
        "t": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}}}), "t.json")
    r = CliRunner().invoke(main, ["scan", str(tools), "--profile", "xgrammar", "--format", "json", "--no-config"])
    data = json.loads(r.output)
    f = [x for x in data["findings"] if x["rule"] == "DEC002"]
    assert f and f[0]["profile"] == "xgrammar" and f[0]["severity"] == "warning"


def _tools(n: int) -> dict:
    return {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": [
        {"name": f"t{i}", "description": "d", "inputSchema": {"type": "object", "additionalProperties": False}}
        for i in range(n)]}


def test_the_summary_says_when_the_request_exceeds_a_limit_no_tool_does(tmp_path):
    # Cursor offers at most 80 MCP tools: each of 81 tools passes alone, the request does not
    (tmp_path / "over.json").write_text(json.dumps(_tools(81)), encoding="utf-8")
    (tmp_path / "under.json").write_text(json.dumps(_tools(80)), encoding="utf-8")
    over = lint_paths([str(tmp_path / "over.json")], Config(profiles=("cursor",), select=("DEC",)))
    under = lint_paths([str(tmp_path / "under.json")], Config(profiles=("cursor",), select=("DEC",)))
    assert [f.rule for f in over.findings] == ["DEC009"] and not under.findings
    line = next(x for x in render("text", over).splitlines() if x.strip().startswith("cursor"))
    assert line.endswith("81 accepted as-is, 0 weakened, 0 rejected, 0 left out; the request exceeds 1 limit (DEC009)")
    assert "the request exceeds" not in render("text", under)
    total = next(x for x in render("markdown", over).splitlines() if x.startswith("| **total**"))
    assert total.endswith("; the request exceeds 1 limit (DEC009) |")


def test_a_lost_list_counts_every_tool_of_it(tmp_path):
    """A client that cannot read tools/list over one tool (the MCP TypeScript SDK, gemini-cli,
    opencode) loses the server's every tool: the one finding says how many, and the summary and the
    Markdown matrix count them all as lost, file by file; a client that leaves one tool out
    (vscode-copilot) still counts that one."""
    tools = {"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {}}},
                       {"name": "b", "inputSchema": {"type": "array", "items": {"type": "string"}}},
                       {"name": "c", "inputSchema": {"type": "object", "properties": {"r": {"type": "array"}}}}]}
    (tmp_path / "bad.json").write_text(json.dumps(tools), encoding="utf-8")
    (tmp_path / "good.json").write_text(json.dumps({"tools": tools["tools"][:1]}), encoding="utf-8")
    result = lint_paths([str(tmp_path / "bad.json"), str(tmp_path / "good.json")],
                        Config(profiles=("opencode", "vscode-copilot"), select=("DEC",)))
    lost = [f for f in result.findings if f.profile == "opencode"]
    assert [(f.rule, f.tool, f.consequence, f.severity.label) for f in lost] == [("DEC003", "b", "fail-list", "error")]
    assert "so it loses all 3 of the server's tools, this one and 2 more" in lost[0].message
    m = profile_matrix(result)
    bad, good = str(tmp_path / "bad.json"), str(tmp_path / "good.json")
    assert {k[1]: v for k, v in m["opencode"].items() if k[0] == bad} == dict.fromkeys("abc", "loses-list")
    assert m["opencode"][(good, "a")] == "accepts"  # another server's list stands
    assert m["vscode-copilot"][(bad, "c")] == "drops" and m["vscode-copilot"][(bad, "a")] == "accepts"
    text = render("text", result)
    assert "opencode        1 accepted as-is, 0 weakened, 0 rejected, 0 left out, 3 lost with the whole list" in text
    assert "vscode-copilot  3 accepted as-is, 0 weakened, 0 rejected, 1 left out\n" in text
    md = render("markdown", result)
    assert "| `b` (`" in md and "💥 loses the list" in md
    total = next(x for x in md.splitlines() if x.startswith("| **total**"))
    assert "1 accepts, 3 lost with the list" in total


def test_a_name_claude_desktop_refuses_counts_the_connectors_every_tool(tmp_path):
    """Claude Desktop withholds a connector's whole tool set over one name it refuses: the tool
    name finding is the list's loss and the matrix counts every tool of that file; two tools of
    one name fail the Claude API request instead and count as those tools rejected."""
    obj = {"type": "object", "properties": {}}
    (tmp_path / "dotted.json").write_text(json.dumps({"tools": [
        {"name": "immich.assets.list", "inputSchema": obj}, {"name": "ok", "inputSchema": obj}]}), encoding="utf-8")
    (tmp_path / "twice.json").write_text(json.dumps({"tools": [
        {"name": "same", "inputSchema": obj}, {"name": "same", "inputSchema": obj},
        {"name": "x" * 64, "inputSchema": obj}]}), encoding="utf-8")
    result = lint_paths([str(tmp_path / "dotted.json"), str(tmp_path / "twice.json")],
                        Config(profiles=("claude-desktop",), select=("DEC",)))
    got = sorted((f.tool, f.consequence) for f in result.findings if f.profile == "claude-desktop")
    assert got == [("immich.assets.list", "fail-list"), ("same", "reject")]
    row = profile_matrix(result)["claude-desktop"]
    assert sorted(v for k, v in row.items() if k[0].endswith("dotted.json")) == ["loses-list", "loses-list"]
    assert sorted(v for k, v in row.items() if k[0].endswith("twice.json")) == ["accepts", "rejects"]
    assert "1 accepted as-is, 0 weakened, 1 rejected, 0 left out, 2 lost with the whole list" in render("text", result)
