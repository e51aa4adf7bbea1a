"""Benchmark: `mcplint scan` of many Python server files, each listed in a fork of one warm
interpreter that imported the SDK once (the default on Linux) against a fresh interpreter per
file (MCPLINT_PYTHON_FORK=0). Prints figures; asserts nothing.

The files are copies of one server written for it (the official SDK's MCPServer, five tools with
pydantic models), each in a directory of its own as a monorepo of servers has them. Each
command runs in a fresh process, the two alternating, after one warm-up each; wall time only (a
warm interpreter outlives the worker that started it by a moment and is reaped by the system, so
no wait of this process counts its CPU time).

Run: python bench/pysource.py [--files 24] [--runs 3] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVER_TEXT = '''"""An MCP server of the kind found in a monorepo of servers."""
from datetime import date
from typing import Literal, Optional

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

mcp = MCPServer("orders")


class Address(BaseModel):
    street: str
    city: str
    postcode: str = Field(pattern=r"^[0-9A-Z -]{3,10}$")


class Order(BaseModel):
    id: str
    placed: date
    status: Literal["open", "shipped", "cancelled"]
    ship_to: Address
    notes: Optional[str] = None


@mcp.tool()
def find_orders(customer: str, status: Optional[str] = None, limit: int = Field(20, ge=1, le=100)) -> list[Order]:
    """Find a customer's orders."""
    return []


@mcp.tool()
def get_order(order_id: str) -> Order:
    """One order by its id."""
    raise KeyError(order_id)


@mcp.tool()
def cancel_order(order_id: str, reason: str = Field(max_length=200)) -> bool:
    """Cancel an open order."""
    return True


@mcp.tool()
def update_address(order_id: str, address: Address) -> Order:
    """Change where an order ships."""
    raise KeyError(order_id)


@mcp.tool()
def count_orders(since: Optional[date] = None) -> int:
    """How many orders were placed since a day."""
    return 0
'''


def _files(n: int) -> list[str]:
    out = HERE / "out" / "pyservers"
    shutil.rmtree(out, ignore_errors=True)
    paths = []
    for i in range(n):
        d = out / f"server{i:03d}"
        d.mkdir(parents=True)
        (d / "server.py").write_text(SERVER_TEXT, encoding="utf-8")
        paths.append(str(d / "server.py"))
    return paths


def _run(files: list[str], fork: bool, jobs: int | None) -> float:
    env = {**os.environ, "MCPLINT_PYTHON_FORK": "1" if fork else "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-m", "mcplint", "scan", "--no-config", "--profile", "default", *files]
    cmd += ["--jobs", str(jobs)] if jobs else []
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=HERE.parent)
    code = proc.wait()
    wall = time.perf_counter() - t
    if code not in (0, 1):
        raise SystemExit(f"mcplint scan failed ({code})")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=24)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="--jobs for mcplint scan (default: its own choice)")
    args = ap.parse_args()
    files = _files(args.files)
    times: dict = {True: [], False: []}
    for i in range(args.runs + 1):
        for fork in (True, False):
            got = _run(files, fork, args.jobs)
            if i:
                times[fork].append(got)
    fw, pw = (statistics.median(times[k]) for k in (True, False))
    jobs = f"--jobs {args.jobs}" if args.jobs else "default jobs"
    print(f"{args.files} Python server files (five tools each, the official SDK), {jobs}, median of {args.runs} "
          f"alternating runs:")
    print(f"    warm interpreter (fork per file)   {fw:6.2f} s wall ({args.files / fw:.1f} files/s)")
    print(f"    fresh interpreter per file         {pw:6.2f} s wall ({args.files / pw:.1f} files/s)")
    print(f"    the warm interpreter takes {fw / pw:.2f}x the wall time")


if __name__ == "__main__":
    main()
