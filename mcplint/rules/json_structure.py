"""JST: the JSON Structure MCP binding (draft-vasters-json-structure-mcp-binding).

A slot is JSON Structure when its ``$schema`` is a recognised JSON Structure meta-schema
URI (binding §3.1); every rule but JST101 looks only at such slots. The checks live in
:mod:`mcplint.jstruct.schema`; these rules turn their problems into findings. Size,
depth, ``$ref`` traversal, enum cardinality and regex safety (binding §10) are the SEC
rules' job and are not repeated here.
"""

from __future__ import annotations

from ..jstruct import dialects
from ..jstruct import schema as checks
from ..jstruct.keywords import KEYWORD_ADDIN
from ..model import Severity
from ..registry import rule

BINDING = "draft-vasters-json-structure-mcp-binding (2026-08-13)"


def _bound(slot):
    return dialects.is_jstruct(slot.schema)


def _emit(slot, ctx, problems, fix=None, patch_for=None):
    for p in problems:
        patch = patch_for(p) if patch_for else ()
        yield ctx.finding(slot.pointer + p.pointer, p.message, fix=fix, patch=patch or ())


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
    signals = checks.jstruct_signals(slot.schema, max_nodes=b.max_subschemas, max_depth=b.max_depth)
    if signals:
        ptr, what = signals[0]
        more = f" (and {len(signals) - 1} more JSON Structure constructs)" if len(signals) > 1 else ""
        yield ctx.finding(slot.pointer, f"this {slot.kind} is written in JSON Structure ({what} at "
                                        f"{'/' + '/'.join(map(str, ptr))}){more} but has no $schema, so every client "
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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_valid(slot.schema, slot.kind))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_typos(slot.schema))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_root_form(slot.schema, slot.kind))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_name_and_id(slot.schema))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_name_from_tool(slot.schema, slot.tool.name))


def _zero_arg_patch(slot, p):
    if p.keyword == "properties" and p.pointer in ((), ("properties",)) and slot.kind == "inputSchema":
        base = str(slot.pointer)
        ops = [{"op": "add", "path": base + "/properties", "value": {"null": {"type": "null"}}}]
        if slot.schema.get("additionalProperties") is not False:
            ops.append({"op": "add", "path": base + "/additionalProperties", "value": False})
        return ops
    return ()


@rule("JST107", "malformed-zero-argument-schema", severity=Severity.ERROR, scope="slot", requires="jstruct",
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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_zero_arg(slot.schema, slot.kind), patch_for=lambda p: _zero_arg_patch(slot, p))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_imports(slot.schema))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_external(slot.schema))


def _uses_patch(slot, addin):
    base = str(slot.pointer)
    uses = slot.schema.get("$uses")
    if isinstance(uses, list):
        return ({"op": "add", "path": base + "/$uses/-", "value": addin},)
    return ({"op": "add", "path": base + "/$uses", "value": [addin]},)


def _addin_of(p):
    return KEYWORD_ADDIN.get(p.keyword)


def _activation_findings(slot, ctx, problems):
    patched: set = set()
    for p in problems:
        addin = _addin_of(p)
        patch = ()
        if addin and addin not in patched and addin in dialects.offered(slot.schema.get("$schema")):
            patch = _uses_patch(slot, addin) if not patched else ()
            patched.add(addin)
        yield ctx.finding(slot.pointer + p.pointer, p.message, fix=f"Add \"{addin}\" to $uses" if addin else None,
                          patch=patch)


@rule("JST110", "unactivated-addin-keyword", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Name the add-in in $uses, or select a meta-schema that activates it")
def unactivated_addin_keyword(slot, ctx):
    """A bound slot uses a keyword of an add-in it does not activate.

    ## What it does
    Reports each keyword of the validation (`minimum`, `pattern`, `minItems`, `default`,
    ...), conditional-composition (`allOf`, `if`, ...), units, relations or semantic
    annotations add-in, when the add-in is neither named in `$uses` nor active by default
    under the selected meta-schema (only `.../meta/validation/v0/#` activates add-ins by
    default). Alternate names are JST112; import is JST108.

    ## Why is this bad?
    An unactivated add-in keyword is ignored, not rejected: a client MUST treat the
    instance as unconstrained by it (§5.4). The schema reads as tightly constrained and
    enforces nothing; a server MUST NOT emit it.

    ## Example
    ```json
    {"name": "set_volume", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/set-volume-input", "name": "SetVolumeInput", "type": "object",
     "properties": {"level": {"type": "int32", "minimum": 0, "maximum": 11}}}}
    ```

    ## Use instead
    ```json
    {"name": "set_volume", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/set-volume-input", "name": "SetVolumeInput", "type": "object",
     "$uses": ["JSONStructureValidation"],
     "properties": {"level": {"type": "int32", "minimum": 0, "maximum": 11}}}}
    ```

    ## References
    JSON Structure MCP binding §5.4 (extension activation) and §10 (silently unenforced
    constraints); binding §3.1 table (what each meta-schema activates).
    """
    if not _bound(slot):
        return
    yield from _activation_findings(slot, ctx, checks.check_activation(slot.schema))


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
    if not _bound(slot):
        return
    yield from _emit(slot, ctx, checks.check_wire_names(slot.schema))


@rule("JST112", "altnames-not-activated", severity=Severity.ERROR, scope="slot", requires="jstruct",
      fix="Add \"JSONStructureAlternateNames\" to $uses")
def altnames_not_activated(slot, ctx):
    """A bound slot uses `altnames` without activating the alternate-names add-in.

    ## What it does
    Reports `altnames`, `altenums`, `descriptions` and `altsymbols` when
    `JSONStructureAlternateNames` is neither in `$uses` nor active by default.

    ## Why is this bad?
    `altnames.json` sets the key a property travels under (§6). Unactivated, it must be
    ignored (§5.4): a client that honours the binding expects `maxResults` while the
    server reads `max-results`, and every call carrying the argument fails or drops it.

    ## Example
    ```json
    {"name": "list_items", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/list-items-input", "name": "ListItemsInput", "type": "object",
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## Use instead
    ```json
    {"name": "list_items", "inputSchema": {"$schema": "https://json-structure.org/meta/extended/v0/#",
     "$id": "https://tools.example.com/schemas/list-items-input", "name": "ListItemsInput", "type": "object",
     "$uses": ["JSONStructureAlternateNames"],
     "properties": {"maxResults": {"type": "int32", "altnames": {"json": "max-results"}}}}}
    ```

    ## References
    JSON Structure MCP binding §6 (a schema using altnames for wire names MUST activate
    JSONStructureAlternateNames) and §5.4.
    """
    if not _bound(slot):
        return
    yield from _activation_findings(slot, ctx, checks.check_altnames_activation(slot.schema))


@rule("JST113", "big-number-as-json-number", severity=Severity.ERROR, scope="slot", requires="jstruct",
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
    if not _bound(slot):
        return
    for p in checks.check_big_numbers(slot.schema):
        ptr = slot.pointer + p.pointer
        raw = checks._at(slot.schema, p.pointer)
        value = str(raw) if isinstance(raw, int) else format(raw, "f").rstrip("0").rstrip(".")
        yield ctx.finding(ptr, p.message, patch=({"op": "replace", "path": str(ptr), "value": value},))
