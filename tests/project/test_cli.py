"""`mcplint project`: the projection written out, the located report (text and json),
exit codes, and the JSON Structure mode beside it."""

from __future__ import annotations

import json
import subprocess
import sys

from .common import ROOT


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "mcplint", "project", *args], capture_output=True, text=True,
                          input=stdin, cwd=ROOT)


def test_cli_writes_the_projection_and_a_located_report(tmp_path):
    out = tmp_path / "out.json"
    r = _cli("examples/weather-server.tools.json", "--profile", "openai-strict", "-o", str(out))
    assert r.returncode == 1, r.stderr
    data = json.loads(out.read_text())
    assert [t["name"] for t in data["tools"]] == ["get_forecast", "list_stations"]  # "set alert" left out
    assert "examples/weather-server.tools.json:35:7: error: /tools/1/name:" in r.stdout
    assert ":20:9: weakened: /tools/0/inputSchema/if:" in r.stdout
    assert "nullable: /tools/0/inputSchema/properties/hours:" in r.stdout
    assert "left out of the output: set alert" in r.stdout


def test_cli_folds_repeats_unless_verbose(tmp_path):
    notion = "tests/data/corpus/notion.tools.json"
    short = _cli(notion, "--profile", "openai-strict", "-o", str(tmp_path / "a.json"))
    full = _cli(notion, "--profile", "openai-strict", "-o", str(tmp_path / "b.json"), "--verbose")
    assert short.returncode == full.returncode == 1
    assert "more like it in this tool; --verbose lists them" in short.stdout
    assert "more like it" not in full.stdout
    assert len(full.stdout.splitlines()) > 2 * len(short.stdout.splitlines())
    assert short.stdout.splitlines()[-1] == full.stdout.splitlines()[-1]  # same summary


def test_cli_json_report(tmp_path):
    r = _cli("examples/weather-server.tools.json", "--profile", "anthropic-strict", "--format", "json",
             "-o", str(tmp_path / "o.json"))
    rep = json.loads(r.stdout)
    assert rep["profile"] == "anthropic-strict" and rep["summary"]["tools"]["left-out"] == 1
    assert rep["summary"]["items"]["left-out"] == 1 and rep["summary"]["exact_projection"] is False
    assert rep["items"][0]["kind"] == "left-out"  # errors first
    assert {t["status"] for t in rep["tools"]} == {"changed", "left-out", "exact"}
    it = next(i for i in rep["items"] if i["pointer"] == "/tools/0/inputSchema/properties/hours/minimum")
    assert it["kind"] == "weakened" and it["line"] == 15 and it["tool"] == "get_forecast"


def test_cli_exit_0_when_exact_and_projection_on_stdout():
    tool = {"name": "ok", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["a"],
                                          "properties": {"a": {"type": "string"}}}}
    r = _cli("-", "--profile", "openai-strict", stdin=json.dumps(tool))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == tool
    assert "0 changed, 0 left out" in r.stderr


def test_cli_single_tool_left_out_writes_nothing(tmp_path):
    out = tmp_path / "o.json"
    text = json.dumps({"name": "b", "inputSchema": {"type": "array"}})
    r = _cli("-", "--profile", "openai-strict", "--format", "json", "-o", str(out), stdin=text)
    assert r.returncode == 1 and not out.exists()
    rep = json.loads(r.stdout)
    assert rep["output"] is None and rep["items"][0]["kind"] == "left-out"
    assert rep["items"][0]["pointer"] == "/inputSchema/type"
    assert (rep["items"][0]["line"], rep["items"][0]["column"]) == (1, text.index('"type"') + 1)


def test_cli_bad_input_and_usage_exit_2():
    assert _cli("-", "--profile", "openai-strict", stdin="{not json").returncode == 2
    assert _cli("-", "--profile", "no-such-profile", stdin="{}").returncode == 2
    r = _cli("-", stdin="{}")
    assert r.returncode == 2 and "exactly one of" in r.stderr


def test_cli_json_structure_mode_still_works():
    js = {"$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://example.com/s", "name": "S",
          "type": "object", "properties": {"a": {"type": "string"}}}
    r = _cli("-", "--to", "json-schema", stdin=json.dumps(js))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["properties"]["a"]["type"] == "string"
