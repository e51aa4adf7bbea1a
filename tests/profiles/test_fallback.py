"""Fallback routes (``fallback:``): a target that, instead of failing on what one backend
rejects, compiles the whole schema with another (vLLM's backend auto)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mcplint.cli import main
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.profiles.describe import profile_sheet
from .common import write

SRC = "{url: 'https://example.invalid/a', seen: '2026-12-01', confidence: high}"
FIRST = ("id: first\ntitle: First\nkind: decoder\nsource: &s " + SRC + "\n"
         "keywords:\n  uniqueItems: {action: reject, error: 'nope', source: *s}\n  not: {action: drop, source: *s}\n"
         "fallback:\n"
         "  - {to: ./third.yaml, when_has: [patternProperties], message: 'to {to} because of {keyword}', source: *s}\n"
         "  - {to: second.yaml, message: 'to {to} because of {keyword}', error_prefix: 'Grammar error: ', source: *s}\n")
SECOND = ("id: second\ntitle: Second\ndisplay: Second\nkind: decoder\nsource: &s " + SRC + "\n"
          "keywords:\n  not: {action: reject, error: 'Unimplemented keys: [\"not\"]', source: *s}\n"
          "  uniqueItems: {action: enforce, source: *s}\n")
THIRD = ("id: third\ntitle: Third\ndisplay: Third\nkind: decoder\nsource: &s " + SRC + "\n"
         "keywords:\n  not: {action: drop, message: third drops not, source: *s}\n")


def _profiles(tmp_path):
    write(tmp_path, SECOND, "second.yaml")
    write(tmp_path, THIRD, "third.yaml")
    return load_profile(str(write(tmp_path, FIRST, "first.yaml")))


def _summary(effects):
    return [("/".join(map(str, e.pointer)), e.subject, e.rule.action, e.rule.error) for e in effects]


def test_nothing_rejected_stays_on_the_first_backend(tmp_path):
    p = _profiles(tmp_path)
    got = _summary(evaluate_slot(p, {"type": "object", "properties": {"q": {"not": {}}}}))
    assert got == [("properties/q/not", "not", "drop", None)]


def test_a_rejection_moves_the_whole_schema_to_the_fallback(tmp_path):
    p = _profiles(tmp_path)
    schema = {"type": "object", "properties": {"t": {"type": "array", "uniqueItems": True}, "q": {"not": {}}}}
    effects = evaluate_slot(p, schema)
    assert _summary(effects) == [
        ("properties/t/uniqueItems", "backend-fallback", "annotation", None),
        ("properties/q/not", "not", "reject", 'Grammar error: Unimplemented keys: ["not"]')]
    assert "to Second because of" in effects[0].rule.message
    assert evaluate_slot(p, schema, routes=False)[0].rule.error == "nope"  # the profile as itself


def test_the_first_route_whose_keys_occur_is_taken(tmp_path):
    p = _profiles(tmp_path)
    schema = {"type": "object", "properties": {"t": {"type": "array", "uniqueItems": True}, "q": {"not": {}},
                                               "m": {"type": "object", "patternProperties": {"^a": {}}}}}
    got = _summary(evaluate_slot(p, schema))
    assert got[0][1] == "backend-fallback" and ("properties/q/not", "not", "drop", None) in got
    assert all(e[3] is None or not e[3].startswith("Grammar") for e in got)  # no prefix on this route


def test_the_sheet_and_the_json_show_the_routes(tmp_path):
    p = _profiles(tmp_path)
    sheet = profile_sheet(p)
    assert "## Falls back" in sheet and "[if the schema has patternProperties anywhere]" in sheet
    r = CliRunner().invoke(main, ["profile", "vllm", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    routes = (data.get("profile") or data).get("fallback")
    assert [f["to"] for f in routes] == ["outlines", "llguidance"]
    assert routes[1]["error_prefix"] == "Grammar error: "


def test_a_route_to_itself_is_a_located_error(tmp_path):
    import pytest

    from mcplint.errors import ConfigError

    path = write(tmp_path, "id: me\ntitle: t\nkind: decoder\nsource: &s " + SRC + "\n"
                 "fallback:\n  - {to: ./me.yaml, message: m, source: *s}\n", "me.yaml")
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert (e.value.line, e.value.col) == (6, 6) and "itself" in str(e.value)


def test_a_refusing_client_reports_a_keyword_that_constrains_nothing_and_judges_what_it_sends():
    """openai-agents-js refuses propertyNames whatever it says (zod's record writes {type: string},
    which constrains no key), so the refusal is reported; and the non-strict schema it then sends has
    the root keys the SDK fills in, so OpenAI's 'object schema missing properties' does not apply."""
    from mcplint.profiles import evaluate_slot, load_profile

    js = load_profile("openai-agents-js")
    record = {"type": "object", "properties": {"m": {"type": "object", "propertyNames": {"type": "string"},
                                                     "additionalProperties": {"type": "string"}}},
              "required": ["m"], "additionalProperties": False}
    got = [(e.subject, e.rule.action) for e in evaluate_slot(js, record)]
    assert ("propertyNames", "drop") in got
    # a decoder that drops it (no refusal) still says nothing of a vacuous propertyNames
    assert not any(e.subject == "propertyNames" for e in evaluate_slot(load_profile("gemini"), record))
    open_root = {"type": "object", "additionalProperties": {"type": "string"}}
    got = [(e.subject, e.rule.action) for e in evaluate_slot(js, open_root)]
    assert got == [("additional-properties-open", "drop")]
    without = load_profile("openai-api")
    assert any(e.subject == "object-without-properties" for e in evaluate_slot(without, open_root))
