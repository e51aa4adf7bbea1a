"""Run inside the MCP server's own interpreter: import a Python server module, list its tools
through the SDK's own API and say where in the source each schema part comes from.

Standard library only (nothing of mcplint is installed there): mcplint sends this file's
text with ``python -c``. Usage: ``python -c SOURCE MODULE_FILE RESULT_FILE [TIMEOUT]``. The module is
imported under its own name, never as ``__main__``, so its ``if __name__ == "__main__":`` block
does not run. The JSON written to RESULT_FILE is either
``{"ok": true, "servers": [...]}`` or ``{"ok": false, "kind": ..., "message": ..., ...}``;
whatever the module prints goes to this process's stdout/stderr, which mcplint captures.

A location is ``[file, line, column, what]`` (1-based line and column); a schema part is
named by its path inside the tool (``["inputSchema", "properties", "limit"]``).
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import inspect
import json
import os
import sys
import traceback
import typing

SDK_ROOTS = ("mcp", "fastmcp")
_TREES: dict = {}


def _tree(path):
    if path not in _TREES:
        try:
            with open(path, encoding="utf-8") as fh:
                _TREES[path] = ast.parse(fh.read(), path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            _TREES[path] = None
    return _TREES[path]


def _loc(path, node, what):
    return [path, node.lineno, node.col_offset + 1, what]


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


async def named_server(module, path, name):
    """The object ``name`` names in the module (``server.py:name``): a server, or a function
    called with no arguments (awaited when async) that returns one, as `fastmcp run` does."""
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
    needed = [p.name for p in params if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                                            p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if needed:
        raise Unusable(f"the factory {name}() needs arguments ({', '.join(needed)}): mcplint calls it with none",
                       line, "a factory whose parameters all have defaults")
    server = fn()
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
    """[(wire tool dict, the SDK's tool object or None)] in the order a client gets them."""
    if kind == "lowlevel":
        from mcp import types

        get = getattr(obj, "get_request_handler", None)
        entry = get("tools/list") if get else None
        if entry is not None:  # mcp 2: handler(ctx, params)
            tools = await _pages(lambda c: entry.handler(None, types.PaginatedRequestParams(cursor=c) if c else None))
        else:  # mcp 1: request_handlers keyed by request type
            handler = getattr(obj, "request_handlers", {}).get(types.ListToolsRequest)
            if handler is None:
                raise LookupError("this low-level Server has no tools/list handler")
            tools = await _pages(lambda c: handler(types.ListToolsRequest(
                method="tools/list", params=types.PaginatedRequestParams(cursor=c) if c else None)))
        return [(_wire(t, None), None) for t in tools]
    if hasattr(obj, "list_tools"):
        items = await obj.list_tools()
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


# ------------------------------------------------------------------ mapping to source


def _function_node(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        return None, None
    tree = _tree(code.co_filename)
    if tree is None:
        return code.co_filename, None
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if first == code.co_firstlineno or node.lineno == code.co_firstlineno:
                return code.co_filename, node
            best = best or node
    return code.co_filename, best


def _class_node(cls):
    try:
        path = inspect.getsourcefile(cls)
    except TypeError:
        return None, None
    tree = _tree(path) if path else None
    if tree is None:
        return path, None
    body, found = tree.body, None
    for part in cls.__qualname__.split("."):
        if part == "<locals>":
            body = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
            continue
        found = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if found is None:
            break
        body = found.body
    if found is None or found.name != cls.__name__:
        found = next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls.__name__), None)
    return path, found


def _field_node(cls, name):
    """(file, the annotated assignment of field ``name``) in the class or a base defining it."""
    for klass in getattr(cls, "__mro__", (cls,)):
        path, node = _class_node(klass) if klass is not object else (None, None)
        if node is None:
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
                return path, stmt
    return None, None


def _strip(tp):
    """Annotated[X, ...] -> X; and the NewType / TypeAliasType layers."""
    while True:
        if typing.get_origin(tp) is getattr(typing, "Annotated", None) is not None:
            tp = typing.get_args(tp)[0]
        elif hasattr(tp, "__supertype__"):
            tp = tp.__supertype__
        elif type(tp).__name__ == "TypeAliasType" and hasattr(tp, "__value__"):
            tp = tp.__value__
        else:
            return tp


def _is_union(tp):
    origin = typing.get_origin(tp)
    return origin is typing.Union or (origin is not None and getattr(origin, "__name__", "") == "UnionType") \
        or type(tp).__name__ == "UnionType"


def model_kind(tp):
    if not isinstance(tp, type):
        return None
    if hasattr(tp, "model_fields") or hasattr(tp, "__fields__") and hasattr(tp, "schema"):
        return "pydantic"
    if dataclasses.is_dataclass(tp):
        return "dataclass"
    if hasattr(tp, "__required_keys__") and hasattr(tp, "__annotations__"):
        return "typeddict"
    return None


def model_fields(cls):
    """[(schema property names it may have, attribute name, type)] of a model class: a pydantic
    field is named by its alias in an input schema and its serialization alias in an output one."""
    kind = model_kind(cls)
    if kind == "pydantic":
        fields = getattr(cls, "model_fields", None) or getattr(cls, "__fields__", {})
        out = []
        for name, info in fields.items():
            names = [a for a in (getattr(info, "alias", None), getattr(info, "serialization_alias", None)) if a]
            out.append((names + [name], name, getattr(info, "annotation", None) or getattr(info, "outer_type_", None)))
        return out
    if kind == "dataclass":
        hints = _hints(cls)
        return [([f.name], f.name, hints.get(f.name, f.type)) for f in dataclasses.fields(cls)]
    if kind == "typeddict":
        return [([k], k, v) for k, v in _hints(cls).items()]
    return []


def _hints(obj):
    try:
        return typing.get_type_hints(obj, include_extras=True)
    except Exception:
        return {}


class Mapper:
    """Walks a generated schema alongside the Python type it came from and records, per
    schema path, the source of each model field; ``$defs`` entries are mapped once, through
    the first reference to them."""

    def __init__(self, slot_schema, slot):
        self.root = slot_schema if isinstance(slot_schema, dict) else {}
        self.slot = slot
        self.out = {}
        self.defs_done = set()
        self.classes = {}  # json path of an object schema -> [file, line, col, "ClassName kind"]

    def put(self, path, loc):
        key = json.dumps(path)
        if key not in self.out and loc is not None:
            self.out[key] = loc

    def walk(self, schema, path, tp, depth=0):
        if not isinstance(schema, dict) or depth > 40:
            return
        tp = _strip(tp)
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/"):]
            target = self.root.get("$defs", {}).get(name)
            if name not in self.defs_done and isinstance(target, dict):
                self.defs_done.add(name)
                where = [self.slot, "$defs", name]
                cls = tp if model_kind(tp) else None
                if cls is not None:
                    path_, node = _class_node(cls)
                    if node is not None:
                        self.put(where, _loc(path_, node, "class " + cls.__name__))
                self.walk(target, where, tp, depth + 1)
            return
        if _is_union(tp):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            for key in ("anyOf", "oneOf"):
                branches = schema.get(key)
                if isinstance(branches, list):
                    live = [(i, b) for i, b in enumerate(branches) if not (isinstance(b, dict) and b.get("type") == "null")]
                    for (i, branch), arg in zip(live, args):
                        self.walk(branch, path + [key, i], arg, depth + 1)
                    return
            if len(args) == 1:
                self.walk(schema, path, args[0], depth + 1)
            return
        kind = model_kind(tp)
        props = schema.get("properties")
        if kind and isinstance(props, dict):
            cpath, cnode = _class_node(tp)
            if cnode is not None:
                self.classes.setdefault(json.dumps(path), _loc(cpath, cnode, f"{tp.__name__} {kind}"))
            for names, attr, ftp in model_fields(tp):
                prop = next((n for n in names if n in props), None)
                if prop is None:
                    continue
                fpath, node = _field_node(tp, attr)
                if node is not None:
                    self.put(path + ["properties", prop], _loc(fpath, node.target, f"field {tp.__name__}.{attr}"))
                self.walk(props[prop], path + ["properties", prop], ftp, depth + 1)
            return
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (list, set, frozenset, tuple) or getattr(origin, "__name__", "") in ("Sequence", "List", "Set"):
            if isinstance(schema.get("items"), dict) and args:
                self.walk(schema["items"], path + ["items"], args[0], depth + 1)
            elif isinstance(schema.get("prefixItems"), list):
                for i, (sub, arg) in enumerate(zip(schema["prefixItems"], args)):
                    self.walk(sub, path + ["prefixItems", i], arg, depth + 1)
        elif origin is dict or getattr(origin, "__name__", "") in ("Mapping", "Dict"):
            if isinstance(schema.get("additionalProperties"), dict) and len(args) == 2:
                self.walk(schema["additionalProperties"], path + ["additionalProperties"], args[1], depth + 1)


def _argument_names(fn, hints):
    """{schema property name: parameter name} for the parameters a pydantic ``Field(alias=...)``
    renames, in the annotation (``Annotated[int, Field(alias="maxResults")]``) or as the default
    (``= Field(alias=...)``): an input schema names the property by its validation alias, else alias."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
    out = {}
    for name, param in params.items():
        hint = hints.get(name)
        meta = list(typing.get_args(hint)[1:]) if typing.get_origin(hint) is getattr(typing, "Annotated", None) else []
        for info in (*meta, param.default):
            if type(info).__name__ != "FieldInfo":
                continue
            alias = getattr(info, "validation_alias", None)
            alias = alias if isinstance(alias, str) else getattr(info, "alias", None)
            if isinstance(alias, str) and alias != name:
                out[alias] = name
    return out


def map_tool(tool, fn):
    """{json path: location} for one tool whose Python function is known."""
    path, node = _function_node(fn)
    if node is None:
        return {}, {}
    out = {json.dumps([]): _loc(path, node, f"function {fn.__name__}")}
    hints = _hints(fn)
    args = {a.arg: a for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
    classes = {}
    schema = tool.get("inputSchema")
    if isinstance(schema, dict):
        out[json.dumps(["inputSchema"])] = out[json.dumps([])]
        mapper = Mapper(schema, "inputSchema")
        named = _argument_names(fn, hints)
        for prop, sub in (schema.get("properties") or {}).items():
            param = named.get(prop, prop)
            arg = args.get(param)
            if arg is not None:
                mapper.put(["inputSchema", "properties", prop], _loc(path, arg, f"argument {param}"))
                mapper.walk(sub, ["inputSchema", "properties", prop], hints.get(param))
        out.update(mapper.out)
        classes.update(mapper.classes)
    schema = tool.get("outputSchema")
    if isinstance(schema, dict) and node.returns is not None:
        ret = hints.get("return")
        mapper = Mapper(schema, "outputSchema")
        mapper.put(["outputSchema"], _loc(path, node.returns, "return annotation"))
        props = schema.get("properties") or {}
        wrapped = list(props) == ["result"] and not model_kind(_strip(ret))
        if wrapped:  # a non-object result, wrapped by the SDK as {"result": ...}
            mapper.put(["outputSchema", "properties", "result"], _loc(path, node.returns, "return annotation"))
            mapper.walk(props["result"], ["outputSchema", "properties", "result"], ret)
        else:
            mapper.walk(schema, ["outputSchema"], ret)
        out.update(mapper.out)
        classes.update(mapper.classes)
    return out, classes


def _assignment(path, var, obj):
    """Where the module assigns the server to ``var``: the statement that calls its class
    (``mcp = FastMCP(...)``) when there are several, else the first."""
    tree = _tree(path)
    if tree is None:
        return None
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(t, ast.Name) and t.id == var for t in targets):
            found.append(node)
    cls = type(obj).__name__
    for node in sorted(found, key=lambda n: n.lineno):
        call = node.value
        func = getattr(call, "func", None)
        if isinstance(call, ast.Call) and (getattr(func, "id", None) == cls or getattr(func, "attr", None) == cls):
            return _loc(path, node, f"server {var}")
    return _loc(path, found[0], f"server {var}") if found else None


async def describe(servers, path):
    out = []
    for var, obj, kind, at in servers:
        entry = {"var": var, "kind": kind, "at": at, "tools": [], "locations": [], "models": [],
                 "generator": "pydantic" if kind != "lowlevel" else None}
        try:
            listed = await _list(obj, kind)
        except ToolUnlisted as e:
            e.fn = _fn_for(obj, e.item, e.name) if e.item is not None else None
            raise
        for wire, item in listed:
            name = wire.get("name") if isinstance(wire, dict) else None
            fn = _fn_for(obj, item, name) if item is not None else None
            locs, classes = map_tool(wire, fn) if fn is not None else ({}, {})  # none: placed by name
            meta = wire.get("_meta") if isinstance(wire, dict) else None
            if kind == "fastmcp" and isinstance(meta, dict) and "_fastmcp" in meta and at:
                locs[json.dumps(["_meta", "_fastmcp"])] = [*at[:3], at[3] + " (fastmcp adds _meta._fastmcp)"]
            entry["tools"].append(wire)
            entry["locations"].append(locs)
            entry["models"].append(classes)
        out.append(entry)
    return out


async def load(module, path, name):
    """The servers to list: the one ``name`` names, else every module-level server object."""
    if name:
        server, at = await named_server(module, path, name)
        servers = [(name, server, server_kind(server), at)]
    else:
        servers = [(var, obj, kind, _assignment(path, var, obj)) for var, obj, kind in find_servers(module)]
    return await describe(servers, path)


def _failure(kind, e, target, **extra):
    frames = user_frames(e.__traceback__)
    here = next((f for f in reversed(frames) if os.path.abspath(f.filename) == target), None)
    return {"ok": False, "kind": kind, "exception": type(e).__name__, "message": str(e),
            "line": here.lineno if here else None, **extra,
            "traceback": "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
            + "".join(traceback.format_exception_only(type(e), e))}


def sdk_versions():
    from importlib import metadata

    return {(d.metadata["Name"] or "").lower(): d.version for d in metadata.distributions()
            if (d.metadata["Name"] or "").lower() in SDK_ROOTS}


def main(argv):
    target, result_file = os.path.abspath(argv[1]), argv[2]
    if len(argv) > 3 and argv[3]:  # a hanging import: print where every thread is, then stop
        import faulthandler

        faulthandler.dump_traceback_later(float(argv[3]), exit=True)
    name = argv[4] if len(argv) > 4 and argv[4] else None

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
    if not any(m == root or m.startswith(root + ".") for m in list(sys.modules) for root in SDK_ROOTS):
        done({"ok": False, "kind": "no-sdk-import", "message": "the module imports no MCP SDK (mcp or fastmcp)"})
        return
    try:
        servers = asyncio.run(load(module, target, name))
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
    done({"ok": True, "servers": servers, "python": sys.version.split()[0]})


if __name__ == "__main__":
    main(sys.argv)
