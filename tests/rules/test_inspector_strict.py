"""The MCP Inspector's `--strict` schema lint (2.12: boolean-schema, type-union, remote-ref,
untyped-schema) is a subset of mcplint's findings under default settings: every finding the
Inspector's own lint made (tests/data/inspector: the record of its code run over hand-written cases
for each branch and over the real servers' tools, and the script that makes it) has a finding from
the rule docs/inspector-strict.md maps it to, at the same tool, slot and place. With
MCPLINT_INSPECTOR (the unpacked npm package) the lint runs again and must make the record."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "inspector"
# the Inspector's check -> the mcplint rules that report its shape (docs/inspector-strict.md): at the
# root, the MCP family's object-root rules; elsewhere the SCH rules and SEC101
MAPPING = {
    "boolean-schema": {"MCP103", "MCP108", "SCH112"},
    "type-union": {"MCP107", "SCH113"},
    "remote-ref": {"SEC101"},
    "untyped-schema": {"MCP106", "SCH108", "SCH114"},
}
_STEP = re.compile(r'(?:^|\.)([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "record.json").read_text(encoding="utf-8"))


def pointer(path: str) -> str:
    """The JSON Pointer of one of the Inspector's paths (`properties.a.anyOf[1]`, `$defs["a-b"]`)."""
    out, at = [], 0
    while at < len(path):
        step = _STEP.match(path, at)
        assert step, f"not an Inspector path: {path!r}"
        key = json.loads(step[3]) if step[3] else step[1] or step[2]
        out.append("/" + key.replace("~", "~0").replace("/", "~1"))
        at = step.end()
    return "".join(out)


def test_pointer_reads_the_inspectors_paths():
    assert pointer("") == ""
    assert pointer('properties.a.anyOf[1]') == "/properties/a/anyOf/1"
    assert pointer('$defs["a/b"].items[0]') == "/$defs/a~1b/items/0"


def missed(found: list) -> list:
    """The Inspector's findings in ``found`` ([(name, tool, findings)]) that mcplint has no finding for
    at the same place (the schema there, or its `type` or `$ref`) from a rule MAPPING gives."""
    tools = [{"name": f"t{i}", "description": "A tool.", **tool} for i, (_, tool, _) in enumerate(found)]
    have = {(str(f.pointer), f.rule) for f in lint_json({"tools": tools})}
    out = []
    for i, (name, _, findings) in enumerate(found):
        for check, slot, path in findings:
            at = f"/tools/{i}/{slot}{pointer(path)}"
            if not any((p, r) in have for p in (at, at + "/type", at + "/$ref") for r in MAPPING[check]):
                out.append((name, check, slot, path))
    return out


def test_every_branch_of_the_lint_has_a_recorded_case():
    rec = record()
    assert rec["package"] == "@modelcontextprotocol/inspector" and rec["version"] == "2.12.0"
    checks = {f[0] for case in rec["cases"] for f in case["findings"]}
    assert checks == set(MAPPING)
    near = [case["name"] for case in rec["cases"] if case["name"].startswith("near-")]
    assert near and all(not case["findings"] for case in rec["cases"] if case["name"] in near)


def test_every_inspector_finding_on_the_cases_has_a_mcplint_finding_at_its_place():
    assert not missed([(c["name"], c["tool"], c["findings"]) for c in record()["cases"] if c["findings"]])


@pytest.mark.slow
def test_every_inspector_finding_on_the_real_servers_has_a_mcplint_finding_at_its_place():
    corpus = records.corpus_tools(ROOT)
    rec = record()["corpus"]
    assert set(rec) == set(corpus), "the corpus changed since the record: run tests/data/inspector/record.py"
    found = [(d, corpus[d], rec[d]) for d in corpus if rec[d]]
    assert {f[0] for _, _, fs in found for f in fs} >= {"type-union", "untyped-schema", "remote-ref"}
    assert not missed(found)


@pytest.mark.slow
@pytest.mark.real_package
@pytest.mark.skipif(not (os.environ.get("MCPLINT_INSPECTOR") and shutil.which("node")),
                    reason="MCPLINT_INSPECTOR (the unpacked @modelcontextprotocol/inspector 2.12.0 package) not set")
def test_the_installed_package_makes_the_record():
    package = Path(os.environ["MCPLINT_INSPECTOR"]).resolve()
    assert json.loads((package / "package.json").read_text(encoding="utf-8"))["version"] == record()["version"]
    spec = importlib.util.spec_from_file_location("inspector_record", HERE / "record.py")
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    again = rec.observe(package)
    assert not missed([(c["name"], c["tool"], c["findings"]) for c in again["cases"] if c["findings"]])
    drift = records.drift(record(), again)
    assert not drift, f"the installed package differs from the record (run tests/data/inspector/record.py): {drift[:12]}"


def test_the_portable_forms_get_none_of_those_findings():
    tool = {"name": "t", "description": "A tool.", "inputSchema": {"type": "object", "additionalProperties": False,
            "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "number"}], "description": "V value"},
                           "e": {"enum": ["a", "b"], "description": "An enum"},
                           "n": {"type": "string", "not": {}, "description": "Nothing"},
                           "tags": {"type": "array", "items": {"type": "string"}, "description": "Tag list"}}}}
    rules = set().union(*MAPPING.values())
    assert not [(f.rule, str(f.pointer)) for f in lint_json({"tools": [tool]}) if f.rule in rules]
