"""DEC: what a profile does with one schema slot: constructs it rejects, constraints it does
not enforce, tools it leaves out, rewrites, annotation-only keywords, and schema limits."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import slot_rule


@rule("DEC001", "construct-rejected-by-profile", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Remove or rewrite the construct the profile rejects")
def construct_rejected(slot, ctx):
    """The target fails the request (or cannot compile the grammar) because of this construct.

    ## What it does
    For each selected profile, reports every keyword and structural construct the profile
    marks `reject` for a hosted API or a local decoder: an unsupported keyword (`allOf`
    under OpenAI strict), a value outside an allowlist (`format: uri`), a missing
    `additionalProperties: false`, an optional property where every key must be required,
    a combinator at the root. Where the provider's own error text is known the finding
    quotes it, so it can be matched against what was seen in production.

    ## Why is this bad?
    The request that carries this tool fails with HTTP 400 (or the decoder refuses to build
    a grammar), so none of the tools in it can be called. MCP 2026-07-28 allows all of JSON
    Schema 2020-12; a constrained decoder enforces only a subset (the article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It").

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "update_page", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["data"],
     "properties": {"data": {"allOf": [{"type": "object", "properties": {}, "additionalProperties": false}]}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "update_page", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["data"],
     "properties": {"data": {"type": "object", "properties": {}, "additionalProperties": false}}}}
    ```

    ## References
    The article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" (what each decoder enforces); the profile file's per-fact sources (`mcplint profile NAME`);
    https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas
    """
    return slot_rule(slot, ctx, "reject")


@rule("DEC002", "constraint-not-enforced-by-profile", severity=Severity.WARNING, scope="slot", profiled=True,
      fix="Keep the check in your server's validation, or restate the constraint in a form the target enforces")
def constraint_not_enforced(slot, ctx):
    """The target accepts the schema but silently does not enforce this constraint.

    ## What it does
    Reports every keyword or construct a selected profile marks `drop`: the request
    succeeds and the decoder constrains against what is left, e.g. xgrammar ignoring
    `uniqueItems`, Outlines ignoring numeric bounds, Gemini treating `oneOf` as `anyOf`.
    A keyword whose value accepts every instance it applies to is not reported, since
    dropping it loses nothing: `propertyNames: {"type": "string"}` (what zod writes for
    every `z.record`), `minLength`/`minItems`/`minProperties` 0, `uniqueItems: false`, and
    a `pattern` that matches the empty string and asserts nothing (`[a-z_]*`). Nor is a
    `minimum`/`maximum` of an integer at or beyond the safe-integer range (±9007199254740991,
    what zod 4 writes for every `.int()`): it rules out only integers that RFC 7493 (I-JSON,
    section 2.2) says no receiver is expected to hold exactly.

    ## Why is this bad?
    The model can now produce arguments that violate the schema you wrote, while the schema
    looks enforced. This is the "quiet weakening" the article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" describes: it shows up as an intermittent
    validation failure on exactly this keyword. Validate arguments against the full schema
    on the server side, or rewrite the constraint into one the target enforces.

    ## Example
    <!-- settings: {"profiles": ["xgrammar"]} -->
    ```json
    {"name": "tag", "inputSchema": {"type": "object", "properties": {"tags": {"type": "array",
     "items": {"type": "string"}, "uniqueItems": true}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["xgrammar"]} -->
    ```json
    {"name": "tag", "inputSchema": {"type": "object", "additionalProperties": false,
     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    The article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" ("the quiet weakening"); the profile's sources, e.g. the xgrammar 0.2.9 probe results.
    """
    return slot_rule(slot, ctx, "weaken")


@rule("DEC003", "tool-left-out-by-client", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Change the schema so the client accepts the tool")
def tool_left_out(slot, ctx):
    """A client silently leaves the whole tool out because of this construct, or loses every tool of the server.

    ## What it does
    Reports constructs a client profile rejects by skipping the tool: VS Code Copilot refuses
    an array without `items`; Windsurf a schema its 2020-12 validator refuses. The client logs a
    line nobody reads and the model never sees the tool. A client that reads the server's
    `tools/list` in one piece and cannot read it over this one tool (`on_reject: fail-list`: the
    MCP TypeScript SDK's `Client.listTools`, and gemini-cli, opencode and LangChain.js on it, when
    a root is not `type: "object"`) loses every tool of the server: the finding says so and
    names how many tools that is, and the summary counts all of them as lost.

    ## Why is this bad?
    The "silent disappearance" the article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" describes: the agent routes around a capability that is, by
    every check the server owns, correct. Nothing fails loudly. When the whole list is lost, one
    tool takes the whole server with it (`Error discovering tools from <server>` in gemini-cli).

    ## Example
    <!-- settings: {"profiles": ["vscode-copilot"]} -->
    ```json
    {"name": "add_result", "inputSchema": {"type": "object", "properties": {"rows": {"type": "array"}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["vscode-copilot"]} -->
    ```json
    {"name": "add_result", "inputSchema": {"type": "object", "properties": {"rows": {"type": "array", "items": {}}}}}
    ```

    ## References
    The article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" ("the silent disappearance"); https://github.com/microsoft/vscode/issues/284536;
    https://github.com/arben-adm/mcp-sequential-thinking/issues/12
    """
    return slot_rule(slot, ctx, "drop") + slot_rule(slot, ctx, "fail-list")


@rule("DEC004", "schema-rewritten-by-client", severity=Severity.WARNING, scope="slot", profiled=True,
      fix="Write the schema in the form the client would produce, so its meaning does not change")
def schema_rewritten(slot, ctx):
    """A client SDK or decoder changes what this part of the schema means before the model sees it.

    ## What it does
    Reports constructs a selected profile marks `rewrite`: openai-agents lists every
    property in `required` (an optional field becomes mandatory) and turns `oneOf` into
    `anyOf`; xgrammar and Outlines match `pattern` against the whole string and close
    objects that the schema leaves open.

    ## Why is this bad?
    What reaches the decoder is not the schema you wrote. The fix depends on it: an optional
    field must become required-and-nullable to keep its meaning under openai-agents.

    ## Example
    <!-- settings: {"profiles": ["openai-agents"]} -->
    ```json
    {"name": "search", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["q"],
     "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-agents"]} -->
    ```json
    {"name": "search", "inputSchema": {"type": "object", "additionalProperties": false, "required": ["q", "limit"],
     "properties": {"q": {"type": "string"}, "limit": {"type": ["integer", "null"]}}}}
    ```

    ## References
    openai-agents `agents/strict_schema.py` (ensure_strict_json_schema); the article "Your MCP Tool Schema Is Legal and Your Model Still Can't Obey It" ("project the schema").
    """
    return slot_rule(slot, ctx, "rewrite")


@rule("DEC005", "keyword-annotation-only", severity=Severity.INFO, scope="slot", profiled=True,
      fix="Express the intent with a keyword the target enforces")
def annotation_only(slot, ctx):
    """The target reads this keyword as an annotation only, with no effect on what is generated.

    ## What it does
    Reports keywords a selected profile marks `annotation` with an explanation, e.g.
    OpenAPI's `nullable` under llguidance: the decoder ignores it, so `null` is never
    generated although the author meant to allow it.

    ## Why is this bad?
    It is harmless to the request but the author's intent is lost; usually a JSON Schema
    spelling exists that the target does enforce.

    ## Example
    <!-- settings: {"profiles": ["llguidance"]} -->
    ```json
    {"name": "note", "inputSchema": {"type": "object", "properties": {"due": {"type": "string", "nullable": true}}}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["llguidance"]} -->
    ```json
    {"name": "note", "inputSchema": {"type": "object", "properties": {"due": {"type": ["string", "null"]}}}}
    ```

    ## References
    https://github.com/guidance-ai/llguidance/blob/main/docs/json_schema.md; llguidance 1.9.1 probe.
    """
    return slot_rule(slot, ctx, "annotation")


@rule("DEC006", "schema-limit-exceeded", severity=Severity.ERROR, scope="slot", profiled=True,
      fix="Flatten or split the schema until it fits the target's limits")
def schema_limit(slot, ctx):
    """One schema exceeds a size limit of the target: nesting depth, properties, enum values, string budget.

    ## What it does
    Measures each schema slot as the profile counts it (object and array levels through
    `properties` and `items`; total properties; total enum values; characters of property
    names, definition names, enum and const values; one large string enum) and reports
    each limit exceeded.

    ## Why is this bad?
    The request fails (OpenAI: `6 levels of nesting exceeds limit of 5`) even though the
    schema is valid.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name":"deep","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name":"deep","inputSchema":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}},"required":["a"],"additionalProperties":false}}
    ```

    ## References
    https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas (limits);
    https://github.com/tidyverse/ellmer/issues/671
    """
    return slot_rule(slot, ctx, "limit")
