"""SCH112-SCH114: schemas valid in every dialect that clients and decoders still read
differently: a boolean subschema, a `type` union, a subschema of no type. The MCP Inspector's
``--strict`` schema lint reports the same shapes (docs/inspector-strict.md); these rules are
information under default settings, and the decoder profiles (DEC) say which targets reject
or weaken each."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...schemawalk import children
from .common import TYPE_IMPLYING, constrains, slot_walk, show

# keywords whose boolean value is the usual way to close an object or array (as the MCP
# Inspector's lint also holds), and "properties", MCP108's
_BOOLEAN_VALUED = frozenset({"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems",
                             "properties"})
_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})


def _booleans(node: dict):
    for where, value, kw in children(node):
        if type(value) is bool and kw not in _BOOLEAN_VALUED:
            yield where, value


@rule("SCH112", "boolean-subschema", severity=Severity.INFO, scope="slot",
      fix="Write the object form: `{}` for true (any value), `{\"not\": {}}` for false (no value)")
def boolean_subschema(slot, ctx):
    """A subschema is written as `true` or `false`.

    ## What it does
    Reports a boolean schema in any subschema position (`items`, `prefixItems`, `contains`,
    `allOf`/`anyOf`/`oneOf`, `not`, `if`/`then`/`else`, `propertyNames`, `contentSchema`, `$defs`,
    `definitions`, `dependentSchemas`, `dependencies`, `patternProperties`) but four. A boolean
    property schema is MCP108's; `additionalProperties: false` (and `unevaluatedProperties`,
    `additionalItems`, `unevaluatedItems`) is the usual way to close an object or array and is not
    reported.

    ## Why is this bad?
    Boolean schemas are valid JSON Schema since draft-06, but client-side converters and
    decoders that expect every subschema to be an object fail on them or drop them (the MCP
    Inspector's `--strict` lint reports them as `boolean-schema`). The object forms mean the same.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"tags": {"type": "array", "items": true}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §4.3.2 (boolean JSON Schemas); MCP Inspector 2.12 `--strict`
    (modelcontextprotocol/inspector, `core/json/schemaLint.ts`: `boolean-schema`).
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    for ptr, node, _ in walk.nodes:
        for where, value in _booleans(node):
            yield ctx.finding(ptr.full + where, f"{'/'.join(map(str, where))} is the boolean schema "
                                                f"{str(value).lower()}: some clients and decoders expect an object")


@rule("SCH113", "type-union", severity=Severity.INFO, scope="slot",
      fix="Use `anyOf` with one `type` each (`[T, \"null\"]`: `anyOf` of `{\"type\": T}` and "
          "`{\"type\": \"null\"}`), or write a list of one type as that type")
def type_union(slot, ctx):
    """A schema's `type` is a list.

    ## What it does
    Reports `"type": [...]`: a union of types (`["string", "number"]`), the nullable form
    `["string", "null"]`, or a list of one type (`["string"]`). The nullable form is the common
    one and valid JSON Schema: this is information, and the DEC profiles (`--profile`) say which
    targets refuse or rewrite it.

    ## Why is this bad?
    Several decoders and providers accept one type per schema and refuse or rewrite a list of
    types (Gemini's OpenAPI subset has one `type` and writes null as `nullable: true`); `anyOf`
    with one `type` each says the same in a form more of them read (the MCP Inspector's
    `--strict` lint reports every list of distinct type names as `type-union`).

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"v": {"type": ["string", "number"]}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "number"}]}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.1.1 (`type` as an array); MCP Inspector 2.12 `--strict`
    (modelcontextprotocol/inspector, `core/json/schemaLint.ts`: `type-union`).
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    for ptr, node, _ in walk.nodes:
        kinds = node.get("type")
        if not isinstance(kinds, list):
            continue
        named = [t for t in kinds if t != "null"]
        if len(named) >= 2:
            yield ctx.finding(ptr / "type", f"`type` is a union of {', '.join(map(show, kinds))}")
        elif kinds and all(type(t) is str and t in _TYPES for t in kinds) and len(set(kinds)) == len(kinds):
            if len(kinds) == 1:
                msg = f"`type` is a list of one type: write it as {show(kinds[0])}"
            elif named:
                msg = (f"`type` is the nullable list [{show(named[0])}, \"null\"]: clients that read one type "
                       "per schema refuse or drop it; `anyOf` with one `type` each is the portable form")
            else:
                msg = "`type` is a list of one type: write it as \"null\""
            yield ctx.finding(ptr / "type", msg)


_UNTYPED_VIA = ("items", "prefixItems", "additionalItems", "additionalProperties", "patternProperties", "contains")
# where a subschema of no constraining keyword at all is not SCH114's: the root (MCP106's), a property
# (SCH108's), and directly under `not` (`not: {}` is the usual spelling of "no value")
_UNCONSTRAINED_EXEMPT = (None, "properties", "not")


@rule("SCH114", "untyped-subschema", severity=Severity.INFO, scope="slot",
      fix="Give the subschema a `type` (or an `enum`/`const`/`$ref` that implies one)")
def untyped_subschema(slot, ctx):
    """An array's items, an object's other values, or another subschema have a schema with no type.

    ## What it does
    Reports a schema under `items`, `prefixItems`, `additionalItems`, `additionalProperties`,
    `patternProperties` or `contains` that has no `type` and nothing that implies one (`$ref`,
    `enum`, `const`, a combinator); and a schema in any other subschema position (an
    `anyOf`/`oneOf`/`allOf` branch, `$defs`, `if`/`then`/`else`, `propertyNames`, ...) that
    constrains nothing at all: no `type`, `enum`, `const`, bound, `pattern`, `format`, applicator or
    reference (only annotations such as `description`). A branch directly under `not` is not
    reported (`not: {}` means "no value"), nor a property (SCH108's) or the root (MCP106's).

    ## Why is this bad?
    Such a subschema accepts any JSON value: a model has to guess what to send, and decoders
    that need a type for every value refuse it (the MCP Inspector's `--strict` lint reports
    `untyped-schema`).

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"ids": {"type": "array", "items": {"description": "an id"}}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "string", "description": "an id"}}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.1.1 (`type`); MCP Inspector 2.12 `--strict`
    (modelcontextprotocol/inspector, `core/json/schemaLint.ts`: `untyped-schema`).
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    for ptr, node, sub in walk.nodes:
        if sub[3] in _UNTYPED_VIA and "type" not in node and TYPE_IMPLYING.isdisjoint(node):
            yield ctx.finding(ptr.full, f"this {sub[3]} schema has no `type`: it accepts any JSON value")
        elif sub[3] not in _UNCONSTRAINED_EXEMPT and not constrains(node):
            yield ctx.finding(ptr.full, f"this {sub[3]} schema constrains nothing: it accepts any JSON value")
