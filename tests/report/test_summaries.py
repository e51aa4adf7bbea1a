"""Summaries say what was looked at: a probe's servers (not files that do not exist), and the
protocol version a file that names none was checked as."""

from __future__ import annotations

import pytest

import json
import sys

from click.testing import CliRunner

from mcplint.cli import main
from conftest import STDIO

PY = sys.executable
BARE = '{"tools": [{"name": "a", "description": "A.", "inputSchema": {"type": "object", "properties": {}}}]}\n'
CLAUSE = "checked as protocol 2024-11-05 to 2026-07-28"


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def last_line(r) -> str:
    return [line for line in r.stdout.splitlines() if line.startswith(("Found", "No findings"))][-1]


@pytest.mark.slow
def test_probe_from_summary_counts_servers(tmp_path, tag, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "three": {"command": PY, "args": [STDIO, "--only-in", "2025-06-18", "--tag", tag]},  # search, delete_all, beta
        "two": {"command": PY, "args": [STDIO, "--modern", "--tag", tag]},  # search, delete_all
        "gone": {"command": str(tmp_path / "nothing")},
    }}))
    r = run("probe", "--no-config", "--from", str(cfg))
    assert r.exit_code == 2
    line = last_line(r)
    assert " in 2 servers, 5 tools. 1 server could not be probed." in line and "file" not in line
    assert "checked as protocol" not in r.stdout  # a capture says which versions it holds

    r = run("probe", "--no-config", "--format", "json", "--from", str(cfg))
    s = json.loads(r.stdout)["summary"]
    assert (s["files"], s["tools"]) == (0, 5)  # no capture was saved: no file
    assert [(x["name"], x["status"], x.get("tools")) for x in s["servers"]] == [
        ("three", "probed", 3), ("two", "probed", 2), ("gone", "error", None)]
    r = run("probe", "--no-config", "--format", "json", "--save", "caps", "--from", str(cfg))
    s = json.loads(r.stdout)["summary"]
    assert (s["files"], s["tools"]) == (2, 5)  # two captures written
    assert [x.get("saved") for x in s["servers"]] == ["caps/three.json", "caps/two.json", None]
    r = run("probe", "--no-config", "--format", "markdown", "--from", str(cfg))
    assert "in 2 servers, 5 tools. 1 server could not be probed." in r.stdout


def test_probe_of_one_server_counts_one_server(tmp_path, tag):  # noqa: F811
    r = run("probe", "--no-config", "--", PY, STDIO, "--modern", "--tag", tag)
    assert last_line(r).endswith(" in 1 server, 2 tools.")
    r = run("probe", "--no-config", "--format", "concise", "--", PY, STDIO, "--modern", "--tag", tag)
    assert r.stdout.splitlines()[-1].endswith(" in 1 server, 2 tools.")
    r = run("probe", "--no-config", "--format", "json", "--save", str(tmp_path / "s.json"), "--", PY, STDIO,
            "--modern", "--tag", tag)
    s = json.loads(r.stdout)["summary"]
    assert (s["files"], s["tools"]) == (1, 2)
    assert [(x["status"], x["tools"], x["saved"]) for x in s["servers"]] == [("probed", 2, str(tmp_path / "s.json"))]
    assert s["servers"][0]["name"].endswith(f"--modern --tag {tag}")  # the server, as the capture names it
    r = run("scan", "--no-config", str(tmp_path / "s.json"))  # the saved capture is one file
    assert last_line(r).endswith(" in 1 file, 2 tools.") and "checked as protocol" not in r.stdout


def test_scan_says_which_version_a_file_without_one_was_checked_as(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(BARE)
    (tmp_path / "tool.json").write_text(json.dumps(json.loads(BARE)["tools"][0]))
    (tmp_path / "api.mcpdesc.json").write_text(json.dumps({
        "mcpdesc": "1.0", "protocolVersions": ["2025-06-18"], "info": {"name": "x", "version": "1"},
        "tools": json.loads(BARE)["tools"]}))
    clause = (f"({CLAUSE}: the file names no version, and nothing in it narrows that; a finding that holds under "
              "only some of them is one step less severe; --protocol-version to choose).")
    for name in ("tools.json", "tool.json"):
        r = run("scan", "--no-config", name)
        assert last_line(r).endswith(clause), r.stdout
    r = run("scan", "--no-config", "tools.json", "tool.json")
    assert f"({CLAUSE}: the files name no version, and nothing in them narrows that;" in last_line(r)
    r = run("scan", "--no-config", "tools.json", "api.mcpdesc.json")
    assert f"({CLAUSE}: 1 of the 2 files names no version," in last_line(r)
    # what the content says narrows it, and the summary says why
    (tmp_path / "modern.json").write_text(json.dumps({"resultType": "complete", **json.loads(BARE)}))
    r = run("scan", "--no-config", "modern.json")
    assert last_line(r).endswith("(checked as protocol 2026-07-28: the file names no version, and its tools/list "
                                 "result has resultType; --protocol-version to choose)."), r.stdout
    # not when a version was chosen, nor for a document that carries its own
    for args in (["--protocol-version", "2026-07-28"], ["--protocol-version", "2025-06-18"]):
        assert "checked as protocol" not in run("scan", "--no-config", *args, "tools.json").stdout
    (tmp_path / ".mcplint.yaml").write_text("protocol-versions: [2026-07-28]\n")
    assert "checked as protocol" not in run("scan", "tools.json").stdout
    (tmp_path / ".mcplint.yaml").unlink()
    assert "checked as protocol" not in run("scan", "--no-config", "api.mcpdesc.json").stdout
    # the text report only
    for fmt in ("json", "concise", "markdown", "sarif", "github"):
        assert "checked as protocol" not in run("scan", "--no-config", "--format", fmt, "tools.json").stdout
    assert "checked as protocol" in run("scan", "--no-config", "--format", "full", "tools.json").stdout


def test_hook_summary_counts_files_and_the_servers_it_could_not_probe(tmp_path, tag, capsys,  # noqa: F811
                                                                    monkeypatch):
    from mcplint import precommit

    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.json").write_text("{\n")
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"two": {"command": PY, "args": [STDIO, "--modern", "--tag", tag]},
                                              "gone": {"command": str(tmp_path / "nothing")}}}))
    assert precommit.main(["--no-config", "--from", str(cfg), "broken.json"]) == 2
    line = [t for t in capsys.readouterr().out.splitlines() if t.startswith(("Found", "No findings"))][-1]
    # the hook scans files: the saved capture, and a file of the user's; one server never got that far
    assert line.endswith(" in 1 file, 2 tools. 1 input could not be read, 1 server could not be probed.")


def test_files_of_several_kinds_get_one_clause_and_the_json_says_why(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tool = json.loads(BARE)["tools"][0]
    (tmp_path / "a.json").write_text(json.dumps({"tools": [{**tool, "execution": {"taskSupport": "optional"}}]}))
    (tmp_path / "b.json").write_text(json.dumps({"tools": [{**tool, "execution": {"taskSupport": "optional"}}]}))
    (tmp_path / "c.json").write_text(json.dumps({"tools": [{**tool, "annotations": {"readOnlyHint": True}}]}))
    line = last_line(run("scan", "--no-config", "a.json", "b.json", "c.json"))
    assert ("(the 3 files that name no version were each checked under the versions their content fits: "
            "2025-11-25 (2 files), 2025-03-26 to 2026-07-28 (1 file); a finding that holds under only some of "
            "them is one step less severe; --protocol-version to choose).") in line, line
    summary = json.loads(run("scan", "--no-config", "--format", "json", "a.json", "b.json", "c.json").stdout)["summary"]
    assert summary["assumed_versions"] == [
        {"versions": ["2025-11-25"], "why": "its tools have execution (2025-11-25 only)", "files": 2},
        {"versions": ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"],
         "why": "its tools have annotations (from 2025-03-26)", "files": 1}]
    # files of one kind keep the sentence, in the plural
    line = last_line(run("scan", "--no-config", "a.json", "b.json"))
    assert "(checked as protocol 2025-11-25: the files name no version, and their tools have execution" in line, line
