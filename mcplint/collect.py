"""Stage 2, collect: a Document -> the tools it declares and their schema slots.

Recognised shapes (the first that fits wins; none fitting is a located error):

* a JSON-RPC response whose ``result`` holds ``tools``
* a ``tools/list`` result: ``{"tools": [...], "nextCursor"?: ...}``
* an MCP Description document: ``{"mcpdesc": ..., "protocolVersions": [...], "tools": [...]}``;
  each declaration's own ``protocolVersions`` scope narrows the versions it is checked for
* a bare array of Tools
* a single Tool
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InputError
from .model import ROOT, Document, Pointer, Tool
from .versions import ordered

EXPECTED = ("a tools/list result {\"tools\": [...]}, a JSON-RPC response carrying one, an array of Tools, "
            "one Tool, or an MCP Description document")

TOOL_HINT_KEYS = ("inputSchema", "outputSchema", "annotations", "description")


@dataclass
class Collection:
    doc: Document
    shape: str  # "jsonrpc" | "tools-list" | "mcpdesc" | "array" | "tool"
    tools: list[Tool]
    versions: tuple[str, ...]  # versions the document as a whole is checked for
    container: Pointer = ROOT  # pointer of the object holding "tools" (or of the array)
    notes: list = field(default_factory=list)


_CALL_RESULT_HINT = "; check a result against its tool with `mcplint validate TOOLS --result FILE`"


def _is_call_result(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("content"), list) and "name" not in data


def _json_kind(value) -> str:
    """A value's JSON type in words ("an object", "null"), never a Python type name."""
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), "a value of an unknown type")


def _fail(doc: Document, ptr: Pointer, message: str) -> InputError:
    span = doc.locate(ptr)
    return InputError(message, origin=doc.source.origin, line=span.line if span else None,
                      col=span.col if span else None, expected=EXPECTED)


def collect(doc: Document, versions: tuple[str, ...]) -> Collection:
    data = doc.data
    if isinstance(data, dict) and "jsonrpc" in data and ("result" in data or "error" in data):
        if "error" in data and "result" not in data:
            err = data["error"] if isinstance(data["error"], dict) else {}
            raise _fail(doc, ROOT / "error",
                        f"this is a JSON-RPC error response (code {err.get('code')!r}: {err.get('message')!r}), "
                        "not a tools/list result")
        result = data["result"]
        if not (isinstance(result, dict) and "tools" in result):
            if _is_call_result(result):
                raise _fail(doc, ROOT / "result", "this JSON-RPC response carries a tools/call result "
                            "(CallToolResult), not tool definitions" + _CALL_RESULT_HINT)
            raise _fail(doc, ROOT / "result", "JSON-RPC response whose result holds no \"tools\"")
        return _tools_list(doc, ROOT / "result", result, "jsonrpc", versions)
    if isinstance(data, dict) and "mcpdesc" in data:
        return _mcpdesc(doc, data, versions)
    if isinstance(data, dict) and "tools" in data:
        return _tools_list(doc, ROOT, data, "tools-list", versions)
    if isinstance(data, list):
        if not data:
            raise _fail(doc, ROOT, "empty array: no tools to check")
        tools = [Tool(doc, ROOT / i, t, versions, i) for i, t in enumerate(data)]
        return Collection(doc, "array", tools, versions, ROOT)
    if isinstance(data, dict) and isinstance(data.get("name"), str) and any(k in data for k in TOOL_HINT_KEYS):
        return Collection(doc, "tool", [Tool(doc, ROOT, data, versions, 0)], versions, ROOT)
    if _is_call_result(data):
        raise _fail(doc, ROOT, "this is a tools/call result (CallToolResult), not tool definitions"
                    + _CALL_RESULT_HINT)
    if isinstance(data, dict):
        kind = ("an object with keys " + ", ".join(repr(k) for k in list(data)[:5])
                + (", ..." if len(data) > 5 else "")) if data else "an empty object"
    else:
        kind = _json_kind(data)
    raise _fail(doc, ROOT, f"unrecognised document shape: found {kind}")


def _tools_list(doc: Document, ptr: Pointer, result: dict, shape: str, versions) -> Collection:
    tools = result["tools"]
    if not isinstance(tools, list):
        raise _fail(doc, ptr / "tools", f"\"tools\" must be an array, found {_json_kind(tools)}")
    items = [Tool(doc, ptr / "tools" / i, t, versions, i) for i, t in enumerate(tools)]
    return Collection(doc, shape, items, versions, ptr)


def _scope(value) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _mcpdesc(doc: Document, data: dict, cli_versions) -> Collection:
    root_scope = _scope(data.get("protocolVersions"))
    if root_scope is None:
        raise _fail(doc, ROOT / "protocolVersions",
                    "MCP Description document needs a root \"protocolVersions\" array of version strings")
    known_root = ordered(root_scope)
    if not known_root:
        raise _fail(doc, ROOT / "protocolVersions",
                    f"none of the root protocolVersions {list(root_scope)} is a protocol version mcplint knows")
    tools_data = data.get("tools", [])
    if not isinstance(tools_data, list):
        raise _fail(doc, ROOT / "tools", "\"tools\" must be an array")
    tools = []
    for i, t in enumerate(tools_data):
        scope = _scope(t.get("protocolVersions")) if isinstance(t, dict) else None
        # An omitted scope inherits the parent's; an explicit one narrows it (the MCP Description validation guide).
        eff = ordered(set(scope) & set(known_root)) if scope is not None else known_root
        ex = t.get("examples") if isinstance(t, dict) else None
        # mcpdesc: a map of named examples {name: {input, result}}; an array is accepted too.
        examples = tuple((ROOT / "tools" / i / "examples" / j, e) for j, e in
                         (ex.items() if isinstance(ex, dict) else enumerate(ex) if isinstance(ex, list) else ()))
        tools.append(Tool(doc, ROOT / "tools" / i, t, eff or (), i, examples, context="mcpdesc"))
    return Collection(doc, "mcpdesc", tools, known_root, ROOT)
