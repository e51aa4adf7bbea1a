"""The command line on awkward input, as a demanding user feeds it: every such input is a
located error in words (never a Python type name), reported by every format."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from mcplint.cli import main


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


@pytest.mark.parametrize("text, words", [
    ("null", "found null"),
    ("{}", "found an empty object"),
    ('"tools"', "found a string"),
    ("true", "found a boolean"),
    ('{"tools": {"a": {"name": "a"}}}', '"tools" must be an array, found an object'),
    ('{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}', "keys 'a', 'b', 'c', 'd', 'e', ..."),
])
def test_wrong_shapes_are_named_in_json_terms(tmp_path, text, words):
    f = tmp_path / "t.json"
    f.write_text(text)
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert words in r.output
    for leak in ("NoneType", "dict", "str", "bool"):
        assert f"found {leak}" not in r.output


def test_text_summary_counts_unreadable_inputs(tmp_path):
    f = tmp_path / "empty.json"
    f.write_text("")
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert "No findings in 0 files, 0 tools. 1 input could not be read." in r.output


def test_yaml_tab_is_explained(tmp_path):
    f = tmp_path / "t.yaml"
    f.write_text("tools:\n  - name: a\n    inputSchema:\n\t  type: object\n")
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert f"{f}:4:1: input error: invalid YAML: a tab character" in r.output
    assert "spaces" in r.output


def test_github_format_annotates_input_errors(tmp_path):
    f = tmp_path / "empty.json"
    f.write_text("")
    r = run(["scan", "--no-config", "--format", "github", str(f), str(tmp_path / "missing.json")])
    assert r.exit_code == 2
    lines = [x for x in r.output.splitlines() if x.startswith("::error")]
    assert any(x.startswith(f"::error file={f},line=1,col=1,title=mcplint input error::file is empty") for x in lines)
    assert any("missing.json" in x and "no such file" in x for x in lines)


CLEAN = '{"name": "a", "inputSchema": {"type": "object", "additionalProperties": false}}'


@pytest.mark.parametrize("args", [
    ["scan", "--no-config", "{f}", "-o", "{bad}"],
    ["scan", "--no-config", "{f}", "--baseline", "{bad}", "--update-baseline"],
    ["diff", "{f}", "{f}", "-o", "{bad}"],
    ["project", "{js}", "--to", "json-schema", "-o", "{bad}"],
    ["project", "{f}", "--profile", "openai-strict", "-o", "{bad}"],
])
def test_unwritable_output_is_a_usage_error_not_a_bug(tmp_path, args):
    f = tmp_path / "t.json"
    f.write_text(CLEAN)
    js = tmp_path / "s.json"
    js.write_text('{"$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://x.example/s", '
                  '"name": "S", "type": "object", "properties": {"a": {"type": "string"}}}')
    bad = tmp_path / "no-such-dir" / "out.txt"
    r = run([a.format(f=f, bad=bad, js=js) for a in args])
    assert r.exit_code == 2, r.output
    assert f"{bad}: input error: cannot write" in r.output
    assert "internal error" not in r.output


@pytest.mark.parametrize("text", ["", "# nothing yet\n", "---\n# later\n"])
def test_empty_config_file_means_defaults(tmp_path, monkeypatch, text):
    (tmp_path / ".mcplint.yaml").write_text(text)
    (tmp_path / "t.json").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    r = run(["scan", "t.json"])
    assert r.exit_code == 0, r.output
    assert "config error" not in r.output


@pytest.mark.parametrize("text", [
    '{"content": [{"type": "text", "text": "hi"}], "isError": false}',
    '{"jsonrpc": "2.0", "id": 1, "result": {"content": [], "structuredContent": {}}}',
])
def test_call_result_given_to_scan_points_at_validate(tmp_path, text):
    f = tmp_path / "r.json"
    f.write_text(text)
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert "tools/call result (CallToolResult), not tool definitions" in r.output
    assert "mcplint validate" in r.output


@pytest.mark.parametrize("flag, expected", [
    ("--arguments", "expected an arguments object or a tools/call request"),
    ("--result", "expected a CallToolResult"),
])
def test_validate_empty_input_says_what_it_expected(tmp_path, flag, expected):
    tools = tmp_path / "t.json"
    tools.write_text(CLEAN)
    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    r = run(["validate", str(tools), flag, str(empty)])
    assert r.exit_code == 2
    assert f"{empty}:1:1: input error: file is empty ({expected}" in r.output
    assert "tools/list" not in r.output


def test_legacy_required_string_reported_once(tmp_path):
    import json

    f = tmp_path / "t.json"
    f.write_text('{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, '
                 '"required": "a"}}')
    both = ["scan", "--no-config", "--format", "json", "--protocol-version", "2025-06-18", str(f)]
    at = "/inputSchema/required"
    rules = [x["rule"] for x in json.loads(run(both).output)["findings"] if x["pointer"] == at]
    assert rules == ["SCH101"]
    rules = [x["rule"] for x in json.loads(run(both + ["--select", "MCP"]).output)["findings"] if x["pointer"] == at]
    assert rules == ["MCP110"]


def test_long_enums_are_checked_in_linear_time():
    """SCH109 checks every enum member against its own subschema; looking each one up in the
    enum by a linear scan made 100 properties of 1,000 members take tens of seconds."""
    import time

    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.load import load_text
    import json

    members = [f"v{i}" for i in range(1000)]
    props = {f"p{j}": {"type": "string", "enum": ([7] if j == 0 else []) + members} for j in range(100)}
    doc = load_text(json.dumps({"name": "a", "inputSchema": {"type": "object", "properties": props}}))
    start = time.process_time()
    _, findings = lint_document(doc, Config(select=("SCH109",)))
    assert time.process_time() - start < 3
    assert [str(f.pointer) for f in findings] == ["/inputSchema/properties/p0/enum/0"]


@pytest.mark.parametrize("name, words", [
    ("default", "'default' is a set of profiles, not one: name one of claude-code"),
    ("strict", "'strict' is a set of profiles, not one: name one of anthropic-strict"),
    ("nope", "unknown profile 'nope'; built-in profiles: anthropic-api"),
])
def test_profile_command_names_what_it_takes(name, words):
    r = CliRunner().invoke(main, ["profile", name])
    assert r.exit_code == 2
    assert words in r.output
    assert "--profile" not in r.output and "expected default" not in r.output


@pytest.mark.parametrize("text, where, name", [
    ('{"name": "a", "inputSchema": {"type": "object", "x": NaN}}', "1:54", "NaN"),
    ('{"name": "NaN", "inputSchema": {"type": "object",\n "maximum": -Infinity}}', "2:13", "-Infinity"),
])
def test_nan_and_infinity_are_not_json(tmp_path, text, where, name):
    f = tmp_path / "t.json"
    f.write_text(text)
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2
    assert f"{f}:{where}: input error: invalid JSON: {name} is not a JSON value" in r.output


def test_directory_walk_skips_build_output(tmp_path):
    (tmp_path / "tools.json").write_text(CLEAN)
    for d in ("build/lib/pkg", "dist", "node_modules/x"):
        (tmp_path / d).mkdir(parents=True)
        (tmp_path / d / "data.json").write_text('{"name": "x", "version": "1"}')
    r = run(["scan", "--no-config", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "1 file" in r.output
    r = run(["scan", "--no-config", str(tmp_path / "build")])  # named explicitly: walked
    assert r.exit_code == 2 and "unrecognised document shape" in r.output


def test_diff_with_a_malformed_required(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text('{"name": "a", "inputSchema": {"type": "object", "properties": {"q": {}}, "required": ["q"]}}')
    new.write_text('{"name": "a", "inputSchema": {"type": "object", "properties": {"q": {}}, "required": [["q"]]}}')
    r = run(["diff", str(old), str(new)])
    assert r.exit_code == 0, r.output  # relaxing a requirement is compatible
    assert "argument 'q' is no longer required" in r.output


def test_validate_against_a_schema_the_library_cannot_read(tmp_path):
    tools, args = tmp_path / "t.json", tmp_path / "a.json"
    tools.write_text('{"name": "a", "inputSchema": {"type": "object", "$id": {}, "properties": {"q": {"type": "string"}}}}')
    args.write_text('{"q": 1}')
    r = run(["validate", str(tools), "--arguments", str(args)])
    assert r.exit_code == 1, r.output
    assert "the schema is not valid JSON Schema 2020-12 at /inputSchema/$id" in r.output


def _server_repo(tmp_path):
    """A server's repository: its tool definitions beside manifests and unrelated JSON."""
    import shutil
    from pathlib import Path

    shutil.copy(Path(__file__).parent.parent.parent / "examples" / "weather-server.tools.json", tmp_path / "tools.json")
    (tmp_path / "package.json").write_text('{"name": "weather", "version": "1.0.0"}')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "tsconfig.build.json").write_text('{"compilerOptions": {}}')
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "payload.json").write_text('{"a": 1}')
    return tmp_path


def test_walking_a_directory_skips_well_known_manifests(tmp_path):
    import json

    repo = _server_repo(tmp_path)
    r = run(["scan", "--no-config", "--format", "json", str(repo)])
    assert r.exit_code == 2  # fixtures/payload.json is not a tool definition, and was not excluded
    assert "payload.json" in r.output and "package.json" not in r.output and "tsconfig" not in r.output
    r = run(["scan", "--no-config", "--format", "json", "--exclude", "fixtures/*", str(repo)])
    assert r.exit_code == 1, r.output  # the example's findings, nothing unreadable
    assert json.loads(r.output)["summary"]["files"] == 1


def test_exclude_from_the_config_file_and_explicit_files_still_read(tmp_path, monkeypatch):
    repo = _server_repo(tmp_path)
    (repo / ".mcplint.yaml").write_text("exclude: [payload.json]\n")
    monkeypatch.chdir(repo)
    r = run(["scan", "--format", "json", "."])
    assert r.exit_code == 1, r.output  # the config file itself is never read as tools either
    r = run(["scan", "package.json"])  # named explicitly: read, and refused for its shape
    assert r.exit_code == 2 and "unrecognised document shape" in r.output


def test_a_directory_with_everything_excluded_says_so(tmp_path):
    (tmp_path / "package.json").write_text("{}")
    r = run(["scan", "--no-config", str(tmp_path)])
    assert r.exit_code == 2 and "(1 excluded)" in r.output


def test_exclude_in_config_must_be_strings(tmp_path, monkeypatch):
    (tmp_path / ".mcplint.yaml").write_text("exclude: {a: 1}\n")
    (tmp_path / "t.json").write_text('{"tools": []}')
    monkeypatch.chdir(tmp_path)
    r = run(["scan", "t.json"])
    assert r.exit_code == 2 and "exclude" in r.output and "list of strings" in r.output


# Patterns that make Python's `re` parser warn (FutureWarning: a nested set, a set operation
# it may one day read differently) when any part of mcplint reads them with it.
NOISY = {"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {
    "a": {"type": "string", "pattern": "[[a]x", "default": "ax"},
    "b": {"type": "string", "pattern": "^[a--b]$", "examples": ["a"]},
    "c": {"type": "string", "pattern": "[a&&b]", "enum": ["a"]},
    "d": {"type": "string", "pattern": "[a||b]|[~~]"}},
    "patternProperties": {"[[x]": {}}}}]}


@pytest.mark.parametrize("extra", [[], ["--profile", "default"], ["--jobs", "2"]])
def test_no_library_warning_reaches_stderr_during_a_scan(tmp_path, extra):
    """The real entry point, in a fresh interpreter (warnings are shown once per process)."""
    import json
    import os
    import subprocess
    import sys

    f = tmp_path / "noisy.json"
    f.write_text(json.dumps(NOISY))
    env = {k: v for k, v in os.environ.items() if k not in ("MCPLINT_DEBUG", "PYTHONWARNINGS")}
    cmd = [sys.executable, "-m", "mcplint", "scan", "--no-config", *extra, str(f), str(f)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1, r.stderr  # findings, and nothing else
    assert r.stderr == ""
