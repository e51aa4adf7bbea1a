"""Stage 2, collect: a Document -> the tools it declares and their schema slots.

Recognised shapes (the first that fits wins; none fitting is a located error):

* a JSON-RPC response whose ``result`` holds ``tools``
* a ``tools/list`` result: ``{"tools": [...], "nextCursor"?: ...}``
* an MCP Description document: ``{"mcpdesc": ..., "protocolVersions": [...], "tools": [...]}``;
  each declaration's own ``protocolVersions`` scope narrows the versions it is checked for
* a bare array of Tools
* a single Tool
* an MCP Registry ``server.json`` manifest (shape ``server-json``, no tools: the REG rules
  check it, see :func:`is_server_json`)
* an MCP client's configuration (shape ``client-config``, no tools: the CFG rules check it;
  the client is told as ``probe --from`` tells it, :func:`mcplint.clientconfig.config_client`)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .errors import InputError
from .model import ROOT, Document, Fix, Pointer, Severity, Tool
from .versions import ALL, LATEST, TOOL_MEMBERS, ordered, spelled

EXPECTED = ("a tools/list result {\"tools\": [...]}, a JSON-RPC response carrying one, an array of Tools, "
            "one Tool, or an MCP Description document")

TOOL_HINT_KEYS = ("inputSchema", "outputSchema", "annotations", "description")


@dataclass
class Collection:
    doc: Document
    # "jsonrpc" | "tools-list" | "mcpdesc" | "array" | "tool" | "server-json" | "client-config"
    # | "no-result" (a probe that got none)
    shape: str
    tools: list[Tool]
    versions: tuple[str, ...]  # versions the document as a whole is checked for
    container: Pointer = ROOT  # pointer of the object holding "tools" (or of the array)
    notes: list = field(default_factory=list)  # what the run's report says about this document
    probe: Any = None  # a probe capture's transcripts {version: transcript} (mcplint.capture)
    capture_versions: tuple[str, ...] = ()  # every version that got this capture's tools/list result
    # a probe's capture: the server's name in the client's configuration (``serverName``, which
    # ``probe --from`` records): clients that show the model their own names for its tools put it in them
    server_name: str | None = None
    # For a document that names no protocol version, none having been chosen: the versions its
    # content is consistent with (what it is checked for), and why, in words (see assume_versions).
    assumed: tuple[str, ...] = ()
    assumed_why: str = ""
    client: str | None = None  # shape "client-config": the client the configuration belongs to (clientconfig)
    redact: tuple = ()  # shape "client-config": the literal secrets it holds, never shown in a code frame


_CALL_RESULT_HINT = "; check a result against its tool with `mcplint validate TOOLS --result FILE`"


def _is_call_result(data) -> bool:
    return isinstance(data, dict) and isinstance(data.get("content"), list) and "name" not in data


def _json_kind(value) -> str:
    """A value's JSON type in words ("an object", "null"), never a Python type name."""
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), "a value of an unknown type")


def input_error(doc: Document, ptr: Pointer, message: str) -> InputError:
    """An :class:`InputError` located at ``ptr`` of ``doc``, naming the document shapes read."""
    span = doc.locate(ptr)
    return InputError(message, origin=doc.source.origin, line=span.line if span else None,
                      col=span.col if span else None, expected=EXPECTED)


def is_jsonrpc_response(data) -> bool:
    """A JSON-RPC response (its result, or its error): collected as one before anything else."""
    return isinstance(data, dict) and "jsonrpc" in data and ("result" in data or "error" in data)


def may_be_client_config(data) -> bool:
    """Whether ``data`` has none of the shapes tried before an MCP client's configuration (a
    JSON-RPC response, an MCP Description document, a tools/list result, an array of Tools)."""
    if isinstance(data, dict):
        return not is_jsonrpc_response(data) and "mcpdesc" not in data and "tools" not in data
    return not isinstance(data, list)


def collect(doc: Document, versions: tuple[str, ...]) -> Collection:
    data = doc.data
    if is_jsonrpc_response(data):
        if "error" in data and "result" not in data:
            err = data["error"] if isinstance(data["error"], dict) else {}
            raise input_error(doc, ROOT / "error",
                        f"this is a JSON-RPC error response (code {err.get('code')!r}: {err.get('message')!r}), "
                        "not a tools/list result")
        result = data["result"]
        if not (isinstance(result, dict) and "tools" in result):
            if _is_call_result(result):
                raise input_error(doc, ROOT / "result", "this JSON-RPC response carries a tools/call result "
                            "(CallToolResult), not tool definitions" + _CALL_RESULT_HINT)
            raise input_error(doc, ROOT / "result", "JSON-RPC response whose result holds no \"tools\"")
        return read_tools_list(doc, ROOT / "result", result, "jsonrpc", versions)
    if is_server_json(doc, data):
        return manifest_collection(doc, versions)
    if isinstance(data, dict) and "mcpdesc" in data:
        return _mcpdesc(doc, data, versions)
    if isinstance(data, dict) and "tools" in data:
        return read_tools_list(doc, ROOT, data, "tools-list", versions)
    if isinstance(data, list):
        if not data:
            raise input_error(doc, ROOT, "empty array: no tools to check")
        tools = [Tool(doc, ROOT / i, t, versions, i) for i, t in enumerate(data)]
        return Collection(doc, "array", tools, versions, ROOT)
    client = client_of(doc)
    if client is not None:
        return client_collection(doc, client, versions)
    if isinstance(data, dict) and isinstance(data.get("name"), str) and any(k in data for k in TOOL_HINT_KEYS):
        return Collection(doc, "tool", [Tool(doc, ROOT, data, versions, 0)], versions, ROOT)
    if _is_call_result(data):
        raise input_error(doc, ROOT, "this is a tools/call result (CallToolResult), not tool definitions"
                    + _CALL_RESULT_HINT)
    if isinstance(data, dict):
        kind = ("an object with keys " + ", ".join(repr(k) for k in list(data)[:5])
                + (", ..." if len(data) > 5 else "")) if data else "an empty object"
    else:
        kind = _json_kind(data)
    raise input_error(doc, ROOT, f"unrecognised document shape: found {kind}")


def is_server_json(doc: Document, data) -> bool:
    """Is this an MCP Registry server.json manifest? Its ``$schema`` names a server.json schema
    on modelcontextprotocol.io (whatever else it holds), or, holding none of a tools document's
    members, it has a namespaced ``name`` ("ns/name") and ``packages`` or ``remotes``, or it is a
    file named ``server.json`` whose object has a ``name`` (and no Tool ``annotations``)."""
    if not isinstance(data, dict):
        return False
    schema = data.get("$schema")
    if isinstance(schema, str) and "modelcontextprotocol.io" in schema and "server.schema" in schema:
        return True
    if any(k in data for k in ("tools", "mcpdesc", "inputSchema", "outputSchema")):
        return False
    name = data.get("name")
    if isinstance(name, str) and "/" in name and isinstance(data.get("packages", data.get("remotes")), list):
        return True
    base = doc.source.origin.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return base == "server.json" and "name" in data and "annotations" not in data


def manifest_collection(doc: Document, versions: tuple[str, ...]) -> Collection:
    """An MCP Registry server.json manifest's collection (:func:`is_server_json`): no tools, the REG rules check it."""
    return Collection(doc, "server-json", [], versions, ROOT)


def client_of(doc: Document) -> str | None:
    """The client whose MCP configuration ``doc`` is, told as ``probe --from`` tells it; None: not one."""
    from .clientconfig import config_client

    return config_client(doc.source.origin, doc.data)


def client_collection(doc: Document, client: str, versions: tuple[str, ...]) -> Collection:
    """The collection of ``client``'s configuration (no tools: the CFG rules check it). Its
    literal secrets are kept from the text report's code frames (``redact``), and a note says
    where its servers' tools are linted."""
    from .clientconfig import describe, secret_values, server_entries

    origin, data = doc.source.origin, doc.data
    coll = Collection(doc, "client-config", [], versions, ROOT, client=client)
    if any(server_entries(client, data)):
        coll.redact = tuple(v for _, _, v in secret_values(client, data))
        coll.notes.append(f"{origin} is a {describe(client)} MCP configuration, checked by the CFG rules; "
                          f"to lint its servers' tools, run `mcplint probe --from {origin}`")
    return coll


def read_tools_list(doc: Document, ptr: Pointer, result: dict, shape: str, versions) -> Collection:
    """The :class:`Collection` of a tools/list ``result`` found at ``ptr`` of ``doc`` (``shape``
    names the document's form; ``versions``: the protocol versions it is read under)."""
    tools = result["tools"]
    if not isinstance(tools, list):
        raise input_error(doc, ptr / "tools", f"\"tools\" must be an array, found {_json_kind(tools)}")
    items = [Tool(doc, ptr / "tools" / i, t, versions, i) for i, t in enumerate(tools)]
    return Collection(doc, shape, items, versions, ptr)


def _scope(value) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _mcpdesc(doc: Document, data: dict, cli_versions) -> Collection:
    root_scope = _scope(data.get("protocolVersions"))
    if root_scope is None:
        raise input_error(doc, ROOT / "protocolVersions",
                    "MCP Description document needs a root \"protocolVersions\" array of version strings")
    known_root = ordered(root_scope)
    if not known_root:
        raise input_error(doc, ROOT / "protocolVersions",
                    f"none of the root protocolVersions {list(root_scope)} is a protocol version mcplint knows")
    tools_data = data.get("tools", [])
    if not isinstance(tools_data, list):
        raise input_error(doc, ROOT / "tools", "\"tools\" must be an array")
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


# What in a tools/list result says it is a 2026-07-28 one: the members every 2026-07-28 Result
# (resultType) and list result (ttlMs, cacheScope) carries and no older version defines, and the
# server identity 2026-07-28 moved into the result's _meta (schema.ts ListToolsResult, CacheableResult,
# ResultMetaObject).
_MODERN_RESULT = ("resultType", "ttlMs", "cacheScope")
_MODERN_META = "io.modelcontextprotocol/serverInfo"


def assume_versions(coll: Collection) -> None:
    """Check a collection that names no protocol version (none chosen either) under every version
    its content is consistent with: a list result's 2026-07-28 members, a Tool member only some
    versions define (``execution``: 2025-11-25 only), ``x-mcp-header`` (2026-07-28 only). Each
    hint narrows the versions unless it contradicts those before it (the list result's first).
    Sets ``coll.assumed``/``assumed_why``, and the collection's and its tools'
    versions."""
    hints: list[tuple[frozenset, str]] = []
    result = list_result(coll)
    if result is not None:
        modern = [m for m in _MODERN_RESULT if m in result]
        meta = result.get("_meta")
        if isinstance(meta, dict) and _MODERN_META in meta:
            modern.append(f"_meta {_MODERN_META!r}")
        if modern:
            hints.append((frozenset({"2026-07-28"}), f"its tools/list result has {', '.join(modern)}"))
    members: dict[str, frozenset] = {}
    header = False
    for tool in coll.tools:
        if not isinstance(tool.data, dict):
            continue
        for key in tool.data:
            vs = TOOL_MEMBERS.get(key)
            if vs is not None and vs != ALL:
                members[key] = vs
        if not header and isinstance(tool.data.get("inputSchema"), dict):
            header = _mentions_header(tool.data["inputSchema"])
    if header:
        hints.append((frozenset({"2026-07-28"}), "its input schemas use x-mcp-header"))
    for key, vs in sorted(members.items(), key=lambda kv: (len(kv[1]), kv[0])):  # the narrowest first
        hints.append((vs, f"its tools have {key} ({_defined_in(vs)})"))
    versions, why = ALL, []
    for vs, words in hints:
        if versions & vs and not versions <= vs:
            versions &= vs
            why.append(words)
    coll.assumed = ordered(versions)
    coll.assumed_why = " and ".join(why)
    coll.versions = coll.assumed
    coll.tools = [replace(tool, versions=coll.assumed) for tool in coll.tools]


def _defined_in(vs: frozenset) -> str:
    """Which versions define a member, in words: "2025-11-25 only", "from 2025-06-18"."""
    kept = ordered(vs)
    if len(kept) == 1:
        return f"{kept[0]} only"
    return f"from {kept[0]}" if kept[-1] == LATEST else f"in {spelled(kept)}"


def list_result(coll: Collection) -> dict | None:
    """The tools/list result object a collection is (bare or in a JSON-RPC response), else None."""
    if coll.shape not in ("tools-list", "jsonrpc"):
        return None
    try:
        result = coll.container.resolve_in(coll.doc.data)
    except (KeyError, IndexError, TypeError):
        return None
    return result if isinstance(result, dict) else None


def _mentions_header(schema) -> bool:
    from .schemawalk import encoded, encoded_string

    blob = encoded(schema)
    return blob is not None and encoded_string("x-mcp-header") in blob


def only_under(severity: Severity, message, fix: Fix | None, vs: tuple, assumed: tuple) -> tuple:
    """(severity, message, fix) of a finding that holds under only the versions ``vs`` of those a
    file that names none may be for (``assumed``): one step less severe (it fails the run only
    where it holds under all of them), its message saying where it matters, and its fix in words
    only when the patch writes or removes a member that tells the versions apart (``--fix`` adding
    a 2026-07-28 ``resultType`` would make the file claim that version)."""
    if type(message) is not str:  # (a profile's words: profiles do not depend on the version)
        return severity, message, fix
    if fix is not None and any(str(op.get("path", "")).rsplit("/", 1)[-1] in _HINTS for op in fix.patch):
        fix = Fix(fix.title)
    return Severity(max(Severity.INFO, severity - 1)), (
        f"{message} (only under protocol {spelled(vs)}; the file names no version and may be for "
        f"{spelled(assumed)})"), fix


_HINTS = frozenset((*_MODERN_RESULT, "_meta", "x-mcp-header", *(k for k, vs in TOOL_MEMBERS.items() if vs != ALL)))
