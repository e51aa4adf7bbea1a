"""PRB: the JSON Structure schema binding as negotiated (binding §4): a JSON Structure schema
sent to a client that did not ask for it, and one sent by a server that does not advertise it."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...probe.transcript import page_tools, server_extensions
from .common import SCHEMA_BINDING, SLOTS, is_jstruct_schema, transcript_of


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
    t = transcript_of(collection, ctx)
    if not t or SCHEMA_BINDING in (t.get("clientExtensions") or []):
        return
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict):
            continue
        for slot in ("inputSchema", "outputSchema"):
            if is_jstruct_schema(tool.get(slot)):
                yield ctx.finding(collection.container + ("tools", i, slot, "$schema"),
                                  f"{slot} is a JSON Structure schema, sent to a client that did not advertise "
                                  f"{SCHEMA_BINDING}; such a client reads it as JSON Schema (or cannot read it) and "
                                  "validates the wrong thing; it must get the JSON Schema 2020-12 fallback")


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
    t = transcript_of(collection, ctx)
    if not t or SCHEMA_BINDING in server_extensions(t):
        return
    slots = [(i, slot) for i, _, tool in page_tools(t) if isinstance(tool, dict)
             for slot in SLOTS if is_jstruct_schema(tool.get(slot))]
    if not slots:
        return
    i, slot = slots[0]
    n = len(slots)
    yield ctx.finding(collection.container + ("tools", i, slot, "$schema"),
                      f"the server sent {n} JSON Structure schema slot{'s' * (n != 1)} but its capabilities do not "
                      f"advertise {SCHEMA_BINDING}: clients decide from the capabilities whether to expect JSON "
                      "Structure, and treat this server as a plain JSON Schema one")
