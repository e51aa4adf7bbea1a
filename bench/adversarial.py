"""Adversarial inputs at full size: each must finish in <= 2 s and <= 300 MiB, with a
finding (exit 1) or a clear error (exit 2), never a crash (exit 3) or a hang.

    python bench/adversarial.py            # full size, prints a table
    python bench/adversarial.py --scale 0.01

Each case runs ``mcplint scan --format json`` in a fresh child process (the real CLI,
all rules on); the child reports its own wall time, CPU time and peak resident memory
(``resource.getrusage``). The generators are shared with tests/test_adversarial.py,
which runs the same cases at small sizes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------ generators


def deep_nesting(depth: int) -> str:
    """A schema nested ``depth`` levels through ``items`` (one JSON level per schema level)."""
    return ('{"name": "deep", "inputSchema": {"type": "object", "properties": {"x": '
            + '{"items": ' * depth + "{}" + "}" * depth + "}}}")


def mixed_nesting(depth: int) -> str:
    """JSON nested ``depth`` levels in all: subschemas through several keywords in turn,
    then deep data in const and default."""
    data_depth = depth // 4
    depth = depth - data_depth - 5
    kws = ['{"items": ', '{"not": ', '{"anyOf": [', '{"properties": {"p": ', '{"allOf": [{}, ']
    closers = ["}", "}", "]}", "}}", "]}"]
    opened, out = [], []
    level = 0
    i = 0
    while level < depth:
        k = i % len(kws)
        out.append(kws[k])
        opened.append(closers[k])
        level += 1 if k in (0, 1) else 2
        if level >= depth - 1:
            break
        i += 1
    data = "[" * data_depth + "]" * data_depth
    inner = '{"const": ' + data + ', "default": ' + data + "}"
    return ('{"name": "mixed", "inputSchema": {"type": "object", "properties": {"x": '
            + "".join(out) + inner + "".join(reversed(opened)) + "}}}")


def ref_fanout(levels: int) -> str:
    """a -> [b, b], b -> [c, c] ...: 2**levels substitutions when inlined."""
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]}
            for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return json.dumps({"name": "fanout", "inputSchema": {
        "type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}})


def ref_chain(length: int, loop: bool = False) -> str:
    """d0 -> d1 -> ... -> d{length-1} -> a string (or back to d0)."""
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length - 1)}
    defs[f"d{length - 1}"] = {"$ref": "#/$defs/d0"} if loop else {"type": "string"}
    return json.dumps({"name": "chain", "inputSchema": {
        "type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}})


def big_enum(n: int) -> str:
    return json.dumps({"name": "enum", "inputSchema": {
        "type": "object", "properties": {"c": {"enum": list(range(n))}}}})


REDOS = ["^(a+)+$", "^(\\w+\\s?)*$", "^(a|aa)+$", "^(.*a){20}$", "^([a-z0-9]+-?)+$",
         "(" * 120 + "a*" + ")*" * 120, "(" + "|".join("ab" for _ in range(300)) + ")*"]


def big_enum_duplicate_key(n: int) -> str:
    """The big enum, plus one repeated key (which makes the loader look for duplicates)."""
    return big_enum(n).replace('{"name": "enum"', '{"name": "enum", "name": "enum"', 1)


def long_string_duplicate_key(chars: int) -> str:
    """A description millions of characters long, plus one repeated key."""
    text = json.dumps({"name": "long", "description": "a" * chars, "inputSchema": {"type": "object"}})
    return text.replace('{"name": "long"', '{"name": "long", "name": "long"', 1)


def redos_patterns(copies: int) -> str:
    """Known-catastrophic patterns on many properties (mcplint never runs them)."""
    props = {f"p{i}": {"type": "string", "pattern": REDOS[i % len(REDOS)] + ("" if i < len(REDOS) else f"x{i}")}
             for i in range(copies)}
    return json.dumps({"name": "redos", "inputSchema": {"type": "object", "properties": props}})


def huge_file(megabytes: int) -> str:
    """A valid tools/list result of about ``megabytes`` MB (long descriptions)."""
    tool = {"name": "t", "description": "x" * 1000, "inputSchema": {"type": "object"}}
    one = json.dumps(tool)
    n = megabytes * 1024 * 1024 // (len(one) + 2)
    return '{"tools": [' + ", ".join(one.replace('"t"', f'"t{i}"', 1) for i in range(n)) + "]}"


def cases(scale: float = 1.0, limit: int = 900) -> dict:
    """name -> a function making the text (made one at a time, to keep this process small)."""
    s = lambda n: max(2, int(n * scale))  # noqa: E731
    return {
        "100k-deep nesting": lambda: deep_nesting(s(100_000)),
        f"nesting at the parse limit ({limit})": lambda: mixed_nesting(limit),
        "$ref fan-out 2^60": lambda: ref_fanout(max(4, int(60 * min(1.0, scale * 10)))),
        "$ref chain 10,000 long": lambda: ref_chain(s(10_000)),
        "$ref loop 10,000 long": lambda: ref_chain(s(10_000), loop=True),
        "1M-value enum": lambda: big_enum(s(1_000_000)),
        "1M-value enum + duplicate key": lambda: big_enum_duplicate_key(s(1_000_000)),
        "5M-character string + duplicate key": lambda: long_string_duplicate_key(s(5_000_000)),
        "ReDoS patterns x1000": lambda: redos_patterns(s(1_000)),
        "100 MB file": lambda: huge_file(max(1, int(100 * scale))),
    }


# ------------------------------------------------------------------ measurement

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
from mcplint.cli import main
code = 0
try:
    main(sys.argv[1:])
except SystemExit as e:
    code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
wall = time.perf_counter() - t0; cpu = time.process_time() - c0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux; survives exec, so prefer:
try:
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):  # peak resident set of this program image
            rss = int(line.split()[1])
except OSError:
    pass
sys.stderr.write("\nMEASURE " + json.dumps({"wall": wall, "cpu": cpu, "rss_mib": rss / 1024, "code": code}) + "\n")
"""


def run_case(path: str, extra: list | None = None) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, "scan", path, "--format", "json", *(extra or [])],
                          capture_output=True, text=True, cwd=str(ROOT))
    measure = {}
    for line in proc.stderr.splitlines():
        if line.startswith("MEASURE "):
            measure = json.loads(line[8:])
    measure.setdefault("code", proc.returncode)
    err = [ln for ln in proc.stderr.splitlines() if ln.strip() and not ln.startswith("MEASURE")]
    try:
        rules = sorted({f["rule"] for f in json.loads(proc.stdout)["findings"]})
    except ValueError:
        rules = []
    measure["findings"] = rules
    measure["result"] = ", ".join(rules) if rules else (err[-1].split(": ", 1)[-1][:70] if err else "no findings")
    return measure


def parse_limit(d: str) -> int:
    """The deepest JSON nesting the CLI parses here (it depends on the interpreter's stack)."""
    lo, hi = 100, 5000
    path = os.path.join(d, "probe.json")
    while lo < hi:
        mid = (lo + hi + 1) // 2
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(deep_nesting(mid - 4))  # 4 levels of tool and slot around the nesting
        if run_case(path)["code"] == 2:
            hi = mid - 1
        else:
            lo = mid
    return lo


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="shrink every input (e.g. 0.01)")
    args = ap.parse_args(argv)
    ok = True
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time suffers when it is high)")
    print(f"{'case':<36} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'peak MiB':>9}  result")
    with tempfile.TemporaryDirectory() as d:
        limit = parse_limit(d)
        for name, make in cases(args.scale, limit).items():
            path = os.path.join(d, "case.json")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(make())
            m = run_case(path)
            good = (m["code"] == 2 or (m["code"] in (0, 1) and bool(m["findings"]))) and m.get("cpu", 99) <= 2.0 and m.get("rss_mib", 999) <= 300
            ok &= good
            print(f"{name:<36} {m['code']:>4} {m.get('wall', 0):>7.2f} {m.get('cpu', 0):>6.2f} "
                  f"{m.get('rss_mib', 0):>9.0f}  {m['result']}{'' if good else '   <-- over budget'}")
            os.unlink(path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
