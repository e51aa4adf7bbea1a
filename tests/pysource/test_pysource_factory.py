"""``--factory NAME`` (or the configuration's ``factory``): in a Python server file with no server
object at module level, NAME() is called, as ``FILE:NAME`` does for one file, so a tree of servers
each built by a factory of one name (the official SDK's ``examples/stories``) is scanned in one run.
A module-level server is used as before and the factory is never called; a file that lacks NAME
gets the usual error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.config import Config, load_config
from mcplint.engine import lint_paths
from mcplint.errors import ConfigError

HERE = Path(__file__).parent.parent
SERVERS = HERE / "pyservers"

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")

BUILT = '''from mcp.server.mcpserver import MCPServer


def build_server() -> MCPServer:
    mcp = MCPServer("built")

    @mcp.tool()
    def echo(text: str) -> str:
        """Echo."""
        return text

    return mcp
'''


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)
    monkeypatch.delenv("MCPLINT_SERVER_PYTHON", raising=False)


def _rows(result):
    return [(f.rule, f.source.file, f.source.line, f.source.column) for f in result.findings]


@pytest.mark.slow
def test_the_factory_is_called_in_each_file_that_has_no_server_at_module_level(tmp_path):
    one, two = tmp_path / "one_server.py", tmp_path / "two_server.py"
    one.write_text(BUILT)
    two.write_text(BUILT.replace('"built"', '"two"'))
    strict = Config(profiles=("openai-strict",))
    named = lint_paths([f"{one}:build_server", f"{two}:build_server"], strict)
    assert named.errors == [] and named.tools == 2 and named.findings
    by_flag = lint_paths([str(one), str(two)], Config(profiles=("openai-strict",), factory="build_server"))
    assert by_flag.errors == [] and _rows(by_flag) == _rows(named)
    without = lint_paths([str(one)], strict)
    (err,) = without.errors
    assert "build_server() looks like a factory" in err.message
    # (the arguments object the SDK writes is a warning under a strict profile: nothing in the author's code makes it)
    res = CliRunner().invoke(main, ["scan", str(one), str(two), "--factory", "build_server", "--profile",
                                    "openai-strict", "--fail-on", "warning", "--format", "json"],
                             catch_exceptions=False)
    assert res.exit_code == 1 and "input error" not in res.stderr


@pytest.mark.slow
def test_a_module_level_server_is_used_and_the_factory_never_called(tmp_path):
    path = tmp_path / "both_server.py"
    path.write_text("from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer('here')\n\n\n@mcp.tool()\n"
                    "def add(a: int, b: int) -> int:\n    return a + b\n\n\n"
                    "def build_server() -> MCPServer:\n    raise SystemExit('the factory was called')\n")
    result = lint_paths([str(path)], Config(factory="build_server"))
    assert result.errors == [] and result.tools == 1


@pytest.mark.slow
def test_a_factory_that_fails_or_is_missing_is_a_located_error(tmp_path):
    path = tmp_path / "fails_server.py"
    path.write_text("from mcp.server.mcpserver import MCPServer\n\n\ndef build_server() -> MCPServer:\n"
                    "    raise RuntimeError('no config')\n")
    (err,) = lint_paths([str(path)], Config(factory="build_server")).errors
    assert err.message.startswith("the server raised RuntimeError while calling the factory build_server() or "
                                  "listing its tools"), err.message
    (err,) = lint_paths([rel := os.path.relpath(SERVERS / "factory.py")], Config(factory="make_it")).errors
    assert "create_server() looks like a factory" in err.message and err.origin == rel


def test_the_configuration_names_the_factory(tmp_path):
    (tmp_path / ".mcplint.yaml").write_text("factory: build_server\n")
    assert load_config(tmp_path / ".mcplint.yaml").factory == "build_server"
    (tmp_path / ".mcplint.yaml").write_text("factory: 'build server'\n")
    with pytest.raises(ConfigError) as e:
        load_config(tmp_path / ".mcplint.yaml")
    assert e.value.line == 1 and "factory" in str(e.value) and "must be the name of a function" in e.value.message
    res = CliRunner().invoke(main, ["scan", "x.py", "--factory", "build-server"])
    assert res.exit_code == 2 and "Invalid value for --factory" in res.output


@pytest.mark.slow
def test_the_action_passes_server_factory(tmp_path, monkeypatch, capsys, run_action):
    import sys

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "one_server.py").write_text(BUILT)
    monkeypatch.chdir(ws)
    assert run_action(paths="one_server.py", profiles="openai-strict", server_python=sys.executable,
                      server_factory="build_server", fail_on="warning") == 1
    out = capsys.readouterr().out
    # (a warning: the arguments object is the SDK's, see test_the_factory_is_called_in_each_file_...)
    assert "::warning file=one_server.py,line=8,col=5,title=DEC001" in out, out
    assert run_action(server_factory="build server") == 2
    assert "input server-factory: config error: 'build server' is not the name of a function" in capsys.readouterr().out
