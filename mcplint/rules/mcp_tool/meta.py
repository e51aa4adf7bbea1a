"""MCP: the keys of a Tool's ``_meta`` (MCP126, MCP127, from 2025-06-18): the ``[prefix/]name``
grammar and the prefixes and request-only keys MCP reserves for itself."""

from __future__ import annotations

import re

from ...model import Severity
from ...registry import rule
from ...versions import since
from .common import V2025_06, V2025_11, V2026, object_member


_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
META_KEY_RE = re.compile(rf"^(?:(?P<prefix>{_LABEL}(?:\.{_LABEL})*)/)?(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$")
MCP_LABELS = ("modelcontextprotocol", "mcp")
# 2026-07-28 reserved _meta keys: request/notification metadata, none of which belongs on a Tool.
RESERVED_2026_KEYS = ("progressToken", "traceparent", "tracestate", "baggage")
# Keys outside the grammar that a client documents and reads under exactly that name, so a server
# written for it cannot rename them: {key: (who documents it, what it is for, the source)}.
# Both: developers.openai.com/apps-sdk/reference, "_meta fields on tool descriptor" (vendor docs,
# seen 2026-12-03); OpenAI's own examples (openai/openai-apps-sdk-examples, the pizzaz server) send them.
# The one such key most servers send: fastmcp 2.x writes it on every tool by itself.
FASTMCP_FIX = ("Pass `include_fastmcp_meta=False` to `FastMCP(...)` (or set FASTMCP_INCLUDE_FASTMCP_META=false), "
               "or move to fastmcp 3, which names it `fastmcp`: fastmcp 2.x writes this key on every tool itself")
VENDOR_KEYS = {
    "openai/toolInvocation/invoking": ("OpenAI's Apps SDK", "the status text ChatGPT shows while the tool runs",
                                       "developers.openai.com/apps-sdk/reference"),
    "openai/toolInvocation/invoked": ("OpenAI's Apps SDK", "the status text ChatGPT shows once the tool has run",
                                      "developers.openai.com/apps-sdk/reference"),
}


@rule("MCP126", "invalid-meta-key", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_06),
      fix="Use an optional dotted prefix ending in / and a name that starts and ends with a letter or digit")
def invalid_meta_key(tool, ctx):
    """A Tool `_meta` key breaks the MCP key grammar.

    ## What it does
    Reports a key of the Tool's `_meta` that is not `[prefix/]name`, where the prefix is
    dot-separated labels (each starts with a letter, ends with a letter or digit, with
    letters, digits and hyphens between) and the name is empty or starts and ends with
    a letter or digit, with letters, digits, `-`, `_` and `.` between.

    ## Why is this bad?
    The key format is a MUST, and a client that enforces it can lose the whole result:
    tower-mcp's client discarded the `tools/list` result of every fastmcp 2.x server over
    its `_fastmcp` key, until it chose to drop such keys instead (tower-mcp issue #1212,
    pull request #1217, August 2026). The official SDKs pass any key through (a pull
    request to validate them in the Python SDK was closed unmerged, python-sdk #1397), so
    most clients see nothing wrong; and other extensions cannot tell whose key it is. A
    Python server on fastmcp 2.x gets one finding, on the line that creates the server, for
    what fastmcp writes on every tool.

    A key that a client documents under exactly that name is information, not an error:
    OpenAI's Apps SDK reads `openai/toolInvocation/invoking` and `openai/toolInvocation/invoked`
    (a `/` in the name) for the status text ChatGPT shows, so a server written for ChatGPT
    keeps them; the finding says so, and that a client enforcing the format may drop them.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"example.com/-cache": true}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"com.example/cache": true}}
    ```

    ## References
    MCP basic/index.mdx "_meta" 2025-06-18 … 2026-07-28, `MetaObject`;
    github.com/joshrotenberg/tower-mcp issue 1212 and pull request 1217;
    github.com/modelcontextprotocol/python-sdk pull request 1397;
    developers.openai.com/apps-sdk/reference ("_meta fields on tool descriptor").
    """
    meta = object_member(tool, "_meta")
    if meta is None:
        return
    for key in meta:
        if META_KEY_RE.match(key):
            continue
        vendor = VENDOR_KEYS.get(key)
        if vendor is not None:
            who, what, source = vendor
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} is outside the MCP key format [prefix/]name, but it is the key "
                              f"{who} documents for {what} ({source}): a server for that client keeps it; a client that enforces the format may drop it",
                              fix=f"Keep it: {who} reads it under this name",
                              severity=Severity.INFO)
        else:
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} does not follow the MCP key format [prefix/]name (prefix: dotted "
                              "labels; name: starts and ends with a letter or digit)",
                              fix=FASTMCP_FIX if key == "_fastmcp" else None)


def _reserved_prefix(prefix: str, version: str) -> bool:
    labels = prefix.split(".")
    if version >= V2025_11:
        return len(labels) >= 2 and labels[1] in MCP_LABELS
    return any(label in MCP_LABELS for label in labels[:-1])


@rule("MCP127", "reserved-meta-key", severity=Severity.WARNING, scope="tool",
      versions=since(V2025_06),
      per_version=True, fix="Use your own reverse-DNS prefix (e.g. com.example/) for the key")
def reserved_meta_key(tool, ctx):
    """A Tool `_meta` key uses a prefix or name that MCP reserves.

    ## What it does
    Reports a Tool `_meta` key under an MCP-reserved prefix: in 2025-06-18 any prefix
    with a `modelcontextprotocol` or `mcp` label followed by another label (e.g.
    `mcp.dev/`); from 2025-11-25 a prefix whose *second* label is `modelcontextprotocol`
    or `mcp` (e.g. `io.modelcontextprotocol/`, `dev.mcp/`; `com.example.mcp/` is not
    reserved). In 2026-07-28 it also reports the request-only keys `progressToken`,
    `traceparent`, `tracestate` and `baggage`, which do not belong on a Tool.

    ## Why is this bad?
    Reserved keys are for MCP and its official extensions; implementations MUST NOT make
    assumptions about their values, and a future MCP version may give the key another
    meaning. A server using one for its own data collides with the protocol.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"io.modelcontextprotocol/cache": true}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"com.example/cache": true}}
    ```

    ## References
    MCP basic/index.mdx "_meta" (reserved prefixes per version) and 2026-07-28 reserved keys;
    MCP Description validator code `meta-unknown-reserved-key` (warning).
    """
    meta = object_member(tool, "_meta")
    if meta is None:
        return
    v = ctx.version
    for key in meta:
        m = META_KEY_RE.match(key)
        if not m:
            continue  # MCP126
        prefix = m.group("prefix")
        if prefix and _reserved_prefix(prefix, v):
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} uses the prefix {prefix + '/'!r}, which MCP reserves for its own "
                              "use in this version")
        elif not prefix and v >= V2026 and key in RESERVED_2026_KEYS:
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} is reserved by MCP for request metadata and does not belong on a Tool")
