"""``scan --baseline``: record findings, then fail only on new ones, whatever moved."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mcplint.cli import main

TWO = """{"tools": [
  {"name": "a", "inputSchema": {"type": "object", "type": "object"}},
  {"name": "b", "inputSchema": {"type": "object"}}
]}
"""
# Same findings, moved: lines added, tools reordered, file reformatted.
MOVED = """{
  "tools": [
    {"name": "b", "inputSchema": {"type": "object"}},


    {"name": "a",
     "inputSchema": {
        "type": "object",
        "type": "object"}}
  ]
}
"""
# A new finding in tool b, the old one in tool a kept.
NEW = """{"tools": [
  {"name": "a", "inputSchema": {"type": "object", "type": "object"}},
  {"name": "b", "inputSchema": {"type": "object", "title": "x", "title": "y"}}
]}
"""


def run(*args):
    return CliRunner().invoke(main, ["scan", "--no-config", "--select", "DOC001", *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "srv").mkdir()
    f = tmp_path / "srv" / "tools.json"
    f.write_text(TWO)
    monkeypatch.chdir(tmp_path)
    return f


def test_record_then_only_new_findings_fail(project, tmp_path):
    assert run("srv/tools.json").exit_code == 1
    r = run("srv/tools.json", "--baseline", "base.json", "--update-baseline")
    assert r.exit_code == 0 and "Recorded 1 finding in base.json." in r.stderr
    data = json.loads((tmp_path / "base.json").read_text())
    assert data["version"] == 1
    assert [(e["rule"], e["file"], e["tool"], e["pointer"]) for e in data["findings"]] == [
        ("DOC001", "srv/tools.json", "a", "/inputSchema/type")]
    r = run("srv/tools.json", "--baseline", "base.json")
    assert r.exit_code == 0 and "1 known finding not shown" in r.stderr

    project.write_text(MOVED)  # lines moved, tools reordered: still known
    r = run("srv/tools.json", "--baseline", "base.json", "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["findings"] == []

    project.write_text(NEW)  # one new finding: reported alone, exit 1
    r = run("srv/tools.json", "--baseline", "base.json", "--format", "json")
    assert r.exit_code == 1
    assert [(f["tool"], f["pointer"]) for f in json.loads(r.stdout)["findings"]] == [("b", "/tools/1/inputSchema/title")]

    project.write_text(TWO.replace('"type": "object", "type": "object"', '"type": "object"'))
    r = run("srv/tools.json", "--baseline", "base.json")
    assert r.exit_code == 0 and "1 recorded finding now fixed" in r.stderr


def test_baseline_paths_are_relative_to_the_baseline_file(project, tmp_path, monkeypatch):
    assert run("srv/tools.json", "--baseline", "srv/base.json", "--update-baseline").exit_code == 0
    assert json.loads((tmp_path / "srv" / "base.json").read_text())["findings"][0]["file"] == "tools.json"
    monkeypatch.chdir(tmp_path / "srv")
    assert run("tools.json", "--baseline", "base.json").exit_code == 0


def test_same_key_counted(project, tmp_path):
    """Two findings with one key (same rule, tool, pointer; different messages) need two entries."""
    from dataclasses import replace

    from mcplint import baseline
    from mcplint.config import Config
    from mcplint.engine import lint_paths

    result = lint_paths(["srv/tools.json"], Config(select=("DOC001",)))
    assert baseline.write("b.json", result) == 1
    again = lint_paths(["srv/tools.json"], Config(select=("DOC001",)))
    again.findings = again.findings + [replace(again.findings[0], message="another")]
    applied = baseline.apply("b.json", again)
    assert (applied.matched, applied.fixed, len(again.findings)) == (1, 0, 1)


@pytest.mark.parametrize("content,message", [
    (None, "no baseline file here"),
    ("{", "invalid baseline JSON"),
    ('{"version": 2, "findings": []}', "not an mcplint baseline"),
    ('{"version": 1, "findings": [{"rule": "DOC001"}]}', "lacks rule, file or pointer"),
])
def test_bad_baseline_is_a_located_input_error(project, tmp_path, content, message):
    if content is not None:
        (tmp_path / "b.json").write_text(content)
    r = run("srv/tools.json", "--baseline", "b.json")
    assert r.exit_code == 2 and message in r.output and "b.json" in r.output


def test_update_needs_a_file(project):
    r = run("srv/tools.json", "--update-baseline")
    assert r.exit_code == 2 and "--update-baseline needs --baseline FILE" in r.output
