"""Compare ReDoS detectors on the labelled corpora of tests/data/redos/.

    python bench/redos_eval.py                  # mcplint's analyser, plus regexploit and
                                                # redoctor when installed (pip install regexploit redoctor),
                                                # and recheck when Node finds it (NODE_PATH=.../node_modules)
    python bench/redos_eval.py --ground-truth   # also time Python's backtracking re on each
                                                # vulnerable entry of patterns.yaml, to check the labels

corpus.json (built by bench/redos_corpus.py from the test suites of recheck, safe-regex,
redos-detector, regexploit and vuln-regex-detector plus published examples, every label
measured in V8) is the reference: per detector it prints recall on exponential and on
polynomial patterns, the false-positive rate on safe ones, and milliseconds per pattern
(uncached). patterns.yaml, the hand-written table, follows.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TABLE = ROOT / "tests" / "data" / "redos" / "patterns.yaml"
CORPUS = ROOT / "tests" / "data" / "redos" / "corpus.json"


def mcplint_detector():
    from mcplint.redos import analyse

    def detect(p):
        analyse.cache_clear()
        return analyse(p) is not None
    return detect


def regexploit_detector():
    from regexploit.ast.sre import SreOpParser  # type: ignore[import-not-found]
    from regexploit.languages.javascript import fix_js_regex  # type: ignore[import-not-found]
    from regexploit.redos import find  # type: ignore[import-not-found]

    def detect(p):
        try:
            parsed = SreOpParser().parse_sre(p)
        except Exception:
            parsed = SreOpParser().parse_sre(fix_js_regex(p))
        return any(r.starriness > 2 for r in find(parsed))  # the threshold its CLI reports at
    return detect


def redoctor_detector():
    import redoctor  # type: ignore[import-not-found]

    return lambda p: bool(redoctor.is_vulnerable(p))


RECHECK_JS = r"""
const { checkSync } = require("recheck");
let input = ""; process.stdin.on("data", (d) => input += d).on("end", () => {
  const out = {};
  for (const p of JSON.parse(input)) {
    const t = Date.now();
    let v = null;
    try { v = checkSync(p, "", { timeout: 10000 }).status === "vulnerable"; } catch (e) { v = null; }
    out[p] = [v, Date.now() - t];
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def recheck_detector():
    """recheck (npm, with its native binary) through Node; it is asked once for every pattern."""
    import os
    import shutil
    if not shutil.which("node") or not os.environ.get("NODE_PATH"):
        raise ImportError("node / NODE_PATH")
    probe = subprocess.run(["node", "-e", "require('recheck')"], capture_output=True)
    if probe.returncode:
        raise ImportError("recheck")
    cache: dict = {}

    def prime(patterns):
        todo = [p for p in patterns if p not in cache]
        if todo:
            out = subprocess.run(["node", "-e", RECHECK_JS], input=json.dumps(todo), capture_output=True,
                                 text=True, check=True).stdout
            cache.update(json.loads(out))

    def detect(p):
        if p not in cache:
            prime([p])
        v, _ = cache[p]
        if v is None:
            raise RuntimeError("recheck: error or timeout")
        return v
    detect.prime = prime  # type: ignore[attr-defined]
    detect.cache = cache  # type: ignore[attr-defined]
    return detect


DETECTORS = {"mcplint": mcplint_detector, "regexploit": regexploit_detector, "redoctor": redoctor_detector}
# recheck's agent can hang on a pattern, so it is not run here: corpus_report reads the verdict
# bench/redos_v8.js recorded for each pattern when labelling (recheck 4.5.0, 5 s per pattern;
# errors and timeouts count as "not vulnerable"). recheck_detector() runs it live (--recheck).


def corpus_report(detectors, verbose: bool) -> None:
    """Recall per kind and false-positive rate on the V8-labelled corpus."""
    entries = [e for e in json.loads(CORPUS.read_text(encoding="utf-8")) if e["label"] != "invalid"]
    by = {k: [e for e in entries if e["label"] == k] for k in ("exponential", "polynomial", "safe")}
    print(f"corpus.json (labels timed in V8): {len(entries)} patterns, {len(by['exponential'])} exponential, "
          f"{len(by['polynomial'])} polynomial, {len(by['safe'])} safe")
    print(f"{'detector':<11} {'expo recall':>11} {'poly recall':>11} {'recall':>6} {'FP rate':>7} {'FP':>4} "
          f"{'ms/pattern':>10}")
    recorded = {e["pattern"]: str(e.get("recheck", "")).split(":")[0] in ("exponential", "polynomial")
                for e in entries}
    rows = dict(detectors)
    rows["recheck*"] = recorded.__getitem__
    for name, detect in rows.items():
        if hasattr(detect, "prime"):
            t = time.perf_counter()
            detect.prime([e["pattern"] for e in entries])
            ms = (time.perf_counter() - t) * 1000 / len(entries)
        t = time.perf_counter()
        got, errors = {}, 0
        for e in entries:
            try:
                got[e["pattern"]] = bool(detect(e["pattern"]))
            except Exception:
                got[e["pattern"]] = False
                errors += 1
        if not hasattr(detect, "prime"):
            ms = (time.perf_counter() - t) * 1000 / len(entries)
        rec = {k: sum(got[e["pattern"]] for e in v) / max(1, len(v)) for k, v in by.items()}
        vul = by["exponential"] + by["polynomial"]
        allrec = sum(got[e["pattern"]] for e in vul) / max(1, len(vul))
        fp = sum(got[e["pattern"]] for e in by["safe"])
        shown = "-" if name == "recheck*" else f"{ms:.2f}"
        print(f"{name:<11} {rec['exponential']:>11.2f} {rec['polynomial']:>11.2f} {allrec:>6.2f} "
              f"{fp / max(1, len(by['safe'])):>7.3f} {fp:>4} {shown:>10}" + (f"  ({errors} errors)" if errors else ""))
        if verbose:
            for e in vul:
                if not got[e["pattern"]]:
                    print(f"    missed   {e['label']:<11} {e['pattern']}")
            for e in by["safe"]:
                if got[e["pattern"]]:
                    print(f"    flagged  safe        {e['pattern']}")
    print("recheck*: the verdicts recheck 4.5.0 gave when the corpus was labelled (recorded in corpus.json)")
    print()


def evaluate(detect, rows):
    c = {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "err": 0, "etp": 0, "efn": 0}
    misses = []
    t = time.perf_counter()
    for p, label in rows:
        try:
            got = detect(p)
        except Exception:
            got = False
            c["err"] += 1
        vul = label != "safe"
        if vul and got:
            c["tp"] += 1
        elif vul:
            c["fn"] += 1
            misses.append(f"missed   {label:<11} {p}")
        elif got:
            c["fp"] += 1
            misses.append(f"flagged  safe        {p}")
        else:
            c["tn"] += 1
        if label == "exponential":
            c["etp" if got else "efn"] += 1
    c["ms"] = (time.perf_counter() - t) * 1000 / len(rows)
    return c, misses


GT = r"""
import json, re, sys, time
p, pre, a, s, ns = json.loads(sys.argv[1])
r = re.compile(p)
for n in ns:
    t = time.perf_counter(); r.search(pre + a * n + s); print(n, round(time.perf_counter() - t, 4), flush=True)
"""


def ground_truth(table):
    print("Python re on attack strings (seconds; TIMEOUT = over 4 s):")
    for e in table["vulnerable"] + table.get("held_out_vulnerable", []):
        ns = [12, 16, 20, 22] if e["label"] == "exponential" else [200, 400, 800]
        arg = json.dumps([e["pattern"], e.get("prefix", ""), e["attack"], e.get("suffix", ""), ns])
        try:
            out = subprocess.run([sys.executable, "-c", GT, arg], capture_output=True, text=True, timeout=4).stdout
        except subprocess.TimeoutExpired as x:
            out = (x.stdout or b"").decode() + "TIMEOUT"
        print(f"  {e['label'][:4]} {e['pattern'][:50]:<50} " + " | ".join(out.split("\n")))


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ground-truth", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    ap.add_argument("--recheck", action="store_true", help="also run recheck live (NODE_PATH must find it)")
    args = ap.parse_args(argv)
    table = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    detectors = {}
    makers = dict(DETECTORS, **({"recheck": recheck_detector} if args.recheck else {}))
    for name, make in makers.items():
        try:
            detectors[name] = make()
        except ImportError:
            print(f"{name}: not installed")
    corpus_report(detectors, args.verbose)
    for title, vkey, skey in (("patterns.yaml, main table", "vulnerable", "safe"),
                              ("held out (never used for tuning)", "held_out_vulnerable", "held_out_safe")):
        vul, safe = table.get(vkey, []), table.get(skey, [])
        rows = [(e["pattern"], e["label"]) for e in vul] + [(e["pattern"], "safe") for e in safe]
        nv = len(vul)
        ne = sum(1 for e in vul if e["label"] == "exponential")
        print(f"\n{title}: {len(rows)} patterns, {nv} vulnerable ({ne} exponential), {len(safe)} safe")
        print(f"{'detector':<11} {'TP':>3} {'FP':>3} {'FN':>3} {'TN':>3} {'precision':>9} {'recall':>6} "
              f"{'expo recall':>11} {'ms/pattern':>10}")
        for name, detect in detectors.items():
            if hasattr(detect, "prime"):
                detect.prime([p for p, _ in rows])
            c, misses = evaluate(detect, rows)
            prec = c["tp"] / max(1, c["tp"] + c["fp"])
            print(f"{name:<11} {c['tp']:>3} {c['fp']:>3} {c['fn']:>3} {c['tn']:>3} {prec:>9.2f} "
                  f"{c['tp'] / nv:>6.2f} {c['etp'] / max(1, ne):>11.2f} {c['ms']:>10.2f}"
                  + (f"  ({c['err']} errors)" if c["err"] else ""))
            if args.verbose:
                for m in misses:
                    print("    " + m)
    if args.ground_truth:
        ground_truth(table)


if __name__ == "__main__":
    main(sys.argv[1:])
