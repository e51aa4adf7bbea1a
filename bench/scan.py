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
    one-tool scan of (a) (target: <= 40 ms);
(e) with --vs OLD_TREE: the four figures users wait for (the cold start next to
    check-jsonschema, what --profile default adds on one file, slots/s with the three hosted
    strict profiles, peak memory with them against none) for the mcplint source tree OLD_TREE
    and this one, old and new alternating in fresh processes, with their ratio, as wall and CPU
    time, and the one-file figures as cachegrind instruction counts (--no-cachegrind skips them).

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


def _tree_env(tree: Path) -> dict:
    """The environment of a child that must import mcplint from ``tree`` (ahead of any install)."""
    env = _env()
    env["PYTHONPATH"] = str(tree)
    # a cache of compiled profiles of the bench's own, which the warm-up runs fill: the user's
    # keeps the newest few, so other checkouts' runs could evict the one a tree needs
    env["MCPLINT_CACHE_DIR"] = str(OUT / "profile-cache")
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
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.cli.common import emit
profiles, paths, fmt = tuple(json.loads(sys.argv[2])), json.loads(sys.argv[3]), sys.argv[4]
ignore = tuple(json.loads(sys.argv[5]))
if sys.argv[6:] == ["evaluation-only"]:  # the floor: every slot evaluated for every profile, no slot finding made
    import mcplint.rules.decoder_profile.common as dec
    dec._made = lambda *args: []
def cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
t, c = time.perf_counter(), cpu()
result = lint_paths(paths, Config(profiles=profiles, ignore=ignore))
lint_wall, lint_cpu = time.perf_counter() - t, cpu() - c
emit(result, fmt, os.devnull, verbose=False, color=False)  # as `mcplint scan --format FMT -o FILE` writes it
wall, cpu_time = time.perf_counter() - t, cpu() - c
try:  # this program's own peak (VmHWM), and its workers' (their peak, as the pool has reaped them)
    own = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    peak = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024  # KiB on Linux
except (OSError, StopIteration):
    peak = None
print(json.dumps({"wall": wall, "cpu": cpu_time, "lint_wall": lint_wall, "lint_cpu": lint_cpu,
                  "findings": len(result.findings), "peak": peak}))
"""


def _child(profiles: tuple, paths: list, fmt: str = "text", evaluation_only: bool = False,
           tree: Path = HERE.parent, ignore: tuple = ()) -> dict:
    """One run in a fresh process (files over every core, as `scan` spreads them; then the
    report in ``fmt``, written as `scan` writes it): its times, and its peak RSS (the largest of
    it and its workers), as the child reads it. Not wait4's: Linux starts a child's peak at the
    peak of the process it was forked from and keeps it over the exec, so wait4 would give at
    least this benchmark's own peak (about 90 MB once it has made the corpus: more than a scan
    without profiles takes). ``evaluation_only``: the DEC slot rules evaluate every slot for
    every profile but make no finding (what the evaluation costs on its own)."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(tree), json.dumps(profiles),
                             json.dumps([str(p) for p in paths]), fmt, json.dumps(ignore)] + (["evaluation-only"] if evaluation_only else []),
                            stdout=subprocess.PIPE, env=_tree_env(tree))
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"benchmark child failed ({proc.returncode})")
    got = json.loads(out)
    peak = got.pop("peak")
    got["rss"] = peak if peak is not None else usage.ru_maxrss / 1024  # (no /proc: wait4's, KiB on Linux)
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


def _one_tool() -> Path:
    OUT.mkdir(exist_ok=True)
    one = OUT / "one-tool.json"
    one.write_text(json.dumps(ONE_TOOL))
    (OUT / "one-schema.json").write_text(json.dumps(ONE_TOOL["inputSchema"]))
    return one


def _scan_cmd(extra: str = "") -> list[str]:
    return [sys.executable, "-m", "mcplint", "scan", "--no-config", str(OUT / "one-tool.json")] + extra.split()


def _alternate(cmds: dict, runs: int) -> dict:
    """Each of ``cmds`` (label -> (argv, tree or None)) run in turn, ``runs`` rounds after one
    warm-up round: the median wall and CPU time of each (CPU from wait4: the process and its
    waited-for children)."""
    got: dict = {label: ([], []) for label in cmds}
    for i in range(runs + 1):
        for label, (argv, tree) in cmds.items():
            env = _tree_env(tree) if tree else _env()
            t = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                    cwd=tree or OUT)
            _, _, usage = os.wait4(proc.pid, 0)
            if i:
                got[label][0].append(time.perf_counter() - t)
                got[label][1].append(usage.ru_utime + usage.ru_stime)
    return {label: (statistics.median(w), statistics.median(c)) for label, (w, c) in got.items()}


def _instructions(argv: list[str], tree: Path) -> float | None:
    """Instructions executed by ``argv`` under cachegrind (no cache simulation), in millions."""
    if not shutil.which("valgrind"):
        return None
    env = _tree_env(tree)
    env["PYTHONHASHSEED"] = "0"  # the same dict and set orders in every run
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=tree)
    for line in r.stderr.splitlines():
        if "I" in line and "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").strip()) / 1e6
    return None


def _row(label: str, old: float, new: float, unit: str, fmt: str = "8.1f") -> None:
    print(f"    {label:44} old {old:{fmt}} {unit:6} new {new:{fmt}} {unit:6} new/old {new / old:5.2f}")


def vs_one_file(old: Path, new: Path, runs: int, cachegrind: bool) -> None:
    """Figures 1 and 2 for two trees: the cold start next to check-jsonschema, and what
    ``--profile default`` adds, every command alternating with the others."""
    _one_tool()
    cmds = {f"{name} {extra}": (_scan_cmd(extra), tree)
            for extra in ("", "--profile default") for name, tree in (("old", old), ("new", new))}
    cj = check_jsonschema()
    if cj:
        cmds["cj"] = (cj + [str(OUT / "one-schema.json")], None)
    m = _alternate(cmds, runs)
    print(f"(1) cold start, one-tool file, median of {runs} alternating runs (ms):")
    _row("mcplint scan, wall", m["old "][0] * 1000, m["new "][0] * 1000, "ms")
    _row("mcplint scan, CPU", m["old "][1] * 1000, m["new "][1] * 1000, "ms")
    if cj:
        print(f"    check-jsonschema --check-metaschema: {m['cj'][0] * 1000:.1f} ms wall, {m['cj'][1] * 1000:.1f} ms CPU")
        _row("ratio to check-jsonschema, wall (<= 0.5x)", m["old "][0] / m["cj"][0], m["new "][0] / m["cj"][0], "x",
             "8.2f")
        _row("ratio to check-jsonschema, CPU", m["old "][1] / m["cj"][1], m["new "][1] / m["cj"][1], "x", "8.2f")
    print("(2) what --profile default adds on the one-tool file (target <= 40 ms):")
    for k, what in ((0, "wall"), (1, "CPU")):
        added = [(m[f"{n} --profile default"][k] - m[f"{n} "][k]) * 1000 for n in ("old", "new")]
        _row(f"added, {what}", added[0], added[1], "ms")
    if not cachegrind:
        return
    ins = {label: _instructions(argv, tree) for label, (argv, tree) in cmds.items() if tree}
    if None in ins.values():
        print("    (no instruction counts: valgrind missing or failed)")
        return
    _row("instructions, no profile", ins["old "], ins["new "], "M", "8.0f")
    _row("instructions, --profile default", ins["old --profile default"], ins["new --profile default"], "M", "8.0f")
    _row("instructions --profile default adds", ins["old --profile default"] - ins["old "],
         ins["new --profile default"] - ins["new "], "M", "8.0f")


def vs_throughput(old: Path, new: Path, n_tools: int, repeat: int, source: str, ignore: tuple = ()) -> None:
    """Figures 3 and 4 for two trees: slots/s with the three hosted strict profiles, and peak
    memory with them against none; fresh processes, the four kinds alternating."""
    from bench.corpus import write

    paths = write(OUT / "corpus", n_tools, source=source)
    slots = sum(1 for p in paths for t in json.loads(p.read_text())["tools"]
                for k in ("inputSchema", "outputSchema") if k in t)
    kinds = [(tree, profiles) for profiles in ((), THREE) for tree in (old, new)]
    for tree, profiles in kinds:  # warm the profile store and the bytecode
        _child(profiles, paths[:2], tree=tree, ignore=ignore)
    runs: dict = {kind: [] for kind in kinds}
    for _ in range(repeat):
        for tree, profiles in kinds:
            runs[tree, profiles].append(_child(profiles, paths, tree=tree, ignore=ignore))
    m = {k: {f: statistics.median(r[f] for r in rs) for f in rs[0]} for k, rs in runs.items()}
    print(f"(3) corpus {source}, {slots} slots, three profiles ({', '.join(THREE)}), fresh process per run, "
          f"median of {repeat} (lint_paths over every core; target >= 5,000 slots/s on an idle machine)"
          + (f", rules {', '.join(ignore)} ignored in both:" if ignore else ":"))
    _row("slots/s, wall", slots / m[old, THREE]["lint_wall"], slots / m[new, THREE]["lint_wall"], "", "8,.0f")
    _row("slots per CPU-second", slots / m[old, THREE]["lint_cpu"], slots / m[new, THREE]["lint_cpu"], "", "8,.0f")
    _row("no profile: slots per CPU-second", slots / m[old, ()]["lint_cpu"], slots / m[new, ()]["lint_cpu"], "",
         "8,.0f")
    _row("findings, three profiles", m[old, THREE]["findings"], m[new, THREE]["findings"], "", "8,.0f")
    print("(4) peak RSS (largest of the process and its workers; lint and the text report), target <= 1.5x:")
    _row("no profile", m[old, ()]["rss"], m[new, ()]["rss"], "MB", "8.0f")
    _row("three profiles", m[old, THREE]["rss"], m[new, THREE]["rss"], "MB", "8.0f")
    _row("ratio three profiles / none", m[old, THREE]["rss"] / m[old, ()]["rss"],
         m[new, THREE]["rss"] / m[new, ()]["rss"], "x", "8.2f")


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
    ap.add_argument("--vs", type=Path, metavar="OLD_TREE",
                    help="the four figures users wait for, this tree against the mcplint source tree OLD_TREE "
                         "(a checkout), side by side: old and new alternating in fresh processes")
    ap.add_argument("--ignore", action="append", default=[], metavar="RULES",
                    help="with --vs: lint the corpus with these rules (IDs or prefixes) ignored in both trees, to "
                         "compare like with like when one tree has rules on by default that the other has not")
    ap.add_argument("--no-cachegrind", action="store_true", help="with --vs: skip the instruction counts")
    args = ap.parse_args()
    os.environ.setdefault("NO_COLOR", "1")
    if args.vs:
        print(f"old {args.vs.resolve()}, new {HERE.parent}; load average {os.getloadavg()[0]:.1f} at the start")
        if not args.no_cold:
            vs_one_file(args.vs.resolve(), HERE.parent, args.runs, not args.no_cachegrind)
        vs_throughput(args.vs.resolve(), HERE.parent, args.tools, args.repeat, args.corpus.replace("both", "servers"),
                      tuple(args.ignore))
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        return
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
