"""Reports written in pieces (``render_chunks``) are exactly the reports made whole: the JSON
document one ``json.dumps`` of it would write, the text report's lines joined, with and without
colour, whatever the size of a piece; and ``scan`` writes them as they come."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config
from mcplint.engine import Result, lint_paths
from mcplint.report import Options, error_dict, render, render_chunks, summary
from mcplint.report import json as json_report
from mcplint.report import text as text_report
from mcplint.textsafe import inline, json_text

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = sorted(str(p) for p in (ROOT / "tests" / "data" / "corpus").glob("*.tools.json"))[:3]


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    bad = tmp_path_factory.mktemp("in") / "broken.json"
    bad.write_text('{"tools": [')
    odd = tmp_path_factory.mktemp("in") / "odd.tools.json"  # non-ASCII text in messages and frames
    odd.write_text(json.dumps({"tools": [{"name": "météo\u2028", "description": "Température",
                                          "inputSchema": {"type": "object", "properties": {
                                              "ville": {"type": "string", "format": "uri", "default": "Zürich"}}}}]},
                              ensure_ascii=False, indent=2))
    res = lint_paths(CORPUS + [str(odd), str(bad)], Config(profiles=("openai-strict", "gemini")), jobs=1)
    assert res.errors and len(res.findings) > 50 and any(f.fix and f.fix.patch for f in res.findings)
    assert any("é" in f.message or "ü" in f.message for f in res.findings)
    return res


def one_document(res) -> str:
    """What one json.dumps of the document writes, made printable as the report is (the same data)."""
    return json_text(json.dumps({"version": json_report.VERSION, "findings": [json_report.finding_dict(f) for f in res.findings],
                       "errors": [error_dict(e) for e in res.errors], "notes": list(getattr(res, "notes", ())),
                       "summary": summary(res)},
                      indent=2, ensure_ascii=False)) + "\n"


@pytest.mark.parametrize("per_piece", [1, 7, 500])
def test_json_pieces_are_the_one_document(result, monkeypatch, per_piece):
    monkeypatch.setattr(json_report, "CHUNK_FINDINGS", per_piece)
    pieces = list(render_chunks("json", result))
    assert len(pieces) >= len(result.findings) // per_piece
    assert "".join(pieces) == one_document(result) == render("json", result)
    # (the name's U+2028, which some viewers take for a line break, written as its JSON escape)
    assert "\u2028" not in "".join(pieces) and "\\u2028" in "".join(pieces)
    assert json.loads("".join(pieces)) == json.loads(one_document(result))


def test_json_without_findings_or_errors_is_the_one_document(result):
    assert render("json", Result()) == one_document(Result())
    assert json.loads(render("json", Result()))["findings"] == []


@pytest.mark.parametrize("per_piece", [1, 3, 2000])
@pytest.mark.parametrize("verbose", [False, True])
def test_text_pieces_are_the_lines_joined(result, monkeypatch, per_piece, verbose):
    monkeypatch.setattr(text_report, "CHUNK_LINES", per_piece)
    options = Options(verbose=verbose)
    lines = text_report.build(result, options)
    whole = "\n".join(inline("".join(inline(t) for t, _ in line)) for line in lines) + "\n"
    assert "".join(render_chunks("text", result, options)) == whole
    # every input's code frames come from its own text, though its lines are split only while it is reported
    assert "Zürich" in whole and whole.count(" | ") > 20


def test_coloured_pieces_are_one_console_printing_every_line(result, monkeypatch):
    from rich.console import Console
    from rich.text import Text

    monkeypatch.setattr(text_report, "CHUNK_LINES", 5)
    options = Options(color=True)
    buf = StringIO()
    console = Console(file=buf, force_terminal=True, color_system="standard", width=10_000,
                      highlight=False, soft_wrap=True)
    for line in text_report.build(result, options):
        console.print(Text.assemble(*[(inline(t), s) for t, s in line]))
    assert "".join(render_chunks("text", result, options)) == buf.getvalue()
    assert "\x1b[" in buf.getvalue()


def test_scan_writes_the_pieces_to_a_file_and_to_stdout(tmp_path, monkeypatch):
    monkeypatch.setattr(json_report, "CHUNK_FINDINGS", 2)
    out = tmp_path / "report.json"
    args = ["scan", "--no-config", "--profile", "openai-strict", "--format", "json", *CORPUS[:2]]
    to_file = CliRunner().invoke(main, args + ["-o", str(out)])
    to_stdout = CliRunner().invoke(main, args)
    assert to_file.exit_code == to_stdout.exit_code == 1
    assert out.read_text(encoding="utf-8") == to_stdout.output
    assert len(json.loads(to_stdout.output)["findings"]) > 4


@pytest.mark.parametrize("value", [
    {}, [], "", 0, -7, 10**30, 1.5, float("nan"), float("-inf"), True, False, None,
    {"a": {"b": [], "c": {}}, "é": "\u2028 \x00 \" \\ \t \ud800 \U0001f600"},
    [{"op": "add", "path": "/x~1y", "value": [1, 2.0, {"z": None}]}, [], [[]]],
    {1: "int key", None: "null key"}, {"k": (1, 2)},
])
def test_the_json_reports_own_encoder_writes_what_json_dumps_writes(value):
    """The JSON report encodes a finding's dict itself (json.dumps with indent runs in Python);
    every value, odd keys and types included, comes out byte for byte as json.dumps writes it."""
    from mcplint.report.json import _nested, pretty

    for indent in ("", "    "):
        assert pretty(value, indent) == _nested(value, indent)


def test_each_findings_text_is_what_finding_dict_and_the_encoder_write(result):
    """The JSON report writes a finding through one layout of its fields, each fix once: every
    finding (of the corpus, and made-up ones with each optional field empty, odd text, several
    versions, a code location) comes out as the encoder writes its dict."""
    from mcplint.model import CodeLocation, Finding, Fix, Pointer, Severity, Span
    from mcplint.report.json import _finding_texts, pretty, finding_dict

    fix = Fix("add \"x\" \u2028", ({"op": "add", "path": "/a~1b", "value": {"é": [1, None]}},), safe=True)
    made = [Finding("DEC001", "n\u00e9", Severity.INFO, "m\x00\"", "in.json", Pointer(()), None),
            Finding("SCH101", "n", Severity.WARNING, "m", "in.json", Pointer(("a", 0, "~/")), Span(3, 4, 3, 9),
                    "tool\ud800", "inputSchema", ("2025-06-18", "2026-07-28"), "gemini", fix, "weaken"),
            Finding("SCH101", "n", Severity.ERROR, "m", "in.json", Pointer(("a",)), Span(1, 1, 1, 2), None, None,
                    ("2026-07-28",), None, fix),
            Finding("PYS101", "n", Severity.ERROR, "m", "gen.json", Pointer(("p",)), Span(2, 2, 2, 3), "t",
                    "inputSchema", (), None, Fix("f"), None, CodeLocation("server.py", 12, 5, "argument x", True))]
    findings = list(result.findings) + made
    assert _finding_texts(findings, {}) == [pretty(finding_dict(f), "    ") for f in findings]


def one_sarif_log(res) -> str:
    """The SARIF log as one json.dumps of the whole document, its results built first."""
    from mcplint.report import sarif

    log = json.loads(render("sarif", res))  # the frame as written; the results rebuilt from the findings
    index = {m.id: i for i, m in enumerate(sarif.all_rules())}
    log["runs"][0]["results"] = [sarif._result(f, index, sarif.artifact_uri) for f in res.findings]
    return json_text(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"


@pytest.mark.parametrize("per_piece", [1, 7, 500])
def test_sarif_pieces_are_the_one_document(result, monkeypatch, per_piece):
    """SARIF is written a few hundred results at a time, each file's URI worked out once: the
    pieces are the log json.dumps writes of the whole document, byte for byte."""
    from mcplint.report import sarif

    monkeypatch.setattr(sarif, "CHUNK_RESULTS", per_piece)
    pieces = list(render_chunks("sarif", result))
    assert len(pieces) >= len(result.findings) // per_piece
    assert "".join(pieces) == one_sarif_log(result)
    assert json.loads("".join(pieces))["runs"][0]["results"][0]["ruleId"] == result.findings[0].rule

    assert json.loads(render("sarif", Result()))["runs"][0]["results"] == []
    assert render("sarif", Result()) == json.dumps(json.loads(render("sarif", Result())), indent=2,
                                                  ensure_ascii=False) + "\n"
