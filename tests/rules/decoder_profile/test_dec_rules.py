"""The DEC rules: no profile selected means no DEC finding (the config can ask for some), a
low-confidence fact is at most a warning, and severity follows the profile's consequence."""

from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import lint_json
from mcplint.cli import main
from profiles.common import write


def test_no_profile_no_dec_findings_and_config_can_ask(tmp_path):
    bad = {"name": "a b", "inputSchema": {"type": "object", "properties": {"x": {"allOf": [{}]}}}}
    assert [f for f in lint_json(bad) if f.rule.startswith("DEC")] == []
    with_strict = lint_json(bad, profiles=["strict"])
    assert {f.profile for f in with_strict if f.rule.startswith("DEC")} == {"openai-strict", "anthropic-strict",
                                                                              "gemini"}
    with_default = lint_json(bad, profiles=["default"])  # the clients, as each sends tools
    assert ("openai-agents-nonstrict", "DEC007") in {(f.profile, f.rule) for f in with_default}
    assert not {f.profile for f in with_default} & {"openai-strict", "anthropic-strict", "gemini"}
    tools = write(tmp_path, json.dumps(bad), "t.json")
    write(tmp_path, "profiles: [strict]\n", ".mcplint.yaml")
    r = CliRunner().invoke(main, ["scan", str(tools), "--config", str(tmp_path / ".mcplint.yaml")])
    assert r.exit_code == 1 and "DEC001" in r.output
    r = CliRunner().invoke(main, ["scan", str(tools), "--no-config"])
    assert "DEC0" not in r.output


def test_low_confidence_fact_is_at_most_a_warning():
    f = lint_json({"name": "t", "inputSchema": {"type": "object", "additionalProperties": False, "required": ["s"],
                                                "properties": {"s": {"$ref": "https://x.invalid/s.json"}}}},
                  profiles=["openai-strict"], select=["DEC001"])
    assert [(str(x.pointer), x.severity.label) for x in f] == [("/inputSchema/properties/s/$ref", "warning")]
    assert "low-confidence" in f[0].message


def test_severity_follows_consequence():
    schema = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                                               "b": {"type": "string", "pattern": "[a-z]+"},
                                               "c": {"type": "string", "nullable": True}}}
    got = {(f.rule, f.severity.label, f.consequence) for f in
           lint_json({"name": "t", "inputSchema": schema}, profiles=["xgrammar", "llguidance"], select=["DEC"])}
    assert ("DEC002", "warning", "weaken") in got  # xgrammar drops uniqueItems
    assert ("DEC004", "warning", "rewrite") in got  # xgrammar anchors the pattern
    assert ("DEC001", "error", "reject") in got  # llguidance: Unimplemented keys uniqueItems
    assert ("DEC005", "info", "annotation") in got  # llguidance ignores nullable


def test_a_linted_document_is_not_kept_alive_by_the_dec_rules():
    """The DEC rules' caches keep no finished document: a worker lints file after file, and a
    cache of every plan's calls (each call's Context holds its collection) doubled its peak memory."""
    import gc
    import weakref

    from mcplint.config import Config
    from mcplint.engine import lint_document
    from mcplint.load import load_text

    config = Config(profiles=("openai-strict", "anthropic-strict", "gemini"))
    refs = []
    for i in range(3):
        tool = {"name": f"t{i}", "inputSchema": {"type": "object", "properties": {f"p{i}": {"type": "string",
                                                                                             "minLength": 2}}}}
        doc = load_text(json.dumps({"tools": [tool]}), f"doc{i}.json")
        refs.append(weakref.ref(doc))
        coll, findings = lint_document(doc, config)
        assert any(f.rule.startswith("DEC") for f in findings)
        del doc, coll, findings
    gc.collect()
    assert refs[0]() is None and refs[1]() is None
