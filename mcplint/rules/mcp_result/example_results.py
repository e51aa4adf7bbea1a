"""MCP3xx: the result of each example of an MCP Description tool declaration (MCP302-MCP311).

The result's ``structuredContent`` against ``outputSchema``, the TextContent mirror, and the
result fields each protocol version defines, checked with the same engine as ``mcplint
validate`` (:mod:`mcplint.validate`). Pointers are absolute: the example's pointer plus the
path inside it.
"""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...versions import before, since
from .common import coded_problems, example_label


@rule("MCP302", "tool-example-output-mismatch", severity=Severity.ERROR, scope="tool",
      requires="examples", versions=since("2025-06-18"),
      fix="Change the example's structuredContent, or the outputSchema, so they agree")
def tool_example_output_mismatch(tool, ctx):
    """A successful tool example's structuredContent does not validate against outputSchema.

    ## What it does
    Validates the `structuredContent` of every successful example result (not
    `isError: true`) against the tool's full, un-projected `outputSchema`, including array
    and primitive values (legal from 2026-07-28), and reports each failing location.

    ## Why is this bad?
    MCP requires a server that declares an `outputSchema` to return structured results that
    conform to it, and clients SHOULD validate them. An example that breaks its own schema
    documents a result a validating client would refuse.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "list_users", "inputSchema": {"type": "object", "additionalProperties": false},
       "outputSchema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}},
                        "required": ["id"]}},
       "examples": {"all": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "[{\\"id\\": 1}]"}],
                    "structuredContent": [{"id": 1}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "list_users", "inputSchema": {"type": "object", "additionalProperties": false},
       "outputSchema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}},
                        "required": ["id"]}},
       "examples": {"all": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "[{\\"id\\": \\"1\\"}]"}],
                    "structuredContent": [{"id": "1"}]}}}}]}
    ```

    ## References
    MCP 2025-06-18+ server/tools "Output Schema" (servers MUST provide conforming structured
    results); SEP-2106 (`structuredContent` may be any JSON value from 2026-07-28); MCP
    Description §9.3 (`tool-example-schema-mismatch`).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import OUTPUT_MISMATCH

    for ptr, ex, p in coded_problems(tool, ctx, OUTPUT_MISMATCH):
        yield ctx.finding(ptr / "result" + p.path,
                          f"{example_label(ptr)}: structuredContent does not match outputSchema: {p.message} [{p.keyword}]; "
                          "a client that validates results would reject it")


@rule("MCP303", "missing-tool-example-structured-content", severity=Severity.ERROR, scope="tool",
      requires="examples",
      versions=since("2025-06-18"), fix="Add the structuredContent the tool returns for this call")
def missing_tool_example_structured_content(tool, ctx):
    """A successful example result has no structuredContent although the tool declares outputSchema.

    ## What it does
    Reports a successful example result (no `isError: true`) that lacks
    `structuredContent` when the tool declares an `outputSchema`.

    ## Why is this bad?
    A tool with an `outputSchema` MUST return conforming structured results. An example
    without one documents a result that breaks the contract, and clients that read
    `structuredContent` get nothing.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
       "examples": {"paris": {"input": {},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
       "examples": {"paris": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "{\\"celsius\\": 21}"}],
                    "structuredContent": {"celsius": 21}}}}}]}
    ```

    ## References
    MCP 2025-06-18+ server/tools "Output Schema"; MCP Description §9.3 (a successful result
    MUST contain `structuredContent` when the Tool declares `outputSchema`,
    `missing-tool-example-structured-content`).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import MISSING_STRUCTURED

    for ptr, ex, p in coded_problems(tool, ctx, MISSING_STRUCTURED):
        yield ctx.finding(ptr / "result",
                          f"{example_label(ptr)}: the result has no structuredContent, but the tool declares an "
                          "outputSchema, so a successful result must carry a conforming structuredContent")


@rule("MCP304", "structured-tool-error-example", severity=Severity.ERROR, scope="tool",
      fix_safety="unsafe", fix_note="it removes `structuredContent` from an example error result",
      requires="examples", versions=since("2025-06-18"),
      fix="Drop structuredContent from the error result, or set isError to false if the call succeeded")
def structured_tool_error_example(tool, ctx):
    """An example error result (isError: true) carries structuredContent.

    ## What it does
    Reports an example result with `isError: true` that also has `structuredContent`.

    ## Why is this bad?
    `outputSchema` describes successful results only: an error result is not checked
    against it, and MCP Description requires error examples to carry unstructured `content`
    only. Structured data on an error reads like a success to a client that looks at
    `structuredContent` first.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"unknown-city": {"input": {},
         "result": {"resultType": "complete", "isError": true,
                    "content": [{"type": "text", "text": "unknown city"}], "structuredContent": {"celsius": 0}}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"unknown-city": {"input": {},
         "result": {"resultType": "complete", "isError": true,
                    "content": [{"type": "text", "text": "unknown city"}]}}}}]}
    ```

    ## References
    MCP Description §9.3 (a Tool execution-error result MUST NOT contain
    `structuredContent`; `structured-tool-error-example`); MCP server/tools "Error Handling".
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import STRUCTURED_ERROR

    for ptr, ex, p in coded_problems(tool, ctx, STRUCTURED_ERROR):
        yield ctx.finding(ptr / "result" / "structuredContent",
                          f"{example_label(ptr)}: an error result (isError: true) carries structuredContent; outputSchema "
                          "does not describe errors, and error examples carry only content",
                          patch=({"op": "remove", "path": str(ptr / "result" / "structuredContent")},))


@rule("MCP305", "missing-structured-content-mirror", severity=Severity.WARNING, scope="tool",
      requires="examples",
      versions=since("2025-06-18"), fix="Add a text content block holding the JSON serialization of structuredContent")
def missing_structured_content_mirror(tool, ctx):
    """An example result with array or primitive structuredContent has no TextContent mirror.

    ## What it does
    Reports an example result whose `structuredContent` is an array, a string, a number, a
    boolean or null, and none of whose `text` content blocks holds the JSON serialization of
    that value (compared as parsed JSON, so spacing and key order do not matter).

    ## Why is this bad?
    SEP-2106 requires a server returning non-object `structuredContent` to also emit the
    serialized JSON as text, so older clients that expect an object, or read only
    `content`, still get the value. The MCP spec page keeps the mirror a SHOULD, and the
    official array example omits it, hence a warning rather than an error.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "list_ids", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "array", "items": {"type": "string"}},
       "examples": {"all": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "Found 2 users"}],
                    "structuredContent": ["u1", "u2"]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "list_ids", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "array", "items": {"type": "string"}},
       "examples": {"all": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "[\\"u1\\", \\"u2\\"]"}],
                    "structuredContent": ["u1", "u2"]}}}}]}
    ```

    ## References
    SEP-2106 (servers using array or primitive `structuredContent` MUST also return it as
    TextContent); MCP 2025-06-18+ server/tools "Structured Content" (SHOULD mirror).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import MIRROR_MISSING, WARNING

    for ptr, ex, p in coded_problems(tool, ctx, MIRROR_MISSING):
        if p.severity == WARNING:  # non-object values; an object's missing mirror is only a SHOULD
            yield ctx.finding(ptr / "result" / "content",
                              f"{example_label(ptr)}: {p.message}")


@rule("MCP306", "structured-content-mirror-mismatch", severity=Severity.WARNING, scope="tool",
      requires="examples",
      versions=since("2025-06-18"), fix="Make the JSON text block the serialization of structuredContent itself")
def structured_content_mirror_mismatch(tool, ctx):
    """A JSON text block of an example result is not the same value as its structuredContent.

    ## What it does
    When no text block mirrors `structuredContent` exactly, reports the first text block
    that parses as JSON of the same kind (object, array, ...) but holds a different value.
    An error when the `outputSchema` is a JSON Structure schema, a warning otherwise.

    ## Why is this bad?
    Clients without structured-content support show the model the text block. A stale or
    hand-edited mirror gives those models a different answer from the one validated against
    `outputSchema`. The JSON Structure MCP binding makes this a MUST: the mirror holds the
    JSON serialization of the same value.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
       "examples": {"paris": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "{\\"celsius\\": 19}"}],
                    "structuredContent": {"celsius": 21}}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "outputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}},
       "examples": {"paris": {"input": {},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "{\\"celsius\\": 21.0}"}],
                    "structuredContent": {"celsius": 21}}}}}]}
    ```

    ## References
    JSON Structure MCP binding §8 (the mirror MUST contain the JSON serialization of the same
    value); MCP 2025-06-18+ server/tools "Structured Content".
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import ERROR, MIRROR_MISMATCH

    for ptr, ex, p in coded_problems(tool, ctx, MIRROR_MISMATCH):
        yield ctx.finding(ptr / "result" + p.path, f"{example_label(ptr)}: {p.message}",
                          severity=Severity.ERROR if p.severity == ERROR else None)


@rule("MCP307", "non-object-structured-content", severity=Severity.ERROR, scope="tool",
      requires="examples", per_version=True,
      versions=frozenset({"2025-06-18", "2025-11-25"}),
      fix="Wrap the value in an object for these versions, or scope the declaration to 2026-07-28")
def non_object_structured_content(tool, ctx):
    """An example result has array or primitive structuredContent in a version that allows only objects.

    ## What it does
    For MCP 2025-06-18 and 2025-11-25, reports example results whose `structuredContent` is
    not a JSON object.

    ## Why is this bad?
    Before 2026-07-28, `structuredContent` is typed as an object. Clients of those versions
    may reject the result or drop the value. Array and primitive values are legal only from
    2026-07-28 (SEP-2106).

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "list_ids", "inputSchema": {"type": "object"},
       "examples": {"all": {"input": {},
         "result": {"content": [{"type": "text", "text": "[\\"u1\\"]"}], "structuredContent": ["u1"]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "users", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "list_ids", "inputSchema": {"type": "object"},
       "examples": {"all": {"input": {},
         "result": {"content": [{"type": "text", "text": "{\\"ids\\": [\\"u1\\"]}"}],
                    "structuredContent": {"ids": ["u1"]}}}}}]}
    ```

    ## References
    MCP 2025-06-18 and 2025-11-25 schema.ts (`structuredContent?: { [key: string]: unknown }`);
    SEP-2106 and the 2026-07-28 changelog (any JSON value); the MCP Description validation guide "Results" table;
    MCP Description `tool-example-result-version-mismatch`.
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import VERSION_FIELD

    for ptr, ex, p in coded_problems(tool, ctx, VERSION_FIELD):
        if p.keyword == "type":
            yield ctx.finding(ptr / "result" + p.path, f"{example_label(ptr)}: {p.message}")


@rule("MCP308", "structured-content-undefined-in-version", severity=Severity.WARNING, scope="tool",
      requires="examples", per_version=True,
      versions=before("2025-06-18"), fix="Scope the example's declaration to 2025-06-18 or later, or drop the field")
def structured_content_undefined_in_version(tool, ctx):
    """An example result carries structuredContent in a version that does not define it.

    ## What it does
    For MCP 2024-11-05 and 2025-03-26, reports example results that have a
    `structuredContent` member.

    ## Why is this bad?
    `structuredContent` exists from 2025-06-18. Results are open types, so an older client
    keeps the member but gives it no meaning: the model sees only `content`. An example
    documenting it for those versions promises something the client never uses.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2025-03-26"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {},
         "result": {"content": [{"type": "text", "text": "{\\"celsius\\": 21}"}], "structuredContent": {"celsius": 21}}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2025-03-26"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {}, "result": {"content": [{"type": "text", "text": "{\\"celsius\\": 21}"}]}}}}]}
    ```

    ## References
    MCP schema.ts 2024-11-05 and 2025-03-26 (`CallToolResult` has no `structuredContent`;
    `Result` is open); the MCP Description validation guide "Results" table; MCP Description
    `tool-example-result-version-mismatch`.
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import VERSION_FIELD

    for ptr, ex, p in coded_problems(tool, ctx, VERSION_FIELD):
        if p.keyword == "structuredContent":
            yield ctx.finding(ptr / "result" + p.path, f"{example_label(ptr)}: {p.message}")


@rule("MCP309", "missing-result-type", severity=Severity.ERROR, scope="tool",
      fix_safety="safe", fix_note="`resultType: \"complete\"` is what a missing one means",
      requires="examples", versions=frozenset({"2026-07-28"}),
      fix='Add "resultType": "complete" to the example result')
def missing_result_type(tool, ctx):
    """An example result for MCP 2026-07-28 lacks resultType: "complete".

    ## What it does
    For MCP 2026-07-28, reports example results without `resultType`, or whose
    `resultType` is not `"complete"` (a tool example documents a completed call).

    ## Why is this bad?
    From 2026-07-28 every result MUST carry `resultType`; clients read it to decide how to
    parse the result. A completed tool result says `"complete"`; `"input_required"` and
    other kinds are not tool results.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {}, "result": {"content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    MCP 2026-07-28 schema.ts (`Result.resultType`, required); the MCP Description validation guide ("a completed Tool
    result in an example needs resultType: "complete" for MCP 2026-07-28; omitting it is an
    error"); MCP Description §9.3.
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import RESULT_TYPE

    for ptr, ex, p in coded_problems(tool, ctx, RESULT_TYPE):
        if p.path:
            yield ctx.finding(ptr / "result" + p.path,
                              f"{example_label(ptr)}: resultType is {ex['result']['resultType']!r}; a tool example documents "
                              "a completed call, so it must be \"complete\"")
        else:
            yield ctx.finding(ptr / "result", f"{example_label(ptr)}: {p.message}",
                              patch=({"op": "add", "path": str(ptr / "result" / "resultType"), "value": "complete"},))


@rule("MCP310", "result-type-undefined-in-version", severity=Severity.WARNING, scope="tool",
      fix_safety="unsafe", fix_note="it removes `resultType` for every version the document declares",
      requires="examples", per_version=True,
      versions=before("2026-07-28"), fix="Drop resultType, or scope the declaration to 2026-07-28")
def result_type_undefined_in_version(tool, ctx):
    """An example result carries resultType in a version before 2026-07-28.

    ## What it does
    For versions before 2026-07-28, reports example results that have a `resultType`
    member.

    ## Why is this bad?
    `resultType` is defined from 2026-07-28. Earlier result types are open, so the member
    is permitted but means nothing to those clients. Usually the example was written for
    2026-07-28 and the declaration's scope is wider than intended.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {}, "result": {"content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    The MCP Description validation guide ("For MCP 2025-11-25, the open result type permits that field without defining
    its meaning: including it produces a warning, not an error"); MCP schema.ts
    (`Result` has an index signature in every version).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import VERSION_FIELD

    for ptr, ex, p in coded_problems(tool, ctx, VERSION_FIELD):
        if p.keyword == "resultType":
            yield ctx.finding(ptr / "result" + p.path, f"{example_label(ptr)}: {p.message}",
                              patch=({"op": "remove", "path": str(ptr / "result" / "resultType")},))


@rule("MCP311", "tool-example-result-shape", severity=Severity.ERROR, scope="tool",
      requires="examples", per_version=True,
      fix="Make the example result a CallToolResult of that version: a content array of known content blocks")
def tool_example_result_shape(tool, ctx):
    """An example result is not a well-formed CallToolResult for the protocol version.

    ## What it does
    Checks each example result against the official MCP JSON Schema of `CallToolResult`
    for every version the declaration applies to: `content` is required and is an array of
    content blocks that version defines (`audio` from 2025-03-26, `resource_link` from
    2025-06-18), each with its required members; `isError` is a boolean.

    ## Why is this bad?
    A result that is not a valid `CallToolResult` fails the client's schema check before
    anything reaches the model. `content` stays required even when `structuredContent` is
    present.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {}, "result": {"resultType": "complete", "content": [{"type": "text"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    MCP schema.json per version, `CallToolResult` (`content` required; `ContentBlock`
    variants); MCP Description §9.3 (`result` MUST contain `content`).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import RESULT_SHAPE

    for ptr, ex, p in coded_problems(tool, ctx, RESULT_SHAPE):
        yield ctx.finding(ptr / "result" + p.path,
                          f"{example_label(ptr)}: not a valid MCP {ctx.version} CallToolResult: {p.message} [{p.keyword}]")
