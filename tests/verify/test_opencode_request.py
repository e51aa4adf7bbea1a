"""The opencode profile held to what opencode itself sends the model, as recorded by running the real
`opencode run` (the pinned opencode-ai package, truthlab/cli) against MCP servers that list every tool
of the bench servers, the test corpus and the examples, with an OpenAI-compatible provider pointed at
a recorder on 127.0.0.1 (tests/data/opencode: the record and the script that makes it; offline here).

A tool opencode did not send (its server's listing failed) must be one the profile says is left out,
and the other way round; the name it showed must be the profile's <server>_<tool> with the profile's
replacement and no cut; and what it sent must be the server's schema but for the keys its
root_defaults add and the rewrites it reports (additionalProperties: false over an open root), each
rewrite it reports made. With MCPLINT_OPENCODE (the opencode binary; .ci/run installs it) the record
script runs the client again over every case, name and tool: what it does now is held to the profile
the same way, and must be the record."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.profiles import evaluate_slot, load_profile
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "opencode"
CLI = ROOT / "truthlab" / "cli"


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


def observations(rec: dict):
    corpus = corpus_tools()
    assert set(rec["corpus"]) == set(corpus), "the corpus changed since the record: run tests/data/opencode/record.py"
    for case in rec["cases"]:
        seen = {"missing": True} if "missing" in case else {
            "diff": records.diff(case["tool"]["inputSchema"], case["sent"]["function"]["parameters"])}
        yield case["name"], case["tool"], seen
    for d, tool in corpus.items():
        yield d, tool, rec["corpus"][d]


def left_out(profile, tool: dict) -> bool:
    """The profile says opencode never shows the model this tool."""
    for slot in ("inputSchema", "outputSchema"):
        if slot in tool:
            for e in evaluate_slot(profile, tool[slot], slot=slot):
                if e.rule.action == "reject" and profile.consequence(e.rule) in ("drop", "fail-list"):
                    return True
    return False


def _shown(profile, server: str, tool: str) -> str:
    bad = re.compile(f"[^{profile.tool_name.allowed}]")
    return profile.tool_name.shown_as.format(server=bad.sub("_", server), tool=bad.sub("_", tool))


def profile_disagreements(rec: dict) -> list:
    """What opencode did in rec (the record, or what the installed client does now: the same shape) that
    the opencode profile does not say, and the profile's exceptions no tool needs; empty when they agree."""
    profile = load_profile("opencode")
    defaults = dict(profile.root_defaults or ())
    listed = set((profile.verified_with or {}).get("exceptions") or {})
    wrong, used, missing, sent = [], set(), 0, 0
    for name, tool, seen in observations(rec):
        if ("missing" in seen) != left_out(profile, tool):
            wrong.append((name, "left out" if "missing" in seen else "sent, the profile says left out"))
            continue
        if "missing" in seen:
            missing += 1
            continue
        sent += 1
        schema = tool["inputSchema"]
        rewritten = {"/" + "/".join(map(str, e.pointer)) for e in evaluate_slot(profile, schema, slot="inputSchema")
                     if e.rule.action == "rewrite"}
        changed = set()
        for op, at, k in seen["diff"]:
            if op == "added" and at == "" and k in defaults:
                continue  # the profile's root_defaults
            if op == "changed" and f"{at}/{k}" in rewritten:
                changed.add(f"{at}/{k}")
                continue  # a rewrite the profile reports
            key = f"{k}:{op}"
            if at == "" and key in listed and schema.get(k) != defaults.get(k, schema.get(k)):
                used.add(key)
                continue
            wrong.append((name, op, at, k))
        wrong += [(name, "reported rewrite not made", p) for p in rewritten - changed]
    if listed - used:
        wrong.append(("stale exceptions: no tool needs them any more", sorted(listed - used)))
    if not (missing >= 5 and sent > 4000):
        wrong.append(("fewer tools left out or sent than the record has", missing, sent))
    return wrong


def name_disagreements(profile, names: list) -> list:
    """The names opencode showed (a record's "names") that are not the profile's <server>_<tool>."""
    wrong = [n for n in names[:-1] if n["shown"] != [_shown(profile, n["server"], n["tool"])]]
    if max(len(n["shown"][0]) if n["shown"] else 0 for n in names[:-1]) <= 200:
        wrong.append("a long name was cut")  # never cut
    # two tools shown under one name: one is left, the later ('a_b' after 'a.b')
    if not (names[-1]["tool"] == ["a.b", "a_b"] and names[-1]["shown"] == [["srv_a_b", "a_b"]]):
        wrong.append(names[-1])
    return wrong


def listing_disagreements(profile, listing: dict) -> list:
    """Where a record's lost-list run is not what the profile says: the server with a tool the profile
    says is left out loses its whole list, with the profile's quoted words; the other's tool is sent."""
    rule = profile.constructs["root-not-object"]
    lost = {key for key, tools in listing["servers"].items() if any(left_out(profile, t) for t in tools)}
    wrong = [] if lost == {"srv"} else [("lost", sorted(lost))]
    if listing["sent"] != [f"{key}_{t['name']}" for key, tools in sorted(listing["servers"].items())
                           if key not in lost for t in tools]:
        wrong.append(("sent", listing["sent"]))
    lines = listing["mcp_list"]
    if "✗ srv failed" not in lines or lines[lines.index("✗ srv failed") + 1] != rule.error \
            or "✓ okay connected" not in lines:
        wrong.append(("opencode mcp list", lines))
    return wrong


@pytest.mark.slow
def test_what_opencode_sends_is_what_the_profile_says():
    wrong = profile_disagreements(record())
    assert not wrong, wrong[:12]


def test_the_names_it_shows_are_the_profiles():
    profile = load_profile("opencode")
    assert profile.tool_name.shown_as == "{server}_{tool}" and not getattr(profile.tool_name, "cut", None)
    assert profile.tool_name.collision is not None
    wrong = name_disagreements(profile, record()["names"])
    assert not wrong, wrong


def test_a_lost_list_is_what_the_profile_says():
    """One tool whose inputSchema root is anyOf: the profile says opencode loses that server's whole
    list, and quotes what opencode printed for it; the other server's tool was sent."""
    profile = load_profile("opencode")
    assert profile.consequence(profile.constructs["root-not-object"]) == "fail-list"
    wrong = listing_disagreements(profile, record()["listing"])
    assert not wrong, wrong


def test_the_record_is_of_the_version_the_profile_names():
    pins = json.loads((CLI / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert record()["package"] == "opencode-ai" and record()["version"] == pins["opencode-ai"]
    vw = load_profile("opencode").verified_with
    assert vw["package"] == "opencode-ai" and vw["version"] == record()["version"]


@pytest.mark.slow
@pytest.mark.real_package
@pytest.mark.skipif(not os.environ.get("MCPLINT_OPENCODE"), reason="MCPLINT_OPENCODE (the opencode binary of opencode-ai) not set")
def test_the_installed_client_does_what_the_record_says():
    """The whole record made again by the installed client (every case and name, the corpus in runs of
    1,000 tools, the lost list; a few minutes): held to the profile exactly as the record is, and then
    the same as the record."""
    again = _load("opencode_record", HERE / "record.py").observe(batch=50, servers=20)
    profile = load_profile("opencode")
    wrong = profile_disagreements(again) + name_disagreements(profile, again["names"]) \
        + listing_disagreements(profile, again["listing"])
    assert not wrong, wrong[:12]
    drift = records.drift(record(), again)
    assert not drift, f"the installed client differs from the record (run tests/data/opencode/record.py): {drift[:12]}"
