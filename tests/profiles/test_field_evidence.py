"""Every real provider error in tests/data/field-evidence.yaml, run through its target's profile:
the finding must stand where the provider pointed, carry the expected consequence, and quote the
provider's words. A case whose target has no profile yet (or whose profile lacks the limit or
construct it names under `requires`) is skipped, so cases can be added before their profile."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import lint_json
from mcplint.errors import ConfigError
from mcplint.profiles import load_profile

DATA = Path(__file__).parent.parent / "data"
CASES = yaml.safe_load((DATA / "field-evidence.yaml").read_text(encoding="utf-8"))
RULE_OF = {"reject": "DEC001", "drop": "DEC003", "fail-list": "DEC003", "weaken": "DEC002", "rewrite": "DEC004"}
SEVERITY_OF = {"reject": "error", "drop": "error", "fail-list": "error", "weaken": "warning", "rewrite": "warning"}
KEYS = {"id", "target", "tool", "document", "consequence", "rule", "pointer", "pointer_prefix", "error", "match",
        "severity", "source", "seen", "note", "requires", "report"}


def _target(name: str) -> str:
    return str(DATA / "profiles" / name) if name.endswith(".yaml") else name


def _tool(spec: dict) -> dict:
    """The case's tool, with the sizes it names built out (long names, many properties, deep nesting)."""
    spec = dict(spec)
    schema = spec.pop("inputSchema")
    if "name_length" in spec:
        spec["name"] = "t" * spec.pop("name_length")
    if "description_length" in spec:
        spec["description"] = ("Summarize. " * 200)[:spec.pop("description_length")]
    if "optional_count" in spec:  # that many optional string properties, none required
        n = spec.pop("optional_count")
        schema = {**schema, "properties": {f"p{i}": {"type": "string"} for i in range(n)}}
    if "properties_count" in spec:
        n = spec.pop("properties_count")
        schema = {**schema, "properties": {f"p{i}": {"type": "string"} for i in range(n)},
                  "required": [f"p{i}" for i in range(n)]}
    if "depth" in spec:
        node: dict = {"type": "string"}
        for _ in range(spec.pop("depth")):
            node = {"type": "object", "properties": {"a": node}, "required": ["a"], "additionalProperties": False}
        schema = node
    return {**spec, "inputSchema": schema}


def _document(case: dict):
    if "document" in case and "names" in case["document"]:  # one tools/list with these tool names, in order
        return {"tools": [{"name": n, "inputSchema": {"type": "object", "properties": {}}}
                          for n in case["document"]["names"]]}
    if "document" in case:
        n = case["document"]["tools_count"]
        return {"tools": [{"name": f"t{i}", "inputSchema": {"type": "object", "properties": {},
                                                             "additionalProperties": False}} for i in range(n)]}
    return _tool(case["tool"])


def test_the_table_is_well_formed():
    assert len(CASES) >= 60
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in CASES:
        assert set(c) <= KEYS, (c["id"], set(c) - KEYS)
        assert c["consequence"] in (*RULE_OF, "none"), c["id"]
        assert ("tool" in c) != ("document" in c), c["id"]
        assert c["source"].startswith(("https://", "local:")) and str(c["seen"])[:2] == "20", c["id"]
        assert ("error" in c) != ("report" in c), f"{c['id']}: either the provider's error text or a report quote"
        if "error" in c:
            assert c.get("match", c["error"]) in c["error"], f"{c['id']}: match is not part of the provider's text"
        else:
            assert "match" in c, c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_field_evidence(case):
    target = _target(case["target"])
    try:
        profile = load_profile(target)
    except ConfigError:
        pytest.skip(f"no profile {case['target']!r} yet")
    need = case.get("requires") or {}
    if "limit" in need and need["limit"] not in profile.limits:
        pytest.skip(f"{case['target']} has no limit {need['limit']} yet")
    if "construct" in need and need["construct"] not in profile.constructs:
        pytest.skip(f"{case['target']} has no construct {need['construct']} yet")
    findings = lint_json(_document(case), profiles=[target], select=["DEC"])
    if "pointer_prefix" in case:
        here = [f for f in findings if str(f.pointer).startswith(case["pointer_prefix"])]
    else:
        here = [f for f in findings if str(f.pointer) == case["pointer"]]
    text = case.get("match") or case["error"]
    if case["consequence"] == "none":  # the target is known NOT to do this (fixed upstream, inlined by the SDK)
        assert not [f for f in here if f.consequence in ("reject", "drop", "fail-list")], [f.message for f in here]
        assert not any(text in f.message for f in findings)
        return
    rule = case.get("rule", RULE_OF[case["consequence"]])
    hits = [f for f in here if f.rule == rule]
    if "document" in case:  # several request limits stand at /tools (Gemini API 512, Vertex 128): the one quoted
        hits = [f for f in hits if text in f.message] or hits
    assert hits, f"{case['id']}: no {rule} at {case.get('pointer', case.get('pointer_prefix'))}; got " + "; ".join(
        f"{f.rule} {f.pointer}: {f.message}" for f in findings)
    assert {f.consequence for f in hits} == {case["consequence"]}, [f.consequence for f in hits]
    assert any(text in f.message for f in hits), f"{case['id']}: provider text not quoted: {[f.message for f in hits]}"
    severity = case.get("severity", SEVERITY_OF[case["consequence"]])
    assert {f.severity.label for f in hits} == {severity}, [f.severity.label for f in hits]
    assert all(f.profile for f in hits)


# The targets added for the clients and frameworks users run (and the ones whose facts now come from
# their own code): each must have a case where the finding fires and a near miss where it must not.
SHOWN_BOTH_WAYS = {
    "claude-desktop", "claude-code", "groq", "moonshot", "lmstudio", "google-adk", "langchainjs-agent",
    "langchainjs-agent-strict", "pydantic-ai", "pydantic-ai-strict", "litellm-gemini", "vercel-ai-openai",
    "vercel-ai-openai-compatible", "zed", "openai-realtime", "kiro", "opencode", "visualstudio-copilot",
    "langchain-openai", "langchain-openai-strict", "mcp-typescript-sdk", "codex-cli", "gemini-cli", "cursor",
    "windsurf", "xai", "gemini-openapi", "bedrock-converse", "anthropic-api", "deepseek-strict", "llama-cpp",
    "xgrammar", "vllm-xgrammar",
}


def test_each_of_these_targets_has_a_case_that_fires_and_a_near_miss():
    fires = {c["target"] for c in CASES if c["consequence"] != "none"}
    near = {c["target"] for c in CASES if c["consequence"] == "none"}
    assert not SHOWN_BOTH_WAYS - fires, sorted(SHOWN_BOTH_WAYS - fires)
    assert not SHOWN_BOTH_WAYS - near, sorted(SHOWN_BOTH_WAYS - near)
