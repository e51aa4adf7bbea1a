"""The warm interpreter (``mcplint/pysource/warm.py``): every Python file listed in a fork of one
interpreter that imported the SDK once. What a run reports must be what a fresh interpreter per
file reports (``MCPLINT_PYTHON_FORK=0``), file by file, error by error; what one module does to
the SDK must not reach the next; and a file that a preloaded module would shadow runs the plain way."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.pysource import warm

HERE = Path(__file__).parent.parent
SERVERS = HERE / "pyservers"

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server runs on Linux only")


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(HERE.parent)


def _report(paths, monkeypatch, fork: bool, timeout: float = 120) -> list:
    # a generous import timeout, so that a busy machine cannot make one run differ from the other;
    # the module that hangs is compared on its own, with a short one
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "1" if fork else "0")
    result = lint_paths(paths, Config(profiles=("openai-strict", "gemini"), import_timeout=timeout), jobs=1)
    return [(f.rule, str(f.pointer), f.profile, f.message, f.source, f.fix and f.fix.title) for f in result.findings] + \
        [(type(e).__name__, str(e)) for e in result.errors] + list(result.notes)


@pytest.mark.slow
def test_the_fork_server_reports_what_a_fresh_interpreter_per_file_does(monkeypatch):
    files = sorted(os.path.relpath(p) for p in SERVERS.glob("*.py") if p.name != "hangs.py")
    assert len(files) > 20
    plain = _report(files, monkeypatch, fork=False)
    forked = _report(files, monkeypatch, fork=True)
    assert forked == plain
    # the run had errors of every kind to compare: a module that raises, modules skipped, and (alone) one that hangs
    said = "\n".join(str(x) for x in plain)
    assert "raised KeyError on import" in said
    hangs = [os.path.relpath(SERVERS / "hangs.py")]
    # the line is where the module was when its time ran out: in the plain run that can still be the SDK's import
    unplaced = lambda report: [re.sub(r"hangs\.py:\d+:\d+", "hangs.py", str(x)) for x in report]  # noqa: E731
    hung = unplaced(_report(hangs, monkeypatch, fork=True, timeout=2))
    assert hung == unplaced(_report(hangs, monkeypatch, fork=False, timeout=2))
    assert "did not finish within 2 s" in str(hung)
    assert "skipped 7 Python modules with no MCP tools to check" in said
    # alone, a module without the SDK is an error of its own (the SDK is in a fork's modules already)
    alone = [os.path.relpath(SERVERS / "no_mcp.py"), os.path.relpath(SERVERS / "uses_types.py")]
    assert _report(alone, monkeypatch, fork=True) == _report(alone, monkeypatch, fork=False)
    assert "imports no MCP SDK" in str(_report(alone[:1], monkeypatch, fork=True))
    assert "imports no MCP SDK" not in str(_report(alone[1:], monkeypatch, fork=True))  # it imports mcp.types


@pytest.mark.slow
def test_what_one_module_does_to_the_sdk_does_not_reach_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "1")
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text("import mcp.types\nfrom mcp.server.mcpserver import MCPServer\n\nmcp.types.LEAKED = True\n"
                     "server = MCPServer('a')\n\n\n@server.tool()\ndef one() -> str:\n    return ''\n")
    second.write_text("import mcp.types\nfrom mcp.server.mcpserver import MCPServer\n\nserver = MCPServer('b')\n\n\n"
                      "@server.tool(description=str(getattr(mcp.types, 'LEAKED', 'clean')))\ndef two() -> str:\n"
                      "    return ''\n")
    result = lint_paths([str(first), str(second)], Config(), jobs=1)
    assert not result.errors, [str(e) for e in result.errors]
    assert result.documents[1].data[0]["description"] == "clean"


def test_a_module_that_shadows_a_preloaded_one_runs_the_plain_way(tmp_path, monkeypatch):
    monkeypatch.delenv("MCPLINT_PYTHON_FORK", raising=False)
    server = tmp_path / "server.py"
    server.write_text("import pydantic\n")
    assert warm.usable(str(server))
    (tmp_path / "pydantic.py").write_text("VERSION = 'mine'\n")
    assert not warm.usable(str(server))
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text("")
    assert not warm.usable(str(pkg / "server.py"))  # the package's root goes on sys.path
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "0")
    (tmp_path / "pydantic.py").unlink()
    assert not warm.usable(str(server))


@pytest.mark.slow
def test_an_interpreter_that_cannot_serve_falls_back_to_the_plain_way(tmp_path, monkeypatch):
    """An interpreter whose fork server says it cannot serve (here: a site hook that starts a thread)
    lists the file the plain way, with the same result."""
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "1")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text("import threading, time\n"
                                            "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n")
    monkeypatch.setenv("PYTHONPATH", str(hooks))
    server = os.path.relpath(SERVERS / "lowlevel_server.py")
    result = lint_paths([server], Config(profiles=("gemini",)), jobs=1)
    assert not result.errors, [str(e) for e in result.errors]
    assert sorted(f.rule for f in result.findings) == ["DEC002", "DSC002"]  # (`message` has no description)
    assert warm._SERVERS[(sys.executable, tuple(sorted(os.environ.items())))] is None


@pytest.mark.slow
def test_at_most_two_fork_servers_run_at_once(monkeypatch):
    server = os.path.relpath(SERVERS / "lowlevel_server.py")
    for i in range(4):  # each environment its own fork server (the SDK may read it on import)
        monkeypatch.setenv("MCPLINT_BENCH_MARK", str(i))
        assert not lint_paths([server], Config(), jobs=1).errors
    running = [s for s in warm._SERVERS.values() if s is not None]
    assert len(running) == 2 and all(s.proc.poll() is None for s in running)
