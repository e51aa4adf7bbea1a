"""The Action's ``probe-from`` input: every server of a client's configuration probed (real
servers from tests/probe_servers, one of which cannot start), the captures saved under
``snapshot`` and linted with the client's profile; findings, input errors and exit code as
``mcplint probe --from`` gives them."""

from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from mcplint.cli import main
from .common import outputs
from conftest import STDIO

PY = sys.executable


def write_config(ws, tag):  # noqa: F811
    cfg = ws / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {
        "catalogue": {"command": PY, "args": [STDIO, "--only-in", "2025-06-18", "--tag", tag]},
        "modern": {"command": PY, "args": [STDIO, "--modern", "--dup-key", "--tag", tag]},
        "gone": {"command": str(ws / "no-such-server")},
    }}, indent=2))
    return cfg


def test_action_probe_from_agrees_with_probe_from(runner, tag, capsys):  # noqa: F811
    run, files, ws = runner
    (ws / ".mcplint.yaml").write_text("fail-on: error\n")
    write_config(ws, tag)
    want = CliRunner().invoke(main, ["probe", "--format", "json", "--from", ".mcp.json"], catch_exceptions=False)
    want_findings = json.loads(want.stdout)["findings"]
    assert run(probe_from=".mcp.json", sarif="out.sarif") == want.exit_code == 2
    out = capsys.readouterr().out
    assert "::group::mcplint probe --save mcp-tools --env-expansion allowed --from .mcp.json" in out
    cfg_line = next(i for i, t in enumerate((ws / ".mcp.json").read_text().splitlines(), 1) if "no-such-server" in t)
    assert out.count("server 'gone'") == 1  # one annotation, at the server in the configuration
    assert f"::error file=.mcp.json,line={cfg_line},col=" in out and "title=mcplint probe error::server 'gone'" in out
    assert "::error file=mcp-tools/modern.json," in out  # annotations point at the saved captures
    sarif = json.loads((ws / "out.sarif").read_text())
    got = [{"rule": r["ruleId"], "file": r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]}
           for r in sarif["runs"][0]["results"]]
    assert len(got) == len(want_findings)
    assert {g["file"] for g in got} == {"mcp-tools/catalogue.json", "mcp-tools/modern.json"}
    assert sorted(g["rule"] for g in got) == sorted(f["rule"] for f in want_findings)
    o = outputs(files["output"])
    assert o["exit-code"] == "2" and int(o["findings"]) == len(want_findings)
    assert int(o["errors"]) == json.loads(want.stdout)["summary"]["errors"]
    summary = files["summary"].read_text()
    assert "in 2 files, 5 tools. 1 server could not be probed." in summary
    assert "claude-code" in summary  # the client's profile

    # one server, by name, and a profile of our choosing: the probe's findings, exit 1 (DOC001 is an error)
    want = CliRunner().invoke(main, ["probe", "--format", "json", "--profile", "openai-strict", "--from", ".mcp.json",
                                     "--server", "modern"], catch_exceptions=False)
    files["output"].write_text("")
    assert run(probe_from=".mcp.json", probe_servers="modern", profiles="openai-strict", snapshot="snap/{server}.json",
               sarif="") == want.exit_code == 1
    capsys.readouterr()
    assert sorted(p.name for p in (ws / "snap").iterdir()) == ["modern.json"]
    assert int(outputs(files["output"])["findings"]) == len(json.loads(want.stdout)["findings"])


def test_action_probe_from_refusals(runner, capsys):  # noqa: F811
    run, files, ws = runner
    assert run(probe_from=".mcp.json", probe_command="python s.py") == 2
    assert "not both" in capsys.readouterr().out
    assert outputs(files["output"])["exit-code"] == "2"
    run(probe_command="", probe_from="missing.json")
    out = capsys.readouterr().out
    assert "could not probe the servers of `missing.json`" in out and "missing.json" in files["summary"].read_text()
    assert run(probe_from="", probe_servers="x", paths="mcp/") == 2
    assert "`probe-servers` goes with `probe-from`" in capsys.readouterr().out


def test_action_input_errors_are_annotated_once(runner, capsys):  # noqa: F811
    run, files, ws = runner
    (ws / "mcp" / "broken.tools.json").write_text('{"tools": [\n')
    assert run(paths="mcp/") == 2
    out = capsys.readouterr().out
    assert out.count("broken.tools.json") == 1 and "::error file=mcp/broken.tools.json,line=" in out
    assert run(paths="mcp/", annotations="false") == 2  # no annotations: the input error alone is
    out = capsys.readouterr().out
    assert out.count("broken.tools.json") == 1 and "::error title=mcplint input error::mcp/broken.tools.json" in out
