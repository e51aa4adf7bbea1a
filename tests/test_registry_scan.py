"""MCP Registry server.json manifests in a repository scan: found in a directory walk beside
the tool definitions, linted by the REG rules with locations, and their $schema fixed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mcplint.cli import main

SCHEMA = "https://static.modelcontextprotocol.io/schemas/{}/server.schema.json"


def _manifest(date: str = "2025-12-11", **members) -> str:
    data = {"$schema": SCHEMA.format(date), "name": "io.github.example/weather", "description": "Weather",
            "version": "1.0.0", "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}]}
    data.update(members)
    return json.dumps(data, indent=2) + "\n"


def _scan(*args):
    return CliRunner().invoke(main, ["scan", "--no-config", *args], catch_exceptions=False)


def test_a_directory_scan_lints_every_server_json_beside_the_tools(tmp_path):
    (tmp_path / "server.json").write_text(_manifest(name="weather", version="latest"))
    (tmp_path / "servers" / "extra").mkdir(parents=True)
    (tmp_path / "servers" / "extra" / "server.json").write_text(_manifest())  # a clean one
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}))
    r = _scan(str(tmp_path), "--format", "json")
    assert r.exit_code == 1
    found = json.loads(r.stdout)["findings"]
    reg = {(f["rule"], f["pointer"], f["line"]) for f in found if f["rule"].startswith("REG")}
    assert reg == {("REG003", "/name", 3), ("REG005", "/version", 5)}
    assert all(f["file"].endswith("/server.json") and "extra" not in f["file"] for f in found
               if f["rule"].startswith("REG"))
    assert all(f["protocol_version"] is None for f in found if f["rule"].startswith("REG"))
    assert json.loads(r.stdout)["summary"]["files"] == 3


def test_a_clean_manifest_passes_and_select_ignore_apply(tmp_path):
    path = tmp_path / "server.json"
    path.write_text(_manifest())
    assert _scan(str(path)).exit_code == 0
    path.write_text(_manifest(version="^1.0.0"))
    assert _scan(str(path)).exit_code == 1
    assert _scan(str(path), "--ignore", "REG005").exit_code == 0


def test_fix_moves_a_deprecated_schema_to_the_current_one_only_where_safe(tmp_path):
    recent, old = tmp_path / "a" / "server.json", tmp_path / "b" / "server.json"
    recent.parent.mkdir()
    old.parent.mkdir()
    recent.write_text(_manifest("2025-10-17"))
    old.write_text(_manifest("2025-07-09"))
    _scan(str(recent), str(old), "--fix")
    assert json.loads(recent.read_text())["$schema"] == SCHEMA.format("2025-12-11")
    assert json.loads(old.read_text())["$schema"] == SCHEMA.format("2025-07-09")  # renamed members since
    _scan(str(old), "--fix", "--unsafe-fixes")
    assert json.loads(old.read_text())["$schema"] == SCHEMA.format("2025-12-11")
    assert _scan(str(recent), str(old)).exit_code == 0
