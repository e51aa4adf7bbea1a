"""The MCP rules on real servers' tools/list results (tests/data/corpus/, captured under
protocol 2025-11-25): no internal error, and no error or warning for the version they were
captured with. Under 2026-07-28 only what really changed is reported: `execution` (removed)
and the caching members a 2026-07-28 tools/list result must carry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.model import Severity
from mcplint.versions import VERSIONS

CORPUS = sorted((Path(__file__).resolve().parents[2] / "data" / "corpus").glob("*.json"))


def test_corpus_is_present():
    assert len(CORPUS) >= 10, CORPUS  # an empty glob would run none of the tests below


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_clean_for_capture_version(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    findings = lint_json(data, **{"select": ["MCP"], "protocol-versions": ["2025-11-25"]})
    bad = [f"{f.rule} {f.pointer}: {f.message}" for f in findings if f.severity >= Severity.WARNING]
    assert not bad, bad


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_under_2026_reports_only_real_changes(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    findings = lint_json(data, **{"select": ["MCP"], "protocol-versions": ["2026-07-28"]})
    serious = {(f.rule, str(f.pointer).rsplit("/", 1)[-1]) for f in findings if f.severity >= Severity.WARNING}
    assert serious <= {("MCP105", "execution"), ("MCP128", "")}, serious
    assert ("MCP128", "") in serious  # captured under 2025-11-25: no ttlMs/cacheScope/resultType
    has_execution = any("execution" in t for t in data["tools"])
    assert (("MCP105", "execution") in serious) == has_execution


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_every_version_runs(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    lint_json(data, **{"select": ["MCP"], "protocol-versions": list(VERSIONS)})
