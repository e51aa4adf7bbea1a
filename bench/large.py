"""Large valid inputs against the resource goal (2 s of CPU and 300 MiB for one command), each
next to a reference measured in the same run, so that a loaded or slower machine shows in both.

    python bench/large.py                 # full size, prints a table
    python bench/large.py --scale 0.1     # smaller inputs
    python bench/large.py --only YAML

Each case runs the real CLI in a fresh child (bench/adversarial.py's ``run_cli``: its CPU time
and peak resident memory as the child measured them). The reference is the cheapest way to
read the same input in the same kind of child: ``json.loads`` of the file (for YAML, PyYAML's
C loader, which builds the data without any map back to the text), and for a probe
``json.loads`` of the listing once per protocol version. ``x ref`` is mcplint's CPU time over
the reference's: what mcplint spends on linting and locating, per unit of plain parsing.

Cases: 50,000 small tools in one JSON file (9 MB); 20,000 in one YAML file; a YAML file of 393
bytes whose aliases would repeat a million values (refused, exit 2), and one of 646 bytes whose
aliases repeat about 95,000, just under mcplint's cap of 100,000 (read and linted); ``mcplint
probe`` of a stdio server listing 60,000 tools under each protocol version it supports.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.adversarial import SERVER, many_valid_tools, run_cli, yaml_alias_bomb  # noqa: E402

GOAL_CPU, GOAL_MIB = 2.0, 300.0

REFERENCE = r"""
import json, resource, sys, time
text = open(sys.argv[1], encoding="utf-8").read()
c0 = time.process_time()
for _ in range(int(sys.argv[3])):
    if sys.argv[2] == "yaml":
        import yaml
        yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    else:
        json.loads(text)
cpu = time.process_time() - c0
print(json.dumps({"cpu": cpu, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def reference(path: str, fmt: str, times: int = 1) -> dict:
    out = subprocess.run([sys.executable, "-c", REFERENCE, path, fmt, str(times)], capture_output=True, text=True,
                         timeout=600)
    try:
        return json.loads(out.stdout)
    except ValueError:
        return {"cpu": float("nan"), "rss_mib": float("nan")}


def yaml_tools(tools: int) -> str:
    import yaml

    return yaml.safe_dump(json.loads(many_valid_tools(tools)), sort_keys=False)


def yaml_aliases_under_cap() -> str:
    """A list of 10 values, 10 aliases of it, 10 of that, then 85 aliases of the last: about
    95,000 values once expanded, just under the 100,000 that mcplint's YAML reader allows."""
    lines = ["name: bomb", "inputSchema: {type: object}", "x0: &x0 [" + ", ".join(["lol"] * 10) + "]"]
    lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]" for i in (1, 2)]
    lines.append("x3: [" + ", ".join(["*x2"] * 85) + "]")
    return "\n".join(lines) + "\n"


def listing(tools: int) -> str:
    """What the test server lists with ``--many N`` (one version's tools/list result), for the reference."""
    return json.dumps({"tools": [{"name": f"t_{i}", "description": "A tool.", "inputSchema": {
        "type": "object", "properties": {"q": {"type": "string"}}}} for i in range(tools)]})


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="shrink every input (e.g. 0.1)")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text")
    args = ap.parse_args(argv)
    s = lambda n: max(2, int(n * args.scale))  # noqa: E731
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (goal: {GOAL_CPU:g} s CPU, "
          f"{GOAL_MIB:g} MiB)")
    print(f"{'case':<40} {'exit':>4} {'cpu s':>6} {'MiB':>5} {'ref s':>6} {'x ref':>6}  result")
    ok = True
    with tempfile.TemporaryDirectory() as d:
        def write(name: str, text: str) -> str:
            path = os.path.join(d, name)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            return path

        cases = {
            f"{s(50_000):,} tools, JSON": lambda: (
                ["scan", write("t.json", many_valid_tools(s(50_000))), "--format", "json"],
                (os.path.join(d, "t.json"), "json", 1)),
            f"{s(20_000):,} tools, YAML": lambda: (
                ["scan", write("t.yaml", yaml_tools(s(20_000))), "--format", "json"],
                (os.path.join(d, "t.yaml"), "yaml", 1)),
            "YAML aliases: a million values in 393 B": lambda: (
                ["scan", write("bomb.yaml", yaml_alias_bomb(10, 6)), "--format", "json"],
                (os.path.join(d, "bomb.yaml"), "yaml", 1)),  # (PyYAML expands it: 4 s, 400 MiB)
            "YAML aliases: 95,000 values in 646 B": lambda: (
                ["scan", write("under.yaml", yaml_aliases_under_cap()), "--format", "json"],
                (os.path.join(d, "under.yaml"), "yaml", 1)),
            f"probe: {s(60_000):,} tools per version": lambda: (
                ["probe", "--format", "json", "--", *SERVER, "--many", str(s(60_000))],
                (write("listing.json", listing(s(60_000))), "json", 4)),
        }
        for name, make in cases.items():
            if args.only not in name:
                continue
            argv_, (ref_path, fmt, times) = make()
            m = run_cli(argv_)
            ref = reference(ref_path, fmt, times)
            ratio = m.get("cpu", 0) / ref["cpu"] if ref["cpu"] else float("nan")
            good = m.get("cpu", 99) <= GOAL_CPU and m.get("rss_mib", 999) <= GOAL_MIB and m["code"] in (0, 1, 2)
            ok &= good
            print(f"{name:<40} {m['code']:>4} {m.get('cpu', 0):>6.2f} {m.get('rss_mib', 0):>5.0f} "
                  f"{ref['cpu']:>6.2f} {ratio:>6.1f}  {m['result'][:60]}{'' if good else '   <-- over the goal'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
