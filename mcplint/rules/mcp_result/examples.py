"""MCP3xx: the examples of an MCP Description tool declaration, and their inputs (MCP301,
MCP312, MCP313).

A declaration may carry ``examples``: a map from an example name to a Tool Example Object
``{"input": <arguments object>, "result": <completed CallToolResult>}`` (mcpdesc §9.3; an array
of such objects is accepted too). These rules check that shape, the input against
``inputSchema`` with the same engine as ``mcplint validate`` (:mod:`mcplint.validate`), and say
where validation could not be complete. Pointers are absolute: the example's pointer plus the
path inside it.
"""

from __future__ import annotations

import re

from ...model import Pointer, Severity
from ...registry import rule
from ..mcp_tool.common import kind
from .common import example_label, input_problems, result_problems, tool_examples


_EXAMPLE_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
_ENVELOPE = ("jsonrpc", "id", "error")
_WORKFLOW = ("task", "inputRequests", "requestState")


@rule("MCP301", "tool-example-input-mismatch", severity=Severity.ERROR, scope="tool", requires="examples",
      fix="Change the example's input, or the inputSchema, so the documented call is valid")
def tool_example_input_mismatch(tool, ctx):
    """A tool example's input does not validate against the tool's inputSchema.

    ## What it does
    Validates the `input` of every example in an MCP Description tool declaration against
    the tool's full `inputSchema` (JSON Schema 2020-12 unless `$schema` says otherwise,
    nothing fetched) and reports each failing location inside the input, with the keyword
    that failed.

    ## Why is this bad?
    An example documents a call the server accepts. One that its own schema rejects teaches
    readers, generated docs and models to send arguments the server will refuse, and shows
    that the schema and the implementation have drifted apart.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"]},
       "examples": {"paris": {"input": {"city": 75},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"]},
       "examples": {"paris": {"input": {"city": "Paris"},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    MCP Description §9.3 (Tool Example `input` MUST validate against `inputSchema`,
    diagnostic `tool-example-schema-mismatch`); JSON Structure MCP binding §8 (diagnostics
    as JSON Pointers with the failing keyword).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import INPUT_MISMATCH

    for ptr, ex in tool_examples(tool):
        for p in input_problems(tool, ex, ctx):
            if p.code == INPUT_MISMATCH:
                yield ctx.finding(ptr / "input" + p.path,
                                  f"{example_label(ptr)}: the input does not match inputSchema: {p.message} "
                                  f"[{p.keyword}]; the server would reject this documented call")


@rule("MCP312", "malformed-tool-example", severity=Severity.ERROR, scope="tool", requires="mcpdesc",
      fix="Write each example as {\"input\": {...arguments}, \"result\": {...completed CallToolResult}}")
def malformed_tool_example(tool, ctx):
    """A tool example is not an {input, result} pair of a completed call.

    ## What it does
    Checks the shape of an MCP Description tool's `examples`: a non-empty map whose names
    match `^[A-Za-z0-9._-]+$`, each entry an object with exactly `input` (an object: the
    call's `arguments`) and `result` (an object: the completed `CallToolResult`). It also
    reports results that contain a JSON-RPC envelope (`jsonrpc`, `id`, `error`) or an
    unfinished workflow (`task`, `inputRequests`, `requestState`).

    ## Why is this bad?
    Anything else cannot be checked against the tool's schemas or turned into a call and a
    result by documentation and mock tooling. An envelope or a task handle means the example
    documents a transport message rather than the tool's result.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"arguments": {"city": "Paris"},
         "result": {"jsonrpc": "2.0", "id": 1, "resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object"},
       "examples": {"paris": {"input": {"city": "Paris"},
         "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    MCP Description §9.3 "Named Tool Examples" (Tool Example Object: exactly `input` and
    `result`; names `^[A-Za-z0-9._-]+$`; no envelope or non-completed forms;
    `tool-example-json-rpc-envelope`, `incomplete-tool-example-result`).
    """
    if tool.context != "mcpdesc" or not isinstance(tool.data, dict) or "examples" not in tool.data:
        return  # a native MCP Tool has no examples member (other rules report unknown members)
    examples = tool.data["examples"]
    base = tool.pointer / "examples"
    if isinstance(examples, dict):
        if not examples:
            yield ctx.finding(base, "examples is an empty map; give at least one named example or drop the member")
        for name in examples:
            if not _EXAMPLE_NAME.match(name):
                yield ctx.finding(base / name, f"example name {name!r} must match ^[A-Za-z0-9._-]+$ (it is used as a "
                                               "stable selection name)")
    elif not isinstance(examples, list):
        yield ctx.finding(base, f"examples must be a map of named examples, not {kind(examples)}")
        return
    for ptr, ex in tool.examples:
        ptr = Pointer(ptr)
        if not isinstance(ex, dict):
            yield ctx.finding(ptr, f"{example_label(ptr)} must be an object {{\"input\": ..., \"result\": ...}}")
            continue
        for member in ("input", "result"):
            if member not in ex:
                yield ctx.finding(ptr, f"{example_label(ptr)} has no {member!r}: an example pairs the call's input with "
                                       "its completed result")
            elif not isinstance(ex[member], dict):
                yield ctx.finding(ptr / member, f"{example_label(ptr)}: {member} must be an object, not "
                                                f"{kind(ex[member])}")
        for extra in ex:
            if extra not in ("input", "result"):
                yield ctx.finding(ptr / extra, f"{example_label(ptr)} has member {extra!r}; a tool example holds exactly "
                                               "input and result")
        result = ex.get("result")
        if isinstance(result, dict):
            for f in _ENVELOPE:
                if f in result:
                    yield ctx.finding(ptr / "result" / f, f"{example_label(ptr)}: the result holds the JSON-RPC envelope "
                                                          f"member {f!r}; give the CallToolResult itself")
            for f in _WORKFLOW:
                if f in result:
                    yield ctx.finding(ptr / "result" / f, f"{example_label(ptr)}: the result holds {f!r}, a call that has not "
                                                          "completed; a tool example documents a completed result")


@rule("MCP313", "tool-example-validation-incomplete", severity=Severity.WARNING, scope="tool",
      requires="examples",
      fix="Make the schema self-contained (local $defs) and in a dialect mcplint implements")
def tool_example_validation_incomplete(tool, ctx):
    """A tool example could not be fully validated against the tool's schemas.

    ## What it does
    Reports example inputs and results that mcplint could not check completely: the schema
    has an external `$ref` (never fetched), an unresolvable local reference, an
    unsupported `$schema` dialect, JSON Structure validation is not installed, the schema
    itself is invalid, or a validation bound (time, depth, size) stopped the check.

    ## Why is this bad?
    An example that was not checked is not known to be valid. Saying nothing would read as
    a pass, so the gap is reported where it happened.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object",
                "properties": {"city": {"$ref": "https://schemas.example.com/city.json"}}},
       "examples": {"paris": {"input": {"city": "Paris"},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "weather", "version": "1.0.0"}, "protocolVersions": ["2026-07-28"],
     "tools": [{"name": "get_temp", "inputSchema": {"type": "object", "$defs": {"city": {"type": "string"}},
                "properties": {"city": {"$ref": "#/$defs/city"}}},
       "examples": {"paris": {"input": {"city": "Paris"},
                              "result": {"resultType": "complete", "content": [{"type": "text", "text": "21 C"}]}}}}]}
    ```

    ## References
    MCP Description §9.2 and §9.3 (warn when compatibility validation is incomplete, never
    report it as complete; `incomplete-tool-example-validation`); SEP-2106 (never
    auto-dereference a network `$ref`; bound validation work).
    """
    if not tool.examples:
        return  # no example results: nothing to check, and no validator to import
    from ...validate import INCOMPLETE

    for ptr, ex in tool_examples(tool):
        for p in input_problems(tool, ex, ctx):
            if p.code == INCOMPLETE:
                yield ctx.finding(ptr / "input" + p.path, f"{example_label(ptr)}: input not fully validated: {p.message}")
        for p in result_problems(tool, ex, ctx.version, ctx):
            if p.code == INCOMPLETE:
                yield ctx.finding(ptr / "result" + p.path, f"{example_label(ptr)}: result not fully validated: {p.message}")
