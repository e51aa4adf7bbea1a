"""The targets users run beyond the original profiles: each ships, validates and sources
every fact; ``inherit:`` takes only what it names from the parent (with located errors);
the pattern dialect checks; request-level limits name the limit, the count and the tools
past it."""

from __future__ import annotations

import re
import sys

import pytest
import yaml
from click.testing import CliRunner

from conftest import lint_json
from mcplint.cli import main
from mcplint.errors import ConfigError
from mcplint.profiles import ACTIONS, default_set, iter_facts, load_profile, profile_schema
from mcplint.profiles.regex_dialects import dialect_features
from .common import ROOT, entries_without_own_source, write

TARGETS = ["openai-api", "codex-cli", "azure-openai", "vllm", "vllm-xgrammar", "sglang", "ollama", "xai",
           "deepseek-strict", "cursor", "windsurf", "bedrock-converse", "mistral", "claude-desktop", "kiro", "visualstudio-copilot", "lmstudio",
           "moonshot", "google-adk", "zed", "opencode", "openai-realtime", "groq"]
SRC = "source: {url: 'https://example.invalid/a', seen: '2026-12-01', confidence: high}\n"


@pytest.mark.parametrize("name", TARGETS)
def test_target_ships_with_a_sourced_fact_for_everything_it_says(name):
    import jsonschema

    data = yaml.safe_load((ROOT / "profiles" / f"{name}.yaml").read_text(encoding="utf-8"))
    jsonschema.validate(data, profile_schema())
    assert entries_without_own_source(data) == []  # no fact rests silently on the file-level source
    p = load_profile(name)
    assert p.name == name and p.summary and p.applies_to
    facts = list(iter_facts(p))
    assert facts, f"{name} says nothing"
    for _section, _subject, rule in facts:
        assert rule.source.url.startswith("https://") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", rule.source.seen)
        assert rule.source.tag in ("D", "S", "X", "I", "?"), (name, _subject)
        assert rule.action in ACTIONS + ("warn",)


def test_the_default_set_is_the_clients_and_the_client_names_stay():
    assert default_set() == ["claude-code", "codex-cli", "cursor", "gemini-cli", "openai-agents-nonstrict",
                             "vscode-copilot"]
    for name in ("anthropic-api", "vscode-copilot", "cursor", "gemini-cli", "codex-cli"):  # client-config mapping
        assert load_profile(name).kind == "client"


def test_openai_api_inherits_only_the_rules_that_hold_without_strict():
    strict, api = load_profile("openai-strict"), load_profile("openai-api")
    assert api.chain == ("openai-strict",)
    assert set(api.constructs) == {"root-not-object", "root-combinator", "object-without-properties",
                                   "additional-properties-invalid", "array-without-items", "tuple-items"}
    assert api.constructs["tuple-items"] == strict.constructs["tuple-items"]  # reported before strict existed
    assert api.constructs["root-combinator"] == strict.constructs["root-combinator"]  # the same fact, same source
    assert api.default_action is None and "allOf" not in api.keywords and "optional-property" not in api.constructs
    assert set(api.limits) == {"tools", "tool_description_length", "tool_name_length"}
    assert api.tool_name == strict.tool_name and api.limits["tool_name_length"] == strict.limits["tool_name_length"]
    codex = load_profile("codex-cli")  # extends openai-api: inherits its reduced set, not openai-strict's
    assert codex.chain == ("openai-api", "openai-strict") and "optional-property" not in codex.constructs


def test_inherit_picks_entries_and_the_child_adds_its_own(tmp_path):
    child = write(tmp_path, "id: mini\nextends: anthropic-strict\ntitle: Mini\nkind: hosted\n" + SRC +
                  "inherit:\n  keywords: [maxItems]\n  limits: [strict_tools]\n"
                  "keywords:\n  uniqueItems: {action: reject}\n")
    p = load_profile(str(child))
    assert set(p.keywords) == {"maxItems", "uniqueItems"} and set(p.limits) == {"strict_tools"}
    assert p.constructs == {} and p.default_action is None and p.tool_name is None
    f = lint_json({"name": "t", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "array", "items": {}, "maxItems": 2, "minItems": 5}}}}, profiles=[str(child)], select=["DEC"])
    assert [str(x.pointer) for x in f] == ["/inputSchema/properties/a/maxItems"]  # minItems was not inherited


@pytest.mark.parametrize("body, line, col, needle", [
    ("extends: anthropic-strict\ninherit:\n  constructs: [recursion, optional-property]\n", 7, 27,
     "'anthropic-strict' has no construct 'optional-property'"),
    ("extends: mistral\ninherit:\n  tool_name: true\n", 7, 3, "'mistral' has no tool_name"),
    ("inherit:\n  keywords: [type]\n", 5, 1, "'extends' is a dependency of 'inherit'"),
    ("extends: openai-strict\ninherit:\n  keyword: [type]\n", 7, 3, "unknown key"),
])
def test_bad_inherit_is_a_located_error(tmp_path, body, line, col, needle):
    path = write(tmp_path, "id: bad\ntitle: t\nkind: hosted\n" + SRC + body)
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert (e.value.line, e.value.col) == (line, col), str(e.value)
    assert needle in str(e.value) and e.value.origin == str(path)


def test_bad_inherit_on_the_command_line_exits_2(tmp_path):
    path = write(tmp_path, "id: bad\ntitle: t\nkind: hosted\n" + SRC + "extends: openai-strict\n"
                           "inherit:\n  limits: [tools, nope]\n")
    tools = write(tmp_path, '{"name": "a", "inputSchema": {"type": "object"}}', "t.json")
    r = CliRunner().invoke(main, ["scan", str(tools), "--profile", str(path), "--no-config"])
    assert r.exit_code == 2 and f"{path}:7:19:" in r.output and "has no limit 'nope'" in r.output


def test_inline_modifier_feature():
    assert dialect_features("^(?P<n>a)$") == [] and dialect_features("^(?=a)$") == []
    assert "inline_modifier" in dialect_features("(?i)^yes$") and "inline_modifier" in dialect_features("^a(?i:b)$")
    assert "inline_modifier" not in dialect_features(r"^\(?i\)$") and "inline_modifier" not in dialect_features("^(?:a)$")


def _tools(n, schema=None):
    return {"tools": [{"name": f"t{i:03}", "inputSchema": schema or {"type": "object", "properties": {},
                                                                    "additionalProperties": False}} for i in range(n)]}


@pytest.mark.parametrize("profile, limit, count_text, beyond, severity", [
    ("gemini", 512, "513 tools; one request may carry at most 512", "the 1 beyond it: t512", "error"),
    ("gemini-openapi", 512, "at most 512", "t512", "error"),
    ("gemini-cli", 512, "at most 512", "t512", "error"),
    ("vscode-copilot", 128, "more than 128", "the 1 beyond it: t128", "warning"),
    ("windsurf", 100, "at most 100 MCP tools", "t100", "error"),
    ("openai-api", 128, "at most 128", "t128", "error"),
])
def test_tool_count_limits_name_the_limit_the_count_and_the_tools_past_it(profile, limit, count_text, beyond, severity):
    f = [x for x in lint_json(_tools(limit + 1), profiles=[profile], select=["DEC009"]) if count_text in x.message]
    assert len(f) == 1 and f[0].severity.label == severity, [x.message for x in f]
    assert beyond in f[0].message
    same = count_text.split("; ")[-1]
    assert not [x for x in lint_json(_tools(limit), profiles=[profile], select=["DEC009"]) if same in x.message]


def test_vertex_limit_is_a_warning_under_the_gemini_api_one():
    f = lint_json(_tools(129), profiles=["gemini"], select=["DEC009"])
    assert [x.severity.label for x in f] == ["warning"] and "Vertex AI takes at most 128" in f[0].message
    f = lint_json(_tools(513), profiles=["gemini"], select=["DEC009"])
    assert sorted(x.severity.label for x in f) == ["error", "warning"]


def test_many_tools_past_a_limit_are_summarised():
    f = lint_json(_tools(90), profiles=["cursor"], select=["DEC009"])
    assert len(f) == 1 and "t080, t081, t082, t083, t084 and 5 more" in f[0].message
    assert f[0].consequence == "drop"  # the tools past the cap never reach the model


def test_deepseek_names_every_tool_strict_mode_rejects():
    good = {"type": "object", "additionalProperties": False, "required": ["q"], "properties": {"q": {"type": "string"}}}
    doc = {"tools": [{"name": "a", "inputSchema": good},
                     {"name": "b", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
                     {"name": "c", "inputSchema": {**good, "properties": {"q": {"type": "string", "maxLength": 3}}}}]}
    f = lint_json(doc, profiles=["deepseek-strict"], select=["DEC009"])
    assert len(f) == 1 and "2 of the 3 tools" in f[0].message and "(b, c)" in f[0].message
    assert not lint_json({"tools": [doc["tools"][0]]}, profiles=["deepseek-strict"], select=["DEC009"])


@pytest.mark.skipif(sys.version_info < (3, 10), reason="3.10+")
def test_profiles_listing_shows_the_targets():
    r = CliRunner().invoke(main, ["profiles"])
    assert r.exit_code == 0
    for name in TARGETS:
        assert re.search(rf"^{re.escape(name)}\s", r.output, re.M), name
    assert "codex-cli" in r.output and "(extends openai-api)" in r.output


def test_codex_cli_default_fix_says_what_the_author_can_do():
    # Codex removes every default before the tool reaches the model, and no keyword it keeps can
    # carry one: the rule's generic "a keyword the target enforces" would send the author nowhere.
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"state": {"type": "string",
                                                                                   "default": "open"}}}}
    found = [f for f in lint_json(tool, profiles=["codex-cli"]) if f.rule == "DEC005"]
    assert [str(f.pointer) for f in found] == ["/inputSchema/properties/state/default"]
    assert "description" in found[0].fix.title and "keyword the target enforces" not in found[0].fix.title
