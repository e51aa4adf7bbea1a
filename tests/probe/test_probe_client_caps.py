"""Caps over a whole client: ``probe --from`` counts the tools of every server of the
configuration against a limit on one request (Cursor's 80 MCP tools over all enabled servers,
Windsurf's 100), since the client sends them all together; each server alone stays under it."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from mcplint import precommit
from mcplint.cli import main
from conftest import STDIO

PY = sys.executable


def run(cfg, *args):
    # one protocol version: one process per server
    return CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", "--protocol-version", "2025-11-25",
                                     *args, "--from", str(cfg)], catch_exceptions=False)


def server(n: int, tag: str, **more) -> dict:
    """A test server that lists n tools (2 of its own and n - 2 more)."""
    return {"command": PY, "args": [STDIO, "--many", str(n - 2), "--tag", tag], **more}


def caps(r) -> list[dict]:
    return [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "DEC009"]


def test_cursor_counts_every_server_against_its_80_tools(tmp_path, tag, capsys, monkeypatch):
    cfg = tmp_path / ".cursor" / "mcp.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps({"mcpServers": {name: server(17, tag) for name in "abcde"}}))
    r = run(cfg)
    assert r.exit_code == 1, r.output
    (f,) = caps(r)
    assert f["profile"] == "cursor" and f["severity"] == "error" and f["file"] == "<probe e>"
    assert f["pointer"] == "/captures/0/result/tools"
    msg = f["message"]
    assert f"the 5 servers of {cfg} list 85 tools together ('a' 17, 'b' 17, 'c' 17, 'd' 17, 'e' 17)" in msg
    assert "Cursor takes at most 80 tools over all of them" in msg
    # the servers are counted in the file's order: the last 5 tools of the last server fall past the cap
    assert "the 5 past the cap are the last 5 of the 17 of 'e' (t_10, t_11, t_12 and 2 more)" in msg
    assert json.loads(r.stdout)["summary"]["tools"] == 85
    # the pre-commit hook, which scans the captures it saved, reports it too (on the saved capture)
    monkeypatch.chdir(tmp_path)
    code = precommit.main(["--no-config", "--format", "json", "--protocol-version", "2025-11-25", "--from", str(cfg)])
    (g,) = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["rule"] == "DEC009"]
    assert code == 1 and g["message"] == msg and g["file"] == "mcp-tools/e.json"

    # a server that could not be probed: the count is of those that were, and says so
    cfg.write_text(json.dumps({"mcpServers": {**{name: server(17, tag) for name in "abcde"},
                                              "gone": {"command": str(tmp_path / "no-such-server")}}}))
    r = run(cfg)
    (f,) = caps(r)
    assert r.exit_code == 2 and f"the 5 servers of {cfg} probed (of the 6 it lists;" in f["message"]

    # the near miss: 80 tools in all reach the model
    cfg.write_text(json.dumps({"mcpServers": {name: server(16, tag) for name in "abcde"}}))
    r = run(cfg)
    assert r.exit_code == 0 and caps(r) == [], r.output


def test_windsurf_counts_what_it_enables(tmp_path, tag):
    """Windsurf's cap is 100 enabled tools: the tools a server's disabledTools names do not count."""
    cfg = tmp_path / "mcp_config.json"
    servers = {"big": server(60, tag), "small": server(42, tag)}
    cfg.write_text(json.dumps({"mcpServers": servers}))
    (f,) = caps(run(cfg))
    assert "the 2 servers of" in f["message"] and "list 102 tools together ('big' 60, 'small' 42)" in f["message"]
    assert "the 2 past the cap are the last 2 of the 42 of 'small'" in f["message"]
    servers["small"]["disabledTools"] = ["t_1", "t_2", "t_3"]
    cfg.write_text(json.dumps({"mcpServers": servers}))
    r = run(cfg)
    assert caps(r) == [], r.output


def test_limits_summed_over_every_schema_count_every_server(tmp_path, tag):
    """Anthropic strict: at most 20 strict tools and 24 optional parameters in one request. Two
    servers of 15 tools, 13 of them with one optional parameter each: each alone is under both
    limits, together over both."""
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"a": server(15, tag), "b": server(15, tag)}}))
    found = {f["message"].split(": the 2 servers", 1)[1].split(" together")[0]: f
             for f in caps(run(cfg, "--profile", "anthropic-strict"))}
    assert set(found) == {" of " + str(cfg) + " list 30 tools", " of " + str(cfg) + " have 26 optional parameters"}
    opt = found[" of " + str(cfg) + " have 26 optional parameters"]
    assert "('a' 13, 'b' 13), and Anthropic strict takes at most 24 in one request" in opt["message"]
    assert opt["file"] == "<probe b>" and opt["profile"] == "anthropic-strict"
    # the near miss: 22 optional parameters (the 26 tools are still over 20 strict ones)
    cfg.write_text(json.dumps({"mcpServers": {"a": server(13, tag), "b": server(13, tag)}}))
    assert [f["message"].split(" together")[0][-13:] for f in caps(run(cfg, "--profile", "anthropic-strict"))] == [
        "list 26 tools"]


def test_vscode_warns_above_128_tools_over_its_servers(tmp_path, tag):
    (tmp_path / ".vscode").mkdir()
    cfg = tmp_path / ".vscode" / "mcp.json"
    cfg.write_text(json.dumps({"servers": {"a": server(65, tag), "b": server(65, tag)}}))
    r = run(cfg)
    (f,) = caps(r)
    assert r.exit_code == 0 and f["severity"] == "warning" and f["profile"] == "vscode-copilot"
    assert "VS Code Copilot warns above 128 tools over all of them" in f["message"]
    assert "the 2 past the cap are the last 2 of the 65 of 'b' (t_61, t_62)" in f["message"]
