"""MCP client configurations in `mcplint scan`: found where clients keep them, linted by the
CFG rules, their secrets never printed, their missing `type` fixed by --fix."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mcplint.cli import main

TOKEN = "ghp_Zq81vLx0Tm4Rw7Ke2Nc5Yb9Ud3Hs6Jf1PaQ"


def _repo(tmp_path):
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "docs": {"url": "https://mcp.example.com/mcp"},
        "gh": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": TOKEN}},
    }}, indent=2))
    for d, name, data in ((".vscode", "mcp.json", '{\n  // comments are allowed here\n  "servers": {"db": '
                           '{"type": "stdio", "command": "db-mcp", "url": "https://db.example.com/mcp"},}\n}\n'),
                          (".vscode", "settings.json", '{"editor.tabSize": 2}'),
                          (".cursor", "mcp.json", json.dumps({"mcpServers": {"c": {"url": "https://c.example/mcp"}}})),
                          (".gemini", "settings.json", json.dumps({"theme": "dark"})),
                          (".git", "x.json", "{}")):
        (tmp_path / d).mkdir(exist_ok=True)
        (tmp_path / d / name).write_text(data)
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [{"name": "a", "description": "A.",
                                                                "inputSchema": {"type": "object"}}]}))
    return tmp_path


def test_scan_of_a_repository_finds_each_configuration_where_its_client_keeps_it(tmp_path):
    root = _repo(tmp_path)
    r = CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", str(root)])
    assert r.exit_code == 1, r.output
    found = {(f["rule"], f["pointer"]) for f in json.loads(r.stdout)["findings"] if f["rule"].startswith("CFG")}
    assert found == {("CFG001", "/mcpServers/docs/url"), ("CFG004", "/mcpServers/gh/env/GITHUB_TOKEN"),
                     ("CFG005", "/mcpServers/gh/args/1"), ("CFG002", "/servers/db/url")}
    # .vscode/settings.json, .git/ are not read; .gemini/settings.json without servers is checked and clean
    assert "settings.json: " not in r.stderr and "x.json" not in r.output
    assert "probe --from" in r.stderr


def test_a_configuration_done_right_is_clean(tmp_path):
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "docs": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOK}"}},
        "gh": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
               "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}}}))
    r = CliRunner().invoke(main, ["scan", "--no-config", str(tmp_path)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "markdown", "concise"])
def test_a_pasted_secret_is_never_printed(tmp_path, fmt):
    root = _repo(tmp_path)
    r = CliRunner().invoke(main, ["scan", "--no-config", "--verbose", "--format", fmt, str(root / ".mcp.json")])
    assert r.exit_code == 1 and "CFG004" in r.output
    assert TOKEN not in r.output and TOKEN[4:12] not in r.output


def test_a_pasted_secret_is_never_printed_in_a_diff(tmp_path):
    # --diff prints the lines around a fix: here the token's and the URL's key are among them
    (tmp_path / ".mcp.json").write_text(
        '{"mcpServers": {\n  "docs": {"url": "https://mcp.example.com/mcp?api_key=' + TOKEN + '"},\n'
        '  "gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "' + TOKEN + '"}}\n}}\n')
    r = CliRunner().invoke(main, ["scan", "--no-config", "--diff", str(tmp_path / ".mcp.json")])
    assert r.exit_code == 1 and '"type": "http"' in r.output, r.output
    assert '"GITHUB_TOKEN": "********"' in r.output and "api_key=********" in r.output
    assert TOKEN not in r.output and TOKEN[4:12] not in r.output


def test_fix_adds_the_missing_type(tmp_path):
    root = _repo(tmp_path)
    r = CliRunner().invoke(main, ["scan", "--no-config", "--fix", str(root / ".mcp.json")])
    data = json.loads((root / ".mcp.json").read_text())
    assert data["mcpServers"]["docs"] == {"url": "https://mcp.example.com/mcp", "type": "http"}
    assert "CFG001" not in r.stdout and "CFG004" in r.stdout


def test_a_configuration_gets_only_the_cfg_rules_and_docs_and_no_protocol_version():
    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.load import load_text

    text = '{"mcpServers": {"a": {"url": "https://a.example/mcp", "url": "https://b.example/mcp", "tools": 1}}}'
    coll, findings = lint_document(load_text(text, ".mcp.json"), Config())
    assert coll.shape == "client-config" and coll.client == "claude-code" and coll.tools == []
    assert {f.rule for f in findings} == {"DOC001", "CFG001", "CFG003"}
    assert all(f.versions == () for f in findings if f.rule.startswith("CFG"))


def test_codex_config_toml_is_found_linted_and_located(tmp_path):
    pytest.importorskip("tomllib")
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "config.toml").write_text(
        'model = "o3"\n\n[mcp_servers.docs]\nurl = "https://mcp.example.com/mcp"\n'
        f'headers = {{ "Authorization" = "Bearer {TOKEN}" }}\n\n'
        '[mcp_servers.gh]\ncommand = "npx"\nargs = [\n  "-y",\n  "@modelcontextprotocol/server-github",\n]\n\n'
        f'[mcp_servers.gh.env]\nGITHUB_TOKEN = "{TOKEN}"\n')
    (tmp_path / ".codex" / "other.toml").write_text("not = [toml")
    r = CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", str(tmp_path)])
    assert r.exit_code == 1, r.output
    found = {(f["rule"], f["pointer"], f["line"], f["column"]) for f in json.loads(r.stdout)["findings"]}
    assert found == {("CFG003", "/mcp_servers/docs/headers", 5, 1),
                     ("CFG004", "/mcp_servers/docs/headers/Authorization", 5, 13),
                     ("CFG005", "/mcp_servers/gh/args/1", 11, 3), ("CFG004", "/mcp_servers/gh/env/GITHUB_TOKEN", 15, 1)}
    text = CliRunner().invoke(main, ["scan", "--no-config", "--verbose", str(tmp_path)])
    assert TOKEN not in text.output and "Codex MCP configuration" in text.output
