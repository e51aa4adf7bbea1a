"""SEC101-SEC104: references that point outside the slot, that resolve to nothing, that loop
without consuming input, and that make the schema recursive."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import slot_refs

def _ref_text(r) -> str:
    return f"{r.keyword} {r.value!r}"


@rule("SEC101", "external-ref", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Copy the referenced schema into $defs and point at it with a same-document reference such as "
          "\"#/$defs/Name\"")
def external_ref(slot, ctx):
    """A `$ref` or `$dynamicRef` points outside the schema.

    ## What it does
    Reports every reference keyword (`$ref`, `$dynamicRef`, `$recursiveRef`) whose target
    is not inside the same schema slot: a network URL, a file name such as `common.json`,
    or a URI that matches no identifier declared inside the slot. Identifiers are read as
    the slot's dialect defines them: `$id` (draft-06 on), `id` (draft-04), the root's own
    identifier (so `"$ref": "s.json#/definitions/x"` under `"$id": ".../s.json"` is the
    same document), and in draft-04 to draft-07 a `$ref` makes its sibling `id`/`$id`
    ignored. A reference to a JSON Schema meta-schema (`http://json-schema.org/draft-07/schema#`,
    `https://json-schema.org/draft/2020-12/schema`...) is resolved from the copy bundled with
    the `jsonschema` package, as validators do, and is not reported. The reference is never
    fetched: mcplint opens no connection and reads no file while linting.

    ## Why is this bad?
    Tool schemas arrive during discovery, before the client has decided to trust the
    server. SEP-2106 says implementations MUST NOT dereference a `$ref` that is not a
    same-document pointer or internal anchor, and that a schema which fails because an
    external `$ref` is unresolved SHOULD be rejected, not treated as permissive. So the
    reference either makes clients reject the tool or, in lax validators, silently
    accept anything in its place. A client that did fetch it would turn `tools/list`
    into a request-forgery primitive (binding §10).

    ## Example
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "https://schemas.example.com/address.json"}}}}
    ```

    ## Use instead
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/address"}},
     "$defs": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "JSON Schema Usage" ($ref resolution; SEP-2106 security
    implications); JSON Structure MCP binding §5.3 (self-containment) and §10 (retrieval
    during discovery).
    """
    info = slot_refs(slot, ctx)
    if info is None:
        return
    for r in info.external:
        yield ctx.finding(slot.pointer + r.pointer,
                          f"{_ref_text(r)} points outside this schema; it was not fetched (nothing a tool "
                          "schema points to is ever retrieved: SEP-2106 forbids dereferencing non-local "
                          "references), so clients must reject the schema or lose the constraint")


@rule("SEC102", "unresolved-ref", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Point the reference at a subschema that exists in this schema, or add the missing $defs entry or "
          "$anchor")
def unresolved_ref(slot, ctx):
    """A same-document reference points at nothing.

    ## What it does
    Reports a local `$ref`/`$dynamicRef` whose JSON Pointer designates no value in the
    schema, whose plain name (`#name`) nothing declares, that designates a value which is
    not a schema (an array, a string...), or whose value is not a string at all. Plain
    names are declared as the dialect says: `$anchor`/`$dynamicAnchor` in 2019-09 and
    2020-12, `"$id": "#name"` in draft-06/07, `"id": "#name"` in draft-04. A pointer into
    a bundled JSON Schema meta-schema that designates nothing there is reported too.

    ## Why is this bad?
    A validator cannot compile the schema: most refuse it outright, and SEP-2106 asks
    that a schema failing on an unresolved reference be rejected rather than read as
    permissive. Either way the tool is unusable or unchecked.

    ## Example
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/adress"}},
     "$defs": {"address": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/address"}},
     "$defs": {"address": {"type": "string"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §8.2.3 (schema references) and §9.4.2 (references to
    possible non-schemas); draft-07 Core §8.2.3 and draft-04 Core §7.2 (location-independent
    identifiers); MCP 2026-07-28 basic/index ($ref resolution, SEP-2106).
    """
    info = slot_refs(slot, ctx)
    if info is None:
        return
    for r, why in info.broken:
        yield ctx.finding(slot.pointer + r.pointer, f"{_ref_text(r)} cannot be resolved: {why}")


@rule("SEC103", "ref-loop", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Give the loop a real schema to land on, or remove the reference that closes it")
def ref_loop(slot, ctx):
    """References go round in a loop without ever reaching a schema that consumes input.

    ## What it does
    Reports references that close a cycle in which every step applies to the same
    value: `$ref` to `$ref` (`a -> b -> a`), a `$ref` to itself, or a `$ref` back to an
    ancestor reached only through `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`.
    One finding per loop, at its first reference, naming the others. (A cycle that
    passes through `properties`, `items` and the like is recursion, see SEC104.)

    ## Why is this bad?
    Resolving the loop never terminates: validators either refuse the schema, overflow
    their stack, or hang. JSON Schema 2020-12 §9.4.1 says a schema MUST NOT be run into
    an infinite loop against an instance and leaves the behaviour undefined; binding
    §10 requires implementations to detect reference cycles rather than recurse on them.

    ## Example
    ```json
    {"name": "loop", "inputSchema": {"type": "object",
     "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}}
    ```

    ## Use instead
    ```json
    {"name": "loop", "inputSchema": {"type": "object",
     "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §9.4.1 (guarding against infinite recursion); JSON
    Structure MCP binding §10 (detect reference cycles).
    """
    info = slot_refs(slot, ctx)
    if info is None:
        return
    for comp in info.cycles(in_place_only=True):
        first = comp[0][1]
        chain = " -> ".join(repr(r.value) for _, r in comp[:5]) + (" -> ..." if len(comp) > 5 else "")
        yield ctx.finding(slot.pointer + first.pointer,
                          f"{_ref_text(first)} starts a reference loop that never reaches a schema that "
                          f"consumes input ({chain}, and round again); no validator can resolve it")


@rule("SEC104", "recursive-ref", severity=Severity.INFO, scope="slot",
      requires="ref",
      fix="Nothing to fix for JSON Schema validators; for decoders that cannot recurse, bound the depth by "
          "unrolling a few levels")
def recursive_ref(slot, ctx):
    """A schema refers back to itself through properties or items (recursion).

    ## What it does
    Reports, once per recursive structure, a reference that leads back to an enclosing
    schema through a keyword that descends into the value (`properties`, `items`,
    `additionalProperties`...), such as a tree node whose `children` items are nodes.

    ## Why is this bad?
    It is not: recursion is valid JSON Schema and terminates because each step consumes
    a level of the value. It is reported for awareness, because tools that inline
    references (some clients, constrained decoders) cannot represent it, and a
    validator's work now grows with the depth of the value.

    ## Example
    ```json
    {"name": "tree", "inputSchema": {"type": "object",
     "properties": {"root": {"$ref": "#/$defs/node"}},
     "$defs": {"node": {"type": "object", "properties": {"label": {"type": "string"},
       "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "tree", "inputSchema": {"type": "object",
     "properties": {"root": {"$ref": "#/$defs/node"}},
     "$defs": {"node": {"type": "object", "properties": {"label": {"type": "string"},
       "children": {"type": "array", "items": {"type": "string"}}}}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §8.2.3.1 (recursive references are allowed) and §9.4.1;
    JSON Structure MCP binding §10 (reference cycles must be detected, not recursed on).
    """
    info = slot_refs(slot, ctx)
    if info is None:
        return
    loops = {id(r) for comp in info.cycles(in_place_only=True) for _, r in comp}
    for comp in info.cycles(in_place_only=False):
        if any(id(r) in loops for _, r in comp):
            continue  # reported as a loop
        first = comp[0][1]
        yield ctx.finding(slot.pointer + first.pointer,
                          f"{_ref_text(first)} makes this schema recursive (it leads back to an enclosing "
                          "schema); valid JSON Schema, but consumers that inline references cannot expand it")
