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
    assert "--profile default = anthropic-strict, gemini, openai-strict" in r.output
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
