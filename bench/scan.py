"""Benchmarks for `mcplint scan`. Prints figures; asserts nothing.

(a) cold-start wall time of `mcplint scan` on a one-tool file, next to
    `check-jsonschema --check-metaschema` on the same file (target: <= 0.5x);
(b) schema slots per second over ~10,000 real-world-shaped tool definitions with
    every rule on (target: >= 5,000 slots/s), drawn from 186 real servers (bench/servers;
    --corpus dev draws from the 12 in tests/data/corpus instead, --corpus both from each);
(c) with --side-by-side: the same corpus with no profile and with the three hosted strict
    profiles (openai-strict, anthropic-strict, gemini), each run in a fresh process, the two
    alternating: time (lint, and lint plus the text or JSON report), peak RSS, and their ratios
    (targets: <= 1.5x time, <= 1.5x memory), and (d) what --profile default adds to the
    one-tool scan of (a) (target: <= 40 ms).

check-jsonschema is installed into bench/out/venv-cj on first use (it is not a
dependency of mcplint). Run: python bench/scan.py [--runs N] [--tools N] [--profile default]

Throughput is printed as wall time (files spread over every core, as `mcplint scan` does
by default) and as the CPU time it took in all (this process and its workers): on a shared
machine the CPU figure is the steadier one; compare runs made under the same conditions.
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


def _env() -> dict:
    # Bytecode as an installed wheel has it: pip compiles .pyc files at install time, so a
    # PYTHONDONTWRITEBYTECODE left in the environment would make every run compile mcplint
    # from source (check-jsonschema, installed with pip, would not pay that).
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _timed_pair(a: list[str], b: list[str], runs: int) -> tuple[float, float]:
    """Median wall time of ``a`` and of ``b``, run alternately (after one warm-up run each),
    so that other load on the machine affects both alike."""
    env = _env()
    times: tuple[list, list] = ([], [])
    for i in range(runs + 1):
        for k, cmd in enumerate((a, b)):
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            if i:
                times[k].append(time.perf_counter() - t)
    return statistics.median(times[0]), statistics.median(times[1])


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
    cmd = ([mcplint] if mcplint else [sys.executable, "-m", "mcplint"]) + ["scan", "--no-config", str(one)]
    cj = check_jsonschema()
    print(f"(a) cold start, median of {runs} alternating runs (after one warm-up each):")
    if cj is None:
        t_m, _ = _timed_pair(cmd, cmd, runs)
        print(f"    mcplint scan one-tool.json                      {t_m * 1000:7.1f} ms")
        print("    check-jsonschema: could not be installed; no comparison")
        return
    t_m, t_c = _timed_pair(cmd, cj + [str(schema_only)], runs)
    print(f"    mcplint scan one-tool.json                      {t_m * 1000:7.1f} ms")
    print(f"    check-jsonschema --check-metaschema one-schema   {t_c * 1000:7.1f} ms")
    print(f"    ratio mcplint / check-jsonschema                 {t_m / t_c:7.2f}x   (target <= 0.5x)")


def throughput(n_tools: int, profiles: tuple = (), repeat: int = 3, source: str = "servers") -> None:
    from bench.corpus import write
    from mcplint.config import Config
    from mcplint.engine import lint_paths
    from mcplint.registry import all_rules

    paths = write(OUT / "corpus", n_tools, source=source)
    data = [json.loads(p.read_text()) for p in paths]
    slots = sum(1 for d in data for t in d["tools"] for k in ("inputSchema", "outputSchema") if k in t)
    config = Config(profiles=profiles)
    lint_paths([str(paths[0])], config)  # warm caches and imports once
    walls, cpus = [], []
    def cpu() -> float:  # this process and its finished workers
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    for _ in range(repeat):
        t, c = time.perf_counter(), cpu()
        result = lint_paths([str(p) for p in paths], config)
        walls.append(time.perf_counter() - t)
        cpus.append(cpu() - c)
    dt, ct = statistics.median(walls), statistics.median(cpus)
    label = f"--profile {','.join(profiles)}" if profiles else "no profile"
    label += f", corpus {source}"
    print(f"(b) {len(all_rules())} rules ({label}), {result.tools} tools, {slots} slots, median of {repeat}: "
          f"{dt:.2f} s wall = {slots / dt:,.0f} slots/s ({os.cpu_count()} cores; single runs "
          f"{slots / max(walls):,.0f}-{slots / min(walls):,.0f}); "
          f"{ct:.2f} s CPU = {slots / ct:,.0f} slots per CPU-second "
          f"(target >= 5,000); {len(result.findings)} findings")


THREE = ("openai-strict", "anthropic-strict", "gemini")

_CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.cli.common import emit
profiles, paths, fmt = tuple(json.loads(sys.argv[2])), json.loads(sys.argv[3]), sys.argv[4]
if sys.argv[5:] == ["evaluation-only"]:  # the floor: every slot evaluated for every profile, no slot finding made
    import mcplint.rules.decoder_profile.common as dec
    dec._made = lambda *args: []
def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
t, c = time.perf_counter(), cpu()
result = lint_paths(paths, Config(profiles=profiles))
lint_wall, lint_cpu = time.perf_counter() - t, cpu() - c
emit(result, fmt, os.devnull, verbose=False, color=False)  # as `mcplint scan --format FMT -o FILE` writes it
print(json.dumps({"wall": time.perf_counter() - t, "cpu": cpu() - c, "lint_wall": lint_wall, "lint_cpu": lint_cpu,
                  "findings": len(result.findings)}))
"""


def _child(profiles: tuple, paths: list, fmt: str = "text", evaluation_only: bool = False) -> dict:
    """One run in a fresh process (files over every core, as `scan` spreads them; then the
    report in ``fmt``, written as `scan` writes it): its times, and its peak RSS from wait4 (the
    largest of it and its workers). ``evaluation_only``: the DEC slot rules evaluate every slot
    for every profile but make no finding (what the evaluation costs on its own)."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(HERE.parent), json.dumps(profiles),
                             json.dumps([str(p) for p in paths]), fmt] + (["evaluation-only"] if evaluation_only else []),
                            stdout=subprocess.PIPE, env=_env())
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"benchmark child failed ({proc.returncode})")
    got = json.loads(out)
    got["rss"] = usage.ru_maxrss / 1024  # KiB on Linux
    return got


def side_by_side(n_tools: int, repeat: int, source: str = "servers") -> None:
    """(c) no profile against the three hosted strict profiles, alternating fresh processes."""
    from bench.corpus import write

    paths = write(OUT / "corpus", n_tools, source=source)
    data = [json.loads(p.read_text()) for p in paths]
    slots = sum(1 for d in data for t in d["tools"] for k in ("inputSchema", "outputSchema") if k in t)
    runs: dict = {(p, fmt): [] for fmt in ("text", "json") for p in ((), THREE)}
    runs[THREE, "evaluation"] = []
    _child((), paths[:2])  # warm the profile store and the bytecode
    _child(THREE, paths[:2])
    for _ in range(repeat):
        for profiles, fmt in runs:
            if fmt == "evaluation":
                runs[profiles, fmt].append(_child(profiles, paths, "text", evaluation_only=True))
            else:
                runs[profiles, fmt].append(_child(profiles, paths, fmt))
    med = {p: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for p, rs in runs.items()}
    base, three = med[(), "text"], med[THREE, "text"]
    jbase, jthree = med[(), "json"], med[THREE, "json"]
    print(f"(c) corpus {source}, {slots} slots, fresh process per run, alternating, median of {repeat} "
          f"(lint = lint_paths over every core; total = lint and the report, written as `scan -o FILE` writes it):")
    for label, m, j in (("no profile", base, jbase), ("--profile " + " --profile ".join(THREE), three, jthree)):
        print(f"    {label:62} lint {m['lint_wall']:5.2f} s wall ({slots / m['lint_wall']:,.0f} slots/s), "
              f"{m['lint_cpu']:5.2f} s CPU; total with the text report {m['wall']:5.2f} s wall, {m['cpu']:5.2f} s CPU, "
              f"peak RSS {m['rss']:5.0f} MB; with the JSON report {j['cpu']:5.2f} s CPU, peak RSS {j['rss']:5.0f} MB; "
              f"{m['findings']:,.0f} findings")
    print(f"    ratio three profiles / none: lint CPU {three['lint_cpu'] / base['lint_cpu']:.2f}x, "
          f"lint wall {three['lint_wall'] / base['lint_wall']:.2f}x, total CPU (text) {three['cpu'] / base['cpu']:.2f}x "
          f"(target <= 1.5x); peak RSS with the text report {three['rss'] / base['rss']:.2f}x, with the JSON report "
          f"{jthree['rss'] / jbase['rss']:.2f}x (target <= 1.5x)")
    floor = med[THREE, "evaluation"]
    print(f"    the parts, lint CPU over no profile's: the three profiles with no slot finding made (every slot "
          f"evaluated, the tool and request rules run) {floor['lint_cpu'] / base['lint_cpu']:.2f}x "
          f"({floor['findings']:,.0f} findings); the slot findings then add "
          f"{(three['lint_cpu'] - floor['lint_cpu']) / base['lint_cpu']:.2f}x of no profile's lint CPU "
          f"(the 1.5x target leaves 0.50x for both together)")


def profile_startup(runs: int) -> None:
    """(d) what --profile default adds to a one-file scan: alternating runs (after one warm-up
    each, which also fills the profile store), median wall and CPU time of each command."""
    OUT.mkdir(exist_ok=True)
    one = OUT / "one-tool.json"
    one.write_text(json.dumps(ONE_TOOL))
    base = [sys.executable, "-m", "mcplint", "scan", "--no-config", str(one)]
    times: dict = {"": ([], []), "--profile default": ([], [])}
    for i in range(runs + 1):
        for extra, (walls, cpus) in times.items():
            t = time.perf_counter()
            proc = subprocess.Popen(base + extra.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=_env(), cwd=HERE.parent)
            _, _, usage = os.wait4(proc.pid, 0)
            if i:
                walls.append(time.perf_counter() - t)
                cpus.append(usage.ru_utime + usage.ru_stime)
    (w0, c0), (w1, c1) = ((statistics.median(w), statistics.median(c)) for w, c in times.values())
    print(f"(d) one-tool file, median of {runs} alternating runs: mcplint scan {w0 * 1000:.0f} ms wall, "
          f"{c0 * 1000:.0f} ms CPU; with --profile default {w1 * 1000:.0f} ms wall, {c1 * 1000:.0f} ms CPU: "
          f"adds {(w1 - w0) * 1000:.0f} ms wall, {(c1 - c0) * 1000:.0f} ms CPU (target <= 40 ms)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--tools", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3, help="throughput runs (the median is printed)")
    ap.add_argument("--profile", action="append", default=[],
                    help="also measure with these decoder profiles (repeatable; e.g. default)")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start comparison")
    ap.add_argument("--side-by-side", action="store_true",
                    help="only (c): no profile against " + ", ".join(THREE) + " (time, peak memory, ratios)")
    ap.add_argument("--corpus", choices=["servers", "dev", "both"], default="servers",
                    help="real servers to draw the corpus from: bench/servers (186 servers, the default), "
                         "tests/data/corpus (12 servers, heavier per slot), or both in turn")
    args = ap.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    if args.side_by_side:
        profile_startup(args.runs)
        for source in (("servers", "dev") if args.corpus == "both" else (args.corpus,)):
            side_by_side(args.tools, args.repeat, source)
        return
    if not args.no_cold:
        cold_start(args.runs)
    for source in (("servers", "dev") if args.corpus == "both" else (args.corpus,)):
        throughput(args.tools, (), args.repeat, source)
        if args.profile:
            throughput(args.tools, tuple(args.profile), args.repeat, source)


if __name__ == "__main__":
    main()
