"""DEC: limits a profile puts on one request carrying all of the server's tools."""

from __future__ import annotations

from ...model import Pointer, Severity
from ...registry import rule
from .common import emit, kept_slot_effects, lazy_profiles, slot_facts


@rule("DEC009", "request-limit-exceeded", severity=Severity.ERROR, scope="document", profiled=True,
      fix="Offer fewer tools per request, or fewer optional/union parameters")
def request_limit(collection, ctx):
    """The server's tools together exceed a per-request limit of the target.

    ## What it does
    Counts over every tool of one tools/list result, as one request would carry them:
    the number of tools (OpenAI: 128), strict tools (Anthropic: 20), optional parameters
    (Anthropic: 24 across all strict schemas) and union-typed parameters (Anthropic: 16).
    `mcplint probe --from CONFIG` also counts the tools of every server of a client's
    configuration together, as the client sends them in one request (Cursor: 80 MCP tools over
    all enabled servers), and names the servers whose tools fall past the cap.

    ## Why is this bad?
    Each tool is fine on its own, yet the request that carries them all fails, e.g.
    `Invalid 'tools': array too long` or `The compiled grammar is too large`.

    ## Example
    <!-- settings: {"profiles": ["anthropic-strict"]} -->
    ```json
    {"tools": [{"name": "t", "inputSchema": {"type": "object", "additionalProperties": false, "properties": {
      "a1": {"type": "string"}, "a2": {"type": "string"}, "a3": {"type": "string"}, "a4": {"type": "string"},
      "a5": {"type": "string"}, "a6": {"type": "string"}, "a7": {"type": "string"}, "a8": {"type": "string"},
      "a9": {"type": "string"}, "b1": {"type": "string"}, "b2": {"type": "string"}, "b3": {"type": "string"},
      "b4": {"type": "string"}, "b5": {"type": "string"}, "b6": {"type": "string"}, "b7": {"type": "string"},
      "b8": {"type": "string"}, "b9": {"type": "string"}, "c1": {"type": "string"}, "c2": {"type": "string"},
      "c3": {"type": "string"}, "c4": {"type": "string"}, "c5": {"type": "string"}, "c6": {"type": "string"},
      "c7": {"type": "string"}}}}]}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["anthropic-strict"]} -->
    ```json
    {"tools": [{"name": "t", "inputSchema": {"type": "object", "additionalProperties": false,
      "properties": {"a1": {"type": "string"}}}}]}
    ```

    ## References
    https://platform.claude.com/docs/en/build-with-claude/structured-outputs (complexity limits);
    https://github.com/zed-industries/zed/issues/32946
    """
    profile = ctx.profile
    if profile is None:
        return
    memo = ctx.memo
    for e in lazy_profiles().evaluate_request(profile, collection.tools, tuple(collection.container),
                                              lambda schema: slot_facts(schema, memo),
                                              lambda p, slot: kept_slot_effects(p, slot, memo)):
        yield emit(ctx, profile, e, Pointer(), None)
