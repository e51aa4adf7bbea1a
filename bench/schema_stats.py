"""Measure what the safety bounds (SEC105-SEC109, SEC112) see on real schemas.

Prints, per metric, the largest value found in any schema slot of the given files
(default: the bundled corpus of real servers and the official MCP examples), which
slot holds it, and the default bound beside it, so bound defaults can be chosen
with a visible margin:

    python bench/schema_stats.py [FILES_OR_DIRS...]
    python bench/schema_stats.py --speed [FILES_OR_DIRS...]   # also slots/s: SEC only, and all rules
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcplint.collect import collect  # noqa: E402
from mcplint.config import Bounds  # noqa: E402
from mcplint.load import expand_paths, parse, read_source  # noqa: E402
from mcplint.rules.schema_safety.common import analysis  # noqa: E402
from mcplint.rules.schema_safety.bounds import _schema_bytes  # noqa: E402

HUGE = 10**9


def measure(paths):
    unbounded = replace(Bounds(), max_subschemas=HUGE, max_depth=HUGE)
    best = {}
    slots = 0

    def note(metric, value, where):
        if value > best.get(metric, (-1, ""))[0]:
            best[metric] = (value, where)

    for path in expand_paths(paths):
        doc = parse(read_source(path, 100 * 1024 * 1024))
        try:
            coll = collect(doc, ("2026-07-28",))
        except Exception:
            continue
        for tool in coll.tools:
            for slot in tool.slots():
                slots += 1
                where = f"{Path(path).name} {tool.label}.{slot.kind}"
                a = analysis(slot, unbounded)
                note("max_depth", a.depth, where)
                note("max_subschemas", len(a.subs), where)
                note("max_enum", max((n for _, n in a.enums), default=0), where)
                note("max_schema_bytes", _schema_bytes(slot.schema, HUGE), where)
                note("max_pattern_length", max((len(t) for _, t, _ in a.patterns), default=0), where)
                exp = a.ref_info(slot.schema).expansions(HUGE) if a.has_refs else 0
                note("max_ref_expansions", exp, where)
    return slots, best


def speed(paths):
    """Schema slots per CPU second (best of 5 passes, pattern caches warm as in a real run)."""
    import time

    from mcplint.config import Config, Where, parse_settings
    from mcplint.engine import lint_document

    docs = [parse(read_source(p, 100 * 1024 * 1024)) for p in expand_paths(paths)]
    for d in docs:
        d.spans  # location cost is the reporters', not the rules'
    for sel in (["SEC"], ["ALL"]):
        cfg = parse_settings({"select": sel}, Where("bench"), Config())
        best = None
        for _ in range(5):
            slots, t = 0, time.process_time()
            for d in docs:
                try:
                    coll, _ = lint_document(d, cfg)
                except Exception:
                    continue
                slots += sum(1 for tool in coll.tools for _ in tool.slots())
            rate = slots / max(1e-9, time.process_time() - t)
            best = rate if best is None else max(best, rate)
        print(f"select {sel[0]:<4} {best:>8.0f} slots per CPU second")


def main(argv):
    do_speed = "--speed" in argv
    argv = [a for a in argv if a != "--speed"]
    paths = argv or [str(ROOT / "tests/data/corpus"), str(ROOT / "tests/data/mcp-examples")]
    slots, best = measure(paths)
    d = Bounds()
    print(f"{slots} schema slots")
    print(f"{'bound':<20} {'largest seen':>12} {'default':>10} {'margin':>8}  where")
    for metric, (value, where) in best.items():
        bound = getattr(d, metric)
        margin = f"{bound / value:.0f}x" if value else "-"
        print(f"{metric:<20} {value:>12} {bound:>10} {margin:>8}  {where}")
    if do_speed:
        speed(paths)


if __name__ == "__main__":
    main(sys.argv[1:])
