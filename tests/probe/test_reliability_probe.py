"""The probe against hostile servers found by fuzzing: odd response ids, huge listings, a
grandchild that leaves the process group. Real child processes; nothing is mocked."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.probe.wire import ProbeError, parse_message

STDIO = str(Path(__file__).parent.parent / "probe_servers" / "stdio_server.py")


def probe(*args, server=()):
    argv = ["probe", "--no-config", "--format", "json", *args, "--", sys.executable, STDIO, *server]
    return CliRunner().invoke(main, argv, catch_exceptions=False)


@pytest.mark.parametrize("odd", ['{"a": 1}', "[1]", "true", "false", '{"id": 2}'])
def test_a_response_id_of_any_other_shape_is_not_a_message(odd):
    assert parse_message('{"jsonrpc": "2.0", "id": ' + odd + ', "result": {}}') is None
    for fine in ('"x"', "2", "null", "2.5"):
        assert parse_message('{"jsonrpc": "2.0", "id": ' + fine + ', "result": {}}') is not None


def test_responses_with_object_array_and_boolean_ids_are_stdout_noise():
    r = probe("--select", "PRB101", "--protocol-version", "2025-11-25", server=["--odd-ids"])
    assert r.exit_code == 1, r.output
    found = json.loads(r.stdout)["findings"]
    assert [f["rule"] for f in found] == ["PRB101"]
    assert "the server wrote 6 lines to stdout that are not JSON-RPC messages" in found[0]["message"]


def test_overall_timeout_bounds_the_linting_too():
    from mcplint.probe.run import _until

    cpu = time.process_time()
    with pytest.raises(ProbeError, match="overall timeout of 9s .* while linting"):
        with _until(time.monotonic() + 0.3, 9, "server"):
            while time.process_time() - cpu < 20:  # busy, and swallowing every Exception on the way
                try:
                    sum(range(1000))
                except Exception:
                    pass
    # interrupted inside the block: it did not run on to its 20 CPU seconds (0.3 s is at most
    # 0.3 CPU seconds, however loaded the machine)
    assert time.process_time() - cpu < 3


def test_overall_timeout_is_checked_off_the_main_thread_at_the_end():
    from mcplint.probe.run import _until

    caught = []

    def lint():
        try:
            with _until(time.monotonic() + 0.1, 9, "server"):
                time.sleep(0.3)
        except ProbeError as e:
            caught.append(e)

    th = threading.Thread(target=lint)
    th.start()
    th.join()
    assert caught and caught[0].origin == "server"


@pytest.mark.slow
def test_a_probe_of_a_huge_listing_ends_by_its_overall_timeout():
    cpu = time.process_time()
    r = probe("--overall-timeout", "2", server=["--many", "30000"])
    used = time.process_time() - cpu
    assert r.exit_code == 2 and "overall timeout of 2s (--overall-timeout)" in r.output, r.output
    # CPU seconds of this process (the probe runs in it): reading and linting for at most the 2 s
    # it had; linting all of the listing, as before, took minutes of CPU
    assert used < 15, used


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux only")
def test_a_descendant_that_leaves_the_process_group_ends_with_the_probe(tmp_path):
    import os
    import signal

    pidfile = tmp_path / "escaped.pid"
    r = probe("--select", "PRB", "--protocol-version", "2025-11-25", server=["--escape-child", str(pidfile)])
    assert r.exit_code == 0, r.output
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _running(pid):
        os.kill(pid, signal.SIGKILL)
        pytest.fail("a process that called setsid() outlived the probe")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux only")
def test_children_the_caller_had_before_the_probe_are_left_alone():
    import subprocess

    mine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        r = probe("--select", "PRB", "--protocol-version", "2025-11-25")
        assert r.exit_code == 0
        assert mine.poll() is None
    finally:
        mine.kill()
        mine.wait()
