"""What each performance shortcut of the engine and the shared walk earns: lint a sample of
the throughput corpus (bench/corpus.py) in this process, once as the code is and once with
one shortcut replaced by its plain path, and print the cost of each. Asserts nothing.

Run under cachegrind for instruction counts (steady on a busy machine), one variant per run:

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no python bench/shortcuts.py --variant NAME

or without valgrind for CPU time (medians of --repeat runs): python bench/shortcuts.py --all.
The variants (the plain path each shortcut stands in for):

- ``none``: the code as it is.
- ``no-words``: no word requirements from the slot's marshal encoding: every slot is taken to
  hold ``x-mcp-header``, ``pattern`` and ``$`` (rules requiring them are always called).
- ``no-shared-walk``: the rules' ``ctx.walks`` keeps nothing (a :class:`mcplint.schemawalk.Walks`
  instead of a ``SharedWalks``: every family walks and encodes each slot itself).
- ``no-landmarks``: JSON parsed without recording landmarks (every finding located from the top).
- ``gc-on``: the cyclic garbage collector left on while linting.
- ``no-memo``: a rule memo (:mod:`mcplint.memo`) that keeps nothing: every rule works out for
  itself what the rules of a slot, a tool or a file share (a slot's analysis or walk, each
  profile's evaluation of it, the words of a message).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

VARIANTS = ("none", "no-words", "no-shared-walk", "no-landmarks", "gc-on", "no-memo")


def apply(variant: str) -> None:
    from mcplint import engine, load

    if variant == "no-words":
        plain = engine._slot_facts

        def every_word(slot, wanted=frozenset(engine._WORDS), walks=None):
            return engine._interned(set(plain(slot, frozenset())) | set(wanted))

        engine._slot_facts = every_word
    elif variant == "no-shared-walk":
        from mcplint import memo, schemawalk

        memo.SharedWalks = schemawalk.Walks
    elif variant == "no-landmarks":
        from mcplint.jsonparse import parse_json

        load.parse_json_indexed = lambda text: (*parse_json(text), None)
    elif variant == "gc-on":
        class KeepGC:
            def __enter__(self):
                gc.enable()

            def __exit__(self, *exc):
                return False
        engine._no_cycle_collection = KeepGC
    elif variant == "no-memo":
        from mcplint import memo, registry, schemawalk

        class Forgetful(memo.Memo):
            __slots__ = ()
            target = property(lambda self: {})
            collection = property(lambda self: {})

            def __init__(self):
                self.walks = schemawalk.SharedWalks()  # (the shared walk has a variant of its own)

            def next_target(self):
                pass

            def forget(self):
                pass

        engine.Memo = registry.Memo = Forgetful
    elif variant != "none":
        raise SystemExit(f"unknown variant {variant!r} (one of {', '.join(VARIANTS)})")


def corpus(files: int, source: str) -> list[str]:
    from bench.corpus import write

    out = HERE / "out" / f"shortcuts-{source}"
    paths = sorted(out.glob("server-*.tools.json")) if out.exists() else []
    if len(paths) != 100:
        paths = write(out, 10_000, source=source)
    if files <= 0:  # the cost of starting up alone (subtract it from the others)
        return []
    step = max(1, len(paths) // files)
    return [str(p) for p in paths[::step][:files]]


def run_once(paths: list[str]) -> int:
    from mcplint.config import Config
    from mcplint.engine import lint_paths

    result = lint_paths(paths, Config(), jobs=1)
    return len(result.findings)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="none", choices=VARIANTS)
    ap.add_argument("--all", action="store_true", help="every variant in a fresh process, CPU time")
    ap.add_argument("--files", type=int, default=10, help="corpus files of 100 tools each")
    ap.add_argument("--corpus", choices=["servers", "dev"], default="servers")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    paths = corpus(args.files, args.corpus)
    if args.all:
        import subprocess

        for v in VARIANTS:
            r = subprocess.run([sys.executable, __file__, "--variant", v, "--files", str(args.files),
                                "--corpus", args.corpus, "--repeat", str(args.repeat)],
                               capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
            print(r.stdout.strip() or r.stderr.strip())
        return
    apply(args.variant)
    times, found = [], 0
    for _ in range(args.repeat):
        t = time.process_time()
        found = run_once(paths)
        times.append(time.process_time() - t)
    print(f"{args.variant:15} {args.corpus} {len(paths)} files: {found} findings, "
          f"CPU {statistics.median(times):.3f} s (median of {len(times)}; {min(times):.3f}-{max(times):.3f})")


if __name__ == "__main__":
    main()
