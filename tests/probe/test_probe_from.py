"""``mcplint probe --from CONFIG``: every server in a client's MCP configuration, started with
its own command, args and env (or called at its URL with its headers), each reported under
its name; one that cannot be started or is misconfigured is an error for it alone."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from conftest import STDIO

PY = sys.executable


def run(*args, env=None):
    return CliRunner(env=env).invoke(main, ["probe", "--no-config", "--format", "json", *args],
                                     catch_exceptions=False)


def servers(r) -> dict:
    return {s["name"]: s for s in json.loads(r.stdout)["summary"]["servers"]}


def files(r) -> set:
    return {f["file"] for f in json.loads(r.stdout)["findings"]}


def test_claude_code_file_every_server_side_by_side(tmp_path, tag):
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "per-version": {"command": PY, "args": [STDIO, "--only-in", "${ONLY_IN:-2025-06-18}", "--tag", tag]},
        "missing": {"command": str(tmp_path / "no-such-server")},
        "needs-var": {"command": PY, "args": ["${MCPLINT_TEST_UNSET_VAR}"]},
        "env": {"command": PY, "args": [STDIO, "--tag", tag, "--only-in", "${env:WHICH}"], "env": {"X": "${WHICH}"}},
    }}, indent=2))
    r = run("--select", "PRB", "--from", str(cfg), env={"WHICH": "2025-03-26", "MCPLINT_TEST_UNSET_VAR": None})
    assert r.exit_code == 2  # the worst of all: two servers could not be probed
    got = servers(r)
    assert list(got) == ["per-version", "missing", "needs-var", "env"]
    assert got["per-version"]["status"] == "probed" and got["per-version"]["warnings"] == 1
    assert got["env"]["status"] == "probed" and got["env"]["warnings"] == 1
    assert all(s["client"] == "claude-code" and s["profiles"] == ["claude-code"] for s in got.values())
    assert "command not found" in got["missing"]["error"] and "server 'missing'" in got["missing"]["error"]
    # a server that cannot be started is located at its command in the file
    line = next(i for i, t in enumerate(cfg.read_text().splitlines(), 1) if "no-such-server" in t)
    assert got["missing"]["error"].startswith(f"{cfg}:{line}:")
    # a missing ${VAR} is located in the file
    line = next(i for i, t in enumerate(cfg.read_text().splitlines(), 1) if "MCPLINT_TEST_UNSET_VAR" in t)
    assert got["needs-var"]["error"].startswith(f"{cfg}:{line}:") and "MCPLINT_TEST_UNSET_VAR is not set" in \
        got["needs-var"]["error"]
    # each finding names its server; the defaults and ${env:...} reached the servers
    found = {(f["file"], f["protocol_version"]) for f in json.loads(r.stdout)["findings"]}
    assert found == {("<probe per-version>", "2025-06-18"), ("<probe env>", "2025-03-26")}

    r = run("--select", "PRB", "--from", str(cfg), "--server", "env", env={"WHICH": "2025-03-26"})
    assert r.exit_code == 0 and list(servers(r)) == ["env"]
    r = run("--from", str(cfg), "--server", "nope")
    assert r.exit_code == 2 and "no server named 'nope'" in r.output and "per-version, missing" in r.output


def test_claude_desktop_and_profile_override(tmp_path, tag):
    cfg = tmp_path / "claude_desktop_config.json"
    cfg.write_text(json.dumps({"mcpServers": {"s": {"command": PY, "args": [STDIO, "--tag", tag]}}}))
    r = run("--select", "PRB", "--from", str(cfg))
    assert r.exit_code == 0 and servers(r)["s"]["client"] == "claude-desktop"
    assert servers(r)["s"]["profiles"] == ["claude-desktop"]
    r = run("--select", "PRB", "--profile", "openai-strict", "--from", str(cfg))
    assert servers(r)["s"]["profiles"] == ["openai-strict"]


def test_vscode_file_with_comments_workspace_folder_and_http(tmp_path, tag, http_server):  # noqa: F811
    url = http_server("--modern")
    (tmp_path / "srv.py").write_text(open(STDIO).read())
    (tmp_path / ".vscode").mkdir()
    cfg = tmp_path / ".vscode" / "mcp.json"
    cfg.write_text('{\n  // servers of this workspace\n  "servers": {\n'
                   f'    "local": {{"type": "stdio", "command": {json.dumps(PY)}, '
                   '"args": ["${workspaceFolder}/srv.py", "--tag", "' + tag + '"],},\n'
                   f'    "remote": {{"type": "http", "url": "{url}", "headers": {{"X-Token": "${{env:TOKEN}}"}}}},\n'
                   '    "asks": {"type": "stdio", "command": "${input:cmd}"}\n  },\n}\n')
    r = run("--select", "PRB", "--allow-env", "TOKEN", "--from", str(cfg), env={"TOKEN": "t0ken"})
    got = servers(r)
    assert got["local"]["status"] == "probed" and got["local"]["transport"] == "stdio"
    assert got["remote"]["status"] == "probed" and got["remote"]["transport"] == "http"
    assert "VS Code input prompt" in got["asks"]["error"]
    assert {s["profiles"][0] for s in got.values()} == {"vscode-copilot"}
    # `scan` says what the file is, and where to go
    r = CliRunner().invoke(main, ["scan", "--no-config", str(tmp_path / ".vscode" / "mcp.json")])
    assert r.exit_code == 0, r.output  # JSON with comments; its input prompt is information
    assert "VS Code MCP configuration, checked by the CFG rules" in r.stderr and "probe --from" in r.stderr


def test_cursor_gemini_and_codex_files(tmp_path, tag):
    from mcplint.profiles import check_names

    (tmp_path / ".cursor").mkdir()
    cursor = tmp_path / ".cursor" / "mcp.json"
    cursor.write_text(json.dumps({"mcpServers": {"c": {"command": PY, "args": [STDIO, "--tag", tag]}}}))
    r = run("--select", "PRB", "--from", str(cursor))
    assert r.exit_code == 0 and servers(r)["c"]["client"] == "cursor"
    if check_names(["cursor"]) is None:
        assert servers(r)["c"]["profiles"] == ["cursor"]
    else:  # the profile is not part of this mcplint: said, and linted without one
        assert servers(r)["c"]["profiles"] == [] and "profile 'cursor' is not available" in r.stderr

    (tmp_path / ".gemini").mkdir()
    gemini = tmp_path / ".gemini" / "settings.json"
    gemini.write_text(json.dumps({"theme": "x", "mcpServers": {"g": {"command": PY, "args": [STDIO, "--tag", tag]}}}))
    r = run("--select", "PRB", "--from", str(gemini))
    assert r.exit_code == 0 and servers(r)["g"]["client"] == "gemini-cli"
    assert servers(r)["g"]["profiles"] == ["gemini-cli"]

    pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")
    (tmp_path / ".codex").mkdir()
    codex = tmp_path / ".codex" / "config.toml"
    codex.write_text(f'model = "x"\n\n[mcp_servers.k]\ncommand = {json.dumps(PY)}\n'
                     f'args = [{json.dumps(str(STDIO))}, "--tag", "{tag}"]\nenv = {{ "A" = "1" }}\n\n'
                     '[mcp_servers.off]\ncommand = "/no/such/server"\nenabled = false\n')
    r = run("--select", "PRB", "--from", str(codex))
    assert r.exit_code == 0 and servers(r)["k"]["client"] == "codex"
    assert list(servers(r)) == ["k"]  # enabled = false: left out, as Codex leaves it out
    assert files(r) == set()  # a clean server
    r = run("--from", str(codex), "--save", "x.json")
    assert r.exit_code == 2 and "one capture per server" in r.output and "{server}" in r.output


def test_scan_of_client_configs_says_what_they_are_and_lints_a_registry_manifest(tmp_path):
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"a": {"command": "x"}, "b": {"url": "http://h/mcp"}}}))
    manifest = tmp_path / "server.json"
    manifest.write_text(json.dumps({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": "io.github.example/weather", "description": "Weather", "version": "1.0.0",
        "packages": [{"registryType": "npm", "identifier": "@example/weather", "version": "1.0.0"}]}))
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}))
    r = CliRunner().invoke(main, ["scan", "--no-config", str(cfg), str(manifest), str(tools)])
    assert r.exit_code == 1, r.output  # findings; no file refused
    # the configuration is linted as one (its remote server has no "type"), and points at probe --from
    assert f"{cfg} is a Claude Code MCP configuration, checked by the CFG rules" in r.stderr
    assert f"`mcplint probe --from {cfg}`" in r.stderr
    # the manifest is linted by the REG rules (its package has no transport), not as a Tool
    manifest_part = r.stdout.split(str(tools))[0]
    assert "REG006 server-transport" in manifest_part and " MCP" not in manifest_part
    assert "CFG001" in r.stdout and "/mcpServers/b/url" in r.stdout
    assert "3 files, 1 tool" in r.stdout  # and the real tools file was still linted


def test_gemini_bare_and_braced_vars_and_cwd(tmp_path, tag):
    """Gemini CLI expands $VAR and ${VAR} in every string of settings.json; a server's cwd is
    where it starts (here the script is named relative to it); a missing variable or a cwd
    that is not a directory is an error for that server only."""
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "server.py").write_text(open(STDIO).read())
    (tmp_path / ".gemini").mkdir()
    cfg = tmp_path / ".gemini" / "settings.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "bare": {"command": "$PYBIN", "args": ["server.py", "--tag", tag, "--only-in", "$WHICH"], "cwd": "srv"},
        "braced": {"command": PY, "args": ["server.py", "--tag", tag, "--only-in", "${WHICH}"],
                   "cwd": "${SRVDIR}"},
        "no-cwd": {"command": PY, "args": ["server.py"]},  # started in mcplint's directory: not found
        "missing": {"command": PY, "args": [STDIO, "--only-in", "$MCPLINT_TEST_UNSET_VAR"]},
        "bad-cwd": {"command": PY, "args": ["server.py"], "cwd": "nowhere"},
    }}, indent=2))
    r = run("--select", "PRB", "--from", str(cfg),
            env={"PYBIN": PY, "WHICH": "2025-03-26", "SRVDIR": str(tmp_path / "srv"), "MCPLINT_TEST_UNSET_VAR": None})
    assert r.exit_code == 2
    got = servers(r)
    assert got["bare"]["status"] == "probed" and got["bare"]["warnings"] == 1  # beta only under $WHICH
    assert got["braced"]["status"] == "probed" and got["braced"]["warnings"] == 1
    assert got["no-cwd"]["status"] == "error"
    lines = cfg.read_text().splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "MCPLINT_TEST_UNSET_VAR" in t)
    assert got["missing"]["error"].startswith(f"{cfg}:{line}:")
    assert "MCPLINT_TEST_UNSET_VAR is not set" in got["missing"]["error"] and "Gemini CLI" in got["missing"]["error"]
    line = next(i for i, t in enumerate(lines, 1) if '"nowhere"' in t)
    assert got["bad-cwd"]["error"].startswith(f"{cfg}:{line}:") and "not a directory" in got["bad-cwd"]["error"]
    # the two list the same tools: one finding naming both (each server's own count says it got its variables)
    found = {(f["file"], f["protocol_version"], tuple(f["servers"])) for f in json.loads(r.stdout)["findings"]}
    assert found == {("<probe bare>", "2025-03-26", ("bare", "braced"))}


def test_other_clients_keep_their_own_syntax_and_honour_cwd(tmp_path, tag):
    """$VAR is Gemini CLI's: a Claude Code file passes it on as written (and ${VAR} expands);
    Codex and VS Code start a server in its cwd."""
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "server.py").write_text(open(STDIO).read())
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"s": {"command": PY, "args": [STDIO, "--tag", tag, "--only-in", "$X"]}}}))
    r = run("--select", "PRB", "--from", str(cfg), env={"X": "2025-03-26"})
    assert r.exit_code == 0 and servers(r)["s"]["status"] == "probed"
    assert not json.loads(r.stdout)["findings"]  # '$X' is no version: no extra tool anywhere

    (tmp_path / ".vscode").mkdir()
    vs = tmp_path / ".vscode" / "mcp.json"
    vs.write_text(json.dumps({"servers": {"v": {"type": "stdio", "command": PY, "cwd": "${workspaceFolder}/srv",
                                                "args": ["server.py", "--tag", tag]}}}))
    r = run("--select", "PRB", "--from", str(vs))
    assert r.exit_code == 0 and servers(r)["v"]["status"] == "probed"

    pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")
    (tmp_path / ".codex").mkdir()
    codex = tmp_path / ".codex" / "config.toml"
    codex.write_text(f'[mcp_servers.k]\ncommand = {json.dumps(PY)}\nargs = ["server.py", "--tag", "{tag}"]\n'
                     f'cwd = {json.dumps(str(tmp_path / "srv"))}\n')
    r = run("--select", "PRB", "--from", str(codex))
    assert r.exit_code == 0 and servers(r)["k"]["status"] == "probed"


def test_windsurf_file_servers_and_a_disabled_one(tmp_path, tag, http_server):  # noqa: F811
    url = http_server("--modern")
    (tmp_path / ".codeium" / "windsurf").mkdir(parents=True)
    cfg = tmp_path / ".codeium" / "windsurf" / "mcp_config.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "local": {"command": PY, "args": [STDIO, "--tag", tag]},
        "remote": {"serverUrl": url, "headers": {"X-Token": "${env:TOKEN}"}},
        "off": {"command": "/no/such/server", "disabled": True}}}))
    r = run("--select", "PRB", "--allow-env", "TOKEN", "--from", str(cfg), env={"TOKEN": "t0ken"})
    got = servers(r)
    assert r.exit_code == 0 and set(got) == {"local", "remote"}  # "disabled": true: left out, as Windsurf does
    assert {s["client"] for s in got.values()} == {"windsurf"}
    assert got["remote"]["status"] == "probed" and got["remote"]["transport"] == "http"
    assert {s["profiles"][0] for s in got.values()} == {"windsurf"}
    # `scan` says what the file is
    r = CliRunner().invoke(main, ["scan", "--no-config", str(cfg)])
    assert r.exit_code == 0 and "is a Windsurf MCP configuration, checked by the CFG rules" in r.stderr


def test_windsurf_disabled_tools_are_not_linted_and_the_capture_keeps_them(tmp_path, tag):
    cfg = tmp_path / "mcp_config.json"
    entry = {"command": PY, "args": [STDIO, "--tag", tag]}
    cfg.write_text(json.dumps({"mcpServers": {"s": entry}}))
    every = run("--from", str(cfg))
    assert servers(every)["s"]["tools"] == 2 and any(
        f["tool"] == "delete_all" for f in json.loads(every.stdout)["findings"])
    cfg.write_text(json.dumps({"mcpServers": {"s": {**entry, "disabledTools": ["delete_all", "not_served"]}}}))
    save = tmp_path / "s.capture.json"
    r = run("--from", str(cfg), "--save", str(tmp_path / "{server}.capture.json"))
    assert r.exit_code in (0, 1) and servers(r)["s"]["tools"] == 1
    assert not any(f["tool"] == "delete_all" for f in json.loads(r.stdout)["findings"])
    assert "1 tool switched off in the configuration (disabledTools) not linted: delete_all" in r.stderr
    # the capture keeps them, so a later scan agrees
    assert json.loads(save.read_text())["disabledTools"] == ["delete_all", "not_served"]
    again = CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", "--profile", "windsurf", str(save)])
    assert json.loads(again.stdout)["findings"] == json.loads(r.stdout)["findings"]
    # a disabledTools that is not a list of names is an error for that server, located in the file
    cfg.write_text(json.dumps({"mcpServers": {"s": {**entry, "disabledTools": "delete_all"}}}, indent=1))
    r = run("--from", str(cfg))
    assert r.exit_code == 2 and '"disabledTools" must be an array of tool names' in servers(r)["s"]["error"]


def test_a_capture_whose_disabled_tools_are_not_names_is_a_located_error(tmp_path):
    cap = tmp_path / "c.json"
    cap.write_text('{\n  "mcplintCapture": 1,\n  "server": "x",\n  "disabledTools": [1],\n  "captures": []\n}\n')
    r = CliRunner().invoke(main, ["scan", "--no-config", str(cap)])
    assert r.exit_code == 2 and f"{cap}:4:" in r.stderr and '"disabledTools" must be an array' in r.stderr


def test_windsurf_cap_counts_only_the_tools_left_enabled(tmp_path, tag):
    # 2 + 99 tools: one past Windsurf's 100 enabled tools, unless the configuration switches one off
    cfg = tmp_path / "mcp_config.json"
    entry = {"command": PY, "args": [STDIO, "--tag", tag, "--many", "99", "--legacy", "2025-06-18"]}
    cfg.write_text(json.dumps({"mcpServers": {"s": entry}}))
    cap = [f for f in json.loads(run("--select", "DEC", "--from", str(cfg)).stdout)["findings"]
           if f["profile"] == "windsurf" and "enables at most 100 MCP tools" in f["message"]]
    assert len(cap) == 1 and "this server alone has 101" in cap[0]["message"]
    cfg.write_text(json.dumps({"mcpServers": {"s": {**entry, "disabledTools": ["delete_all"]}}}))
    r = run("--select", "DEC", "--from", str(cfg))
    assert servers(r)["s"]["tools"] == 100
    assert not [f for f in json.loads(r.stdout)["findings"] if "enables at most 100 MCP tools" in f["message"]]


def test_gemini_cli_include_and_exclude_tools_as_its_is_enabled_reads_them(tmp_path, tag):
    (tmp_path / ".gemini").mkdir()
    cfg = tmp_path / ".gemini" / "settings.json"
    entry = {"command": PY, "args": [STDIO, "--tag", tag]}

    def linted(**filters):
        cfg.write_text(json.dumps({"mcpServers": {"g": {**entry, **filters}}}))
        r = run("--from", str(cfg))
        assert r.exit_code in (0, 1), r.output
        return servers(r)["g"]["tools"], {f["tool"] for f in json.loads(r.stdout)["findings"]}, r.stderr

    assert linted()[0] == 2
    n, tools, notes = linted(includeTools=["search"])
    assert n == 1 and "delete_all" not in tools
    assert "1 tool switched off in the configuration (includeTools) not linted: delete_all" in notes
    assert linted(includeTools=["delete_all(confirm)"])[0] == 1  # a name with a parenthesis names the tool
    assert linted(includeTools=["delete"])[0] == 0  # a prefix alone does not
    # excludeTools wins over includeTools
    n, tools, notes = linted(includeTools=["search", "delete_all"], excludeTools=["delete_all"])
    assert n == 1 and "delete_all" not in tools and "(excludeTools/includeTools)" in notes
    cfg.write_text(json.dumps({"mcpServers": {"g": {**entry, "excludeTools": [1]}}}))
    r = run("--from", str(cfg))
    assert r.exit_code == 2 and '"excludeTools" must be an array of tool names' in servers(r)["g"]["error"]


def test_codex_enabled_and_disabled_tools_as_its_tool_filter_reads_them(tmp_path, tag):
    pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")
    (tmp_path / ".codex").mkdir()
    cfg = tmp_path / ".codex" / "config.toml"
    head = f'[mcp_servers.k]\ncommand = {json.dumps(PY)}\nargs = [{json.dumps(str(STDIO))}, "--tag", "{tag}"]\n'

    def linted(extra=""):
        cfg.write_text(head + extra)
        r = run("--from", str(cfg))
        assert r.exit_code in (0, 1), r.output
        return servers(r)["k"]["tools"], {f["tool"] for f in json.loads(r.stdout)["findings"]}, r.stderr

    assert linted()[0] == 2
    n, tools, notes = linted('enabled_tools = ["search"]\n')
    assert n == 1 and "delete_all" not in tools
    assert "1 tool switched off in the configuration (enabled_tools) not linted: delete_all" in notes
    assert linted('enabled_tools = ["delete_all(confirm)"]\n')[0] == 0  # exact names only (unlike Gemini CLI)
    n, tools, notes = linted('enabled_tools = ["search", "delete_all"]\ndisabled_tools = ["delete_all"]\n')
    assert n == 1 and "delete_all" not in tools and "(disabled_tools/enabled_tools)" in notes
