"""One `mcplint scan .` of a server's repository lints every MCP file in it: the registry
manifest, the client configurations teams commit (inside hidden folders too) and the tool
definitions, with the description rules on by default. The repository as it often is gets a
finding at each problem and exits 1; the same repository done right exits 0."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mcplint.cli import main

TOKEN = "ghp_Zq81vLx0Tm4Rw7Ke2Nc5Yb9Ud3Hs6Jf1PaQ"
LONG = ("Weather forecasts, current conditions, severe-weather alerts and historical observations for any city "
        "in the world, in metric units, hourly.")
SCHEMA = "https://static.modelcontextprotocol.io/schemas/{}/server.schema.json"

BAD = {
    "server.json": {"$schema": SCHEMA.format("2025-09-29"), "name": "weather", "description": LONG,
                    "version": "latest",
                    "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0"}]},
    ".mcp.json": {"mcpServers": {
        "docs": {"url": "https://mcp.example.com/mcp"},
        "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                   "env": {"GITHUB_TOKEN": TOKEN}}}},
    ".vscode/mcp.json": {"servers": {"db": {"type": "stdio", "command": "db-mcp", "url": "https://db.example.com/mcp"}}},
    "tools.json": {"tools": [
        {"name": "sync", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "search", "description": "Search the forecast archive by place and date range.",
         "inputSchema": {"type": "object", "properties": {
             "q": {"type": "string"},
             "tags": {"type": "array", "items": True, "description": "Labels to match"},
             "when": {"type": ["string", "number"], "description": "A date or a Unix time"},
             "place": {"$ref": "https://example.com/place.json"},
             "ids": {"type": "array", "items": {"description": "a station id"}, "description": "Station ids"}}}}]},
}

GOOD = {
    "server.json": {"$schema": SCHEMA.format("2025-12-11"), "name": "io.github.example/weather",
                    "description": "Weather forecasts, current conditions and severe-weather alerts for any city.",
                    "version": "1.0.0", "repository": {"url": "https://github.com/example/weather", "source": "github"},
                    "packages": [{"registryType": "npm", "identifier": "@example/weather-mcp", "version": "1.0.0",
                                  "transport": {"type": "stdio"}}]},
    ".mcp.json": {"mcpServers": {
        "docs": {"type": "http", "url": "https://mcp.example.com/mcp"},
        "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
                   "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}}},
    ".vscode/mcp.json": {"servers": {"db": {"type": "stdio", "command": "db-mcp"},
                                     "db-remote": {"type": "http", "url": "https://db.example.com/mcp"}}},
    "tools.json": {"tools": [
        {"name": "sync", "description": "Push local calendar changes to the server; returns how many were sent.",
         "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False}},
        {"name": "search", "description": "Search the forecast archive by place and date range.",
         "inputSchema": {"type": "object", "properties": {
             "q": {"type": "string", "description": "Words to find in the forecast text"},
             "tags": {"type": "array", "items": {"type": "string"}, "description": "Labels to match"},
             "when": {"anyOf": [{"type": "string"}, {"type": "number"}], "description": "A date or a Unix time"},
             "place": {"$ref": "#/$defs/Place"},
             "ids": {"type": "array", "items": {"type": "string"}, "description": "Station ids"}},
             "$defs": {"Place": {"type": "object", "description": "Where to search",
                                 "properties": {"city": {"type": "string", "description": "City name"}}}}}}]},
}

EXPECTED = {  # (file, rule, pointer): a finding at each problem the repository has
    ("server.json", "REG002", "/$schema"),  # deprecated, naming the current one
    ("server.json", "REG003", "/name"),  # no namespace
    ("server.json", "REG004", "/description"),  # 140 characters
    ("server.json", "REG005", "/version"),  # latest
    ("server.json", "REG006", "/packages/0"),  # no transport
    (".mcp.json", "CFG001", "/mcpServers/docs/url"),  # remote without type
    (".mcp.json", "CFG004", "/mcpServers/github/env/GITHUB_TOKEN"),  # pasted token
    (".mcp.json", "CFG005", "/mcpServers/github/args/1"),  # npx -y without a version
    (".vscode/mcp.json", "CFG002", "/servers/db/url"),  # stdio and HTTP at once
    ("tools.json", "DSC001", "/tools/0"),  # undocumented tool
    ("tools.json", "DSC002", "/tools/1/inputSchema/properties/q"),  # undocumented parameter
    ("tools.json", "SCH112", "/tools/1/inputSchema/properties/tags/items"),  # Inspector: boolean-schema
    ("tools.json", "SCH113", "/tools/1/inputSchema/properties/when/type"),  # Inspector: type-union
    ("tools.json", "SEC101", "/tools/1/inputSchema/properties/place/$ref"),  # Inspector: remote-ref
    ("tools.json", "SCH114", "/tools/1/inputSchema/properties/ids/items"),  # Inspector: untyped-schema
}


def _repository(root, files: dict) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _scan_here(root, monkeypatch, *args):
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, ["scan", ".", *args], catch_exceptions=False)


def test_a_repository_as_it_often_is_gets_a_finding_at_each_problem(tmp_path, monkeypatch):
    assert len(LONG) == 140
    _repository(tmp_path, BAD)
    r = _scan_here(tmp_path, monkeypatch, "--format", "json")
    assert r.exit_code == 1, r.output
    found = json.loads(r.stdout)["findings"]
    got = {(f["file"].removeprefix("./"), f["rule"], f["pointer"]) for f in found}
    assert EXPECTED <= got, sorted(EXPECTED - got)
    assert all(f["line"] > 1 for f in found if (f["file"].removeprefix("./"), f["rule"], f["pointer"]) in EXPECTED)
    assert TOKEN not in r.output and TOKEN[4:] not in r.output
    text = _scan_here(tmp_path, monkeypatch)  # the default report: the same exit code, the token never shown
    assert text.exit_code == 1 and TOKEN[4:] not in text.output
    assert "DSC001" in text.output and "DSC002 parameter-without-description" in text.output


def test_the_same_repository_done_right_exits_0(tmp_path, monkeypatch):
    _repository(tmp_path, GOOD)
    r = _scan_here(tmp_path, monkeypatch, "--format", "json")
    assert r.exit_code == 0, r.output
    found = json.loads(r.stdout)["findings"]
    assert not [f for f in found if f["severity"] != "info"], found
    assert {f["file"].removeprefix("./") for f in found} <= {"tools.json"}
    assert not {f["rule"] for f in found} & {rule for _, rule, _ in EXPECTED}
