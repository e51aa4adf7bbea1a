"""The describer: `mcplint profiles` and `mcplint profile NAME` (text and json)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mcplint.cli import main
from .common import REQUIRED


def test_profile_commands():
    r = CliRunner().invoke(main, ["profiles"])
    assert r.exit_code == 0
    for name in REQUIRED:
        assert name in r.output
    assert ("--profile default = claude-code, codex-cli, cursor, gemini-cli, openai-agents-nonstrict, vscode-copilot"
            in r.output)
    assert "--profile strict = anthropic-strict, gemini, openai-strict" in r.output
    r = CliRunner().invoke(main, ["profile", "anthropic-strict"])
    assert r.exit_code == 0
    assert "## Rejects" in r.output and "maxItems" in r.output and "## Limits" in r.output
    assert "For 'array' type, property 'maxItems' is not supported" in r.output
    assert "https://github.com/experientiallabs/experiential/pull/804 (seen 2026-11-30, confidence high)" in r.output
    r = CliRunner().invoke(main, ["profile", "xgrammar"])
    assert "## Accepts but does not enforce" in r.output and "uniqueItems" in r.output
    r = CliRunner().invoke(main, ["profile", "openai-finetuned", "--format", "json"])
    data = json.loads(r.output)
    assert data["extends"] == ["openai-strict"] and data["keywords"]["pattern"]["action"] == "reject"
    r = CliRunner().invoke(main, ["profile", "nope"])
    assert r.exit_code == 2


def test_profile_sheet_shows_evidence_kind_age_and_marks(tmp_path):
    import datetime as dt

    from mcplint.profiles import load_profile
    from mcplint.profiles.describe import profile_sheet
    from .common import write

    path = write(tmp_path, """id: mine
title: Mine
kind: hosted
source: {url: "https://example.com/docs", seen: "2026-01-01", confidence: high, tag: D}
keywords:
  allOf: {action: reject, source: {url: "https://example.com/issue/1", seen: "2026-11-01", confidence: medium, tag: I}}
  oneOf: {action: reject, source: {url: "https://example.com/issue/2", seen: "2026-11-01", confidence: high, tag: I,
                                   also: ["https://example.com/issue/3"]}}
  not: {action: reject}
""")
    text = profile_sheet(load_profile(str(path)), today=dt.date(2026, 12, 1), max_age=90)
    lines = text.splitlines()

    def evidence_of(subject):
        i = next(i for i, line in enumerate(lines) if line.strip().startswith(subject))
        return next(line for line in lines[i:] if "evidence:" in line)

    assert evidence_of("allOf").strip() == "evidence: [I] field report, 30 days old; SINGLE REPORT"
    assert evidence_of("oneOf").strip() == "evidence: [I] field report, 2 sources, 30 days old"
    assert evidence_of("not").strip() == "evidence: [D] vendor docs, 334 days old; STALE"
    assert "also: https://example.com/issue/3" in text
    assert "Evidence lines:" in text and "older than 90 days" in text  # the legend of the marks


def test_profile_json_carries_evidence_rows():
    r = CliRunner().invoke(main, ["profile", "llama-cpp", "--format", "json", "--max-age", "100000"])
    assert r.exit_code == 0, r.output
    ev = json.loads(r.output)["evidence"]
    assert ev["max_age_days"] == 100000
    unanchored = next(f for f in ev["facts"] if f["subject"] == "pattern (unanchored)")
    assert unanchored["kind"] == "decoder run" and unanchored["sources"] == 5 and not unanchored["stale"]
    r = CliRunner().invoke(main, ["profile", "openai-strict", "--format", "json"])
    facts = json.loads(r.output)["evidence"]["facts"]
    untyped = next(f for f in facts if f["section"] == "constructs" and f["subject"] == "untyped-schema")
    assert untyped["single_report"] and untyped["kind"] == "field report"
    r = CliRunner().invoke(main, ["profile", "openai-strict", "--max-age", "-1"])
    assert r.exit_code == 2


def test_a_fallback_route_names_the_profile_it_goes_to():
    """The route's message says where the schema goes ({to}); the sheet writes the name in."""
    from mcplint.profiles import load_profile
    from mcplint.profiles.describe import profile_sheet

    for name in ("openai-agents", "openai-agents-js", "vllm"):
        sheet = profile_sheet(load_profile(name))
        assert "{to}" not in sheet and "-> " in sheet, name
    assert "only what OpenAI checks of a non-strict tool applies (openai-api)" in profile_sheet(load_profile("openai-agents-js"))


def test_a_dec_message_says_each_path_in_its_own_sentence():
    """One message, one claim: what the path it names does (Anthropic strict rejects the request),
    then what another path does (the SDK's transform for structured outputs) as a sentence with its
    own subject and outcome, never a bare "Client SDK:" label running on from the provider's error."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from conftest import lint_json

    tool = {"name": "t", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["m"],
                                         "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    (f,) = [f for f in lint_json(tool, profiles=["anthropic-strict"], select=["DEC001"])
            if str(f.pointer) == "/inputSchema/properties/m/additionalProperties"]
    first, _, rest = f.message.partition('}. ')
    assert first.startswith("Anthropic strict rejects this request: additionalProperties must be false")
    assert rest.startswith("On the anthropic SDK's structured-output path (messages.parse, not a tool's input_schema), "
                           "transform_schema sets it to false before sending: that request succeeds")
    assert "Client SDK" not in f.message
    (g,) = lint_json({"name": "t", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["s"],
                                                   "properties": {"s": {"type": "string", "maxLength": 3}}}},
                     profiles=["anthropic-strict"], select=["DEC001"])
    assert '"tools.N.custom: For \'string\' type, property \'maxLength\' is not supported". On the anthropic' in g.message


def test_every_sdk_note_of_a_shipped_profile_is_a_sentence_with_its_own_subject():
    """A profile's `sdk:` words follow the path the message names as a sentence of their own: they
    start with their subject (a capital letter), not with a lower-case name run on from before."""
    import re
    from pathlib import Path

    notes = []
    for path in sorted((Path(__file__).resolve().parents[2] / "profiles").glob("*.yaml")):
        notes += [(path.name, m.group(1)) for m in re.finditer(r"^\s*sdk: \"(.*)\"\s*$", path.read_text(), re.M)]
    assert len(notes) >= 25
    assert [n for n in notes if not n[1][:1].isupper()] == []
    # nor does a message run another build's outcome on after a semicolon (llama.cpp's older builds)
    text = (Path(__file__).resolve().parents[2] / "profiles" / "llama-cpp.yaml").read_text()
    messages = re.findall(r"^\s*message: \"(.*)\"\s*$", text, re.M)
    assert any(". Builds up to " in m and "fail the whole request instead" in m for m in messages)
    assert [m for m in messages if "; older builds" in m] == []
