"""The profiles of the JavaScript MCP clients held to what their packages really do, as recorded by
running them under node (tests/data/js-clients: the record and the script that makes it;
truthlab/js: the pinned packages and the harness; offline here).

For every tool of the bench servers, the test corpus and the examples (4,363 distinct pairs of
inputSchema and outputSchema) and for each hand-written shape, the difference between what the
server wrote and what the client sent the model must be what the profile predicts, and a tool the
client failed on must be one the profile rejects, and the other way round. Where the packages are
installed (MCPLINT_JS_TRUTHLAB, set by .ci/run), the harness runs again and must reproduce the record."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.model import Pointer
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "js-clients"
JS = ROOT / "truthlab" / "js"


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "record.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def corpus() -> dict:
    return records.corpus_tools(ROOT)


def observations(target: str):
    """(name, tool, compact result) for every case and every corpus tool the record holds for ``target``."""
    rec = record()["targets"][target]
    assert set(rec["corpus"]) == set(corpus()), "the corpus changed since the record: run tests/data/js-clients/record.py"
    for case in rec["cases"]:
        result = {k: v for k, v in case.items() if k not in ("name", "tool")}
        yield case["name"], case["tool"], records.compact(case["tool"], result)
    for d, tool in corpus().items():
        yield d, tool, rec["corpus"][d]


def _ptr(parts) -> str:
    return str(Pointer(parts))


def rejected(profile: str, tool: dict) -> bool:
    p = load_profile(profile)
    slots = [s for s in ("inputSchema", "outputSchema") if s in tool]
    return any(e.rule.action == "reject" for s in slots for e in evaluate_slot(p, tool[s], slot=s))


# --- the MCP TypeScript SDK's Client.listTools

@pytest.mark.slow
def test_the_sdk_client_fails_exactly_the_tools_the_profile_rejects():
    wrong, failed = [], 0
    for name, tool, seen in observations("mcp-sdk-client"):
        failed += "error" in seen
        if ("error" in seen) != rejected("mcp-typescript-sdk", tool):
            wrong.append((name, seen.get("error", "listed")))
    assert not wrong, wrong[:10]
    assert failed >= 8  # both sides are exercised: shapes, outputs and two real servers' tools
    assert all("expected \\\"object\\\"" in c["error"] or 'expected "object"' in c["error"]
               for c in record()["targets"]["mcp-sdk-client"]["cases"] if "error" in c)


def test_the_sdk_client_lists_output_schemas_of_any_dialect_and_odd_keywords():
    """Near misses: what an Ajv-based client might refuse and 1.32.2 does not."""
    cases = {c["name"]: c for c in record()["targets"]["mcp-sdk-client"]["cases"]}
    for name in ("output:output-2020-12", "output:output-draft-07", "output:output-bad-pattern", "output:output-unknown-format"):
        assert cases[name].get("listed") is True, name
        assert not rejected("mcp-typescript-sdk", cases[name]["tool"])


# --- the Vercel AI SDK

def _root_changes(schema: dict) -> set:
    """What @ai-sdk/mcp's tools() does at the root, by the profile's root_defaults and its rewrite of an open root."""
    out = set()
    if "properties" not in schema:
        out.add(("added", "", "properties"))
    if "additionalProperties" not in schema:
        out.add(("added", "", "additionalProperties"))
    elif schema["additionalProperties"] is not False:
        out.add(("changed", "", "additionalProperties"))
    return out


def _nodes(value, at: str = ""):
    """Every object in ``value`` with its JSON Pointer."""
    if isinstance(value, dict):
        yield at, value
        for k, v in value.items():
            yield from _nodes(v, f"{at}/{k.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, f"{at}/{i}")


def predicted_ai(profile: str, schema: dict) -> set:
    p = load_profile(profile)
    assert dict(p.root_defaults) == {"properties": {}, "additionalProperties": False}
    out = _root_changes(schema)
    for at, node in _nodes(schema):
        # the profile's note: a one-entry allOf of a bare $ref becomes the $ref (the same schema, nothing to report)
        one = node.get("allOf")
        if at and isinstance(one, list) and len(one) == 1 and isinstance(one[0], dict) and list(one[0]) == ["$ref"]:
            out |= {("removed", at, "allOf"), ("added", at, "$ref")}
    for e in evaluate_slot(p, schema):
        if e.rule.action == "rewrite" and e.subject in ("lookaround", "propertyNames"):
            *at, keyword = e.pointer
            out.add(("removed", _ptr(at), keyword))
        elif e.rule.action == "rewrite" and e.subject == "additional-properties-open":
            assert e.pointer in ((), ("additionalProperties",))
    return out


def _unsupported_property_names(node) -> bool:
    """Whether a propertyNames in ``node`` is a boolean or typed other than string."""
    if isinstance(node, dict):
        names = node.get("propertyNames", {})
        if isinstance(names, bool) or (isinstance(names, dict) and names.get("type", "string") != "string"):
            return True
        return any(_unsupported_property_names(v) for v in node.values())
    return isinstance(node, list) and any(_unsupported_property_names(v) for v in node)


@pytest.mark.slow
def test_the_ai_sdk_on_openai_changes_what_the_profile_says():
    """Chat Completions and Responses alike (one prediction per tool, held to both records)."""
    wrong, removed = [], 0
    chat, responses = observations("ai-openai"), observations("ai-openai-responses")
    for (name, tool, seen), (_, _, seen_r) in zip(chat, responses):
        assert ("error" in seen) == ("error" in seen_r), name
        if "error" in seen:
            # the one failure: propertyNames that is a boolean or typed other than string (the profile's note)
            assert _unsupported_property_names(tool["inputSchema"]), (name, seen)
            assert "propertyNames that does not use a string schema" in seen["error"]
            continue
        said = predicted_ai("vercel-ai-openai", tool["inputSchema"])
        for target, got in (("ai-openai", seen), ("ai-openai-responses", seen_r)):
            did = {tuple(d) for d in got["diff"]}
            if did != said:
                wrong.append((target, name, sorted(did ^ said)))
            assert got.get("strict") == (False if target == "ai-openai-responses" else None), (target, name)
        removed += any(d[0] == "removed" for d in seen["diff"])
    assert not wrong, wrong[:10]
    assert removed > 50


def test_the_ai_sdk_flags_lookaround_as_the_profile_reads_it():
    cases = {c["name"]: c for c in record()["targets"]["ai-openai"]["cases"]}
    gone = {n for n in ("shape:lookahead", "shape:lookbehind", "shape:lookaround-in-class", "shape:escaped-paren", "shape:named-group")
            if "pattern" not in cases[n]["sent"]["function"]["parameters"]["properties"]["p"]}
    assert gone == {"shape:lookahead", "shape:lookbehind"}  # a class, an escaped paren, a named group: kept
    assert "JSON Schema pattern with regex lookaround" in cases["shape:lookahead"]["warnings"]


@pytest.mark.slow
def test_the_ai_sdk_on_an_openai_compatible_endpoint_sends_no_strict_flag_and_the_schema_as_written():
    wrong = []
    for name, tool, seen in observations("ai-openai-compatible"):
        assert "error" not in seen and "strict" not in seen, (name, seen)
        if {tuple(d) for d in seen["diff"]} != _root_changes(tool["inputSchema"]):
            wrong.append(name)
        said = {(e.pointer, e.rule.action) for e in evaluate_slot(load_profile("vercel-ai-openai-compatible"), tool["inputSchema"])}
        assert said <= {((), "rewrite"), (("additionalProperties",), "rewrite")}, (name, said)
    assert not wrong, wrong[:10]


# --- LangChain.js createAgent with @langchain/mcp-adapters

@pytest.mark.parametrize("target,profile", [("langchain-agent", "langchainjs-agent"),
                                            ("langchain-agent-native", "langchainjs-agent-strict")])
def test_langchain_agents_simplify_and_fail_as_the_profile_says(target, profile):
    """The listing fails where the profile rejects the root (in either slot); elsewhere every keyword the
    profile says the adapters remove is gone from what was sent, and nothing else of that list was removed."""
    wrong, simplified = [], 0
    p, names = load_profile(profile), set(records.SIMPLIFIED)
    for name, tool, seen in observations(target):
        effects = [e for s in ("inputSchema", "outputSchema") if s in tool for e in evaluate_slot(p, tool[s], slot=s)]
        lists = not any(e.subject == "root-not-object" for e in effects)
        if ("error" in seen) == lists:
            wrong.append((name, "listed" if lists else seen.get("error")))
            continue
        if "error" in seen:
            continue
        assert seen.get("strict") is (True if target == "langchain-agent-native" else None), name
        # a keyword inside one the adapters remove goes with it: the profile names the outer one only
        present = records.keywords_in(tool["inputSchema"], outer_only=True)
        said = {e.subject for e in effects if e.kind == "keyword" and e.subject in names and e.rule.action != "enforce"}
        removed = {k for op, _, k in seen["diff"] if op == "removed" and k in names}
        simplified += bool(present)
        if seen["kept"] or said != present or not removed <= said:
            wrong.append((name, seen["kept"], sorted(said), sorted(present)))
    assert not wrong, wrong[:10]
    assert simplified > 500  # 824 of the corpus and shapes hold one


def test_langchain_native_output_sends_every_tool_strict_and_the_plain_agent_none():
    native = record()["targets"]["langchain-agent-native"]["corpus"].values()
    plain = record()["targets"]["langchain-agent"]["corpus"].values()
    assert all(v.get("strict") is True for v in native if "error" not in v)
    assert not any("strict" in v for v in plain if "error" not in v)


# --- the record against the installed packages

TARGETS = ("ai-openai", "ai-openai-responses", "ai-openai-compatible", "langchain-agent", "langchain-agent-native",
           "mcp-sdk-client")


def test_the_record_is_of_the_pinned_versions():
    pins = json.loads((JS / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert {k: v for k, v in record()["packages"].items()} == {k: pins[k] for k in record()["packages"]}
    for profile, package in (("vercel-ai-openai", "@ai-sdk/openai"), ("vercel-ai-openai-compatible", "@ai-sdk/openai-compatible"),
                             ("langchainjs-agent", "@langchain/mcp-adapters"), ("langchainjs-agent-strict", "@langchain/mcp-adapters"),
                             ("mcp-typescript-sdk", "@modelcontextprotocol/sdk")):
        assert f"{package}/v/{pins[package]}" in load_profile(profile).source.url, profile
        assert load_profile(profile).verified_with == {"package": package, "version": pins[package], "date": record()["recorded"]}
    assert set(record()["targets"]) == set(TARGETS)


@pytest.mark.skipif(not (os.environ.get("MCPLINT_JS_TRUTHLAB") and shutil.which("node")),
                    reason="MCPLINT_JS_TRUTHLAB (truthlab/js/node_modules after npm ci) not set")
@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
def test_the_record_is_what_the_installed_packages_do(target):
    modules = Path(os.environ["MCPLINT_JS_TRUTHLAB"])
    cases = record()["targets"][target]["cases"]
    tools = [{"name": "t", "description": "d", **c["tool"]} for c in cases]
    # an ES module resolves its imports from its own folder up: run the harness (and the module it
    # imports) beside the packages
    script = modules.parent / "harness.mjs"
    for name in ("harness.mjs", "serve.mjs"):
        there = modules.parent / name
        if not there.exists() or there.read_bytes() != (JS / name).read_bytes():
            there.write_bytes((JS / name).read_bytes())
    run = subprocess.run(["node", str(script), target], input=json.dumps(tools), capture_output=True,
                         text=True, check=True, cwd=modules.parent, timeout=120)
    now = json.loads(run.stdout)
    assert [{k: v for k, v in c.items() if k not in ("name", "tool")} for c in cases] == now
