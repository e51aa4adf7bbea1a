"""A tool that several captures of a probe list alike is linted once (mcplint.alike): the findings
are those of linting every capture in full, and the work is about that of one capture."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcplint import engine
from mcplint.capture import capture_collections, one_per_problem
from mcplint.config import Config
from mcplint.load import load_text
from mcplint.model import _FIELDS as FIELDS, Finding

VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
CORPUS = Path(__file__).parent / "data" / "corpus"

# Tools whose findings differ by version: members a version lacks (title, icons, outputSchema,
# annotations, execution), boolean property schemas (an error before 2025-11-25, allowed later),
# `required` as a string (MCP110 before 2025-11-25, SCH101 otherwise), a name listed twice.
VERSIONED = [
    {"name": "search", "title": "Search", "icons": [{"src": "https://example.com/i.png"}],
     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "all": True}, "required": "q"},
     "outputSchema": {"type": "object", "properties": {"hits": {"type": "array"}}},
     "annotations": {"readOnlyHint": "yes"}, "execution": {"taskSupport": "never"}},
    {"name": "search", "inputSchema": {"type": "object", "properties": {"p": False}}},
    {"name": "x" * 140, "description": "", "inputSchema": {"type": "object", "$schema": "http://json-schema.org/draft-07/schema#",
                                                           "properties": {"n": {"type": "integer", "minimum": "1"}}}},
    {"name": "refs", "inputSchema": {"type": "object", "$defs": {"a": {"$ref": "#/$defs/a"}},
                                     "properties": {"a": {"$ref": "#/$defs/a"}, "r": {"pattern": "(a+)+$"}}}},
]


def corpus_tools(per_file: int = 2) -> list:
    tools = []
    for path in sorted(CORPUS.glob("*.tools.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        listed = data["tools"] if isinstance(data, dict) else data
        tools += listed[:per_file]
    return tools


def capture_text(listings: list) -> str:
    """A capture document: one capture per (versions, tools)."""
    return json.dumps({"mcplintCapture": 1, "server": "s", "captures": [
        {"protocolVersions": vs, "result": {"tools": tools}, "transcripts": {}} for vs, tools in listings]}, indent=1)


def listings(tools: list) -> list:
    """Each version its own listing: the same tools, but one changed and one moved per version."""
    out = []
    for i, v in enumerate(VERSIONS):
        mine = [dict(t) for t in tools]
        mine[i] = {**mine[i], "description": f"changed under {v}"}
        mine.append(mine.pop(i + 1))
        out.append(([v], mine))
    out.append((["2025-06-18", "2025-11-25"], tools))  # (two versions of one capture, for the shape of it)
    return out


def findings(text: str, config: Config, shortcut: bool) -> list[Finding]:
    doc = load_text(text, "c.capture.json", "json")
    colls = capture_collections(doc, ())
    if shortcut:
        return engine.lint_captures(colls, config)
    return one_per_problem([f for c in colls for f in engine.lint_collection(c, config)])  # every capture in full


def as_json(found: list[Finding]) -> str:
    """Every field of every finding, in the report's order."""
    return json.dumps([[repr(getattr(f, name)) for name in FIELDS] for f in sorted(found, key=Finding.sort_key)])


@pytest.mark.parametrize("config", [Config(), Config(profiles=("default",)), Config(profiles=("strict",))],
                         ids=["no profile", "default", "strict"])
def test_findings_equal_linting_each_capture(config):
    tools = VERSIONED + corpus_tools()
    text = capture_text(listings(tools))
    plain = findings(text, config, shortcut=False)
    fast = findings(text, config, shortcut=True)
    assert len({f.rule for f in plain}) > 12  # (many rules fire, several of them by version)
    assert any(len(f.versions) > 1 for f in plain) and any(len(f.versions) == 1 for f in plain)
    assert as_json(fast) == as_json(plain)


def test_equal_in_python_is_not_alike():
    """1, 1.0 and true are equal in Python but not alike in JSON: such tools are linted each."""
    def tool(value):
        return {"name": "t", "inputSchema": {"type": "object", "properties": {"s": {"type": "string",
                                                                                "maxLength": value}}}}
    text = capture_text([(["2025-06-18"], [tool(1)]), (["2025-11-25"], [tool(True)]), (["2026-07-28"], [tool(1.0)])])
    plain = findings(text, Config(), shortcut=False)
    assert as_json(findings(text, Config(), shortcut=True)) == as_json(plain)
    assert {f.versions for f in plain if f.rule == "SCH101"} == {("2025-11-25",)}  # (true is no length)


def test_a_finding_naming_its_capture_stays_its_own():
    """A finding whose words hold a pointer into its capture is not taken for another capture,
    where the words would differ."""
    from mcplint.alike import _names_a_place
    from mcplint.registry import RawFinding

    assert _names_a_place(RawFinding(("captures", 0), "first at /captures/0/result/tools/1"))
    assert not _names_a_place(RawFinding(("captures", 0), "property 'q' has no type"))


@pytest.mark.slow
def test_four_alike_listings_cost_about_one():
    """Work counter: four captures listing 1,500 tools alike (but one) make far fewer than four
    times one capture's Python function calls (about 1.3 times; the bound is generous). A count
    of calls, not CPU time: a loaded machine moves CPU-time ratios (2.3 to 3.5 were seen)."""
    tools = [{"name": f"t_{i}", "description": "A tool.", "inputSchema": {
        "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}} for i in range(1500)]
    one = capture_text([(["2025-11-25"], tools)])
    four = capture_text([([v], [{**tools[0], "name": v}] + tools[1:]) for v in VERSIONS[:4]])

    def calls(text: str) -> int:
        doc = load_text(text, "c.capture.json", "json")
        colls = capture_collections(doc, ())
        made = [0]

        def count(frame, event, arg):
            if event == "call":
                made[0] += 1

        sys.setprofile(count)
        try:
            engine.lint_captures(colls, Config())
        finally:
            sys.setprofile(None)
        return made[0]

    calls(one)  # (warm: imports, caches)
    assert calls(four) < 2.5 * calls(one)


def test_suppress_entries_lint_each_capture_in_full():
    """A suppress entry names one capture's place: then nothing is taken from another capture."""
    tools = VERSIONED
    text = capture_text([(["2024-11-05"], tools), (["2025-03-26"], tools)])
    config = Config(suppress=({"rule": "SEC111", "pointer": "/captures/1/result/tools/3/inputSchema/properties/r/pattern"},))
    plain = findings(text, config, shortcut=False)
    assert as_json(findings(text, config, shortcut=True)) == as_json(plain)
    sec111 = [f for f in plain if f.rule == "SEC111"]
    assert [f.versions for f in sec111] == [("2024-11-05",)]  # (the other capture's is suppressed)
