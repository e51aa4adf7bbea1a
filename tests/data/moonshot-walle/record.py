"""Record what Moonshot's own schema validator (walle, github.com/MoonshotAI/walle) says of each
input schema the truth lab knows (tests/verify/test_moonshot_walle.py replays the record offline).

    git clone https://github.com/MoonshotAI/walle && (cd walle && git checkout 196bb0c)
    MCPLINT_WALLE=walle/python python tests/data/moonshot-walle/record.py

walle ships its validator as a shared library with a Python binding (python/walle); this script
loads that binding from MCPLINT_WALLE and validates, at the level its README calls required by the
Moonshot server (strict): the hand-written shapes and probes of mcplint.verify.records, kept whole,
and the distinct input schemas of bench/servers, tests/data/corpus and examples, kept as walle's
error (or null) keyed by digest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT)]

from mcplint.verify.records import corpus_schemas, named_cases  # noqa: E402

LEVEL = "strict"


def validator():
    sys.path.insert(0, os.environ["MCPLINT_WALLE"])
    from walle.validator import WalleValidator

    return WalleValidator()


def verdict(v, schema) -> str | None:
    try:
        v.validate_schema(json.dumps(schema), {"validateLevel": LEVEL})
    except ValueError as e:
        return str(e)
    return None


def main() -> None:
    v = validator()
    checkout = Path(os.environ["MCPLINT_WALLE"]).parent
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=checkout).stdout.strip() or "unknown"
    version = next((line.split('"')[1] for line in (checkout / "pyproject.toml").read_text().splitlines()
                    if line.startswith("version")), "unknown")
    named = named_cases()
    record = {
        "package": "walle", "version": version, "commit": commit, "level": LEVEL,
        "recorded": date.today().isoformat(),
        "cases": [{"name": n, "schema": t["inputSchema"], "error": verdict(v, t["inputSchema"])} for n, t in named],
        "corpus": {d: verdict(v, s) for d, s in corpus_schemas(ROOT).items()},
    }
    (HERE / "record.json").write_text(json.dumps(record, indent=None, sort_keys=True) + "\n", encoding="utf-8")
    refused = sum(e is not None for e in record["corpus"].values())
    print(f"{len(record['cases'])} cases, {len(record['corpus'])} corpus schemas ({refused} refused), walle {version}")


if __name__ == "__main__":
    main()
