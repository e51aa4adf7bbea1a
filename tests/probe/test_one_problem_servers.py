"""One problem, one finding across the servers of ``probe --from``: a problem that several
servers have on a tool each lists exactly alike is reported once, naming the servers, in every
format, and the summaries count it once; a tool of one name that two servers list differently
keeps its findings per server; saved captures merge alike, so ``probe --from`` with or without
``--save``, a scan of the saved captures, the pre-commit hook and the Action report the same."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from mcplint import precommit
from mcplint.capture import one_per_saved_server, one_per_server
from mcplint.cli import main
from mcplint.cli.probe_from import one_finding_per_problem
from mcplint.config import Config
from mcplint.engine import Result, lint_document
from mcplint.load import load_text
from mcplint.model import Severity
from mcplint.report import Options, profile_matrix, render
from conftest import STDIO

PY = sys.executable
LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
SEARCH = {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
                                            "required": ["q"]}}
OPENAI = Config(profiles=("openai-strict",), select=("DEC",))


def capture(server: str, tools: list, versions=LEGACY) -> dict:
    return {"mcplintCapture": 1, "server": server,
            "captures": [{"protocolVersions": versions, "result": {"tools": tools}, "transcripts": {}}]}


def linted(name: str, tools: list, versions=LEGACY):
    """(name, findings, data) of a server's capture that was not saved, linted as probe lints it."""
    data = capture(name, tools, versions)
    doc = load_text(json.dumps(data, indent=2), f"<probe {name}>", "json")
    return name, lint_document(doc, OPENAI)[1], data, doc


def test_a_problem_of_several_servers_is_one_finding_naming_them():
    a, b = linted("a", [SEARCH]), linted("b", [SEARCH])
    c = linted("c", [SEARCH], ["2025-06-18"])  # the same tool, listed under one version only
    findings = one_per_server([s[:3] for s in (a, b, c)])
    assert [(f.rule, f.tool, f.origin, f.servers) for f in findings] == [("DEC001", "search", "<probe a>",
                                                                         ("a", "b", "c"))]
    assert findings[0].versions == tuple(LEGACY)  # every version it holds for under any of them
    assert findings[0].pointer == a[1][0].pointer and findings[0].span == a[1][0].span  # at the first one's place
    # the same tool elsewhere in another server's list (a template's tool beside the server's own)
    other = {"name": "fetch", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False}}
    d = linted("d", [other, SEARCH])
    findings = one_per_server([a[:3], d[:3]])
    assert [(f.tool, f.servers) for f in findings] == [("search", ("a", "d"))]


def test_a_tool_listed_differently_keeps_its_findings_per_server():
    # the same rule, place and words, but the tools differ (a description): two tools, two findings
    a = linted("a", [SEARCH])
    b = linted("b", [{**SEARCH, "description": "Search."}])
    findings = one_per_server([a[:3], b[:3]])
    assert [(f.origin, f.servers) for f in findings] == [("<probe a>", ()), ("<probe b>", ())]
    assert findings == a[1] + b[1]


def test_saved_captures_merge_as_unsaved_ones_do(tmp_path):
    a, b, c = (linted(n, [SEARCH]) for n in "abc")
    found = [("a", a[1], True, a[2]), ("b", b[1], False, b[2]), ("c", c[1], False, c[2])]
    findings = one_finding_per_problem(found)
    assert [(f.origin, f.servers) for f in findings] == [("<probe a>", ("a", "b", "c"))]
    # a scan of the saved files: the same problem once, at the first file, naming the servers
    docs = []
    for name in "abc":
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**capture(name, [SEARCH]), "serverName": name}, indent=2))
        docs.append(load_text(path.read_text(), str(path), "json"))
    scanned = [f for d in docs for f in lint_document(d, OPENAI)[1]]
    kept = one_per_saved_server(scanned, docs)
    assert [(f.origin, f.servers) for f in kept] == [(str(tmp_path / "a.json"), ("a", "b", "c"))]
    # two captures of one server (the same name) are not merged
    same = [load_text(json.dumps({**capture("a", [SEARCH]), "serverName": "a"}, indent=2), o, "json")
            for o in ("old.json", "new.json")]
    both = [f for d in same for f in lint_document(d, OPENAI)[1]]
    assert one_per_saved_server(both, same) == both and len(both) == 2


def _result(*servers) -> Result:
    result = Result()
    result.profiles = ["openai-strict"]
    result.findings = one_per_server([s[:3] for s in servers])
    result.documents = [s[3] for s in servers]
    result.tool_index = [(s[3].source.origin, "search") for s in servers]
    result.tools = len(servers)
    result.servers = [{"name": s[0], "status": "probed"} for s in servers]
    return result


def test_every_format_names_the_servers_and_counts_the_problem_once():
    result = _result(linted("a", [SEARCH]), linted("b", [SEARCH]))
    assert result.count(Severity.ERROR) == 1
    # each server's tool is rejected, though the finding is at the first one's place
    assert profile_matrix(result)["openai-strict"] == {("<probe a>", "search"): "rejects",
                                                       ("<probe b>", "search"): "rejects"}
    text = render("text", result, Options(width=200))
    assert "; servers a, b]" in text
    assert "Found 1 error in 2 servers, 2 tools. 1 finding holds for several servers, each reported once." in text
    assert "0 accepted as-is, 0 weakened, 2 rejected" in text
    assert "[profile openai-strict, 2024-11-05,2025-03-26,2025-06-18,2025-11-25; servers a, b]" in \
        render("concise", result)
    finding, = json.loads(render("json", result))["findings"]
    assert finding["servers"] == ["a", "b"] and finding["file"] == "<probe a>"
    sarif, = json.loads(render("sarif", result))["runs"][0]["results"]
    assert sarif["properties"]["servers"] == ["a", "b"]
    annotation, = render("github", result).splitlines()
    assert "[servers a, b]" in annotation
    markdown = render("markdown", result)
    assert "`<probe a>` (servers a, b) | 1 |" in markdown and "servers a, b). Fix:" in markdown
    assert "1 error in 2 servers, 2 tools. 1 finding holds for several servers" in markdown
    # a finding of one server says nothing of servers
    alone = _result(linted("a", [SEARCH]))
    assert "servers" not in json.loads(render("json", alone))["findings"][0]
    assert "servers" not in render("concise", alone) + render("github", alone) + render("markdown", alone)
    assert "several" not in render("text", alone)


def _config(tmp_path, tag):
    """Two servers that list the same tools, and a third whose 'convert' differs (the same
    problems at the same places, in the same words: a near miss)."""
    def server(fallback):
        return {"command": PY, "args": [STDIO, "--binding", "negotiate", "--fallback", fallback, "--tag", tag]}

    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"one": server("good"), "two": server("good"),
                                              "other": server("strict")}}))
    return cfg


ARGS = ["--no-config", "--profile", "openai-strict", "--select", "DEC", "--protocol-version", "2025-11-25",
        "--format", "json"]


def test_probe_from_reports_a_problem_of_identical_servers_once(tmp_path, tag):
    r = CliRunner().invoke(main, ["probe", *ARGS, "--from", str(_config(tmp_path, tag))], catch_exceptions=False)
    report = json.loads(r.stdout)
    found = sorted((f["tool"], f["file"], tuple(f.get("servers", ()))) for f in report["findings"])
    assert found == [
        ("convert", "<probe one>", ("one", "two")), ("convert", "<probe one>", ("one", "two")),
        ("convert", "<probe other>", ()), ("convert", "<probe other>", ()),  # 'other' lists convert differently
        ("delete_all", "<probe one>", ("one", "two", "other")), ("search", "<probe one>", ("one", "two", "other"))]
    assert report["summary"]["errors"] == 6  # problems, not findings per server (12)
    assert [s["errors"] for s in report["summary"]["servers"]] == [4, 4, 4]  # each server's own


def test_saved_captures_give_what_the_hook_gives(tmp_path, tag, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = _config(tmp_path, tag)
    unsaved = json.loads(CliRunner().invoke(main, ["probe", *ARGS, "--from", str(cfg)],
                                            catch_exceptions=False).stdout)
    r = CliRunner().invoke(main, ["probe", *ARGS, "--from", str(cfg), "--save", "snaps"], catch_exceptions=False)
    probed = json.loads(r.stdout)
    assert any("servers" in f for f in probed["findings"])  # merged as without --save
    assert precommit.main([*ARGS, "--from", str(cfg)]) == r.exit_code == 1
    hooked = json.loads(capsys.readouterr().out)
    assert len(hooked["findings"]) == len(probed["findings"]) == len(unsaved["findings"]) < 12
    assert hooked["summary"]["errors"] == probed["summary"]["errors"] == unsaved["summary"]["errors"]
