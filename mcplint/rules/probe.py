"""PRB: what a live server did while ``mcplint probe`` talked to it.

These rules read the probe transcript that ``mcplint probe`` attaches to the captured
document (``Document.probe``: ``{version: transcript}``, see
:mod:`mcplint.probe.transcript`). On a file given to ``scan`` there is no transcript and
they stay silent. Each runs once per protocol version the capture was seen under.
"""

from __future__ import annotations

from ..model import ROOT, Pointer, Severity
from ..registry import rule
from ..probe.transcript import JSTRUCT_SITE, good_page, page_message, page_tools, server_extensions

SCHEMA_BINDING = "org.json-structure/schema-binding"
JSTRUCT_META = "https://json-structure.org/meta/"
MODERN = "2026-07-28"


def _t(collection, ctx) -> dict | None:
    probe = getattr(collection.doc, "probe", None)
    if not isinstance(probe, dict):
        return None
    t = probe.get(ctx.version)
    return t if isinstance(t, dict) else None


def _handshake_result(t: dict):
    hs = t.get("handshake") or {}
    msg = hs.get("message") or {}
    res = msg.get("result") if isinstance(msg, dict) else None
    return hs.get("method"), res if isinstance(res, dict) else None


def _tool_pointer(collection, name: str) -> Pointer:
    for tool in collection.tools:
        if tool.name == name:
            return tool.pointer / "name"
    return ROOT


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


@rule("PRB101", "stdout-noise", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Write logs and diagnostics to stderr; keep stdout for JSON-RPC messages only")
def stdout_noise(collection, ctx):
    """The server wrote lines to stdout that are not JSON-RPC messages.

    ## What it does
    Counts the lines a stdio server wrote to its stdout that do not parse as a JSON-RPC
    message (an object), such as log lines, banners or progress bars, and shows the first.

    ## Why is this bad?
    On the stdio transport stdout is the protocol channel: the server writes only MCP
    messages there, one per line, and logs to stderr. A client that meets a log line on
    stdout may drop the connection, or skip a response glued to the noise. Logging to
    stdout is one of the most common bugs of stdio servers (a `print()` left in, a
    library that logs to stdout by default).

    ## Example
    ```json
    {"transport": "stdio", "stdoutNoise": ["INFO server starting on stdio"], "stdoutNoiseCount": 1,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"transport": "stdio", "stdoutNoise": [], "stdoutNoiseCount": 0,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP transports, stdio (every revision): the server MUST NOT write anything to its stdout
    that is not a valid MCP message; it MAY write UTF-8 strings to stderr for logging.
    """
    t = _t(collection, ctx)
    if not t or not t.get("stdoutNoiseCount"):
        return
    n = t["stdoutNoiseCount"]
    first = (t.get("stdoutNoise") or [""])[0]
    if t.get("transport") == "http":
        yield ctx.finding(ROOT, f"the server sent {n} SSE event{'s' * (n != 1)} whose data is not a JSON-RPC message "
                                f"(first: {_clip(first)!r}); every data payload must be one MCP message")
        return
    yield ctx.finding(ROOT, f"the server wrote {n} line{'s' * (n != 1)} to stdout that are not JSON-RPC messages "
                            f"(first: {_clip(first)!r}); on stdio, stdout carries only MCP messages and a client "
                            "may drop the connection on anything else")


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
    t = _t(collection, ctx)
    if not t:
        return
    others = t.get("otherVersions") or {}
    for i, _, tool in page_tools(t):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        missing = sorted(v for v, names in others.items() if isinstance(names, list) and name not in names)
        if missing:
            yield ctx.finding(Pointer(("tools", i, "name")),
                              f"tool {name!r} is not listed under {', '.join(missing)}: clients that negotiate "
                              f"{'that revision' if len(missing) == 1 else 'those revisions'} never see it")


@rule("PRB103", "cursor-loop", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Return a fresh cursor for each page and omit nextCursor on the last page")
def cursor_loop(collection, ctx):
    """tools/list pagination hands back a cursor it already gave.

    ## What it does
    Follows `nextCursor` through every page of `tools/list` and reports a cursor that comes
    back a second time. The probe stops there, so the loop is bounded.

    ## Why is this bad?
    A client that follows `nextCursor` until it is absent, as the spec tells it to, never
    finishes: it fetches the same pages forever, or gives up and shows a partial list.
    The usual causes are a cursor that encodes the page size instead of the offset, or
    one that is never advanced.

    ## Example
    ```json
    {"cursorLoop": "page-2",
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "page-2"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [], "nextCursor": "page-2"}}}]}
    ```

    ## Use instead
    ```json
    {"cursorLoop": null,
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "page-2"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}}]}
    ```

    ## References
    MCP utilities, pagination (every revision): `nextCursor` is present when more results
    exist; its absence ends the list; cursors are opaque tokens.
    """
    t = _t(collection, ctx)
    if not t or t.get("cursorLoop") is None:
        return
    n = len(t.get("pages") or [])
    yield ctx.finding(ROOT, f"tools/list returned the cursor {_clip(str(t['cursorLoop']), 40)!r} a second time "
                            f"(after {n} pages): a client following nextCursor never reaches the end of the list")


@rule("PRB104", "page-limit-reached", severity=Severity.WARNING, scope="document", per_version=True,
      fix="Use larger pages, and make sure the last page has no nextCursor")
def page_limit_reached(collection, ctx):
    """tools/list was still returning a next page when the probe's page limit was reached.

    ## What it does
    Reports a `tools/list` that kept returning new cursors past the probe's page limit
    (500 pages). Tools on later pages were not fetched and not checked.

    ## Why is this bad?
    Either the list is endless (a cursor that never runs out, a generator gone wrong) or it
    is split into so many tiny pages that clients pay hundreds of round trips before they
    can show a single tool. Clients bound pagination too, and will show a truncated list.

    ## Example
    ```json
    {"pageLimit": 500, "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [], "nextCursor": "501"}}}]}
    ```

    ## Use instead
    ```json
    {"pageLimit": null, "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP utilities, pagination (every revision): clients follow `nextCursor` until it is
    absent. Issue "mcplint probe": pagination is followed over all pages, bounded.
    """
    t = _t(collection, ctx)
    if not t or not t.get("pageLimit"):
        return
    yield ctx.finding(ROOT, f"tools/list still returned nextCursor after {t['pageLimit']} pages; the probe stopped "
                            "there, so tools on later pages were not checked")


@rule("PRB105", "duplicate-name-across-pages", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Make pages disjoint: each tool on exactly one page")
def duplicate_name_across_pages(collection, ctx):
    """The same tool name is listed on two different pages of tools/list.

    ## What it does
    Joins the pages of a paginated `tools/list` and reports every tool whose name was
    already listed on an earlier page.

    ## Why is this bad?
    A tool is identified by its name. When two pages both list it (often an off-by-one in
    the page offset, or a list that changed between pages) a client either keeps one of
    the two definitions at random or shows the tool twice; if the definitions differ, the
    model may call it with the wrong schema.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}], "nextCursor": "1"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
                 {"name": "search", "inputSchema": {"type": "object"}}], "nextCursor": "1"}}},
               {"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
                 {"name": "fetch", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    MCP server tools (every revision): each tool is uniquely identified by its name; MCP
    utilities, pagination.
    """
    t = _t(collection, ctx)
    if not t:
        return
    first: dict = {}
    for i, page, tool in page_tools(t):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            continue
        if name in first and first[name] != page:
            yield ctx.finding(Pointer(("tools", i, "name")),
                              f"tool {name!r} on page {page + 1} was already listed on page {first[name] + 1}: "
                              "clients keep one of the two definitions, or show the tool twice")
        first.setdefault(name, page)


@rule("PRB106", "tools-list-error", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Make tools/list succeed for every page it advertises")
def tools_list_error(collection, ctx):
    """tools/list answered with an error, or with a result that holds no tools array.

    ## What it does
    Reports a `tools/list` request (any page) that returned a JSON-RPC error, or a result
    whose `tools` is missing or not an array. Tools on pages before the failure are still
    linted.

    ## Why is this bad?
    A server that declares the `tools` capability must answer `tools/list`. A failing
    first page leaves the client with no tools at all; a failing later page leaves it with
    a truncated list and no sign of what is missing.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "database unavailable"}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP server tools, listing tools (every revision): `ListToolsResult` requires `tools`.
    """
    t = _t(collection, ctx)
    if not t:
        return
    for n, page in enumerate(t.get("pages") or []):
        msg = page_message(page)
        if good_page(msg):
            continue
        if isinstance(msg, dict) and isinstance(msg.get("error"), dict):
            err = msg["error"]
            what = f"error {err.get('code')!r}: {_clip(str(err.get('message')))!r}"
        elif isinstance(msg, dict) and isinstance(msg.get("result"), dict):
            what = "a result without a \"tools\" array"
        else:
            what = "a response that is neither a result nor an error"
        yield ctx.finding(ROOT, f"tools/list page {n + 1} failed with {what}"
                                + ("; later pages were not fetched" if n else "; no tools could be listed"))


@rule("PRB107", "missing-tools-capability", severity=Severity.ERROR, scope="document", per_version=True,
      fix='Declare "tools": {} (or {"listChanged": true}) in the server capabilities')
def missing_tools_capability(collection, ctx):
    """The server lists tools but does not declare the tools capability.

    ## What it does
    Reads the capabilities the server announced (in its `initialize` result, or its
    `server/discover` result on 2026-07-28) and reports a server that answers `tools/list`
    without declaring `tools` there.

    ## Why is this bad?
    Servers that support tools MUST declare the `tools` capability. Clients check the
    capabilities before they ask for tools; a server that forgets it has its tools hidden
    by every client that follows the spec, while working in the one client its author
    tested.

    ## Example
    ```json
    {"handshake": {"method": "initialize", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "protocolVersion": "2025-06-18", "capabilities": {"logging": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"handshake": {"method": "initialize", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    MCP server tools, capabilities (every revision): servers that support tools MUST declare
    the `tools` capability; `ServerCapabilities.tools?: {listChanged?: boolean}`.
    """
    t = _t(collection, ctx)
    if not t or t.get("pass") == "binding":  # the handshake is judged once, with the first listing
        return
    method, res = _handshake_result(t)
    if res is None or not any(good_page(page_message(p)) for p in t.get("pages") or []):
        return
    caps = res.get("capabilities")
    if isinstance(caps, dict) and isinstance(caps.get("tools"), dict):
        return
    got = "has no \"tools\" member" if not isinstance(caps, dict) or "tools" not in caps else \
        f"has \"tools\" as {type(caps['tools']).__name__}, not an object"
    yield ctx.finding(ROOT, f"the server answers tools/list, but the capabilities in its {method} result {got}: "
                            "clients that follow the spec will not ask it for tools")


def _impl_problems(value, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} is missing or not an object"]
    return [f"{where}.{k} is missing or not a string" for k in ("name", "version") if not isinstance(value.get(k), str)]


@rule("PRB108", "invalid-handshake-result", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Return every required member of InitializeResult / DiscoverResult with the right type")
def invalid_handshake_result(collection, ctx):
    """The initialize (or server/discover) result lacks a required member or has the wrong type.

    ## What it does
    Checks the handshake result against its required members: `protocolVersion`,
    `capabilities` and `serverInfo` (with `name` and `version`) for `initialize`;
    `supportedVersions`, `capabilities`, `resultType`, `ttlMs` (an integer >= 0) and
    `cacheScope` (`public` or `private`) for `server/discover`, and a well-formed
    `io.modelcontextprotocol/serverInfo` in its `_meta` when present.

    ## Why is this bad?
    Clients validate these results before anything else; a strict client (or an SDK with
    generated types) rejects the whole server when one member is missing, so none of its
    tools are ever offered. serverInfo is also what hosts show users and log.

    ## Example
    ```json
    {"handshake": {"method": "initialize", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"handshake": {"method": "initialize", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1.0.0"}}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP schema `InitializeResult` and `Implementation` (2024-11-05 … 2025-11-25); MCP
    2026-07-28 `DiscoverResult` / `CacheableResult` and caching (ttlMs >= 0, cacheScope).
    """
    t = _t(collection, ctx)
    if not t or t.get("pass") == "binding":
        return
    method, res = _handshake_result(t)
    if res is None:
        return
    problems: list[str] = []
    if not isinstance(res.get("capabilities"), dict):
        problems.append("capabilities is missing or not an object")
    if method == "initialize":
        if not isinstance(res.get("protocolVersion"), str):
            problems.append("protocolVersion is missing or not a string")
        problems += _impl_problems(res.get("serverInfo"), "serverInfo")
    else:
        sv = res.get("supportedVersions")
        if not (isinstance(sv, list) and sv and all(isinstance(v, str) for v in sv)):
            problems.append("supportedVersions is missing or not a non-empty array of strings")
        if not isinstance(res.get("resultType"), str):
            problems.append("resultType is missing")
        ttl = res.get("ttlMs")
        if not (isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0):
            problems.append("ttlMs is missing or not an integer >= 0")
        if res.get("cacheScope") not in ("public", "private"):
            problems.append("cacheScope is missing or not \"public\"/\"private\"")
        meta = res.get("_meta")
        if isinstance(meta, dict) and "io.modelcontextprotocol/serverInfo" in meta:
            problems += _impl_problems(meta["io.modelcontextprotocol/serverInfo"], "_meta serverInfo")
    if problems:
        yield ctx.finding(ROOT, f"the {method} result is invalid: {'; '.join(problems)}; strict clients reject "
                                "the server before listing any tool")


def _is_jstruct(schema) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("$schema"), str) and \
        schema["$schema"].startswith(JSTRUCT_META)


@rule("PRB109", "schema-binding-not-negotiated", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Send JSON Structure schemas only to clients that advertise org.json-structure/schema-binding; "
          "send the JSON Schema projection to the others")
def schema_binding_not_negotiated(collection, ctx):
    """A JSON Structure schema was sent to a client that did not ask for the binding.

    ## What it does
    The probe lists tools as a client that does not advertise the
    `org.json-structure/schema-binding` extension (under 2026-07-28 it also lists them as one
    that does; that listing is not this rule's). This rule reports every `inputSchema` or
    `outputSchema` the server nevertheless sent to the first client as a JSON Structure schema
    (its `$schema` is a `https://json-structure.org/meta/...` URI). Under revisions before
    2026-07-28 a client has no `extensions` capability to advertise, so any JSON Structure
    slot there is reported. Whether the server advertises the extension is PRB114's.

    ## Why is this bad?
    JSON Schema and JSON Structure share keyword spellings with different meanings. A
    client that has not advertised the binding reads the schema as JSON Schema (or rejects
    an unknown dialect) and validates the wrong thing, with no error raised. The binding
    requires the server to fall back to a JSON Schema 2020-12 projection for such clients.

    ## Example
    ```json
    {"clientExtensions": [],
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": [],
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "type": "object", "properties": {"celsius": {"type": "number"}}}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding (draft-vasters-json-structure-mcp-binding) §4: a server MUST
    NOT place a JSON Structure schema in a slot for a client that has not advertised
    `org.json-structure/schema-binding`; §4.1 fallback to a JSON Schema projection.
    """
    t = _t(collection, ctx)
    if not t or SCHEMA_BINDING in (t.get("clientExtensions") or []):
        return
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict):
            continue
        for slot in ("inputSchema", "outputSchema"):
            if _is_jstruct(tool.get(slot)):
                yield ctx.finding(Pointer(("tools", i, slot, "$schema")),
                                  f"{slot} is a JSON Structure schema, sent to a client that did not advertise "
                                  f"{SCHEMA_BINDING}; such a client reads it as JSON Schema (or cannot read it) and "
                                  "validates the wrong thing; it must get the JSON Schema 2020-12 fallback")


@rule("PRB110", "invalid-extension-advertisement", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix='Advertise extensions as {"<prefix>/<name>": {settings object}}, e.g. {"org.json-structure/schema-binding": {}}')
def invalid_extension_advertisement(collection, ctx):
    """The server's capabilities.extensions is malformed.

    ## What it does
    Checks `capabilities.extensions` in the server's `server/discover` (or `initialize`)
    result: it must be an object whose keys carry a reverse-DNS prefix
    (`prefix/name`, e.g. `org.json-structure/schema-binding`) and whose values are settings
    objects.

    ## Why is this bad?
    Clients look extensions up by exact identifier and read their settings as an object. A
    bare key (`schema-binding`), a `true` instead of `{}`, or an array instead of a map
    means the client does not recognise the extension, so features such as the JSON
    Structure schema binding are never negotiated.

    ## Example
    ```json
    {"handshake": {"method": "server/discover", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}, "extensions": {"schema-binding": true}},
       "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"handshake": {"method": "server/discover", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}, "extensions": {"org.json-structure/schema-binding": {}}},
       "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP 2026-07-28 `ServerCapabilities.extensions?: {[id: string]: JSONObject}`, keys follow
    the `_meta` key naming rules with a mandatory prefix; JSON Structure MCP binding §4
    (identifier `org.json-structure/schema-binding`, settings object empty in this revision).
    """
    t = _t(collection, ctx)
    if not t or t.get("pass") == "binding":
        return
    method, res = _handshake_result(t)
    caps = (res or {}).get("capabilities")
    if not isinstance(caps, dict) or "extensions" not in caps:
        return
    exts = caps["extensions"]
    if not isinstance(exts, dict):
        yield ctx.finding(ROOT, f"capabilities.extensions in the {method} result is a {type(exts).__name__}, not an "
                                "object mapping extension identifiers to settings")
        return
    for key, value in exts.items():
        prefix, slash, name = key.partition("/")
        problems = []
        if not slash or not prefix or not name or "." not in prefix:
            problems.append("its identifier lacks the mandatory reverse-DNS prefix (prefix/name)")
        if not isinstance(value, dict):
            problems.append(f"its settings are a {type(value).__name__}, not an object")
        if problems:
            yield ctx.finding(ROOT, f"extension {key!r} in capabilities.extensions: {' and '.join(problems)}; "
                                    "clients will not recognise it")


def _call_outcome(call: dict):
    """'ok' | 'accepted' | a description of a wrong rejection."""
    if call.get("timeout"):
        return "no answer within the request timeout"
    msg = call.get("message")
    if not isinstance(msg, dict):
        return "no well-formed response"
    if isinstance(msg.get("result"), dict):
        return "ok" if msg["result"].get("isError") is True else "accepted"
    err = msg.get("error")
    if isinstance(err, dict):
        return "ok" if err.get("code") == -32602 else f"JSON-RPC error {err.get('code')!r} instead of -32602"
    return "a response with neither result nor error"


@rule("PRB111", "invalid-arguments-accepted", severity=Severity.ERROR, scope="document", per_version=True,
      fix="Validate tools/call arguments against the inputSchema before running the tool")
def invalid_arguments_accepted(collection, ctx):
    """The server accepted a tools/call whose arguments its own inputSchema rejects.

    ## What it does
    With `mcplint probe --call`, one `tools/call` per read-only tool (every tool with
    `--call-all`) is sent with arguments built to fail the tool's `inputSchema` (a required
    argument missing, or a wrongly typed one). This rule reports a tool that answered with
    a normal result instead of rejecting the call.

    ## Why is this bad?
    The inputSchema is the contract the model is held to; a server that does not enforce
    it runs tools on arguments it never promised to handle (a missing ID becomes "all", a
    string where a number was expected reaches the database). It also deprives the model
    of the error that would let it correct itself.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search",
       "annotations": {"readOnlyHint": true},
       "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}}}],
     "calls": [{"tool": "search", "arguments": {}, "timeout": false,
                "message": {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "42 results"}]}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search",
       "annotations": {"readOnlyHint": true},
       "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}}}],
     "calls": [{"tool": "search", "arguments": {}, "timeout": false,
                "message": {"jsonrpc": "2.0", "id": 3, "result": {"isError": true,
                            "content": [{"type": "text", "text": "q is required"}]}}}]}
    ```

    ## References
    MCP server tools, error handling (2025-11-25, 2026-07-28): input validation errors are
    tool execution errors (`isError: true`); earlier revisions: invalid arguments are
    protocol errors (-32602). JSON Structure MCP binding §8: the server MUST validate
    arguments and MUST NOT execute the tool when validation fails.
    """
    t = _t(collection, ctx)
    if not t:
        return
    for call in t.get("calls") or []:
        if _call_outcome(call) == "accepted":
            yield ctx.finding(_tool_pointer(collection, call.get("tool")),
                              f"tools/call {call.get('tool')!r} with arguments its inputSchema rejects "
                              f"({_clip(str(call.get('arguments')), 60)}) returned a normal result: the server does "
                              "not validate arguments and may have run the tool on them")


@rule("PRB112", "invalid-arguments-misreported", severity=Severity.WARNING, scope="document", per_version=True,
      fix="Answer invalid arguments with a CallToolResult carrying isError: true (or JSON-RPC error -32602)")
def invalid_arguments_misreported(collection, ctx):
    """The server rejected invalid tools/call arguments, but not the way the spec says.

    ## What it does
    With `mcplint probe --call`, reports a tool whose answer to invalid arguments was a
    JSON-RPC error other than -32602 (Invalid params), a malformed response, or no answer
    at all within the request timeout.

    ## Why is this bad?
    Clients pass tool execution errors (`isError: true`) to the model so it can correct
    its arguments; -32602 at least tells them the arguments were at fault. An internal
    error (-32603), a custom code or silence reads as a server failure: the model gets no
    usable feedback, and hosts may retry or disable the server.

    ## Example
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search",
       "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}}}],
     "calls": [{"tool": "search", "arguments": {}, "timeout": false,
                "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": "KeyError: 'q'"}}}]}
    ```

    ## Use instead
    ```json
    {"pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "search",
       "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}}}],
     "calls": [{"tool": "search", "arguments": {}, "timeout": false,
                "message": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "q is required"}}}]}
    ```

    ## References
    MCP server tools, error handling (every revision; SEP-1303 in 2025-11-25); JSON
    Structure MCP binding §8 (isError result, or -32602 for malformed requests).
    """
    t = _t(collection, ctx)
    if not t:
        return
    for call in t.get("calls") or []:
        outcome = _call_outcome(call)
        if outcome not in ("ok", "accepted"):
            yield ctx.finding(_tool_pointer(collection, call.get("tool")),
                              f"tools/call {call.get('tool')!r} with invalid arguments got {outcome}: the model "
                              "gets no usable feedback (expected isError: true or -32602)")


@rule("PRB113", "ignores-shutdown", severity=Severity.WARNING, scope="document", per_version=True,
      fix="Exit when stdin closes, and on SIGTERM")
def ignores_shutdown(collection, ctx):
    """The stdio server did not exit when its stdin closed, nor on SIGTERM.

    ## What it does
    After probing, mcplint shuts the server down the way the spec describes: close its
    stdin, wait, send SIGTERM, wait, and only then SIGKILL. This rule reports a server
    that had to be killed with SIGKILL.

    ## Why is this bad?
    Hosts start and stop stdio servers many times a day. A server that ignores both the
    end of its input and SIGTERM is left running (or is killed without cleaning up
    temporary files, locks and child processes), and accumulates as orphans on the
    user's machine.

    ## Example
    ```json
    {"transport": "stdio", "shutdown": "killed", "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## Use instead
    ```json
    {"transport": "stdio", "shutdown": "exited", "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}}]}
    ```

    ## References
    MCP lifecycle, shutdown over stdio (every revision): the client closes the server's
    input stream, waits for it to exit, sends SIGTERM if it does not, and SIGKILL if it
    still does not.
    """
    t = _t(collection, ctx)
    if t and t.get("shutdown") == "killed":
        yield ctx.finding(ROOT, "the server did not exit when its stdin was closed, nor on SIGTERM, and had to be "
                                "killed: hosts that stop it leave it running or kill it without cleanup")


# -- the JSON Structure binding, seen from both clients (binding §4, §4.1) -------------------
# Under 2026-07-28 the probe lists tools as a client without the binding and, when it can
# matter, again as one advertising it (``pairedPass``); mcplint.probe.transcript.


_SLOTS = ("inputSchema", "outputSchema")


def _advertised_by_client(t: dict) -> bool:
    return SCHEMA_BINDING in (t.get("clientExtensions") or [])


def _paired(t: dict) -> dict | None:
    """The other listing, when it succeeded (a failed one is PRB106's on its own document)."""
    p = t.get("pairedPass")
    if not isinstance(p, dict) or not any(good_page(page_message(pg)) for pg in p.get("pages") or []):
        return None
    return p


def _tools_by_name(listing: dict) -> dict:
    out: dict = {}
    for _, _, tool in page_tools(listing):
        if isinstance(tool, dict) and isinstance(tool.get("name"), str):
            out.setdefault(tool["name"], tool)
    return out


def _existing(value, steps: tuple) -> tuple:
    """The longest prefix of ``steps`` that exists in ``value``."""
    out = []
    for step in steps:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            break
        out.append(step)
    return tuple(out)


@rule("PRB114", "schema-binding-not-advertised", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix='Add "extensions": {"org.json-structure/schema-binding": {}} to the server capabilities')
def schema_binding_not_advertised(collection, ctx):
    """The server sends JSON Structure schemas but does not advertise the binding.

    ## What it does
    Reports a server whose `tools/list` holds JSON Structure schema slots (`$schema` is a
    `https://json-structure.org/meta/...` URI), sent to either of the probe's clients, while
    `capabilities.extensions` in its `server/discover` result does not list
    `org.json-structure/schema-binding`. One finding per capture, at the first such slot.

    ## Why is this bad?
    The extension is negotiated by both sides. A client decides from the server's
    capabilities whether to expect JSON Structure at all; a server that implements the
    binding without saying so is treated as a plain JSON Schema server, and its JSON
    Structure slots arrive as an unknown dialect the client cannot use.

    ## Example
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "handshake": {"method": "server/discover", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
       "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "handshake": {"method": "server/discover", "message": {"jsonrpc": "2.0", "id": 1, "result": {
       "supportedVersions": ["2026-07-28"],
       "capabilities": {"tools": {}, "extensions": {"org.json-structure/schema-binding": {}}},
       "resultType": "complete", "ttlMs": 0, "cacheScope": "public"}}},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding (draft-vasters-json-structure-mcp-binding) §4: a server that
    implements the binding MUST advertise `org.json-structure/schema-binding` in the
    extensions map of its server capabilities; MCP 2026-07-28 `ServerCapabilities.extensions`.
    """
    t = _t(collection, ctx)
    if not t or SCHEMA_BINDING in server_extensions(t):
        return
    slots = [(i, slot) for i, _, tool in page_tools(t) if isinstance(tool, dict)
             for slot in _SLOTS if _is_jstruct(tool.get(slot))]
    if not slots:
        return
    i, slot = slots[0]
    n = len(slots)
    yield ctx.finding(Pointer(("tools", i, slot, "$schema")),
                      f"the server sent {n} JSON Structure schema slot{'s' * (n != 1)} but its capabilities do not "
                      f"advertise {SCHEMA_BINDING}: clients decide from the capabilities whether to expect JSON "
                      "Structure, and treat this server as a plain JSON Schema one")


@rule("PRB115", "bound-slot-not-jstruct", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="Put the JSON Structure schema itself in the slot, with a $schema from binding §3.1 "
          "(e.g. https://json-structure.org/meta/core/v0/#)")
def bound_slot_not_jstruct(collection, ctx):
    """A slot changed for a client advertising the binding is not a recognised JSON Structure schema.

    ## What it does
    Compares what the server sent a client that advertised
    `org.json-structure/schema-binding` with what it sent one that did not. A slot that
    differs between the two (so the server bound it) must be the JSON Structure schema
    document itself with a recognised `$schema`. This rule reports a bound slot whose
    `$schema` is a json-structure.org URI mcplint does not recognise, or that uses JSON
    Structure constructs with no (or a non-string) `$schema`.

    ## Why is this bad?
    `$schema` alone selects the dialect. A client that meets an unrecognised meta-schema
    URI must not read the slot as JSON Schema, so the tool is unusable to exactly the
    clients that opted in; without `$schema` the slot is read as JSON Schema 2020-12 and
    JSON Structure types such as `double` or `int64` silently mean nothing.

    ## Example
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "convert", "inputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v1/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "convert", "inputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4: where the client has advertised the identifier, the slot
    holds the JSON Structure schema document itself and its `$schema` selects the dialect;
    §3.1: a bound slot MUST carry `$schema` explicitly; §3.2: an unrecognised dialect is not
    read as JSON Schema.
    """
    t = _t(collection, ctx)
    if not t or not _advertised_by_client(t):
        return
    paired = _paired(t)
    if paired is None:
        return
    from ..jstruct import is_jstruct
    from ..jstruct.schema import jstruct_signals

    others = _tools_by_name(paired)
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict) or tool.get("name") not in others:
            continue
        for slot in _SLOTS:
            s, fallback = tool.get(slot), others[tool["name"]].get(slot)
            if not isinstance(s, dict) or is_jstruct(s) or s == fallback:
                continue
            uri = s.get("$schema")
            if isinstance(uri, str) and uri.startswith(JSTRUCT_SITE):
                yield ctx.finding(Pointer(("tools", i, slot, "$schema")),
                                  f"{slot} was changed for the client that advertised {SCHEMA_BINDING}, but "
                                  f"{_clip(uri, 60)!r} is not a recognised JSON Structure meta-schema: that client "
                                  "must not read it as JSON Schema either, so the tool is unusable to it")
            elif not isinstance(uri, str) and jstruct_signals(s, max_nodes=2000, max_depth=64):
                where = Pointer(("tools", i, slot, "$schema")) if "$schema" in s else Pointer(("tools", i, slot))
                yield ctx.finding(where,
                                  f"{slot} was changed for the client that advertised {SCHEMA_BINDING} and uses "
                                  "JSON Structure constructs, but carries no $schema string: it is read as JSON "
                                  "Schema 2020-12, where those constructs mean nothing")


@rule("PRB116", "invalid-jstruct-fallback", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="Serve clients without the extension a JSON Schema 2020-12 projection that accepts every instance the "
          "JSON Structure schema accepts (`mcplint project --to json-schema` writes one)")
def invalid_jstruct_fallback(collection, ctx):
    """The JSON Schema fallback does not stand in for the JSON Structure schema.

    ## What it does
    For each slot the server sent as JSON Structure to a client advertising
    `org.json-structure/schema-binding`, takes the slot it sent to a client that did not
    advertise it (the fallback) and checks it with `mcplint.jstruct.check_fallback`: the
    fallback must be JSON Schema 2020-12 (`$schema` absent or the 2020-12 URI), valid, and
    must accept every instance the JSON Structure schema accepts, tried with a few hundred
    instances generated from the JSON Structure schema (seeded: the same every run). A
    missing fallback slot is reported too. Findings point into the fallback capture.

    ## Why is this bad?
    Clients without the extension validate (and constrained decoders generate) arguments
    against the fallback. A fallback stricter than the real schema makes the model unable
    to produce arguments the tool accepts: an `int64` ID projected as `integer` when it
    travels as a string, a `double` projected as `integer`, a missing optional property
    made required. A fallback in another dialect may not be read at all.

    ## Example
    ```json
    {"clientExtensions": [],
     "pairedPass": {"clientExtensions": ["org.json-structure/schema-binding"], "pages": [{"message": {
       "jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}, "required": ["celsius"]}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "type": "object", "properties": {"celsius": {"type": "integer"}}, "required": ["celsius"]}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": [],
     "pairedPass": {"clientExtensions": ["org.json-structure/schema-binding"], "pages": [{"message": {
       "jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}, "required": ["celsius"]}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4.1: for a client that has not advertised the identifier the
    server MUST place in the slot a JSON Schema 2020-12 projection of the JSON Structure
    schema, and the projection MUST accept every instance the JSON Structure schema accepts.
    """
    t = _t(collection, ctx)
    if not t or _advertised_by_client(t):
        return
    paired = _paired(t)
    if paired is None or not _advertised_by_client(paired):
        return
    from ..jstruct import check_fallback, is_jstruct
    from ..schemawalk import depth_of

    bound = _tools_by_name(paired)
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict) or tool.get("name") not in bound:
            continue
        for slot in _SLOTS:
            js = bound[tool["name"]].get(slot)
            if not is_jstruct(js):
                continue
            if slot not in tool:
                yield ctx.finding(Pointer(("tools", i, "name")),
                                  f"tool {tool['name']!r} has a JSON Structure {slot} for clients with "
                                  f"{SCHEMA_BINDING} and none at all for the others: they get no fallback")
                continue
            fallback = tool[slot]
            if _is_jstruct(fallback):
                continue  # JSON Structure to this client: PRB109
            if depth_of(js) > ctx.bounds.max_depth or depth_of(fallback) > ctx.bounds.max_depth:
                continue  # too deep to check safely; the SEC rules report the depth
            # One finding per place in the fallback, with the first counterexample found there.
            groups: dict = {}
            try:
                problems = check_fallback(js, fallback)
            except RecursionError:
                problems = []
            for p in problems:
                groups.setdefault((_existing(fallback, tuple(p.pointer)), p.keyword), []).append(p)
            harm = "refuse arguments the tool accepts" if slot == "inputSchema" else \
                "reject results the tool returns"
            for (rel, _), ps in groups.items():
                more = f" (and {len(ps) - 1} more such instance{'s' * (len(ps) > 2)})" if len(ps) > 1 else ""
                yield ctx.finding(Pointer(("tools", i, slot) + rel),
                                  f"the JSON Schema fallback {slot} served to clients without {SCHEMA_BINDING} "
                                  f"is wrong: {ps[0].message}{more}; those clients will {harm}")


@rule("PRB117", "tools-vary-with-binding", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="List the same tools whether or not the client advertises org.json-structure/schema-binding; "
          "only the schema slots may differ")
def tools_vary_with_binding(collection, ctx):
    """A tool is listed for a client with the JSON Structure binding and not for one without (or the reverse).

    ## What it does
    Compares the tool names the server listed to a client advertising
    `org.json-structure/schema-binding` and to one that did not, and reports each tool
    listed to only one of them, at its name in the capture that has it.

    ## Why is this bad?
    The binding changes how schemas are written, not which tools exist. A tool offered
    only with the extension leaves every other client without it, though the binding
    requires the server to remain usable to them through the JSON Schema fallback; a tool
    offered only without it is lost by the clients that opted in. Usually a tool whose
    projection failed, or whose JSON Structure schema could not be loaded, was dropped.

    ## Example
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4.1: a server MUST remain usable by a client that has not
    advertised the identifier; the binding is opt-in per schema slot and introduces no new
    methods (§1). Issue "JSON Structure MCP binding" §4: the probe plays both clients.
    """
    t = _t(collection, ctx)
    if not t:
        return
    paired = _paired(t)
    if paired is None:
        return
    names = set(_tools_by_name(paired))
    mine = "advertised" if _advertised_by_client(t) else "did not advertise"
    theirs = "did not advertise" if _advertised_by_client(t) else "advertised"
    for i, _, tool in page_tools(t):
        name = tool.get("name") if isinstance(tool, dict) else None
        if isinstance(name, str) and name not in names:
            yield ctx.finding(Pointer(("tools", i, "name")),
                              f"tool {name!r} is listed to a client that {mine} {SCHEMA_BINDING}, but not to one "
                              f"that {theirs} it: the tools a client gets must not depend on the extension")
