"""One verdict for one server: ``mcplint probe``, ``mcplint scan`` of the file ``probe --save``
wrote, the ``mcplint-probe`` pre-commit hook and the GitHub Action (which probe, then scan)
give the same findings and the same exit code, on real servers: the official Python SDK,
FastMCP, the test server with a different list per version, and, when it is installed
(``MCPLINT_TEST_NODE_MODULES`` names a ``node_modules`` holding
``@modelcontextprotocol/server-everything``; nothing is fetched), the TypeScript SDK's
server-everything."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

SERVERS = Path(__file__).parent.parent / "probe_servers"


def _everything() -> list[str] | None:
    root = os.environ.get("MCPLINT_TEST_NODE_MODULES")
    entry = Path(root or "/nonexistent") / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
    if not root or not entry.is_file() or not shutil.which("node"):
        return None
    return ["node", str(entry), "stdio"]


def _servers():
    yield pytest.param([sys.executable, str(SERVERS / "sdk_server.py")], "mcp.server.mcpserver", id="official-sdk")
    yield pytest.param([sys.executable, str(SERVERS / "fastmcp_server.py")], "fastmcp", id="fastmcp")
    yield pytest.param([sys.executable, str(SERVERS / "stdio_server.py"), "--modern", "--only-in", "2025-06-18"],
                       None, id="list-per-version")
    yield pytest.param(_everything(), None, id="ts-sdk-server-everything",
                       marks=pytest.mark.skipif(_everything() is None, reason="server-everything not installed "
                                                "(set MCPLINT_TEST_NODE_MODULES)"))


def _key(f: dict) -> tuple:
    return (f["rule"], f["severity"], f["line"], f["column"], f["pointer"], f["tool"], f["protocol_version"],
            f["message"])


@pytest.mark.slow
@pytest.mark.parametrize("command,module", _servers())
def test_probe_snapshot_hook_and_action_agree(command, module, tmp_path, monkeypatch):
    if module:
        pytest.importorskip(module)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".mcplint.yaml").write_text("{}\n")  # no configuration from above tmp_path
    run = CliRunner().invoke
    probed = run(main, ["probe", "--no-config", "--format", "json", "--save", "snap.json", "--", *command],
                 catch_exceptions=False)
    assert probed.exit_code in (0, 1), probed.output
    want = sorted(_key(f) for f in json.loads(probed.stdout)["findings"])
    summary = json.loads(probed.stdout)["summary"]
    assert summary["files"] == 1  # one server, one capture document, saved
    assert [(s["status"], s["saved"], s["tools"]) for s in summary.pop("servers")] == [
        ("probed", "snap.json", summary["tools"])]  # (scan reads a file, and names no server)

    scanned = run(main, ["scan", "--no-config", "--format", "json", "snap.json"], catch_exceptions=False)
    assert scanned.exit_code == probed.exit_code
    assert sorted(_key(f) for f in json.loads(scanned.stdout)["findings"]) == want
    assert json.loads(scanned.stdout)["summary"] == summary

    # the pre-commit hook: probe --save, then scan with the hook's options
    from mcplint import precommit

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = precommit.main(["--save", "hook.json", "--no-config", "--format", "json", "--", *command])
    assert code == probed.exit_code
    assert sorted(_key(f) for f in json.loads(out.getvalue())["findings"]) == want

    # the Action: probe to its snapshot, then one lint run feeding annotations and outputs
    from mcplint import action

    for k in [k for k in os.environ if k.startswith("MCPLINT_")]:
        monkeypatch.delenv(k)
    monkeypatch.setenv("MCPLINT_PROBE_COMMAND", " ".join(command))
    monkeypatch.setenv("MCPLINT_SNAPSHOT", "action.json")
    monkeypatch.setenv("MCPLINT_SUMMARY", "false")
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "out.txt"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = action.main()
    assert code == probed.exit_code
    outputs = dict(line.split("=", 1) for line in (tmp_path / "out.txt").read_text().splitlines())
    assert int(outputs["findings"]) == len(want)
    assert int(outputs["errors"]) == summary["errors"] and int(outputs["infos"]) == summary["infos"]
    notes = sorted(line.split("title=", 1)[1].split(" ", 1)[0] for line in out.getvalue().splitlines()
                   if line.startswith(("::error file=", "::warning file=", "::notice file=")))
    # every finding annotated, but information: one notice per rule (one file here), with its count
    assert notes == sorted([k[0] for k in want if k[1] != "info"] + list({k[0] for k in want if k[1] == "info"}))
    # the three snapshots are the same document, but for what differs from run to run
    assert Path("hook.json").read_text().count('"protocolVersions"') == Path("snap.json").read_text().count(
        '"protocolVersions"')


@pytest.mark.slow
def test_official_sdk_quickstart_has_no_error(tmp_path):
    """The SDK's own quickstart (MCPServer("Demo"), one add tool) sends one list to every
    version: the members older versions lack are information, and the probe passes."""
    pytest.importorskip("mcp.server.mcpserver")
    demo = tmp_path / "demo.py"
    demo.write_text('from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("Demo")\n\n\n'
                    '@mcp.tool()\ndef add(a: int, b: int) -> int:\n    """Add two numbers"""\n    return a + b\n\n\n'
                    'if __name__ == "__main__":\n    mcp.run()\n')
    r = CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", "--", sys.executable, str(demo)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["summary"]["errors"] == 0 and data["summary"]["tools"] == 1
    (f,) = [f for f in data["findings"] if f["rule"] == "MCP105"]
    assert f["severity"] == "info" and f["protocol_version"] == "2024-11-05,2025-03-26"
    assert "'outputSchema'" in f["message"] and "drops it" in f["message"]
    # probed under 2025-03-26 alone, nothing shows that the list is shared: the error stands
    r = CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", "--protocol-version", "2025-03-26",
                                  "--", sys.executable, str(demo)], catch_exceptions=False)
    assert r.exit_code == 1
    assert [f["severity"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "MCP105"] == ["error"]


def test_a_probe_says_where_the_schemas_came_from_and_how_to_place_their_findings():
    """A capture whose schemas show what wrote them points at the source-level run: the TypeScript
    SDK's zod output at --source-dir, the Python SDK's type-hint models at `mcplint scan FILE.py`."""
    from mcplint.load import load_text
    from mcplint.probe.run import source_hint

    data = Path(__file__).parent.parent / "data"
    zod = (data / "zod-capture" / "server.capture.json").read_text()
    assert "--source-dir DIR" in source_hint(load_text(zod, "c.json", "json"))
    time_server = (data / "corpus" / "time.tools.json").read_text()  # mcp-server-time, titled ...Arguments
    hint = source_hint(load_text(time_server, "t.json", "json"), "server/time.py")
    assert "`mcplint scan server/time.py`" in hint and "pydantic's words" in hint
    everything = (data / "corpus" / "everything.tools.json").read_text()  # server-everything: zod
    assert "--source-dir DIR" in source_hint(load_text(everything, "e.json", "json"))
    fastmcp = (data / "corpus" / "fastmcp-realistic.tools.json").read_text()  # fastmcp 4: untitled, _meta.fastmcp
    assert "`mcplint scan server.py`" in source_hint(load_text(fastmcp, "f.json", "json"))
    notion = (data / "corpus" / "notion.tools.json").read_text()  # hand-written JSON Schema
    assert source_hint(load_text(notion, "n.json", "json")) is None


@pytest.mark.slow
def test_a_probe_of_a_python_sdk_server_with_errors_names_its_file(tmp_path):
    pytest.importorskip("mcp.server.mcpserver")
    demo = tmp_path / "demo.py"
    demo.write_text('from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("Demo")\n\n\n'
                    '@mcp.tool()\ndef add(a: int, b: int = 2) -> int:\n    """Add two numbers"""\n    return a + b\n\n\n'
                    'if __name__ == "__main__":\n    mcp.run()\n')
    server = ["--", sys.executable, str(demo)]
    args = ["probe", "--no-config", "--protocol-version", "2025-11-25"]
    r = CliRunner().invoke(main, [*args, "--profile", "openai-strict", *server], catch_exceptions=False)
    assert r.exit_code == 1 and f"`mcplint scan {demo}` puts each finding on the line of Python" in r.stderr
    r = CliRunner().invoke(main, [*args, *server], catch_exceptions=False)  # information only: no hint
    assert "mcplint scan" not in r.stderr


def test_unsaved_probe_reports_point_at_no_file(tmp_path, monkeypatch):
    """Without --save the capture is nowhere on disk: SARIF has logical locations only, and
    GitHub annotations carry no file (with --save, both point into the saved file)."""
    monkeypatch.chdir(tmp_path)
    server = ["--", sys.executable, str(SERVERS / "stdio_server.py"), "--only-in", "2025-06-18"]
    r = CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", "--format", "sarif", *server],
                           catch_exceptions=False)
    (res,) = json.loads(r.stdout)["runs"][0]["results"]
    assert res["ruleId"] == "PRB102"
    assert res["locations"] == [{"logicalLocations": [{"fullyQualifiedName": "/captures/1/result/tools/2/name",
                                                       "kind": "member"}]}]
    assert res["properties"]["capture"].startswith("<probe ")
    r = CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", "--format", "github", *server],
                           catch_exceptions=False)
    (line,) = r.stdout.splitlines()
    assert line.startswith("::warning title=PRB102 ") and "file=" not in line.split("::")[1]
    r = CliRunner().invoke(main, ["probe", "--no-config", "--select", "PRB", "--format", "github", "--save", "s.json",
                                  *server], catch_exceptions=False)
    assert r.stdout.startswith("::warning file=s.json,line=")
