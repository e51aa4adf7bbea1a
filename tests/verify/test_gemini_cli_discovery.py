"""The gemini-cli profile held to what @google/gemini-cli-core's own MCP discovery does, as recorded by
running its discoverTools under node on every tool of the bench servers, the test corpus and the
examples (tests/data/gemini-cli: the record and the script that makes it; truthlab/js-gemini-cli: the
pinned package and the harness; offline here). A disagreement fails: a tool whose discovery failed
must be one the profile says fails the listing, and the other way round; every change to a listed
tool's schema must be one the profile names, besides the wait_for_previous parameter gemini-cli adds
to every tool (its note). With MCPLINT_GEMINI_CLI (a node_modules with the package; .ci/run installs
it) the harness runs again over every case and tool: what it does now is held to the profile the
same way, and must be the record."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from functools import lru_cache
from pathlib import Path

import pytest

from mcplint.model import Pointer
from mcplint.profiles import evaluate_slot, load_profile
from mcplint.verify import records

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "data" / "gemini-cli"
JS = ROOT / "truthlab" / "js-gemini-cli"


@lru_cache(maxsize=1)
def record() -> dict:
    return json.loads((HERE / "record.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def corpus_tools() -> dict:
    return records.corpus_tools(ROOT)


def observations(rec: dict):
    corpus = corpus_tools()
    assert set(rec["corpus"]) == set(corpus), "the corpus changed since the record: run tests/data/gemini-cli/record.py"
    for case in rec["cases"]:
        if "error" in case:
            yield case["name"], case["tool"], {"error": case["error"]}
        else:
            yield case["name"], case["tool"], {"diff": records.diff(case["tool"]["inputSchema"], case["sent"]["parametersJsonSchema"]),
                                               "name": case["sent"]["name"]}
    for d, tool in corpus.items():
        yield d, tool, rec["corpus"][d]


def _ptr(parts) -> str:
    return str(Pointer(parts))


def profile_disagreements(rec: dict) -> list:
    """Where gemini-cli's discovery in rec (the record, or what the installed package does now: the same
    shape) failed or changed a schema otherwise than the gemini-cli profile says; empty when they agree."""
    profile = load_profile("gemini-cli")
    wrong, failed, rewritten = [], 0, 0
    for name, tool, seen in observations(rec):
        effects = {s: evaluate_slot(profile, tool[s], slot=s) for s in ("inputSchema", "outputSchema") if s in tool}
        fails = any(e.subject == "root-not-object" and e.rule.action == "reject" for es in effects.values() for e in es)
        if ("error" in seen) != fails:
            wrong.append((name, seen.get("error", "listed")))
            continue
        if "error" in seen:
            failed += 1
            if not seen["error"].startswith("Error discovering tools from srv"):
                wrong.append((name, "another error", seen["error"]))
            continue
        if seen["name"] != "mcp_srv_t":  # mcp_<server>_<tool>: the profile's tool_name
            wrong.append((name, "shown as", seen["name"]))
            continue
        said = set()
        for e in effects["inputSchema"]:
            if e.subject == "type-array" and e.rule.action == "rewrite":
                at = _ptr(e.pointer[:-1])
                said |= {("changed", at, "type"), ("added", at, "nullable")}
        # gemini-cli's own parameter on every tool (the profile's note)
        added = {("added", "/properties", "wait_for_previous")} if "properties" in tool["inputSchema"] else {("added", "", "properties")}
        did = {tuple(d) for d in seen["diff"]}
        rewritten += bool(said)
        if did != said | added:
            wrong.append((name, sorted(did ^ (said | added))))
    if not (failed >= 8 and rewritten > 100):  # 209 schemas with a [T, null] type
        wrong.append(("fewer failed or rewritten than the record has", failed, rewritten))
    return wrong


@pytest.mark.slow
def test_discovery_fails_exactly_where_the_profile_says_and_changes_only_what_it_names():
    wrong = profile_disagreements(record())
    assert not wrong, wrong[:10]


def test_the_record_is_of_the_version_the_profile_names():
    pins = json.loads((JS / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert record()["package"] == "@google/gemini-cli-core" and record()["version"] == pins["@google/gemini-cli-core"]
    assert f"gemini-cli-core/v/{record()['version']}" in load_profile("gemini-cli").constructs["root-not-object"].source.url


@pytest.mark.slow
@pytest.mark.real_package
@pytest.mark.skipif(not (os.environ.get("MCPLINT_GEMINI_CLI") and shutil.which("node")),
                    reason="MCPLINT_GEMINI_CLI (truthlab/js-gemini-cli/node_modules after npm ci; about 380 MB) not set")
def test_the_installed_package_does_what_the_record_says(tmp_path):
    """The record's cases and corpus made again by the installed package (one harness run, about 20 s):
    held to the profile exactly as the record is, and then the same as the record."""
    modules = Path(os.environ["MCPLINT_GEMINI_CLI"]).resolve()
    installed = json.loads((modules / "@google" / "gemini-cli-core" / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == record()["version"], "another version of @google/gemini-cli-core is installed"
    script = JS / "harness.mjs"
    if modules.parent != JS.resolve():
        # an ES module resolves its imports from its own folder up, and the harness imports ../js/serve.mjs:
        # the two folders side by side, with the packages linked beside the harness
        (tmp_path / "js").mkdir()
        (tmp_path / "js" / "serve.mjs").write_bytes((JS.parent / "js" / "serve.mjs").read_bytes())
        (tmp_path / "gemini").mkdir()
        script = tmp_path / "gemini" / "harness.mjs"
        script.write_bytes((JS / "harness.mjs").read_bytes())
        (tmp_path / "gemini" / "node_modules").symlink_to(modules, target_is_directory=True)
    spec = importlib.util.spec_from_file_location("gemini_cli_record", HERE / "record.py")
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    again = rec.observe(script)
    wrong = profile_disagreements(again)
    assert not wrong, wrong[:10]
    drift = records.drift(record(), again)
    assert not drift, f"the installed package differs from the record (run tests/data/gemini-cli/record.py): {drift[:12]}"
