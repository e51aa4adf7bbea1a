"""Adversarial inputs at full size: each must finish in <= 2 s and <= 300 MiB, with a
finding (exit 1) or a clear error (exit 2), never a crash (exit 3) or a hang.

    python bench/adversarial.py            # full size, prints a table
    python bench/adversarial.py --scale 0.01

Each case runs ``mcplint scan --format json`` in a fresh child process (the real CLI,
all rules on); the child reports its own wall time, CPU time and peak resident memory
(``resource.getrusage``). The generators are shared with tests/test_adversarial.py,
which runs the same cases at small sizes.

Then the cases a fuzzer found (:func:`more_cases`): lone surrogates (also in one of 500 files
under ``-j 2``, whose workers' CPU time counts), huge integers, recursive YAML aliases and an
alias bomb, a NUL in YAML, a FIFO, the text report of a minified file, 50,000 valid tools, and
``mcplint probe`` of hostile servers (tests/probe_servers/stdio_server.py: odd response ids,
30,000 tools under each of 5 versions, a grandchild that leaves the process group). Each has
the exit codes it may end with; a probe's CPU time is mcplint's, not the server's.
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


def lone_surrogate() -> str:
    """A key that is one half of a surrogate pair (JSON allows the escape; UTF-8 has no form for it)."""
    return '{"tools": [{"name": "t", "inputSchema": {"\\ud800": 1}}, {"name": "\\udfff", "inputSchema": {}}]}'


def surrogate_directory(d: str, files: int) -> str:
    """``files`` small tools files with a finding each, one of them with a lone surrogate."""
    os.makedirs(os.path.join(d, "many"), exist_ok=True)
    good = '{"name": "x", "inputSchema": {"type": "object", "properties": {"a": {"type": "strin"}}}}'
    for i in range(files):
        with open(os.path.join(d, "many", f"f{i:04}.json"), "w", encoding="utf-8") as fh:
            fh.write(lone_surrogate() if i == files // 2 else good)
    return os.path.join(d, "many")


def yaml_huge_integer(digits: int) -> str:
    return "name: t\ninputSchema: {type: object, maximum: " + "9" * digits + "}\n"


def yaml_recursive_alias() -> str:
    return "name: t\ninputSchema:\n  type: object\n  properties: &p\n    a: {type: object, properties: *p}\n"


def yaml_alias_bomb(width: int = 9, levels: int = 16) -> str:
    lines = ["name: bomb", "inputSchema: {type: object}", "x0: &x0 [" + ", ".join(["lol"] * width) + "]"]
    lines += [f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def yaml_nul() -> str:
    return "name: t\ndescription: a\x00b\ninputSchema: {type: object}\n"


def fifo_directory(d: str) -> str:
    """A directory with one good file and a named pipe nobody writes to."""
    os.makedirs(os.path.join(d, "withfifo"), exist_ok=True)
    with open(os.path.join(d, "withfifo", "ok.json"), "w", encoding="utf-8") as fh:
        fh.write(big_enum(3))
    fifo = os.path.join(d, "withfifo", "pipe.json")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    return os.path.join(d, "withfifo")


def minified_tools(tools: int, findings_each: int = 3) -> str:
    """One line of ``tools`` tools, each with ``findings_each`` invalid property types."""
    props = {f"p{k}": {"type": "strin"} for k in range(findings_each)}
    return json.dumps({"tools": [{"name": f"tool_{i}", "description": "Look up a record.",
                                  "inputSchema": {"type": "object", "properties": props}} for i in range(tools)]},
                      separators=(",", ":"))


def many_valid_tools(tools: int) -> str:
    """A valid tools/list result of ``tools`` small tools (about 180 bytes each)."""
    return json.dumps({"tools": [{"name": f"tool_{i}", "description": "Look up a record by its id.",
                                  "inputSchema": {"type": "object", "properties": {
                                      "id": {"type": "string"}, "n": {"type": "integer"}}, "required": ["id"]}}
                                 for i in range(tools)], "ttlMs": 0, "cacheScope": "public", "resultType": "complete"},
                      separators=(",", ":"))


SERVER = [sys.executable, str(ROOT / "tests" / "probe_servers" / "stdio_server.py")]


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


def more_cases(scale: float = 1.0) -> dict:
    """name -> (how to make the input in a directory -> the command's arguments, the exit codes
    it may end with, the CPU budget or None for the default). The cases a fuzzer found."""
    s = lambda n: max(2, int(n * scale))  # noqa: E731

    def file(text, name="case.json", *args):
        def make(d):
            path = os.path.join(d, name)
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
                fh.write(text() if callable(text) else text)
            return ["scan", path, "--format", "json", *args]
        return make

    def probe(*server_args, extra=()):
        return lambda d: ["probe", "--format", "json", *extra, "--", *SERVER, *server_args]

    return {
        "lone surrogate": (file(lone_surrogate), (2,)),
        "lone surrogate in 1 of 500 files, -j 2": (
            lambda d: ["scan", surrogate_directory(d, s(500)), "--format", "json", "-j", "2"], (2,)),
        "YAML integer of 5,000 digits": (file(yaml_huge_integer(5000), "case.yaml"), (2,)),
        "JSON integer of 5,000 digits": (file('{"name": "t", "inputSchema": {"maximum": ' + "9" * 5000 + "}}"), (2,)),
        "recursive YAML alias": (file(yaml_recursive_alias(), "case.yaml"), (2,)),
        "YAML alias bomb 9 x 16 levels": (file(yaml_alias_bomb(), "case.yaml"), (2,)),
        "NUL byte in YAML": (file(yaml_nul(), "case.yaml"), (2,)),
        "FIFO in a scanned directory": (lambda d: ["scan", fifo_directory(d), "--format", "json"], (2,)),
        "text report, 2,000 minified tools x 3": (
            lambda d: file(lambda: minified_tools(s(2000)))(d)[:2] + ["--format", "text"], (1,)),
        "50,000 valid tools, 9 MB": (file(lambda: many_valid_tools(s(50_000))), (0, 1)),
        "probe: ids of object, array, boolean": (probe("--odd-ids"), (1,)),
        "probe: 30,000 tools x 5 versions, PRB": (probe("--many", str(s(30_000)), extra=("--select", "PRB")), (0, 1)),
        "probe: the same, all rules, --overall-timeout 5": (  # budget: ends by the timeout (+1 s to stop)
            probe("--many", str(s(30_000)), extra=("--overall-timeout", "5")), (0, 1, 2), {"wall": 6.0}),
        "probe: a grandchild that calls setsid()": (
            probe("--escape-child", "{dir}/escaped.pid", extra=("--protocol-version", "2025-11-25")), (0, 1)),
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
if sys.argv[1] == "scan":  # scan's worker processes (-j) count; a probed server's own work does not
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += kids.ru_utime + kids.ru_stime
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
    return run_cli(["scan", path, "--format", "json", *(extra or [])])


def run_cli(argv: list[str]) -> dict:
    """One mcplint command in a fresh child: its exit code, time, peak memory, and what it said."""
    try:
        proc = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, cwd=str(ROOT),
                              timeout=600, errors="backslashreplace")
    except subprocess.TimeoutExpired:
        return {"code": "hang", "findings": [], "result": "no end within 600 s"}
    measure = {}
    for line in proc.stderr.splitlines():
        if line.startswith("MEASURE "):
            measure = json.loads(line[8:])
    measure.setdefault("code", proc.returncode)
    err = [ln for ln in proc.stderr.splitlines() if ln.strip() and not ln.startswith("MEASURE")]
    try:
        rules = sorted({f["rule"] for f in json.loads(proc.stdout)["findings"]})
    except ValueError:  # the text report: its rule IDs
        import re

        rules = sorted(set(re.findall(r"^    \S+  \w+ +([A-Z]{3}\d{3}) ", proc.stdout, re.M)))
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
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text")
    args = ap.parse_args(argv)
    ok = True
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time suffers when it is high)")
    print(f"{'case':<36} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'peak MiB':>9}  result")
    with tempfile.TemporaryDirectory() as d:
        limit = parse_limit(d) if not args.only else 900
        for name, make in cases(args.scale, limit).items():
            if args.only not in name:
                continue
            path = os.path.join(d, "case.json")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(make())
            m = run_case(path)
            good = (m["code"] == 2 or (m["code"] in (0, 1) and bool(m["findings"]))) and m.get("cpu", 99) <= 2.0 and m.get("rss_mib", 999) <= 300
            ok &= good
            print(f"{name:<36} {m['code']:>4} {m.get('wall', 0):>7.2f} {m.get('cpu', 0):>6.2f} "
                  f"{m.get('rss_mib', 0):>9.0f}  {m['result']}{'' if good else '   <-- over budget'}")
            os.unlink(path)
        for name, (make, codes, *budget) in more_cases(args.scale).items():
            if args.only not in name:
                continue
            argv = [a.replace("{dir}", d) for a in make(d)]
            m = run_cli(argv)
            note = ""
            if "--escape-child" in argv:  # the process that left the group: is it still running?
                left = _still_running(os.path.join(d, "escaped.pid"))
                note = f"; {left} process{'es' * (left != 1)} left running"
                m["code"] = m["code"] if not left else "left"
            within = m.get("wall", 99) <= budget[0]["wall"] if budget else m.get("cpu", 99) <= 2.0
            good = m["code"] in codes and within and m.get("rss_mib", 999) <= 300
            ok &= good
            print(f"{name:<36} {m['code']:>4} {m.get('wall', 0):>7.2f} {m.get('cpu', 0):>6.2f} "
                  f"{m.get('rss_mib', 0):>9.0f}  {m['result']}{note}{'' if good else '   <-- over budget'}")
    return 0 if ok else 1


def _still_running(pidfile: str) -> int:
    import signal

    try:
        pid = int(open(pidfile).read())
    except (OSError, ValueError):
        return 0
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return 0
    if state == "Z":
        return 0
    os.kill(pid, signal.SIGKILL)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
