"""Where a low-level server's tool is written in the module, found by reading its source: the
``Tool(name="x", input_schema={...})`` call (or ``{"name": "x", "inputSchema": {...}}`` dict)
that defines it, and in a schema written as a literal, the key of each part. The SDK keeps no
link from a listed tool back to the code, so every place found here is best effort."""

from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

# a Tool's schema slots as the SDKs spell their arguments (mcp 1: inputSchema; mcp 2: input_schema)
SLOTS = {"inputSchema": "inputSchema", "input_schema": "inputSchema",
         "outputSchema": "outputSchema", "output_schema": "outputSchema"}
BEST = " (best effort)"


def parse_file(path: str):
    """The module's syntax tree (None: unreadable or not Python), parsed once per version of the
    file: the cache is keyed by its size and time too, so a file edited in a long-lived process (a
    test, an editor's run) is read again."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return _parsed(path, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _parsed(path: str, size: int, mtime_ns: int):
    try:
        return ast.parse(Path(path).read_text(encoding="utf-8"), path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def _definition(tree, name: str):
    """(the string node naming the tool, the call or dict holding it): ``name="x"`` in a call
    first, then ``"name": "x"`` in a dict, then a call's first argument, then anywhere (a
    handler's ``if name == "x"``); the earliest of a kind."""
    found = []
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, ast.Call):
            pairs += [(0, k.value) for k in node.keywords if k.arg == "name"] + [(2, a) for a in node.args[:1]]
        elif isinstance(node, ast.Dict):
            pairs += [(1, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "name"]
        elif isinstance(node, ast.Constant):
            pairs.append((3, node))
        found += [(rank, v.lineno, v.col_offset, v, node) for rank, v in pairs
                  if isinstance(v, ast.Constant) and v.value == name]
    return min(found, key=lambda t: t[:3])[3:] if found else (None, None)


def _assigned(tree, node):
    """A module-level ``NAME = {...}`` that a schema argument names, followed once."""
    if isinstance(node, ast.Name):
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
                    isinstance(t, ast.Name) and t.id == node.id for t in targets):
                return stmt.value
    return node


def _walk(node, path: list, out: dict, file: str, depth: int = 0) -> None:
    if depth > 64:
        return
    if isinstance(node, ast.Dict):
        for k, v in zip(node.keys, node.values):
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                out.setdefault(json.dumps(path + [k.value]), [file, k.lineno, k.col_offset + 1, f"key {k.value!r}" + BEST])
                _walk(v, path + [k.value], out, file, depth + 1)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for i, e in enumerate(node.elts):
            out.setdefault(json.dumps(path + [i]), [file, e.lineno, e.col_offset + 1, f"item {i}" + BEST])
            _walk(e, path + [i], out, file, depth + 1)


def tool_literal_sites(path: str, name: str) -> dict:
    """{json path inside the tool: [file, line, column, what]} for the tool ``name``: its
    definition, and each key of a schema written as a literal (or a module-level name bound to one)."""
    tree = parse_file(path)
    if tree is None:
        return {}
    at, holder = _definition(tree, name)
    if at is None:
        return {}
    out = {"[]": [path, at.lineno, at.col_offset + 1, "tool name" + BEST]}
    if isinstance(holder, ast.Call):
        slots = [(SLOTS[k.arg], k.value) for k in holder.keywords if k.arg in SLOTS]
    elif isinstance(holder, ast.Dict):
        slots = [(SLOTS[k.value], v) for k, v in zip(holder.keys, holder.values)
                 if isinstance(k, ast.Constant) and k.value in SLOTS]
    else:
        slots = []
    for slot, value in slots:
        value = _assigned(tree, value)
        out.setdefault(json.dumps([slot]), [path, value.lineno, value.col_offset + 1, slot + BEST])
        _walk(value, [slot], out, path)
    return out
