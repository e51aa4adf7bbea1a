"""A file that names no protocol version, none having been chosen, is checked under every version
its content is consistent with; a finding that holds under only some of them does not fail the run."""

from __future__ import annotations

import pytest

import json
from pathlib import Path

from mcplint.config import Config
from mcplint.engine import lint_document, lint_paths
from mcplint.load import load_text
from mcplint.model import Severity

CORPUS = Path(__file__).parent / "data" / "corpus"
SERVERS = Path(__file__).parent.parent / "bench" / "servers"  # 186 more real servers' results (2025-06-18)
TOOL = {"name": "a", "description": "A.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}


def lint(data, config: Config = Config()):
    coll, findings = lint_document(load_text(json.dumps(data), "t.json", "json"), config)
    return coll, findings


def test_every_real_server_capture_scans_without_a_version_error():
    # captured from 2025-11-25 servers: no protocol error that only a version they never claimed has
    files = sorted(CORPUS.glob("*.tools.json"))
    assert len(files) >= 12
    result = lint_paths([str(p) for p in files], Config())
    assert not result.errors
    bad = [(f.origin, f.rule, f.message) for f in result.findings
           if f.rule in ("MCP105", "MCP128") and f.severity == Severity.ERROR]
    assert bad == []
    by_file = {Path(origin).name: versions for origin, versions, _why in result.assumed_per_file}
    # their tools carry execution, which only 2025-11-25 defines
    for name in ("filesystem.tools.json", "memory.tools.json", "everything.tools.json"):
        assert by_file[name] == ("2025-11-25",), name
    assert by_file["time.tools.json"][0] == "2025-06-18"  # outputSchema: 2025-06-18 on
    assert len(by_file) == len(files) and all(vs for vs in by_file.values())  # every file, as none names one


@pytest.mark.slow
def test_the_benchmark_servers_captures_scan_without_a_version_error():
    files = sorted(SERVERS.glob("*.tools.json"))
    assert len(files) >= 180
    result = lint_paths([str(p) for p in files], Config(), jobs=1)
    assert not result.errors
    assert not [f for f in result.findings if f.rule in ("MCP105", "MCP128") and f.severity == Severity.ERROR]
    # as 2026-07-28 every one of them fails on those two rules
    as_2026 = lint_paths([str(p) for p in files[:20]], Config(protocol_versions=("2026-07-28",), versions_chosen=True),
                         jobs=1)
    assert len({f.origin for f in as_2026.findings if f.rule == "MCP128" and f.severity == Severity.ERROR}) == 20


def test_a_version_only_finding_is_lowered_and_says_where_it_matters():
    coll, findings = lint({"tools": [TOOL]})
    assert coll.assumed == ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
    # a list result with none of 2026-07-28's members reads as an older one: one information finding
    (older,) = [f for f in findings if f.rule == "MCP128"]
    assert older.severity == Severity.INFO and older.versions == ("2026-07-28",)
    assert "it reads as an older version's result" in older.message
    assert "(only under protocol 2026-07-28; the file names no version and may be for 2024-11-05 to 2026-07-28)" \
        in older.message
    assert not any(f.severity == Severity.ERROR for f in findings)
    # --fix writes no 2026-07-28 member into it (that would make it claim 2026-07-28): the fix is words only
    assert older.fix.title and not older.fix.patch
    # one of the members makes it a 2026-07-28 result: the others missing fail the run
    _, claims = lint({"resultType": "complete", "tools": [TOOL]})
    assert [f.severity for f in claims if f.rule == "MCP128"] == [Severity.ERROR]
    _, chosen = lint({"tools": [TOOL]}, Config(protocol_versions=("2026-07-28",), versions_chosen=True))
    assert [f.fix.patch for f in chosen if f.rule == "MCP128" and "resultType" in f.message][0]
    # a patch that changes nothing a version is told by keeps its patch (the canonical $schema URI)
    odd = {**TOOL, "inputSchema": {**TOOL["inputSchema"], "$schema": "http://json-schema.org/draft/2020-12/schema"}}
    _, findings = lint({"tools": [odd]})
    (dialect,) = [f for f in findings if f.rule == "SCH102"]
    assert dialect.severity == Severity.WARNING and "only under protocol 2025-11-25, 2026-07-28" in dialect.message
    assert dialect.fix.patch
    # a finding that holds under every version keeps its severity and its words
    _, broken = lint({"tools": [{"name": "a", "inputSchema": {"type": "array"}}]})
    root = [f for f in broken if f.pointer == ("tools", 0, "inputSchema", "type") and f.rule.startswith("MCP")]
    assert root and all(f.severity == Severity.ERROR and "only under" not in f.message for f in root)


def test_a_file_that_claims_a_version_keeps_its_verdict():
    # 2026-07-28 list-result members: a 2026-07-28 response, whose missing caching hints are an error
    coll, findings = lint({"resultType": "complete", "tools": [TOOL]})
    assert coll.assumed == ("2026-07-28",) and "resultType" in coll.assumed_why
    assert [f.severity for f in findings if f.rule == "MCP128"] == [Severity.ERROR]
    # ... and its execution member is an error, which 2026-07-28 removed (the list result's claim comes first)
    _, findings = lint({"ttlMs": 0, "cacheScope": "public", "tools": [{**TOOL, "execution": {}}]})
    assert [f.severity for f in findings if f.rule == "MCP105"] == [Severity.ERROR]
    # in a JSON-RPC response too
    coll, _ = lint({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "tools": [TOOL]}})
    assert coll.assumed == ("2026-07-28",)
    # x-mcp-header is 2026-07-28's only
    header = {**TOOL, "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}}
    assert lint([header])[0].assumed == ("2026-07-28",)
    # execution: 2025-11-25 only, so not checked as 2026-07-28 (where it was removed)
    coll, findings = lint({"tools": [{**TOOL, "execution": {"taskSupport": "optional"}}]})
    assert coll.assumed == ("2025-11-25",) and not [f for f in findings if f.rule in ("MCP105", "MCP128")]


def test_a_chosen_version_is_checked_as_before():
    for config in (Config(protocol_versions=("2026-07-28",), versions_chosen=True),
                   Config(protocol_versions=("2025-11-25", "2026-07-28"))):
        assert config.versions_chosen
        coll, findings = lint({"tools": [{**TOOL, "execution": {}}]}, config)
        assert coll.assumed == ()
        assert {(f.rule, f.severity) for f in findings if f.rule in ("MCP105", "MCP128")} >= {
            ("MCP105", Severity.ERROR), ("MCP128", Severity.ERROR)}
        assert not any("only under" in f.message for f in findings)


def test_a_severity_the_configuration_sets_is_kept():
    config = Config(severity={"MCP128": Severity.ERROR})
    _, findings = lint({"tools": [TOOL]}, config)
    assert {f.severity for f in findings if f.rule == "MCP128"} == {Severity.ERROR}
