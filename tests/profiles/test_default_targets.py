"""`--profile default` judges a server on the paths its tools really travel: the MCP clients people
run, each as it sends tools. The official Python SDK's quickstart passes it; `--profile strict` (the
providers' strict modes) still finds what a strict request refuses, but what only a client can
avoid (the arguments object the SDK writes) is a warning there, while what the author's own code
writes (a model class left open) stays an error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main

HERE = Path(__file__).parent.parent
SERVERS = HERE / "pyservers"

def _has_sdk() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("mcp.server.mcpserver") is not None
    except ModuleNotFoundError:
        return False


needs_sdk = pytest.mark.skipif(not _has_sdk(), reason="the official MCP SDK (pip install -e '.[pysource-test]')")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)
    monkeypatch.delenv("MCPLINT_SERVER_PYTHON", raising=False)


def _scan(path: Path, *args):
    r = CliRunner().invoke(main, ["scan", "--no-config", os.path.relpath(path, HERE.parent), *args, "--format", "json"],
                           catch_exceptions=False)
    return r.exit_code, json.loads(r.stdout)


@needs_sdk
def test_the_sdk_quickstart_passes_the_default_and_is_warned_under_strict():
    code, report = _scan(SERVERS / "quickstart.py", "--profile", "default")
    assert code == 0 and report["findings"] == [] and report["summary"]["tools"] == 1
    code, report = _scan(SERVERS / "quickstart.py", "--profile", "strict")
    rejected = [f for f in report["findings"] if f["rule"] == "DEC001"]
    assert {f["profile"] for f in rejected} == {"openai-strict", "anthropic-strict"}
    assert code == 0 and {f["severity"] for f in report["findings"]} == {"warning"}
    for f in rejected:
        assert "rejects this request: every object must set additionalProperties: false" in f["message"]
        assert "Only a client or application that sends this tool to this target as it is (strict, unconverted) " \
               "meets this" in f["message"]
        assert f["fix"]["title"].startswith("The SDK writes this arguments object itself")


@pytest.mark.slow
@needs_sdk
def test_an_open_model_class_of_the_authors_stays_an_error_under_strict():
    """Near miss: a pydantic model the author wrote can be closed in the code (extra="forbid")."""
    code, report = _scan(SERVERS / "app" / "server.py", "--profile", "openai-strict", "--select", "DEC001")
    by_place = {(f["pointer"], f["tool"]): f["severity"] for f in report["findings"]}
    assert code == 1 and by_place[("/0/inputSchema/$defs/Customer", "find_orders")] == "error"
    assert by_place[("/0/inputSchema", "find_orders")] == "warning"  # the arguments object the SDK writes


QUICKSTART_LIST = {"tools": [{"name": "add", "description": "Add two numbers", "inputSchema": {
    "properties": {"a": {"title": "A", "type": "integer"}, "b": {"title": "B", "type": "integer"}},
    "required": ["a", "b"], "title": "addArguments", "type": "object"}}]}


def test_a_captured_python_sdk_list_gets_the_same_warning(tmp_path):
    """The quickstart's tools/list as the SDK serves it (a capture, a saved result): the arguments
    object is the SDK's there too. Near miss: the same schema without the SDK's `<function>Arguments`
    title is anyone's hand-written schema, and strict's error stands."""
    path = tmp_path / "quick.tools.json"
    path.write_text(json.dumps(QUICKSTART_LIST))
    code, report = _scan(path, "--profile", "strict", "--select", "DEC")
    assert code == 0 and [(f["rule"], f["severity"]) for f in report["findings"]] == [("DEC001", "warning")] * 2
    assert all(f["fix"]["title"].startswith("The SDK writes this arguments object itself") for f in report["findings"])
    del QUICKSTART_LIST["tools"][0]["inputSchema"]["title"]
    try:
        path.write_text(json.dumps(QUICKSTART_LIST))
    finally:
        QUICKSTART_LIST["tools"][0]["inputSchema"]["title"] = "addArguments"
    code, report = _scan(path, "--profile", "strict", "--select", "DEC")
    assert code == 1 and [(f["rule"], f["severity"]) for f in report["findings"]] == [("DEC001", "error")] * 2
