"""The command line end to end (in-process through click, plus one real subprocess):
every output format and every exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

DUP = ('{"name": "a", "inputSchema": {"type": "object", "type": "object", "additionalProperties": false}, '
       '"description": "Adds a row."}')
CLEAN = '{"name": "a", "inputSchema": {"type": "object", "additionalProperties": false}, "description": "Adds a row."}'


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, catch_exceptions=False)


@pytest.fixture
def files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(DUP)
    good = tmp_path / "good.json"
    good.write_text(CLEAN)
    return bad, good


def test_exit_codes(files, tmp_path):
    bad, good = files
    assert run(["scan", "--no-config", str(good)]).exit_code == 0
    assert run(["scan", "--no-config", str(bad)]).exit_code == 1
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "a",\n  "inputSchema": }')
    r = run(["scan", "--no-config", str(broken)])
    assert r.exit_code == 2
    assert f"{broken}:2:18: input error: invalid JSON" in r.output
    assert run(["scan", "--no-config", str(tmp_path / "missing.json")]).exit_code == 2
    assert run(["scan", "--no-config", "--select", "NOPE", str(good)]).exit_code == 2


def test_unreadable_file_does_not_hide_other_findings(files, tmp_path):
    bad, _ = files
    broken = tmp_path / "broken.json"
    broken.write_text("[")
    r = run(["scan", "--no-config", "--format", "json", str(bad), str(broken)])
    assert r.exit_code == 2
    assert json.loads(r.stdout)["findings"][0]["rule"] == "DOC001"


def test_unknown_shape_is_located_error(tmp_path):
    f = tmp_path / "x.json"
    f.write_text('{"hello": 1}')
    r = run(["scan", "--no-config", str(f)])
    assert r.exit_code == 2 and "unrecognised document shape" in r.output and "expected" in r.output


def test_stdin_and_json_contract():
    r = run(["scan", "--no-config", "--format", "json", "-"], input=DUP)
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["version"] == 2
    assert set(out) == {"version", "findings", "errors", "notes", "summary"} and out["notes"] == []
    assert out["errors"] == []
    f = out["findings"][0]
    assert set(f) == {"rule", "name", "severity", "message", "file", "line", "column", "pointer", "tool", "slot",
                      "protocol_version", "profile", "fix"}
    assert (f["rule"], f["file"], f["line"], f["column"], f["pointer"]) == ("DOC001", "<stdin>", 1, 49,
                                                                           "/inputSchema/type")
    assert set(f["fix"]) == {"title", "patch", "applicability"}
    assert f["fix"]["applicability"] == "display-only"  # DOC001 has no patch
    assert f["tool"] == "a" and f["profile"] is None
    assert out["summary"] == {"files": 1, "tools": 1, "errors": 1, "warnings": 0, "infos": 0, "assumed_versions": [
        {"versions": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "why": "", "files": 1}]}
    # (a Tool that names no protocol version: checked under every version, nothing in it narrowing that)


def test_json_contract_lists_unreadable_inputs_beside_findings(files, tmp_path):
    bad, _ = files
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "a",\n  "inputSchema": }')
    r = run(["scan", "--no-config", "--format", "json", str(bad), str(broken), str(tmp_path / "missing.json")])
    assert r.exit_code == 2
    out = json.loads(r.stdout)
    assert [f["rule"] for f in out["findings"]] == ["DOC001"]
    errors = sorted(out["errors"], key=lambda e: e["file"])
    assert errors[0] == {"file": str(broken), "line": 2, "column": 18, "kind": "input error",
                         "message": "invalid JSON: Expecting value"}
    assert errors[1]["file"] == str(tmp_path / "missing.json") and errors[1]["line"] is None
    assert errors[1]["message"] == "no such file or directory" and errors[1]["kind"] == "input error"
    md = run(["scan", "--no-config", "--format", "markdown", str(bad), str(broken)]).stdout
    assert "1 input could not be read" in md and f"{broken}:2:18: input error: invalid JSON" in md


def test_fail_on_and_severity_override(tmp_path, files):
    bad, _ = files
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("severity: {DOC001: warning}\n")
    assert run(["scan", "--config", str(cfg), str(bad)]).exit_code == 0
    assert run(["scan", "--config", str(cfg), "--fail-on", "warning", str(bad)]).exit_code == 1


def test_config_errors_are_located(tmp_path, files):
    _, good = files
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("select: [DOC]\nbounds:\n  max-dept: 3\n")
    r = run(["scan", "--config", str(cfg), str(good)])
    assert r.exit_code == 2
    assert f"{cfg}:3:3: config error: unknown bound 'max-dept'" in r.output


def test_suppress_one_rule_at_one_pointer(tmp_path, files):
    bad, _ = files
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("suppress:\n  - {rule: DOC001, pointer: /inputSchema/type}\n")
    r = run(["scan", "--config", str(cfg), str(bad)])
    assert r.exit_code == 0 and "warning" not in r.output


def test_a_suppress_entry_that_silences_nothing_is_reported(tmp_path, files):
    bad, good = files
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("suppress:\n  - {rule: DOC001, pointer: /inputSchema/type}\n"
                   "  - {rule: DOC001, pointer: /inputSchema/typo}\n"
                   "  - {rule: DOC001, pointer: /x, file: other.json}\n")
    r = run(["scan", "--config", str(cfg), str(bad)])
    assert r.exit_code == 0  # a stale entry is a warning about the configuration, not a finding
    assert "warning: suppress entry 2 (DOC001 at /inputSchema/typo) matched no finding" in r.output
    assert "suppress entry 1 " not in r.output  # it silenced the finding
    assert "suppress entry 3 " not in r.output  # other.json was not scanned: not judged
    r = run(["scan", "--config", str(cfg), str(good)])
    assert "suppress entry 1 (DOC001 at /inputSchema/type) matched no finding" in r.output


def test_pyproject_config_is_found_upward(tmp_path, files, monkeypatch):
    bad, _ = files
    (tmp_path / "pyproject.toml").write_text('[tool.mcplint]\nignore = ["DOC001"]\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    assert run(["scan", str(bad)]).exit_code == 0
    (tmp_path / "pyproject.toml").write_text('[tool.mcplint]\nignroe = ["DOC001"]\n')
    r = run(["scan", str(bad)])
    assert r.exit_code == 2 and "pyproject.toml:2:1: config error: unknown configuration key 'ignroe'" in r.output


def test_github_format(files):
    bad, _ = files
    r = run(["scan", "--no-config", "--format", "github", str(bad)])
    assert r.stdout.startswith(f"::error file={bad},line=1,col=49,endLine=1,endColumn=65,title=DOC001 duplicate-key::")


def test_sarif_format(files):
    bad, _ = files
    r = run(["scan", "--no-config", "--format", "sarif", str(bad)])
    log = json.loads(r.stdout)
    assert log["version"] == "2.1.0"
    res = log["runs"][0]["results"][0]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == "DOC001"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert res["partialFingerprints"]
    assert all(r["help"]["text"] for r in rules)


def test_text_format_plain_when_not_a_tty(files):
    bad, _ = files
    r = run(["scan", "--no-config", str(bad)])
    assert "\x1b[" not in r.stdout
    assert "DOC001" in r.stdout and "> 1 |" in r.stdout and "Found 1 error in 1 file, 1 tool (checked as protocol" in r.stdout


def test_text_format_color_forced(files):
    bad, _ = files
    assert "\x1b[" in run(["scan", "--no-config", "--color", str(bad)]).stdout


def test_rules_and_rule():
    assert "DOC001" in run(["rules"]).stdout
    r = run(["rule", "DOC001"])
    assert r.stdout.lstrip().startswith("DOC001 duplicate-key") and "Why is this bad?" in r.stdout
    md = run(["rule", "DOC001", "--format", "markdown"]).stdout
    assert md.startswith("# DOC001 duplicate-key") and "## Why is this bad?" in md
    assert run(["rule", "XYZ999"]).exit_code == 2


def test_real_subprocess_no_traceback(tmp_path):
    f = tmp_path / "bin.json"
    f.write_bytes(b"\xff\xfe{}")
    p = subprocess.run([sys.executable, "-m", "mcplint", "scan", "--no-config", str(f)], capture_output=True,
                       text=True)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and "not UTF-8" in p.stderr


def test_scan_says_when_only_probe_rules_are_selected(files):
    _, good = files
    r = run(["scan", "--no-config", "--select", "PRB", str(good)])
    assert r.exit_code == 0
    assert "warning: none of the selected rules checks files" in r.output and "mcplint probe" in r.output
    r = run(["scan", "--no-config", "--select", "PRB,MCP", str(good)])
    assert "none of the selected rules" not in r.output
    # a probe's saved capture is what the PRB rules judge: no note (the near miss)
    capture = Path(__file__).parent.parent / "data" / "zod-capture" / "server.capture.json"
    r = run(["scan", "--no-config", "--select", "PRB", str(good), str(capture)])
    assert r.exit_code != 2 and "none of the selected rules" not in r.output


def test_statistics_count_findings_per_rule(tmp_path):
    import json
    from collections import Counter
    from pathlib import Path

    corpus = Path(__file__).parent.parent / "data" / "corpus"
    files = [str(corpus / "notion.tools.json"), str(corpus / "github-archived.tools.json")]
    v = ["--protocol-version", "2026-07-28"]  # (whose resultType fix --fix applies: the files name no version)
    full = json.loads(run(["scan", "--no-config", *v, "--format", "json", "--profile", "openai-strict", *files]).output)
    expected = Counter((f["rule"], f["profile"]) for f in full["findings"])
    r = run(["scan", "--no-config", *v, "--format", "json", "--statistics", "--profile", "openai-strict", *files])
    assert r.exit_code == 1
    stats = json.loads(r.output)
    got = {(row["rule"], row["profile"]): row["count"] for row in stats["statistics"]}
    assert got == dict(expected) and stats["summary"] == full["summary"]
    counts = [row["count"] for row in stats["statistics"]]
    assert counts == sorted(counts, reverse=True)
    text = run(["scan", "--no-config", *v, "--statistics", "--profile", "openai-strict", *files]).output
    top = stats["statistics"][0]
    mark = "[*]" if top["fixable"] else "[ ]"
    assert text.splitlines()[0].split(maxsplit=2)[:2] == [str(top["count"]), top["rule"]]
    assert text.splitlines()[0].split(maxsplit=2)[2].startswith(f"{mark} {top['name']} ")
    assert f"{len(full['findings'])} findings" in text.splitlines()[-2]
    assert text.splitlines()[-1].startswith("[*] ")  # and the fixes --fix would apply
    # [*] marks a rule with a finding --fix fixes (as ruff's --statistics)
    fixed_by_fix = {f["rule"] for f in full["findings"] if (f["fix"] or {}).get("applicability") == "safe"}
    assert {row["rule"] for row in stats["statistics"] if row["fixable"]} == fixed_by_fix and fixed_by_fix
    assert "[openai-strict]" in text
    r = run(["scan", "--no-config", *v, "--statistics", "--format", "sarif", *files])
    assert r.exit_code == 2 and "--statistics prints text or json" in r.output
