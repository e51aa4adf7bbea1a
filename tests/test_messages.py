"""Messages a user acts on: a truncated JSON file says so at its end; an unknown config key
suggests the closest valid one; the summary keeps the tool count with decoder profiles on."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mcplint.cli import main


def run(args, **kw):
    return CliRunner().invoke(main, args, catch_exceptions=False, **kw)


@pytest.mark.parametrize("text,where,expected", [
    ('{"tools": [', "1:12", "expected a value, then ']' to close the array opened at 1:11, and 1 more bracket"),
    ('{"a": 1', "1:8", "expected ',' or a closing bracket, then '}' to close the object opened at 1:1"),
    ('{"a": 1,\n', "1:9", "expected a property name in double quotes, then '}'"),
    ('{\n  "name": "ab', "2:14", "expected the closing quote of the string that starts at 2:11"),
    ('{"a": [1, 2', "1:12", "expected ',' or a closing bracket, then ']' to close the array opened at 1:7, and 1 more bracket left open"),
])
def test_truncated_json_is_unexpected_end_of_file(tmp_path, text, where, expected):
    f = tmp_path / "t.json"
    f.write_text(text)
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert f"{f}:{where}: input error: invalid JSON: unexpected end of file ({expected}" in r.stderr


def test_a_wrong_character_is_not_end_of_file(tmp_path):
    f = tmp_path / "t.json"
    f.write_text('{"a": 1 "b": 2}')
    r = run(["scan", "--no-config", str(f)])
    assert "end of file" not in r.stderr and f"{f}:1:9: input error: invalid JSON: Expecting ',' delimiter" in r.stderr


@pytest.mark.parametrize("config,hint", [
    ("selct: [MCP]\n", "unknown configuration key 'selct'; did you mean `select`?"),
    ("fail_on: warning\n", "unknown configuration key 'fail_on'; did you mean `fail-on`?"),
    ("profils: [gemini]\n", "did you mean `profiles`?"),
    ("bounds: {max-dept: 3}\n", "unknown bound 'max-dept'; did you mean `max-depth`?"),
])
def test_unknown_config_key_suggests_the_closest(tmp_path, config, hint):
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text(config)
    tools = tmp_path / "t.json"
    tools.write_text('{"name": "a", "inputSchema": {"type": "object"}}')
    r = run(["scan", "--config", str(cfg), str(tools)])
    assert r.exit_code == 2 and hint in r.stderr


def test_unknown_key_far_from_any_gets_no_guess(tmp_path):
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("zzzz: 1\n")
    tools = tmp_path / "t.json"
    tools.write_text("{}")
    r = run(["scan", "--config", str(cfg), str(tools)])
    assert "unknown configuration key 'zzzz' (expected one of" in r.stderr and "did you mean" not in r.stderr


def test_summary_keeps_the_tool_count_with_profiles(tmp_path):
    tools = tmp_path / "t.json"
    tools.write_text(json.dumps({"tools": [
        {"name": "a", "inputSchema": {"type": "object", "additionalProperties": False}},
        {"name": "b", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}],
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}))
    base = ["scan", "--no-config", "--profile", "openai-strict", "--profile", "gemini", str(tools)]
    assert "in 1 file, 2 tools (checked as protocol" in run(base).stdout.splitlines()[-1]
    assert run([*base, "--output-format", "concise"]).stdout.splitlines()[-1].endswith("in 1 file, 2 tools.")
    assert "in 1 file, 2 tools." in run([*base, "--statistics"]).stdout
    assert "1 file, 2 tools" in run([*base, "--format", "markdown"]).stdout
    assert json.loads(run([*base, "--format", "json"]).stdout)["summary"]["tools"] == 2
    clean = ["scan", "--no-config", "--profile", "gemini", "--select", "DEC", str(tools)]
    assert run([*clean, "--statistics"]).stdout == "No findings in 1 file, 2 tools.\n"
    assert run(clean).stdout.splitlines()[-1].startswith("No findings in 1 file, 2 tools (checked as protocol")
    assert run([*clean, "--protocol-version", "2026-07-28"]).stdout.splitlines()[-1] == "No findings in 1 file, 2 tools."
