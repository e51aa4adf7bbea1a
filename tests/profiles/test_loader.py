"""The profile loader: every built-in file validates against the published schema and
carries a source for every fact; bad files fail with file:line:col; `extends`, user files
and the `default` alias work."""

from __future__ import annotations

import functools
import json
import re

import pytest
import yaml
from click.testing import CliRunner

from conftest import lint_json
from mcplint.cli import main
from mcplint.errors import ConfigError
from mcplint.profiles import (ACTIONS, builtin_names, check_names, default_set, expand_names, iter_facts, load_profile,
                              profile_schema, strict_set)
from .common import REQUIRED, ROOT, entries_without_own_source, write


def test_every_required_profile_ships():
    assert REQUIRED <= set(builtin_names())


@functools.lru_cache(maxsize=1)
def _schema_validator():
    """One validator of the published schema for every file (checking the schema itself once)."""
    import jsonschema

    schema = profile_schema()
    return jsonschema.validators.validator_for(schema)(schema)


@pytest.mark.parametrize("name", sorted(set(builtin_names())))
def test_profile_file_is_valid_and_every_fact_is_sourced(name):
    """Every shipped profile, not only the first ones: each fact has its source URL, the date it
    was seen, a confidence and the kind of evidence (`tag`: docs, SDK source, run here, reports)."""
    data = yaml.safe_load((ROOT / "profiles" / f"{name}.yaml").read_text(encoding="utf-8"))
    _schema_validator().validate(data)
    assert data["id"] == name
    p = load_profile(name)
    facts = list(iter_facts(p))
    assert facts
    for _section, _subject, rule in facts:
        assert rule.source.url.startswith(("https://", "pypi:", "local:"))
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", rule.source.seen)
        assert rule.source.confidence in ("high", "medium", "low")
        assert rule.source.tag in ("D", "S", "X", "I", "?"), (name, _section, _subject)
        assert rule.action in (ACTIONS + ("warn",) if _section == "limits" else ACTIONS)


@pytest.mark.parametrize("name", sorted(set(builtin_names())))
def test_every_shipped_entry_carries_its_own_source(name):
    data = yaml.safe_load((ROOT / "profiles" / f"{name}.yaml").read_text(encoding="utf-8"))
    assert entries_without_own_source(data) == [], f"{name}: entries without a source of their own"


def test_an_entry_without_its_own_source_is_found():
    data = yaml.safe_load("id: x\ntitle: t\nkind: decoder\nsource: &s {url: 'https://e.invalid', seen: '2026-12-01', confidence: high}\n"
                          "keywords:\n  a: {action: enforce, source: *s}\n  b: {action: enforce}\n  c: null\n"
                          "limits:\n  tools: {max: 1}\ndefault_action: {action: drop}\n"
                          "fallback: [{to: llguidance, message: m}]\n")
    assert entries_without_own_source(data) == ["keywords.b", "limits.tools", "default_action", "fallback[0]"]


def test_default_alias_is_the_clients_and_strict_the_hosted_strict_modes():
    """`default` stands for the MCP clients people run, each judged as it sends tools; `strict` for
    the providers' strict modes, for those who send tools strict themselves."""
    assert default_set() == ["claude-code", "codex-cli", "cursor", "gemini-cli", "openai-agents-nonstrict",
                             "vscode-copilot"]
    assert all(load_profile(n).kind == "client" for n in default_set())
    assert strict_set() == ["anthropic-strict", "gemini", "openai-strict"]
    assert all(load_profile(n).kind == "hosted" for n in strict_set())
    assert expand_names(["strict", "xgrammar", "openai-strict"]) == [
        "anthropic-strict", "gemini", "openai-strict", "xgrammar"]
    assert expand_names(["default", "strict"]) == default_set() + strict_set()
    assert check_names(["default", "strict"]) is None and check_names(["strict-ish"])[0] == 0


def test_extends_inherits_and_overrides():
    base, ft = load_profile("openai-strict"), load_profile("openai-finetuned")
    assert ft.chain == ("openai-strict",)
    assert base.keywords["pattern"].action == "enforce" and ft.keywords["pattern"].action == "reject"
    assert ft.keywords["allOf"] == base.keywords["allOf"]  # inherited unchanged, with its own source
    assert ft.constructs.keys() == base.constructs.keys()
    assert not ft.default_set and not ft.strict_set  # membership of an alias's set is not inherited
    assert ft.display != base.display and ft.applies_to != base.applies_to  # nor is the description
    agents = load_profile("openai-agents")
    assert agents.constructs["additional-properties-missing"].action == "rewrite"  # overrides the parent's reject
    optional = agents.constructs["optional-property"]  # overrides the parent's reject: enforce for Optional[X] = None,
    assert optional.action == "enforce" and optional.otherwise.otherwise.action == "rewrite"  # else rewrite
    assert base.constructs["optional-property"].action == "reject"
    assert agents.verified_with["package"] == "openai-agents" != base.verified_with["package"]  # not inherited


def test_null_removes_an_inherited_entry(tmp_path):
    child = write(tmp_path, "id: agents-x\nextends: openai-agents\ntitle: X\nkind: client\n"
                            "source: {url: 'https://example.invalid/b', seen: '2026-11-30', confidence: medium}\n"
                            "constructs:\n  additional-properties-missing: null\n", "x.yaml")
    assert "additional-properties-missing" not in load_profile(str(child)).constructs


def test_user_profile_by_path_relative_extends(tmp_path):
    write(tmp_path, "id: base-x\ntitle: Base\nkind: decoder\nsource: {url: 'https://example.invalid/a', "
                    "seen: '2026-11-30', confidence: high}\nkeywords:\n  uniqueItems: {action: drop}\n", "base.yaml")
    child = write(tmp_path, "id: my-model\nextends: ./base.yaml\ntitle: Mine\nkind: decoder\n"
                            "source: {url: 'https://example.invalid/b', seen: '2026-11-30', confidence: medium}\n"
                            "keywords:\n  uniqueItems: {action: reject, message: 'no uniqueness here'}\n", "mine.yaml")
    p = load_profile(str(child))
    assert p.name == "my-model" and p.chain == ("base-x",)
    f = lint_json({"name": "t", "inputSchema": {"type": "object", "properties": {
        "a": {"type": "array", "uniqueItems": True}}}}, profiles=[str(child)], select=["DEC"])
    assert [(x.rule, str(x.pointer), x.profile) for x in f] == [
        ("DEC001", "/inputSchema/properties/a/uniqueItems", "my-model")]
    assert "no uniqueness here" in f[0].message


@pytest.mark.parametrize("text, line, col, needle", [
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: sure}\n",
     4, 56, "'sure' is not one of"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "keywords:\n  allOf: {action: forbid}\n", 6, 11, "'forbid' is not one of"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "constructs:\n  root-is-weird: {action: reject}\n", 6, 3, "root-is-weird"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "limits:\n  tools: {max: many}\n", 6, 11, "expected integer, found text"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "extends: nowhere\n", 5, 1, "no profile 'nowhere' to extend"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "keywords:\n  minimum: {action: reject, sorce: {}}\n", 6, 29, "unknown key"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "keywords:\n  format: {action: enforce, regex: {lookaround: {action: reject}}}\n", 6, 29, "only to the 'pattern'"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "fallback:\n  - {to: nowhere, message: m, source: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}}\n",
     6, 6, "fallback to 'nowhere': no such profile"),
    ("id: bad\ntitle: t\nkind: hosted\nsource: {url: 'https://x.invalid', seen: '2026-11-30', confidence: high}\n"
     "fallback:\n  - {to: llguidance, message: m}\n", 6, 5, "'source' is a required property"),
    ("id: bad\ntitle: [unclosed\n", 3, 1, "invalid YAML"),
])
def test_invalid_profile_is_a_located_error(tmp_path, text, line, col, needle):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    err = e.value
    assert err.origin == str(path)
    assert (err.line, err.col) == (line, col), str(err)
    assert needle in str(err)


def test_bad_profile_on_the_command_line_exits_2_with_location(tmp_path):
    path = write(tmp_path, "id: bad\ntitle: t\nkind: nope\nsource: {url: 'https://x.invalid', seen: '2026-11-30', "
                           "confidence: high}\n")
    tools = write(tmp_path, json.dumps({"name": "a", "inputSchema": {"type": "object"}}), "t.json")
    r = CliRunner().invoke(main, ["scan", str(tools), "--profile", str(path), "--no-config"])
    assert r.exit_code == 2
    assert f"{path}:3:1: config error: invalid profile at /kind" in r.output
    assert "No findings" not in r.output
    r = CliRunner().invoke(main, ["scan", str(tools), "--profile", "no-such-profile", "--no-config"])
    assert r.exit_code == 2 and "unknown profile 'no-such-profile'" in r.output


def test_unknown_profile_in_config_is_located(tmp_path):
    cfg = write(tmp_path, "select: [DEC]\nprofiles:\n  - openai-strict\n  - opneai-strikt\n", ".mcplint.yaml")
    tools = write(tmp_path, json.dumps({"name": "a", "inputSchema": {"type": "object"}}), "t.json")
    r = CliRunner().invoke(main, ["scan", str(tools), "--config", str(cfg)])
    assert r.exit_code == 2
    assert f"{cfg}:4:5: config error: unknown profile 'opneai-strikt'" in r.output


def test_new_fields_of_a_users_profile_get_located_errors(tmp_path):
    """The fields added for the second round of facts are validated like the others: a bad
    value in a user's own profile is a config error at its line and column."""
    import pytest

    from mcplint.errors import ConfigError
    from mcplint.profiles import load_profile
    from .common import write

    head = ("id: mine\ntitle: Mine\nkind: hosted\n"
            "source: {url: 'https://example.com', seen: '2026-12-01', confidence: high}\n")
    bad = {
        "keywords:\n  minLength: {action: reject, hedge: 3}\n": (6, "expected string, found a number"),
        "keywords:\n  multipleOf: {action: enforce, when: {via_in: anyOf}}\n": (6, "expected array, found text"),
        "keywords:\n  pattern: {action: enforce, regex: {python_re: {action: reject}}}\n": (6, "python_re"),
        "constructs:\n  ref-sibling-annotations: {action: reject}\n": (6, "ref-sibling-annotations"),
        "keywords:\n  allOf: {action: reject, source: {url: 'https://e.com', seen: '2026-12-01', confidence: high, also: 'x'}}\n":
            (6, "expected array, found text"),
        "tool_name: {pattern: '^a$', action: skip}\n": (5, "'skip' is not one of"),
    }
    for i, (body, (line, needle)) in enumerate(bad.items()):
        path = write(tmp_path, head + body, name=f"p{i}.yaml")
        with pytest.raises(ConfigError) as e:
            load_profile(str(path))
        assert e.value.line == line, (body, str(e.value))
        assert needle in str(e.value), (body, str(e.value))
        assert str(path) in str(e.value)


@pytest.mark.parametrize("body, line, col, needle", [
    ("limits:\n  tool_name_length: {max: 64, on_reject: fail-lists}\n", 6, 31, "'fail-lists' is not one of"),
    ("on_reject: fail-lst\n", 5, 1, "'fail-lst' is not one of"),
    ("constructs:\n  schema-over-budget: {action: rewrite, keywords: [type]}\n", 6, 3, "'threshold' is a required"),
    ("constructs:\n  schema-over-budget: {action: rewrite, threshold: five}\n", 6, 41, "expected integer, found text"),
    ("keywords:\n  minimum: {action: drop, when: {type_list: maybe}}\n", 6, 34, "expected boolean, found text"),
    ("keywords:\n  properties: {action: reject, when: {at_root: true, key_pattern: '[\\['}}\n", 6, 54, "is not a 'regex'"),
    ("tool_name:\n  pattern: '^[a-z]+$'\n  collision: {on_reject: bogus}\n", 7, 15, "'bogus' is not one of"),
    ("tool_name:\n  pattern: '^[a-z]+$'\n  shown_as: '{server}{tool}'\n", 7, 3, "'max_shown' is a dependency"),
    ("root_defaults: [1]\n", 5, 1, "expected object, found a list"),
])
def test_round_three_keys_of_a_users_profile_get_located_errors(tmp_path, body, line, col, needle):
    """The keys added for the clients' own behaviour (a lost tools/list, Codex's byte budget, type lists,
    Cursor's parameter names, name collisions, shown names, root defaults) are held like the others:
    a mistake in a user's own profile is a config error at its line and column, never a rule that
    silently never fires (a schema-over-budget without a threshold could not be found)."""
    head = ("id: mine\ntitle: Mine\nkind: hosted\n"
            "source: {url: 'https://example.com', seen: '2026-12-01', confidence: high}\n")
    path = write(tmp_path, head + body)
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert (e.value.origin, e.value.line, e.value.col) == (str(path), line, col), str(e.value)
    assert needle in str(e.value)
