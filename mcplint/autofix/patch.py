"""RFC 6902 JSON Patch on plain data (the check every text edit is held against), and the
pieces the text editors share: resolving a patch path against the data, and turning an edited
text back into one minimal edit."""

from __future__ import annotations

import copy
from typing import Any

from ..model import Pointer


class PatchError(Exception):
    """A patch operation that cannot be applied (a path that does not exist, an unknown op)."""


class Split(Exception):
    """An operation an editor performs as several simpler ones (``ops``), one after another."""

    def __init__(self, ops: list):
        super().__init__("split")
        self.ops = ops


def resolve(path: str, data: Any) -> tuple:
    """A patch path as a pointer tuple whose array steps are ints (``-`` stays ``-``)."""
    try:
        ptr = Pointer.parse(path)
    except ValueError as e:
        raise PatchError(str(e)) from None
    out: list = []
    node = data
    for k, part in enumerate(ptr):
        if isinstance(node, list):
            if part == "-" and k == len(ptr) - 1:
                out.append("-")
                break
            if not (isinstance(part, str) and part.isdigit()):
                raise PatchError(f"{path}: {part!r} is not an array index")
            part = int(part)
            node = node[part] if part < len(node) else None
        elif isinstance(node, dict):
            node = node.get(part)
        else:
            raise PatchError(f"{path}: cannot descend into {type(node).__name__}")
        out.append(part)
    return tuple(out)


def get(data: Any, ptr: tuple) -> Any:
    node = data
    for part in ptr:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            raise PatchError(f"{str(Pointer(ptr)) or '/'} does not exist") from None
    return node


def _parent(data: Any, ptr: tuple):
    if not ptr:
        raise PatchError("the document root cannot be the target of this operation")
    parent = get(data, ptr[:-1])
    if not isinstance(parent, (dict, list)):
        raise PatchError(f"{str(Pointer(ptr[:-1])) or '/'} is not an object or array")
    return parent, ptr[-1]


def apply_op(data: Any, op: dict) -> Any:
    """Apply one operation in place (returns the new root, which changes only for the root)."""
    name = op.get("op")
    if name == "test":
        if get(data, resolve(op["path"], data)) != op.get("value"):
            raise PatchError(f"test failed at {op['path']}")
        return data
    if name in ("move", "copy"):
        value = copy.deepcopy(get(data, resolve(op["from"], data)))
        if name == "move":
            data = apply_op(data, {"op": "remove", "path": op["from"]})
        return apply_op(data, {"op": "add", "path": op["path"], "value": value})
    ptr = resolve(op["path"], data)
    if name == "replace":
        get(data, ptr)
        if not ptr:
            return copy.deepcopy(op["value"])
        parent, key = _parent(data, ptr)
        parent[key] = copy.deepcopy(op["value"])
        return data
    if name == "remove":
        get(data, ptr)
        parent, key = _parent(data, ptr)
        del parent[key]
        return data
    if name == "add":
        if not ptr:
            return copy.deepcopy(op["value"])
        parent, key = _parent(data, ptr)
        value = copy.deepcopy(op["value"])
        if isinstance(parent, list):
            if key == "-":
                parent.append(value)
            elif isinstance(key, int) and key <= len(parent):
                parent.insert(key, value)
            else:
                raise PatchError(f"{op['path']}: index out of range")
        else:
            parent[key] = value
        return data
    raise PatchError(f"unknown patch operation {name!r}")


def apply_patch(data: Any, patch) -> Any:
    """A patched deep copy of ``data`` (raises PatchError)."""
    out = copy.deepcopy(data)
    for op in patch:
        out = apply_op(out, op)
    return out


def minimal_edit(old: str, new: str) -> tuple[int, int, str]:
    """The one edit (start, end, replacement) that turns ``old`` into ``new``: the text between
    their common prefix and common suffix."""
    n = min(len(old), len(new))
    start = 0
    while start < n and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old, new[start:end_new]


def splice(text: str, edits) -> str:
    """Apply non-overlapping edits (start, end, replacement), given in any order."""
    out, pos = [], 0
    for start, end, repl in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[pos:start])
        out.append(repl)
        pos = end
    out.append(text[pos:])
    return "".join(out)
