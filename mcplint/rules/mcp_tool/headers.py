"""MCP: ``x-mcp-header`` on ``inputSchema`` properties (MCP122-MCP124): a 2026-07-28 server
mirrors such an argument into an HTTP header (SEP-2243), so the name must be an HTTP token, the
property a primitive reached through ``properties`` only, and each name used once; before
2026-07-28 the key has no MCP meaning."""

from __future__ import annotations

import re

from ...model import Pointer, Severity
from ...registry import rule
from ...versions import before
from .common import V2026, kind


TOKEN_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token (1*tchar)
HEADER_TYPES = ("integer", "string", "boolean")


HEADERS_KEY = "mcp.headers"  # ctx.memo.target: (the slot's schema, its headers): three rules ask in a row
MENTIONS_KEY = "mcp.mentions-headers"  # ctx.memo.collection: (document, may it hold an x-mcp-header key?)


def _may_mention_headers(doc, ctx) -> bool:
    """False only when no key of the document can be ``x-mcp-header``: the text never spells it
    and has no escape sequence (``\\u``, ``\\x``, ``\\U``) that could write it another way.
    Most documents have none, and then no slot needs walking."""
    kept = ctx.memo.collection.get(MENTIONS_KEY)
    if kept is not None and kept[0] is doc:
        return kept[1]
    text = getattr(getattr(doc, "source", None), "text", None)
    may = not isinstance(text, str) or "x-mcp-header" in text or any(e in text for e in ("\\u", "\\x", "\\U"))
    ctx.memo.collection[MENTIONS_KEY] = (doc, may)
    return may


def _headers(slot, ctx) -> tuple:
    """(relative pointer of the property schema, its schema, header value) for each x-mcp-header."""
    if slot.kind != "inputSchema" or not isinstance(slot.schema, dict):
        return ()
    kept = ctx.memo.target.get(HEADERS_KEY)
    if kept is not None and kept[0] is slot.schema:
        return kept[1]
    if not _may_mention_headers(slot.doc, ctx):
        return ()
    found = tuple((sub.pointer, sub.schema, sub.schema["x-mcp-header"]) for sub in ctx.subschemas(slot.schema)
                  if isinstance(sub.schema, dict) and "x-mcp-header" in sub.schema)
    ctx.memo.target[HEADERS_KEY] = (slot.schema, found)
    return found


def _statically_reachable(rel: tuple) -> bool:
    return len(rel) >= 2 and len(rel) % 2 == 0 and all(rel[i] == "properties" for i in range(0, len(rel), 2))


@rule("MCP122", "invalid-x-mcp-header", severity=Severity.ERROR, scope="slot",
      requires="x-mcp-header", versions=frozenset({V2026}),
      fix="Use a non-empty HTTP token name on a string/integer/boolean property reached through properties only")
def invalid_x_mcp_header(slot, ctx):
    """An `x-mcp-header` annotation breaks the 2026-07-28 rules.

    ## What it does
    For 2026-07-28, reports an `x-mcp-header` in `inputSchema` whose value is not a
    non-empty RFC 9110 token (letters, digits and ``!#$%&'*+-.^_`|~``; no spaces,
    colons, tabs or non-ASCII), that sits on a property whose `type` is not `string`,
    `integer` or `boolean`, or that is not statically reachable: the property must be
    reached from the root through a chain of `properties` only (not `items`,
    `oneOf`/`anyOf`/`allOf`, `if`/`then`/`else`, `$defs` or `$ref`).

    ## Why is this bad?
    The value becomes the `Mcp-Param-{name}` HTTP header on Streamable HTTP. A violation
    makes the tool definition invalid: HTTP clients MUST drop the tool from `tools/list`,
    so the model never sees it.

    ## Example
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "My Region"}}}}
    ```

    ## Use instead
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/transports/streamable-http.mdx and SEP-2243; MCP Description validation guide,
    "Embedded schemas" (`x-mcp-header` has MCP meaning in 2026-07-28).
    """
    for rel, prop, value in _headers(slot, ctx):
        ptr = slot.pointer + rel + ("x-mcp-header",)
        if not isinstance(value, str) or not value:
            yield ctx.finding(ptr, f"x-mcp-header is {kind(value) if not isinstance(value, str) else 'empty'}; it "
                                   "must be a non-empty header name, or HTTP clients drop this tool")
        elif not TOKEN_RE.match(value):
            bad = sorted({c for c in value if not TOKEN_RE.match(c)})
            yield ctx.finding(ptr, f"x-mcp-header {value!r} is not an HTTP token (it contains "
                                   f"{', '.join(repr(c) for c in bad)}); HTTP clients drop this tool")
        if not _statically_reachable(rel):
            yield ctx.finding(ptr, "x-mcp-header is not on a property reached from the root through properties "
                                   "only (it sits under " + (str(Pointer(rel)) or "the root") + "); HTTP clients "
                                   "drop this tool")
        t = prop.get("type")
        if t not in HEADER_TYPES:
            what = f"of type {t!r}" if t is not None else "without a declared type"
            yield ctx.finding(ptr, f"x-mcp-header is on a property {what}; only string, integer and boolean "
                                   "properties may be mirrored into a header, so HTTP clients drop this tool")


@rule("MCP123", "duplicate-x-mcp-header", severity=Severity.ERROR, scope="slot",
      requires="x-mcp-header", versions=frozenset({V2026}),
      fix="Give each mirrored property a different header name (names compare case-insensitively)")
def duplicate_x_mcp_header(slot, ctx):
    """Two properties mirror into the same `x-mcp-header` name.

    ## What it does
    For 2026-07-28, reports an `x-mcp-header` whose name equals an earlier one in the
    same `inputSchema`, ignoring case (`Region` and `REGION` collide).

    ## Why is this bad?
    HTTP header names are case-insensitive, so both arguments would be sent in one
    `Mcp-Param-Region` header. The spec requires the names to be unique
    case-insensitively; otherwise the tool is invalid and HTTP clients drop it.

    ## Example
    ```json
    {"name": "copy", "inputSchema": {"type": "object", "properties": {
      "from": {"type": "string", "x-mcp-header": "Region"},
      "to": {"type": "string", "x-mcp-header": "REGION"}}}}
    ```

    ## Use instead
    ```json
    {"name": "copy", "inputSchema": {"type": "object", "properties": {
      "from": {"type": "string", "x-mcp-header": "From-Region"},
      "to": {"type": "string", "x-mcp-header": "To-Region"}}}}
    ```

    ## References
    SEP-2243 and MCP 2026-07-28 Streamable HTTP transport: header names MUST be
    case-insensitively unique within the inputSchema.
    """
    seen: dict[str, tuple] = {}
    for rel, _prop, value in _headers(slot, ctx):
        if not isinstance(value, str) or not value:
            continue
        key = value.lower()
        if key in seen:
            yield ctx.finding(slot.pointer + rel + ("x-mcp-header",),
                              f"x-mcp-header {value!r} repeats {seen[key][1]!r} (at {Pointer(seen[key][0])}) ignoring "
                              "case; HTTP clients drop this tool")
        else:
            seen[key] = (slot.pointer + rel, value)


@rule("MCP124", "x-mcp-header-without-meaning", severity=Severity.INFO, scope="slot",
      requires="x-mcp-header", versions=before(V2026),
      fix="Nothing to fix for these versions; the annotation takes effect from 2026-07-28")
def x_mcp_header_without_meaning(slot, ctx):
    """`x-mcp-header` in a schema checked for a version before 2026-07-28.

    ## What it does
    Notes each `x-mcp-header` in an `inputSchema` when checking a version before
    2026-07-28.

    ## Why is this bad?
    It is harmless: the annotation is preserved as an unknown keyword, but only
    2026-07-28 Streamable HTTP clients mirror the argument into an `Mcp-Param-*` header.
    A server that relies on the header (e.g. for routing) will not get it from older
    clients.

    ## Example
    <!-- settings: {"protocol-versions": ["2025-11-25"]} -->
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"}}}}
    ```

    ## Use instead
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": `x-mcp-header` has no MCP meaning before
    2026-07-28; SEP-2243.
    """
    for rel, _prop, _value in _headers(slot, ctx):
        yield ctx.finding(slot.pointer + rel + ("x-mcp-header",),
                          "x-mcp-header has no MCP meaning before 2026-07-28; clients of this version do not send "
                          "the argument as a header")
