"""Every shortcut the DEC rules and the profile loader take gives what the plain path gives:
every shipped profile over the real-server corpus and the examples, every field of every
finding, once as the code is and once with each cache replaced by the plain computation
(profiles parsed from their YAML, each slot evaluated afresh for every rule, each tool's
effects computed for each tool rule, the request limits counted by walking and evaluating each
slot again rather than reading the walk and the evaluation the slot rules share, a message's fixed
words and a rule's consequence and severity worked out for every finding, every message written
out when it is made, so findings are merged by their text rather than by the words and values they
keep)."""

from __future__ import annotations

import importlib

import pytest

from mcplint.config import Config
from mcplint.dialects import dialect_of
from mcplint.engine import lint_paths
from mcplint.profiles import loader
from mcplint.rules.decoder_profile import common

from .common import ROOT

describe = importlib.import_module("mcplint.profiles.describe")  # the module (the package exports its function)

FILES = sorted(str(p) for p in (ROOT / "tests" / "data" / "corpus").glob("*.tools.json")) + \
    sorted(str(p) for p in (ROOT / "examples").glob("*.tools.json"))
PROFILES = tuple(loader.builtin_names())


def everything() -> list[tuple]:
    result = lint_paths(FILES, Config(profiles=PROFILES, protocol_versions=("2025-11-25", "2026-07-28")), jobs=1)
    assert not result.errors
    return [(f.rule, f.name, f.severity, f.message, f.origin, str(f.pointer), f.span, f.tool, f.slot, f.versions,
             f.profile, f.fix, f.consequence) for f in result.findings]


def plain_slot_effects(profile, slot, memo) -> dict:
    if not profile.checks(slot.kind):
        return {}
    if isinstance(slot.schema, dict) and dialect_of(slot.schema) == "json-structure":
        return {}
    groups: dict = {}
    for e in common.lazy_profiles().evaluate_slot(profile, slot.schema, slot=slot.kind):
        groups.setdefault("limit" if e.kind == "limit" else profile.consequence(e.rule), []).append(e)
    return groups


def forget():
    loader._TABLE.clear()
    loader._CACHE.clear()
    loader._ALIAS_SETS.clear()


@pytest.fixture(scope="module")
def as_the_code_is():
    forget()
    return everything()


def test_the_corpus_has_findings_of_every_kind(as_the_code_is):
    rules = {f[0] for f in as_the_code_is}
    assert {"DEC001", "DEC002", "DEC004", "DEC005", "DEC007", "DEC008", "DEC009"} <= rules
    assert len({f[10] for f in as_the_code_is if f[10]}) >= 10  # most profiles say something


def afresh(func):
    """``func`` with a memo of its own for every call: each answer worked out anew."""
    from mcplint.memo import Memo

    def plain(*args):
        return func(*args[:-1], Memo())
    return plain


@pytest.mark.parametrize("plain", ["profiles parsed", "slots evaluated afresh", "tool effects afresh",
                                   "words afresh", "request limits walk each slot", "messages written at once",
                                   "all of them"])
@pytest.mark.slow
def test_shortcut_gives_the_plain_result(plain, as_the_code_is, monkeypatch, tmp_path):
    forget()
    if plain in ("profiles parsed", "all of them"):
        monkeypatch.setattr(loader, "_kept", lambda name: None)
    if plain in ("slots evaluated afresh", "all of them"):
        monkeypatch.setattr(common, "_slot_effects", plain_slot_effects)
    if plain in ("tool effects afresh", "all of them"):
        monkeypatch.setattr(common, "tool_effects",
                            lambda p, t, memo, server=None, others=None: common.lazy_profiles().evaluate_tool(
                                p, t, server, others))
        from mcplint.rules.decoder_profile import tools

        monkeypatch.setattr(tools, "tool_effects", common.tool_effects)
    if plain in ("request limits walk each slot", "all of them"):
        from mcplint.rules.decoder_profile import request

        monkeypatch.setattr(request, "slot_facts", lambda schema, memo: None)
        monkeypatch.setattr(request, "kept_slot_effects", lambda profile, slot, memo: None)
    if plain in ("words afresh", "all of them"):  # a message's plan, a rule's consequence and severity
        monkeypatch.setattr(describe, "_plan", afresh(describe._plan))
        monkeypatch.setattr(common, "verdict_of", afresh(common.verdict_of))
    if plain in ("messages written at once", "all of them"):  # the engine then merges by the text
        monkeypatch.setattr(common.lazy_profiles(), "message", describe.describe)
    try:
        assert everything() == as_the_code_is
    finally:
        forget()


def test_request_counts_read_a_shared_walk_only_when_it_holds_every_subschema():
    from mcplint.profiles.facts import SlotFacts
    from mcplint.profiles.request import request_counts

    leaf = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"anyOf": [{"type": "string"}]}}}
    schema = {"type": "object", "properties": {f"p{i}": dict(leaf) for i in range(30)}}
    walked = request_counts(schema)
    assert walked == (30 + 60, 30)
    whole = SlotFacts(schema)
    assert whole.subs and whole.complete and request_counts(schema, whole) == walked
    cut = SlotFacts(schema, max_nodes=10)  # a walk stopped at its bound is not read
    assert cut.subs and not cut.complete and request_counts(schema, cut) == walked


def test_request_limits_read_the_kept_evaluation_and_judge_json_structure_slots_too():
    """DeepSeek's non-strict-tools count reads the evaluation the slot rules keep; a JSON
    Structure slot, which they do not evaluate, is still judged (as the plain path judges it)."""
    import json

    from mcplint.collect import collect
    from mcplint.load import parse
    from mcplint.memo import Memo
    from mcplint.model import Source
    from mcplint.rules.decoder_profile import request

    open_object = {"type": "object", "properties": {"a": {"type": "string"}}}  # rejected: optional, not closed
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
              "additionalProperties": False}
    jstruct = {"$schema": "https://json-structure.org/meta/core/v0/#", **open_object}
    text = json.dumps({"tools": [{"name": "a", "inputSchema": open_object}, {"name": "b", "inputSchema": closed},
                                 {"name": "c", "inputSchema": jstruct}]})
    coll = collect(parse(Source("t.json", text, "json")), ("2025-11-25",))
    profile = loader.load_profile("deepseek-strict")
    forget()
    try:
        plain = common.lazy_profiles().evaluate_request(profile, coll.tools, tuple(coll.container))
        memo = Memo()
        kept = common.lazy_profiles().evaluate_request(profile, coll.tools, tuple(coll.container),
                                                       lambda schema: request.slot_facts(schema, memo),
                                                       lambda p, slot: request.kept_slot_effects(p, slot, memo))
        assert common.kept_slot_effects(profile, next(coll.tools[2].slots()), memo) is None  # not kept: judged afresh
    finally:
        forget()
    assert [(e.subject, e.params["count"], e.params["beyond"]) for e in kept] == [("non_strict_tools", 2, "a, c")]
    assert kept == plain
