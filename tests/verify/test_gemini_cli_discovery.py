"""The gemini-cli profile held to what @google/gemini-cli-core's own MCP discovery does, as recorded by
running its discoverTools under node on every tool of the bench servers, the test corpus and the
examples (tests/data/gemini-cli: the record and the script that makes it; truthlab/js-gemini-cli: the
pinned package and the harness; offline here). A disagreement fails: a tool whose discovery failed
must be one the profile says fails the listing, and the other way round; every change to a listed
tool's schema must be one the profile names, besides the wait_for_previous parameter gemini-cli adds
to every tool (its note). With MCPLINT_GEMINI_CLI (a node_modules with the package) the harness runs
again and must reproduce the record's cases."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

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


def observations():
    corpus = corpus_tools()
    assert set(record()["corpus"]) == set(corpus), "the corpus changed since the record: run tests/data/gemini-cli/record.py"
    for case in record()["cases"]:
        if "error" in case:
            yield case["name"], case["tool"], {"error": case["error"]}
        else:
            yield case["name"], case["tool"], {"diff": records.diff(case["tool"]["inputSchema"], case["sent"]["parametersJsonSchema"]),
                                               "name": case["sent"]["name"]}
    for d, tool in corpus.items():
        yield d, tool, record()["corpus"][d]


def _ptr(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@pytest.mark.slow
def test_discovery_fails_exactly_where_the_profile_says_and_changes_only_what_it_names():
    profile = load_profile("gemini-cli")
    wrong, failed, rewritten = [], 0, 0
    for name, tool, seen in observations():
        effects = {s: evaluate_slot(profile, tool[s], slot=s) for s in ("inputSchema", "outputSchema") if s in tool}
        fails = any(e.subject == "root-not-object" and e.rule.action == "reject" for es in effects.values() for e in es)
        if ("error" in seen) != fails:
            wrong.append((name, seen.get("error", "listed")))
            continue
        if "error" in seen:
            failed += 1
            assert seen["error"].startswith("Error discovering tools from srv"), name
            continue
        assert seen["name"] == "mcp_srv_t", name  # mcp_<server>_<tool>: the profile's tool_name
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
    assert not wrong, wrong[:10]
    assert failed >= 8 and rewritten > 100  # 209 schemas with a [T, null] type


def test_the_record_is_of_the_version_the_profile_names():
    pins = json.loads((JS / "package.json").read_text(encoding="utf-8"))["dependencies"]
    assert record()["package"] == "@google/gemini-cli-core" and record()["version"] == pins["@google/gemini-cli-core"]
    assert f"gemini-cli-core/v/{record()['version']}" in load_profile("gemini-cli").constructs["root-not-object"].source.url


@pytest.mark.skipif(not (os.environ.get("MCPLINT_GEMINI_CLI") and shutil.which("node")),
                    reason="MCPLINT_GEMINI_CLI (truthlab/js-gemini-cli/node_modules after npm ci; about 380 MB) not set")
def test_the_record_is_what_the_installed_package_does(tmp_path):
    modules = Path(os.environ["MCPLINT_GEMINI_CLI"]).resolve()
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
    cases = record()["cases"]
    tools = [{"name": "t", "description": "d", **c["tool"]} for c in cases]
    run = subprocess.run(["node", str(script)], input=json.dumps(tools), capture_output=True, text=True, check=True,
                         cwd=script.parent, timeout=300)
    assert [{k: v for k, v in c.items() if k not in ("name", "tool")} for c in cases] == json.loads(run.stdout)
