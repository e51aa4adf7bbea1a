"""The official MCP examples (tests/data/mcp-examples/<version>/) lint clean for their own
protocol version: no finding of severity error or warning from the selected families.

Each example is checked for the version whose folder holds it; a Tool that is valid in
one version but not another (the 2025-11-25 get_weather carries `execution`) is also
checked against the version that rejects it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.model import Severity
from mcplint.versions import VERSIONS

EXAMPLES = Path(__file__).parent / "data" / "mcp-examples"

# Rule families checked against the official examples. Add a family here when it is merged.
SELECT = ["MCP"]

TOOL_DIRS = ("Tool", "Tool-from-tools-mdx")
LIST_DIRS = ("ListToolsResult", "ListToolsResultResponse")


def _examples() -> list[tuple[str, Path]]:
    out = []
    for version in VERSIONS:
        for sub in (*TOOL_DIRS, *LIST_DIRS):
            for f in sorted((EXAMPLES / version / sub).glob("*.json")):
                out.append((version, f))
    return out


EXAMPLE_FILES = _examples()


def test_examples_are_present():
    versions = {v for v, _ in EXAMPLE_FILES}
    assert versions == set(VERSIONS), versions
    assert any(f.parent.name in LIST_DIRS for _, f in EXAMPLE_FILES)


@pytest.mark.parametrize("version,path", EXAMPLE_FILES,
                         ids=[f"{v}/{p.parent.name}/{p.name}" for v, p in EXAMPLE_FILES])
def test_official_example_is_clean_for_its_version(version, path):
    data = json.loads(path.read_text(encoding="utf-8"))
    findings = lint_json(data, **{"select": SELECT, "protocol-versions": [version]})
    bad = [f"{f.rule} {f.severity.label} {f.pointer}: {f.message}" for f in findings
           if f.severity >= Severity.WARNING]
    assert not bad, bad


def test_execution_is_2025_11_25_only():
    """get_weather from the 2025-11-25 tools.mdx carries execution.taskSupport: clean for
    2025-11-25, an error for 2026-07-28 (and for versions before 2025-11-25)."""
    data = json.loads((EXAMPLES / "2025-11-25" / "Tool-from-tools-mdx" / "get_weather.json").read_text())
    assert "execution" in data
    clean = lint_json(data, **{"select": SELECT, "protocol-versions": ["2025-11-25"]})
    assert not [f for f in clean if f.severity >= Severity.WARNING]
    flagged = lint_json(data, **{"select": ["MCP"], "protocol-versions": ["2026-07-28"]})
    hits = [f for f in flagged if str(f.pointer) == "/execution"]
    assert [(f.rule, f.severity, f.versions) for f in hits] == [("MCP105", Severity.ERROR, ("2026-07-28",))]
    both = lint_json(data, **{"select": ["MCP"], "protocol-versions": ["2025-11-25", "2026-07-28"]})
    assert {f.versions for f in both if str(f.pointer) == "/execution"} == {("2026-07-28",)}


def test_array_output_schema_is_2026_only():
    """The 2026-07-28 list_users example has an array outputSchema: valid there, an error in 2025-11-25."""
    data = json.loads((EXAMPLES / "2026-07-28" / "Tool" / "tool-with-array-output-schema.json").read_text())
    older = lint_json(data, **{"select": ["MCP"], "protocol-versions": ["2025-11-25"]})
    assert {f.rule for f in older if f.severity == Severity.ERROR} == {"MCP109"}
