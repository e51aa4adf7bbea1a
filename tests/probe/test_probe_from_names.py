"""``probe --from`` on a configuration whose table fits a client but whose file name is not the
one that client reads: it is read by its shape, and a note names ``--client``. No server is
started (each names a command that does not exist: an error for it alone)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mcplint.cli import main

MISSING = {"command": "/nonexistent/mcplint-test-server"}


def run(cfg, *args):
    return CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", *args, "--from", str(cfg)],
                              catch_exceptions=False)


def notes(r) -> list[str]:
    return [line for line in r.stderr.splitlines() if line.startswith("mcplint probe: note:")]


@pytest.mark.parametrize("path, table, client, extra", [
    ("vscode-servers.json", "servers", "vscode", None),  # before: "expected ... \"servers\"", which it has
    ("cursor-mcp.json", "mcpServers", "claude-code", "--client claude-desktop | cursor | gemini-cli | windsurf"),
    ("mcp.json", "mcpServers", "claude-code", "--client claude-desktop | cursor | gemini-cli | windsurf"),
])
def test_a_file_of_another_name_is_read_by_its_shape_and_names_client(tmp_path, path, table, client, extra):
    cfg = tmp_path / path
    cfg.write_text(json.dumps({table: {"one": MISSING}}))
    r = run(cfg)
    assert r.exit_code == 2  # the server cannot start: the configuration itself was read
    assert "command not found" in r.stderr and "not an MCP client configuration" not in r.stderr
    (note,) = notes(r)
    assert json.loads(r.stdout)["summary"]["servers"][0]["client"] == client
    assert f'whose "{table}" table it has (--client {client} says so' in note
    assert (extra in note) if extra else ("keep the same table" not in note)
    # saying which client it is silences the note
    assert notes(run(cfg, "--client", client)) == []


@pytest.mark.parametrize("folder, name, table", [
    (".vscode", "mcp.json", "servers"), (".cursor", "mcp.json", "mcpServers"), ("", ".mcp.json", "mcpServers"),
    ("", "claude_desktop_config.json", "mcpServers"), (".gemini", "settings.json", "mcpServers"),
    ("", "mcp_config.json", "mcpServers"),
])
def test_a_file_named_as_its_client_names_it_gets_no_note(tmp_path, folder, name, table):
    (tmp_path / folder).mkdir(exist_ok=True)
    cfg = tmp_path / folder / name
    cfg.write_text(json.dumps({table: {"one": MISSING}}))
    r = run(cfg)
    assert r.exit_code == 2 and notes(r) == [], r.stderr


def test_a_file_of_no_client_still_says_what_was_expected(tmp_path):
    cfg = tmp_path / "tools.json"
    cfg.write_text(json.dumps({"tools": []}))
    r = run(cfg)
    assert r.exit_code == 2 and "not an MCP client configuration" in r.stderr and notes(r) == []


def test_a_codex_table_in_a_toml_file_of_another_name(tmp_path):
    pytest.importorskip("tomllib")
    cfg = tmp_path / "codex-servers.toml"
    cfg.write_text('[mcp_servers.one]\ncommand = "/nonexistent/mcplint-test-server"\n')
    r = run(cfg)
    (note,) = notes(r)
    assert r.exit_code == 2 and "whose [mcp_servers] table it has (--client codex says so" in note
    assert notes(run(cfg, "--client", "codex")) == []
