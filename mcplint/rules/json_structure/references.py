"""JST: a bound schema must be self-contained (binding §5.3): no imports, no external references."""

from __future__ import annotations

from ...jstruct import schema as checks
from ...model import Severity
from ...registry import rule
from .common import emit, is_bound


@rule("JST108", "import-in-bound-slot", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Resolve the imports before sending the schema, and drop JSONStructureImport from $uses")
def import_in_bound_slot(slot, ctx):
    """A bound slot uses the Import add-in.

    ## What it does
    Reports `JSONStructureImport` in `$uses` and every `$import` or `$importdefs` member,
    even where the selected meta-schema activates the add-in by default.

    ## Why is this bad?
    A bound schema must be self-contained (§5.3). An import makes the client fetch a
    document during tool discovery, before any trust decision about the server: a
    request-forgery primitive that also leaks the timing of discovery to a third party
    (§10).

    ## Example
    ```json
    {"name": "order", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/order-input", "name": "OrderInput",
     "$uses": ["JSONStructureImport"], "$import": "https://schemas.example.com/commerce.json",
     "type": "object", "properties": {"sku": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "order", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/order-input", "name": "OrderInput",
     "type": "object", "properties": {"sku": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §5.3 (self-containment) and §10 (retrieval during discovery);
    JSON Structure Import (draft-vasters-json-structure-import).
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_imports(slot.schema, memo=ctx.memo))


@rule("JST109", "jstruct-external-reference", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Copy the referenced type into definitions and point at it with a #/definitions/... fragment")
def jstruct_external_reference(slot, ctx):
    """A `$ref`, `$extends` or `$root` in a bound slot points outside the schema.

    ## What it does
    Reports every `$ref` (inside `type`), `$extends` and `$root` whose value is not a
    same-document JSON Pointer fragment (`#/definitions/...`). mcplint never retrieves it.

    ## Why is this bad?
    No member of a bound slot may carry a URI a processor must retrieve (§5.3): the only
    outward-pointing URI is `$schema`, which is matched, not fetched. An external
    reference either breaks validation on every client that (rightly) refuses to fetch it
    or turns tool discovery into a network request to a third party (§10).

    ## Example
    ```json
    {"name": "ship", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/ship-input", "name": "ShipInput", "type": "object",
     "properties": {"to": {"type": {"$ref": "https://schemas.example.com/address.json"}}}}}
    ```

    ## Use instead
    ```json
    {"name": "ship", "inputSchema": {"$schema": "https://json-structure.org/meta/core/v0/#",
     "$id": "https://tools.example.com/schemas/ship-input", "name": "ShipInput", "type": "object",
     "properties": {"to": {"type": {"$ref": "#/definitions/Address"}}},
     "definitions": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}}}}
    ```

    ## References
    JSON Structure MCP binding §5.3 (no URI a processor must retrieve) and §10.
    """
    if not is_bound(slot):
        return
    yield from emit(slot, ctx, checks.check_external(slot.schema, memo=ctx.memo))
