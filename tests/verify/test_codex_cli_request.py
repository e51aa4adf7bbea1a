"""The codex-cli profile held to what the Codex CLI itself sends the model, as recorded by running the
real `codex exec` (the pinned @openai/codex package, truthlab/cli) against MCP servers that list every
tool of the bench servers, the test corpus and the examples, with the model provider pointed at a
recorder on 127.0.0.1 (tests/data/codex: the record and the script that makes it; offline here).

Each keyword the profile says Codex removes must be gone from what it sent, each keyword it removed
must be one the profile does not say it keeps, each key it added must be a rewrite the profile
names, and a tool it left out must be one the profile says it leaves out. Codex compacts a schema
over its byte budget: it must remove the descriptions of exactly the schemas the profile's
schema-over-budget finds over it, and cut more of exactly those the profile says are still over
without them. A disagreement the profile does not model yet is listed in its
verified_with.exceptions with the reason, and an exception no tool needs any more fails too.
With MCPLINT_CODEX (the codex binary; .ci/run installs it) the record script runs the client again
over every case, name and tool: what it does now is held to the profile the same way, and must be
the record."""

from __future__ import annotations

import importlib.util
import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.model import Pointer
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "codex"
CLI = ROOT / "truthlab" / "cli"
MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
REMOVED = ("drop", "annotation")


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "record.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def corpus_tools() -> dict:
    return records.corpus_tools(ROOT)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ptr(parts) -> str:
    return str(Pointer(parts))


def _parts(pointer: str) -> list:
    return list(Pointer.parse(pointer))


def _at(schema, pointer: str):
    for p in _parts(pointer):
        schema = schema[int(p)] if isinstance(schema, list) else schema[p]
    return schema


def _is_map(pointer: str) -> bool:
    """The value at pointer maps names to schemas (its keys are not keywords)."""
    parts = _parts(pointer)
    return bool(parts) and parts[-1] in MAPS and not (len(parts) > 1 and parts[-2] in MAPS)


INFERRED = ("properties", "required", "additionalProperties", "items", "enum", "format", "minimum", "maximum",
            "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _under(pointer: str, removed: set) -> bool:
    """pointer lies inside a value Codex removed whole."""
    parts = _parts(pointer)
    return any((_ptr(parts[:i]), parts[i]) in removed for i in range(len(parts)))


def _refs(node, out: set, skip_defs: bool) -> set:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                out.add(v)
            elif not (skip_defs and k in ("$defs", "definitions")) and k not in ("enum", "const", "default", "examples"):
                _refs(v, out, False)
    elif isinstance(node, list):
        for v in node:
            _refs(v, out, False)
    return out


def reached(schema: dict) -> set:
    """The '#/$defs/...' pointers a $ref outside the definitions reaches, directly or through others."""
    todo, seen = list(_refs(schema, set(), True)), set()
    while todo:
        ref = todo.pop()
        if ref in seen or not ref.startswith("#/"):
            continue
        seen.add(ref)
        try:
            todo += _refs(_at(schema, ref[1:]), set(), False)
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    return seen


def disagreements(profile, schema: dict, diff: list) -> set:
    """What Codex did to this schema (its diff) that the profile does not say, as keyword:what keys."""
    effects = evaluate_slot(profile, schema, slot="inputSchema")
    removed = {(at, k) for op, at, k in diff if op == "removed"}
    added = {(at, k) for op, at, k in diff if op == "added"}
    said = {(_ptr(e.pointer[:-1]), e.pointer[-1]) for e in effects
            if e.rule.action in REMOVED and e.pointer and e.pointer[-1] == e.subject}
    out = {f"{k}:kept" for at, k in said - removed if not _under(_ptr([*_parts(at), k]), removed)}
    rewritten = {_ptr(e.pointer) for e in effects if e.rule.action == "rewrite"}
    rewritten |= {_ptr(e.pointer[:-1]) for e in effects if e.rule.action == "rewrite" and e.pointer and e.pointer[-1] == e.subject}
    for op, at, k in diff:
        node = _at(schema, at)
        if _is_map(at):
            if op == "removed" and _parts(at)[-1] in ("$defs", "definitions") and f"#{at}/{k}" not in reached(schema):
                continue  # a definition no $ref reaches is left out: it constrains nothing
            out.add(f"property:{op}")
        elif op == "removed":
            if k == "const" and (at, "enum") in added:
                continue  # const becomes a one-value enum (the profile: the same values)
            if k in ("$defs", "definitions") and not any(r.startswith(f"#/{k}/") for r in reached(schema)):
                continue  # no $ref reaches a definition: they go
            rule = profile.keyword_rule(k)
            if rule is not None and isinstance(node, dict) and profile.decide(rule, node, k, at == "", schema).action == "enforce":
                out.add(f"{k}:stripped")
        elif op == "added":
            if k == "properties" and isinstance(node, dict) and "properties" not in node:
                continue  # Codex inserts properties: {} beside every object type (the profile's comment)
            if k in ("type", "items") and at in rewritten:
                continue
            if k == "type" and (at == "" or isinstance(node, dict) and any(x in node for x in INFERRED + ("const",))):
                continue  # the type Codex infers (the profile's summary)
            if k == "enum" and (at, "const") in removed:
                continue
            out.add(f"{k}:added")
        elif op == "changed":
            if k is not None and _ptr([*_parts(at), k]) in rewritten:
                continue
            out.add(f"{k}:changed")
    return out


def compacted(schema: dict, diff: list) -> bool:
    """Codex removed a description beside a keyword it keeps: the schema was over its budget (a schema
    with nothing Codex keeps loses its description anyway: the profile's untyped-schema)."""
    kept = {"type", "properties", "items", "enum", "anyOf", "oneOf", "allOf", "$ref", "const"}
    return any(op == "removed" and k == "description" and not _is_map(at) and kept & set(_at(schema, at))
               for op, at, k in diff)


def over_budget(effects) -> tuple[bool, bool]:
    """What the profile says Codex's compaction does to the schema: (its descriptions go, more is cut)."""
    over = [e for e in effects if e.subject == "schema-over-budget"]
    return bool(over), any(e.params.get("still") for e in over)


def _all_descriptions(schema) -> list:
    """A diff removing every description of ``schema`` (what a compaction would show)."""
    out: list = []

    def walk(node, at: str, in_map: bool) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                here = _ptr([*_parts(at), k])
                if in_map:
                    walk(v, here, False)
                elif k == "description" and isinstance(v, str):
                    out.append(("removed", at, k))
                elif k not in ("enum", "const", "required", "default", "examples"):
                    walk(v, here, k in MAPS)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, _ptr([*_parts(at), i]), False)

    walk(schema, "", False)
    return out


def observations(rec: dict):
    corpus = corpus_tools()
    assert set(rec["corpus"]) == set(corpus), "the corpus changed since the record: run tests/data/codex/record.py"
    for case in rec["cases"]:
        seen = {"missing": True} if "missing" in case else {"diff": records.diff(case["tool"]["inputSchema"],
                                                                                   case["sent"]["parameters"])}
        yield case["name"], case["tool"], seen
    for d, tool in corpus.items():
        yield d, tool, rec["corpus"][d]


def profile_disagreements(rec: dict) -> list:
    """What Codex did in rec (the record, or what the installed client does now: the same shape) that the
    codex-cli profile does not say, and the profile's exceptions no tool needs; empty when they agree."""
    profile = load_profile("codex-cli")
    listed = set((profile.verified_with or {}).get("exceptions") or {})
    wrong, used, missing, compact, cut = [], set(), 0, 0, 0
    for name, tool, seen in observations(rec):
        schema = tool["inputSchema"]
        effects = evaluate_slot(profile, schema, slot="inputSchema")
        left_out = any(e.rule.action == "reject" and profile.consequence(e.rule) == "drop" for e in effects)
        if "missing" in seen:
            missing += 1
            if not left_out:
                wrong.append((name, "left out"))
            continue
        if left_out:
            wrong.append((name, "sent, the profile says left out"))
            continue
        over, deeper = over_budget(effects)
        diff = seen["diff"]
        gone = {(at, k) for op, at, k in diff if op == "removed"}  # (a description inside a value cut whole is gone with it)
        shown = [d for d in _all_descriptions(schema) if not _under(d[1], gone)]
        if compacted(schema, diff) != (over and compacted(schema, shown)):
            wrong.append((name, "descriptions removed" if not over else "over the budget, descriptions kept"))
            continue
        if over:  # the descriptions go, as the profile says: the rest is held to the profile as usual
            compact += 1
            diff = [d for d in diff if not (d[0] == "removed" and d[2] == "description" and not _is_map(d[1]))]
        found = disagreements(profile, schema, diff)
        stripped = {f for f in found if f.endswith(":stripped")}
        if deeper:  # still over without the descriptions: root definitions and deep schemas are cut too
            if not stripped:
                wrong.append((name, "the profile says nested schemas are cut; none was"))
            cut += 1
            found -= stripped
        used |= found & listed
        if found - listed:
            wrong.append((name, sorted(found - listed)))
    if listed - used:
        wrong.append(("stale exceptions: no tool needs them any more", sorted(listed - used)))
    if not (missing >= 3 and compact > 50 and cut > 10):
        wrong.append(("fewer tools left out, compacted or cut than the record has", missing, compact, cut))
    return wrong


@pytest.mark.slow
def test_what_codex_sends_is_what_the_profile_says():
    wrong = profile_disagreements(record())
    assert not wrong, wrong[:12]


def test_the_record_is_of_the_version_the_profile_names():
    pins = json.loads((CLI / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert record()["package"] == "@openai/codex" and record()["version"] == pins["@openai/codex"]
    vw = load_profile("codex-cli").verified_with
    assert vw["package"] == "@openai/codex" and vw["version"] == record()["version"]


@pytest.mark.slow
@pytest.mark.real_package
@pytest.mark.skipif(not os.environ.get("MCPLINT_CODEX"), reason="MCPLINT_CODEX (the codex binary of @openai/codex) not set")
def test_the_installed_client_does_what_the_record_says():
    """The whole record made again by the installed client (every case, name and corpus tool; about a
    minute): held to the profile exactly as the record is, and then the same as the record."""
    again = _load("codex_record", HERE / "record.py").observe()
    wrong = profile_disagreements(again)
    assert not wrong, wrong[:12]
    drift = records.drift(record(), again)
    assert not drift, f"the installed client differs from the record (run tests/data/codex/record.py): {drift[:12]}"
