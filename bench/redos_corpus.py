"""Build the labelled ReDoS corpus tests/data/redos/corpus.json from public test suites.

    # 1. get the sources (outside the repository), e.g. into /tmp/redos-src:
    #    npm pack safe-regex@2.1.1 vuln-regex-detector@1.3.0      (their tests ship in the package)
    #    recheck, redos-detector and regexploit ship no tests in their packages (npm / PyPI
    #    sdist): take the test files from their public repositories at the commits in SOURCES.
    # 2. extract the patterns with their origin:
    python bench/redos_corpus.py extract --src /tmp/redos-src > /tmp/candidates.json
    # 3. label each by timing attack strings in V8 (Node; recheck from npm proposes attacks):
    python bench/redos_corpus.py label /tmp/candidates.json --node-modules /tmp/redos-tools/node_modules
    #    (npm install recheck@4.5.0 in /tmp/redos-tools first; --shards 3 by default)

`label` writes the corpus: every pattern with its origins, the label V8 timing gave it
(exponential | polynomial | safe), the attack that confirmed it and the time it took. A label
comes only from a measurement: a pattern is vulnerable when one attack string makes one
`RegExp.prototype.test` call take at least 1 s in Node, within 100,000 characters (and the
kind says how the time grew); safe when neither recheck's attack nor any of the generic ones
gets near that. What a source's own test asserts is kept (`claimed`) but never used as the
label: those suites test their own heuristics, not the matcher.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "redos" / "corpus.json"
LITERATURE = ROOT / "tests" / "data" / "redos" / "literature.yaml"

# package, version, where the file comes from, licence, path under --src, extractor
SOURCES = [
    ("safe-regex", "2.1.1", "npm package safe-regex@2.1.1", "MIT",
     "safe-regex-2.1.1/package/test/regex.spec.js", "js_safe_regex"),
    ("vuln-regex-detector", "1.3.0", "npm package vuln-regex-detector@1.3.0", "MIT",
     "vuln-regex-detector-1.3.0/package/test/test.js", "js_test_calls"),
    ("recheck", "4.5.0", "github.com/makenowjust-labs/recheck@fe02c45a735bb5c7e3e1bd9b6a9f5dcbee784cff", "MIT",
     "gh/recheck/modules/recheck-core/shared/src/test/scala/codes/quine/labs/recheck/automaton/"
     "AutomatonCheckerSuite.scala", "scala_check"),
    ("recheck", "4.5.0", "github.com/makenowjust-labs/recheck@fe02c45a735bb5c7e3e1bd9b6a9f5dcbee784cff", "MIT",
     "gh/recheck/modules/recheck-core/shared/src/test/scala/codes/quine/labs/recheck/fuzz/FuzzCheckerSuite.scala",
     "scala_check"),
    ("recheck", "4.5.0", "github.com/makenowjust-labs/recheck@fe02c45a735bb5c7e3e1bd9b6a9f5dcbee784cff", "MIT",
     "gh/recheck/packages/eslint-plugin-redos/src/rules/no-vulnerable.test.ts", "js_regex_literals"),
    ("redos-detector", "6.1.4", "github.com/tjenkinson/redos-detector@fe5bb5be457780b0050afa9f12d56e1a42ef4d27",
     "MIT", "gh/redos-detector/src/redos-detector.test.ts", "js_case_table"),
    ("regexploit", "1.0.0", "github.com/doyensec/regexploit@e0ad915be5c8b041bbc5d5f6e66998ffbe60fec6",
     "Apache-2.0", "gh/regexploit/tests/test_redos.py", "py_raw_strings"),
    ("regexploit", "1.0.0", "github.com/doyensec/regexploit@e0ad915be5c8b041bbc5d5f6e66998ffbe60fec6",
     "Apache-2.0", "gh/regexploit/tests/test_javascript.py", "py_raw_strings"),
]

_JS_LIT = re.compile(r"(?<![\w)\]\\])/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\[\n*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\[\n])*)/([a-z]*)")
_JS_STR = r"'((?:\\.|[^'\\\n])*)'|\"((?:\\.|[^\"\\\n])*)\""


def _js_unescape(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m.group(1), m.group(1)), s)


def js_regex_literals(text):
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split(" // ")[0]
        if code.lstrip().startswith("//"):
            continue
        for m in _JS_LIT.finditer(code):
            if not m.group(2):
                yield n, m.group(1), None


def js_safe_regex(text):
    """safe-regex's spec: arrays of literals under a test title saying what it expects."""
    claimed = None
    for n, line in enumerate(text.splitlines(), 1):
        t = re.match(r'\s*test\("([^"]*)"', line)
        if t:
            title = t.group(1)
            claimed = "safe" if "are safe" in title or "linear" in title else "vulnerable"
            continue
        code = line.split(" // ")[0].strip()
        m = re.fullmatch(r"/(.+)/([a-z]*),?", code)
        if m and not m.group(2):
            yield n, m.group(1), claimed
            continue
        m = re.fullmatch(_JS_STR + ",?", code)
        if m:
            yield n, _js_unescape(m.group(1) if m.group(1) is not None else m.group(2)), claimed


def js_test_calls(text):
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        m = re.search(r"\.test\(" + _JS_STR + r"[,)]", line)
        if m:
            ctx = " ".join(lines[max(0, n - 3):n]).lower()
            claimed = "vulnerable" if "vulnerable as such" in ctx else "safe" if "safe as such" in ctx else None
            yield n, _js_unescape(m.group(1) if m.group(1) is not None else m.group(2)), claimed


def js_case_table(text):
    """redos-detector's table: [/regex/, isSafe] (a number is a backtrack count: not safe)."""
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*\[(/.*/)([a-z]*), (true|false|\d+)", line)
        if m and not m.group(2):
            yield n, m.group(1)[1:-1], "safe" if m.group(3) == "true" else "ambiguous"


def scala_check(text):
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r'check\("((?:\\.|[^"\\])*)", ""', line):
            claimed = "vulnerable" if "assert(check(" in line else "safe" if "assert(!check(" in line else None
            yield n, m.group(1).encode().decode("unicode_escape"), claimed


def py_raw_strings(text):
    for n, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r'(?:find_redos|from_regex|\()\s*r"((?:[^"\\]|\\.)*)"', line):
            yield n, m.group(1), None


def extract(src: Path):
    seen: dict[str, dict] = {}
    for pkg, ver, where, lic, rel, how in SOURCES:
        path = src / rel
        text = path.read_text(encoding="utf-8")
        for line, pattern, claimed in globals()[how](text):
            e = seen.setdefault(pattern, {"pattern": pattern, "origins": []})
            o = {"package": pkg, "version": ver, "from": where, "licence": lic,
                 "file": rel.split("/package/", 1)[-1].split("gh/", 1)[-1].split("/", 1)[-1], "line": line}
            if claimed:
                o["claimed"] = claimed
            e["origins"].append(o)
    if LITERATURE.exists():
        import yaml
        for item in yaml.safe_load(LITERATURE.read_text(encoding="utf-8")):
            e = seen.setdefault(item["pattern"], {"pattern": item["pattern"], "origins": []})
            e["origins"].append({"literature": item["source"]})
    return list(seen.values())


def dump(entries, out):
    out.write("[\n")
    for i, e in enumerate(entries):
        out.write("  " + json.dumps(e, ensure_ascii=False) + ("," if i < len(entries) - 1 else "") + "\n")
    out.write("]\n")


def label(cands, env, shards: int):
    """Run bench/redos_v8.js on ``shards`` slices in parallel (each times one match at a time,
    in CPU time) and put the results back in the candidates' order."""
    import tempfile
    procs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(shards):
            src = Path(tmp) / f"in{k}.json"
            src.write_text(json.dumps(cands[k::shards]), encoding="utf-8")
            out = open(Path(tmp) / f"out{k}.json", "w+", encoding="utf-8")
            procs.append((subprocess.Popen(["node", str(ROOT / "bench" / "redos_v8.js")], stdin=open(src),
                                           stdout=out, env=env), out))
        parts = []
        for proc, out in procs:
            if proc.wait():
                raise SystemExit(f"redos_v8.js failed ({proc.returncode})")
            out.seek(0)
            parts.append(json.load(out))
    merged = []
    for i in range(len(cands)):
        merged.append(parts[i % shards][i // shards])
    return merged


def main(argv):
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    x = sub.add_parser("extract")
    x.add_argument("--src", type=Path, required=True)
    lb = sub.add_parser("label")
    lb.add_argument("candidates", type=Path)
    lb.add_argument("--node-modules", type=Path, help="where recheck is installed (npm install recheck)")
    lb.add_argument("-o", "--output", type=Path, default=CORPUS)
    lb.add_argument("--shards", type=int, default=3, help="node processes in parallel")
    args = ap.parse_args(argv)
    if args.cmd == "extract":
        dump(extract(args.src), sys.stdout)
        return
    env = None
    if args.node_modules:
        import os
        env = dict(os.environ, NODE_PATH=str(args.node_modules))
    cands = json.loads(args.candidates.read_text(encoding="utf-8"))
    labelled = label(cands, env, args.shards)
    with open(args.output, "w", encoding="utf-8") as f:
        dump(labelled, f)
    kinds: dict[str, int] = {}
    for e in labelled:
        kinds[e["label"]] = kinds.get(e["label"], 0) + 1
    print(f"wrote {args.output}: {len(labelled)} patterns, {kinds}")


if __name__ == "__main__":
    main(sys.argv[1:])
