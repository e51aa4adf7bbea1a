"""JST: a slot's declaration as JSON Structure: its ``$schema``, whether the schema is valid
against its meta-schema, and misspelled keywords."""

from __future__ import annotations

from ...jstruct import schema as checks
from ...model import Severity
from ...registry import rule
from .common import emit, is_bound


@rule("JST101", "jstruct-without-schema", severity=Severity.ERROR, scope="slot",
      fix="Add \"$schema\" naming the JSON Structure meta-schema the schema is written for")
def jstruct_without_schema(slot, ctx):
    """A schema slot written in JSON Structure carries no `$schema`.

    ## What it does
    Reports a schema slot without `$schema` that uses constructs only JSON Structure has:
    `$root`, `$uses` or `$offers` at the root, a type name JSON Schema lacks (`int64`,
    `double`, `datetime`, `uuid`, `map`, `set`, `tuple`, `choice`, `any`, ...), or a
    `type` holding `{"$ref": ...}`. The finding points at the slot and names the first
    construct seen.

    ## Why is this bad?
    MCP reads a slot without `$schema` as JSON Schema 2020-12. The binding requires a
    bound slot to carry `$schema` explicitly (§3.1): read as JSON Schema, unknown type
    names make the schema unsatisfiable or are ignored, and the client validates
    something other than what the server meant, with no error raised (§10, dialect
    confusion).

    ## Example
    ```json
    {"name": "count_items", "inputSchema": {"type": "object", "name": "CountItemsInput",
     "properties": {"limit": {"type": "int64"}}}}
    ```

    ## Use instead
    ```json
    {"name": "count_items", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/count-items-input", "type": "object", "name": "CountItemsInput",
     "properties": {"limit": {"type": "int64"}}}}
    ```

    ## References
    JSON Structure MCP binding §3.1 (a bound slot MUST carry `$schema`; a server MUST NOT
    emit JSON Structure with `$schema` absent) and §10 (dialect confusion).
    """
    if not isinstance(slot.schema, dict) or "$schema" in slot.schema:
        return
    b = ctx.bounds
    signals = checks.jstruct_signals(slot.schema, ctx.walks, max_nodes=b.max_subschemas, max_depth=b.max_depth)
    if signals:
        first = signals[0]
        more = f" (and {len(signals) - 1} more JSON Structure constructs)" if len(signals) > 1 else ""
        yield ctx.finding(slot.pointer, f"this {slot.kind} is written in JSON Structure ({first.what} at "
                                        f"{'/' + '/'.join(map(str, first.path))}){more} but has no $schema, so every client "
                                        "reads it as JSON Schema 2020-12 and misinterprets it")


@rule("JST102", "invalid-jstruct-schema", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Correct the schema so that it is valid JSON Structure Core (and the add-ins it activates)")
def invalid_jstruct_schema(slot, ctx):
    """A bound slot holds a schema that is not valid JSON Structure.

    ## What it does
    Validates a JSON Structure slot against Core and its activated add-ins: unknown type
    names, `array` without `items`, `map` without `values`, an object without properties,
    `required` naming undeclared properties, unresolvable or circular references, `$ref`
    outside `type`, bad `enum`s, impossible validation bounds, add-ins named in `$uses`
    that the meta-schema does not offer. Built on the `json-structure` package's checker,
    with its path format corrected and its false reports removed.

    ## Why is this bad?
    The binding requires a bound slot to be a valid schema document per Core and the
    add-ins it activates (§5). A client cannot validate against an invalid schema; SDKs
    disagree on what to do with one, so the tool's contract differs per client.

    ## Example
    ```json
    {"name": "tag", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/tag-input", "name": "TagInput", "type": "object",
     "properties": {"tags": {"type": "array"}}}}
    ```

    ## Use instead
    ```json
    {"name": "tag", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/tag-input", "name": "TagInput", "type": "object",
     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    JSON Structure MCP binding §5; JSON Structure Core (draft-vasters-json-structure-core).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_valid(slot.schema, slot.kind, memo=ctx.memo))


@rule("JST103", "misspelled-jstruct-keyword", severity=Severity.WARNING, scope="slot", requires="jstruct",
      fix="Spell the keyword as JSON Structure defines it")
def misspelled_jstruct_keyword(slot, ctx):
    """A keyword in a bound slot looks like a misspelling of a JSON Structure keyword.

    ## What it does
    Reports an unknown keyword that differs from a Core or add-in keyword only in case or
    by one or two characters (`propertiez`, `requried`, `maxlength`), when the real
    keyword is not also present.

    ## Why is this bad?
    Core lets unknown keywords stand as custom annotations, so a misspelt constraint is
    not an error anywhere: it silently constrains nothing, and the `json-structure`
    checker does not report it. The schema reads as constrained and is not.

    ## Example
    ```json
    {"name": "note", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/note-input", "name": "NoteInput", "type": "object",
     "properties": {"text": {"type": "string", "maxlength": 200}}}}
    ```

    ## Use instead
    ```json
    {"name": "note", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/note-input", "name": "NoteInput", "type": "object",
     "properties": {"text": {"type": "string", "maxLength": 200}}}}
    ```

    ## References
    JSON Structure MCP binding §5 (valid per Core) and §10 (silently unenforced
    constraints); JSON Structure Core, reserved keywords and custom annotations.
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_typos(slot.schema, memo=ctx.memo))
