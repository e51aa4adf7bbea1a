"""No rule changes what it reports on whether another rule is selected: over the real-server
corpus and the examples, with several profiles, every rule's findings when it is the only rule
selected equal its findings in a run of every rule (shared walks, joint passes and the caches
rules keep must not leak one rule's state into another's result)."""

from __future__ import annotations

import pytest

from pathlib import Path

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.registry import all_rules

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(str(p) for p in (ROOT / "tests" / "data" / "corpus").glob("*.tools.json")) + \
    sorted(str(p) for p in (ROOT / "examples").glob("*.tools.json"))
PROFILES = ("openai-strict", "anthropic-strict", "gemini", "llguidance", "openai-agents-js", "cursor", "ollama")


def _by_rule(select: tuple) -> dict:
    result = lint_paths(FILES, Config(select=select, profiles=PROFILES,
                                      protocol_versions=("2025-11-25", "2026-07-28")), jobs=1)
    assert not result.errors
    out: dict = {}
    for f in result.findings:
        out.setdefault(f.rule, []).append((f.message, f.origin, str(f.pointer), f.span, f.tool, f.slot, f.versions,
                                           f.profile, f.severity, f.fix, f.consequence))
    return out


@pytest.mark.slow
def test_a_rule_alone_reports_what_it_reports_among_all():
    together = _by_rule(("ALL",))
    assert len(together) >= 20  # the corpus exercises many rules at once
    differ = []
    for meta in all_rules():
        alone = _by_rule((meta.id,))
        assert set(alone) <= {meta.id}
        if alone.get(meta.id, []) != together.get(meta.id, []):
            differ.append(meta.id)
    assert not differ, f"rules whose findings depend on the other rules selected: {differ}"
