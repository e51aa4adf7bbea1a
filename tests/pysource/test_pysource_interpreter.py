"""`mcplint scan server.py` without --python: the server's own interpreter, found as
mcplint.pysource.interpreter says ($VIRTUAL_ENV, a .venv beside the file or in its project root,
python3/python on PATH, each only when it has the MCP SDK the file imports; else mcplint's own),
and the report says which one it used.

No second environment is built: each "interpreter" is a small shell script that records its
arguments in a log and runs the interpreter running the tests (``-S`` makes one without the
SDK: no site-packages)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from mcplint.cli import main
from mcplint.pysource import interpreter, warm
from mcplint.report import interpreter_sentence

pytest.importorskip("mcp.server.mcpserver", reason="the official MCP SDK (pip install -e '.[pysource-test]')")
if os.name == "nt":
    pytest.skip("the stand-in interpreters are shell scripts", allow_module_level=True)

SERVER = '''from mcp.server.mcpserver import MCPServer

app = MCPServer("Demo")


@app.tool()
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b
'''


def fake_python(where: Path, log: Path, sdk: bool = True, name: str = "python") -> Path:
    """An executable ``where/name`` that logs each run to ``log`` and runs this interpreter
    (without site-packages, so without the SDK, when not ``sdk``)."""
    where.mkdir(parents=True, exist_ok=True)
    script = where / name
    script.write_text(f'#!/bin/sh\ncase "$*" in *find_spec*) echo check ;; *) echo import ;; esac >> "{log}"\n'
                      f'exec "{sys.executable}"{"" if sdk else " -S"} "$@"\n')
    script.chmod(0o755)
    return script


def venv(root: Path, log: Path, sdk: bool = True) -> Path:
    """A directory laid out as a virtual environment (``bin/python``); the interpreter's path."""
    return fake_python(root / "bin", log, sdk)


def imports(log: Path) -> int:
    """How many times the logged interpreter ran mcplint's helper program (an import of a
    server, through the warm fork server or not), not counting the SDK check."""
    return log.read_text().split().count("import") if log.exists() else 0


def checks(log: Path) -> int:
    return log.read_text().split().count("check") if log.exists() else 0


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project (pyproject.toml) with the server in src/; no $VIRTUAL_ENV, an empty PATH (no
    python3 of the machine's), the working directory the project's."""
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "src" / "server.py").write_text(SERVER)
    monkeypatch.chdir(root)
    for name in ("VIRTUAL_ENV", "MCPLINT_SERVER_PYTHON"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    monkeypatch.setattr(interpreter, "_HAS", {})
    # each stand-in imports one server: the plain way (a fork server would first import every SDK it has)
    monkeypatch.setenv("MCPLINT_PYTHON_FORK", "0")
    return root


def scan(*args):
    return CliRunner().invoke(main, ["scan", "--no-config", *args], catch_exceptions=False)


def summary_line(r) -> str:
    return [line for line in r.stdout.splitlines() if line.startswith(("Found", "No findings"))][-1]


@pytest.mark.slow
def test_active_virtual_environment_imports_the_server(project, tmp_path, monkeypatch):
    log = tmp_path / "active.log"
    env = tmp_path / "e\x1b[31mnv"  # (a path from the environment is printed escaped)
    python = venv(env, log)
    monkeypatch.setenv("VIRTUAL_ENV", str(env))
    monkeypatch.delenv("MCPLINT_PYTHON_FORK")  # here two imports by one interpreter: its warm fork server's
    r = scan("src/server.py")
    assert r.exit_code == 0, r.output
    assert imports(log) == 1 and checks(log) == 1  # it was asked once whether it has the SDK, then imported it
    shown = str(python).replace("\x1b", "\\x1b")
    assert "\x1b" not in r.stdout
    assert summary_line(r).endswith(f"Imported with {shown} (the active virtual environment, $VIRTUAL_ENV): "
                                    "--python to choose.")
    data = json.loads(scan("--format", "json", "src/server.py").stdout)
    assert data["summary"]["interpreters"] == [{"python": str(python), "chosen_by": "VIRTUAL_ENV",
                                                "why": "the active virtual environment, $VIRTUAL_ENV",
                                                "files": 1}]
    assert checks(log) == 1  # asked once per process
    # started once more, unless its warm fork server (one per interpreter) imported the second time
    assert imports(log) == (1 if warm.usable(str(project / "src" / "server.py")) else 2)


@pytest.mark.slow
def test_project_venv_beside_the_file_then_in_the_project_root(project, tmp_path):
    root_log, near_log = tmp_path / "root.log", tmp_path / "near.log"
    venv(project / ".venv", root_log)
    r = scan("--format", "json", "src/server.py")
    assert r.exit_code == 0, r.output
    (used,) = json.loads(r.stdout)["summary"]["interpreters"]
    assert (used["chosen_by"], used["why"]) == (".venv", f"the .venv of the project at {project}")
    assert imports(root_log) == 1
    venv(project / "src" / ".venv", near_log)  # nearer the file: it comes first
    r = scan("src/server.py")
    assert r.exit_code == 0, r.output
    assert imports(near_log) == 1 and imports(root_log) == 1
    assert "Imported with src/.venv/bin/python (the .venv beside the file)" in summary_line(r)


@pytest.mark.slow
def test_candidates_without_the_sdk_are_passed_over(project, tmp_path, monkeypatch):
    """An environment activated for something else, and a python3 on PATH without the SDK, are
    asked and passed over; the project's .venv, which has it, imports the server."""
    active, on_path, own = tmp_path / "active.log", tmp_path / "path.log", tmp_path / "project.log"
    venv(tmp_path / "other-env", active, sdk=False)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "other-env"))
    fake_python(tmp_path / "bin", on_path, sdk=False, name="python3")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    r = scan("src/server.py")
    assert r.exit_code == 0 and "the .venv" not in r.output  # no .venv yet, and the own interpreter has the SDK
    assert (checks(active), imports(active), checks(on_path), imports(on_path)) == (1, 0, 1, 0)
    assert "Imported with " + sys.executable + " (mcplint's own interpreter)" in summary_line(r)

    venv(project / ".venv", own)
    r = scan("src/server.py")
    assert r.exit_code == 0, r.output
    assert imports(own) == 1 and imports(active) == 0 and imports(on_path) == 0
    assert "(the .venv of the project at" in summary_line(r)


@pytest.mark.slow
def test_a_named_interpreter_is_used_as_given(project, tmp_path, monkeypatch):
    active, named = tmp_path / "active.log", tmp_path / "named.log"
    venv(tmp_path / "env", active)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "env"))
    python = fake_python(tmp_path / "named", named)
    r = scan("--python", str(python), "--format", "json", "src/server.py")
    assert r.exit_code == 0, r.output
    assert (imports(named), checks(named), checks(active), imports(active)) == (1, 0, 0, 0)
    interpreters = json.loads(r.stdout)["summary"]["interpreters"]
    assert [(i["python"], i["chosen_by"]) for i in interpreters] == [(str(python), "named")]
    assert interpreter_sentence(SimpleNamespace(interpreters=interpreters)) == ""  # the user chose it: not repeated


def test_what_was_passed_over_is_named_when_nothing_has_the_sdk(project, tmp_path, monkeypatch):
    venv(tmp_path / "env", tmp_path / "a.log", sdk=False)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "env"))
    monkeypatch.setattr(interpreter, "_own_has", lambda mode, names: False)
    choice = interpreter.choose(str(project / "src" / "server.py"))
    assert (choice.python, choice.chosen_by) == (sys.executable, "mcplint")
    assert interpreter.passed_over(choice) == (
        f" (passed over for lacking it too: the active virtual environment, $VIRTUAL_ENV: {tmp_path}/env/bin/python)")
    monkeypatch.delenv("VIRTUAL_ENV")
    choice = interpreter.choose(str(project / "src" / "server.py"))
    assert "no active virtual environment" in interpreter.passed_over(choice)


def test_the_sdk_asked_for_is_the_one_the_file_imports(tmp_path):
    f = tmp_path / "s.py"
    f.write_text("import fastmcp\nfrom mcp.types import Tool\n")
    assert interpreter.sdk_imports(str(f)) == ("all", ("mcp", "fastmcp"))
    f.write_text("from .app import server\nimport os\n")  # the server comes from the package
    assert interpreter.sdk_imports(str(f)) == ("any", ("mcp", "fastmcp"))
