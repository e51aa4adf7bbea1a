"""``mcplint probe`` against real servers: small stdio and HTTP servers written with the
standard library (tests/probe_servers/), hostile ones, and a server built with the official
MCP Python SDK. Nothing on the wire is mocked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import PROBE_SERVERS, survivors
from mcplint.cli import main

from .common import ROOT, STDIO, findings, probe, rules  # noqa: F401 (ROOT: for the tests below)


# -- a well-behaved server ------------------------------------------------------------------

def test_every_version_is_discovered_and_probed(tag):
    r = probe("--format", "json", server=["--modern", "--tag", tag])
    assert r.exit_code == 0, r.output
    assert "captured under 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28" in r.stderr
    data = json.loads(r.stdout)
    assert data["findings"] == []
    # legacy results are identical text and linted once; the modern one adds caching hints: two
    # captures in one capture document, and the server's 2 tools are counted once
    assert data["summary"]["tools"] == 2
    # one server, and no file: the capture was not saved
    assert data["summary"]["files"] == 0 and [s["tools"] for s in data["summary"]["servers"]] == [2]


def test_versions_the_server_does_not_speak_are_reported_not_probed(tag):
    r = probe("--format", "json", server=["--legacy", "2025-03-26,2025-06-18", "--tag", tag])
    assert r.exit_code == 0, r.output
    assert "captured under 2025-03-26, 2025-06-18" in r.stderr
    assert "2025-11-25 (initialize answered protocolVersion '2025-06-18')" in r.stderr
    assert "2026-07-28" in r.stderr.split("not supported")[1]


def test_legacy_server_that_dies_on_discover_is_probed_on_fresh_processes(tag):
    r = probe("--format", "json", server=["--die-before-init", "--tag", tag])
    assert r.exit_code == 0, r.output
    assert "captured under 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25" in r.stderr
    assert "2026-07-28 (the server died on server/discover (the server exited with code 1" in r.stderr


@pytest.mark.slow
def test_legacy_server_silent_on_discover(tag):
    r = probe("--format", "json", "--timeout", "1", server=["--ignore-discover", "--tag", tag])
    assert r.exit_code == 0, r.output
    assert "2026-07-28 (no answer to server/discover)" in r.stderr


def test_modern_only_server(tag):
    r = probe("--format", "json", server=["--modern", "--legacy", "", "--tag", tag])
    assert r.exit_code == 0, r.output
    assert "captured under 2026-07-28\n" in r.stderr
    assert "2025-11-25 (initialize error -32022: 'Unsupported protocol version')" in r.stderr


def test_protocol_version_option_limits_the_probe(tag):
    r = probe("--protocol-version", "2025-06-18", server=["--modern", "--tag", tag])
    assert r.exit_code == 0
    assert "captured under 2025-06-18\n" in r.stderr


def test_findings_point_into_the_capture_and_name_their_version(tag, tmp_path):
    saved = tmp_path / "tools.json"
    r = probe("--format", "json", "--save", str(saved), server=["--only-in", "2025-06-18", "--tag", tag])
    assert r.exit_code == 0, r.output  # PRB102 is a warning
    (f,) = [f for f in findings(r) if f["rule"] == "PRB102"]
    # 2025-06-18 got a list of its own: the second capture of the saved file
    assert f["pointer"] == "/captures/1/result/tools/2/name" and f["protocol_version"] == "2025-06-18"
    assert f["file"] == str(saved)
    assert "not listed under 2024-11-05, 2025-03-26, 2025-11-25" in f["message"]
    # the saved file records every version, each list as the server sent it
    import stdio_server

    caps = json.loads(saved.read_text())["captures"]
    assert [c["protocolVersions"] for c in caps] == [["2024-11-05", "2025-03-26", "2025-11-25"], ["2025-06-18"]]
    assert caps[0]["result"] == {"tools": [stdio_server.SEARCH, stdio_server.DELETE]}
    assert [t["name"] for t in caps[1]["result"]["tools"]] == ["search", "delete_all", "beta"]
    assert caps[1]["transcripts"]["2025-06-18"]["handshake"]["method"] == "initialize"
    again = CliRunner().invoke(main, ["scan", "--no-config", "--select", "PRB", "--format", "json", str(saved)])
    assert again.exit_code == r.exit_code and findings(again) == findings(r)  # one verdict


def test_findings_on_the_saved_capture_have_its_line_and_column(tag, tmp_path):
    saved = tmp_path / "tools.json"
    r = probe("--format", "json", "--save", str(saved), server=["--jstruct", "--page-size", "2", "--tag", tag])
    (f,) = [f for f in findings(r) if f["rule"] == "PRB109"]
    assert f["file"] == str(saved) and f["pointer"] == "/captures/0/result/tools/2/inputSchema/$schema"
    line = saved.read_text().splitlines()[f["line"] - 1]
    assert line[f["column"] - 1:].startswith('"$schema": "https://json-structure.org/meta/core/v0/#"')


def test_every_rule_family_sees_the_raw_wire(tag):
    """A duplicate key survives from the wire to the rules (a parsed model would drop it)."""
    r = probe("--format", "json", "--protocol-version", "2025-11-25", select=None, server=["--dup-key", "--tag", tag])
    dup = [f for f in findings(r) if f["rule"] == "DOC001"]
    assert [(f["pointer"], f["tool"], f["protocol_version"]) for f in dup] == [
        ("/captures/0/result/tools/0/inputSchema/type", "search", "2025-11-25")]


# -- protocol behaviour findings --------------------------------------------------------------

def test_all_pages_are_fetched(tag):
    r = probe("--format", "json", server=["--modern", "--jstruct", "--page-size", "1", "--tag", tag])
    assert json.loads(r.stdout)["summary"]["tools"] == 3  # 3 tools (in 2 captures), fetched one per page
    assert rules(r) == {"PRB109", "PRB114"}  # JSON Structure to a plain client, extension not advertised


def test_cursor_loop_is_detected_and_bounded(tag):
    r = probe("--format", "json", "--timeout", "5", server=["--modern", "--cursor-loop", "--page-size", "1", "--tag", tag])
    assert r.exit_code == 1
    assert {"PRB103", "PRB105"} <= rules(r)


def test_duplicate_names_across_pages(tag):
    r = probe("--format", "json", server=["--dup-across-pages", "--page-size", "1", "--tag", tag])
    assert [(f["rule"], f["pointer"]) for f in findings(r)] == [("PRB105", "/captures/0/result/tools/2/name")]


def test_stdout_logging_is_a_finding_not_a_crash(tag):
    r = probe("--format", "json", server=["--noise", "--tag", tag])
    assert r.exit_code == 1
    assert rules(r) == {"PRB101"}
    assert any("INFO handling initialize" in f["message"] for f in findings(r))


def test_stdout_flood_is_counted_not_stored(tag):
    r = probe("--format", "json", "--protocol-version", "2025-11-25", server=["--stdout-flood", "20000", "--tag", tag])
    assert r.exit_code == 1, r.output
    (f,) = findings(r)
    assert f["rule"] == "PRB101" and "40000 lines" in f["message"]


def test_tools_list_error(tag):
    r = probe("--format", "json", server=["--list-error", "--modern", "--tag", tag])
    assert r.exit_code == 1 and rules(r) == {"PRB106"}


def test_server_without_tools_is_reported_as_such_and_nothing_is_saved(tag, tmp_path):
    """No tools capability and -32601 for tools/list: what happened is said (a warning: the spec
    asks exactly that of a server without tools), nothing about a result that was never sent
    (no MCP128 on a made-up empty list), and --save writes nothing."""
    saved = tmp_path / "tools.json"
    r = probe("--format", "json", "--save", str(saved), select=None, server=["--no-tools-cap", "--list-not-found", "--modern", "--tag", tag])
    assert r.exit_code == 0, r.output
    got = findings(r)
    assert [(f["rule"], f["severity"]) for f in got] == [("PRB106", "warning")]
    assert "declares no tools capability" in got[0]["message"] and "-32601" in got[0]["message"]
    assert got[0]["file"].startswith("<probe ") and got[0]["pointer"] == "/captures/0"  # the capture without a result
    assert not saved.exists()
    assert "nothing saved" in r.stderr and "no tools/list result under" in r.stderr


def test_method_not_found_despite_the_tools_capability_is_an_error(tag):
    r = probe("--format", "json", "--protocol-version", "2025-11-25", select=None,
              server=["--list-not-found", "--tag", tag])
    assert r.exit_code == 1
    (f,) = findings(r)
    assert (f["rule"], f["severity"]) == ("PRB106", "error")
    assert "-32601" in f["message"] and "although the server declares the tools capability" in f["message"]


def test_tools_list_input_required_is_a_finding(tag, tmp_path):
    saved = tmp_path / "tools.json"
    r = probe("--format", "json", "--save", str(saved), select=None,
              server=["--list-input-required", "--modern", "--tag", tag])
    assert r.exit_code == 1, r.output
    got = [f for f in findings(r) if f["protocol_version"] == "2026-07-28"]
    assert [f["rule"] for f in got] == ["PRB106"]
    assert "resultType 'input_required'" in got[0]["message"]
    # the legacy versions got a complete list; 2026-07-28 got none: its capture has no result
    caps = {tuple(c["protocolVersions"]): c["result"] for c in json.loads(saved.read_text())["captures"]}
    assert caps[("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")]["tools"][0]["name"] == "search"
    assert caps[("2026-07-28",)] is None
    assert "saved the capture" in r.stderr
    again = CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", str(saved)])
    assert again.exit_code == r.exit_code and findings(again) == findings(r)


def test_missing_tools_capability(tag):
    r = probe("--format", "json", server=["--no-tools-cap", "--modern", "--tag", tag])
    assert rules(r) == {"PRB107"}
    assert {f["protocol_version"] for f in findings(r)} == {"2024-11-05,2025-03-26,2025-06-18,2025-11-25", "2026-07-28"}


def test_call_only_read_only_tools_by_default(tag):
    r = probe("--format", "json", server=["--accept-invalid", "--tag", tag])
    assert rules(r) == set()  # no --call: nothing is called
    r = probe("--format", "json", "--call", server=["--accept-invalid", "--tag", tag])
    assert [(f["rule"], f["tool"]) for f in findings(r)] == [("PRB111", "search")]
    r = probe("--format", "json", "--call-all", server=["--accept-invalid", "--tag", tag])
    assert sorted(f["tool"] for f in findings(r)) == ["delete_all", "search"]


def test_a_server_that_rejects_invalid_calls_passes(tag):
    r = probe("--format", "json", "--call-all", server=["--modern", "--tag", tag])
    assert r.exit_code == 0 and findings(r) == []


# -- hostile servers: a clear error, exit 2, no survivors ---------------------------------------

# Only the hang needs a short request timeout; the others end on their own, and a generous
# timeout keeps them from racing a busy machine (writing 50 MB can take over a second).
@pytest.mark.parametrize("flags, needle, timeout", [
    (["--hang"], "no response to server/discover, nor to initialize (2025-11-25) within 1s (--startup-timeout;", "1"),
    (["--garbage"], "non-JSON line(s) to stdout, the first: '\\x00\\x01 garbage", "1"),
    (["--bigline", "50"], "a line of more than 10485760 bytes to stdout", "10"),
    (["--crash"], "exited with code 3 while mcplint was waiting for the answer to tools/list page 1", "10"),
    (["--early-exit"], "fatal: missing configuration file config.toml", "10"),
])
@pytest.mark.slow
def test_hostile_server(flags, needle, timeout, tag):
    r = probe("--timeout", timeout, server=[*flags, "--tag", tag])
    assert r.exit_code == 2, r.output
    assert needle in r.stderr  # (for the hang: it gave up at its timeout, which the error names)
    assert "Traceback" not in r.output
    assert not survivors(tag), "the probe returned before it had ended the server"


def test_a_python_file_that_never_starts_its_server_is_pointed_at_scan(tmp_path):
    """The SDK README's quickstart defines a server and never runs it (it is meant for `mcp dev`):
    started as `python FILE.py`, it ends at once with status 0. The error says so and names the
    command that reads its tools without running it; a command that is no Python file gets no such hint."""
    script = tmp_path / "quickstart.py"
    script.write_text("server = object()  # defined, never run\n")
    argv = ["probe", "--no-config", "--protocol-version", "2025-11-25", "--"]
    r = CliRunner().invoke(main, argv + [sys.executable, str(script)], catch_exceptions=False)
    assert r.exit_code == 2 and "exited with code 0" in r.stderr
    assert f"`mcplint scan {script}` lints the tools it defines without running it" in r.stderr
    r = CliRunner().invoke(main, argv + [sys.executable, "-c", "pass"], catch_exceptions=False)
    assert r.exit_code == 2 and "exited with code 0" in r.stderr and "mcplint scan" not in r.stderr


def test_stderr_flood_does_not_block_or_exhaust(tag):
    r = probe("--format", "json", server=["--stderr-flood", "--tag", tag])
    assert r.exit_code == 0 and findings(r) == []


@pytest.mark.slow
def test_server_that_never_exits_is_killed_and_reported(tag):
    r = probe("--format", "json", server=["--never-exit", "--tag", tag])
    assert rules(r) == {"PRB113"}
    assert not survivors(tag), "the server that ignored SIGTERM still runs after the probe"


def test_grandchildren_die_with_the_server(tag, tmp_path):
    pidfile = tmp_path / "child.pid"
    r = probe("--protocol-version", "2025-11-25", server=["--spawn-child", str(pidfile), "--tag", tag])
    assert r.exit_code == 0
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        try:  # a zombie counts as gone
            if Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] == "Z":
                break
        except OSError:
            break
        time.sleep(0.05)
    else:
        assert not Path(f"/proc/{pid}").exists(), "the server's child survived"


def test_command_not_found():
    r = CliRunner().invoke(main, ["probe", "--no-config", "--", "no-such-mcp-server-xyz"])
    assert r.exit_code == 2 and "command not found: no-such-mcp-server-xyz" in r.stderr


def test_usage_needs_exactly_one_target():
    assert CliRunner().invoke(main, ["probe"]).exit_code == 2
    r = CliRunner().invoke(main, ["probe", "--url", "http://127.0.0.1:9/mcp", "--", "x"])
    assert r.exit_code == 2 and "either" in r.stderr


def test_env_is_added_and_secrets_are_never_echoed(tag):
    r = probe("--env", "MY_API_TOKEN=hunter2-secret-value",
              server=["--print-env", "MY_API_TOKEN", "--early-exit", "--tag", tag])
    assert r.exit_code == 2
    assert "MY_API_TOKEN=***" in r.stderr  # the server saw it; mcplint does not repeat it
    assert "hunter2-secret-value" not in r.output


@pytest.mark.slow
@pytest.mark.parametrize("sig, flag, procs", [
    (signal.SIGINT, "--hang", 6),  # during discovery: mcplint, the first server and one per legacy version
    (signal.SIGTERM, "--hang", 6),
    (signal.SIGINT, "--hang-init", 5),  # during the parallel handshakes: mcplint and four servers
])
def test_interrupt_kills_the_server(sig, flag, procs, tag):
    proc = subprocess.Popen([sys.executable, "-m", "mcplint", "probe", "--no-config", "--",
                             sys.executable, STDIO, "--modern", flag, "--tag", tag],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal sends it:
    # a job started in the background of a non-interactive shell inherits SIGINT ignored
    # (the first server of --hang-init lists its tools and ends while the handshakes hang: wait
    # until the count holds)
    # (a generous deadline: the loop ends as soon as the count holds, and a busy machine may take
    # long to start five interpreters)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if len(survivors(tag)) == procs:
            time.sleep(0.2)
            if len(survivors(tag)) == procs:
                break
        time.sleep(0.05)
    running = len(survivors(tag))
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert running == procs
    code = 130
    assert proc.returncode == code, err
    assert b"interrupted" in err and b"Traceback" not in err


# -- Streamable HTTP -------------------------------------------------------------------------

def test_http_every_version_with_sse_and_pagination(http_server):
    url = http_server("--modern", "--sse", "--page-size", "1", "--only-in", "2025-11-25")
    r = probe("--format", "json", "--call", url=url)
    assert r.exit_code == 0, r.output
    assert "captured under 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28" in r.stderr
    (f,) = findings(r)
    assert f["rule"] == "PRB102" and f["protocol_version"] == "2025-11-25"


def test_http_legacy_only_server_falls_back_to_initialize(http_server):
    r = probe("--format", "json", url=http_server("--legacy", "2025-06-18,2025-11-25"))
    assert r.exit_code == 0, r.output
    assert "captured under 2025-06-18, 2025-11-25" in r.stderr


def test_http_auth_header_and_redaction(http_server):
    url = http_server("--auth", "tok-123456789")
    r = probe(url=url)
    assert r.exit_code == 2 and "HTTP 401" in r.stderr and "--header" in r.stderr
    r = probe("--header", "Authorization: Bearer tok-123456789", url=url)
    assert r.exit_code == 0, r.output
    assert "tok-123456789" not in r.output


@pytest.mark.slow
def test_http_server_that_hangs(http_server):
    r = probe("--timeout", "1", url=http_server("--hang"))
    assert r.exit_code == 2 and "no HTTP response to initialize" in r.stderr, r.output
    assert "within 1s" in r.stderr, r.output  # it gave up at its --timeout, not when the server did


def test_http_server_that_answers_html(http_server):
    r = probe(url=http_server("--garbage"))
    assert r.exit_code == 2
    assert "supports none of the protocol versions" in r.stderr and "Welcome to nginx" in r.stderr


def test_http_redirect_within_the_origin_is_followed_and_said(http_server):
    """A Starlette mount answers /mcp with 307 to /mcp/: the probe follows it, as the SDKs' HTTP
    clients do, and says which URL to give clients."""
    url = http_server("--redirect", "307")
    r = probe("--format", "json", url=url)
    assert r.exit_code == 0, r.output
    assert "captured under 2024-11-05" in r.stderr
    assert f"redirects to {url}/ (HTTP 307): followed" in r.stderr
    plain = probe("--format", "json", url=url + "/")  # near miss: the endpoint itself, no redirect
    assert plain.exit_code == 0 and "redirects to" not in plain.stderr


@pytest.mark.parametrize("flags, says", [
    (("--redirect", "301"), "with HTTP 301, a redirect to {url}/ that turns the POST into a GET"),
    (("--redirect", "308", "--redirect-to", "http://127.0.0.2:9/mcp/"), "to http://127.0.0.2:9/mcp/ (HTTP 308), another origin"),
])
def test_http_redirect_a_client_cannot_follow_names_the_url_to_probe(http_server, flags, says):
    url = http_server(*flags)
    r = probe(url=url)
    assert r.exit_code == 2, r.output
    assert says.format(url=url) in r.stderr and "probe --url" in r.stderr
    assert "supports none of the protocol versions" not in r.stderr and "Traceback" not in r.output


def test_http_connection_refused():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = probe(url=f"http://127.0.0.1:{port}/mcp")
    assert r.exit_code == 2 and "connection refused" in r.stderr


# -- the official SDK ------------------------------------------------------------------------

@pytest.mark.slow
def test_official_sdk_server_end_to_end(tag, tmp_path):
    pytest.importorskip("mcp.server.mcpserver")
    saved = tmp_path / "sdk.json"
    r = CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", "--call", "--save", str(saved), "--",
                                  sys.executable, str(PROBE_SERVERS / "sdk_server.py"), tag], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output  # every rule family ran; what they say is theirs to test
    assert "captured under 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28" in r.stderr
    # it validates arguments: the invalid call to 'add' was rejected; no protocol problem either
    assert [f for f in findings(r) if f["rule"].startswith("PRB")] == []
    caps = json.loads(saved.read_text())["captures"]
    assert {v for c in caps for v in c["protocolVersions"]} == {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25",
                                                              "2026-07-28"}
    assert all(sorted(t["name"] for t in c["result"]["tools"]) == ["add", "shout"] for c in caps)


@pytest.mark.slow
def test_official_sdk_server_over_streamable_http(tag):
    pytest.importorskip("mcp.server.mcpserver")
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    server = subprocess.Popen([sys.executable, str(PROBE_SERVERS / "sdk_server.py"), "--http", str(port), tag],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        r = probe("--format", "json", "--call", url=f"http://127.0.0.1:{port}/mcp")
        assert r.exit_code == 0, r.output
        assert "captured under 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28" in r.stderr
        assert findings(r) == []
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def test_an_mcplint_option_after_the_command_without_dashdash_is_warned_about(tag):
    argv = ["probe", "--no-config", "--select", "PRB", sys.executable, STDIO, "--tag", tag, "--format", "json"]
    r = CliRunner().invoke(main, argv, catch_exceptions=False)
    assert "warning: '--format' after the server command is passed to the server" in r.stderr
    assert "'--tag'" not in r.stderr  # the server's own option is not one of mcplint's
    assert r.exit_code == 2 and "unrecognized arguments: --format json" in r.stderr  # the server got it
    r = CliRunner().invoke(main, argv[:4] + ["--"] + argv[4:], catch_exceptions=False)
    assert "warning" not in r.stderr  # `--` says the rest is the server's


def test_the_profile_table_has_a_row_for_every_profile_checked():
    """A profile with no finding on the server accepts every tool as-is: its row says so (it was
    left out of the probe's table, while a scan of the saved capture showed it)."""
    r = probe("--profile", "openai-strict", "--profile", "gemini", select=None)
    assert r.exit_code == 1, r.output
    table = r.stdout.split("Decoder profiles (2 tools):", 1)[1].split("\n\n", 1)[0]
    assert [line.split()[0] for line in table.strip().splitlines()] == ["gemini", "openai-strict"]
    assert "gemini         2 accepted as-is, 0 weakened, 0 rejected, 0 left out" in table
