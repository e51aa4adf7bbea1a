"""The ``mcplint-probe`` hook with ``--from CONFIG``: it probes every server of a client's
configuration with ``--save``, then scans what was saved; its findings, input errors and exit
code are those of ``mcplint probe --from CONFIG``. Real servers (tests/probe_servers), started
from the configuration file, one of which cannot start."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from mcplint import precommit
from mcplint.cli import main
from conftest import STDIO

PY = sys.executable


def config(tmp_path, tag, missing=True, extra=None):  # noqa: F811
    cfg = tmp_path / ".mcp.json"
    servers = {
        "catalogue": {"command": PY, "args": [STDIO, "--only-in", "2025-06-18", "--tag", tag]},
        "modern": {"command": PY, "args": [STDIO, "--modern", "--dup-key", "--tag", tag]},
        **({"gone": {"command": str(tmp_path / "no-such-server")}} if missing else {}),
        **(extra or {}),
    }
    cfg.write_text(json.dumps({"mcpServers": servers}, indent=2))
    return cfg


def comparable(findings) -> list:
    """A finding as both reports give it, without the file (``<probe NAME>`` for the probe,
    the saved capture for the hook)."""
    keys = ("rule", "tool", "line", "column", "pointer", "message", "protocol_version", "profile")
    return sorted(tuple(str(f[k]) for k in keys) for f in findings)


def probe_from(*args):
    r = CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", *args], catch_exceptions=False)
    return r.exit_code, json.loads(r.stdout)


def hook(capsys, *args):
    code = precommit.main(["--no-config", "--format", "json", *args])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


@pytest.mark.slow
def test_hook_from_config_agrees_with_probe_from(tmp_path, tag, capsys, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    cfg = config(tmp_path, tag)
    want_code, want = probe_from("--from", str(cfg))
    code, got, err = hook(capsys, "--from", str(cfg))
    assert want_code == 2 and code == 2  # one server could not be started: an input error, as probe --from says
    assert comparable(got["findings"]) == comparable(want["findings"])
    assert {f["rule"] for f in got["findings"]} >= {"PRB102", "DOC001"}  # both servers were linted
    # every saved capture is what was scanned, in the configuration's order; the client's profile was used
    assert {f["file"] for f in got["findings"]} == {"mcp-tools/catalogue.json", "mcp-tools/modern.json"}
    assert {f["profile"] for f in want["findings"]} == {f["profile"] for f in got["findings"]}
    assert [s["profiles"] for s in want["summary"]["servers"]] == [["claude-code"]] * 3
    assert got["errors"] == want["errors"]
    assert len(got["errors"]) == 1 and "server 'gone'" in got["errors"][0]["message"]
    line = next(i for i, t in enumerate(cfg.read_text().splitlines(), 1) if "no-such-server" in t)
    assert got["errors"][0]["file"] == str(cfg) and got["errors"][0]["line"] == line  # at its command
    assert "server 'gone'" in err and "command not found" in err
    assert got["summary"]["tools"] == want["summary"]["tools"] == 5
    assert not (tmp_path / "mcp-tools" / "gone.json").exists()

    # without the server that cannot start, both exit by the findings
    cfg = config(tmp_path, tag, missing=False)
    for fail_on, expected in (("error", 1), ("info", 1)):  # DOC001 is an error
        want_code, want = probe_from("--fail-on", fail_on, "--from", str(cfg))
        code, got, _ = hook(capsys, "--fail-on", fail_on, "--from", str(cfg))
        assert code == want_code == expected
        assert comparable(got["findings"]) == comparable(want["findings"])
    want_code, want = probe_from("--ignore", "DOC001", "--fail-on", "warning", "--from", str(cfg), "--server",
                                 "modern")
    code, got, _ = hook(capsys, "--ignore", "DOC001", "--fail-on", "warning", "--from", str(cfg), "--server", "modern")
    assert code == want_code == 0 and comparable(got["findings"]) == comparable(want["findings"])
    assert {f["severity"] for f in got["findings"]} == {"info"}  # MCP105 under 2024-11-05 only


def test_hook_from_config_template_profile_and_a_server_with_nothing_saved(tmp_path, tag, capsys,  # noqa: F811
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = config(tmp_path, tag, extra={"no-list": {"command": PY, "args": [STDIO, "--list-not-found", "--tag", tag]}})
    want_code, want = probe_from("--profile", "openai-strict", "--from", str(cfg), "--server", "catalogue",
                                 "--server", "no-list", "--server", "gone")
    code, got, _ = hook(capsys, "--profile", "openai-strict", "--save", "snap/{server}.mcp.json", "--from", str(cfg),
                        "--server", "catalogue", "--server", "no-list", "--server", "gone")
    assert code == want_code == 2
    assert comparable(got["findings"]) == comparable(want["findings"])
    # the server that listed nothing has no capture: its findings (PRB106) come from the probe
    assert {f["file"] for f in got["findings"]} == {"snap/catalogue.mcp.json", "<probe no-list>"}
    assert "PRB106" in {f["rule"] for f in got["findings"]}
    assert sorted(p.name for p in (tmp_path / "snap").iterdir()) == ["catalogue.mcp.json"]
    assert {f["profile"] for f in got["findings"]} - {None} <= {"openai-strict"}
    assert got["errors"] == want["errors"] and len(got["errors"]) == 1


def test_hook_from_config_where_no_server_starts(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"gone": {"command": str(tmp_path / "nothing")}}}))
    code, got, err = hook(capsys, "--from", str(cfg))
    assert code == 2 and got["findings"] == [] and "server 'gone'" in got["errors"][0]["message"]
    # a configuration that cannot be used at all: the probe's own message
    assert precommit.main(["--no-config", "--from", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
    assert precommit.main(["--no-config", "--from", str(cfg), "--server", "nope"]) == 2
    assert "no server named 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["--from", "a.json", "--", "python", "s.py"], "not both"),
    ([], "no server"),
    (["--server", "x", "--", "python", "s.py"], "--server go with --from"),
    (["--no-config", "--server", "x", "--", "python", "s.py"], "--server go with --from"),  # after a flag too
    (["--no-config", "--jobs", "2", "--", "python", "s.py"], "--jobs go with --from"),
    (["--from"], "--from needs a value"),
])
def test_hook_refuses_mixed_arguments(argv, message, capsys):
    assert precommit.main(argv) == 2
    assert message in capsys.readouterr().err


def test_parse_sorts_options_for_probe_and_scan():
    a = precommit.parse(["--from=c.json", "--server", "s", "--protocol-version", "2025-06-18", "--no-config",
                         "--select", "MCP", "--timeout", "5", "--save", "d/"])
    assert (a.config_file, a.save) == ("c.json", "d/")
    assert a.probe == ["--server", "s", "--protocol-version", "2025-06-18", "--no-config", "--timeout", "5"]
    assert a.scan == ["--protocol-version", "2025-06-18", "--no-config", "--select", "MCP"]
    assert precommit.parse(["--from", "c.json"]).save == "mcp-tools"
    assert precommit.parse(["--", "node", "s.js"]).save == "mcp-tools.json"


def test_options_after_the_server_command_are_named(tmp_path, capsys, monkeypatch):
    """`--` is required in the hook, so an mcplint option after the server command always goes to
    the server: the hook says which (and probe --from, which takes no command, names it too)."""
    monkeypatch.chdir(tmp_path)
    server = [PY, STDIO]  # a real server, which refuses arguments it does not know
    assert precommit.main(["--no-config", "--", *server, "--select", "PRB", "--fail-on=warning"]) == 2
    err = capsys.readouterr().err
    assert "'--select', '--fail-on=warning' after `--` go to the server, not to mcplint" in err
    assert "unrecognized arguments: --select PRB --fail-on=warning" in err  # what the server said
    assert precommit.main(["--no-config", "--select", "PRB", "--", *server, "--legacy", "2025-06-18"]) == 0
    assert "after `--`" not in capsys.readouterr().err  # the server's own options: no warning

    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"s": {"command": PY, "args": [STDIO]}}}))
    r = CliRunner().invoke(main, ["probe", "--from", str(cfg), "extra", "--format", "json", "--select", "PRB"])
    assert r.exit_code == 2 and "give no COMMAND" in r.output
    assert "(got 'extra'; '--format', '--select' after it were taken as part of it, not as mcplint's" in r.output


def test_hook_from_a_vscode_configuration_uses_its_profile(tmp_path, tag, capsys, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".vscode").mkdir()
    cfg = tmp_path / ".vscode" / "mcp.json"
    cfg.write_text('{\n  // this workspace\'s servers\n  "servers": {\n'
                   f'    "local": {{"type": "stdio", "command": {json.dumps(PY)}, '
                   f'"args": [{json.dumps(STDIO)}, "--jstruct", "--tag", "{tag}"]}},\n  }}\n}}\n')
    want_code, want = probe_from("--from", str(cfg))
    code, got, _ = hook(capsys, "--from", str(cfg))
    assert code == want_code and comparable(got["findings"]) == comparable(want["findings"])
    assert want["summary"]["servers"][0]["profiles"] == ["vscode-copilot"]
    assert precommit.main(["--no-config", "--from", str(cfg)]) == code
    table = capsys.readouterr().out.split("Decoder profiles", 1)[1]
    assert table.split("\n")[1].split()[0] == "vscode-copilot"  # the scan of the captures was checked against it
