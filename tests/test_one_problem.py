"""One problem, one finding: a problem that several captures of one server have (the versions
that got different tools/list results) is reported once, naming every version it holds for, and
`probe` and `scan` of the same tool list count the same findings."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import lint_document
from mcplint.load import load_text
from mcplint.model import Severity
from mcplint.report import render
from conftest import STDIO

LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
TOOLS = [{"name": "search",
          "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
         {"name": "fetch",
          "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}}]
OPENAI = Config(profiles=("openai-strict",), select=("DEC",))


def capture(tools=TOOLS) -> dict:
    """A dual-era server's capture: the legacy versions got one result, 2026-07-28 another
    (the same tools, with the caching members)."""
    return {"mcplintCapture": 1, "server": "s", "captures": [
        {"protocolVersions": LEGACY, "result": {"tools": tools}, "transcripts": {}},
        {"protocolVersions": ["2026-07-28"],
         "result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public", "tools": tools},
         "transcripts": {}}]}


def lint(data, config: Config = OPENAI):
    return lint_document(load_text(json.dumps(data), "c.json", "json"), config)[1]


def test_a_problem_of_several_captures_is_one_finding_naming_every_version():
    findings = lint(capture())
    assert [(f.rule, f.tool) for f in findings] == [("DEC001", "search"), ("DEC001", "fetch")]
    for f in findings:
        assert f.versions == (*LEGACY, "2026-07-28")
        assert f.pointer[:2] == ("captures", 0)  # at the first capture's place
    # one result in every format, listing the versions
    log = json.loads(render("sarif", _result(findings)))
    results = log["runs"][0]["results"]
    assert len(results) == 2
    assert {r["properties"]["protocolVersion"] for r in results} == {",".join((*LEGACY, "2026-07-28"))}
    assert len(json.loads(render("json", _result(findings)))["findings"]) == 2


def test_what_differs_between_captures_stays_apart():
    # the 2026-07-28 result lists fetch without "required": that problem is that capture's alone
    changed = [TOOLS[0], {"name": "fetch",
                          "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}}]
    data = capture()
    data["captures"][1]["result"]["tools"] = changed
    findings = lint(data)
    fetch = {str(f.pointer): f.versions for f in findings if f.tool == "fetch"}
    assert fetch == {"/captures/0/result/tools/1/inputSchema": (*LEGACY, "2026-07-28"),
                     "/captures/1/result/tools/1/inputSchema/properties/url": ("2026-07-28",)}
    assert [f.versions for f in findings if f.tool == "search"] == [(*LEGACY, "2026-07-28")]
    # and a finding of one version only keeps its own version and severity
    mcp = lint(capture([{**TOOLS[0], "title": "Search"}]), Config())
    member = [f for f in mcp if f.rule == "MCP105"]
    assert [(f.versions, f.severity) for f in member] == [(("2024-11-05", "2025-03-26"), Severity.INFO)]


def test_scan_of_the_capture_and_of_its_tool_list_count_the_same(tmp_path):
    (tmp_path / "c.json").write_text(json.dumps(capture()))
    (tmp_path / "list.json").write_text(json.dumps({"tools": TOOLS}))
    counts = []
    for name in ("c.json", "list.json"):
        r = CliRunner().invoke(main, ["scan", "--no-config", "--profile", "openai-strict", "--select", "DEC",
                                      "--format", "json", str(tmp_path / name)])
        counts.append(json.loads(r.stdout)["summary"]["errors"])
    assert counts == [2, 2]


def test_probe_and_scan_of_the_same_tool_list_report_the_same_findings(tmp_path, tag):  # noqa: F811
    saved = tmp_path / "s.json"
    args = ["--no-config", "--profile", "openai-strict", "--select", "DEC", "--format", "json"]
    r = CliRunner().invoke(main, ["probe", *args, "--save", str(saved), "--", sys.executable, STDIO, "--modern",
                                  "--tag", tag], catch_exceptions=False)
    probed = json.loads(r.stdout)
    captures = json.loads(saved.read_text())["captures"]
    assert len(captures) == 2  # the server speaks both eras: two results
    (tmp_path / "list.json").write_text(json.dumps(captures[0]["result"]))
    scanned = json.loads(CliRunner().invoke(main, ["scan", *args, str(tmp_path / "list.json")]).stdout)
    assert len(probed["findings"]) == len(scanned["findings"]) == 2
    assert probed["summary"]["errors"] == scanned["summary"]["errors"] == 2
    assert [(f["rule"], f["tool"], f["message"]) for f in probed["findings"]] == \
        [(f["rule"], f["tool"], f["message"]) for f in scanned["findings"]]


def _result(findings):
    from mcplint.engine import Result

    return Result(findings=findings, files=1, tools=2)
