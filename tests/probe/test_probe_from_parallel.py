"""``probe --from`` probes the servers side by side (at most ``--jobs`` at once), each bounded
by the timeouts; a hung or hostile server is an error for it alone and every process it left
behind is ended; Ctrl-C stops them all; ``--save DIR`` writes one capture per server that
``scan`` reads back to the same findings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from conftest import survivors
from conftest import ROOT, STDIO

PY = sys.executable
ONE = ("--protocol-version", "2025-11-25")  # one server process per server


def run(*args, env=None):
    return CliRunner(env=env).invoke(main, ["probe", "--no-config", "--format", "json", *args],
                                     catch_exceptions=False)


def servers(r) -> dict:
    return {s["name"]: s for s in json.loads(r.stdout)["summary"]["servers"]}


def config(tmp_path, entries: dict) -> Path:
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {n: {"command": PY, "args": [STDIO, *a]} for n, a in entries.items()}},
                              indent=2))
    return cfg


def test_servers_are_probed_side_by_side(tmp_path, tag):
    """Each server waits, before it answers anything, until all three have started: probed one
    after another, the first would never answer."""
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    cfg = config(tmp_path, {n: ["--barrier", f"{barrier}:3", "--tag", tag, "--dup-key"] for n in "abc"})
    r = run("--select", "DOC001", *ONE, "--startup-timeout", "20", "--from", str(cfg))
    got = servers(r)
    assert [s["status"] for s in got.values()] == ["probed"] * 3, r.output
    assert [s["errors"] for s in got.values()] == [1, 1, 1]  # every server's finding
    # (the three list the same tools: one finding, naming each)
    assert r.exit_code == 1 and [(f["file"], f["servers"]) for f in json.loads(r.stdout)["findings"]] == [
        ("<probe a>", ["a", "b", "c"])]


@pytest.mark.slow
def test_jobs_bounds_how_many_run_at_once(tmp_path, tag):
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    cfg = config(tmp_path, {n: ["--barrier", f"{barrier}:2", "--tag", tag] for n in ("first", "second")})
    r = run("--select", "PRB", *ONE, "--startup-timeout", "1.5", "--jobs", "1", "--from", str(cfg))
    got = servers(r)
    # alone, the first never gets past the barrier; the second finds the first's mark and answers
    assert got["first"]["status"] == "error" and "no response to initialize" in got["first"]["error"]
    assert got["second"]["status"] == "probed" and r.exit_code == 2
    assert len(os.listdir(barrier)) == 2


def most_at_once(tag: str, done: threading.Event, seen: list) -> None:
    """Until ``done``, append how many of the configured servers carrying ``tag`` have a process
    running (a server may run several, one per protocol version; they are told apart by the
    option that follows the script, and a zombie's command line is empty)."""
    while not done.is_set():
        running = set()
        for pid in survivors(tag):
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if STDIO.encode() in argv[:-1]:
                running.add(argv[argv.index(STDIO.encode()) + 1])
        seen.append(len(running))
        time.sleep(0.02)


@pytest.mark.slow
def test_hostile_servers_hide_no_findings_and_leave_nothing_behind(tmp_path, tag):
    cfg = config(tmp_path, {
        "hangs": ["--hang-init", "--escape-child", str(tmp_path / f"{tag}-1.pid"), "--tag", tag],
        "good": ["--only-in", "2025-03-26", "--tag", tag],
        "never-exits": ["--never-exit", "--escape-child", str(tmp_path / f"{tag}-2.pid"), "--tag", tag],
        "garbage": ["--garbage", "--tag", tag],
        "crashes": ["--crash", "--tag", tag],
    })
    done, seen = threading.Event(), [0]
    watch = threading.Thread(target=most_at_once, args=(tag, done, seen))
    watch.start()
    try:
        r = run("--select", "PRB", "--protocol-version", "2025-11-25", "--protocol-version", "2025-03-26",
                "--timeout", "2", "--overall-timeout", "20", "--from", str(cfg))
    finally:
        done.set()
        watch.join()
    got = servers(r)
    assert list(got) == ["hangs", "good", "never-exits", "garbage", "crashes"]  # the file's order
    assert got["good"]["status"] == "probed" and got["good"]["warnings"] == 1
    assert got["hangs"]["status"] == "error" and "no response to initialize" in got["hangs"]["error"]
    assert got["garbage"]["status"] == "error" and got["crashes"]["status"] == "error"
    assert got["never-exits"]["status"] == "probed"  # it answers; it is killed when it will not stop
    assert r.exit_code == 2
    # side by side: the hanging servers ran at the same time as others (one after another,
    # only one server process would ever run); at most --jobs (4 by default) at once
    assert 2 <= max(seen) <= 4, max(seen)
    # (the tag fixture checks that no server, and no process one of them set loose, survived)
    for n in (1, 2):
        pid = int((tmp_path / f"{tag}-{n}.pid").read_text())
        assert not Path(f"/proc/{pid}").exists() or b") Z" in Path(f"/proc/{pid}/stat").read_bytes()


@pytest.mark.slow
def test_an_interrupt_stops_every_server(tmp_path, tag):
    cfg = config(tmp_path, {n: ["--hang-init", "--tag", tag] for n in "abc"}
                 | {"d": ["--hang-init", "--escape-child", str(tmp_path / f"{tag}.pid"), "--tag", tag]})
    proc = subprocess.Popen([PY, "-m", "mcplint", "probe", "--no-config", *ONE, "--from", str(cfg)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 15
    while len(survivors(tag)) < 5 and time.monotonic() < deadline:  # four servers and the escaped helper
        time.sleep(0.05)
    assert len(survivors(tag)) == 5
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"interrupted" in err and b"Traceback" not in err
    # it ended every server, and the helper one set loose, before it exited (rather than
    # exiting with them still waiting for an answer)
    assert not survivors(tag), survivors(tag)


def test_save_dir_one_capture_per_server_scan_agrees(tmp_path, tag):
    cfg = config(tmp_path, {"beta/only": ["--only-in", "2025-03-26", "--tag", tag],
                            "dup": ["--dup-key", "--tag", tag], "gone": ["--early-exit"]})
    out = tmp_path / "snapshots"
    r = run("--save", str(out), "--from", str(cfg))
    got = servers(r)
    assert got["beta/only"]["saved"] == str(out / "beta_only.json") and got["dup"]["saved"] == str(out / "dup.json")
    assert got["gone"]["status"] == "error" and not (out / "gone.json").exists()
    assert sorted(p.name for p in out.iterdir()) == ["beta_only.json", "dup.json"]
    # each capture keeps the name the configuration gives its server (clients put it in tool names)
    assert json.loads((out / "beta_only.json").read_text())["serverName"] == "beta/only"
    probed = json.loads(r.stdout)["findings"]
    assert {f["file"] for f in probed} == {str(out / "beta_only.json"), str(out / "dup.json")}
    assert {"PRB102", "DOC001"} <= {f["rule"] for f in probed}
    s = CliRunner().invoke(main, ["scan", "--no-config", "--format", "json", "--profile", "anthropic-api", str(out)])
    assert s.exit_code == 1 and r.exit_code == 2  # (the probe also had a server it could not start)
    scanned = json.loads(s.stdout)["findings"]

    def key(f):
        return json.dumps({k: v for k, v in f.items() if k != "fingerprint"}, sort_keys=True)

    assert sorted(map(key, scanned)) == sorted(map(key, probed))

    # a file name template, and a .json name that cannot hold several captures
    r = run("--save", str(tmp_path / "snap-{server}.mcp.json"), "--server", "dup", "--from", str(cfg))
    assert servers(r)["dup"]["saved"] == str(tmp_path / "snap-dup.mcp.json") and r.exit_code == 1
    r = run("--save", str(tmp_path / "all.json"), "--from", str(cfg))
    assert r.exit_code == 2 and "one capture per server" in r.output and not (tmp_path / "all.json").exists()


def test_save_and_jobs_usage(tmp_path, tag):
    r = CliRunner().invoke(main, ["probe", "--no-config", "--save", str(tmp_path), "--", PY, STDIO, "--tag", tag])
    assert r.exit_code == 2 and "is a directory" in r.output and "--from" in r.output
    r = CliRunner().invoke(main, ["probe", "--no-config", "--jobs", "2", "--", PY, STDIO, "--tag", tag])
    assert r.exit_code == 2 and "--jobs" in r.output and "go with --from CONFIG" in r.output
