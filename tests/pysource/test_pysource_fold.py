"""A finding one change of a Python server's code fixes on every tool is reported once:
fastmcp 2.x writes ``_meta._fastmcp`` on every tool itself (MCP126), each placed on the line
that creates the server. The same key in a JSON file (a probe's capture of such a server) is
in each tool's text, and stays one finding per tool."""

from __future__ import annotations

import pytest

import json

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import CodeLocation, Finding, Pointer, Severity
from mcplint.pysource.fixes import actionable_in_code, fold_server_wide

SERVER = CodeLocation("server.py", 3, 1, "FastMCP(...)")


def meta(i: int, tool: str, source=SERVER, versions=("2026-07-28",), rule="MCP126", key="_fastmcp") -> Finding:
    return Finding(rule=rule, name="invalid-meta-key", severity=Severity.ERROR, message="bad key",
                   origin="server.py", pointer=Pointer((str(i), "_meta", key)), tool=tool, versions=versions,
                   source=source)


def test_one_finding_for_every_tool_at_one_place():
    other = meta(0, "a", rule="DOC001")
    got = fold_server_wide([meta(0, "a"), other, meta(1, "b"), meta(2, "c")])
    assert [(f.rule, f.tool) for f in got] == [("MCP126", "a"), ("DOC001", "a")]  # the first stands for all
    assert got[0].message == "bad key; on all 3 tools (a, b, c)" and got[1] is other
    many = fold_server_wide([meta(i, f"t{i}") for i in range(8)])
    assert len(many) == 1 and many[0].message.endswith("(t0, t1, t2, t3, t4, and 3 more)")


def test_near_misses_are_left_alone():
    alone = [meta(0, "a")]
    assert fold_server_wide(alone) == alone  # one tool: nothing to fold, the message as the rule wrote it
    elsewhere = CodeLocation("server.py", 9, 1)
    apart = [meta(0, "a"), meta(1, "b", source=elsewhere)]  # not one place
    assert fold_server_wide(apart) == apart
    versions = [meta(0, "a"), meta(1, "b", versions=("2025-06-18",))]  # not the same versions
    assert fold_server_wide(versions) == versions
    keys = [meta(0, "a", key="_x"), meta(1, "b", key="_x")]  # a key of the author's, not fastmcp's
    assert fold_server_wide(keys) == keys
    json_file = [meta(0, "a", source=None), meta(1, "b", source=None)]  # in each tool's own text
    assert fold_server_wide(json_file) == json_file


def test_a_capture_of_such_a_server_keeps_one_finding_per_tool(tmp_path):
    tools = [{"name": n, "description": "D.", "inputSchema": {"type": "object", "properties": {}},
              "_meta": {"_fastmcp": {"tags": []}}} for n in ("a", "b")]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}, indent=2))
    result = lint_paths([str(tmp_path / "tools.json")], Config(select=("MCP126",)))
    lines = [i for i, t in enumerate((tmp_path / "tools.json").read_text().splitlines(), 1) if '"_fastmcp"' in t]
    assert len(lines) == 2 and [(f.tool, f.line) for f in result.findings] == [("a", lines[0]), ("b", lines[1])]


@pytest.mark.slow
def test_a_zero_argument_function_tool_is_not_told_to_close_what_its_sdk_writes(tmp_path):
    """MCP125 (no parameters, no `additionalProperties: false`) on a function's own arguments: the
    SDK writes that object and nothing in the code can close it, so the finding is left out; the
    same schema in a JSON file (or on a model of the author's) still gets it."""
    import pytest

    pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
    server = tmp_path / "server.py"
    server.write_text('from mcp.server.mcpserver import MCPServer\n\napp = MCPServer("demo")\n\n\n'
                      '@app.tool()\ndef ping() -> str:\n    """Ping."""\n    return "pong"\n')
    code = lint_paths([str(server)], Config(select=("MCP125",)))
    assert not code.errors and code.tools == 1 and code.findings == []
    (tool,) = code.documents[0].data
    assert tool["inputSchema"].get("properties") == {} and "additionalProperties" not in tool["inputSchema"]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}))
    assert [f.rule for f in lint_paths([str(tmp_path / "tools.json")], Config(select=("MCP125",))).findings] == ["MCP125"]
    function = CodeLocation("server.py", 7, 1, "function ping")
    kept = [meta(0, "a", source=function, rule="DEC001"), meta(0, "a", source=CodeLocation("m.py", 1, 1, "class M"),
                                                               rule="MCP125")]
    assert actionable_in_code([meta(0, "a", source=function, rule="MCP125"), *kept]) == kept
