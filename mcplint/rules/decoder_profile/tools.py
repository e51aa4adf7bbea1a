"""DEC: what a profile requires of a tool itself: its name and its description."""

from __future__ import annotations

from ...model import Pointer, Severity
from ...registry import rule
from .common import emit, tool_effects


@rule("DEC007", "tool-name-rejected-by-profile", severity=Severity.ERROR, scope="tool", profiled=True,
      fix="Rename the tool to fit the target's name rule")
def tool_name_rejected(tool, ctx):
    """The tool's name breaks the target's rule for function names (characters or length).

    ## What it does
    Checks the tool name against the profile's `tool_name.pattern` and `tool_name_length`
    limit (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`; Gemini: starts with a letter or underscore,
    `. : -` allowed, at most 64; Anthropic: at most 128 characters).

    ## Why is this bad?
    MCP allows names these APIs refuse; the whole request fails. Clients that prefix tool
    names with the server name make long names longer still.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "set alert", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "set_alert", "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}}
    ```

    ## References
    https://github.com/Finerestaurant/kicad-mcp-python/issues/2; https://github.com/anthropics/claude-code/issues/96152
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in tool_effects(profile, tool):
        if e.subject in ("tool_name", "tool_name_length"):
            yield emit(ctx, profile, e, Pointer(), tool.name)


@rule("DEC008", "tool-description-too-long", severity=Severity.ERROR, scope="tool", profiled=True,
      fix="Shorten the description to the target's limit")
def tool_description_too_long(tool, ctx):
    """The tool's description is longer than the target accepts.

    ## What it does
    Compares the length of `description` with the profile's `tool_description_length`
    limit (OpenAI: 1024 characters).

    ## Why is this bad?
    The request fails with `string_above_max_length`, taking every other tool with it.

    ## Example
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```yaml
    name: summarize
    description: "Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize. Summarize."
    inputSchema: {type: object, properties: {}, additionalProperties: false}
    ```

    ## Use instead
    <!-- settings: {"profiles": ["openai-strict"]} -->
    ```json
    {"name": "summarize", "description": "Summarize a text.", "inputSchema": {"type": "object", "properties": {},
     "additionalProperties": false}}
    ```

    ## References
    https://github.com/getsentry/sentry-mcp/issues/106
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in tool_effects(profile, tool):
        if e.subject == "tool_description_length":
            yield emit(ctx, profile, e, Pointer(), tool.name)
