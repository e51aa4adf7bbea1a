"""The CI-facing reports: SARIF against the SARIF 2.1.0 schema (and what GitHub code
scanning needs on top of it), and the Markdown job summary with its profile matrix."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import sarif_validator
from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Pointer
from mcplint.report import Options, render

DATA = Path(__file__).parent.parent / "data"
DOC_ONLY = Config(select=("DOC001",))  # exact expectations: only the rule these files are built for
SCHEMAS = DATA / "schemas"
DUP = '{"tools": [\n  {"name": "a", "inputSchema": {"type": "object", "type": "object"}},\n' \
      '  {"name": "b|c", "inputSchema": {"type": "object"}}\n]}\n'


@pytest.fixture
def scanned(tmp_path, monkeypatch):
    """A scan of a file with findings (in a directory whose name needs escaping in a URI),
    a clean corpus file and a missing file."""
    monkeypatch.chdir(tmp_path)
    d = tmp_path / "my tools#1"
    d.mkdir()
    (d / "bad.json").write_text(DUP)
    (d / "good.json").write_text((DATA / "corpus" / "fetch.tools.json").read_text())
    return lint_paths([str(Path("my tools#1") / "bad.json"), str(Path("my tools#1") / "good.json"), "missing.json"],
                      DOC_ONLY)


def test_sarif_is_valid_and_github_ready(scanned):
    log = json.loads(render("sarif", scanned))
    errors = sorted(sarif_validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert rules and all(r["help"]["text"].strip() and r["fullDescription"]["text"].strip() for r in rules)
    assert all(urlsplit(r["helpUri"]).scheme for r in rules if "helpUri" in r)  # absolute URIs only
    assert run["results"]
    for res in run["results"]:
        phys = res["locations"][0]["physicalLocation"]
        assert phys["region"]["startLine"] >= 1 and phys["region"]["startColumn"] >= 1
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        # repository-relative, percent-encoded, resolved against %SRCROOT%
        assert phys["artifactLocation"] == {"uri": "my%20tools%231/bad.json", "uriBaseId": "%SRCROOT%"}
        assert res["partialFingerprints"]["mcplintFinding/v1"]
    res = run["results"][0]
    assert res["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 51,
                                                                 "endLine": 2, "endColumn": 67}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].endswith("/")
    # the missing file is not silently dropped: it is a failed-execution notification
    inv = run["invocations"][0]
    assert inv["executionSuccessful"] is False
    assert "missing.json" in inv["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_fingerprint_survives_line_moves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "t.json"
    f.write_text(DUP)
    before = json.loads(render("sarif", lint_paths([str(f)], DOC_ONLY)))["runs"][0]["results"][0]
    f.write_text("\n\n\n" + DUP)
    after = json.loads(render("sarif", lint_paths([str(f)], DOC_ONLY)))["runs"][0]["results"][0]
    assert before["locations"] != after["locations"]
    assert before["partialFingerprints"] == after["partialFingerprints"]


def test_sarif_of_the_corpus_with_every_rule_is_valid(tmp_path, monkeypatch):
    """Whatever rules exist: every result is placed and every rule documented."""
    monkeypatch.chdir(Path(__file__).parent.parent.parent)
    result = lint_paths([str(DATA / "corpus"), "examples"], Config(select=("ALL",)))
    log = json.loads(render("sarif", result))
    assert not list(sarif_validator().iter_errors(log))
    run = log["runs"][0]
    assert all(r["help"]["text"].strip() for r in run["tool"]["driver"]["rules"])
    for res in run["results"]:
        phys = res["locations"][0]["physicalLocation"]
        assert phys["region"]["startLine"] >= 1 and phys["artifactLocation"]["uri"]


def with_profile_findings(result):
    """Add profile findings (as profile rules yield them) to a real result."""
    base = result.findings[0]
    extra = [
        replace(base, profile="openai-strict", consequence="reject", tool="a"),
        replace(base, profile="openai-strict", consequence="weaken", tool="b|c", pointer=Pointer(("tools", 1))),
        replace(base, profile="gemini", consequence="drop", tool="a"),
    ]
    return replace(result, findings=result.findings + extra, profiles=("openai-strict", "gemini", "anthropic"))


def test_markdown_summary_tables(scanned):
    md = render("markdown", with_profile_findings(scanned), Options())
    lines = md.splitlines()
    assert lines[0] == "## mcplint"
    assert lines[2].startswith("❌ 4 errors in 2 files,") and "1 input could not be read" in lines[2]
    assert any("missing.json" in ln and ln.startswith("- ⛔") for ln in lines)
    # findings grouped by rule and tool: the DOC001 rows for tool a (1 plain + 2 profile findings)
    row = next(ln for ln in lines if ln.startswith("| `DOC001`") and "`a`" in ln)
    assert "| 3 | 2:51 `/tools/0/inputSchema/type` |" in row
    # the matrix: one column per profile (anthropic was checked and found nothing: accepts all)
    head = next(ln for ln in lines if ln.startswith("| Tool |"))
    assert head == "| Tool | `anthropic` | `gemini` | `openai-strict` |"
    row_a = next(ln for ln in lines if ln.startswith("| `a` "))
    assert row_a.split(" | ")[1:] == ["✅ accepts", "🚫 drops", "❌ rejects |"]
    row_bc = next(ln for ln in lines if ln.startswith("| `b\\|c` "))  # the pipe is escaped in the table
    assert row_bc.endswith("| ✅ accepts | ✅ accepts | ⚠️ weakens |")
    total = next(ln for ln in lines if ln.startswith("| **total**"))
    assert "1 accepts, 1 weakens" in total and "1 rejects" in total
    assert "<details><summary>All findings</summary>" in md


def test_markdown_clean_run(tmp_path):
    f = tmp_path / "ok.json"
    f.write_text('{"name": "ok", "inputSchema": {"type": "object"}}')
    md = render("markdown", lint_paths([str(f)], DOC_ONLY))
    assert "✅ No findings in 1 file, 1 tool." in md and "|" not in md


def test_sarif_says_how_safe_each_fix_is(tmp_path):
    """Each rule descriptor carries the rule's fix safety (as `mcplint rule` shows it), and each
    result with a patch whether `--fix` applies it or only `--unsafe-fixes` does."""
    from mcplint.registry import get

    f = tmp_path / "t.json"
    # a tools/list result without resultType (MCP128: a safe fix), a name with a space (MCP125: an unsafe
    # one, renaming changes what clients call) and a duplicate key (DOC001: words only)
    f.write_text('{"tools": [{"name": "get weather", "inputSchema": {"type": "object", "type": "object"}}]}')
    # (checked as 2026-07-28: a file that names no version gets no patch that only some versions ask for)
    log = json.loads(render("sarif", lint_paths([str(f)], Config(protocol_versions=("2026-07-28",),
                                                                  versions_chosen=True))))
    run = log["runs"][0]
    assert not list(sarif_validator().iter_errors(log))
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    for rid, r in rules.items():
        meta = get(rid)
        assert r["properties"]["fixSafety"] == (meta.fix_safety or "display-only")
        assert r["properties"].get("fixNote") == (meta.fix_note or None)
    patched = [res for res in run["results"] if "jsonPatch" in res["properties"]]
    assert patched
    for res in patched:
        assert res["properties"]["fixApplicability"] in ("safe", "unsafe")
    assert not any("fixApplicability" in res["properties"] for res in run["results"] if "jsonPatch" not in res["properties"])
    assert {res["properties"]["fixApplicability"] for res in patched} == {"safe", "unsafe"}
