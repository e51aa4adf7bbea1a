"""JST: the root of a bound schema: its form, its name and ``$id``, how the name relates to the
tool, and the zero-argument form (binding §5)."""

from __future__ import annotations

from ...jstruct import schema as checks
from ...model import Severity
from ...registry import rule
from .common import emit, is_bound


@rule("JST104", "jstruct-root-form", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Declare \"type\": \"object\" inline at the root of inputSchema; use either type or $root in outputSchema")
def jstruct_root_form(slot, ctx):
    """The root of a bound slot has the wrong form for its slot.

    ## What it does
    For `inputSchema`: reports a root that does not declare `"type": "object"` inline, or
    that uses `$root`. For `outputSchema`: reports a root with both `type` and `$root`, or
    with neither.

    ## Why is this bad?
    MCP's wire type requires `"type": "object"` at the root of an input schema; Core's
    `choice` and `map` also produce JSON objects but are not what MCP expects, and Core
    makes `$root` and a root `type` mutually exclusive (§5.1).

    ## Example
    ```json
    {"name": "lookup", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/lookup-input", "name": "LookupInput",
     "$root": "#/definitions/Query",
     "definitions": {"Query": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "lookup", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/lookup-input", "name": "LookupInput", "type": "object",
     "properties": {"q": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §5.1 (root form).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_root_form(slot.schema, slot.kind))


@rule("JST105", "missing-root-name-or-id", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Give the root a \"name\" (an identifier) and an \"$id\" URI in a namespace you control")
def missing_root_name_or_id(slot, ctx):
    """The root of a bound slot lacks `name` or `$id`, or they are malformed.

    ## What it does
    Reports a root without `name`, a `name` that is not an identifier
    (`[A-Za-z_][A-Za-z0-9_]*`), a root without `$id`, or an `$id` that is not an absolute
    URI. mcplint never dereferences `$id`.

    ## Why is this bad?
    Core requires both on the root, and the binding builds on them (§5.1): `name` names
    the type in generated code, and `$id` identifies the schema (a client keys trust
    decisions on it, per server). A schema without them is not a valid JSON Structure
    document.

    ## Example
    ```json
    {"name": "ping", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "type": "object", "properties": {"host": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "ping", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/ping-input", "name": "PingInput",
     "type": "object", "properties": {"host": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §5.1; JSON Structure Core, document structure (`$id`, `name`).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_name_and_id(slot.schema))


@rule("JST106", "root-name-unrelated-to-tool", severity=Severity.WARNING, scope="slot", requires="jstruct",
      fix="Derive the root name from the tool name, e.g. get_weather -> GetWeatherInput")
def root_name_unrelated_to_tool(slot, ctx):
    """The root `name` of a bound slot is not derived from the tool name.

    ## What it does
    Compares the root `name` with the tool name, ignoring case and everything that is not
    a letter or digit: `GetWeatherInput` derives from `get_weather`; `Args` does not.

    ## Why is this bad?
    The binding says the name Core requires on the root SHOULD be derived from the tool
    name (§5.1). Code generators and hosts use it as the type name; unrelated names
    collide across tools (`Input`, `Args`) and make generated types hard to trace back.

    ## Example
    ```json
    {"name": "get_weather", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/get-weather-input", "name": "Args", "type": "object",
     "properties": {"city": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_weather", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/get-weather-input", "name": "GetWeatherInput", "type": "object",
     "properties": {"city": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §5.1 (the root name SHOULD be derived from the tool name).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_name_from_tool(slot.schema, slot.tool.name))


def _zero_arg_patch(slot, p):
    if p.keyword == "properties" and p.path in ((), ("properties",)) and slot.kind == "inputSchema":
        base = str(slot.pointer)
        ops = [{"op": "add", "path": base + "/properties", "value": {"null": {"type": "null"}}}]
        if slot.schema.get("additionalProperties") is not False:
            ops.append({"op": "add", "path": base + "/additionalProperties", "value": False})
        return ops
    return ()


@rule("JST107", "malformed-zero-argument-schema", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix_safety="unsafe", fix_note="the zero-argument convention changes what the schema accepts",
      fix="For a tool without arguments declare exactly {\"null\": {\"type\": \"null\"}} as properties, "
          "\"additionalProperties\": false, and no required")
def malformed_zero_argument_schema(slot, ctx):
    """A bound slot breaks the zero-argument `null`-property convention.

    ## What it does
    In a bound `inputSchema`: reports an object root without properties (MCP's usual
    no-argument shape), and a `null` property that is not of type `null`, is not the only
    property, is required, or comes without `"additionalProperties": false`. In an
    `outputSchema`: reports an object whose only property is the `null` placeholder.

    ## Why is this bad?
    Core requires an object type to declare at least one property, MCP describes a
    no-argument tool with no properties. The binding reconciles them with exactly one
    convention (§5.2) so that an empty arguments object satisfies both; any variant either
    breaks Core or admits arguments the tool does not take. The convention belongs to
    `inputSchema` only.

    ## Example
    ```json
    {"name": "refresh", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/refresh-input", "name": "RefreshInput",
     "type": "object", "additionalProperties": false}}
    ```

    ## Use instead
    ```json
    {"name": "refresh", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/refresh-input", "name": "RefreshInput",
     "type": "object", "properties": {"null": {"type": "null"}}, "additionalProperties": false}}
    ```

    ## References
    JSON Structure MCP binding §5.2 (zero-argument tools).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_zero_arg(slot.schema, slot.kind, memo=ctx.memo), patch_for=lambda p: _zero_arg_patch(slot, p))
