"""MCP126's fixes: a key that fastmcp 2.x writes by itself gets fastmcp's own switch, wherever the
tool list comes from (a capture, a probe, the server's source); any other bad key the grammar."""

from __future__ import annotations

import json

from mcplint.config import Config
from mcplint.engine import lint_paths


def test_fastmcp_key_gets_the_fastmcp_switch_and_other_keys_the_grammar(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [
        {"name": "a", "inputSchema": {"type": "object"}, "_meta": {"_fastmcp": {"tags": []}, "x_": 1}}]}))
    got = {f.pointer[-1]: f.fix.title for f in lint_paths([str(path)], Config(select=("MCP126",))).findings}
    assert got["_fastmcp"].startswith("Pass `include_fastmcp_meta=False` to `FastMCP(...)`")
    assert got["x_"] == "Use an optional dotted prefix ending in / and a name that starts and ends with a letter or digit"
