"""MCP: tool names and declaration scopes (MCP119-MCP121): the name format from 2025-11-25,
names repeated in one document (overlapping ``protocolVersions`` scopes in an MCP Description
document), and declaration scopes outside the document's own."""

from __future__ import annotations

import re

from ...model import Severity
from ...registry import rule
from ...versions import VERSIONS, since
from .common import V2025_11, is_tool, kind


TOOL_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


@rule("MCP119", "tool-name-format", severity=Severity.WARNING, scope="tool", versions=since(V2025_11),
      fix="Use 1-128 characters from A-Z a-z 0-9 _ - . only")
def tool_name_format(tool, ctx):
    """A tool name breaks the 2025-11-25 naming rules.

    ## What it does
    Reports a tool `name` that is empty, longer than 128 characters, or contains
    anything but ASCII letters, digits, `_`, `-` and `.` (spaces, `/`, `:`, non-ASCII).

    ## Why is this bad?
    From 2025-11-25 tool names SHOULD match `^[A-Za-z0-9_.-]{1,128}$`. Clients and model
    providers use the name as a function identifier; many reject or rewrite names with
    other characters (so the model calls a name the server does not know), and on
    Streamable HTTP a non-token name has to be Base64-encoded in `Mcp-Name`.

    ## Example
    ```json
    {"name": "get weather", "inputSchema": {"type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "get_weather", "inputSchema": {"type": "object"}}
    ```

    ## References
    MCP 2025-11-25/2026-07-28 server/tools.mdx "Tool Names" (SEP-986 as adopted: 1-128 characters, no `/`).
    """
    if not is_tool(tool) or not isinstance(tool.data.get("name"), str):
        return
    name = tool.data["name"]
    if TOOL_NAME_RE.match(name):
        return
    if not name:
        why = "is empty"
    elif len(name) > 128:
        why = f"is {len(name)} characters long (at most 128)"
    else:
        bad = sorted({c for c in name if not re.match(r"[A-Za-z0-9_.-]", c)})
        why = "contains " + ", ".join(repr(c) for c in bad)
    yield ctx.finding(tool.pointer / "name", f"tool name {name!r} {why}; names SHOULD be 1-128 characters of "
                                             "A-Z a-z 0-9 _ - . and clients may reject or rewrite it")


@rule("MCP120", "duplicate-tool-name", severity=Severity.WARNING, scope="document",
      fix="Give every tool a unique name (in an MCP Description document, give same-name tools disjoint "
          "protocolVersions)")
def duplicate_tool_name(collection, ctx):
    """Two tools share a name.

    ## What it does
    Reports a tool whose `name` repeats an earlier tool's name in the same document
    (a warning); for a Python module that defines several servers, in the same server. In an MCP Description document, two same-name declarations whose
    protocol scopes overlap are an error; same-name declarations with disjoint scopes
    (variants per version) are fine.

    ## Why is this bad?
    A tool is identified by its name: a client calling `search` gets one of the two,
    usually the last listed, so the other is unreachable. MCP says names SHOULD be
    unique within a server; MCP Description requires same-name declarations to have
    pairwise-disjoint scopes so that each version has exactly one.

    ## Example
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object"}},
               {"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"tools": [{"name": "search_web", "inputSchema": {"type": "object"}},
               {"name": "search_docs", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2025-11-25 server/tools.mdx "Tool Names": names SHOULD be unique within a server;
    MCP Description 0.8.0 (same-name Tools need pairwise-disjoint scopes; validator code
    `primitive-scope-overlap`).
    """
    seen: dict[tuple, list] = {}
    # a Python module's several servers (each its own tools/list) share one array: compare within each
    servers = collection.doc.code.tool_servers if collection.doc.code is not None else ()
    for tool in collection.tools:
        name = tool.name
        if name is None:
            continue
        earlier = seen.setdefault((servers[tool.index] if tool.index < len(servers) else None, name), [])
        if collection.shape == "mcpdesc":
            clash = next((t for t in earlier if set(t.versions) & set(tool.versions)), None)
            if clash is not None:
                common = ", ".join(v for v in VERSIONS if v in set(clash.versions) & set(tool.versions))
                yield ctx.finding(tool.pointer / "name", f"tool {name!r} is declared again for protocol versions "
                                                         f"{common} (first at {clash.pointer}); same-name "
                                                         "declarations must have disjoint protocolVersions",
                                  severity=Severity.ERROR)
        elif earlier:
            yield ctx.finding(tool.pointer / "name", f"tool name {name!r} is used again (first at "
                                                     f"{earlier[0].pointer}); clients can reach only one of them")
        earlier.append(tool)


@rule("MCP121", "protocol-scope-outside-root", severity=Severity.ERROR, scope="document",
      fix="List only versions that the root protocolVersions contains (or omit the scope to inherit it)")
def protocol_scope_outside_root(collection, ctx):
    """An MCP Description declaration's `protocolVersions` is not a subset of the root's.

    ## What it does
    In an MCP Description document, reports a Tool declaration whose `protocolVersions`
    names a version the root `protocolVersions` does not list, is empty, or is not an
    array of version strings.

    ## Why is this bad?
    An explicit scope must be a non-empty subset of its parent's scope. A version outside
    the root is a version the document does not describe, so that part of the scope is
    silently ignored; an empty or malformed scope leaves the declaration in no version
    or makes it inherit everything by accident.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "lookup", "protocolVersions": ["2025-11-25", "2026-07-28"],
                "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "lookup", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP Description validation guide, "Use protocolVersions scopes": an explicit scope must be a non-empty subset of its
    parent scope; MCP Description validator code `protocol-scope-outside-parent` (error).
    """
    if collection.shape != "mcpdesc":
        return
    root = collection.doc.data.get("protocolVersions")
    root_set = set(root) if isinstance(root, list) else set()
    for tool in collection.tools:
        if not isinstance(tool.data, dict) or "protocolVersions" not in tool.data:
            continue
        scope = tool.data["protocolVersions"]
        ptr = tool.pointer / "protocolVersions"
        if not (isinstance(scope, list) and all(isinstance(v, str) for v in scope)):
            yield ctx.finding(ptr, f"protocolVersions is {kind(scope)}; a scope must be an array of protocol "
                                   "version strings")
        elif not scope:
            yield ctx.finding(ptr, "protocolVersions is empty, so this declaration applies to no version; omit it to "
                                   "inherit the root scope")
        else:
            for j, v in enumerate(scope):
                if v not in root_set:
                    yield ctx.finding(ptr / j, f"{v!r} is not in the root protocolVersions {sorted(root_set)}; a "
                                               "declaration's scope must be a subset of its parent's")
