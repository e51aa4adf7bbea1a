"""MCP: is a schema slot's root an object (MCP106, MCP107, MCP109)?

``inputSchema`` (every version) and ``outputSchema`` (2025-06-18 and 2025-11-25) must be
JSON Schema objects whose root is ``"type": "object"``; :func:`root_route` says how a root
gets there (inline, a ``type`` array, only through ``$ref``/``allOf``, or not at all).
"""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from .common import V2025_06, V2025_11, V2026


def _types(schema: dict):
    """The root's declared types as a tuple, or None when ``type`` is absent or malformed."""
    t = schema.get("type")
    if isinstance(t, str):
        return (t,)
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return tuple(t)
    return None


def root_route(schema) -> str:
    """How the root of a schema slot reaches ``type: "object"``.

    ``inline``: ``type`` is exactly ``"object"``. ``list``: a ``type`` array that includes
    ``"object"``. ``indirect``: no ``type``, but the root reaches an object only through
    ``$ref``/``allOf`` (or ``anyOf``/``oneOf`` branches that all do, or an external ``$ref``
    that cannot be checked). ``excludes``: a declared ``type`` without ``"object"``.
    ``none``: nothing makes the root an object.
    """
    if not isinstance(schema, dict):
        return "none"
    types = _types(schema)
    if types is not None:
        if types == ("object",):
            return "inline"
        return "list" if "object" in types else "excludes"
    return "indirect" if _reaches_object(schema) else "none"


def _reaches_object(schema: dict, limit: int = 64) -> bool:
    """Does a type-less root reach ``type: object`` through ``$ref``/``allOf``/all branches of
    ``anyOf``/``oneOf``? Bounded by ``limit`` visited nodes and 16 steps deep; never retrieves
    anything."""
    return _via(schema, 0, {"schema": schema, "idx": None, "seen": 0, "limit": limit})


def _via(node: dict, depth: int, state: dict) -> bool:
    # a module-level function with explicit state, not a recursive closure: a closure that
    # calls itself is a reference cycle, and the engine runs without the cycle collector
    state["seen"] += 1
    if state["seen"] > state["limit"] or depth > 16:
        return False
    types = _types(node)
    if types is not None:
        return "object" in types
    if "$ref" in node:
        from ...refs import index, is_local, resolve

        schema = state["schema"]
        if state["idx"] is None:
            state["idx"] = index(schema)
        idx = state["idx"]
        ref = next((r for r in idx.refs if r.value == node["$ref"]), None)
        if ref is not None and not is_local(ref, idx):
            return True  # external: cannot be checked here; give it the benefit of the doubt
        target = resolve(ref, idx, schema) if ref is not None else None
        if target is not None and isinstance(target[1], dict) and target[1] is not node \
                and _via(target[1], depth + 1, state):
            return True
    all_of = node.get("allOf")
    if isinstance(all_of, list) and any(isinstance(s, dict) and _via(s, depth + 1, state) for s in all_of):
        return True
    for kw in ("anyOf", "oneOf"):
        branches = node.get(kw)
        if isinstance(branches, list) and branches and all(
                isinstance(s, dict) and _via(s, depth + 1, state) for s in branches):
            return True
    return False


@rule("MCP106", "input-schema-not-object-root", severity=Severity.ERROR, scope="slot",
      fix_safety="varies",
      fix_note=("adding `\"type\": \"object\"` to a root that has no type is safe (arguments are objects anyway); "
                "replacing a type that excludes object is unsafe"),
      fix='Declare "type": "object" at the root of inputSchema')
def input_schema_not_object_root(slot, ctx):
    """The root of `inputSchema` is not `type: "object"`.

    ## What it does
    Reports an `inputSchema` whose root declares a `type` that excludes `"object"`
    (e.g. `"string"`, `["array", "null"]`), or has no `type` and nothing else (no
    `$ref`/`allOf`) that makes it an object, including the empty schema `{}`.

    ## Why is this bad?
    Tool arguments are always a JSON object, and every MCP version requires
    `type: "object"` at the root of `inputSchema`. SDKs and clients reject such a tool
    or fail when they build the call; a model given a non-object schema cannot produce
    valid arguments.

    ## Example
    ```json
    {"name": "get_time", "inputSchema": {}}
    ```

    ## Use instead
    ```json
    {"name": "get_time", "inputSchema": {"type": "object", "additionalProperties": false}}
    ```

    ## References
    MCP schema.ts `Tool.inputSchema` (`type: "object"` required in every version);
    MCP Description validation guide, "Embedded schemas": a root whose declared type excludes "object" is rejected;
    SEP-2106: inputSchema keeps `type: "object"`.
    """
    if slot.kind != "inputSchema" or not isinstance(slot.schema, dict):
        return
    route = root_route(slot.schema)
    if route == "excludes":
        yield ctx.finding(slot.pointer / "type", f"inputSchema root has type {slot.schema['type']!r}, which excludes "
                                                 "\"object\"; tool arguments are always a JSON object, so clients "
                                                 "reject this tool",
                          patch=[{"op": "replace", "path": str(slot.pointer / "type"), "value": "object"}],
                          safe=False)  # drops the type that was declared
    elif route == "none":
        extra = " (an empty schema is not a zero-argument form: use {\"type\": \"object\", " \
                "\"additionalProperties\": false})" if not slot.schema else ""
        yield ctx.finding(slot.pointer, "inputSchema has no \"type\": \"object\" at its root and nothing there makes "
                                        f"it an object; every MCP version requires it{extra}",
                          patch=[{"op": "add", "path": str(slot.pointer / "type"), "value": "object"}],
                          safe=True)  # arguments are objects anyway


@rule("MCP107", "indirect-object-root", severity=Severity.WARNING, scope="slot", per_version=True,
      fix_safety="varies",
      fix_note=("adding `\"type\": \"object\"` beside `$ref`/`allOf` is safe; replacing a `type` array narrows what the "
                "schema accepts, so it is unsafe"),
      fix='Write "type": "object" inline at the schema root, next to the $ref/allOf')
def indirect_object_root(slot, ctx):
    """A schema root is an object only through `$ref`/`allOf`, or through a `type` array.

    ## What it does
    Reports an `inputSchema` (and, before 2026-07-28, an `outputSchema`) whose root does
    not say `"type": "object"` itself but reaches an object only through `$ref`,
    `allOf` (or `anyOf`/`oneOf` branches that all are objects), or declares a `type`
    array such as `["object", "null"]`. From 2025-11-25 it is a warning; before
    2025-11-25 it is an error, because the legacy wire shape requires the literal
    `type: "object"`.

    ## Why is this bad?
    The MCP wire type is `{type: "object", ...}`. From 2025-11-25 the root is read as a
    JSON Schema of its dialect, so an object reached through `$ref` is accepted, but
    native projection to the MCP type fails and SDKs that look for the literal
    `type: "object"` break (FastMCP issue #2455: `$ref` roots without `type: object`
    broke every tool of a server). Before 2025-11-25 the shape is simply invalid.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"$ref": "#/$defs/Args",
     "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "$ref": "#/$defs/Args",
     "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    ```

    ## References
    MCP Description validation guide, "Embedded schemas": from 2025-11-25, a root in `$ref` or `allOf` is accepted with a
    warning (rule `mcp.tool.input-schema.object-root`); before that the legacy shape rules apply
    (MCP Description validator code `invalid-legacy-tool-schema-shape`, an error); SEP-2106
    motivation (FastMCP issue #2455).
    """
    if not isinstance(slot.schema, dict):
        return
    v = ctx.version
    if slot.kind == "outputSchema" and v >= V2026:
        return
    route = root_route(slot.schema)
    if route not in ("list", "indirect"):
        return
    what = f"declares type {slot.schema.get('type')!r} instead of \"object\"" if route == "list" \
        else "has no \"type\" and is an object only through $ref/allOf"
    target = slot.pointer / "type" if route == "list" else slot.pointer
    op = "replace" if route == "list" else "add"
    patch = [{"op": op, "path": str(slot.pointer / "type"), "value": "object"}]
    safe = op == "add"  # beside $ref/allOf: the same objects; replacing a type array narrows it
    if v >= V2025_11:
        yield ctx.finding(target, f"{slot.kind} root {what}; the JSON Schema is accepted, but the MCP Tool type "
                                  "needs the literal \"type\": \"object\" and SDKs that look for it fail", patch=patch,
                          safe=safe)
    else:
        yield ctx.finding(target, f"{slot.kind} root {what}; before 2025-11-25 the MCP shape requires the literal "
                                  "\"type\": \"object\", so this schema is invalid", patch=patch, safe=safe,
                          severity=Severity.ERROR)


@rule("MCP109", "output-schema-not-object-root", severity=Severity.ERROR, scope="slot",
      fix_safety="safe", fix_note="structured results are JSON objects before 2026-07-28 anyway",
      versions=frozenset({V2025_06, V2025_11}), fix='Make the outputSchema root "type": "object" (wrap an array or '
                                                     'primitive result in an object member)')
def output_schema_not_object_root(slot, ctx):
    """The root of `outputSchema` is not an object before 2026-07-28.

    ## What it does
    For 2025-06-18 and 2025-11-25, reports an `outputSchema` whose root declares a type
    that excludes `"object"` (an array, a string, ...) or has no type at all and nothing
    that makes it an object.

    ## Why is this bad?
    Before 2026-07-28 `structuredContent` is a JSON object and `outputSchema` must have
    `type: "object"` at its root ("currently restricted to type: object at the root
    level"). A client of those versions rejects the tool or cannot validate its
    structured results. 2026-07-28 (SEP-2106) allows any JSON Schema root.

    ## Example
    ```json
    {"name": "list_users", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "array", "items": {"type": "string"}}}
    ```

    ## Use instead
    ```json
    {"name": "list_users", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "object", "properties": {"users": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    MCP schema.ts 2025-06-18/2025-11-25 `Tool.outputSchema` (`type: "object"`); MCP Description
    validation guide, "Embedded schemas" and its lookup example; SEP-2106: outputSchema unrestricted from 2026-07-28.
    """
    if slot.kind != "outputSchema" or not isinstance(slot.schema, dict):
        return
    route = root_route(slot.schema)
    if route == "excludes":
        yield ctx.finding(slot.pointer / "type", f"outputSchema root has type {slot.schema['type']!r}; before "
                                                 "2026-07-28 structured results are JSON objects and outputSchema "
                                                 "must be \"type\": \"object\"")
    elif route == "none":
        yield ctx.finding(slot.pointer, "outputSchema has no \"type\": \"object\" at its root; before 2026-07-28 "
                                        "MCP requires an object root for structured results",
                          patch=[{"op": "add", "path": str(slot.pointer / "type"), "value": "object"}])
