"""Load a Python MCP server file: the tools its SDK lists, and where each comes from.

``mcplint scan server.py`` does not read JSON: it starts the chosen interpreter (``--python``;
by default the server's own, found as :mod:`.interpreter` says) on the small standard-library helper in ``_child.py``, which
imports the module (never as ``__main__``), finds its server objects, lists their tools
through the SDK's own API and maps each tool, argument and model field to its line. The
result becomes an ordinary tools/list :class:`~mcplint.model.Document` whose
code map (``Document.code``) lets every finding carry the Python line as ``source``.

Anything that goes wrong (no such interpreter, an import that raises or hangs, no MCP
server in the module) is an :class:`~mcplint.errors.InputError` located in the file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

from ..errors import InputError, NotAServer
from ..model import CodeLocation, CodeMap, Document, Source

CHILD = Path(__file__).with_name("_child.py")
CHILD_PARTS = (Path(__file__).with_name("_child_map.py"), Path(__file__).with_name("_child_serve.py"),
               CHILD)  # one program, in this order (see _child.py)
DEFAULT_TIMEOUT = 30.0
OUTPUT_LIMIT = 4000  # characters of the server's own output quoted in an error


def load_python(spec: str, python: str | None = None, timeout: float | None = None,
                factory: str | None = None) -> Document:
    """Import the file of ``spec`` (``server.py``, or ``server.py:name`` naming a server object or
    a zero-argument factory in it) in ``python`` and build the Document of the tools it lists.
    ``factory``: a function name called, as ``server.py:factory`` would, in a module that has no
    server object at module level and defines it (``--factory build_server``)."""
    from ..load import py_target

    path, name = py_target(spec) or (spec, None)
    if not os.path.isfile(path):
        raise InputError("no such file", origin=path)
    name, call = _call(path, name)
    line = _entry_point_call(path)
    if line is not None:
        raise NotAServer(f"this is a package's entry point (`python -m`), which runs its program when imported "
                         f"(line {line}), so mcplint does not import it", origin=path, line=line, col=1,
                         expected="the module that defines the server, named on its own")
    from .interpreter import choose

    choice = choose(path, python)  # the named one, else the server's own (see interpreter.py)
    python = choice.python
    timeout = timeout or DEFAULT_TIMEOUT
    payload, output = _run_child(path, python, timeout, name, factory, call)
    if not payload.get("ok"):
        raise _child_error(path, python, payload, output, name or payload.get("named"), choice)
    return _document(path, payload, (python, choice.chosen_by, choice.why))


def _call(path: str, name: str | None) -> tuple[str | None, str]:
    """``(name, its arguments as JSON or "")`` of ``FILE:NAME`` or ``FILE:NAME(args)``: the
    arguments must be literals (``ast.literal_eval``: nothing of them is run) that JSON carries."""
    if not name or "(" not in name:
        return name, ""
    import ast

    base = name.split("(", 1)[0]
    try:
        call = ast.parse(name, mode="eval").body
        if not isinstance(call, ast.Call) or ast.unparse(call.func) != base or any(
                isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            raise ValueError
        args = {"args": [ast.literal_eval(a) for a in call.args],
                "kwargs": {k.arg: ast.literal_eval(k.value) for k in call.keywords}}
        return base, json.dumps(args)
    except (SyntaxError, ValueError, TypeError):
        raise InputError(f"the arguments of {path}:{name} must be literal values (strings, numbers, True, False, "
                         "None, lists, dicts)", origin=path,
                         expected=f"as in `mcplint scan '{path}:{base}(local_tz=\"UTC\")'`") from None


def _entry_point_call(path: str) -> int | None:
    """For a package's ``__main__.py``: the line of a call at its top level (``sys.exit(main())``,
    ``asyncio.run(main())``), which would start the program on import; None for any other file,
    or one whose calls wait under ``if __name__ == "__main__":``."""
    if os.path.basename(path) != "__main__.py":
        return None
    import ast

    from .literals import parse_file

    tree = parse_file(path)
    calls = [n.lineno for n in (tree.body if tree is not None else ())
             if isinstance(n, ast.Expr) and isinstance(n.value, (ast.Call, ast.Await))]
    return calls[0] if calls else None


def _run_child(path: str, python: str, timeout: float, name: str | None = None,
               factory: str | None = None, call: str = "") -> tuple[dict, str]:
    import tempfile

    from . import warm
    from .contain import run_plain

    fd, result_file = tempfile.mkstemp(prefix="mcplint-py-", suffix=".json")
    os.close(fd)
    try:
        program = "\n\n".join(part.read_text(encoding="utf-8") for part in CHILD_PARTS)
        argv = [path, result_file, str(timeout), name or "", factory or "", call]
        returncode = None
        if warm.usable(path):  # in a fork of an interpreter that has imported the SDK already
            try:
                returncode, timed_out, output = warm.run(python, program, ["-c", *argv], timeout)
            except warm.Unavailable:
                pass  # (the plain way below)
            else:
                if timed_out:
                    raise _timeout_error(path, timeout, output, name)
        if returncode is None:
            expected = "the server's interpreter: --python PATH, or `python:` in the configuration"
            try:
                returncode, timed_out, output = run_plain([python, "-c", program, *argv], timeout + 5)
            except FileNotFoundError:
                raise InputError(f"cannot run the Python interpreter {python!r}: no such file", origin=path,
                                 expected=expected) from None
            except PermissionError:
                raise InputError(f"cannot run the Python interpreter {python!r}: not executable", origin=path,
                                 expected=expected) from None
            if timed_out:
                raise _timeout_error(path, timeout, output, name)
        try:
            with open(result_file, encoding="utf-8") as fh:
                text = fh.read()
            payload = json.loads(text) if text.strip() else None
        except (OSError, ValueError):
            payload = None
        if payload is None:
            if "Fatal Python error: Timeout" in output or "Timeout (0:" in output:
                raise _timeout_error(path, timeout, output, name)
            raise InputError(f"the Python interpreter {python!r} exited with status {returncode} before "
                             f"listing any tool{_quoted(output)}", origin=path,
                             expected="a Python 3 interpreter that can import the server")
        return payload, output
    finally:
        try:
            os.unlink(result_file)
        except OSError:
            pass


def _quoted(output: str) -> str:
    output = output.strip()
    if not output:
        return ""
    if len(output) > OUTPUT_LIMIT:
        output = "...\n" + output[-OUTPUT_LIMIT:]
    return ". The server printed:\n" + output


def _timeout_error(path: str, timeout: float, output: str, name: str | None = None) -> InputError:
    """A hanging import, located at the line of the module the dump shows it stuck on."""
    target = os.path.abspath(path)
    line = None
    for m in re.finditer(r'File "([^"]+)", line (\d+)', output):
        if os.path.abspath(m.group(1)) == target:
            line = int(m.group(2))
            break  # faulthandler lists the innermost frame first
    what = (f"importing the module, calling {name}() and listing its tools did not finish within {timeout:g} s (a "
            f"factory that starts the server, or waits for input?)" if name else
            f"importing the module and listing its tools did not finish within {timeout:g} s (a server "
            f"that starts itself on import, or waits for input?)")
    return InputError(what + (_quoted(output) if line is None else ""),
                      origin=path, line=line, col=1 if line else None,
                      expected="a module that defines its server and returns; start it under "
                               "`if __name__ == \"__main__\":`")


SYNTAX = ("`mcplint scan server.py:NAME`, NAME a server object or a factory that returns one (called with no "
          "arguments, or with literal ones: `server.py:NAME(key=\"value\")`)")


def _child_error(path: str, python: str, payload: dict, output: str, name: str | None = None,
                 choice=None) -> InputError:
    """The located error for what the child reported (``payload``): the server failed to import or
    to list its tools, or the module is not a server mcplint can reach."""
    kind, line = payload.get("kind"), payload.get("line")
    col = 1 if line else None
    if kind == "import":
        return _import_error(path, python, payload, choice)
    if kind == "list":
        what = f"calling the factory {name}() or listing its tools" if name else "listing its tools"
        return InputError(f"the server raised {payload.get('exception')} while {what} (its traceback follows)\n"
                          + payload.get("traceback", "").rstrip(), origin=path, line=line, col=col)
    if kind == "unusable":
        return InputError(payload.get("message", ""), origin=path, line=line or 1, col=1,
                          expected=payload.get("expected"))
    if kind == "unlisted":
        file, why = payload.get("file"), payload.get("message", "")
        if "contains itself" in why and (payload.get("sdk") or {}).get("fastmcp", "").startswith("2."):
            why += "; fastmcp 3 keeps the $ref"
        return InputError(f"tools/list fails for every client: the SDK cannot send tool {payload.get('tool')!r}: "
                          f"{why}", origin=display_path(file, path) if file else path,
                          line=line, col=col, expected="a tool whose schemas the SDK can serialize")
    if kind == "no-sdk-import":
        return NotAServer("this module imports no MCP SDK (mcp or fastmcp): it is not an MCP server",
                          origin=path, line=1, col=1,
                          expected="a module defining a FastMCP, MCPServer or low-level Server object")
    factory = _factory_error(path)
    return factory if factory is not None else _no_server_error(path, payload)


def _import_error(path: str, python: str, payload: dict, choice) -> InputError:
    """The server failed to import: the MCP SDK missing from the interpreter, or its own error."""
    line = payload.get("line")
    col = 1 if line else None
    missing = payload.get("missing") or ""
    if missing.split(".")[0] in ("mcp", "fastmcp") and payload.get("exception") == "ModuleNotFoundError":
        from .interpreter import passed_over, shown

        which = f"the interpreter {shown(python)}" if choice is None or choice.chosen_by == "named" else \
            f"the interpreter {shown(python)} ({choice.why})"
        return InputError(f"{which} has no module {missing!r}, the MCP SDK this server imports"
                          + (passed_over(choice) if choice is not None else "")
                          + _sdk_hint(missing, payload.get("sdk") or {}), origin=path, line=line, col=col,
                          expected="the server's own interpreter as --python PATH, or the SDK installed "
                                   "in this one")
    # a dependency of the server's own that this interpreter lacks: say where it should be
    lacking = payload.get("exception") == "ModuleNotFoundError" and missing
    expected = (f"the server's dependencies ({missing.split('.')[0]}) installed in {python}, or the server's "
                "own interpreter as --python PATH" if lacking else _v1_decorator(payload, python, path))
    return InputError(f"the server raised {payload.get('exception')} on import (its traceback follows)\n"
                      + payload.get("traceback", "").rstrip(), origin=path, line=line, col=col,
                      expected=expected)


def _factory_error(path: str) -> InputError | None:
    """No server at module level, but a function that looks like it builds one: how to name it."""
    builders = factory_candidates(path)
    factories = [(fn, fline) for fn, fline, bare, other in builders if bare and other is None]
    if factories:
        fn, fline = factories[0]
        return InputError(f"the module defines no MCP server object at module level; {fn}() looks like a "
                          f"factory that builds one: name it to have it called, `mcplint scan {path}:{fn}`",
                          origin=path, line=fline, col=1, expected=SYNTAX)
    if builders:
        fn, fline, bare, other = builders[0]
        if bare and other is not None:  # `def build_app() -> Starlette`: calling it gives no server
            return InputError(f"the module defines no MCP server object at module level; {fn}() builds one but "
                              f"returns `{other}`, not the server: move the server to module level, or into a "
                              f"factory that returns it", origin=path, line=fline, col=1, expected=SYNTAX)
        required, typed = _signature(path, fn)
        objects = [(p, ann) for p, ann in required if ann]
        if typed and objects:  # a Settings object: no literal gives it
            p, ann = objects[0]
            given = ", ".join(f"{q}=..." for q, _ in required)
            return InputError(f"the module defines no MCP server object at module level; {fn}() builds one but "
                              f"takes `{p}: {ann}`, which no literal argument can give: build the server in a "
                              f"module of your own (`server = {fn}({given})`, with {fn} imported from here) and "
                              f"scan that file", origin=path, line=fline, col=1,
                              expected="a module-level FastMCP, MCPServer or low-level Server object")
        if typed:  # annotated to return a server: a factory, safe to call with the arguments it needs
            given = ", ".join(f"{p}=..." for p, _ in required)
            return InputError(f"the module defines no MCP server object at module level; {fn}() builds one but "
                              f"takes arguments: give them as literals, `mcplint scan '{path}:{fn}({given})'`, or "
                              f"move the server to module level", origin=path, line=fline, col=1, expected=SYNTAX)
        return InputError(f"the module defines no MCP server object at module level; {fn}() builds one but takes "
                          f"arguments, so mcplint cannot call it: move the server to module level, or into a "
                          f"factory that takes none and returns it", origin=path, line=fline, col=1, expected=SYNTAX)
    return None


def _no_server_error(path: str, payload: dict) -> InputError:
    """No server at module level and no factory: where the module builds one, if it does."""
    built = server_builds(path)
    expected = f"a module-level FastMCP, MCPServer or low-level Server object, or {SYNTAX}"
    if built is None or not built:  # nothing builds a server (a test importing mcp.types, a helper): not one
        error = InputError if built is None else NotAServer
        return error(payload.get("message", "no MCP server found"), origin=path, line=1, col=1, expected=expected)
    bline, where = built[0]  # built where mcplint cannot reach it: an error wherever it is
    where = ("under `if __name__ == \"__main__\":`, which does not run on import" if where == "__main__" else
             f"in the body of {where}" if where and where.startswith("class ") else
             f"inside {where}(), which mcplint does not call (it returns no server)" if where else
             "but keeps it in no module-level name")
    fix = ("assign it to a module-level name" if where.startswith("but") else
           "move the server to module level, or into a function that takes no arguments and returns it")
    return InputError(f"the module defines no MCP server object at module level: it builds one {where}; {fix}",
                      origin=path, line=bline, col=1, expected=expected)


# The low-level Server's decorators in mcp 1.x; mcp 2 takes each handler as Server(..., on_NAME=...).
V1_DECORATORS = {name: f"on_{name}" for name in (
    "list_tools", "call_tool", "list_prompts", "get_prompt", "list_resources", "read_resource", "list_resource_templates",
    "subscribe_resource", "unsubscribe_resource", "completion", "set_logging_level")} | {"progress_notification": "on_progress"}
_NO_ATTRIBUTE = re.compile(r"^'Server' object has no attribute '(\w+)'$")


def _v1_decorator(payload: dict, python: str, path: str) -> str | None:
    """A low-level server written for mcp 1.x's decorators (``@server.list_tools()``) imported
    where mcp 2 is installed (a server that requires ``mcp>=1.x`` gets mcp 2 from pip): what it needs."""
    m = _NO_ATTRIBUTE.match(payload.get("message") or "") if payload.get("exception") == "AttributeError" else None
    have = (payload.get("sdk") or {}).get("mcp", "")
    if m is None or m.group(1) not in V1_DECORATORS or not have.startswith("2."):
        return None
    try:  # the server's own name for it, from the line that failed (``@app.list_tools()``)
        text = Path(path).read_text(encoding="utf-8").splitlines()[payload["line"] - 1]
        var = re.search(rf"@\s*([\w.]+)\.{m.group(1)}\b", text).group(1)
    except (OSError, UnicodeDecodeError, IndexError, KeyError, TypeError, AttributeError):
        var = "server"
    return (f"mcp 1.x, for which this server is written: `@{var}.{m.group(1)}()` is mcp 1.x's low-level API, which "
            f"mcp 2 replaced with `Server(..., {V1_DECORATORS[m.group(1)]}=...)`, and {python} has mcp {have}; name an "
            "interpreter with mcp<2 (--python PATH), or port the server")


def _sdk_hint(missing: str, sdk: dict) -> str:
    """Why a module of the SDK is missing when the SDK itself is installed: another major version."""
    have = sdk.get(missing.split(".")[0])
    if not have:
        return ""
    major = int(have.split(".")[0]) if have.split(".")[0].isdigit() else 0
    if missing.startswith("mcp.server.fastmcp") and major >= 2:
        return (f"; it has mcp {have}, and this server is written for mcp 1.x (mcp 2 renamed FastMCP to "
                "MCPServer, in mcp.server.mcpserver): name an interpreter with mcp<2, or port the server")
    if missing.startswith("mcp.server.mcpserver") and major == 1:
        return f"; it has mcp {have}, and this server is written for mcp 2 (MCPServer): it needs mcp>=2"
    return f"; it has {missing.split('.')[0]} {have}, which has no such module: another version of the SDK?"


SERVER_CLASSES = frozenset({"FastMCP", "MCPServer", "Server"})


def _server_namer(tree):
    """A test of whether an expression of ``tree`` names a server class: ``FastMCP``, ``MCPServer``
    or ``Server`` imported from the SDK (``mcp``, ``fastmcp``), or reached through a module of it
    (``lowlevel.Server``), or written in an annotation string. A class of that name imported from
    elsewhere (``from uvicorn import Server``) or defined in the module is not one; a name bound
    nowhere in the module is taken to be one (it cannot be shown not to be)."""
    import ast

    sdk = ("mcp", "fastmcp")
    bound: dict = {}  # a name the module imports -> (whether from the SDK, the name imported; None: a module)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                bound[a.asname or a.name] = (node.module.split(".")[0] in sdk, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.split(".")[0]] = (a.name.split(".")[0] in sdk, None)
        elif isinstance(node, ast.ClassDef):  # a class of the module's own (a client's `class Server:`)
            bound[node.name] = (False, node.name)

    def names(node) -> bool:
        if isinstance(node, ast.Name):
            sdk_name = bound.get(node.id)
            return node.id in SERVER_CLASSES if sdk_name is None else sdk_name[0] and sdk_name[1] in SERVER_CLASSES
        if isinstance(node, ast.Attribute):
            root = node
            while isinstance(root, ast.Attribute):
                root = root.value
            return node.attr in SERVER_CLASSES and bound.get(getattr(root, "id", None), (True,))[0]
        return isinstance(node, ast.Constant) and str(node.value).split(".")[-1] in SERVER_CLASSES

    return names


def server_builds(path: str) -> list[tuple[int, str | None]] | None:
    """Where the module calls a server class: [(line, the top-level function it is in, or
    "__main__" under ``if __name__ == "__main__":``, or "class NAME", or None elsewhere)], in the file's order;
    None when the module cannot be parsed (it cannot be shown to build none)."""
    import ast

    from .literals import parse_file

    tree = parse_file(path)
    if tree is None:
        return None
    names = _server_namer(tree)
    out = []
    for top in tree.body:
        where = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else (
            "__main__" if isinstance(top, ast.If) and "__main__" in ast.unparse(top.test) else
            f"class {top.name}" if isinstance(top, ast.ClassDef) else None)
        out += [(n.lineno, where) for n in ast.walk(top) if isinstance(n, ast.Call) and names(n.func)]
    return out


def factory_candidates(path: str) -> list[tuple[str, int, bool, str | None]]:
    """[(name, line, callable with no arguments, the return annotation when it names no server
    class)] of the module's top-level functions that look like server factories (their return
    annotation names a server class, or their body calls one and returns a value): suggested to the
    user, never called unless named, and not suggested when annotated to return something else."""
    import ast

    from .literals import parse_file

    tree = parse_file(path)
    if tree is None:
        return []
    names = _server_namer(tree)

    def returns_a_value(fn) -> bool:  # a `return x` of its own (not of a function nested in it)
        todo = list(fn.body)
        while todo:
            n = todo.pop()
            if isinstance(n, ast.Return) and n.value is not None:
                return True
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                todo.extend(ast.iter_child_nodes(n))
        return False

    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            bare = len(a.posonlyargs) + len(a.args) <= len(a.defaults) and None not in a.kw_defaults
            # a function that builds a server and returns nothing (a demo's main()) is no factory; one
            # annotated to return something else (`def build_app() -> Starlette`: the server's web app)
            # is said to return that
            if node.returns is not None and names(node.returns):
                out.append((node.name, node.lineno, bare, None))
            elif returns_a_value(node) and any(isinstance(n, ast.Call) and names(n.func) for n in ast.walk(node)):
                out.append((node.name, node.lineno, bare, ast.unparse(node.returns) if node.returns else None))
    return out


# Annotations whose values a literal (ast.literal_eval) can give a factory: `server.py:NAME(key=...)`.
LITERAL_TYPES = frozenset({"str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "set", "None",
                           "Optional", "Union", "Literal", "List", "Dict", "Tuple", "Set", "typing"})


def _signature(path: str, fn: str) -> tuple[list[tuple[str, str | None]], bool]:
    """The parameters of top-level function ``fn`` that have no default, in order, each with its
    annotation when that names a type no literal can give (``settings: Settings``), and whether
    its return annotation names a server class (``-> MCPServer``: a factory; a click ``main(port)``
    that builds a server and runs it is not one, and must not be called)."""
    import ast

    from .literals import parse_file

    tree = parse_file(path)
    node = next((n for n in (tree.body if tree else ()) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn), None)
    if node is None:
        return [], False
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    args = positional[:len(positional) - len(a.defaults)] + [x for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]

    def opaque(ann) -> str | None:
        names = {getattr(n, "id", None) or getattr(n, "attr", None) for n in ast.walk(ann)
                 if isinstance(n, (ast.Name, ast.Attribute))} if ann is not None else set()
        return ast.unparse(ann) if names - LITERAL_TYPES else None

    required = [(x.arg, opaque(x.annotation)) for x in args]
    return required, node.returns is not None and _server_namer(tree)(node.returns)


def display_path(file: str, origin: str) -> str:
    """A code file as the user would name it: the origin itself; else, for an origin given as
    an absolute path, absolute too (the files of one server are named one way); else relative to
    the working directory when inside it, else absolute."""
    if os.path.abspath(file) == os.path.abspath(origin):
        return origin
    if os.path.isabs(origin):
        return os.path.abspath(file)
    try:
        rel = os.path.relpath(file)
    except ValueError:
        return file
    return file if rel.startswith("..") else rel


def _document(origin: str, payload: dict, interpreter: tuple = ()) -> Document:
    from ..load import parse
    from .literals import tool_literal_sites

    tools, locations, models = [], {}, {}
    root_at = None
    for server in payload["servers"]:
        root_at = root_at or server.get("at")
        for tool, locs, classes in zip(server["tools"], server["locations"], server["models"]):
            base = (len(tools),)
            tools.append(tool)
            if not locs and isinstance(tool, dict) and isinstance(tool.get("name"), str):
                locs = tool_literal_sites(origin, tool["name"])  # no function: where it is written
            built = _library_place(locs.get("[]"))
            if built is not None and server.get("at"):  # a tool the SDK builds (a fastmcp transform's): at the server
                file, line, col, _ = server["at"]
                locs, classes = {"[]": [file, line, col, f"library tool {built}"]}, {}
            for into, found in ((locations, locs), (models, classes)):
                for key, (file, line, col, what) in found.items():
                    into[base + tuple(json.loads(key))] = CodeLocation(
                        display_path(file, origin), line, col, what, best_effort="best effort" in what)
    # the document's own findings (and any with no better place): the server's assignment, else line 1
    locations[()] = (CodeLocation(display_path(root_at[0], origin), root_at[1], root_at[2], root_at[3]) if root_at
                     else CodeLocation(origin, 1, 1, "module"))
    if not tools:
        at = root_at or [origin, 1, 1, "module"]
        which = ", ".join(s.get("var") or "?" for s in payload["servers"])
        if all(s.get("serves") for s in payload["servers"]):  # prompts or resources, by design: no tools to check
            serves = {}
            for s in payload["servers"]:
                for what, n in s["serves"].items():
                    serves[what] = None if n is None or serves.get(what, 0) is None else serves.get(what, 0) + n
            listed = ", ".join(what if n is None else f"{n} {what[:-1] if n == 1 else what}" for what, n in serves.items())
            server = "low-level Server" if all(s.get("kind") == "lowlevel" for s in payload["servers"]) else "server"
            raise NotAServer(f"the {server} ({which}) serves {listed} and no tools: nothing for mcplint to check",
                             origin=display_path(at[0], origin), line=at[1], col=at[2],
                             expected="a server with tools")
        if all(s.get("no_handler") for s in payload["servers"]):  # by construction: no tools to check
            raise NotAServer(f"the low-level Server ({which}) has no tools/list handler: it serves no tools",
                             origin=display_path(at[0], origin), line=at[1], col=at[2],
                             expected="a server with tools (a function decorated with @server.list_tools(), or "
                                      "an on_list_tools handler)")
        raise InputError(f"the server ({which}) lists no tools after import: a tool registered later (in main(), "
                         "or at start-up) is not seen", origin=display_path(at[0], origin), line=at[1], col=at[2],
                         expected="tools registered when the module (or the named factory) has run")
    # an array of Tools, not a tools/list result: the result's other members (caching hints,
    # pagination) are the SDK's, and were not asked for
    text = json.dumps(tools, indent=2, ensure_ascii=False) + "\n"
    from ..versions import VERSIONS

    served = payload.get("protocol_versions")
    generators = {s.get("generator") for s in payload["servers"]}
    homes = [s.get("home") for s in payload["servers"]]
    code = CodeMap(
        locations, models, _texts({loc.file for loc in locations.values()}),
        sdk_versions=tuple(v for v in VERSIONS if v in served) if isinstance(served, list) else (),
        tool_servers=(tuple(s.get("var") or str(i) for i, s in enumerate(payload["servers"]) for _ in s["tools"])
                      if len(payload["servers"]) > 1 else ()),
        # every server only imported here: where each is assigned
        server_homes=tuple(sorted(set(homes))) if all(homes) else (),
        interpreter=interpreter)
    notes = tuple(
        f"{origin}: passed over server {p['var']}, imported"
        + (f" from {display_path(p['home'], origin)}" if p.get("home") else "")
        + ": the module builds a server of its own and does not serve that one's tools; scan its file for them"
        for p in payload.get("passed", ()))
    return replace(parse(Source(origin, text, "json")), code=code,
                   generator=generators.pop() if len(generators) == 1 else None, notes=notes)


def _homes(doc: Document, files: list) -> tuple[dict, list]:
    from ..load import py_target

    given = {os.path.realpath((py_target(f) or (f, None))[0]): f for f in files if f != "-"}
    homes = doc.code.server_homes if doc.code is not None else ()
    return given, [os.path.realpath(h) for h in homes]  # (a link and its target are one file)


def homes_given(doc: Document, files: list) -> bool:
    """Whether every file that assigns the servers ``doc`` imports is among ``files``: only then
    may :func:`reexported` pass it over (the engine waits for them before it decides)."""
    given, homes = _homes(doc, files)
    return bool(homes) and all(h in given for h in homes)


def reexported(doc: Document, files: list, documents: list) -> str | None:
    """For a Python document whose servers are all assigned in other files of the run
    (``files``, as given), each linted (among ``documents``) with every tool this one lists:
    the warning that it is passed over; else None. Its findings would be those files', at the
    same lines, twice. A module that imports a server and adds tools to it (``@mcp.tool()`` in
    tools.py) lists tools the server's own file may not: it is linted."""
    given, homes = _homes(doc, files)
    if not homes or not all(h in given for h in homes):
        return None
    linted = {os.path.realpath(d.source.origin): d for d in documents if d.code is not None and d.code.locations}
    names = {t.get("name") for h in homes if h in linted for t in linted[h].data if isinstance(t, dict)}
    if not all(h in linted for h in homes) or not {t.get("name") for t in doc.data if isinstance(t, dict)} <= names:
        return None
    return (f"{doc.source.origin}: passed over: it imports its server from {', '.join(given[h] for h in homes)}, "
            "scanned too (the findings would be the same, twice)")


def _library_place(loc) -> str | None:
    """``package/module.py:LINE`` when a tool's function (``loc``, as the child sends it) is the
    installed SDK's (``mcp``, ``fastmcp``), not the server's code: a tool the SDK adds itself
    (fastmcp's search, code-mode and prompts-as-tools transforms); else None (an installed
    server, such as mcp-server-time in site-packages, is the server's own code)."""
    if not loc:
        return None
    parts = Path(loc[0]).parts
    for marker in ("site-packages", "dist-packages"):
        if marker in parts:
            inside = parts[len(parts) - parts[::-1].index(marker):]
            return "/".join(inside) + f":{loc[1]}" if inside and inside[0] in ("mcp", "fastmcp") else None
    return None


def _texts(files) -> dict:
    out = {}
    for f in files:
        try:
            out[f] = Path(f).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    return out
