"""MCP: a Tool's ``annotations`` (MCP112-MCP114, from 2025-03-26): only ``title`` and the four
behaviour hints, each of its JSON type, and no hint that ``readOnlyHint: true`` makes meaningless."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...versions import since
from .common import V2025_03, kind, object_member


ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
ANNOTATION_MEMBERS = ("title", *ANNOTATION_HINTS)


@rule("MCP112", "unknown-annotation-member", severity=Severity.ERROR, scope="tool",
      fix_safety="unsafe", fix_note="it removes an annotation MCP does not define, which someone may read",
      versions=since(V2025_03),
      fix="Remove the member; put custom data under the Tool's _meta with a namespaced key")
def unknown_annotation_member(tool, ctx):
    """`annotations` carries a member ToolAnnotations does not define.

    ## What it does
    Reports members of a Tool's `annotations` other than `title`, `readOnlyHint`,
    `destructiveHint`, `idempotentHint` and `openWorldHint`.

    ## Why is this bad?
    ToolAnnotations is a closed type with the same five members from 2025-03-26 to
    2026-07-28. Clients ignore anything else, so a custom hint such as `category` or a
    misspelt `readonlyHint` silently has no effect, and the tool keeps the defaults
    (e.g. destructive, open-world).

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"},
     "annotations": {"readonlyHint": true, "category": "web"}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}
    ```

    ## References
    MCP schema.ts `ToolAnnotations`; MCP Description validation guide, "Tool annotations": the type is closed
    and MCP Description accepts only these properties.
    """
    ann = object_member(tool, "annotations")
    if ann is None:
        return
    for key in ann:
        if key in ANNOTATION_MEMBERS:
            continue
        lower = {m.lower(): m for m in ANNOTATION_MEMBERS}
        hint = f" (did you mean {lower[key.lower()]!r}?)" if key.lower() in lower else ""
        yield ctx.finding(tool.pointer / "annotations" / key,
                          f"{key!r} is not a tool annotation{hint}; clients ignore it, so it has no effect",
                          patch=[{"op": "remove", "path": str(tool.pointer / "annotations" / key)}])


@rule("MCP113", "invalid-annotation-type", severity=Severity.ERROR, scope="tool",
      fix_safety="safe", fix_note="`\"true\"` becomes `true`: the value that was meant",
      versions=since(V2025_03),
      fix="Use a string for title and true/false for the hints")
def invalid_annotation_type(tool, ctx):
    """A tool annotation has the wrong type.

    ## What it does
    Reports `annotations.title` that is not a string and hints (`readOnlyHint`,
    `destructiveHint`, `idempotentHint`, `openWorldHint`) that are not booleans, such
    as the string `"true"`.

    ## Why is this bad?
    A client validating the Tool rejects it; a lenient one may treat `"false"` as
    truthy, or ignore the hint and fall back to the default (destructive, open-world),
    changing how it asks the user for confirmation.

    ## Example
    ```json
    {"name": "delete_file", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": "yes"}}
    ```

    ## Use instead
    ```json
    {"name": "delete_file", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}
    ```

    ## References
    MCP schema.ts `ToolAnnotations`: `title?: string`, hints `?: boolean`.
    """
    ann = object_member(tool, "annotations")
    if ann is None:
        return
    for key, value in ann.items():
        if key == "title" and not isinstance(value, str):
            yield ctx.finding(tool.pointer / "annotations" / key, f"annotations.title is {kind(value)}; it must be "
                                                                  "a string")
        elif key in ANNOTATION_HINTS and not isinstance(value, bool):
            ptr = tool.pointer / "annotations" / key
            patch = [{"op": "replace", "path": str(ptr), "value": value == "true"}] \
                if value in ("true", "false") else []
            yield ctx.finding(ptr, f"annotations.{key} is {kind(value)}; hints must be true or false, and clients "
                                   "may read this one wrongly or fall back to the default", patch=patch)


@rule("MCP114", "meaningless-annotation-hint", severity=Severity.INFO, scope="tool",
      fix_safety="unsafe", fix_note="which of two contradicting hints is meant is a judgement",
      versions=since(V2025_03),
      fix="Drop the hint, or set readOnlyHint to false if the tool does change its environment")
def meaningless_annotation_hint(tool, ctx):
    """A read-only tool whose `destructiveHint` or `idempotentHint` says otherwise.

    ## What it does
    Notes `destructiveHint: true` or `idempotentHint: false` on a tool whose `readOnlyHint`
    is `true`. The values that agree with a read-only tool (`destructiveHint: false`,
    `idempotentHint: true`, which the official SDKs and reference servers write out) are
    not reported.

    ## Why is this bad?
    Both hints are meaningful only when `readOnlyHint` is false, so clients ignore them on
    a read-only tool. A value that contradicts read-only (a tool that destroys, or whose
    repeated calls have further effects) suggests the author meant `readOnlyHint: false`,
    and a client that trusts `readOnlyHint` may then run a changing tool without asking.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": true, "destructiveHint": true}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true}}
    ```

    ## References
    MCP schema.ts `ToolAnnotations` doc comments (and the MCP Description validation guide, "Tool annotations"):
    destructiveHint and idempotentHint are "meaningful only when readOnlyHint == false".
    """
    ann = object_member(tool, "annotations")
    if ann is None or ann.get("readOnlyHint") is not True:
        return
    for key, contrary in (("destructiveHint", True), ("idempotentHint", False)):
        if key in ann and ann[key] is contrary:
            yield ctx.finding(tool.pointer / "annotations" / key,
                              f"{key}: {str(contrary).lower()} contradicts readOnlyHint: true; clients ignore "
                              f"{key} on a read-only tool, so check which of the two is meant",
                              patch=[{"op": "remove", "path": str(tool.pointer / "annotations" / key)}])
