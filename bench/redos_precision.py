"""SEC111's precision and recall on regexlib, a corpus it was not built from, in two splits.

    # 1. label (Node needed; an hour or more of CPU for the whole list, so a seeded sample):
    python bench/redos_precision.py label --regexlib regexlib.txt --pocs DIR [--sample 1600]
    # 2. measure (no Node; a second or two):
    python bench/redos_precision.py              # both splits, and the held-out one's misses with -v

The patterns are regexlib.com's, as collected by github.com/yetingli/ReDoS-Benchmarks (MIT) in
``regexlib/data/regexlib.txt`` at commit ``COMMIT`` (8,699 lines, 4,566 distinct patterns, 4,373
of them valid ECMA-262 without flags: the ones SEC111 analyses). ``--pocs`` is that repository's
``regexlib/javascript_test_file`` directory (and ``regexlib/2021-5-15/javascript_test_file``),
whose files carry an attack string found by that project's tool for the patterns it judged
vulnerable; used only as attack strings to try, never as labels.

Each sampled pattern is labelled by timing it in V8 (Node's irregexp: ``bench/redos_v8.js``,
the labeller of tests/data/redos/corpus.json) on every attack proposed for it: the attack
strings of mcplint's analysis (for each of its first hits, not only the one reported), the
ReDoS-Benchmarks one when there is one, and the labeller's generic ones (each character the
pattern names, pumped, before a character that fails). Vulnerable: one ``RegExp.prototype.test``
call took at least 1 s of CPU on at most 100,000 characters (exponential when within 40 pumps);
safe: no attack came near. So a "safe" label means no attack from three independent sources
made V8 slow, and a pattern flagged by SEC111 whose own attack string does not make V8 slow is
counted a false positive.

The split is fixed by a hash of the pattern (SHA-256, first byte even: tuning; odd: held-out),
so a pattern never moves between them. The analyser was tuned looking at the tuning split
only; the held-out split's figures are the ones docs/schema-safety.md reports, and
tests/rules/schema_safety/test_redos_precision.py holds them.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import re
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LABELS = ROOT / "tests" / "data" / "redos" / "regexlib.json"
COMMIT = "f5b5094d835649e957bf3fec6b8bd4f6efdb35fc"
SOURCE = f"github.com/yetingli/ReDoS-Benchmarks@{COMMIT} regexlib/data/regexlib.txt (MIT)"
SEED = 35


def split_of(pattern: str) -> str:
    return "tuning" if hashlib.sha256(pattern.encode("utf-8")).digest()[0] % 2 == 0 else "held-out"


def _pocs(dirs: list[str]) -> dict:
    """{pattern: attack} from the ReDoS-Benchmarks test files: the pattern on the comment's
    second line, the attack as ``"prefix"+"pump"*N+...+"suffix"``."""
    out: dict = {}
    for d in dirs:
        for f in sorted(Path(d).glob("regexlib_*.js")):
            lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
            if len(lines) < 5 or not lines[1].startswith(" * "):
                continue
            pattern = lines[1][3:]
            m = next((re.search(r"AttackString:(.*)$", line) for line in lines[:8] if "AttackString:" in line), None)
            if m is None:
                continue
            parsed = _poc_attack(m.group(1).strip())
            if parsed:
                out.setdefault(pattern, parsed)
    return out


def _poc_attack(expr: str) -> dict | None:
    """``""+"a"*32+"!"`` as {pumps: [[prefix, pump]...], suffix}; None when it is not that shape."""
    try:
        tree = ast.parse(expr, mode="eval").body
    except SyntaxError:
        return None
    terms = []

    def flatten(n) -> bool:
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            return flatten(n.left) and flatten(n.right)
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            terms.append((n.value, None))
            return True
        if (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) and isinstance(n.left, ast.Constant)
                and isinstance(n.left.value, str) and isinstance(n.right, ast.Constant)):
            terms.append((n.left.value, n.right.value))
            return True
        return False

    if not flatten(tree):
        return None
    pumps, text = [], ""
    for value, times in terms:
        if times is None:
            text += value
        else:
            pumps.append([text, value])
            text = ""
    return {"from": "ReDoS-Benchmarks", "pumps": pumps, "suffix": text} if pumps else None


def _ours(pattern: str, hits: int = 3) -> list[dict]:
    """The attack strings of mcplint's analysis, for each of its first ``hits`` hits."""
    from mcplint.redos.advice import attack_parts
    from mcplint.redos.search import Search
    from mcplint.redos.tree import Tree

    try:
        tree = Tree(pattern)
        found = Search(tree).run()
    except Exception:
        return []
    out = []
    for hit in found[:hits]:
        try:
            prefix, pump, suffix, _ = attack_parts(tree, hit)
        except Exception:
            continue
        # as the message says it; and with the required text before the pump repeated too, which an
        # unanchored search then re-enters at every repetition ('Last' in `Last.*?(\d+.?\d*)`)
        for a in ({"from": "mcplint", "pumps": [[prefix, pump]], "suffix": suffix},
                  {"from": "mcplint", "pumps": [["", prefix + pump]], "suffix": suffix} if prefix else None):
            if a is not None and a not in out:
                out.append(a)
    return out


def label(args) -> None:
    from mcplint.redos import validity

    lines = Path(args.regexlib).read_text(encoding="utf-8").split("\n")
    first: dict = {}
    for n, p in enumerate(lines, 1):
        if p and p not in first:
            first[p] = n
    valid = [p for p in first if validity(p).ok]
    sample = sorted(random.Random(SEED).sample(valid, min(args.sample, len(valid))), key=first.get)
    pocs = _pocs(args.pocs)
    entries = []
    for p in sample:
        attacks = _ours(p) + ([pocs[p]] if p in pocs else [])
        entries.append({"pattern": p, "line": first[p], "split": split_of(p), "attacks": attacks})
    done = _load()
    # (labelled again: a pattern never labelled, or one whose proposed attacks changed since)
    todo = [e for e in entries if e["pattern"] not in done or done[e["pattern"]].get("proposed") != e["attacks"]]
    print(f"{len(valid)} valid distinct patterns; {len(entries)} sampled, {len(todo)} to label", file=sys.stderr)
    if args.shard:  # one of several processes: every n-th pattern, into a file of its own
        i, n = map(int, args.shard.split("/"))
        todo = todo[i::n]
        out = LABELS.with_name(f"{LABELS.stem}.shard{i}.json")
    else:
        out = LABELS
        for f in LABELS.parent.glob(LABELS.stem + ".shard*.json"):
            f.unlink()
    env = dict(os.environ, REDOS_GENERIC_CHARS=str(args.generic_chars)) if args.generic_chars else None
    for start in range(0, len(todo), args.batch):
        batch = todo[start:start + args.batch]
        t = time.time()
        run = subprocess.run(["node", str(ROOT / "bench" / "redos_v8.js")], input=json.dumps(batch), text=True,
                             capture_output=True, env=env, check=True)
        for e in json.loads(run.stdout):
            e.pop("recheck", None)
            e["proposed"] = e.pop("attacks")  # tried first, then the generic ones
            done[e["pattern"]] = e
        _write(done, entries, out)
        print(f"{start + len(batch)}/{len(todo)} in {time.time() - t:.0f} s", file=sys.stderr)
    _write(done, entries, out)
    if not args.shard:
        for f in LABELS.parent.glob(LABELS.stem + ".shard*.json"):
            f.unlink()


def _load() -> dict:
    """{pattern: row} of the labels, with those of unmerged shards (a labelling under way)."""
    done: dict = {}
    for f in [LABELS, *sorted(LABELS.parent.glob(LABELS.stem + ".shard*.json"))]:
        if f.exists():
            done.update({e["pattern"]: e for e in json.loads(f.read_text(encoding="utf-8"))["patterns"]})
    return done


def _write(done: dict, entries: list, out: Path = LABELS) -> None:
    rows = [done[e["pattern"]] for e in entries if e["pattern"] in done]
    doc = {"source": SOURCE, "sample": f"random.Random({SEED}).sample of the valid distinct patterns",
           "labelled_by": "bench/redos_v8.js: vulnerable when one RegExp.prototype.test call took >= 1 s of CPU "
                          "on <= 100,000 characters; attacks tried: mcplint's, ReDoS-Benchmarks', generic",
           "patterns": rows}
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(out)


def measure(rows: list, detect) -> dict:
    """Recall on the vulnerable rows and the false-positive rate on the safe ones, per split."""
    out = {}
    for split in ("tuning", "held-out"):
        part = [r for r in rows if r["split"] == split and r["label"] in ("safe", "exponential", "polynomial")]
        bad = [r for r in part if r["label"] != "safe"]
        good = [r for r in part if r["label"] == "safe"]
        hit = [r for r in bad if detect(r["pattern"])]
        false = [r for r in good if detect(r["pattern"])]
        flagged = len(hit) + len(false)
        out[split] = {"vulnerable": len(bad), "safe": len(good), "found": len(hit), "false_positives": len(false),
                      "recall": len(hit) / len(bad) if bad else 1.0,
                      "fp_rate": len(false) / len(good) if good else 0.0,
                      "precision": len(hit) / flagged if flagged else 1.0,
                      "missed": [r["pattern"] for r in bad if r not in hit],
                      "false": [r["pattern"] for r in false]}
    return out


def evaluate(args) -> None:
    from mcplint.redos import analyse

    rows = list(_load().values())
    t = time.process_time()
    result = measure(rows, lambda p: analyse(p) is not None)
    cpu = time.process_time() - t
    for split, m in result.items():
        print(f"{split:9} {m['vulnerable']:4} vulnerable, {m['safe']:4} safe: recall {m['recall']:.3f} "
              f"({m['found']}/{m['vulnerable']}), false positives {m['fp_rate']:.3%} "
              f"({m['false_positives']}/{m['safe']}), precision {m['precision']:.3f}")
        if args.verbose and (split == "held-out" or args.verbose > 1):
            for p in m["false"]:
                print(f"    false positive: {p}")
            for p in m["missed"]:
                print(f"    missed:         {p}")
    print(f"({len(rows)} patterns analysed in {cpu:.1f} s of CPU)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    lab = sub.add_parser("label", help="label a sample of regexlib by timing V8 (needs node)")
    lab.add_argument("--regexlib", required=True, help="regexlib/data/regexlib.txt of ReDoS-Benchmarks")
    lab.add_argument("--pocs", nargs="*", default=[], help="its javascript_test_file directories")
    lab.add_argument("--sample", type=int, default=1600)
    lab.add_argument("--batch", type=int, default=50)
    lab.add_argument("--shard", metavar="I/N", help="label every N-th pattern from the I-th (0-based) into a file "
                     "of its own; a run without --shard merges the shards")
    lab.add_argument("--generic-chars", type=int, default=0,
                     help="pump only the first N characters the pattern names in the generic attacks (cheaper)")
    ap.add_argument("-v", "--verbose", action="count", default=0, help="list the held-out misses and false positives")
    args = ap.parse_args()
    if args.cmd == "label":
        label(args)
    else:
        evaluate(args)


if __name__ == "__main__":
    main()
