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
version, concurrently). Targets: mcplint <= 1.0x Inspector; all versions <= 1.5x one
version. Nothing here runs in the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / "tests" / "probe_servers"


def timed(cmd: list[str], runs: int) -> float | None:
    def once() -> float | None:
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        if proc.returncode not in (0, 1):  # 1 = findings, still a complete probe
            sys.stderr.write(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-500:]}\n")
            return None
        return time.perf_counter() - t0

    if once() is None:  # warm-up (and npx's install)
        return None
    times = [once() for _ in range(runs)]
    return statistics.median(t for t in times if t is not None) if all(times) else None


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
        import os

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
    if not npx:
        print("npx not found: the Inspector CLI was not timed")


if __name__ == "__main__":
    main()
