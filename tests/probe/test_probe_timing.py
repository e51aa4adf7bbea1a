"""A verdict does not depend on how long a server takes to start. A server of each protocol
era is probed as it is and behind a wrapper that sleeps before it execs the server (as a cold
``npx -y`` or a start-up script does), with the wait for ``server/discover`` made short so
that the delay is longer than it: both probes must give the same versions and findings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.probe import session

SERVERS = Path(__file__).parent.parent / "probe_servers"
STDIO = str(SERVERS / "stdio_server.py")
DELAYED = str(SERVERS / "delayed.py")
sys.path.insert(0, str(SERVERS))
WAIT = 0.2  # the discovery wait in these tests
DELAY = 1.0  # the wrapper's sleep: well over WAIT

ERAS = [
    # 2026-07-28 and every legacy revision on one binary, one era per connection: once an initialize
    # is answered, the connection is a legacy session whatever a request names (the TypeScript SDK v2)
    pytest.param([sys.executable, STDIO, "--modern", "--era-per-connection"], None, id="typescript-sdk-v2"),
    # the official Python SDK (mcp 2): its connection takes the era of its first request
    pytest.param([sys.executable, str(SERVERS / "sdk_server.py")], "mcp.server.mcpserver", id="python-sdk",
                 marks=pytest.mark.slow),
    # legacy only, silent on server/discover (as the Python SDK 1.x is)
    pytest.param([sys.executable, STDIO, "--ignore-discover"], None, id="legacy-only"),
]


def _probe(command: list[str]):
    # one legacy revision and the modern one: the two eras, on as few processes as that takes
    r = CliRunner().invoke(main, ["probe", "--no-config", "--format", "json", "--protocol-version", "2025-11-25",
                                  "--protocol-version", "2026-07-28", "--", *command],
                           catch_exceptions=False)
    captured = next((line.split("captured under ", 1)[1] for line in r.stderr.splitlines()
                     if "captured under" in line), None)
    found = sorted((f["rule"], f["severity"], f["pointer"], f["tool"], f["protocol_version"], f["message"])
                   for f in json.loads(r.stdout)["findings"]) if r.stdout else None
    return r.exit_code, captured, found, r


@pytest.mark.slow
@pytest.mark.parametrize("command,module", ERAS)
def test_a_slow_start_gives_the_same_verdict(command, module, monkeypatch):
    if module:
        pytest.importorskip(module)
    monkeypatch.setattr(session, "DISCOVER_WAIT", WAIT)
    fast = _probe(command)
    slow = _probe([sys.executable, DELAYED, str(DELAY), *command])
    assert fast[0] in (0, 1) and fast[1] is not None, fast[3].output
    assert slow[:3] == fast[:3], (fast[3].stderr, slow[3].stderr)
    if "--ignore-discover" in command:
        assert fast[1] == "2025-11-25"
    else:
        assert fast[1] == "2025-11-25, 2026-07-28"
    assert not any(f[0] == "MCP128" for f in fast[2])  # no 2026-07-28 list read from a legacy session


def test_the_ts_sdk_v2_like_server_turns_legacy_on_initialize():
    """The near miss the test above relies on: that server really answers a 2026-07-28 request
    like a legacy one once the connection was initialized, so a probe that mixed the two on one
    connection would see a 2026-07-28 list without its caching members."""
    import stdio_server

    opt = stdio_server.options(["--modern", "--era-per-connection"])
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    state: dict = {}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}
    assert "ttlMs" in stdio_server.handle(opt, listing, state)["result"]
    stdio_server.handle(opt, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"protocolVersion": "2025-11-25"}}, state)
    assert "ttlMs" not in stdio_server.handle(opt, listing, state)["result"]


def test_the_discovery_wait_scales_with_the_start():
    """The wait after a sign of life grows with how long the server took to start, so a loaded
    machine (every step slower) does not turn a modern server legacy."""
    from mcplint.probe.session import discover_deadline

    wait, startup = 5.0, 30.0
    # no sign yet: up to the startup timeout
    assert discover_deadline(0.0, wait, startup, None, None) == 30.0
    # a quick ping: the plain wait from the request, as before
    assert discover_deadline(0.0, wait, startup, 0.5, None) == 5.0
    # a ping after a 10 s start: a fifth of the start after it, not a fixed second
    assert discover_deadline(0.0, wait, startup, 10.0, None) == 12.0
    # a sibling up after 8 s: this process gets as long again, not just the plain wait
    assert discover_deadline(0.0, wait, startup, None, 8.0) == 16.0
    # a quick sibling: the plain wait after it
    assert discover_deadline(0.0, wait, startup, None, 1.0) == 6.0
    # never past the startup timeout
    assert discover_deadline(0.0, wait, startup, None, 20.0) == 30.0
    # a ping answered after the sibling: the ping's own grace rules
    assert discover_deadline(0.0, wait, startup, 9.0, 1.0) == 10.8
