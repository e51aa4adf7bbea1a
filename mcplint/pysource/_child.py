"""Run inside the MCP server's own interpreter: import a Python server module, list its tools
through the SDK's own API and say where in the source each schema part comes from.

Standard library only (nothing of mcplint is installed there): mcplint sends the program's text
with ``python -c``. Usage: ``python -c SOURCE MODULE_FILE RESULT_FILE [TIMEOUT [NAME]]``. The module is
imported under its own name, never as ``__main__``, so its ``if __name__ == "__main__":`` block
does not run. The JSON written to RESULT_FILE is either
``{"ok": true, "servers": [...]}`` or ``{"ok": false, "kind": ..., "message": ..., ...}``;
whatever the module prints goes to this process's stdout/stderr, which mcplint captures.

A location is ``[file, line, column, what]`` (1-based line and column); a schema part is
named by its path inside the tool (``["inputSchema", "properties", "limit"]``).

The program is ``_child_map.py`` (where in the source each schema part comes from: ``map_tool``,
``_function_node``, ``_assignment``, ``_loc``, ...) followed by this file, so the names this file
uses from the other are defined before it runs. Neither uses ``from __future__`` (it would have to
open the whole program).
"""

import ast
import asyncio
import inspect
import json
import os
import sys
import traceback

SDK_ROOTS = ("mcp", "fastmcp")


# ------------------------------------------------------------------ importing


def _module_name(path):
    """(name to import, directory to put on sys.path): a file inside packages (directories
    with ``__init__.py``) is imported as ``pkg.sub.mod`` so its relative imports work."""
    directory, base = os.path.split(os.path.abspath(path))
    parts = [os.path.splitext(base)[0]]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, pkg = os.path.split(directory)
        parts.insert(0, pkg)
    return ".".join(parts), directory


def import_module(path):
    import importlib
    import importlib.util

    name, root = _module_name(path)
    sys.path[0:1] = [root] if not sys.path or sys.path[0] in ("", os.getcwd()) else [root, sys.path[0]]
    sys.argv = [path]
    if "." in name:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def user_frames(tb):
    """The traceback's frames from the module's own code on (the helper's frames left out)."""
    frames = traceback.extract_tb(tb)
    here = os.path.dirname(asyncio.__file__)
    keep = [f for f in frames if f.filename != "<string>" and not f.filename.startswith("<frozen")
            and not f.filename.startswith(here + os.sep)]
    return keep or frames


# ------------------------------------------------------------------ finding servers


def server_kind(obj):
    """"mcpserver" (official SDK MCPServer, or FastMCP of mcp 1.x), "fastmcp" (standalone
    package), "lowlevel" (mcp.server.lowlevel.Server), or None."""
    return class_kind(type(obj))


def class_kind(cls):
    try:
        mro = cls.__mro__
    except AttributeError:
        return None
    for klass in mro:
        module = getattr(klass, "__module__", "") or ""
        root, name = module.split(".")[0], klass.__name__
        if root == "fastmcp" and name == "FastMCP":
            return "fastmcp"
        if root == "mcp" and name in ("MCPServer", "FastMCP"):
            return "mcpserver"
        if root == "mcp" and name == "Server" and ".lowlevel" in module:
            return "lowlevel"
    return None


def find_servers(module):
    seen, out = set(), []
    for var, obj in list(vars(module).items()):
        kind = server_kind(obj)
        if kind and id(obj) not in seen:
            seen.add(id(obj))
            out.append((var, obj, kind))
    return out


class Unusable(Exception):
    """A named server or factory that cannot be used: (message, line, expected)."""


async def named_server(module, path, name, call=None):
    """The object ``name`` names in the module (``server.py:name``): a server, or a function
    called with no arguments (awaited when async) that returns one, as `fastmcp run` does; or
    with ``call`` ({"args": [...], "kwargs": {...}}, literals from ``server.py:name(...)``)."""
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            import difflib

            names = [n for n, v in vars(module).items() if not n.startswith("_") and (
                server_kind(v) or inspect.isfunction(v) and getattr(v, "__module__", None) == module.__name__)]
            close = difflib.get_close_matches(part, names, n=1)
            raise Unusable(f"the module has no {name!r}" + (f"; did you mean {close[0]!r}?" if close else ""),
                           None, "the name of a server object or of a zero-argument factory function in the module")
        obj = getattr(obj, part)
    if server_kind(obj):
        return obj, _assignment(path, name.split(".")[-1], obj)
    fn = obj
    if not callable(fn) or isinstance(fn, type):
        raise Unusable(f"{name!r} is a {type(obj).__name__}, not an MCP server or a function that returns one",
                       (_assignment(path, name, obj) or [None] * 2)[1],
                       "a FastMCP, MCPServer or low-level Server object, or a zero-argument factory")
    file, node = _function_node(inspect.unwrap(fn)) if inspect.isfunction(inspect.unwrap(fn)) else (None, None)
    line = node.lineno if node is not None and os.path.abspath(file) == path else None
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        params = ()
    args, kwargs = (call["args"], call["kwargs"]) if call else ((), {})
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as e:
        if call:
            raise Unusable(f"the factory {name}() does not take these arguments: {e}", line,
                           "arguments the factory's signature accepts") from None
        needed = [p.name for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                                                p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        given = ", ".join(f"{n}=..." for n in needed)
        raise Unusable(f"the factory {name}() needs arguments ({', '.join(needed)}): give them as literals, "
                       f"`{os.path.basename(path)}:{name}({given})`", line,
                       "a factory whose parameters all have defaults, or literal arguments for it") from None
    except ValueError:
        pass
    server = fn(*args, **kwargs)
    if inspect.isawaitable(server):
        server = await server
    if not server_kind(server):
        raise Unusable(f"the factory {name}() returned {type(server).__name__}, not an MCP server", line,
                       "a factory that returns its FastMCP, MCPServer or low-level Server")
    var = next((v for v, o in vars(module).items() if o is server), None)  # a module-level server, returned
    if var is not None:
        return server, _assignment(path, var, server)
    cls = type(server).__name__  # else where the factory calls the server's class, else its def
    call = next((n for n in ast.walk(node) if isinstance(n, ast.Call) and cls in (
        getattr(n.func, "id", None), getattr(n.func, "attr", None))), node) if node is not None else None
    return server, _loc(path, call, f"server built by {name}()") if line is not None else None


def _dump(model):
    if hasattr(model, "model_dump"):
        return model.model_dump(by_alias=True, mode="json", exclude_none=True)
    if hasattr(model, "dict"):  # pydantic 1
        return json.loads(model.json(by_alias=True, exclude_none=True))
    return model


class ToolUnlisted(Exception):
    """The SDK built a tool that it cannot send: tools/list fails for every client."""

    def __init__(self, name, item, error, tool):
        super().__init__(name)
        self.name, self.item, self.error, self.tool = name, item, error, tool


def _contains_itself(value, seen=()):
    if not isinstance(value, (dict, list)) or id(value) in seen:
        return isinstance(value, (dict, list))
    return any(_contains_itself(v, (*seen, id(value))) for v in (value.values() if isinstance(value, dict) else value))


def _wire(tool, item):
    try:
        return _dump(tool)
    except Exception as e:
        raise ToolUnlisted(getattr(tool, "name", None) or getattr(item, "name", None), item, e, tool) from None


async def _pages(call):
    """Every page of a paginated tools/list handler: ``call(cursor)`` returns one result."""
    tools, cursor, seen = [], None, set()
    while True:
        result = await call(cursor)
        result = getattr(result, "root", result)
        tools += list(result.tools)
        cursor = getattr(result, "next_cursor", None) or getattr(result, "nextCursor", None)
        if not cursor or cursor in seen or len(seen) > 1000:
            return tools
        seen.add(cursor)


async def _list(obj, kind):
    """[(wire tool dict, the SDK's tool object or None)] in the order a client gets them; None
    for a low-level Server with no tools/list handler."""
    if kind == "lowlevel":
        from mcp import types

        get = getattr(obj, "get_request_handler", None)
        entry = get("tools/list") if get else None
        if entry is not None:  # mcp 2: handler(ctx, params)
            tools = await _pages(lambda c: entry.handler(None, types.PaginatedRequestParams(cursor=c) if c else None))
        else:  # mcp 1: request_handlers keyed by request type
            handler = getattr(obj, "request_handlers", {}).get(types.ListToolsRequest)
            if handler is None:
                return None  # no tools/list handler: it serves no tools
            tools = await _pages(lambda c: handler(types.ListToolsRequest(
                method="tools/list", params=types.PaginatedRequestParams(cursor=c) if c else None)))
        return [(_wire(t, None), None) for t in tools]
    if hasattr(obj, "list_tools"):
        items = await obj.list_tools()
        if kind == "fastmcp":  # fastmcp 3+: list_tools() holds every version; tools/list sends the highest
            try:
                from fastmcp.utilities.versions import dedupe_with_versions
            except ImportError:
                pass
            else:
                items = dedupe_with_versions(list(items), lambda t: t.name)
    else:  # fastmcp 2.x: what its tools/list handler sends, each matched to its tool by key
        found = await obj.get_tools()
        handler = getattr(obj, "_list_tools_mcp", None) or getattr(obj, "_mcp_list_tools", None)  # 2.13+, older
        if handler is not None:
            return [(_wire(w, found.get(w.name)), found.get(w.name)) for w in await handler()]
        items = list(found.values())
    out = []
    for item in items:
        wire = item.to_mcp_tool() if hasattr(item, "to_mcp_tool") else item
        out.append((_wire(wire, item), item))
    return out


async def _serves(obj, kind):
    """What a server with no tools serves instead: {"prompts": count, ...} of what it lists now,
    a low-level Server's by its handlers (count None); {} when nothing, or when it cannot be told."""
    found = {}
    for what, method, request in (("prompts", "prompts/list", "ListPromptsRequest"),
                                  ("resources", "resources/list", "ListResourcesRequest"),
                                  ("resource templates", "resources/templates/list", "ListResourceTemplatesRequest")):
        try:
            if kind == "lowlevel":
                from mcp import types

                get = getattr(obj, "get_request_handler", None)
                handlers = getattr(obj, "request_handlers", None) or {}
                if (get(method) if get else None) is not None or getattr(types, request, None) in handlers:
                    found[what] = None
                continue
            lister = getattr(obj, "list_" + what.replace(" ", "_"), None) or getattr(obj, "get_" + what.replace(" ", "_"), None)
            if lister is not None:
                n = len(await lister())
                if n:
                    found[what] = n
        except Exception:
            continue
    return found


def _fn_for(obj, item, name):
    fn = getattr(item, "fn", None)
    if fn is None:  # mcp 1.x lists wire Tools: the function is its tool manager's
        try:
            fn = getattr(obj._tool_manager.get_tool(name), "fn", None)
        except Exception:
            return None
    try:
        return inspect.unwrap(fn) if fn is not None else None
    except ValueError:
        return fn


async def _mounted_fn(item, depth=0):
    """The function of a tool a fastmcp 3 server lists from a server mounted in it
    (``main.mount(jira, namespace="jira")``: a provider tool naming the inner server and the
    tool's name there), followed through nested mounts; None for any other tool."""
    inner, original = getattr(item, "_server", None), getattr(item, "_original_name", None)
    if inner is None or not isinstance(original, str) or depth > 8:
        return None
    try:
        tool = await inner.get_tool(original)
    except Exception:
        return None
    fn = getattr(tool, "fn", None)
    if fn is None:
        return await _mounted_fn(tool, depth + 1)
    try:
        return inspect.unwrap(fn)
    except ValueError:
        return fn


async def describe(servers, path):
    out = []
    for var, obj, kind, at in servers:
        entry = {"var": var, "kind": kind, "at": at, "tools": [], "locations": [], "models": [], "fns": [],
                 "generator": "pydantic" if kind != "lowlevel" else None}
        try:
            listed = await _list(obj, kind)
        except ToolUnlisted as e:
            e.fn = _fn_for(obj, e.item, e.name) if e.item is not None else None
            raise
        if listed is None:
            entry["no_handler"] = True
            listed = []
        if not listed:  # a server of prompts or resources, or one whose tools come later?
            entry["serves"] = await _serves(obj, kind)
        for wire, item in listed:
            name = wire.get("name") if isinstance(wire, dict) else None
            fn = _fn_for(obj, item, name) if item is not None else None
            if fn is None and item is not None:
                fn = await _mounted_fn(item)
            locs, classes = map_tool(wire, fn, path) if fn is not None else ({}, {})  # none: placed by name
            meta = wire.get("_meta") if isinstance(wire, dict) else None
            if kind == "fastmcp" and isinstance(meta, dict) and "_fastmcp" in meta and at:
                locs[json.dumps(["_meta", "_fastmcp"])] = [*at[:3], at[3] + " (fastmcp adds _meta._fastmcp)"]
            entry["tools"].append(wire)
            entry["locations"].append(locs)
            entry["models"].append(classes)
            root = locs.get("[]")  # the function's def: a mounted copy of a tool wraps it anew
            entry["fns"].append(f"{root[0]}:{root[1]}" if root else None)
        out.append(entry)
    return out


async def load(module, path, name, call=None):
    """The servers to list: the one ``name`` names, else every module-level server object."""
    if name:
        server, at = await named_server(module, path, name, call)
        servers = [(name, server, server_kind(server), at)]
    else:
        servers = [(var, obj, kind, _assignment(path, var, obj)) for var, obj, kind in find_servers(module)]
    out = await describe(servers, path)
    if not name:
        for entry, (_, obj, _, at) in zip(out, servers):
            if at is None:  # bound here by an import (a package's __init__.py re-exporting it): whose is it?
                entry["home"] = _home(obj, path)
    passed = []
    if any(e["at"] is not None for e in out) and any(e["at"] is None for e in out):
        # A module that builds a server of its own and imports others (to mount them: fastmcp's
        # ``main.mount(jira)``) serves its own: the imported ones are their files' to lint, and a
        # mounted one's tools are in its list already (each finding would be reported twice).
        own = {fn for e in out if e["at"] is not None for fn in e["fns"] if fn is not None}
        for e in out:
            if e["at"] is None and not (e["fns"] and all(fn in own for fn in e["fns"])):
                passed.append({"var": e["var"], "home": e.get("home")})
        out = [e for e in out if e["at"] is not None]
    for e in out:
        del e["fns"]
    return out, passed


def _home(obj, target):
    """The file of another loaded module that assigns the server ``obj`` to one of its names,
    or None: where a module that only imports the server got it from."""
    for mod in list(sys.modules.values()):
        file = getattr(mod, "__file__", None)
        if not file or os.path.abspath(file) == target:
            continue
        for var, value in list(getattr(mod, "__dict__", {}).items()):
            if value is obj and _assignment(os.path.abspath(file), var, obj) is not None:
                return os.path.abspath(file)
    return None


def _failure(kind, e, target, **extra):
    frames = user_frames(e.__traceback__)
    here = next((f for f in reversed(frames) if os.path.abspath(f.filename) == target), None)
    line = here.lineno if here else None
    if isinstance(e, SyntaxError) and e.filename and not any(  # the code does not parse: no frame of it ran
            f.filename == e.filename for f in frames):
        frames = [f for f in frames if f.filename != "<string>" and not f.filename.startswith("<frozen")]
        if os.path.abspath(e.filename) == target:
            line = e.lineno
    return {"ok": False, "kind": kind, "exception": type(e).__name__, "message": str(e),
            "line": line, **extra,
            "traceback": "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
            + "".join(traceback.format_exception_only(type(e), e))}


def served_protocol_versions():
    """The protocol versions the imported SDK serves, or None when it does not say in a way
    known here: mcp 2's mcp_types.version (the handshake versions and the modern ones), mcp 1's
    mcp.shared.version.SUPPORTED_PROTOCOL_VERSIONS (fastmcp serves through mcp)."""
    try:
        from mcp_types import version as v

        return list(v.HANDSHAKE_PROTOCOL_VERSIONS) + list(v.MODERN_PROTOCOL_VERSIONS)
    except Exception:
        pass
    try:
        from mcp.shared.version import SUPPORTED_PROTOCOL_VERSIONS

        return list(SUPPORTED_PROTOCOL_VERSIONS)
    except Exception:
        return None


def sdk_versions():
    from importlib import metadata

    return {(d.metadata["Name"] or "").lower(): d.version for d in metadata.distributions()
            if (d.metadata["Name"] or "").lower() in SDK_ROOTS}


def contained(argv):
    """``main`` with the module's processes and output held in (see ``contain``): every process
    the module started is killed when it is done, or when it is stopped for hanging."""
    contain()
    try:
        main(argv)
    finally:
        end_descendants()


def main(argv):
    target, result_file = os.path.abspath(argv[1]), argv[2]
    if len(argv) > 3 and argv[3]:  # a hanging import: print where every thread is, then stop
        import faulthandler
        import threading

        faulthandler.dump_traceback_later(float(argv[3]), exit=False)

        def stop():
            end_descendants()
            sys.stderr.flush()
            os._exit(1)

        watchdog = threading.Timer(float(argv[3]) + 0.2, stop)
        watchdog.daemon = True
        watchdog.start()
    name = argv[4] if len(argv) > 4 and argv[4] else None
    factory = argv[5] if len(argv) > 5 and argv[5] else None  # --factory: called when nothing is at module level
    call = json.loads(argv[6]) if len(argv) > 6 and argv[6] else None  # server.py:name(literal arguments)

    def done(payload):
        payload["sdk"] = {} if payload.get("ok") else sdk_versions()  # (only an error's hint reads them)
        with open(result_file, "w", encoding="utf-8") as fh:
            json.dump(payload, fh)

    try:
        module = import_module(target)
    except BaseException as e:  # the module's own failure, reported as the server's
        missing = getattr(e, "name", None) if isinstance(e, ImportError) else None
        done(_failure("import", e, target, missing=missing if isinstance(missing, str) else None))
        return
    if not imports_an_sdk():
        done({"ok": False, "kind": "no-sdk-import", "message": "the module imports no MCP SDK (mcp or fastmcp)"})
        return
    try:
        if name is None and factory and not find_servers(module) and callable(getattr(module, factory, None)):
            name = factory
        servers, passed = asyncio.run(load(module, target, name, call))
    except Unusable as e:
        message, line, expected = e.args
        done({"ok": False, "kind": "unusable", "message": message, "line": line, "expected": expected})
        return
    except ToolUnlisted as e:
        where = _function_node(e.fn) if getattr(e, "fn", None) is not None else (None, None)
        cause = f"{type(e.error).__name__}: {e.error}"
        for slot in ("inputSchema", "outputSchema"):
            if _contains_itself(getattr(e.tool, slot, None)):
                cause += f"; the {slot} the SDK built contains itself (a recursive model written out in place of its $ref)"
        done({"ok": False, "kind": "unlisted", "tool": e.name, "message": cause,
              "file": where[0] if where[1] is not None else None, "line": where[1].lineno if where[1] else None})
        return
    except BaseException as e:
        done(_failure("list", e, target, named=name))
        return
    if not servers:
        done({"ok": False, "kind": "no-server", "message": "the module defines no MCP server object at module level"})
        return
    done({"ok": True, "servers": servers, "passed": passed, "python": sys.version.split()[0],
          "protocol_versions": served_protocol_versions()})


if __name__ == "__main__":
    serve(sys.argv[2].split(",")) if sys.argv[1:2] == ["--serve"] else contained(sys.argv)
