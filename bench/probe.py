"""Wall time of ``mcplint probe`` next to the MCP Inspector CLI on the same stdio server.

    python bench/probe.py [--runs 5] [--server stdlib|sdk|fastmcp|everything|both]

Servers: the standard-library test server (tests/probe_servers/stdio_server.py, modern and
legacy) and, when the ``mcp`` package is installed, a server built with the official SDK;
``--server everything`` times ``@modelcontextprotocol/server-everything`` from the
``node_modules`` that ``MCPLINT_TEST_NODE_MODULES`` names (nothing is installed here).
Timed per server (median of --runs, after one warm-up run):

* ``mcplint probe`` over every protocol version the server supports (the default),
* ``mcplint probe --protocol-version 2025-11-25`` (one version, like the Inspector),
* ``npx @modelcontextprotocol/inspector --cli <server> --method tools/list`` when npx is on
  PATH (the warm-up run installs it into the npm cache; it is not timed).

Also printed per server: the all-version probe's time over the one-version probe's (each
legacy version needs a handshake of its own, so the probe starts one server process per
version, concurrently), with the CPU time each probe took in all (mcplint and the servers it
started) and the floor that puts under the ratio on this machine: no schedule does the
all-version probe's CPU work sooner than that work spread over every core. Targets: mcplint <= 1.0x Inspector; all versions <= 1.5x one
version. Nothing here runs in the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / "tests" / "probe_servers"


CPU: dict[tuple, float] = {}  # command -> median CPU-seconds of it and every process it waited for


def timed(cmd: list[str], runs: int) -> float | None:
    cpus: list[float] = []

    def once() -> float | None:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        # wait4's usage counts the command and every descendant it waited for: the servers it started
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):  # 1 = findings, still a complete probe
            sys.stderr.write(f"failed ({code}): {' '.join(cmd)}\n{err.decode()[-500:]}\n")
            return None
        cpus.append(usage.ru_utime + usage.ru_stime)
        return wall

    if once() is None:  # warm-up (and npx's install)
        return None
    cpus.clear()
    times = [once() for _ in range(runs)]
    if not all(times):
        return None
    CPU[tuple(cmd)] = statistics.median(cpus)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--server", choices=["stdlib", "sdk", "fastmcp", "everything", "both"], default="both",
                    help="both: stdlib and sdk (fastmcp and everything only when asked for)")
    args = ap.parse_args()
    servers = []
    if args.server in ("stdlib", "both"):
        servers.append(("stdlib (modern + legacy)", [sys.executable, str(SERVERS / "stdio_server.py"), "--modern"]))
    if args.server in ("sdk", "both"):
        if importlib.util.find_spec("mcp") is None:
            print("skipping the SDK server: pip install -e '.[probe-test]'")
        else:
            servers.append(("official SDK (MCPServer)", [sys.executable, str(SERVERS / "sdk_server.py")]))
    if args.server == "fastmcp":
        servers.append(("FastMCP", [sys.executable, str(SERVERS / "fastmcp_server.py")]))
    if args.server == "everything":
        entry = Path(os.environ.get("MCPLINT_TEST_NODE_MODULES", "/nonexistent")) / "@modelcontextprotocol" / \
            "server-everything" / "dist" / "index.js"
        if not entry.is_file() or not shutil.which("node"):
            sys.exit("set MCPLINT_TEST_NODE_MODULES to a node_modules holding @modelcontextprotocol/server-everything")
        servers.append(("server-everything (Node)", ["node", str(entry), "stdio"]))
    mcplint = [sys.executable, "-m", "mcplint", "probe", "--no-config"]
    npx = shutil.which("npx")
    print(f"{'server':28} {'command':44} {'median s':>9} {'vs Inspector':>13}")
    for label, server in servers:
        rows = [("mcplint probe (all versions)", mcplint + ["--"] + server),
                ("mcplint probe (one version)", mcplint + ["--protocol-version", "2025-11-25", "--"] + server)]
        results = [(name, timed(cmd, args.runs)) for name, cmd in rows]
        base = None
        if npx:
            base = timed([npx, "-y", "@modelcontextprotocol/inspector", "--cli", *server, "--method", "tools/list"],
                         args.runs)
            results.append(("inspector --cli tools/list", base))
        for name, t in results:
            ratio = f"{t / base:.2f}x" if (t and base) else "-"
            shown = f"{t:.3f}" if t else "failed"
            print(f"{label:28} {name:44} {shown:>9} {ratio:>13}")
        every, one = results[0][1], results[1][1]
        if every and one:
            print(f"{label:28} {'all versions / one version':44} {every / one:>8.2f}x")
            # No schedule does the CPU work of all versions (mcplint's and the servers') sooner than
            # that work spread over every core: with start-up CPU-bound, the floor of the ratio here.
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
            cpu_all, cpu_one = CPU[tuple(rows[0][1])], CPU[tuple(rows[1][1])]
            floor = max(one, cpu_all / cores) / one
            print(f"{label:28} {f'CPU: all versions {cpu_all:.2f} s, one {cpu_one:.2f} s; {cores} cores':44} "
                  f"{floor:>8.2f}x  (the floor that CPU puts under the ratio here)")
    if not npx:
        print("npx not found: the Inspector CLI was not timed")


if __name__ == "__main__":
    main()
