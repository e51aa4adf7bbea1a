"""The tool-example rules (MCP3xx, :mod:`mcplint.rules.mcp_result.examples` and
:mod:`mcplint.rules.mcp_result.example_results`) on the official MCP examples: the official 2026-07-28
tools carrying their official results as named examples of an MCP Description document."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import lint_json

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "mcp-examples"
MDX = "Tool-from-tools-mdx"


def _load(rel: str):
    return json.loads((EXAMPLES / rel).read_text(encoding="utf-8"))


def test_official_examples_as_mcp_description_examples_lint_clean_but_for_the_mirror():
    """The MCP3xx rules (the engine of ``mcplint validate``) find nothing but the array
    example's missing mirror."""
    v = "2026-07-28"
    tools = []
    for tool_file, result_file, args in [
        ("Tool/tool-with-array-output-schema.json", "CallToolResult/result-with-array-structured-content.json", {}),
        ("Tool/with-output-schema-for-structured-content.json", "CallToolResult/result-with-structured-content.json",
         {"location": "New York"}),
        (f"{MDX}/get_weather.json", "CallToolResult/result-with-unstructured-text.json", {"location": "New York"}),
    ]:
        tool = _load(f"{v}/{tool_file}")
        tool["examples"] = {"official": {"input": args, "result": _load(f"{v}/{result_file}")}}
        tool["examples"]["error"] = {"input": args, "result": _load(f"{v}/CallToolResult/invalid-tool-input-error.json")}
        tools.append(tool)
    doc = {"mcpdesc": "0.9.0", "info": {"name": "official", "version": "1.0.0"}, "protocolVersions": [v],
           "tools": tools}
    findings = [f for f in lint_json(doc, select=["MCP3"])]
    assert [(f.rule, str(f.pointer)) for f in findings] == [("MCP305", "/tools/0/examples/official/result/content")]
