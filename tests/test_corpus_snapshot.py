"""Real servers' tools/list results must scan without an internal error, and their
findings are pinned: any change to them shows up here for review.

To accept a reviewed change: MCPLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_corpus_snapshot.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mcplint.config import Config
from mcplint.engine import lint_paths

DATA = Path(__file__).parent / "data" / "corpus"
SNAPSHOT = Path(__file__).parent / "snapshots" / "corpus-findings.json"
FILES = sorted(DATA.glob("*.tools.json"))
# The corpus was captured under 2025-11-25; it is checked for that version and the latest.
CONFIG = Config(protocol_versions=("2025-11-25", "2026-07-28"))


def findings_of(path: Path) -> list[dict]:
    result = lint_paths([str(path)], CONFIG)
    assert not result.errors, result.errors
    return [{"rule": f.rule, "severity": f.severity.label, "pointer": str(f.pointer), "line": f.line,
             "versions": f.protocol_version, "profile": f.profile, "message": f.message}
            for f in result.findings]


def test_snapshot():
    current = {p.name: findings_of(p) for p in FILES}
    if os.environ.get("MCPLINT_UPDATE_SNAPSHOTS") or not SNAPSHOT.exists():
        SNAPSHOT.write_text(json.dumps(current, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if not os.environ.get("MCPLINT_UPDATE_SNAPSHOTS"):
            pytest.fail("snapshot was missing and has been written; review and commit it")
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert sorted(current) == sorted(pinned)
    for name in current:
        assert current[name] == pinned[name], f"findings changed for {name}; review, then update the snapshot"
