"""Hosted providers, where no decoder can run: what each provider's own SDK strips,
rewrites, adds or refuses in a schema must match what the profile of its target says of
that keyword (mcplint/verify/sdk.py), over one schema per probe of the suite plus
hypothesis-generated tool schemas. A difference is fixed in the profile (with the SDK as
its source) or listed in the profile's verified_with.exceptions as a known SDK/API
difference. Needs the `sdk` extra; offline."""

from __future__ import annotations

import importlib
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings

from mcplint.profiles import load_profile
from mcplint.verify.sdk import SDKS, Sdk, check, diff
from mcplint.verify.suite import PROBES
from schema_strategies import generated_tool_schemas, tool_schemas

MODULES = {"openai": "openai.lib._pydantic", "openai-agents": "agents.strict_schema",
           "anthropic": "anthropic.lib._parse._transform", "google-genai": "google.genai._mcp_utils"}


def sdk_or_skip(name: str) -> Sdk:
    try:
        importlib.import_module(MODULES[name])
    except Exception as e:  # ImportError, or an SDK that fails to import here
        pytest.skip(f"{name} is not importable: {e}")
    return SDKS[name]


# hand-written schemas for cases the generator reaches only rarely
EXTRA = [
    {"type": "object", "properties": {"d": {"type": "string", "format": "date", "enum": ["2024-01-01"]}},
     "required": ["d"], "additionalProperties": False},
    # length and item bounds on an open object: what google-genai's MCP conversion strips; listed here
    # so the stale-exception check does not depend on what the generator happens to draw
    {"type": "object", "properties": {"v": {"type": "string", "minLength": 3, "maxLength": 5}}, "required": ["v"]},
    {"type": "object", "properties": {"v": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                                            "maxItems": 3}}, "required": ["v"]},
    # pydantic's two ways of describing a nested model: a $ref beside its description, and (pydantic
    # before 2.9) a one-entry allOf around a bare $ref
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "description": "an A"},
                                      "b": {"allOf": [{"$ref": "#/$defs/A"}], "description": "a B"}},
     "required": ["a", "b"], "additionalProperties": False,
     "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"],
                     "additionalProperties": False}}},
    # pydantic's Optional[str] = None beside a default the model may not see: a null default is removed
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                                      "b": {"type": "integer", "default": 3}},
     "required": ["a", "b"], "additionalProperties": False},
]
EXCUSED: dict = {}  # sdk name -> exception keys some schema needed


def unexplained(sdk: Sdk, schema) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic serializer warnings from google-genai
        r = check(sdk, load_profile(sdk.target), schema)
    EXCUSED.setdefault(sdk.name, set()).update(c.key for c in r.excused)
    return [f"{c.key} at {c.where()}: {c.detail}" for c in r.unexplained]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SDKS))
def test_sdk_transform_agrees_with_profile_on_every_probe(name):
    sdk = sdk_or_skip(name)
    bad = {p.id: u for p in PROBES if (u := unexplained(sdk, p.schema))}
    assert not bad, bad


@pytest.mark.parametrize("name", list(SDKS))
def test_sdk_transform_agrees_with_profile_on_generated_schemas(name):
    sdk = sdk_or_skip(name)

    @settings(max_examples=60, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(tool_schemas())
    def run(schema):
        assert unexplained(sdk, schema) == []

    run()
    # every documented exception is still needed by some schema (probes and generated), or it is stale
    for schema in [p.schema for p in PROBES] + EXTRA:
        assert unexplained(sdk, schema) == []
    listed = set((load_profile(sdk.target).verified_with or {}).get("exceptions") or {})
    assert listed - EXCUSED.get(sdk.name, set()) == set(), "stale exceptions: no schema needs them any more"


@pytest.mark.parametrize("name", list(SDKS))
def test_profile_records_the_sdk_version(name):
    from importlib import metadata

    sdk = SDKS[name]
    vw = load_profile(sdk.target).verified_with
    assert vw and vw["package"] == sdk.name
    try:
        installed = metadata.version(sdk.name)
    except metadata.PackageNotFoundError:
        pytest.skip(f"{sdk.name} is not installed")
    if installed != vw["version"]:
        pytest.skip(f"{sdk.name} {installed} installed; the profile was checked with {vw['version']}")


# --- the checker has teeth (no SDK needed)

def test_a_stripped_enforced_keyword_is_unexplained():
    def strip_minimum(schema):
        out = {**schema, "properties": {k: {kk: vv for kk, vv in v.items() if kk != "minimum"}
                                        for k, v in schema["properties"].items()}}
        return out

    fake = Sdk("openai", "openai-strict", strip_minimum)
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"],
              "additionalProperties": False}
    r = check(fake, load_profile("openai-strict"), schema)
    assert [c.key for c in r.unexplained] == ["minimum:stripped"]
    # anthropic-strict rejects minimum, so stripping it is explained there
    assert check(fake, load_profile("anthropic-strict"), schema).unexplained == ()


def test_a_refusal_needs_a_rejection():
    def refuse(schema):
        raise ValueError("no")

    ok = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": False}
    r = check(Sdk("openai", "openai-strict", refuse), load_profile("openai-strict"), ok)
    assert [c.key for c in r.unexplained] == ["refused:ValueError"]
    bad = {**ok, "properties": {"n": {"allOf": [{"type": "integer"}]}}}
    assert check(Sdk("openai", "openai-strict", refuse), load_profile("openai-strict"), bad).unexplained == ()


def test_diff_sees_equivalent_forms_as_unchanged():
    before = {"type": "object", "$defs": {"n": {"type": "integer"}}, "required": ["a", "b"],
              "properties": {"a": {"type": ["string", "null"]}, "b": {"$ref": "#/$defs/n"}}}
    after = {"type": "object", "$defs": {"n": {"type": "integer"}}, "required": ["b", "a"],
             "properties": {"a": {"type": "string", "nullable": True}, "b": {"type": "integer"}}}
    assert [(c.keyword, c.change) for c in diff(before, after)] == [("$ref", "inlined")]
    renamed = diff({"oneOf": [{"type": "string"}]}, {"anyOf": [{"type": "string"}]})
    assert [(c.keyword, c.change) for c in renamed] == [("oneOf", "rewritten")]


# --- openai-agents' one-entry allOf merge (condition allof_merges), held against the SDK itself

_S, _NS = {"type": "string"}, {"type": ["string", "null"]}
_OPEN = {"type": "object", "properties": {"x": _S}}
_CLOSED = {**_OPEN, "required": ["x"], "additionalProperties": False}
_SHAPES = {  # each as an entry's body and as the keywords beside the allOf
    "props": {"properties": {"a": _S}}, "props-null": {"properties": {"a": _NS}},
    "props-null-default": {"properties": {"a": {**_NS, "default": None}}},
    "nested-open": {"properties": {"o": _OPEN}}, "nested-closed": {"properties": {"o": _CLOSED}},
    "oneOf": {"properties": {"u": {"oneOf": [_S, {"type": "integer"}]}}},
    "anyOf": {"properties": {"u": {"anyOf": [_S, {"type": "integer"}]}}},
    "items-open": {"items": _OPEN}, "items-closed": {"items": _CLOSED},
    "max-1": {"maximum": 1}, "max-1.0": {"maximum": 1.0}, "max-2": {"maximum": 2},
    "const-true": {"properties": {"a": {"const": True}}}, "const-1": {"properties": {"a": {"const": 1}}},
    "described-ref": {"properties": {"o": {"$ref": "#/$defs/A", "description": "d"}}},
    "ref-inlined": {"properties": {"o": {"type": "object", "properties": {"a": _S}, "description": "d"}}},
    "described": {"properties": {"a": {"type": "string", "description": "one"}}},
    "closed": {"additionalProperties": False}, "desc": {"description": "p"}, "none": {},
}
_DEFS = {"A": {"type": "object", "properties": {"a": _S}}}


def test_allof_merges_agrees_with_openai_agents_on_every_pairing():
    """Every entry shape (also as a bare $ref to a definition) beside every sibling shape: the
    condition says the allOf merges exactly where ensure_strict_json_schema merges it. Pairings the
    SDK refuses for another reason first are not compared."""
    import copy

    sdk_or_skip("openai-agents")
    from agents.exceptions import UserError
    from agents.strict_schema import ensure_strict_json_schema

    from mcplint.profiles.conditions import allof_merges

    wrong, compared = [], 0
    for en, body in _SHAPES.items():
        for as_ref in (False, True):
            entry = {"$ref": "#/$defs/E"} if as_ref else body
            for pn, beside in _SHAPES.items():
                node = {**copy.deepcopy(beside), "allOf": [copy.deepcopy(entry)]}
                root = {"type": "object", "properties": {"p": node}, "required": ["p"],
                        "additionalProperties": False, "$defs": {**_DEFS, "E": body}}
                try:
                    ensure_strict_json_schema(copy.deepcopy(root), _reject_open_objects=True)
                    merges = True
                except UserError as e:
                    if "singleton `allOf`" not in str(e):
                        continue
                    merges = False
                compared += 1
                if allof_merges(node, root) != merges:
                    wrong.append((en, as_ref, pn, merges))
    assert compared > 600 and not wrong, wrong


def test_where_openai_agents_is_said_to_send_a_tool_non_strict_it_does():
    """The other way round from the checks above: a drop (the SDK gives up and sends the tool
    non-strict) is claimed only where ensure_strict_json_schema really raises, and where it raises
    the profile says so, or says the request fails anyway (a rejection OpenAI makes of the
    non-strict tool too, such as a top-level allOf)."""
    from mcplint.profiles import evaluate_slot
    from mcplint.verify.sdk import _prepare

    sdk = sdk_or_skip("openai-agents")
    profile, api = load_profile("openai-agents"), load_profile("openai-api")
    drawn = generated_tool_schemas(200)
    def closed(props: dict) -> dict:
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}

    visited = [  # an open object under an applicator OpenAI strict rejects: the SDK walks allOf, not `not`
        closed({"b": {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": True},
                                {"type": "object", "properties": {"y": {"type": "string"}}}]}}),
        closed({"n": {"not": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": True}}}),
    ]
    wrong, refused = [], 0
    for schema in [p.schema for p in PROBES] + EXTRA + visited + drawn:
        schema = _prepare(sdk, schema)
        effects = evaluate_slot(profile, schema)
        said = any(e.rule.action == "drop" for e in effects)
        try:
            sdk.transform(schema)
            did = False
        except Exception:
            did = True
        refused += did
        # some rejection the profile reports is one OpenAI makes of the non-strict tool as well
        rejects = {(e.subject, e.pointer) for e in effects if e.rule.action == "reject"}
        fails_anyway = bool(rejects & {(e.subject, e.pointer) for e in evaluate_slot(api, schema)
                                       if e.rule.action == "reject"})
        if said != did and not (did and fails_anyway):
            wrong.append((said, did, json.dumps(schema)[:200]))
    assert refused > 20 and not wrong, wrong


def test_the_agents_sdks_default_mode_sends_what_openai_agents_nonstrict_judges():
    """Without convert_schemas_to_strict, MCPUtil.to_function_tool sends every tool non-strict,
    with the server's schema and only the root keys the profile's root_defaults name filled in
    where they are missing: run on every probe, the hand-written schemas, roots without
    properties or type, and 60 generated tool schemas."""
    sdk_or_skip("openai-agents")
    from agents.mcp import MCPServerStdio
    from agents.mcp.util import MCPUtil
    from mcp.types import Tool

    defaults = dict(load_profile("openai-agents-nonstrict").root_defaults)
    assert defaults == {"properties": {}}
    server = MCPServerStdio(params={"command": "true"})  # never started: the conversion does not call it
    drawn = generated_tool_schemas(60)
    roots = [{}, {"type": "object"}, {"type": "object", "additionalProperties": False},
             {"properties": {"a": {"type": "string"}}}, {"type": "string"}]
    wrong, filled = [], 0
    for schema in [p.schema for p in PROBES] + EXTRA + roots + drawn:
        sent = MCPUtil.to_function_tool(Tool(name="t", inputSchema=json.loads(json.dumps(schema))), server, False)
        expected = {**schema, **{k: v for k, v in defaults.items() if k not in schema}}
        filled += expected != schema
        if sent.strict_json_schema or sent.params_json_schema != expected:
            wrong.append((schema, sent.strict_json_schema, sent.params_json_schema))
    assert not wrong, wrong[:3]
    assert filled >= 4
