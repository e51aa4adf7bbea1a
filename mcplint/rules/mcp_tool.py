"""MCP: the Tool definition as each MCP protocol version defines it.

Which members a Tool has, their types, the root of ``inputSchema``/``outputSchema``,
annotations, icons, ``execution``, tool names, ``x-mcp-header``, ``_meta`` keys and the
2026-07-28 ``tools/list`` caching members. Every rule names the versions it applies to;
per-version facts come from the official schema.ts of each version and the MCP
Description validation guide (Tool is a closed type in every version).
"""

from __future__ import annotations

import re

from ..model import SLOT_KINDS, Pointer, Severity, Slot
from ..registry import rule
from ..schemawalk import subschemas
from ..versions import ALL, VERSIONS, before, since

V2024, V2025_03, V2025_06, V2025_11, V2026 = VERSIONS

# Tool members and the versions that define them (schema.ts of each version; the MCP Description validation guide's field table).
TOOL_MEMBERS: dict[str, frozenset] = {
    "name": ALL,
    "description": ALL,
    "inputSchema": ALL,
    "annotations": since(V2025_03),
    "title": since(V2025_06),
    "outputSchema": since(V2025_06),
    "_meta": since(V2025_06),
    "icons": since(V2025_11),
    "execution": frozenset({V2025_11}),
}
# Members an MCP Description Tool declaration may carry besides the MCP ones (MCP Description 0.8.0
# §9.1; native projection removes them), plus x-* specification extensions (§14.2).
DESCRIPTION_ONLY = ("protocolVersions", "examples", "interactionExamples", "tags", "elicitations", "deprecated",
                    "security", "clientRequirements")

ANNOTATION_HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
ANNOTATION_MEMBERS = ("title", *ANNOTATION_HINTS)
ICON_MEMBERS = ("src", "mimeType", "sizes", "theme")
TASK_SUPPORT = ("forbidden", "optional", "required")

TOOL_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
TOKEN_RE = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token (1*tchar)
HEADER_TYPES = ("integer", "string", "boolean")
SIZE_RE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*$")
_LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
META_KEY_RE = re.compile(rf"^(?:(?P<prefix>{_LABEL}(?:\.{_LABEL})*)/)?(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$")
MCP_LABELS = ("modelcontextprotocol", "mcp")
# 2026-07-28 reserved _meta keys: request/notification metadata, none of which belongs on a Tool.
RESERVED_2026_KEYS = ("progressToken", "traceparent", "tracestate", "baggage")

_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null",
               int: "a number", float: "a number"}


def kind(value) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _is_tool(tool) -> bool:
    return isinstance(tool.data, dict)


def _added_in(member: str) -> str:
    return min(TOOL_MEMBERS[member])


# ---------------------------------------------------------------- schema root analysis

def _types(schema: dict):
    """The root's declared types as a tuple, or None when ``type`` is absent or malformed."""
    t = schema.get("type")
    if isinstance(t, str):
        return (t,)
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return tuple(t)
    return None


def root_route(schema) -> str:
    """How the root of a schema slot reaches ``type: "object"``.

    ``inline``: ``type`` is exactly ``"object"``. ``list``: a ``type`` array that includes
    ``"object"``. ``indirect``: no ``type``, but the root reaches an object only through
    ``$ref``/``allOf`` (or ``anyOf``/``oneOf`` branches that all do, or an external ``$ref``
    that cannot be checked). ``excludes``: a declared ``type`` without ``"object"``.
    ``none``: nothing makes the root an object.
    """
    if not isinstance(schema, dict):
        return "none"
    types = _types(schema)
    if types is not None:
        if types == ("object",):
            return "inline"
        return "list" if "object" in types else "excludes"
    return "indirect" if _reaches_object(schema) else "none"


def _reaches_object(schema: dict, limit: int = 64) -> bool:
    """Does a type-less root reach ``type: object`` through ``$ref``/``allOf``/all branches of
    ``anyOf``/``oneOf``? Bounded by ``limit`` visited nodes and 16 steps deep; never retrieves
    anything."""
    return _via(schema, 0, {"schema": schema, "idx": None, "seen": 0, "limit": limit})


def _via(node: dict, depth: int, state: dict) -> bool:
    # a module-level function with explicit state, not a recursive closure: a closure that
    # calls itself is a reference cycle, and the engine runs without the cycle collector
    state["seen"] += 1
    if state["seen"] > state["limit"] or depth > 16:
        return False
    types = _types(node)
    if types is not None:
        return "object" in types
    if "$ref" in node:
        from ..refs import index, is_local, resolve

        schema = state["schema"]
        if state["idx"] is None:
            state["idx"] = index(schema)
        idx = state["idx"]
        ref = next((r for r in idx.refs if r.value == node["$ref"]), None)
        if ref is not None and not is_local(ref, idx):
            return True  # external: cannot be checked here; give it the benefit of the doubt
        target = resolve(ref, idx, schema) if ref is not None else None
        if target is not None and isinstance(target[1], dict) and target[1] is not node \
                and _via(target[1], depth + 1, state):
            return True
    all_of = node.get("allOf")
    if isinstance(all_of, list) and any(isinstance(s, dict) and _via(s, depth + 1, state) for s in all_of):
        return True
    for kw in ("anyOf", "oneOf"):
        branches = node.get(kw)
        if isinstance(branches, list) and branches and all(
                isinstance(s, dict) and _via(s, depth + 1, state) for s in branches):
            return True
    return False


# ---------------------------------------------------------------- the Tool object

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
    if not _is_tool(tool):
        yield ctx.finding(tool.pointer, f"this tool is {kind(tool.data)}, not an object; MCP clients "
                                        "cannot read it as a Tool and drop it")


@rule("MCP102", "missing-tool-member", severity=Severity.ERROR, scope="tool",
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
    if not _is_tool(tool):
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
    if not _is_tool(tool):
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


@rule("MCP104", "unknown-tool-member", severity=Severity.ERROR, scope="tool",
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
    saying `additionalProperties: false` is a generation artifact). Clients ignore or
    reject unknown members, so whatever they were meant to say is lost. Extension data
    belongs in `_meta`, the Tool's extension point from 2025-06-18.

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
    if not _is_tool(tool):
        return
    for key in tool.data:
        if key in TOOL_MEMBERS or _description_member(tool, key):
            continue
        hint = " (it is an MCP Description member, allowed only in an mcpdesc document)" \
            if key in DESCRIPTION_ONLY or key.startswith("x-") else ""
        yield ctx.finding(tool.pointer / key, f"{key!r} is not a Tool member in any MCP version{hint}; Tool is a "
                                              "closed type, so clients ignore or reject it",
                          patch=[{"op": "remove", "path": str(tool.pointer / key)}])


_REMOVED = {"execution": "it was removed in 2026-07-28 (task support moved to the io.modelcontextprotocol/tasks "
                         "extension)"}


@rule("MCP105", "tool-member-not-in-version", severity=Severity.ERROR, scope="tool", per_version=True,
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

    ## References
    MCP Description validation guide, Tool field table; MCP schema.ts per version; SEP-2663
    (tool-level `execution` dropped in 2026-07-28).
    """
    if not _is_tool(tool):
        return
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
        yield ctx.finding(tool.pointer / key, f"{key!r} is not a Tool member in this protocol version: {why}; "
                                              "clients of this version ignore or reject it",
                          patch=[{"op": "remove", "path": str(tool.pointer / key)}])


# ---------------------------------------------------------------- schema roots

@rule("MCP106", "input-schema-not-object-root", severity=Severity.ERROR, scope="slot",
      fix='Declare "type": "object" at the root of inputSchema')
def input_schema_not_object_root(slot, ctx):
    """The root of `inputSchema` is not `type: "object"`.

    ## What it does
    Reports an `inputSchema` whose root declares a `type` that excludes `"object"`
    (e.g. `"string"`, `["array", "null"]`), or has no `type` and nothing else (no
    `$ref`/`allOf`) that makes it an object, including the empty schema `{}`.

    ## Why is this bad?
    Tool arguments are always a JSON object, and every MCP version requires
    `type: "object"` at the root of `inputSchema`. SDKs and clients reject such a tool
    or fail when they build the call; a model given a non-object schema cannot produce
    valid arguments.

    ## Example
    ```json
    {"name": "get_time", "inputSchema": {}}
    ```

    ## Use instead
    ```json
    {"name": "get_time", "inputSchema": {"type": "object", "additionalProperties": false}}
    ```

    ## References
    MCP schema.ts `Tool.inputSchema` (`type: "object"` required in every version);
    MCP Description validation guide, "Embedded schemas": a root whose declared type excludes "object" is rejected;
    SEP-2106: inputSchema keeps `type: "object"`.
    """
    if slot.kind != "inputSchema" or not isinstance(slot.schema, dict):
        return
    route = root_route(slot.schema)
    if route == "excludes":
        yield ctx.finding(slot.pointer / "type", f"inputSchema root has type {slot.schema['type']!r}, which excludes "
                                                 "\"object\"; tool arguments are always a JSON object, so clients "
                                                 "reject this tool",
                          patch=[{"op": "replace", "path": str(slot.pointer / "type"), "value": "object"}])
    elif route == "none":
        extra = " (an empty schema is not a zero-argument form: use {\"type\": \"object\", " \
                "\"additionalProperties\": false})" if not slot.schema else ""
        yield ctx.finding(slot.pointer, "inputSchema has no \"type\": \"object\" at its root and nothing there makes "
                                        f"it an object; every MCP version requires it{extra}",
                          patch=[{"op": "add", "path": str(slot.pointer / "type"), "value": "object"}])


@rule("MCP107", "indirect-object-root", severity=Severity.WARNING, scope="slot", per_version=True,
      fix='Write "type": "object" inline at the schema root, next to the $ref/allOf')
def indirect_object_root(slot, ctx):
    """A schema root is an object only through `$ref`/`allOf`, or through a `type` array.

    ## What it does
    Reports an `inputSchema` (and, before 2026-07-28, an `outputSchema`) whose root does
    not say `"type": "object"` itself but reaches an object only through `$ref`,
    `allOf` (or `anyOf`/`oneOf` branches that all are objects), or declares a `type`
    array such as `["object", "null"]`. From 2025-11-25 it is a warning; before
    2025-11-25 it is an error, because the legacy wire shape requires the literal
    `type: "object"`.

    ## Why is this bad?
    The MCP wire type is `{type: "object", ...}`. From 2025-11-25 the root is read as a
    JSON Schema of its dialect, so an object reached through `$ref` is accepted, but
    native projection to the MCP type fails and SDKs that look for the literal
    `type: "object"` break (FastMCP issue #2455: `$ref` roots without `type: object`
    broke every tool of a server). Before 2025-11-25 the shape is simply invalid.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"$ref": "#/$defs/Args",
     "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "$ref": "#/$defs/Args",
     "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": from 2025-11-25, a root in `$ref` or `allOf` is accepted with a
    warning (rule `mcp.tool.input-schema.object-root`); before that the legacy shape rules apply
    (MCP Description validator code `invalid-legacy-tool-schema-shape`, an error); SEP-2106
    motivation (FastMCP issue #2455).
    """
    if not isinstance(slot.schema, dict):
        return
    v = ctx.version
    if slot.kind == "outputSchema" and v >= V2026:
        return
    route = root_route(slot.schema)
    if route not in ("list", "indirect"):
        return
    what = f"declares type {slot.schema.get('type')!r} instead of \"object\"" if route == "list" \
        else "has no \"type\" and is an object only through $ref/allOf"
    target = slot.pointer / "type" if route == "list" else slot.pointer
    op = "replace" if route == "list" else "add"
    patch = [{"op": op, "path": str(slot.pointer / "type"), "value": "object"}]
    if v >= V2025_11:
        yield ctx.finding(target, f"{slot.kind} root {what}; the JSON Schema is accepted, but the MCP Tool type "
                                  "needs the literal \"type\": \"object\" and SDKs that look for it fail", patch=patch)
    else:
        yield ctx.finding(target, f"{slot.kind} root {what}; before 2025-11-25 the MCP shape requires the literal "
                                  "\"type\": \"object\", so this schema is invalid", patch=patch,
                          severity=Severity.ERROR)


@rule("MCP108", "boolean-property-schema", severity=Severity.WARNING, scope="slot", versions=before(V2026),
      per_version=True, fix="Replace the boolean with an object schema ({} for true, {\"not\": {}} for false)")
def boolean_property_schema(slot, ctx):
    """A root `properties` entry is a boolean schema before 2026-07-28.

    ## What it does
    Reports `true`/`false` as the schema of a property in the root `properties` of
    `inputSchema`/`outputSchema`, for versions before 2026-07-28: a warning in
    2025-11-25, an error before it.

    ## Why is this bad?
    Before 2026-07-28 the MCP type of these schemas is
    `properties?: {[key: string]: object}`: a boolean property schema is valid JSON
    Schema but not a valid MCP Tool, and native projection for those versions fails.
    Before 2025-11-25 it breaks the legacy shape outright. 2026-07-28 accepts any
    JSON Schema and allows it.

    ## Example
    <!-- settings: {"protocol-versions": ["2025-11-25"]} -->
    ```json
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": true}}}
    ```

    ## Use instead
    ```json
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {}}}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": a boolean `properties` value is rejected by the 2025-11-25
    TypeScript type and accepted by 2026-07-28 (`mcp.tool.schema.native-shape`); MCP schema.ts 2025-11-25.
    """
    props = slot.schema.get("properties") if isinstance(slot.schema, dict) else None
    if not isinstance(props, dict):
        return
    legacy = ctx.version < V2025_11
    for name, sub in props.items():
        if isinstance(sub, bool):
            ptr = slot.pointer / "properties" / name
            patch = [{"op": "replace", "path": str(ptr), "value": {} if sub else {"not": {}}}]
            if legacy:
                yield ctx.finding(ptr, f"property {name!r} has the boolean schema {str(sub).lower()}; before "
                                       "2025-11-25 MCP requires every property schema to be an object, so the tool "
                                       "is invalid", patch=patch, severity=Severity.ERROR)
            else:
                yield ctx.finding(ptr, f"property {name!r} has the boolean schema {str(sub).lower()}; the 2025-11-25 "
                                       "Tool type requires object property schemas (2026-07-28 allows booleans)",
                                  patch=patch)


@rule("MCP109", "output-schema-not-object-root", severity=Severity.ERROR, scope="slot",
      versions=frozenset({V2025_06, V2025_11}), fix='Make the outputSchema root "type": "object" (wrap an array or '
                                                     'primitive result in an object member)')
def output_schema_not_object_root(slot, ctx):
    """The root of `outputSchema` is not an object before 2026-07-28.

    ## What it does
    For 2025-06-18 and 2025-11-25, reports an `outputSchema` whose root declares a type
    that excludes `"object"` (an array, a string, ...) or has no type at all and nothing
    that makes it an object.

    ## Why is this bad?
    Before 2026-07-28 `structuredContent` is a JSON object and `outputSchema` must have
    `type: "object"` at its root ("currently restricted to type: object at the root
    level"). A client of those versions rejects the tool or cannot validate its
    structured results. 2026-07-28 (SEP-2106) allows any JSON Schema root.

    ## Example
    ```json
    {"name": "list_users", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "array", "items": {"type": "string"}}}
    ```

    ## Use instead
    ```json
    {"name": "list_users", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "object", "properties": {"users": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    MCP schema.ts 2025-06-18/2025-11-25 `Tool.outputSchema` (`type: "object"`); MCP Description
    validation guide, "Embedded schemas" and its lookup example; SEP-2106: outputSchema unrestricted from 2026-07-28.
    """
    if slot.kind != "outputSchema" or not isinstance(slot.schema, dict):
        return
    route = root_route(slot.schema)
    if route == "excludes":
        yield ctx.finding(slot.pointer / "type", f"outputSchema root has type {slot.schema['type']!r}; before "
                                                 "2026-07-28 structured results are JSON objects and outputSchema "
                                                 "must be \"type\": \"object\"")
    elif route == "none":
        yield ctx.finding(slot.pointer, "outputSchema has no \"type\": \"object\" at its root; before 2026-07-28 "
                                        "MCP requires an object root for structured results",
                          patch=[{"op": "add", "path": str(slot.pointer / "type"), "value": "object"}])


def _schema_validity_on(ctx) -> bool:
    from ..config import is_selected
    from ..registry import get

    meta = get("SCH101")
    coll = getattr(ctx, "collection", None)
    origin = coll.doc.source.origin if coll is not None else None
    return meta is not None and is_selected(meta.id, meta.default, ctx.config, origin)


@rule("MCP110", "invalid-root-properties-shape", severity=Severity.ERROR, scope="slot", versions=before(V2025_11),
      fix="Make properties an object of schemas and required an array of strings")
def invalid_root_properties_shape(slot, ctx):
    """Root `properties` is not an object of schemas, or root `required` is not a string array.

    ## What it does
    Before 2025-11-25, reports a root `properties` that is not an object, a property
    whose schema is neither an object nor a boolean (booleans are MCP108), and a root
    `required` that is not an array of strings. From 2025-11-25 a tool schema is read as
    JSON Schema of its dialect, and these are schema-validity problems (SCH family).
    Each of these shapes is invalid JSON Schema too, so when SCH101 is selected it reports
    them (once, for every version) and this rule stays silent.

    ## Why is this bad?
    Before 2025-11-25 MCP states no schema dialect; what it fixes is the shape
    `{type: "object"; properties?: {[key]: object}; required?: string[]}`. Anything else
    is an invalid Tool: clients that validate against the MCP schema reject it, and
    the rest read the arguments contract wrongly.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
     "required": "q"}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
     "required": ["q"]}}
    ```

    ## References
    MCP schema.ts 2024-11-05 … 2025-06-18 `Tool.inputSchema`/`outputSchema`;
    MCP Description 0.8.0 §9.2 (for revisions before 2025-11-25 validators MUST enforce this
    shape); MCP Description validator code `invalid-legacy-tool-schema-shape` (error).
    """
    s = slot.schema
    if not isinstance(s, dict) or _schema_validity_on(ctx):
        return  # each of these shapes is also a JSON Schema error, reported once, by SCH101, for every version
    if "properties" in s:
        props = s["properties"]
        if not isinstance(props, dict):
            yield ctx.finding(slot.pointer / "properties", f"properties is {kind(props)}; MCP requires an object "
                                                           "mapping each argument name to its schema")
        else:
            for name, sub in props.items():
                if not isinstance(sub, (dict, bool)):
                    yield ctx.finding(slot.pointer / "properties" / name,
                                      f"the schema of property {name!r} is {kind(sub)}; it must be an object")
    if "required" in s:
        req = s["required"]
        if not (isinstance(req, list) and all(isinstance(x, str) for x in req)):
            patch = [{"op": "replace", "path": str(slot.pointer / "required"), "value": [req]}] \
                if isinstance(req, str) else []
            yield ctx.finding(slot.pointer / "required", f"required is {kind(req)}"
                              f"{' with non-string items' if isinstance(req, list) else ''}; MCP requires an array "
                              "of property names (strings)", patch=patch)


@rule("MCP111", "dollar-schema-without-mcp-meaning", severity=Severity.INFO, scope="slot",
      versions=before(V2025_11), fix="Nothing to fix; drop $schema if the tool targets only versions before 2025-11-25")
def dollar_schema_without_mcp_meaning(slot, ctx):
    """`$schema` on a tool schema, for a version before 2025-11-25.

    ## What it does
    Notes a root `$schema` in `inputSchema`/`outputSchema` when checking 2024-11-05,
    2025-03-26 or 2025-06-18. Whether the URI names a known dialect is not checked here.

    ## Why is this bad?
    It is not wrong: before 2025-11-25 MCP states no dialect and the keyword is carried
    without MCP meaning. Clients of those versions do not select a dialect from it, so
    a schema that relies on `$schema` (e.g. 2020-12 keywords) may be read differently.
    From 2025-11-25 `$schema` selects the dialect.

    ## Example
    <!-- settings: {"protocol-versions": ["2025-06-18"]} -->
    ```json
    {"name": "search", "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
     "type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": `$schema` "not listed" before 2025-11-25, "allowed" from it;
    SEP-1613 (JSON Schema usage, 2025-11-25).
    """
    if isinstance(slot.schema, dict) and "$schema" in slot.schema:
        yield ctx.finding(slot.pointer / "$schema", "$schema has no MCP meaning before 2025-11-25: clients of this "
                                                    "version do not pick the schema dialect from it")


# ---------------------------------------------------------------- annotations

def _object_member(tool, key: str):
    """The tool's member ``key`` when it is a JSON object (annotations, _meta), else None."""
    if _is_tool(tool) and isinstance(tool.data.get(key), dict):
        return tool.data[key]
    return None


@rule("MCP112", "unknown-annotation-member", severity=Severity.ERROR, scope="tool",
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
    ann = _object_member(tool, "annotations")
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
    ann = _object_member(tool, "annotations")
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
    ann = _object_member(tool, "annotations")
    if ann is None or ann.get("readOnlyHint") is not True:
        return
    for key, contrary in (("destructiveHint", True), ("idempotentHint", False)):
        if key in ann and ann[key] is contrary:
            yield ctx.finding(tool.pointer / "annotations" / key,
                              f"{key}: {str(contrary).lower()} contradicts readOnlyHint: true; clients ignore "
                              f"{key} on a read-only tool, so check which of the two is meant",
                              patch=[{"op": "remove", "path": str(tool.pointer / "annotations" / key)}])


# ---------------------------------------------------------------- icons

def _icons(tool):
    """(pointer, icon) for each object entry of a well-formed icons array."""
    if not _is_tool(tool) or not isinstance(tool.data.get("icons"), list):
        return []
    return [(tool.pointer / "icons" / i, icon) for i, icon in enumerate(tool.data["icons"]) if isinstance(icon, dict)]


@rule("MCP115", "invalid-icon", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_11),
      fix="Give each icon a string src, optional string mimeType, string-array sizes and theme light|dark")
def invalid_icon(tool, ctx):
    """An entry of `icons` does not have the Icon shape.

    ## What it does
    Reports an icon that is not an object, lacks `src`, has a non-string `src` or
    `mimeType`, has `sizes` that is not an array of strings, a `theme` other than
    `"light"`/`"dark"`, or a member Icon does not define.

    ## Why is this bad?
    Icon (2025-11-25+) requires `src` and defines only `src`, `mimeType`, `sizes` and
    `theme`. A client cannot display a malformed icon and may reject the whole tool
    when it validates the list.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"url": "https://example.com/w.png", "theme": "night"}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "theme": "dark"}]}
    ```

    ## References
    MCP schema.ts 2025-11-25/2026-07-28 `Icon`.
    """
    if not _is_tool(tool) or not isinstance(tool.data.get("icons"), list):
        return
    for i, icon in enumerate(tool.data["icons"]):
        ptr = tool.pointer / "icons" / i
        if not isinstance(icon, dict):
            yield ctx.finding(ptr, f"icon is {kind(icon)}; each icon must be an object with a src")
            continue
        if "src" not in icon:
            yield ctx.finding(ptr, "icon has no src, which Icon requires; clients cannot display it")
        elif not isinstance(icon["src"], str):
            yield ctx.finding(ptr / "src", f"icon src is {kind(icon['src'])}; it must be a URI string")
        if "mimeType" in icon and not isinstance(icon["mimeType"], str):
            yield ctx.finding(ptr / "mimeType", f"icon mimeType is {kind(icon['mimeType'])}; it must be a string")
        if "sizes" in icon and not (isinstance(icon["sizes"], list) and all(isinstance(s, str) for s in icon["sizes"])):
            yield ctx.finding(ptr / "sizes", "icon sizes must be an array of strings such as \"48x48\" or \"any\"")
        if "theme" in icon and icon["theme"] not in ("light", "dark"):
            yield ctx.finding(ptr / "theme", f"icon theme is {icon['theme']!r}; it must be \"light\" or \"dark\"")
        for key in icon:
            if key not in ICON_MEMBERS:
                yield ctx.finding(ptr / key, f"{key!r} is not an Icon member (src, mimeType, sizes, theme); clients "
                                             "ignore it")


@rule("MCP116", "icon-size-format", severity=Severity.WARNING, scope="tool",
      versions=since(V2025_11),
      fix='Write each size as WIDTHxHEIGHT in pixels (e.g. "48x48") or "any"')
def icon_size_format(tool, ctx):
    """An icon size is neither `WxH` nor `any`.

    ## What it does
    Reports strings in an icon's `sizes` that are not `<width>x<height>` in pixels
    (e.g. `"48x48"`) or `"any"`.

    ## Why is this bad?
    Clients pick an icon by size; a size they cannot parse (`"48"`, `"48px"`,
    `"48X48"`) makes them skip the icon or pick a wrong one.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "sizes": ["48px"]}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"},
     "icons": [{"src": "https://example.com/w.png", "sizes": ["48x48"]}]}
    ```

    ## References
    MCP schema.ts 2025-11-25/2026-07-28 `Icon.sizes`: each string "should be in WxH format (e.g.
    "48x48", "96x96") or "any" for scalable formats".
    """
    for ptr, icon in _icons(tool):
        sizes = icon.get("sizes")
        if not isinstance(sizes, list):
            continue
        for j, s in enumerate(sizes):
            if isinstance(s, str) and s != "any" and not SIZE_RE.match(s):
                yield ctx.finding(ptr / "sizes" / j, f"icon size {s!r} is neither WIDTHxHEIGHT (e.g. \"48x48\") nor "
                                                     "\"any\"; clients cannot use it to pick an icon")


@rule("MCP117", "unsafe-icon-uri", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_11),
      fix="Serve the icon over https: or embed it as a data: URI")
def unsafe_icon_uri(tool, ctx):
    """An icon `src` uses a scheme other than `https:` or `data:`.

    ## What it does
    Reports an icon `src` whose URI scheme is not `https` or `data` (e.g. `javascript:`,
    `file:`, `ftp:`, a relative path) as an error, and a plain `http:` URL as a warning.

    ## Why is this bad?
    Consumers MUST reject unsafe icon URI schemes and accept only `https:` and `data:`,
    so such an icon is never shown; `file:` or `javascript:` icons are also an attack
    surface. Plain `http:` is named by the schema but is not in the prose's safe list,
    and many clients refuse mixed content.

    ## Example
    ```json
    {"name": "weather", "inputSchema": {"type": "object"}, "icons": [{"src": "file:///tmp/w.png"}]}
    ```

    ## Use instead
    ```json
    {"name": "weather", "inputSchema": {"type": "object"}, "icons": [{"src": "https://example.com/w.png"}]}
    ```

    ## References
    MCP basic/index.mdx "Icons" 2025-11-25/2026-07-28: consumers MUST reject unsafe
    schemes; only `https:` or `data:`.
    """
    for ptr, icon in _icons(tool):
        src = icon.get("src")
        if not isinstance(src, str):
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", src)
        scheme = m.group(1).lower() if m else None
        if scheme in ("https", "data"):
            continue
        if scheme == "http":
            yield ctx.finding(ptr / "src", "icon src is a plain http: URL; clients accept only https: and data: "
                                           "icons and may refuse it", severity=Severity.WARNING)
        else:
            what = f"the {scheme}: scheme" if scheme else "no URI scheme (a relative reference)"
            yield ctx.finding(ptr / "src", f"icon src uses {what}; clients MUST reject icons that are not https: or "
                                           "data:, so it is never shown")


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
    if not _is_tool(tool) or not isinstance(tool.data.get("execution"), dict):
        return
    ex = tool.data["execution"]
    ptr = tool.pointer / "execution"
    if "taskSupport" in ex and ex["taskSupport"] not in TASK_SUPPORT:
        yield ctx.finding(ptr / "taskSupport", f"taskSupport is {ex['taskSupport']!r}; it must be \"forbidden\", "
                                               "\"optional\" or \"required\"")
    for key in ex:
        if key != "taskSupport":
            yield ctx.finding(ptr / key, f"{key!r} is not a member of execution (only taskSupport); clients ignore it")


# ---------------------------------------------------------------- names

@rule("MCP119", "tool-name-format", severity=Severity.WARNING, scope="tool", versions=since(V2025_11),
      fix="Use 1-128 characters from A-Z a-z 0-9 _ - . only")
def tool_name_format(tool, ctx):
    """A tool name breaks the 2025-11-25 naming rules.

    ## What it does
    Reports a tool `name` that is empty, longer than 128 characters, or contains
    anything but ASCII letters, digits, `_`, `-` and `.` (spaces, `/`, `:`, non-ASCII).

    ## Why is this bad?
    From 2025-11-25 tool names SHOULD match `^[A-Za-z0-9_.-]{1,128}$`. Clients and model
    providers use the name as a function identifier; many reject or rewrite names with
    other characters (so the model calls a name the server does not know), and on
    Streamable HTTP a non-token name has to be Base64-encoded in `Mcp-Name`.

    ## Example
    ```json
    {"name": "get weather", "inputSchema": {"type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "get_weather", "inputSchema": {"type": "object"}}
    ```

    ## References
    MCP 2025-11-25/2026-07-28 server/tools.mdx "Tool Names" (SEP-986 as adopted: 1-128 characters, no `/`).
    """
    if not _is_tool(tool) or not isinstance(tool.data.get("name"), str):
        return
    name = tool.data["name"]
    if TOOL_NAME_RE.match(name):
        return
    if not name:
        why = "is empty"
    elif len(name) > 128:
        why = f"is {len(name)} characters long (at most 128)"
    else:
        bad = sorted({c for c in name if not re.match(r"[A-Za-z0-9_.-]", c)})
        why = "contains " + ", ".join(repr(c) for c in bad)
    yield ctx.finding(tool.pointer / "name", f"tool name {name!r} {why}; names SHOULD be 1-128 characters of "
                                             "A-Z a-z 0-9 _ - . and clients may reject or rewrite it")


@rule("MCP120", "duplicate-tool-name", severity=Severity.WARNING, scope="document",
      fix="Give every tool a unique name (in an MCP Description document, give same-name tools disjoint "
          "protocolVersions)")
def duplicate_tool_name(collection, ctx):
    """Two tools share a name.

    ## What it does
    Reports a tool whose `name` repeats an earlier tool's name in the same document
    (a warning). In an MCP Description document, two same-name declarations whose
    protocol scopes overlap are an error; same-name declarations with disjoint scopes
    (variants per version) are fine.

    ## Why is this bad?
    A tool is identified by its name: a client calling `search` gets one of the two,
    usually the last listed, so the other is unreachable. MCP says names SHOULD be
    unique within a server; MCP Description requires same-name declarations to have
    pairwise-disjoint scopes so that each version has exactly one.

    ## Example
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object"}},
               {"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"tools": [{"name": "search_web", "inputSchema": {"type": "object"}},
               {"name": "search_docs", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2025-11-25 server/tools.mdx "Tool Names": names SHOULD be unique within a server;
    MCP Description 0.8.0 (same-name Tools need pairwise-disjoint scopes; validator code
    `primitive-scope-overlap`).
    """
    seen: dict[str, list] = {}
    for tool in collection.tools:
        name = tool.name
        if name is None:
            continue
        earlier = seen.setdefault(name, [])
        if collection.shape == "mcpdesc":
            clash = next((t for t in earlier if set(t.versions) & set(tool.versions)), None)
            if clash is not None:
                common = ", ".join(v for v in VERSIONS if v in set(clash.versions) & set(tool.versions))
                yield ctx.finding(tool.pointer / "name", f"tool {name!r} is declared again for protocol versions "
                                                         f"{common} (first at {clash.pointer}); same-name "
                                                         "declarations must have disjoint protocolVersions",
                                  severity=Severity.ERROR)
        elif earlier:
            yield ctx.finding(tool.pointer / "name", f"tool name {name!r} is used again (first at "
                                                     f"{earlier[0].pointer}); clients can reach only one of them")
        earlier.append(tool)


@rule("MCP121", "protocol-scope-outside-root", severity=Severity.ERROR, scope="document",
      fix="List only versions that the root protocolVersions contains (or omit the scope to inherit it)")
def protocol_scope_outside_root(collection, ctx):
    """An MCP Description declaration's `protocolVersions` is not a subset of the root's.

    ## What it does
    In an MCP Description document, reports a Tool declaration whose `protocolVersions`
    names a version the root `protocolVersions` does not list, is empty, or is not an
    array of version strings.

    ## Why is this bad?
    An explicit scope must be a non-empty subset of its parent's scope. A version outside
    the root is a version the document does not describe, so that part of the scope is
    silently ignored; an empty or malformed scope leaves the declaration in no version
    or makes it inherit everything by accident.

    ## Example
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "lookup", "protocolVersions": ["2025-11-25", "2026-07-28"],
                "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.9.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2025-11-25"],
     "tools": [{"name": "lookup", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP Description validation guide, "Use protocolVersions scopes": an explicit scope must be a non-empty subset of its
    parent scope; MCP Description validator code `protocol-scope-outside-parent` (error).
    """
    if collection.shape != "mcpdesc":
        return
    root = collection.doc.data.get("protocolVersions")
    root_set = set(root) if isinstance(root, list) else set()
    for tool in collection.tools:
        if not isinstance(tool.data, dict) or "protocolVersions" not in tool.data:
            continue
        scope = tool.data["protocolVersions"]
        ptr = tool.pointer / "protocolVersions"
        if not (isinstance(scope, list) and all(isinstance(v, str) for v in scope)):
            yield ctx.finding(ptr, f"protocolVersions is {kind(scope)}; a scope must be an array of protocol "
                                   "version strings")
        elif not scope:
            yield ctx.finding(ptr, "protocolVersions is empty, so this declaration applies to no version; omit it to "
                                   "inherit the root scope")
        else:
            for j, v in enumerate(scope):
                if v not in root_set:
                    yield ctx.finding(ptr / j, f"{v!r} is not in the root protocolVersions {sorted(root_set)}; a "
                                               "declaration's scope must be a subset of its parent's")


# ---------------------------------------------------------------- x-mcp-header

_last_headers: list = [None, ()]  # (schema, headers) of the last slot walked: three rules ask in a row


_mentions: list = [None, True]  # (document, may it hold an x-mcp-header key?) of the last document asked about


def _may_mention_headers(doc) -> bool:
    """False only when no key of the document can be ``x-mcp-header``: the text never spells it
    and has no escape sequence (``\\u``, ``\\x``, ``\\U``) that could write it another way.
    Most documents have none, and then no slot needs walking."""
    if _mentions[0] is doc:
        return _mentions[1]
    text = getattr(getattr(doc, "source", None), "text", None)
    may = not isinstance(text, str) or "x-mcp-header" in text or any(e in text for e in ("\\u", "\\x", "\\U"))
    _mentions[0], _mentions[1] = doc, may
    return may


def _headers(slot) -> tuple:
    """(relative pointer of the property schema, its schema, header value) for each x-mcp-header."""
    if slot.kind != "inputSchema" or not isinstance(slot.schema, dict):
        return ()
    if _last_headers[0] is slot.schema:
        return _last_headers[1]
    if not _may_mention_headers(slot.tool.doc):
        return ()
    found = tuple((sub.pointer, sub.schema, sub.schema["x-mcp-header"]) for sub in subschemas(slot.schema)
                  if isinstance(sub.schema, dict) and "x-mcp-header" in sub.schema)
    _last_headers[0], _last_headers[1] = slot.schema, found
    return found


def _statically_reachable(rel: tuple) -> bool:
    return len(rel) >= 2 and len(rel) % 2 == 0 and all(rel[i] == "properties" for i in range(0, len(rel), 2))


@rule("MCP122", "invalid-x-mcp-header", severity=Severity.ERROR, scope="slot",
      requires="x-mcp-header", versions=frozenset({V2026}),
      fix="Use a non-empty HTTP token name on a string/integer/boolean property reached through properties only")
def invalid_x_mcp_header(slot, ctx):
    """An `x-mcp-header` annotation breaks the 2026-07-28 rules.

    ## What it does
    For 2026-07-28, reports an `x-mcp-header` in `inputSchema` whose value is not a
    non-empty RFC 9110 token (letters, digits and ``!#$%&'*+-.^_`|~``; no spaces,
    colons, tabs or non-ASCII), that sits on a property whose `type` is not `string`,
    `integer` or `boolean`, or that is not statically reachable: the property must be
    reached from the root through a chain of `properties` only (not `items`,
    `oneOf`/`anyOf`/`allOf`, `if`/`then`/`else`, `$defs` or `$ref`).

    ## Why is this bad?
    The value becomes the `Mcp-Param-{name}` HTTP header on Streamable HTTP. A violation
    makes the tool definition invalid: HTTP clients MUST drop the tool from `tools/list`,
    so the model never sees it.

    ## Example
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "My Region"}}}}
    ```

    ## Use instead
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/transports/streamable-http.mdx and SEP-2243; MCP Description validation guide,
    "Embedded schemas" (`x-mcp-header` has MCP meaning in 2026-07-28).
    """
    for rel, prop, value in _headers(slot):
        ptr = slot.pointer + rel + ("x-mcp-header",)
        if not isinstance(value, str) or not value:
            yield ctx.finding(ptr, f"x-mcp-header is {kind(value) if not isinstance(value, str) else 'empty'}; it "
                                   "must be a non-empty header name, or HTTP clients drop this tool")
        elif not TOKEN_RE.match(value):
            bad = sorted({c for c in value if not TOKEN_RE.match(c)})
            yield ctx.finding(ptr, f"x-mcp-header {value!r} is not an HTTP token (it contains "
                                   f"{', '.join(repr(c) for c in bad)}); HTTP clients drop this tool")
        if not _statically_reachable(rel):
            yield ctx.finding(ptr, "x-mcp-header is not on a property reached from the root through properties "
                                   "only (it sits under " + (str(Pointer(rel)) or "the root") + "); HTTP clients "
                                   "drop this tool")
        t = prop.get("type")
        if t not in HEADER_TYPES:
            what = f"of type {t!r}" if t is not None else "without a declared type"
            yield ctx.finding(ptr, f"x-mcp-header is on a property {what}; only string, integer and boolean "
                                   "properties may be mirrored into a header, so HTTP clients drop this tool")


@rule("MCP123", "duplicate-x-mcp-header", severity=Severity.ERROR, scope="slot",
      requires="x-mcp-header", versions=frozenset({V2026}),
      fix="Give each mirrored property a different header name (names compare case-insensitively)")
def duplicate_x_mcp_header(slot, ctx):
    """Two properties mirror into the same `x-mcp-header` name.

    ## What it does
    For 2026-07-28, reports an `x-mcp-header` whose name equals an earlier one in the
    same `inputSchema`, ignoring case (`Region` and `REGION` collide).

    ## Why is this bad?
    HTTP header names are case-insensitive, so both arguments would be sent in one
    `Mcp-Param-Region` header. The spec requires the names to be unique
    case-insensitively; otherwise the tool is invalid and HTTP clients drop it.

    ## Example
    ```json
    {"name": "copy", "inputSchema": {"type": "object", "properties": {
      "from": {"type": "string", "x-mcp-header": "Region"},
      "to": {"type": "string", "x-mcp-header": "REGION"}}}}
    ```

    ## Use instead
    ```json
    {"name": "copy", "inputSchema": {"type": "object", "properties": {
      "from": {"type": "string", "x-mcp-header": "From-Region"},
      "to": {"type": "string", "x-mcp-header": "To-Region"}}}}
    ```

    ## References
    SEP-2243 and MCP 2026-07-28 Streamable HTTP transport: header names MUST be
    case-insensitively unique within the inputSchema.
    """
    seen: dict[str, tuple] = {}
    for rel, _prop, value in _headers(slot):
        if not isinstance(value, str) or not value:
            continue
        key = value.lower()
        if key in seen:
            yield ctx.finding(slot.pointer + rel + ("x-mcp-header",),
                              f"x-mcp-header {value!r} repeats {seen[key][1]!r} (at {Pointer(seen[key][0])}) ignoring "
                              "case; HTTP clients drop this tool")
        else:
            seen[key] = (slot.pointer + rel, value)


@rule("MCP124", "x-mcp-header-without-meaning", severity=Severity.INFO, scope="slot",
      requires="x-mcp-header", versions=before(V2026),
      fix="Nothing to fix for these versions; the annotation takes effect from 2026-07-28")
def x_mcp_header_without_meaning(slot, ctx):
    """`x-mcp-header` in a schema checked for a version before 2026-07-28.

    ## What it does
    Notes each `x-mcp-header` in an `inputSchema` when checking a version before
    2026-07-28.

    ## Why is this bad?
    It is harmless: the annotation is preserved as an unknown keyword, but only
    2026-07-28 Streamable HTTP clients mirror the argument into an `Mcp-Param-*` header.
    A server that relies on the header (e.g. for routing) will not get it from older
    clients.

    ## Example
    <!-- settings: {"protocol-versions": ["2025-11-25"]} -->
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {
      "region": {"type": "string", "x-mcp-header": "Region"}}}}
    ```

    ## Use instead
    ```json
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": `x-mcp-header` has no MCP meaning before
    2026-07-28; SEP-2243.
    """
    for rel, _prop, _value in _headers(slot):
        yield ctx.finding(slot.pointer + rel + ("x-mcp-header",),
                          "x-mcp-header has no MCP meaning before 2026-07-28; clients of this version do not send "
                          "the argument as a header")


# ---------------------------------------------------------------- zero-argument form

_ZERO_ARG_KEYS = frozenset({"type", "properties", "$schema", "$id", "$comment", "title", "description", "required"})


@rule("MCP125", "open-zero-argument-schema", severity=Severity.INFO, scope="slot", versions=since(V2025_11),
      fix='Add "additionalProperties": false so the tool accepts exactly no arguments')
def open_zero_argument_schema(slot, ctx):
    """A tool without parameters does not forbid extra arguments.

    ## What it does
    Notes an `inputSchema` that declares no parameters (`{"type": "object"}` or
    `{"type": "object", "properties": {}}`) but does not say
    `"additionalProperties": false`.

    ## Why is this bad?
    Such a schema accepts any object, so a model may invent arguments and the server
    silently ignores them. From 2025-11-25 the spec recommends
    `{"type": "object", "additionalProperties": false}` for tools without parameters;
    constrained decoders then produce exactly `{}`.

    ## Example
    ```json
    {"name": "list_tables", "inputSchema": {"type": "object", "properties": {}}}
    ```

    ## Use instead
    ```json
    {"name": "list_tables", "inputSchema": {"type": "object", "additionalProperties": false}}
    ```

    ## References
    MCP 2025-11-25/2026-07-28 server/tools.mdx: for no-parameter tools use
    `{"type": "object", "additionalProperties": false}` (recommended) or `{"type": "object"}`.
    """
    s = slot.schema
    if slot.kind != "inputSchema" or not isinstance(s, dict) or s.get("type") != "object":
        return
    if not set(s) <= _ZERO_ARG_KEYS or s.get("properties", {}) != {} or s.get("required", []) != []:
        return
    yield ctx.finding(slot.pointer, "this tool takes no parameters but its inputSchema accepts any object; add "
                                    "\"additionalProperties\": false so extra arguments are rejected",
                      patch=[{"op": "add", "path": str(slot.pointer / "additionalProperties"), "value": False}])


# ---------------------------------------------------------------- _meta keys


@rule("MCP126", "invalid-meta-key", severity=Severity.ERROR, scope="tool",
      versions=since(V2025_06),
      fix="Use an optional dotted prefix ending in / and a name that starts and ends with a letter or digit")
def invalid_meta_key(tool, ctx):
    """A Tool `_meta` key breaks the MCP key grammar.

    ## What it does
    Reports a key of the Tool's `_meta` that is not `[prefix/]name`, where the prefix is
    dot-separated labels (each starts with a letter, ends with a letter or digit, with
    letters, digits and hyphens between) and the name is empty or starts and ends with
    a letter or digit, with letters, digits, `-`, `_` and `.` between.

    ## Why is this bad?
    The key format is a MUST. SDKs that validate `_meta` (e.g. the Python SDK) reject
    the whole object, and other extensions cannot tell whose key it is.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"example.com/-cache": true}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"com.example/cache": true}}
    ```

    ## References
    MCP basic/index.mdx "_meta" 2025-06-18 … 2026-07-28, `MetaObject`.
    """
    meta = _object_member(tool, "_meta")
    if meta is None:
        return
    for key in meta:
        if not META_KEY_RE.match(key):
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} does not follow the MCP key format [prefix/]name (prefix: dotted "
                              "labels; name: starts and ends with a letter or digit)")


def _reserved_prefix(prefix: str, version: str) -> bool:
    labels = prefix.split(".")
    if version >= V2025_11:
        return len(labels) >= 2 and labels[1] in MCP_LABELS
    return any(label in MCP_LABELS for label in labels[:-1])


@rule("MCP127", "reserved-meta-key", severity=Severity.WARNING, scope="tool",
      versions=since(V2025_06),
      per_version=True, fix="Use your own reverse-DNS prefix (e.g. com.example/) for the key")
def reserved_meta_key(tool, ctx):
    """A Tool `_meta` key uses a prefix or name that MCP reserves.

    ## What it does
    Reports a Tool `_meta` key under an MCP-reserved prefix: in 2025-06-18 any prefix
    with a `modelcontextprotocol` or `mcp` label followed by another label (e.g.
    `mcp.dev/`); from 2025-11-25 a prefix whose *second* label is `modelcontextprotocol`
    or `mcp` (e.g. `io.modelcontextprotocol/`, `dev.mcp/`; `com.example.mcp/` is not
    reserved). In 2026-07-28 it also reports the request-only keys `progressToken`,
    `traceparent`, `tracestate` and `baggage`, which do not belong on a Tool.

    ## Why is this bad?
    Reserved keys are for MCP and its official extensions; implementations MUST NOT make
    assumptions about their values, and a future MCP version may give the key another
    meaning. A server using one for its own data collides with the protocol.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"io.modelcontextprotocol/cache": true}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object"}, "_meta": {"com.example/cache": true}}
    ```

    ## References
    MCP basic/index.mdx "_meta" (reserved prefixes per version) and 2026-07-28 reserved keys;
    MCP Description validator code `meta-unknown-reserved-key` (warning).
    """
    meta = _object_member(tool, "_meta")
    if meta is None:
        return
    v = ctx.version
    for key in meta:
        m = META_KEY_RE.match(key)
        if not m:
            continue  # MCP126
        prefix = m.group("prefix")
        if prefix and _reserved_prefix(prefix, v):
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} uses the prefix {prefix + '/'!r}, which MCP reserves for its own "
                              "use in this version")
        elif not prefix and v >= V2026 and key in RESERVED_2026_KEYS:
            yield ctx.finding(tool.pointer / "_meta" / key,
                              f"_meta key {key!r} is reserved by MCP for request metadata and does not belong on a Tool")


# ---------------------------------------------------------------- tools/list result (2026-07-28)

def _list_result(collection):
    if collection.shape not in ("tools-list", "jsonrpc"):
        return None
    try:
        result = collection.container.resolve_in(collection.doc.data)
    except (KeyError, IndexError, TypeError):
        return None
    return result if isinstance(result, dict) else None


@rule("MCP128", "missing-list-result-member", severity=Severity.ERROR, scope="document", versions=frozenset({V2026}),
      fix='Add "resultType": "complete", "ttlMs" and "cacheScope" to the tools/list result')
def missing_list_result_member(collection, ctx):
    """A 2026-07-28 tools/list result lacks `resultType`, `ttlMs` or `cacheScope`.

    ## What it does
    For a `tools/list` result (bare or inside a JSON-RPC response) checked for
    2026-07-28, reports a missing `ttlMs` or `cacheScope` (errors) and a missing
    `resultType` (a warning: clients treat its absence as `"complete"`).

    ## Why is this bad?
    In 2026-07-28 servers MUST include caching hints on complete `tools/list` results and
    every Result carries `resultType`; all four members are required by the schema.
    Without `ttlMs`/`cacheScope` a client cannot cache the list correctly and a strict
    client rejects the result. Results captured from a 2025-11-25 server never have them.

    ## Example
    ```json
    {"tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"resultType": "complete", "ttlMs": 300000, "cacheScope": "public",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2026-07-28 schema.ts `ListToolsResult`/`CacheableResult` and server/utilities/caching.mdx
    (servers MUST include caching hints on complete tools/list results).
    """
    result = _list_result(collection)
    if result is None:
        return
    missing = [m for m in ("ttlMs", "cacheScope") if m not in result]
    if missing:
        yield ctx.finding(collection.container,
                          f"tools/list result has no {' or '.join(missing)}; 2026-07-28 servers MUST send the caching "
                          "hints ttlMs and cacheScope, and clients that validate the result reject it",
                          fix="Add \"ttlMs\" (milliseconds the list may be cached, >= 0) and \"cacheScope\" "
                              "(\"public\" or \"private\")")
    if "resultType" not in result:
        yield ctx.finding(collection.container,
                          "tools/list result has no resultType; 2026-07-28 clients treat a missing one as "
                          "\"complete\", but every Result carries it", severity=Severity.WARNING,
                          fix='Add "resultType": "complete"',
                          patch=[{"op": "add", "path": str(collection.container / "resultType"), "value": "complete"}])


@rule("MCP129", "invalid-list-result-member", severity=Severity.ERROR, scope="document", versions=frozenset({V2026}),
      fix='Use a string resultType, an integer ttlMs >= 0 and cacheScope "public" or "private"')
def invalid_list_result_member(collection, ctx):
    """A 2026-07-28 tools/list result has a malformed `resultType`, `ttlMs` or `cacheScope`.

    ## What it does
    Reports a `resultType` that is not a string, a `ttlMs` that is not an integer
    >= 0, and a `cacheScope` other than `"public"` or `"private"`.

    ## Why is this bad?
    Clients use these to decide how long and for whom to cache the tool list; a
    negative or fractional TTL or an unknown scope makes a strict client reject the
    result and a lenient one cache it wrongly (e.g. a private list shared between users).

    ## Example
    ```json
    {"resultType": "complete", "ttlMs": -1, "cacheScope": "shared",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## Use instead
    ```json
    {"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
     "tools": [{"name": "search", "inputSchema": {"type": "object"}}]}
    ```

    ## References
    MCP 2026-07-28 schema.json `ListToolsResult` (`ttlMs`: integer, minimum 0; `cacheScope`:
    "public" | "private").
    """
    result = _list_result(collection)
    if result is None:
        return
    ptr = collection.container
    if "resultType" in result and not isinstance(result["resultType"], str):
        yield ctx.finding(ptr / "resultType", f"resultType is {kind(result['resultType'])}; it must be a string "
                                              "such as \"complete\"")
    if "ttlMs" in result:
        t = result["ttlMs"]
        ok = isinstance(t, int) and not isinstance(t, bool) or isinstance(t, float) and t.is_integer()
        if not ok or t < 0:
            yield ctx.finding(ptr / "ttlMs", f"ttlMs is {t!r}; it must be an integer number of milliseconds >= 0")
    if "cacheScope" in result and result["cacheScope"] not in ("public", "private"):
        yield ctx.finding(ptr / "cacheScope", f"cacheScope is {result['cacheScope']!r}; it must be \"public\" or "
                                              "\"private\"")


@rule("MCP130", "unresolved-component-ref", severity=Severity.ERROR, scope="tool", requires="mcpdesc",
      fix='Point "$componentRef" at an existing "#/components/schemas/<name>" entry')
def unresolved_component_ref(tool, ctx):
    """A schema slot's `$componentRef` in an MCP Description document names no component.

    ## What it does
    In an MCP Description document, `inputSchema` and `outputSchema` may be a Reference
    Object, `{"$componentRef": "#/components/schemas/<name>"}`, which is resolved before
    any other check. Reports a reference that does not start with
    `#/components/schemas/` or names a component that does not exist.

    ## Why is this bad?
    Native projection resolves the reference to produce the Tool a server returns; an
    unresolvable one leaves no schema at all, so no MCP value can be produced and no
    other rule can check what the tool accepts.

    ## Example
    ```json
    {"mcpdesc": "0.8.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2026-07-28"],
     "components": {"schemas": {"Args": {"type": "object"}}},
     "tools": [{"name": "a", "inputSchema": {"$componentRef": "#/components/schemas/Arg"}}]}
    ```

    ## Use instead
    ```json
    {"mcpdesc": "0.8.0", "info": {"name": "s", "version": "1"}, "protocolVersions": ["2026-07-28"],
     "components": {"schemas": {"Args": {"type": "object"}}},
     "tools": [{"name": "a", "inputSchema": {"$componentRef": "#/components/schemas/Args"}}]}
    ```

    ## References
    MCP Description specification §9.2 (Tool schemas may be component references, resolved
    before use) and seed 002 (native projection resolves component references).
    """
    if tool.context != "mcpdesc" or not isinstance(tool.data, dict):
        return
    for kind in SLOT_KINDS:
        s = tool.data.get(kind)
        if isinstance(s, dict) and "$componentRef" in s and \
                tool.resolve_component(Slot(tool, kind, tool.pointer / kind, s)) is None:
            yield ctx.finding(tool.pointer / kind / "$componentRef",
                              f"$componentRef {s['$componentRef']!r} does not resolve to an entry of "
                              "#/components/schemas; this slot has no schema")
