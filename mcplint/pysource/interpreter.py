"""Which interpreter imports a Python server file when the user names none.

A server is imported by the interpreter it runs under: the one with its SDK and dependencies.
mcplint itself is often installed elsewhere (pipx, ``uvx``, a venv of its own), so without
``--python``, ``$MCPLINT_SERVER_PYTHON`` or the configuration's ``python``, the candidates are,
in this order:

1. the active virtual environment's interpreter (``$VIRTUAL_ENV``);
2. a ``.venv`` in the file's directory or one of its parents up to its project root (the nearest
   directory with a ``pyproject.toml`` or ``.git``; without one, beside the file only);
3. ``python3``, then ``python``, on ``PATH``;
4. the interpreter running mcplint.

The first of 1-3 that can import the MCP SDK the file imports (``mcp``, ``fastmcp``; either, for
a file that imports neither itself) is used: an environment activated for another project, or
a system ``python3`` without the SDK, is passed over rather than failing the import. Whether it
can is asked with ``importlib.util.find_spec``, which imports nothing, once per interpreter and
run. When none can, mcplint's own is used (as before), and a failure to import names what was
looked at. A chosen interpreter is never replaced by another on failure: the choice does not
depend on what the server does when imported.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

SDKS = ("mcp", "fastmcp")
PROBE = ("import importlib.util, sys\n"
         "names = sys.argv[2:]\n"
         "found = [n for n in names if importlib.util.find_spec(n) is not None]\n"
         "sys.exit(0 if (found == names if sys.argv[1] == 'all' else found) else 1)\n")
PROBE_TIMEOUT = 20.0
_HAS: dict = {}  # (python, mode, names) -> whether it can import them; per process

# how each choice is named (the JSON report's `chosen_by`)
NAMED = "named"  # --python, $MCPLINT_SERVER_PYTHON or the configuration's `python`
ACTIVE, PROJECT, PATH, OWN = "VIRTUAL_ENV", ".venv", "PATH", "mcplint"


@dataclass(frozen=True)
class Choice:
    python: str
    chosen_by: str
    why: str  # in words, for the summary
    looked: tuple = field(default=(), compare=False)  # (candidate in words, path) passed over for lack of the SDK


def shown(text: str) -> str:
    """A path from the environment, printable on a terminal (control characters escaped)."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def venv_python(env: str) -> str | None:
    """The interpreter of the virtual environment at ``env``, if it has one."""
    names = (("Scripts", "python.exe"),) if os.name == "nt" else (("bin", "python"), ("bin", "python3"))
    for parts in names:
        candidate = os.path.join(env, *parts)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def project_root(path: str) -> str | None:
    """The nearest directory holding ``path`` with a ``pyproject.toml`` or ``.git``."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        if any(os.path.exists(os.path.join(directory, marker)) for marker in ("pyproject.toml", ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _project_venvs(path: str) -> list[tuple[str, str]]:
    """(the words for it, its interpreter) of each ``.venv`` from the file's directory up to its
    project root, nearest first."""
    directory = os.path.dirname(os.path.abspath(path))
    root = project_root(path) or directory
    found = []
    while True:
        python = venv_python(os.path.join(directory, ".venv"))
        if python:
            where = "beside the file" if directory == os.path.dirname(os.path.abspath(path)) else \
                f"of the project at {shown(directory)}"
            found.append((f"the .venv {where}", python))
        if directory == root or os.path.dirname(directory) == directory:
            return found
        directory = os.path.dirname(directory)


def sdk_imports(path: str) -> tuple[str, tuple]:
    """("all", the SDK packages the file imports), or ("any", every SDK) when it imports none
    itself (its server comes from a module of its own)."""
    from .literals import parse_file

    tree = parse_file(path)
    names: set = set()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    wanted = tuple(n for n in SDKS if n in names)
    return ("all", wanted) if wanted else ("any", SDKS)


def can_import(python: str, mode: str, names: tuple) -> bool:
    key = (python, mode, names)
    if key not in _HAS:
        try:
            run = subprocess.run([python, "-c", PROBE, mode, *names], stdin=subprocess.DEVNULL,
                                 capture_output=True, timeout=PROBE_TIMEOUT)
            _HAS[key] = run.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _HAS[key] = False
    return _HAS[key]


def _own_has(mode: str, names: tuple) -> bool:
    import importlib.util

    found = [n for n in names if importlib.util.find_spec(n) is not None]
    return found == list(names) if mode == "all" else bool(found)


def candidates(path: str) -> list[tuple[str, str, str]]:
    """(chosen_by, words, interpreter) of each candidate before mcplint's own, in order, each once."""
    out = []
    env = os.environ.get("VIRTUAL_ENV")
    if env:
        python = venv_python(env)
        if python:
            out.append((ACTIVE, "the active virtual environment, $VIRTUAL_ENV", python))
    out += [(PROJECT, words, python) for words, python in _project_venvs(path)]
    for name in ("python3", "python"):
        python = shutil.which(name)
        if python:
            out.append((PATH, f"{name} on PATH", python))
    seen: set = set()
    unique = []
    for c in out:
        key = os.path.normcase(os.path.abspath(c[2]))  # (not the real path: a venv's python links to its base's)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def choose(path: str, named: str | None = None) -> Choice:
    """The interpreter that imports the server file ``path``: ``named`` (or
    ``$MCPLINT_SERVER_PYTHON``) as given, else the first candidate that has the SDK."""
    named = named or os.environ.get("MCPLINT_SERVER_PYTHON")
    if named:
        return Choice(named, NAMED, "as named")
    mode, names = sdk_imports(path)
    own = os.path.normcase(os.path.abspath(sys.executable))
    looked = []
    for chosen_by, words, python in candidates(path):
        mine = os.path.normcase(os.path.abspath(python)) == own  # (asked in this process)
        if _own_has(mode, names) if mine else can_import(python, mode, names):
            return Choice(python, chosen_by, words, tuple(looked))
        if not mine:  # (mcplint's own is named as such when nothing else has the SDK)
            looked.append((words, python))
    return Choice(sys.executable, OWN, "mcplint's own interpreter", tuple(looked))


def passed_over(choice: Choice) -> str:
    """For an error about a missing SDK: the candidates passed over, and why."""
    if choice.chosen_by == NAMED:
        return ""
    if not choice.looked:
        return (" (no active virtual environment, .venv beside the file or in its project, or python on PATH "
                "was found)") if choice.chosen_by == OWN else ""
    return " (passed over for lacking it too: " + "; ".join(
        f"{words}: {shown(python)}" for words, python in choice.looked) + ")"
