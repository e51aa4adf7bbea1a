"""MCP: what the keywords at a schema slot's root say (MCP108, MCP110, MCP111, MCP125, MCP130).

Boolean property schemas and the shape of root ``properties``/``required`` in the versions
whose wire shape restricts them, ``$schema`` before it selects a dialect, the zero-argument
form of ``inputSchema``, and MCP Description ``$componentRef`` slots that resolve to nothing.
"""

from __future__ import annotations

from ...model import SLOT_KINDS, Severity, Slot
from ...registry import rule
from ...versions import before, since
from .common import V2025_11, V2026, kind


@rule("MCP108", "boolean-property-schema", severity=Severity.WARNING, scope="slot", versions=before(V2026),
      fix_safety="safe", fix_note="`true` becomes `{}` and `false` becomes `{\"not\": {}}`: the same schema",
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


def _schema_validity_on(ctx) -> bool:
    from ...config import is_selected
    from ...registry import get

    meta = get("SCH101")
    return meta is not None and is_selected(meta.id, meta.default, ctx.config, getattr(ctx, "origin", None))


@rule("MCP110", "invalid-root-properties-shape", severity=Severity.ERROR, scope="slot", versions=before(V2025_11),
      fix_safety="safe", fix_note="`\"required\": \"a\"` becomes `[\"a\"]`, the array it was meant to be",
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


# ---------------------------------------------------------------- zero-argument form

_ZERO_ARG_KEYS = frozenset({"type", "properties", "$schema", "$id", "$comment", "title", "description", "required"})


@rule("MCP125", "open-zero-argument-schema", severity=Severity.INFO, scope="slot", versions=since(V2025_11),
      fix_safety="unsafe", fix_note="`additionalProperties: false` rejects arguments that were accepted",
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


# ---------------------------------------------------------------- MCP Description component references

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
    before use) and the MCP Description validation guide (native projection resolves component references).
    """
    if tool.context != "mcpdesc" or not isinstance(tool.data, dict):
        return
    for slot_kind in SLOT_KINDS:
        s = tool.data.get(slot_kind)
        if isinstance(s, dict) and "$componentRef" in s and \
                tool.resolve_component(Slot(tool, slot_kind, tool.pointer / slot_kind, s)) is None:
            yield ctx.finding(tool.pointer / slot_kind / "$componentRef",
                              f"$componentRef {s['$componentRef']!r} does not resolve to an entry of "
                              "#/components/schemas; this slot has no schema")
