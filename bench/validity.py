"""Micro benchmark: schema slots per second of the SCH family (JSON Schema validity) over
tests/data/corpus, repeated. Prints figures only; asserts nothing.

    python bench/validity.py [--repeat N] [--engine rs|python]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=50, help="passes over the corpus (default 50)")
    ap.add_argument("--engine", choices=["rs", "python"], help="validation engine (default: rs)")
    args = ap.parse_args()
    if args.engine:
        os.environ["MCPLINT_SCHEMA_ENGINE"] = args.engine

    t0 = time.perf_counter()
    from mcplint.collect import collect
    from mcplint.config import Config
    from mcplint.engine import active_rules, lint_collection
    from mcplint.load import parse, read_source
    from mcplint.metaschema import engine

    t_import = time.perf_counter() - t0
    config = Config(select=("SCH",))
    rules = active_rules(config)
    colls = []
    for path in sorted((ROOT / "tests" / "data" / "corpus").glob("*.json")):
        doc = parse(read_source(str(path), config.bounds.max_file_bytes))
        colls.append(collect(doc, config.protocol_versions))
    slots = sum(1 for c in colls for t in c.tools for _ in t.slots())

    t1 = time.perf_counter()
    for c in colls:  # first pass: lazy imports and meta-schema compilation
        lint_collection(c, config, rules, [])
    t_first = time.perf_counter() - t1

    t2, c2 = time.perf_counter(), time.process_time()
    findings = 0
    for _ in range(args.repeat):
        for c in colls:
            findings += len(lint_collection(c, config, rules, []))
    dt, cpu = time.perf_counter() - t2, time.process_time() - c2
    total = slots * args.repeat
    print(f"engine            {engine()}")
    print(f"rules             {', '.join(m.id for m in rules)}")
    print(f"import mcplint    {t_import * 1000:.1f} ms")
    print(f"first pass        {t_first * 1000:.1f} ms for {slots} slots (engine import + meta-schema compile)")
    print(f"slots             {total} ({slots} x {args.repeat})")
    print(f"findings          {findings}")
    print(f"time              {dt:.3f} s")
    print(f"cpu time          {cpu:.3f} s (one core; the machine's load inflates wall time, not this)")
    print(f"slots/s           {total / dt:,.0f} wall, {total / cpu:,.0f} per CPU-second")


if __name__ == "__main__":
    main()
