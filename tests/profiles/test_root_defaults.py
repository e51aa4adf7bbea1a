"""``root_defaults:``: a client that puts keys at the root of every schema it sends, where the
server left them out (the Agents SDKs' default, non-strict mode), is judged on what it sends.
What the SDKs really send is held to these profiles in tests/verify/test_sdk_transforms.py (Python,
run here) and tests/verify/test_agents_js.py (JavaScript, recorded under node)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.profiles.describe import profile_sheet
from .common import ROOT, write

PY, JS = "openai-agents-nonstrict", "openai-agents-js-nonstrict"


def _summary(profile: str, schema) -> list:
    return [(e.pointer, e.subject, e.rule.action) for e in evaluate_slot(load_profile(profile), schema)]


def test_a_root_without_properties_fails_openai_but_not_through_an_agents_sdk():
    schema = {"type": "object"}  # FastMCP-style "no arguments" written without properties
    assert ((), "object-without-properties", "reject") in _summary("openai-api", schema)
    assert _summary(PY, schema) == []
    assert _summary(JS, schema) == []


def test_a_root_without_type_is_filled_in_by_the_javascript_sdk_only():
    # the Python SDK adds only properties: OpenAI still refuses the untyped root it sends
    assert [s for _, s, a in _summary(PY, {}) if a == "reject"] == ["root-not-object"]
    assert [s for _, s, a in _summary(PY, {"properties": {"a": {"type": "string"}}}) if a == "reject"] == \
        ["root-not-object"]
    assert _summary(JS, {}) == []
    assert _summary(JS, {"properties": {"a": {"type": "string"}}}) == []


def test_a_root_typed_otherwise_is_sent_as_it_is():
    for profile in (PY, JS):
        assert [s for _, s, a in _summary(profile, {"type": "string"}) if a == "reject"] == ["root-not-object"]


def test_what_the_sdk_does_not_touch_is_judged_as_openai_api_judges_it():
    """Near miss: where the root already has every key the client fills in, the verdict is openai-api's,
    effect for effect, on every input schema of the test corpus and the examples."""
    api = load_profile("openai-api")
    seen = 0
    for path in sorted((ROOT / "tests" / "data" / "corpus").glob("*.tools.json")) + \
            sorted((ROOT / "examples").glob("*.tools.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for tool in data.get("tools") or ():
            schema = tool.get("inputSchema")
            for name in (PY, JS):
                p = load_profile(name)
                if not isinstance(schema, dict) or any(k not in schema for k, _ in p.root_defaults):
                    continue
                seen += 1
                mine = [(e.pointer, e.subject, e.rule) for e in evaluate_slot(p, schema)]
                theirs = [(e.pointer, e.subject, e.rule) for e in evaluate_slot(api, schema)]
                assert mine == theirs, (path.name, tool.get("name"), name)
    assert seen > 100


def test_the_defaults_never_change_the_servers_schema():
    schema = {"type": "object"}
    evaluate_slot(load_profile(JS), schema)
    assert schema == {"type": "object"}


def test_a_user_profile_can_fill_in_the_root(tmp_path):
    p = write(tmp_path, "id: mine\nextends: openai-api\ntitle: Mine\nkind: client\n"
                        "source: {url: 'https://example.invalid/c', seen: '2026-12-07', confidence: high}\n"
                        "root_defaults: {properties: {}, type: object}\n")
    prof = load_profile(str(p))
    assert dict(prof.root_defaults) == {"properties": {}, "type": "object"}
    assert evaluate_slot(prof, {}) == []
    assert prof.as_dict()["root_defaults"] == {"properties": {}, "type": "object"}
    assert 'Sends the root with, where the server left them out: properties: {}, type: "object"' in profile_sheet(prof)
    # and one that extends it inherits the defaults
    child = write(tmp_path, "id: child\nextends: ./p.yaml\ntitle: Child\nkind: client\n"
                            "source: {url: 'https://example.invalid/c', seen: '2026-12-07', confidence: high}\n",
                  "child.yaml")
    assert dict(load_profile(str(child)).root_defaults) == {"properties": {}, "type": "object"}


@pytest.mark.parametrize("value", ["[]", "{}", "properties"])
def test_root_defaults_that_are_not_an_object_of_keys_is_a_located_error(tmp_path, value):
    p = write(tmp_path, "id: bad\nextends: openai-api\ntitle: Bad\nkind: client\n"
                        "source: {url: 'https://example.invalid/c', seen: '2026-12-07', confidence: high}\n"
                        f"root_defaults: {value}\n")
    tools = tmp_path / "t.tools.json"
    tools.write_text('{"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}', encoding="utf-8")
    r = CliRunner().invoke(main, ["scan", "--no-config", str(tools), "--profile", str(p)])
    assert r.exit_code == 2, r.output
    assert f"{p}:6:" in r.output and "root_defaults" in r.output
    assert "Traceback" not in r.output
