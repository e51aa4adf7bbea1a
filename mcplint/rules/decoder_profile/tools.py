"""DEC: what a profile requires of a tool itself: its name and its description."""

from __future__ import annotations

from ...model import Pointer, Severity
from ...registry import rule
from .common import emit, server_name, siblings, tool_effects

# The effects each tool rule reports (by subject).
SUBJECTS_OF = {"DEC007": ("tool_name", "tool_name_length"), "DEC008": ("tool_description_length",)}


@rule("DEC007", "tool-name-rejected-by-profile", severity=Severity.ERROR, scope="tool", profiled=True,
      fix="Rename the tool to fit the target's name rule")
def tool_name_rejected(tool, ctx):
    """The tool's name breaks the target's rule for function names (characters or length).

    ## What it does
    Checks the tool name against the profile's `tool_name.pattern` and `tool_name_length`
    limit (OpenAI: `^[a-zA-Z0-9_-]{1,128}$`, and information past the 64 characters it
    documents, which Azure OpenAI and DeepSeek keep to; Gemini: starts with a letter or
    underscore, `. : -` allowed, at most 128, a warning past the 64 Vertex AI documents; Anthropic: at most 128 characters). A name that
    is only too long is one finding, in the provider's words for the length. For a client that shows
    the model a name of its own, built from the server's name (gemini-cli `mcp_<server>_<tool>`,
    cut past 63 characters; Codex `mcp__<server>__<tool>`, cut past 64) or that leaves a tool out
    by the two names together (Cursor: 60 characters or more), it reports the cut or the tool
    left out: on that very name when the server's name is known (`probe --from`, `--server-name`,
    the configuration's `server-name`), else where it happens whatever the server is called.
    A client that keeps one tool per name it shows (gemini-cli) leaves out the earlier of two
    tools shown under one name: that tool is reported. A client that withholds a server's whole
    tool set over one name it refuses (Claude Desktop and claude.ai: `^[a-zA-Z0-9_-]{1,64}$`,
    `on_reject: fail-list`) is reported as losing the list: the finding names how many tools
    that is, and the summary counts every tool of the server as lost.

    ## Why is this bad?
    MCP allows names these APIs refuse; the whole request fails, or (Claude Desktop) every chat
    sees none of the connector's tools while its settings list them all. A client that cuts a long
    name shows the model a mangled one (gemini-cli's permission rules then no longer match it,
    and two cut names can collide). Characters such a client replaces are not reported: it maps
    the call back to the tool's own name.

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
    https://github.com/Finerestaurant/kicad-mcp-python/issues/2; https://github.com/anthropics/claude-code/issues/96152;
    https://github.com/aaif-goose/goose/pull/10659; https://github.com/googleapis/python-genai/blob/main/google/genai/types.py;
    https://github.com/evoila/meho/issues/2745
    """
    profile = ctx.profile
    if profile is None:
        return
    for e in tool_effects(profile, tool, ctx.memo, server_name(tool, ctx), siblings(ctx)):
        if e.subject in SUBJECTS_OF["DEC007"]:
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
    for e in tool_effects(profile, tool, ctx.memo, server_name(tool, ctx), siblings(ctx)):
        if e.subject in SUBJECTS_OF["DEC008"]:
            yield emit(ctx, profile, e, Pointer(), tool.name)
