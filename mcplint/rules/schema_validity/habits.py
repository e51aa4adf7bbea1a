"""SCH104 and SCH105: habits carried over from elsewhere, OpenAPI 3.0 Schema Objects
(`nullable`, `example`, ...) and draft-3's boolean `required`. JSON Schema ignores or rejects them."""

from __future__ import annotations

from ...model import Pointer, Severity
from ...registry import rule
from .common import OPENAPI, slot_walk, show

# ------------------------------------------------------------------ SCH104

@rule("SCH104", "openapi-keyword", severity=Severity.WARNING, scope="slot",
      fix_safety="varies",
      fix_note=("moving `example` to `examples` and removing a `nullable` that has no effect are safe; turning "
                "`nullable: true` into a `type` array with \"null\" makes the schema accept null, so it is unsafe"),
      fix="Use the JSON Schema form: type [T, \"null\"] for nullable, examples [...] for example")
def openapi_keyword(slot, ctx):
    """A schema uses an OpenAPI 3.0 keyword that JSON Schema does not have.

    ## What it does
    Reports `nullable`, `example`, `discriminator`, `xml` and `externalDocs`, habits carried over
    from OpenAPI 3.0 Schema Objects. `nullable: true` is a warning (it changes nothing, so null is
    still rejected); the others are info. Where the fix is mechanical the finding carries a patch.

    ## Why is this bad?
    JSON Schema ignores these keywords. `"type": "string", "nullable": true` rejects `null`: a
    model that sends null for an optional argument gets a validation error the author did not
    intend. `example` is invisible to every JSON Schema tool (the keyword is `examples`, an array).

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"cursor": {"type": "string", "nullable": true}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"cursor": {"type": ["string", "null"]}}}}
    ```

    ## References
    OpenAPI 3.1.0 §4.8.24 (3.1 dropped `nullable` and `example` for JSON Schema 2020-12's
    `type` arrays and `examples`); JSON Schema 2020-12 Validation §9.5 (`examples`).
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    if OPENAPI.isdisjoint(walk.keys):
        return
    for ptr, node, _ in walk.nodes:
        if OPENAPI.isdisjoint(node):  # decided in C for the usual node
            continue
        for kw in OPENAPI:
            if kw not in node:
                continue
            at, value = ptr / kw, node[kw]
            if kw == "nullable":
                if value is not True:
                    yield ctx.finding(at, "`nullable` is an OpenAPI keyword that JSON Schema ignores; it has no "
                                          "effect here", fix="Remove `nullable`",
                                      patch=[{"op": "remove", "path": str(at)}], severity=Severity.INFO,
                                      safe=True)  # it had no effect
                    continue
                t = node.get("type")
                patch: list = []
                if isinstance(t, str) and t != "null":
                    patch = [{"op": "replace", "path": str(ptr / "type"), "value": [t, "null"]},
                             {"op": "remove", "path": str(at)}]
                elif isinstance(t, list) and "null" not in t:
                    patch = [{"op": "add", "path": str(ptr / "type" / "-"), "value": "null"},
                             {"op": "remove", "path": str(at)}]
                yield ctx.finding(at, "`nullable: true` is an OpenAPI 3.0 keyword that JSON Schema ignores: "
                                      "null is still rejected here; allow it with `\"type\": [..., \"null\"]`",
                                  fix="Add \"null\" to `type` and remove `nullable`", patch=patch,
                                  safe=False)  # the schema then accepts null
            elif kw == "example":
                patch = [] if "examples" in node else [
                    {"op": "move", "from": str(at), "path": str(ptr / "examples")},
                    {"op": "replace", "path": str(ptr / "examples"), "value": [value]}]
                yield ctx.finding(at, "`example` is an OpenAPI 3.0 keyword that JSON Schema tools ignore; "
                                      "JSON Schema's is `examples`, an array of values",
                                  fix="Replace `example: v` with `examples: [v]`", patch=patch,
                                  severity=Severity.INFO, safe=True)  # annotations only
            else:
                yield ctx.finding(at, f"`{kw}` is an OpenAPI keyword that JSON Schema ignores",
                                  fix=f"Remove `{kw}` (or rename it `x-{kw}`)", severity=Severity.INFO)


# ------------------------------------------------------------------ SCH105

@rule("SCH105", "required-boolean", severity=Severity.ERROR, scope="slot",
      fix_safety="varies",
      fix_note=("removing an invalid boolean `required` is safe; listing the property in the parent's `required` "
                "makes it required, so it is unsafe"),
      fix="List the property's name in the parent object's `required` array")
def required_boolean(slot, ctx):
    """`required: true` on a property schema: the draft-3 habit, invalid since draft-4.

    ## What it does
    Reports a `required` whose value is a boolean. Since JSON Schema draft-4 `required` is an
    array of property names on the object that holds `properties`; a boolean there is invalid
    in every dialect mcplint knows. The patch moves the name into the parent's `required` array.
    (SCH101 leaves this case to this rule so that it is reported once.)

    ## Why is this bad?
    Strict clients refuse to compile the schema. Lenient ones ignore the keyword, so the property
    the author meant to require is optional: a model may leave it out and the tool runs without it.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"query": {"type": "string", "required": true}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"query": {"type": "string"}}, "required": ["query"]}}
    ```

    ## References
    JSON Schema draft-4 Validation §5.4.3 (`required` became an array); JSON Schema 2020-12
    Validation §6.5.3.
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    if "required" not in walk.keys:
        return
    for ptr, node, sub in walk.nodes:
        value = node.get("required")
        if not isinstance(value, bool):
            continue
        at = ptr / "required"
        patch: list = [{"op": "remove", "path": str(at)}]
        owner_rel = sub.pointer[:-2] if sub.via == "properties" else None
        if value and owner_rel is not None:
            name = sub.pointer[-1]
            owner = Pointer(owner_rel).resolve_in(slot.schema)
            parent = slot.pointer + owner_rel
            if isinstance(owner.get("required"), list):
                if name not in owner["required"]:
                    patch.append({"op": "add", "path": str(parent / "required" / "-"), "value": name})
            elif "required" not in owner:
                patch.append({"op": "add", "path": str(parent / "required"), "value": [name]})
            else:
                patch = []
            yield ctx.finding(at, f"`required: true` on property {show(name)} is a draft-3 form that is invalid "
                                  f"since draft-4; list {show(name)} in the parent object's `required` array "
                                  "instead (as written, the property is not required)", patch=patch,
                              safe=len(patch) == 1)  # adding to `required` is not safe
        else:
            yield ctx.finding(at, f"`required` must be an array of property names, not {show(value)} "
                                  "(a draft-3 form, invalid since draft-4)",
                              fix="Remove it, or list property names in the object's `required` array",
                              patch=patch if not value else [], safe=True)
