"""Benchmarks for `mcplint scan`. Prints figures; asserts nothing.

(a) cold-start wall time of `mcplint scan` on a one-tool file, next to
    `check-jsonschema --check-metaschema` on the same file (target: <= 0.5x);
(b) schema slots per second over ~10,000 real-world-shaped tool definitions with
    every rule on (target: >= 5,000 slots/s).

check-jsonschema is installed into bench/out/venv-cj on first use (it is not a
dependency of mcplint). Run: python bench/scan.py [--runs N] [--tools N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE.parent))

ONE_TOOL = {"name": "get_weather", "description": "Current weather for a city",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                            "additionalProperties": False}}


def _timed(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def check_jsonschema() -> list[str] | None:
    venv = OUT / "venv-cj"
    exe = venv / "bin" / "check-jsonschema"
    if not exe.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "check-jsonschema"])
        if r.returncode:
            return None
    return [str(exe), "--check-metaschema"]


def cold_start(runs: int) -> None:
    OUT.mkdir(exist_ok=True)
    one = OUT / "one-tool.json"
    schema_only = OUT / "one-schema.json"
    one.write_text(json.dumps(ONE_TOOL))
    schema_only.write_text(json.dumps(ONE_TOOL["inputSchema"]))
    mcplint = shutil.which("mcplint")
    cmd = [mcplint] if mcplint else [sys.executable, "-m", "mcplint"]
    t_m = _timed(cmd + ["scan", "--no-config", str(one)], runs)
    print(f"(a) cold start, median of {runs}:")
    print(f"    mcplint scan one-tool.json                      {t_m * 1000:7.1f} ms")
    cj = check_jsonschema()
    if cj is None:
        print("    check-jsonschema: could not be installed; no comparison")
        return
    t_c = _timed(cj + [str(schema_only)], runs)
    print(f"    check-jsonschema --check-metaschema one-schema   {t_c * 1000:7.1f} ms")
    print(f"    ratio mcplint / check-jsonschema                 {t_m / t_c:7.2f}x   (target <= 0.5x)")


def throughput(n_tools: int) -> None:
    from bench.corpus import write
    from mcplint.config import Config
    from mcplint.engine import lint_paths
    from mcplint.registry import all_rules

    paths = write(OUT / "corpus", n_tools)
    data = [json.loads(p.read_text()) for p in paths]
    slots = sum(1 for d in data for t in d["tools"] for k in ("inputSchema", "outputSchema") if k in t)
    config = Config()
    lint_paths([str(paths[0])], config)  # warm caches and imports once
    t = time.perf_counter()
    result = lint_paths([str(p) for p in paths], config)
    dt = time.perf_counter() - t
    print(f"(b) {len(all_rules())} rules, {result.tools} tools, {slots} slots in {dt:.2f} s: "
          f"{slots / dt:,.0f} slots/s   (target >= 5,000); {len(result.findings)} findings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--tools", type=int, default=10_000)
    args = ap.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    cold_start(args.runs)
    throughput(args.tools)


if __name__ == "__main__":
    main()
