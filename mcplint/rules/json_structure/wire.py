"""JST: what the schema means for the JSON on the wire: property names that collide once
mapped, and big numbers declared as JSON numbers."""

from __future__ import annotations

from ...jstruct import schema as checks
from ...model import Severity
from ...registry import rule
from .common import emit, is_bound


@rule("JST111", "wire-name-collision", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Give each property of the type a distinct wire name (altnames.json or property name)")
def wire_name_collision(slot, ctx):
    """Two properties of one type travel under the same key.

    ## What it does
    Computes each property's wire name (its `altnames.json` if present, else its name) and
    reports a property whose wire name an earlier property of the same type already has.

    ## Why is this bad?
    The wire name is the key in the argument object or structured result (§6); two
    properties resolving to it cannot both be represented, and which one a receiver binds
    the value to is undefined. The binding forbids it.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/search-input", "name": "SearchInput", "type": "object",
     "$uses": ["JSONStructureAlternateNames"],
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}},
                    "max_results": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/search-input", "name": "SearchInput", "type": "object",
     "$uses": ["JSONStructureAlternateNames"],
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## References
    JSON Structure MCP binding §6 (two properties of the same type MUST NOT resolve to the
    same wire name); JSON Structure Alternate Names.
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_wire_names(slot.schema, memo=ctx.memo))


@rule("JST113", "big-number-as-json-number", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix_safety="safe", fix_note="the same number, written as the string the binding requires",
      fix="Write the value as a JSON string of digits")
def big_number_as_json_number(slot, ctx):
    """An int64, uint64, int128, uint128 or decimal value is written as a JSON number.

    ## What it does
    Reports values in `const`, `enum`, `default` and `examples` of a property whose type
    is `int64`, `uint64`, `int128`, `uint128` or `decimal` (directly or through `$ref`)
    when they are JSON numbers instead of strings. The fix quotes them.

    ## Why is this bad?
    Core represents these types as JSON strings because their values exceed what an IEEE
    754 double holds exactly; a JSON number is invalid for the type, and a receiver that
    parses it rounds it silently (9007199254740993 becomes ...992). The binding forbids
    any coercion (§7).

    ## Example
    ```json
    {"name": "get_order", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/get-order-input", "name": "GetOrderInput", "type": "object",
     "properties": {"id": {"type": "int64", "examples": [9007199254740993]}}}}
    ```

    ## Use instead
    ```json
    {"name": "get_order", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/get-order-input", "name": "GetOrderInput", "type": "object",
     "properties": {"id": {"type": "int64", "examples": ["9007199254740993"]}}}}
    ```

    ## References
    JSON Structure MCP binding §7 (value representation); JSON Structure Core, int64 /
    uint64 / int128 / uint128 / decimal.
    """
    if not is_bound(slot):
        return
    for p in checks.check_big_numbers(slot.schema, memo=ctx.memo):
        ptr = slot.pointer + p.path
        raw = checks.at_pointer(slot.schema, p.path)
        value = str(raw) if isinstance(raw, int) else format(raw, "f").rstrip("0").rstrip(".")
        yield ctx.finding(ptr, p.message, patch=({"op": "replace", "path": str(ptr), "value": value},))
