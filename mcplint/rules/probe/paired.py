"""PRB: the JSON Structure binding, seen from both clients (binding §4, §4.1): the listing a
client advertising the binding gets, compared with the one a client without it gets."""

from __future__ import annotations

from ...model import Severity
from ...registry import rule
from ...probe.transcript import JSTRUCT_SITE, good_page, page_message, page_tools
from .common import SCHEMA_BINDING, SLOTS, clip, is_jstruct_schema, transcript_of

# Under 2026-07-28 the probe lists tools as a client without the binding and, when it can
# matter, again as one advertising it (``pairedPass``); mcplint.probe.transcript.


def _advertised_by_client(t: dict) -> bool:
    return SCHEMA_BINDING in (t.get("clientExtensions") or [])


def _paired(t: dict) -> dict | None:
    """The other listing, when it succeeded (a failed one is PRB106's on its own document)."""
    p = t.get("pairedPass")
    if not isinstance(p, dict) or not any(good_page(page_message(pg)) for pg in p.get("pages") or []):
        return None
    return p


def _tools_by_name(listing: dict) -> dict:
    out: dict = {}
    for _, _, tool in page_tools(listing):
        if isinstance(tool, dict) and isinstance(tool.get("name"), str):
            out.setdefault(tool["name"], tool)
    return out


def _existing(value, steps: tuple) -> tuple:
    """The longest prefix of ``steps`` that exists in ``value``."""
    out = []
    for step in steps:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            break
        out.append(step)
    return tuple(out)


@rule("PRB115", "bound-slot-not-jstruct", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="Put the JSON Structure schema itself in the slot, with a $schema from binding §3.1 "
          "(e.g. https://json-structure.org/meta/core/v0/#)")
def bound_slot_not_jstruct(collection, ctx):
    """A slot changed for a client advertising the binding is not a recognised JSON Structure schema.

    ## What it does
    Compares what the server sent a client that advertised
    `org.json-structure/schema-binding` with what it sent one that did not. A slot that
    differs between the two (so the server bound it) must be the JSON Structure schema
    document itself with a recognised `$schema`. This rule reports a bound slot whose
    `$schema` is a json-structure.org URI mcplint does not recognise, or that uses JSON
    Structure constructs with no (or a non-string) `$schema`.

    ## Why is this bad?
    `$schema` alone selects the dialect. A client that meets an unrecognised meta-schema
    URI must not read the slot as JSON Schema, so the tool is unusable to exactly the
    clients that opted in; without `$schema` the slot is read as JSON Schema 2020-12 and
    JSON Structure types such as `double` or `int64` silently mean nothing.

    ## Example
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "convert", "inputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v1/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "convert", "inputSchema": {"type": "object", "properties": {"celsius": {"type": "number"}}}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4: where the client has advertised the identifier, the slot
    holds the JSON Structure schema document itself and its `$schema` selects the dialect;
    §3.1: a bound slot MUST carry `$schema` explicitly; §3.2: an unrecognised dialect is not
    read as JSON Schema.
    """
    t = transcript_of(collection, ctx)
    if not t or not _advertised_by_client(t):
        return
    paired = _paired(t)
    if paired is None:
        return
    from ...jstruct import is_jstruct
    from ...jstruct.schema import jstruct_signals

    others = _tools_by_name(paired)
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict) or tool.get("name") not in others:
            continue
        for slot in SLOTS:
            s, fallback = tool.get(slot), others[tool["name"]].get(slot)
            if not isinstance(s, dict) or is_jstruct(s) or s == fallback:
                continue
            uri = s.get("$schema")
            if isinstance(uri, str) and uri.startswith(JSTRUCT_SITE):
                yield ctx.finding(collection.container + ("tools", i, slot, "$schema"),
                                  f"{slot} was changed for the client that advertised {SCHEMA_BINDING}, but "
                                  f"{clip(uri, 60)!r} is not a recognised JSON Structure meta-schema: that client "
                                  "must not read it as JSON Schema either, so the tool is unusable to it")
            elif not isinstance(uri, str) and jstruct_signals(s, max_nodes=2000, max_depth=64):
                where = collection.container + (("tools", i, slot, "$schema") if "$schema" in s else ("tools", i, slot))
                yield ctx.finding(where,
                                  f"{slot} was changed for the client that advertised {SCHEMA_BINDING} and uses "
                                  "JSON Structure constructs, but carries no $schema string: it is read as JSON "
                                  "Schema 2020-12, where those constructs mean nothing")


@rule("PRB116", "invalid-jstruct-fallback", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="Serve clients without the extension a JSON Schema 2020-12 projection that accepts every instance the "
          "JSON Structure schema accepts (`mcplint project --to json-schema` writes one)")
def invalid_jstruct_fallback(collection, ctx):
    """The JSON Schema fallback does not stand in for the JSON Structure schema.

    ## What it does
    For each slot the server sent as JSON Structure to a client advertising
    `org.json-structure/schema-binding`, takes the slot it sent to a client that did not
    advertise it (the fallback) and checks it with `mcplint.jstruct.check_fallback`: the
    fallback must be JSON Schema 2020-12 (`$schema` absent or the 2020-12 URI), valid, and
    must accept every instance the JSON Structure schema accepts, tried with a few hundred
    instances generated from the JSON Structure schema (seeded: the same every run). A
    missing fallback slot is reported too. Findings point into the fallback capture.

    ## Why is this bad?
    Clients without the extension validate (and constrained decoders generate) arguments
    against the fallback. A fallback stricter than the real schema makes the model unable
    to produce arguments the tool accepts: an `int64` ID projected as `integer` when it
    travels as a string, a `double` projected as `integer`, a missing optional property
    made required. A fallback in another dialect may not be read at all.

    ## Example
    ```json
    {"clientExtensions": [],
     "pairedPass": {"clientExtensions": ["org.json-structure/schema-binding"], "pages": [{"message": {
       "jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}, "required": ["celsius"]}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "type": "object", "properties": {"celsius": {"type": "integer"}}, "required": ["celsius"]}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": [],
     "pairedPass": {"clientExtensions": ["org.json-structure/schema-binding"], "pages": [{"message": {
       "jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "convert", "inputSchema": {
       "$schema": "https://json-structure.org/meta/core/v0/#", "$id": "https://t.example/c", "name": "ConvertInput",
       "type": "object", "properties": {"celsius": {"type": "double"}}, "required": ["celsius"]}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "convert", "inputSchema": {
       "type": "object", "properties": {"celsius": {"type": "number"}}, "required": ["celsius"]}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4.1: for a client that has not advertised the identifier the
    server MUST place in the slot a JSON Schema 2020-12 projection of the JSON Structure
    schema, and the projection MUST accept every instance the JSON Structure schema accepts.
    """
    t = transcript_of(collection, ctx)
    if not t or _advertised_by_client(t):
        return
    paired = _paired(t)
    if paired is None or not _advertised_by_client(paired):
        return
    from ...jstruct import check_fallback, is_jstruct
    from ...jsonvalue import depth_of

    bound = _tools_by_name(paired)
    for i, _, tool in page_tools(t):
        if not isinstance(tool, dict) or tool.get("name") not in bound:
            continue
        for slot in SLOTS:
            js = bound[tool["name"]].get(slot)
            if not is_jstruct(js):
                continue
            if slot not in tool:
                yield ctx.finding(collection.container + ("tools", i, "name"),
                                  f"tool {tool['name']!r} has a JSON Structure {slot} for clients with "
                                  f"{SCHEMA_BINDING} and none at all for the others: they get no fallback")
                continue
            fallback = tool[slot]
            if is_jstruct_schema(fallback):
                continue  # JSON Structure to this client: PRB109
            if depth_of(js) > ctx.bounds.max_depth or depth_of(fallback) > ctx.bounds.max_depth:
                continue  # too deep to check safely; the SEC rules report the depth
            # One finding per place in the fallback, with the first counterexample found there.
            groups: dict = {}
            try:
                problems = check_fallback(js, fallback)
            except RecursionError:
                problems = []
            for p in problems:
                groups.setdefault((_existing(fallback, tuple(p.path)), p.keyword), []).append(p)
            harm = "refuse arguments the tool accepts" if slot == "inputSchema" else \
                "reject results the tool returns"
            for (rel, _), ps in groups.items():
                more = f" (and {len(ps) - 1} more such instance{'s' * (len(ps) > 2)})" if len(ps) > 1 else ""
                yield ctx.finding(collection.container + (("tools", i, slot) + rel),
                                  f"the JSON Schema fallback {slot} served to clients without {SCHEMA_BINDING} "
                                  f"is wrong: {ps[0].message}{more}; those clients will {harm}")


@rule("PRB117", "tools-vary-with-binding", severity=Severity.ERROR, scope="document", per_version=True,
      versions=("2026-07-28",),
      fix="List the same tools whether or not the client advertises org.json-structure/schema-binding; "
          "only the schema slots may differ")
def tools_vary_with_binding(collection, ctx):
    """A tool is listed for a client with the JSON Structure binding and not for one without (or the reverse).

    ## What it does
    Compares the tool names the server listed to a client advertising
    `org.json-structure/schema-binding` and to one that did not, and reports each tool
    listed to only one of them, at its name in the capture that has it.

    ## Why is this bad?
    The binding changes how schemas are written, not which tools exist. A tool offered
    only with the extension leaves every other client without it, though the binding
    requires the server to remain usable to them through the JSON Schema fallback; a tool
    offered only without it is lost by the clients that opted in. Usually a tool whose
    projection failed, or whose JSON Structure schema could not be loaded, was dropped.

    ## Example
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## Use instead
    ```json
    {"clientExtensions": ["org.json-structure/schema-binding"],
     "pairedPass": {"clientExtensions": [], "pages": [{"message": {"jsonrpc": "2.0", "id": 2, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]},
     "pages": [{"message": {"jsonrpc": "2.0", "id": 3, "result": {"tools": [
       {"name": "search", "inputSchema": {"type": "object"}}, {"name": "convert", "inputSchema": {"type": "object"}}]}}}]}
    ```

    ## References
    JSON Structure MCP binding §4.1: a server MUST remain usable by a client that has not
    advertised the identifier; the binding is opt-in per schema slot and introduces no new
    methods (§1). Issue "JSON Structure MCP binding" §4: the probe plays both clients.
    """
    t = transcript_of(collection, ctx)
    if not t:
        return
    paired = _paired(t)
    if paired is None:
        return
    names = set(_tools_by_name(paired))
    mine = "advertised" if _advertised_by_client(t) else "did not advertise"
    theirs = "did not advertise" if _advertised_by_client(t) else "advertised"
    for i, _, tool in page_tools(t):
        name = tool.get("name") if isinstance(tool, dict) else None
        if isinstance(name, str) and name not in names:
            yield ctx.finding(collection.container + ("tools", i, "name"),
                              f"tool {name!r} is listed to a client that {mine} {SCHEMA_BINDING}, but not to one "
                              f"that {theirs} it: the tools a client gets must not depend on the extension")
