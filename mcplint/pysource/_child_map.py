"""The first part of the program mcplint runs inside the MCP server's own interpreter (the second
is ``_child.py``, which says how it is run): where in the server's source each part of a tool's
schema comes from, by walking the generated schema beside the Python types it was made from.
Standard library only."""

import ast
import dataclasses
import inspect
import json
import linecache
import typing
from types import SimpleNamespace

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


# Calls that register a function as a tool and may give its description: ``mcp.add_tool(fn, ...)``,
# ``Tool.from_function(fn, ...)`` (the SDKs' and fastmcp's), ``mcp.tool(fn, ...)`` (fastmcp).
REGISTERING = frozenset({"add_tool", "from_function", "tool"})


_CALLS: dict = {}


def _registering_calls(file, tree):
    """The calls of a module that may register a tool (:data:`REGISTERING`), found once per file."""
    if file not in _CALLS:
        _CALLS[file] = [c for c in ast.walk(tree) if isinstance(c, ast.Call)
                        and getattr(c.func, "attr", getattr(c.func, "id", None)) in REGISTERING]
    return _CALLS[file]


def _registers(call, fn_name, tool_name):
    """Whether ``call`` registers the function ``fn_name`` (its first argument, by name or attribute)
    as the tool ``tool_name`` (a ``name=`` given as a literal must be it)."""
    if getattr(call.func, "attr", getattr(call.func, "id", None)) not in REGISTERING or not call.args:
        return False
    first = call.args[0]
    if getattr(first, "id", getattr(first, "attr", None)) != fn_name:
        return False
    named = next((kw.value for kw in call.keywords if kw.arg == "name"), None)
    return not (isinstance(named, ast.Constant) and named.value != tool_name)


def _registrations(tool, node, trees):
    """[(call, file)]: the decorators of the function ``node`` that are calls, then the calls in
    ``trees`` (the function's file first, then the server's module) that register it as ``tool``."""
    calls = [(d, trees[0][0]) for d in node.decorator_list if isinstance(d, ast.Call)]
    for file, tree in trees:
        calls += [(c, file) for c in _registering_calls(file, tree) if _registers(c, node.name, tool.get("name"))]
    return calls


def _keyword(call, arg: str, sent):
    """The value node of ``call``'s keyword ``arg`` when it may be what the tool sends (``sent``): any
    expression, or a literal equal to it; else None."""
    for kw in call.keywords:
        if kw.arg == arg and (not isinstance(kw.value, ast.Constant) or kw.value.value == sent):
            return kw.value
    return None


def _description_node(tool, node, trees):
    """(node, what, file) where the tool's description is written: the ``description=`` of the
    decorator that registered the function or of a call that registers it (in the function's file or
    the server's module), else its docstring when the description is that docstring (the SDKs send
    ``fn.__doc__`` or ``inspect.getdoc(fn)``); None when none of them says it."""
    text = tool.get("description")
    if not isinstance(text, str):
        return None
    for call, file in _registrations(tool, node, trees):
        value = _keyword(call, "description", text)
        if value is not None:
            return value, f"description {node.name}", file
    doc = ast.get_docstring(node, clean=True)
    if doc is not None and node.body and inspect.cleandoc(text) == doc:
        return node.body[0], f"docstring {node.name}", trees[0][0]
    return None


def _name_node(tool, node, trees):
    """(node, what, file) where the tool's name is written: the ``name=`` (or first positional
    string) of the decorator that registered the function, or the ``name=`` of a call that
    registers it; else the function's own name in its ``def``, when the tool is named after it
    (the SDKs' default); None when none of them says it."""
    name = tool.get("name")
    if not isinstance(name, str):
        return None
    for call, file in _registrations(tool, node, trees):
        value = _keyword(call, "name", name)
        if value is not None:
            return value, f"name {node.name}", file
        first = call.args[0] if call.args else None
        if call in node.decorator_list and isinstance(first, ast.Constant) and first.value == name:
            return first, f"named {node.name}", file  # (a positional name: fastmcp's @mcp.tool("x"))
    if name == node.name:
        text = linecache.getline(trees[0][0], node.lineno)
        col = text.find(name, text.find("def ") + 4) if "def " in text else -1
        if col >= 0:
            return SimpleNamespace(lineno=node.lineno, col_offset=col), f"function {node.name}", trees[0][0]
    return None


def map_tool(tool, fn, module=None):
    """{json path: location} for one tool whose Python function is known (``module``: the server's
    file, where a call may register a function defined elsewhere)."""
    path, node = _function_node(fn)
    if node is None:
        return {}, {}
    out = {json.dumps([]): _loc(path, node, f"function {fn.__name__}")}
    trees = [(f, _tree(f)) for f in dict.fromkeys(filter(None, (path, module)))]
    parsed = [(f, t) for f, t in trees if t is not None]
    described = _description_node(tool, node, parsed)
    if described is not None:
        value, what, file = described
        out[json.dumps(["description"])] = _loc(file, value, what)
    named = _name_node(tool, node, parsed)
    if named is not None:
        value, what, file = named
        out[json.dumps(["name"])] = _loc(file, value, what)
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


