"""PRB: how the server answered ``tools/call`` requests whose arguments its own inputSchema
rejects."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import clip, tool_pointer, transcript_of


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
    t = transcript_of(collection, ctx)
    if not t:
        return
    for call in t.get("calls") or []:
        if _call_outcome(call) == "accepted":
            yield ctx.finding(tool_pointer(collection, call.get("tool")),
                              f"tools/call {call.get('tool')!r} with arguments its inputSchema rejects "
                              f"({clip(str(call.get('arguments')), 60)}) returned a normal result: the server does "
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
    t = transcript_of(collection, ctx)
    if not t:
        return
    for call in t.get("calls") or []:
        outcome = _call_outcome(call)
        if outcome not in ("ok", "accepted"):
            yield ctx.finding(tool_pointer(collection, call.get("tool")),
                              f"tools/call {call.get('tool')!r} with invalid arguments got {outcome}: the model "
                              "gets no usable feedback (expected isError: true or -32602)")
