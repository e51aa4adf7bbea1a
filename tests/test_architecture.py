"""The shape of the package: no import cycle (function-level imports count), ``model.py``
imports nothing of mcplint's, and no module is over about 600 lines."""

from __future__ import annotations

import pytest

import ast
from pathlib import Path


PACKAGE = Path(__file__).resolve().parent.parent / "mcplint"
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The mcplint module ``name`` is, or is inside (``a.b.c`` where ``a.b`` is a module and
    ``c`` a name in it); None outside mcplint."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _imported_from(package: str, node: ast.ImportFrom) -> str:
    """The absolute module name a ``from ... import`` statement in ``package`` reads from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, source: str | None = None) -> set[str]:
    """Every mcplint module ``module`` imports, at any depth of its code (``source``: its text
    instead of the file's)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    if source is None:
        source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = _imported_from(package, node)
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one, else a name of pkg
            targets = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in MODULES else prefix for a in node.names]
        else:
            continue
        for target in targets:
            hit = _resolve(target)
            if hit is not None and hit != module:
                found.add(hit)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_are_read_at_every_depth():
    # model.py once imported sourcemap and load inside methods; the reader must see such imports
    assert {"mcplint.model", "mcplint.sourcemap"} <= GRAPH["mcplint.load"]
    nested = ("class D:\n    def f(self):\n        from .sourcemap import parse_json\n"
              "        import mcplint.errors, json\n        from .jstruct import dialects\n"
              "        from ..mcplint import load\n")
    assert imports_of("mcplint.model", nested) == {"mcplint.sourcemap", "mcplint.errors",
                                                   "mcplint.jstruct.dialects", "mcplint.load"}
    # relative to a package's __init__: ``.`` is the package itself
    assert imports_of("mcplint.jstruct", "from .dialects import is_jstruct\nfrom . import fallback\n") == {
        "mcplint.jstruct.dialects", "mcplint.jstruct.fallback"}


def test_no_import_cycle():
    cycle = _find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_model_imports_nothing_of_mcplint():
    assert GRAPH["mcplint.model"] == set()


def test_no_module_over_600_lines():
    over = {m: n for m, p in MODULES.items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not over, f"modules over {MAX_LINES} lines: {over}"


TESTS = Path(__file__).resolve().parent


def _test_module_imports(path: Path) -> list[str]:
    """The test modules ``path`` imports (``test_x``, ``tests.test_x``, ``.test_x``, ``pkg.test_x``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [a.name for a in node.names if (node.module or "") == ""]
        found += [n for n in names if n.rsplit(".", 1)[-1].startswith("test_")]
    return found


def test_no_test_module_imports_another():
    """Tests share what they need through a folder's conftest.py (fixtures) or common.py
    (constants and helpers), never by importing another test module: a test file can then be
    moved, renamed or run alone. Tests mirror the source: a subpackage's tests live in the
    folder of its name (tests/probe/, tests/pysource/, tests/report/, tests/cli/, ...)."""
    offenders = {str(p.relative_to(TESTS)): found for p in sorted(TESTS.rglob("*.py"))
                 if "data" not in p.relative_to(TESTS).parts and (found := _test_module_imports(p))}
    assert not offenders, offenders


def test_the_import_check_sees_an_import_of_a_test_module(tmp_path):
    bad = tmp_path / "test_bad.py"
    bad.write_text("from test_probe import STDIO\nimport tests.test_cli\nfrom . import test_x\n")
    assert _test_module_imports(bad) == ["test_probe", "tests.test_cli", "test_x"]


def _private_reads(path: Path) -> list[str]:
    """``obj._name`` in ``path`` where ``obj`` is not ``self`` or ``cls``: another object's privates."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_the_probe_reads_no_private_member_of_another_object():
    reads = [hit for m, p in MODULES.items() if m.startswith("mcplint.probe.") for hit in _private_reads(p)]
    assert not reads, reads


def test_every_transport_offers_the_connection_interface():
    import inspect

    from mcplint.probe import stdio
    from mcplint.probe.connection import Connection, RequestTimeout
    from mcplint.probe.http import HttpConnection
    from mcplint.probe.sse import SseConnection

    methods = [n for n, v in vars(Connection).items() if callable(v) and not n.startswith("_")]
    assert {"request", "notify", "close", "kill", "stderr_tail", "new_id"} <= set(methods)
    for cls in (stdio.StdioConnection, HttpConnection, SseConnection):
        for name in methods:
            assert callable(getattr(cls, name, None)), (cls.__name__, name)
            ours, theirs = inspect.signature(getattr(Connection, name)), inspect.signature(getattr(cls, name))
            assert list(ours.parameters)[:len(theirs.parameters)] == list(theirs.parameters)[:len(ours.parameters)], \
                (cls.__name__, name)
        init = inspect.getsource(cls.__init__)
        for attr in Connection.__annotations__:
            assert hasattr(cls, attr) or f"self.{attr} " in init or f"self.{attr}:" in init, (cls.__name__, attr)
    assert stdio.RequestTimeout is RequestTimeout  # one timeout, whichever transport raises it


def _reach(module: str) -> set[str]:
    """Every mcplint module ``module`` imports, directly or through others."""
    seen, todo = set(), [module]
    while todo:
        for nxt in GRAPH[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _in(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


def test_the_pipeline_stages_stay_in_their_layers():
    """Reading files (collect, capture) needs no live client; the orchestration and the probe
    meet only in front ends."""
    assert not _in(_reach("mcplint.collect"), "mcplint.probe"), _in(_reach("mcplint.collect"), "mcplint.probe")
    assert not _in(_reach("mcplint.capture"), "mcplint.probe"), _in(_reach("mcplint.capture"), "mcplint.probe")
    # (the reader sees a layer crossed: a sketch of the old collect)
    assert _in(imports_of("mcplint.collect", "def f():\n    from .probe.clients import describe\n"), "mcplint.probe")


def test_the_probe_captures_and_the_engine_lints():
    """The probe hands over a capture; it neither reaches the engine nor builds a result, and the
    engine reaches no front end (the command line, the Action, the hooks, the orchestrator)."""
    probe = {m for m in MODULES if m == "mcplint.probe" or m.startswith("mcplint.probe.")}
    for m in probe:
        assert not _in(_reach(m), "mcplint.engine"), (m, "reaches the engine")
    front = ("mcplint.cli", "mcplint.action", "mcplint.precommit", "mcplint.pipeline", "mcplint.lsp")
    assert not [f for f in front if _in(_reach("mcplint.engine"), f)], [f for f in front if _in(_reach("mcplint.engine"), f)]


def private_imports(module: str, source: str | None = None) -> list[str]:
    """``module``'s uses of another mcplint module's private names (``_x``, not ``__x__``), as
    ``"owner._x"``: imported by name (``from .tree import _copy``) or read off an imported module
    (``from . import engine`` then ``engine._merged``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"), str(path))
    found, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            prefix = _imported_from(package, node)
            for a in node.names:
                full = f"{prefix}.{a.name}"
                if full in MODULES:
                    aliases[a.asname or a.name] = full
                elif _private(a.name) and _resolve(prefix) not in (None, module):
                    found.append(f"{_resolve(prefix)}.{a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in MODULES:
                    aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr)
                and aliases.get(node.value.id, module) != module):
            found.append(f"{aliases[node.value.id]}.{node.attr}")
    return sorted(set(found))


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# Private names shared across modules: none. What two modules share has a public name and a
# docstring in the module it belongs to; none may be added here.
PRIVATE_IMPORTS_LEFT: dict[str, list[str]] = {}


@pytest.mark.slow
def test_no_module_imports_a_private_name_of_another():
    """A name that starts with an underscore is its module's own. What two modules share is public:
    a proper name and a docstring, in the module it belongs to. (Tests may use the private names
    of the module they test; this holds the package itself.)"""
    found = {m: new for m in MODULES if (new := set(private_imports(m)) - set(PRIVATE_IMPORTS_LEFT.get(m, ())))}
    assert not found, f"private names imported from another module: {found}"


def test_the_private_import_check_sees_both_forms():
    source = ("from .tree import _copy, strip\nfrom . import tree as t\nfrom ..report import json\n"
              "x = t._at(1) + json._pretty + t.__name__\nfrom .tree import __all__\n")
    assert private_imports("mcplint.project.refs", source) == [
        "mcplint.project.tree._at", "mcplint.project.tree._copy", "mcplint.report.json._pretty"]


def test_the_engine_loads_files_through_their_source_kinds():
    """The engine (and its last stage, finish) knows no source kind by name: it loads a Python
    server, as any file, through :mod:`mcplint.sources`, which also says a fix in the terms of what
    generated the schema."""
    assert "mcplint.sources" in GRAPH["mcplint.engine"] and "mcplint.sources" in GRAPH["mcplint.finish"]
    assert not _in(GRAPH["mcplint.engine"] | GRAPH["mcplint.finish"], "mcplint.pysource")
    assert "mcplint.capture" not in GRAPH["mcplint.finish"]


MAX_FUNCTION_LINES = 80


def long_functions(source: str, path: str = "<source>") -> dict[str, int]:
    """Each function of ``source`` over :data:`MAX_FUNCTION_LINES` lines of code, by qualified
    name, with its length. The docstring does not count: a rule's docstring is its documentation
    (``mcplint rule ID``), and long documentation is no fault."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    body = child.body
                    documented = (len(body) > 1 and isinstance(body[0], ast.Expr)
                                  and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str))
                    lines = child.end_lineno - body[1 if documented else 0].lineno + 1
                    if lines > MAX_FUNCTION_LINES:
                        found[name] = lines
                visit(child, name + ".")

    visit(ast.parse(source, path), "")
    return found


# Functions allowed over the bound: none. Split a long function along its seams; none may be added.
LONG_FUNCTIONS_LEFT: dict[str, set[str]] = {}


def test_no_function_over_80_lines():
    """Split a long function along its natural seams into named helpers (see mcplint/diff.py's
    ``_Differ.node`` or mcplint/yamlmap.py's ``_parse_yaml``)."""
    over = {}
    for module, path in MODULES.items():
        left = LONG_FUNCTIONS_LEFT.get(module, {})
        found = long_functions(path.read_text(encoding="utf-8"), str(path))
        if new := {f: n for f, n in found.items() if f not in left}:
            over[module] = new
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines of code: {over}"


def test_the_length_check_counts_code_not_the_docstring():
    code = [f"x{i} = {i}" for i in range(MAX_FUNCTION_LINES)]
    doc = ['"""Doc.', *["more"] * 30, '"""']
    source = "\n".join(["def short():", *("    " + line for line in doc + code),
                         "class C:", "    def long(self):", *("        " + line for line in code + ["y = 1"])]) + "\n"
    assert long_functions(source) == {"C.long": MAX_FUNCTION_LINES + 1}
