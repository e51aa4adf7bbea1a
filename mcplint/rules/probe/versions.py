"""PRB: what differs between the protocol versions a server was probed under."""

from __future__ import annotations

from ...model import Pointer, Severity
from ...registry import rule
from ...probe.transcript import page_tools
from .common import transcript_of


@rule("PRB102", "tool-missing-in-version", severity=Severity.WARNING, scope="document", per_version=True,
      fix="List the same tools under every protocol version, unless the tool truly depends on a newer revision")
def tool_missing_in_version(collection, ctx):
    """A tool is listed under one protocol version and not under another.

    ## What it does
    Compares the tool names the server listed under each protocol version it supports and
    reports every tool that is missing under some of them.

    ## Why is this bad?
    The tools a client sees should not depend on which revision it happens to negotiate.
    A tool that appears only for new clients (or only for old ones) is often an accident
    of a version-gated code path: users of the other clients silently lose it, and tests
    run with one client do not cover what another gets.

    ## Example
    ```json
    {"otherVersions": {"2025-06-18": ["search"]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}},
       {"name": "beta", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"otherVersions": {"2025-06-18": ["search", "beta"]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}},
       {"name": "beta", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    MCP lifecycle, version negotiation (each revision); MCP 2026-07-28 tools: the list MUST
    NOT vary per connection. Issue "mcplint probe": report tools that appear in one version
    and not another.
    """
    t = transcript_of(collection, ctx)
    if not t:
        return
    others = t.get("otherVersions") or {}
    listed = {v: {n for n in names if isinstance(n, str)} for v, names in others.items() if isinstance(names, list)}
    for i, _, tool in page_tools(t):  # (sets, not lists: 100,000 tools in each version is one pass)
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        missing = sorted(v for v, names in listed.items() if name not in names)
        if missing:
            yield ctx.finding(Pointer(("tools", i, "name")),
                              f"tool {name!r} is not listed under {', '.join(missing)}: clients that negotiate "
                              f"{'that revision' if len(missing) == 1 else 'those revisions'} never see it")
