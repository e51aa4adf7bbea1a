"""PRB: the handshake (``initialize`` or ``server/discover``) result: its required members, the
tools capability, and how extensions are advertised."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...probe.transcript import good_page, page_message
from .common import handshake_result, transcript_of


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
    t = transcript_of(collection, ctx)
    if not t or t.get("pass") == "binding":  # the handshake is judged once, with the first listing
        return
    method, res = handshake_result(t)
    if res is None or not any(good_page(page_message(p)) for p in t.get("pages") or []):
        return
    caps = res.get("capabilities")
    if isinstance(caps, dict) and isinstance(caps.get("tools"), dict):
        return
    got = "has no \"tools\" member" if not isinstance(caps, dict) or "tools" not in caps else \
        f"has \"tools\" as {type(caps['tools']).__name__}, not an object"
    yield ctx.finding(collection.container, f"the server answers tools/list, but the capabilities in its {method} result {got}: "
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
    t = transcript_of(collection, ctx)
    if not t or t.get("pass") == "binding":
        return
    method, res = handshake_result(t)
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
        yield ctx.finding(collection.container, f"the {method} result is invalid: {'; '.join(problems)}; strict clients reject "
                                "the server before listing any tool")


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
    t = transcript_of(collection, ctx)
    if not t or t.get("pass") == "binding":
        return
    method, res = handshake_result(t)
    caps = (res or {}).get("capabilities")
    if not isinstance(caps, dict) or "extensions" not in caps:
        return
    exts = caps["extensions"]
    if not isinstance(exts, dict):
        yield ctx.finding(collection.container, f"capabilities.extensions in the {method} result is a {type(exts).__name__}, not an "
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
            yield ctx.finding(collection.container, f"extension {key!r} in capabilities.extensions: {' and '.join(problems)}; "
                                    "clients will not recognise it")
