"""MCP: the Tool object itself, as each protocol version defines it (MCP101-MCP105, MCP118).

Whether a ``tools`` entry is an object, has ``name`` and ``inputSchema``, gives its members
the right JSON types, carries only members some version defines, and only those its version
defines; ``execution`` (2025-11-25). Per-version facts come from the official schema.ts of
each version and the MCP Description validation guide (Tool is a closed type in every version).
"""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...versions import TOOL_MEMBERS  # the Tool members and the versions that define them
from .common import V2025_11, is_tool, kind


# Members an MCP Description Tool declaration may carry besides the MCP ones (MCP Description 0.8.0
# §9.1; native projection removes them), plus x-* specification extensions (§14.2).
DESCRIPTION_ONLY = ("protocolVersions", "examples", "interactionExamples", "tags", "elicitations", "deprecated",
                    "security", "clientRequirements")
TASK_SUPPORT = ("forbidden", "optional", "required")


@rule("MCP101", "tool-not-object", severity=Severity.ERROR, scope="tool",
      fix="Make each entry of tools a JSON object with at least name and inputSchema")
def tool_not_object(tool, ctx):
    """A tools entry is not a JSON object.

    ## What it does
    Reports an entry of the `tools` array (or a whole document read as one Tool) that is
    a string, number, array, boolean or null instead of an object.

    ## Why is this bad?
    Every MCP version defines `Tool` as an object with at least `name` and `inputSchema`.
    A client cannot read anything else as a tool: it rejects the list or drops the entry,
    so the model never sees that tool.

    ## Example
    ```json
    {"tools": ["search", {"name": "fetch", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object"}},
               {"name": "fetch", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP schema.ts `Tool` (every version 2024-11-05 … 2026-07-28); MCP Description validation guide,
    "Summary by protocol version".
    """
    if not is_tool(tool):
        yield ctx.finding(tool.pointer, f"this tool is {kind(tool.data)}, not an object; MCP clients "
                                        "cannot read it as a Tool and drop it")


@rule("MCP102", "missing-tool-member", severity=Severity.ERROR, scope="tool",
      fix_safety="unsafe",
      fix_note="it adds a closed no-argument inputSchema, which asserts that the tool takes no arguments",
      fix="Add the missing member: every Tool needs a string name and an inputSchema object")
def missing_tool_member(tool, ctx):
    """A Tool lacks `name` or `inputSchema`.

    ## What it does
    Reports a Tool object without a `name` member or without an `inputSchema` member.

    ## Why is this bad?
    Both are required in every MCP version. Without `name` the tool cannot be called;
    without `inputSchema` clients following the schema reject the tool, and those that
    tolerate it give the model no argument contract.

    ## Example
    ```json
    {"name": "get_time", "description": "Current time"}
    ```

    ## Use instead
    ```json
    {"name": "get_time", "description": "Current time",
     "inputSchema": {"type": "object", "additionalProperties": false}}
    ```

    ## References
    MCP schema.ts `Tool`: `required = ["name", "inputSchema"]` in every version.
    """
    if not is_tool(tool):
        return
    for member in ("name", "inputSchema"):
        if member not in tool.data:
            patch = [{"op": "add", "path": str(tool.pointer / "inputSchema"),
                      "value": {"type": "object", "additionalProperties": False}}] if member == "inputSchema" else []
            yield ctx.finding(tool.pointer, f"tool {tool.label} has no {member!r}, which every MCP version "
                                            "requires; clients reject or drop it", patch=patch)


_MEMBER_TYPES = {"name": (str,), "title": (str,), "description": (str,), "inputSchema": (dict,),
                 "outputSchema": (dict,), "annotations": (dict,), "icons": (list,), "execution": (dict,),
                 "_meta": (dict,)}
_MEMBER_WANT = {str: "a string", dict: "an object", list: "an array"}


@rule("MCP103", "invalid-tool-member-type", severity=Severity.ERROR, scope="tool",
      fix_safety="unsafe", fix_note="it replaces the non-object inputSchema by a closed no-argument one",
      fix="Give the member the type MCP defines for it")
def invalid_tool_member_type(tool, ctx):
    """A Tool member has the wrong JSON type.

    ## What it does
    Checks the type of each Tool member defined in the versions checked: `name`, `title`
    and `description` are strings; `inputSchema`, `outputSchema`, `annotations`,
    `execution` and `_meta` are objects; `icons` is an array. An `inputSchema` of
    `true`, `null` or any non-object is reported here too.

    ## Why is this bad?
    The Tool type of every MCP version fixes these types. A client that validates the
    tools/list result rejects the tool; one that does not may crash or silently treat
    the member as absent. `inputSchema` MUST be a JSON Schema *object*: `true` and
    `null` are not accepted even for a tool without parameters.

    ## Example
    ```json
    {"name": "get_time", "inputSchema": null}
    ```

    ## Use instead
    ```json
    {"name": "get_time", "inputSchema": {"type": "object", "additionalProperties": false}}
    ```

    ## References
    MCP schema.ts `Tool` per version; 2025-11-25 server/tools.mdx: "inputSchema
    MUST be a valid JSON Schema object (not null)".
    """
    if not is_tool(tool):
        return
    for member, value in tool.data.items():
        types = _MEMBER_TYPES.get(member)
        if types is None or isinstance(value, types) or TOOL_MEMBERS[member].isdisjoint(ctx.versions):
            continue
        want = _MEMBER_WANT[types[0]]
        if member == "inputSchema":
            msg = (f"inputSchema is {kind(value)}; it must be a JSON Schema object with \"type\": \"object\" "
                   "(for a tool without parameters use {\"type\": \"object\", \"additionalProperties\": false})")
            yield ctx.finding(tool.pointer / member, msg, patch=[
                {"op": "replace", "path": str(tool.pointer / member),
                 "value": {"type": "object", "additionalProperties": False}}])
        else:
            yield ctx.finding(tool.pointer / member, f"{member!r} is {kind(value)}; MCP defines it as {want}, so "
                                                     "clients that validate the Tool reject it")


def _description_member(tool, key: str) -> bool:
    return tool.context == "mcpdesc" and (key in DESCRIPTION_ONLY or key.startswith("x-"))


@rule("MCP104", "unknown-tool-member", severity=Severity.WARNING, scope="tool",
      fix_safety="unsafe",
      fix_note=("it removes a member MCP does not define, which the server's code or another client may read (moving "
                "it under `_meta` keeps it)"),
      fix="Remove the member, or move the data under _meta (from 2025-06-18) with a namespaced key")
def unknown_tool_member(tool, ctx):
    """A Tool carries a member that no MCP version defines.

    ## What it does
    Reports Tool members other than `name`, `title`, `description`, `inputSchema`,
    `outputSchema`, `annotations`, `icons`, `execution` and `_meta`. In an MCP Description
    document a declaration may also carry the description-only members `protocolVersions`,
    `examples`, `interactionExamples`, `tags`, `elicitations`, `deprecated`, `security`,
    `clientRequirements` and `x-...` extensions.

    ## Why is this bad?
    `Tool` is a closed type in every MCP version: its TypeScript definition has no index
    signature, so its listed fields are the complete set (the generated JSON Schema not
    saying `additionalProperties: false` is a generation artifact). The official SDK
    clients discard a member they do not know (the TypeScript SDK's `ToolSchema` strips
    it, the Python SDK's `Tool` model ignores it), so whatever it was meant to tell a
    client is lost, though the tool itself still works: a warning, not an error.
    Extension data belongs in `_meta`, the Tool's extension point from 2025-06-18.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "category": "web"}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}}
    ```

    ## References
    MCP Description validation guide: "Tool is closed in every protocol version. Its
    extension point is `_meta`, from 2025-06-18"; MCP schema.ts per version; MCP
    Description 0.8.0 §9.1 (Tool Object) and §14.2 (`x-*` on Tool objects).
    """
    if not is_tool(tool):
        return
    for key in tool.data:
        if key in TOOL_MEMBERS or _description_member(tool, key):
            continue
        hint = " (it is an MCP Description member, allowed only in an mcpdesc document)" \
            if key in DESCRIPTION_ONLY or key.startswith("x-") else ""
        yield ctx.finding(tool.pointer / key, f"{key!r} is not a Tool member in any MCP version{hint}; Tool is a "
                                              "closed type, and the official SDK clients discard a member they "
                                              "do not know, so what it carries never reaches them",
                          patch=[{"op": "remove", "path": str(tool.pointer / key)}])


_REMOVED = {"execution": "it was removed in 2026-07-28 (task support moved to the io.modelcontextprotocol/tasks "
                         "extension)"}


@rule("MCP105", "tool-member-not-in-version", severity=Severity.ERROR, scope="tool", per_version=True,
      fix_safety="unsafe", fix_note="it removes a member that another protocol version defines",
      fix="Remove the member for this protocol version, or check a version that defines it")
def tool_member_not_in_version(tool, ctx):
    """A Tool member is used with a protocol version that does not define it.

    ## What it does
    Reports a Tool member that exists in some MCP version but not in the one being
    checked: `annotations` before 2025-03-26; `title`, `outputSchema` and `_meta`
    before 2025-06-18; `icons` before 2025-11-25; `execution` in any version other
    than 2025-11-25.

    ## Why is this bad?
    Tool is a closed type, so a member the version does not define is not allowed
    there. A client of that version ignores it (or rejects the tool): an `outputSchema`
    sent to a 2025-03-26 client is never enforced, and `execution.taskSupport` means
    nothing to a 2026-07-28 client, where tasks are an extension.

    ## Example
    <!-- settings: {"protocol-versions": ["2025-03-26"]} -->
    ```json
    {"name": "search", "title": "Web search", "inputSchema": {"type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "search", "description": "Web search", "inputSchema": {"type": "object"}}
    ```

    ## On a live server
    Most servers (every official SDK) send one tool list whatever version the client
    negotiated, so the author cannot send the member to new clients only. When the probe
    captured the same `tools/list` result under a version that defines the member and
    one that does not, the finding is information, not an error: a client of the older
    version drops the member (the official TypeScript SDK parses a Tool with a zod
    object, which strips unknown keys; the Python SDK's pydantic `Tool` ignores extra
    fields) and nothing else changes. Silence it by probing only the versions the server
    supports (`--protocol-version`, or `server-versions` in the configuration). It stays
    an error when no version that got this result defines the member (a server that
    tailors its list per version, and still sends it); for `execution` with
    `taskSupport: "required"`, because that client calls the tool without task
    augmentation and the server rejects every such call (the TypeScript SDK answers
    -32601); and in MCP Description documents, whose `protocolVersions` scopes the
    author controls.

    ## References
    MCP Description validation guide, Tool field table; MCP schema.ts per version; SEP-2663
    (tool-level `execution` dropped in 2026-07-28); TypeScript SDK `src/types.ts`
    (`ToolSchema`), Python SDK `mcp/types.py` (`Tool`).
    """
    if not is_tool(tool):
        return
    # A probe capture (mcplint.capture): every version that got this very tools/list result.
    shared = getattr(ctx.collection, "capture_versions", ()) or ()
    v = ctx.version
    for key in tool.data:
        avail = TOOL_MEMBERS.get(key)
        if avail is None or v in avail:
            continue
        if v > max(avail):
            why = _REMOVED.get(key, f"it is defined only up to {max(avail)}")
        elif len(avail) == 1:
            why = f"it exists only in {min(avail)}"
        else:
            why = f"it was added in {min(avail)}"
        patch = [{"op": "remove", "path": str(tool.pointer / key)}]
        defining = [w for w in shared if w in avail]
        value = tool.data[key]
        if key == "execution" and isinstance(value, dict) and value.get("taskSupport") == "required":
            # This client cannot know it must call the tool as a task, and a server that requires
            # one rejects a plain tools/call (the TypeScript SDK answers -32601): the tool is unusable.
            yield ctx.finding(tool.pointer / key, f"'execution' is not a Tool member in this protocol version: "
                                                  f"{why}; the tool requires task-augmented calls "
                                                  "(taskSupport: required), which a client of this version cannot "
                                                  "know to make, so every call it makes fails", patch=patch)
            continue
        if defining:  # one list for every version: an old client drops the member, nothing breaks
            yield ctx.finding(
                tool.pointer / key,
                f"{key!r} is not a Tool member in this protocol version ({why}); the server sends the same "
                f"tools/list result to {', '.join(defining)} clients, which use it, and a client of this version "
                "drops it (the official SDK clients discard Tool members they do not know)",
                fix="Nothing breaks: keep the member for the clients that use it. This is information only (it "
                    "never fails a run unless --fail-on info); to leave out the versions a server no longer cares "
                    "about, check fewer (--protocol-version, or server-versions in the configuration)",
                patch=patch, severity=Severity.INFO)
            continue
        yield ctx.finding(tool.pointer / key, f"{key!r} is not a Tool member in this protocol version: {why}; "
                                              "clients of this version ignore or reject it", patch=patch)


# ---------------------------------------------------------------- execution

@rule("MCP118", "invalid-execution", severity=Severity.ERROR, scope="tool",
      versions=frozenset({V2025_11}),
      fix='Use {"taskSupport": "forbidden" | "optional" | "required"}')
def invalid_execution(tool, ctx):
    """`execution` is malformed (2025-11-25).

    ## What it does
    For 2025-11-25, reports an `execution.taskSupport` other than `"forbidden"`,
    `"optional"` or `"required"`, and members of `execution` other than `taskSupport`.
    (`execution` itself in other versions is MCP105.)

    ## Why is this bad?
    Clients decide from `taskSupport` whether they may or must call the tool as a task.
    An unknown value leaves them guessing: they reject the tool or fall back to the
    default `"forbidden"`, and a tool that needs a task is called synchronously.

    ## Example
    ```json
    {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "always"}}
    ```

    ## Use instead
    ```json
    {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}
    ```

    ## References
    MCP schema.ts 2025-11-25 `ToolExecution`: `taskSupport?: "forbidden" | "optional" |
    "required"`, default "forbidden".
    """
    if not is_tool(tool) or not isinstance(tool.data.get("execution"), dict):
        return
    ex = tool.data["execution"]
    ptr = tool.pointer / "execution"
    if "taskSupport" in ex and ex["taskSupport"] not in TASK_SUPPORT:
        yield ctx.finding(ptr / "taskSupport", f"taskSupport is {ex['taskSupport']!r}; it must be \"forbidden\", "
                                               "\"optional\" or \"required\"")
    for key in ex:
        if key != "taskSupport":
            yield ctx.finding(ptr / key, f"{key!r} is not a member of execution (only taskSupport); clients ignore it")
