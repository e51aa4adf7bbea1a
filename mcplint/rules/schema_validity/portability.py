"""SCH112-SCH114: schemas valid in every dialect that clients and decoders still read
differently: a boolean subschema, a `type` union, a subschema of no type. The MCP Inspector's
``--strict`` schema lint reports the same shapes (docs/inspector-strict.md); these rules are
information under default settings, and the decoder profiles (DEC) say which targets reject
or weaken each."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import TYPE_IMPLYING, slot_walk, show

# keywords whose value is a subschema, or a list or map of them, where a boolean is unusual;
# "properties" is MCP108's, and additionalProperties / unevaluated* / propertyNames take false
# as the usual way to close an object or array
_ONE = ("items", "additionalItems", "contains", "not", "if", "then", "else")
_LIST = ("prefixItems", "allOf", "anyOf", "oneOf")
_MAP = ("$defs", "definitions", "dependentSchemas", "patternProperties")


def _booleans(node: dict):
    for kw in _ONE:
        if type(node.get(kw)) is bool:
            yield (kw,), node[kw]
    for kw in _LIST:
        if isinstance(node.get(kw), list):
            yield from (((kw, i), v) for i, v in enumerate(node[kw]) if type(v) is bool)
    for kw in _MAP:
        if isinstance(node.get(kw), dict):
            yield from (((kw, k), v) for k, v in node[kw].items() if type(v) is bool)


@rule("SCH112", "boolean-subschema", severity=Severity.INFO, scope="slot",
      fix="Write the object form: `{}` for true (any value), `{\"not\": {}}` for false (no value)")
def boolean_subschema(slot, ctx):
    """A subschema is written as `true` or `false`.

    ## What it does
    Reports a boolean schema under `items`, `prefixItems`, `contains`, `allOf`/`anyOf`/`oneOf`,
    `not`, `if`/`then`/`else`, `$defs`, `dependentSchemas` or `patternProperties`. A boolean
    property schema is MCP108's; `additionalProperties: false` (and the `unevaluated*` and
    `propertyNames` keywords) is the usual way to close an object and is not reported.

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
      fix="Use `anyOf` with one `type` each, or one type; `[T, \"null\"]` (a nullable value) is not reported")
def type_union(slot, ctx):
    """A schema's `type` is a list of two or more types other than `null`.

    ## What it does
    Reports `"type": [...]` with two or more types besides `"null"` (`["string", "number"]`).
    `["string", "null"]`, the usual nullable form, is not reported (the DEC profiles say which
    targets refuse it).

    ## Why is this bad?
    Several decoders and providers accept one type per schema, or a type and `null`, and
    refuse or rewrite a union of types; `anyOf` says the same in a form they read (the MCP
    Inspector's `--strict` lint reports `type-union`).

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
        if isinstance(kinds, list) and len([t for t in kinds if t != "null"]) >= 2:
            yield ctx.finding(ptr / "type", f"`type` is a union of {', '.join(map(show, kinds))}")


_UNTYPED_VIA = ("items", "prefixItems", "additionalItems", "additionalProperties", "patternProperties", "contains")


@rule("SCH114", "untyped-subschema", severity=Severity.INFO, scope="slot",
      fix="Give the subschema a `type` (or an `enum`/`const`/`$ref` that implies one)")
def untyped_subschema(slot, ctx):
    """An array's items, or an object's other values, have a schema with no type.

    ## What it does
    Reports a schema under `items`, `prefixItems`, `additionalItems`, `additionalProperties`,
    `patternProperties` or `contains` that has no `type` and nothing that implies one (`$ref`,
    `enum`, `const`, a combinator). A property without a type is SCH108's.

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
