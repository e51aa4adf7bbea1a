"""SEC105-SEC109: resource bounds (`bounds.*` in the configuration): nesting depth, subschema
count, enum size, serialized size, and the substitutions inlining the references would take."""

from __future__ import annotations

import json

from ...model import Severity
from ...registry import rule
from ...schemawalk import UNSHARED, Walks
from .common import bound_message, slot_refs, shared_analysis

@rule("SEC105", "excessive-depth", severity=Severity.ERROR, scope="slot",
      fix="Flatten the schema: move repeated structure into $defs, or raise bounds.max-depth if it is genuine")
def excessive_depth(slot, ctx):
    """Subschemas nest deeper than the configured bound.

    ## What it does
    Counts applicator steps (`properties`, `items`, `allOf`...) from the slot's root and
    reports the first subschema, in document order, that lies deeper than
    `bounds.max-depth`.

    ## Why is this bad?
    SEP-2106 asks implementations to bound schema depth, and binding §10 requires it:
    clients that do will reject the tool, and those that do not may exhaust their stack.
    Real tool schemas are shallow; extreme nesting is a mistake or an attack.

    ## Example
    <!-- settings: {"bounds": {"max-depth": 2}} -->
    ```json
    {"name": "deep", "inputSchema": {"type": "object", "properties": {"a": {"type": "object",
     "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "deep", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106: SHOULD bound
    depth); JSON Structure MCP binding §10 (MUST bound nesting depth).
    """
    a = shared_analysis(slot, ctx)
    if a.too_deep is not None:
        b = ctx.bounds.max_depth
        yield ctx.finding(slot.pointer + a.too_deep,
                          bound_message("this subschema is nested", f"{b + 1}+ levels deep", b, "max-depth",
                                     "clients that bound depth reject the schema, others may exhaust their stack"))


@rule("SEC106", "excessive-subschemas", severity=Severity.ERROR, scope="slot",
      fix="Share repeated structure through $defs and $ref, split the tool, or raise bounds.max-subschemas")
def excessive_subschemas(slot, ctx):
    """The slot holds more subschemas than the configured bound.

    ## What it does
    Counts every subschema of the slot (the root included) and reports the slot when the
    count passes `bounds.max-subschemas`. Counting stops at the bound, and the other
    checks of this family stand down for that slot, so a huge schema costs little.

    ## Why is this bad?
    Validation and compilation cost grows with the number of subschemas. SEP-2106 asks
    implementations to bound total subschemas to keep a tool definition from acting as
    a CPU denial-of-service vector; clients that do will reject the tool.

    ## Example
    <!-- settings: {"bounds": {"max-subschemas": 3}} -->
    ```json
    {"name": "wide", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"},
     "b": {"type": "string"}, "c": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "wide", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106: SHOULD bound
    total subschema count); JSON Structure MCP binding §10 (MUST bound schema size).
    """
    a = shared_analysis(slot, ctx)
    if a.truncated:
        b = ctx.bounds.max_subschemas
        yield ctx.finding(slot.pointer,
                          bound_message("this schema has", f"more than {b} subschemas", b, "max-subschemas",
                                     "clients that bound schema cost reject it; the other safety checks "
                                     "stopped here"))


@rule("SEC107", "excessive-enum", severity=Severity.ERROR, scope="slot",
      fix="Accept a pattern or a free string and validate membership in the tool, or raise bounds.max-enum")
def excessive_enum(slot, ctx):
    """An `enum` lists more values than the configured bound.

    ## What it does
    Reports each `enum` whose number of values passes `bounds.max-enum`.

    ## Why is this bad?
    Binding §10 requires implementations to bound enum cardinality: a client that does
    rejects the tool, and one that does not spends memory and model context on every
    value (enums are often copied verbatim into the prompt or a decoding grammar).

    ## Example
    <!-- settings: {"bounds": {"max-enum": 3}} -->
    ```json
    {"name": "pick", "inputSchema": {"type": "object", "properties": {"c": {"enum": ["r", "g", "b", "a"]}}}}
    ```

    ## Use instead
    ```json
    {"name": "pick", "inputSchema": {"type": "object", "properties": {"c": {"enum": ["r", "g", "b"]}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound enum cardinality).
    """
    a = shared_analysis(slot, ctx)
    b = ctx.bounds.max_enum
    for ptr, n in a.enums:
        if n > b:
            yield ctx.finding(slot.pointer + ptr,
                              bound_message("this enum lists", f"{n} values", b, "max-enum",
                                         "clients that bound enum size reject the schema"))


def _schema_bytes(schema, limit: int) -> int:
    """Compact JSON size in UTF-8 bytes (exact below ``limit``; may stop early above it)."""
    try:
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    except (RecursionError, ValueError):
        return _size_iteratively(schema, limit)
    n = len(text)
    return n if n * 4 <= limit else len(text.encode("utf-8", "surrogatepass"))


# Compact JSON is never more than 6 times the size of marshal's version-2 encoding of the same
# value (a string costs marshal 5 + its UTF-8 bytes and JSON at most 2 + 6 per byte, \u001f being
# the longest escape; a literal 1 byte against at most 5; a number 5 or 9 bytes against at most
# 11 or 24 characters; each container entry 1 byte or more against a comma and, in objects, a
# colon), and marshal measures 3 times faster: a schema under a sixth of the bound needs no JSON.
_JSON_PER_MARSHAL_BYTE = 6


def _surely_within(schema, limit: int, walks: Walks = UNSHARED) -> bool:
    """True when the compact JSON of ``schema`` certainly fits in ``limit`` bytes (``walks``:
    the rule's, where the schema's encoding may already be)."""
    blob = walks.encoded(schema)
    # None: too deep, or not plain data: measured exactly instead
    return blob is not None and len(blob) * _JSON_PER_MARSHAL_BYTE <= limit


SMALL_KEY = "safety.small-json"  # ctx.memo.collection: (document, limit, verdict of _small_json)


def _small_json_once(doc, limit: int, ctx) -> bool:
    """:func:`_small_json`, worked out once for every slot of the collection."""
    kept = ctx.memo.collection.get(SMALL_KEY)
    if kept is None or kept[0] is not doc or kept[1] != limit:
        kept = ctx.memo.collection[SMALL_KEY] = (doc, limit, _small_json(doc, limit))
    return kept[2]


def _small_json(doc, limit: int) -> bool:
    """True when no slot of this JSON document can serialize to more than ``limit`` bytes.

    Compact re-serialization never grows a parsed JSON text except where a number is
    re-spelled (``1e15`` becomes ``1000000000000000.0``: at most 4.5 times longer), so a
    source of at most ``limit / 5`` bytes needs no measuring. YAML is always measured
    (aliases can expand)."""
    text = doc.source.text
    return doc.source.fmt == "json" and (len(text) * 4 * 5 <= limit or
                                        len(text.encode("utf-8", "surrogatepass")) * 5 <= limit)


def _size_iteratively(value, limit: int) -> int:
    total = 0
    stack = [value]
    while stack and total <= limit:
        v = stack.pop()
        if isinstance(v, dict):
            total += 2 + max(0, len(v) - 1)
            for k, x in v.items():
                total += len(str(k).encode("utf-8", "surrogatepass")) + 3
                stack.append(x)
        elif isinstance(v, list):
            total += 2 + max(0, len(v) - 1)
            stack.extend(v)
        elif isinstance(v, str):
            total += len(v.encode("utf-8", "surrogatepass")) + 2
        else:
            total += len(json.dumps(v))
    return total


@rule("SEC108", "excessive-schema-size", severity=Severity.ERROR, scope="slot",
      fix="Shrink the schema (share structure through $defs, shorten descriptions) or raise "
          "bounds.max-schema-bytes")
def excessive_schema_size(slot, ctx):
    """The schema's serialized size passes the configured bound.

    ## What it does
    Measures the slot as compact JSON (UTF-8 bytes, no whitespace) and reports it when it
    passes `bounds.max-schema-bytes`.

    ## Why is this bad?
    Binding §10 requires implementations to bound schema size, and every client sends
    the schema to the model: an oversized schema is rejected by careful clients and
    costs context and latency in all the others.

    ## Example
    <!-- settings: {"bounds": {"max-schema-bytes": 60}} -->
    ```json
    {"name": "big", "inputSchema": {"type": "object", "properties": {"a": {"type": "string",
     "description": "a long description that pushes the schema over a small bound"}}}}
    ```

    ## Use instead
    ```json
    {"name": "big", "inputSchema": {"type": "object"}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound schema size); MCP
    2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106).
    """
    limit = ctx.bounds.max_schema_bytes
    if _small_json_once(slot.doc, limit, ctx) or _surely_within(slot.schema, limit, ctx.walks):
        return
    n = _schema_bytes(slot.schema, limit)
    if n > limit:
        yield ctx.finding(slot.pointer,
                          bound_message("this schema is", f"{n} bytes as compact JSON", limit, "max-schema-bytes",
                                     "clients that bound schema size reject it"))


@rule("SEC109", "excessive-ref-expansion", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Reference shared definitions fewer times in a row, or flatten the fan-out; raise "
          "bounds.max-ref-expansions if it is genuine")
def excessive_ref_expansion(slot, ctx):
    """Inlining the schema's references would take more substitutions than the bound.

    ## What it does
    Counts how many `$ref` substitutions a full inlining of the slot would make, without
    performing it: shared definitions are counted once per use, recursion once. A fan-out
    such as `a -> [b, b]`, `b -> [c, c]`... doubles at each level. Counting stops at
    `bounds.max-ref-expansions`.

    ## Why is this bad?
    A schema of a few hundred bytes can expand to billions of nodes ("billion laughs"),
    exhausting clients and decoders that inline references. Binding §10 requires
    implementations to bound `$ref` traversal.

    ## Example
    <!-- settings: {"bounds": {"max-ref-expansions": 5}} -->
    ```json
    {"name": "fan", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/b"}]},
               "b": {"allOf": [{"$ref": "#/$defs/c"}, {"$ref": "#/$defs/c"}]},
               "c": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "fan", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/c"}},
     "$defs": {"c": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound $ref traversal); MCP
    2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106).
    """
    info = slot_refs(slot, ctx)
    if info is None:
        return
    b = ctx.bounds.max_ref_expansions
    n = info.expansions(b)
    if n > b:
        yield ctx.finding(slot.pointer,
                          bound_message("fully inlining this schema's references takes", f"more than {b} substitutions",
                                     b, "max-ref-expansions",
                                     "clients and decoders that inline references blow up on it"))
