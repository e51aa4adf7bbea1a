"""SCH101 and SCH102: the slot against the meta-schema of its dialect, and a dialect mcplint does
not know. :func:`meta_findings` is also what the engine differential test compares."""

from __future__ import annotations

import json
from typing import Any

from ...dialects import CANONICAL, dialect_of, near_miss
from ...metaschema import MetaError, engine, meta_errors
from ...model import Pointer, Severity
from ...registry import rule
from ...schemawalk import subschemas
from ...versions import since
from .common import MAX_NESTING, json_type, slot_walk, closest, show

JSON_TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


# ------------------------------------------------------------------ SCH101

def _where(path: tuple) -> str:
    if not path:
        return "the schema"
    return "`" + str(Pointer(path))[1:] + "`"


def _type_list(types) -> str:
    names = sorted(types)
    return " or ".join(f"{'an' if t[0] in 'aeiou' else 'a'} {t}" for t in names)


def _meta_message(err, schema: Any, dialect: str) -> str:
    try:
        value = Pointer(err.path).resolve_in(schema)
    except (KeyError, IndexError, TypeError):
        value = None
    where, kw = _where(err.path), err.keyword
    last = err.path[-1] if err.path else None
    found = f"found {show(value)}"
    if last == "type" and kw in ("anyOf", "enum", "type") and not isinstance(value, list):
        hint = closest(value, JSON_TYPES) if isinstance(value, str) else None
        extra = f" (did you mean {json.dumps(hint)}?)" if hint else ""
        return (f"{where} must be one of the JSON types {', '.join(JSON_TYPES)} (or an array of them); "
                f"{found}{extra}")
    if last == "type" and kw in ("anyOf", "uniqueItems", "minItems"):
        return f"{where} must list distinct JSON type names ({', '.join(JSON_TYPES)}); {found}"
    if kw == "type" and err.expected:
        return f"{where} must be {_type_list(err.expected)}; {found} ({json_type(value)})"
    if kw == "minimum":
        return f"{where} must be at least {err.expected}; {found}"
    if kw == "minItems":
        return f"{where} must not be empty" if err.expected == 1 else \
            f"{where} must have at least {err.expected} items; {found}"
    if kw == "uniqueItems":
        return f"{where} must not repeat a value; {found}"
    if kw == "pattern" and isinstance(value, str):
        return f"{where} is not a valid {last if isinstance(last, str) else 'value'}; {found}"
    if kw == "dependencies":
        return f"{where} uses a keyword that needs a companion keyword (e.g. exclusiveMinimum needs minimum)"
    return f"{where} is not valid under the JSON Schema {dialect} meta-schema (`{kw}` check failed); {found}"


def _norm(v):
    # a module-level function: a nested recursive one is a reference cycle (its closure holds
    # itself), garbage the engine, which lints with the cyclic collector off, would never free
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [_norm(x) for x in v]
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    return v


def _unique_key(value: Any) -> str:
    return json.dumps(_norm(value), sort_keys=True)


def meta_findings(schema: Any, dialect: str, engine_name: str | None = None,
                  limit: int | None = None) -> list:
    """Meta-schema errors of one slot, de-duplicated: (MetaError, message). Only the first
    ``limit`` get a message (the rest get None: they are counted, not listed).

    Shared by SCH101 and the engine differential test, so both engines go through the same
    normalisation: a boolean ``required`` is left to SCH105, and the Rust engine's built-in
    draft-04 meta-schema (which omits ``enum``'s ``minItems``/``uniqueItems``) is completed."""
    eng = engine_name or engine()
    errors = meta_errors(schema, dialect, eng)
    if eng == "rs":
        # jsonschema-rs reports a draft-04 "dependencies" array as `required`.
        errors = [MetaError(e.path, "dependencies", e.expected) if e.keyword == "required" else e for e in errors]
        if dialect == "draft-04":
            # draft-04 writes an exclusive bound as `minimum` plus a boolean `exclusiveMinimum`
            # (the meta-schema's `multipleOf`): python-jsonschema names `minimum`, jsonschema-rs
            # names the flag
            errors = [MetaError(e.path, "minimum", e.expected) if e.keyword == "exclusiveMinimum" else e
                      for e in errors]
            for sub in subschemas(schema):
                enum = sub.schema.get("enum") if isinstance(sub.schema, dict) else None
                if isinstance(enum, list):
                    if enum and len({_unique_key(v) for v in enum}) == len(enum):
                        continue
                    place = _draft04_place(sub.pointer)
                    if place is False:
                        continue
                    if place is not True:  # reported as the enclosing anyOf failing, as the meta-schema has it
                        errors.append(MetaError(place, "anyOf", None))
                    elif not enum:
                        errors.append(MetaError((*sub.pointer, "enum"), "minItems", 1))
                    else:
                        errors.append(MetaError((*sub.pointer, "enum"), "uniqueItems", None))
    seen: set = set()
    out = []
    for e in errors:
        key = (e.path, e.keyword)
        if key in seen:
            continue
        seen.add(key)
        if e.path and e.path[-1] == "required":
            try:
                if isinstance(Pointer(e.path).resolve_in(schema), bool):
                    continue  # SCH105 explains this one
            except (KeyError, IndexError, TypeError):
                pass
        message = _meta_message(e, schema, dialect) if limit is None or len(out) < limit else None
        out.append((e, message))
    return out


_DRAFT04_ANY_OF = frozenset({"items", "additionalItems", "additionalProperties"})  # anyOf [schema, other form]
_DRAFT04_MAPS = frozenset({"properties", "patternProperties", "definitions"})
_DRAFT04_LISTS = frozenset({"allOf", "anyOf", "oneOf"})


def _draft04_place(pointer: tuple) -> tuple | bool:
    """How the draft-04 meta-schema reaches the subschema at ``pointer``: False when it does not
    (the path goes through a keyword draft-04 does not know, such as ``$defs`` or ``if``: never
    validated), True when directly, or the outermost place where it validates it inside an
    ``anyOf`` (``items``, ``additionalItems``, ``additionalProperties``, a ``dependencies``
    member), where an error anywhere below is reported as that ``anyOf`` failing."""
    i = 0
    while i < len(pointer):
        kw = pointer[i]
        if kw in _DRAFT04_ANY_OF:
            return pointer[:i + 1]
        if kw == "dependencies":
            return pointer[:i + 2]
        if kw in _DRAFT04_MAPS or kw in _DRAFT04_LISTS:
            i += 2
        elif kw == "not":
            i += 1
        else:
            return False
    return True


@rule("SCH101", "invalid-schema", severity=Severity.ERROR, scope="slot",
      fix="Correct the keyword's value so the schema is valid in its dialect")
def invalid_schema(slot, ctx):
    """The schema is not valid under its dialect's meta-schema.

    ## What it does
    Validates each `inputSchema` and `outputSchema` against the meta-schema of its dialect:
    JSON Schema 2020-12 when `$schema` is absent, otherwise the dialect `$schema` declares
    (2020-12, 2019-09, draft-07, draft-06 or draft-04). Every violation is reported at the
    keyword that breaks it: a misspelt type name, a negative `minLength`, `required` that is
    not an array of strings, `properties` that is not an object, and so on. Slots in a JSON
    Structure dialect are left to the JST rules; a boolean `required` is left to SCH105.
    A slot with more subschemas than the `max-subschemas` bound, or nesting subschemas more
    than 50 levels deep, is not validated and gets one info finding saying so (the SEC rules
    report the bound itself); at most `max-subschemas` errors are listed per slot, and the rest
    are counted in one more finding.

    ## Why is this bad?
    MCP requires tool schemas to be valid for their dialect (2025-11-25, "JSON Schema Usage").
    Clients that compile the schema (Ajv, jsonschema, constrained decoders) reject an invalid
    one outright, so the tool is unusable there, while lenient clients silently ignore the broken
    keyword and accept arguments the author meant to refuse.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"query": {"type": "text", "minLength": -1}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"query": {"type": "string", "minLength": 1}}}}
    ```

    ## References
    MCP 2025-11-25 and 2026-07-28, basic/index "JSON Schema Usage" (schemas MUST be valid for their
    dialect); JSON Schema 2020-12 Core §4.3 and the dialect meta-schemas at json-schema.org.
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
    limit = ctx.bounds.max_subschemas
    if not walk.engine_safe:
        why = (f"has more than {limit} subschemas (the max-subschemas bound)" if walk.truncated
               else f"nests subschemas more than {MAX_NESTING} levels deep")
        yield ctx.finding(slot.pointer, f"this schema {why}, so its validity was not checked; mcplint checks "
                                        "the keywords of the first subschemas only",
                          fix="Split or flatten the schema (move repeated parts into $defs)",
                          severity=Severity.INFO)
        return
    found = meta_findings(slot.schema, dialect, limit=limit)
    for err, message in found[:limit]:
        yield ctx.finding(slot.pointer + err.path, message)
    if len(found) > limit:
        yield ctx.finding(slot.pointer, f"{len(found) - limit} more meta-schema errors in this schema are not "
                                        f"listed (mcplint lists the first {limit}, the max-subschemas bound)")


# ------------------------------------------------------------------ SCH102

@rule("SCH102", "unknown-dialect", severity=Severity.ERROR, scope="slot", versions=since("2025-11-25"),
      fix_safety="safe", fix_note="the near-miss `$schema` URI is spelt exactly",
      fix="Declare a JSON Schema dialect mcplint knows (or remove $schema to mean 2020-12)")
def unknown_dialect(slot, ctx):
    """`$schema` names a dialect that is neither a known JSON Schema nor a JSON Structure meta-schema.

    ## What it does
    Reports a slot whose `$schema` is not one of the JSON Schema meta-schema URIs mcplint
    implements (2020-12, 2019-09, draft-07, draft-06, draft-04) nor a JSON Structure
    meta-schema URI, or is not a string. A near miss of a known URI (`https` for `http`,
    a trailing slash, `.json`) is named in the message. Nothing is retrieved: `$schema` is
    matched, never fetched.

    ## Why is this bad?
    MCP says an implementation MUST handle an unsupported dialect with an error, and the JSON
    Structure MCP binding (§3.2) forbids falling back to reading such a schema as JSON Schema
    2020-12. A client that does not know the dialect cannot know what the schema means, so it
    rejects the tool or, worse, guesses. mcplint does not guess either: the other SCH rules skip
    the slot.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"$schema": "https://json-schema.org/draft-07/schema",
      "type": "object", "properties": {"query": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
      "type": "object", "properties": {"query": {"type": "string"}}}}
    ```

    ## References
    MCP 2025-11-25 and 2026-07-28, basic/index "JSON Schema Usage" (unsupported dialects are
    handled with an error); JSON Structure MCP binding §3.1 and §3.2 (no fallback to JSON Schema).
    """
    schema = slot.schema
    if not isinstance(schema, dict) or "$schema" not in schema or dialect_of(schema) is not None:
        return
    value = schema["$schema"]
    ptr = slot.pointer / "$schema"
    if not isinstance(value, str):
        yield ctx.finding(ptr, f"$schema must be a URI string naming the schema's dialect; found {show(value)}")
        return
    guess = near_miss(value)
    if guess:
        yield ctx.finding(ptr, f"$schema {show(value)} is not a dialect mcplint knows; did you mean {show(guess)}? "
                               "Clients compare the URI exactly and must not read an unknown dialect as 2020-12",
                          fix=f"Write $schema exactly as {guess}",
                          patch=[{"op": "replace", "path": str(ptr), "value": guess}])
        return
    yield ctx.finding(ptr, f"$schema {show(value)} is not a dialect mcplint knows (JSON Schema: "
                           f"{', '.join(CANONICAL)}; or a JSON Structure meta-schema); clients that do not "
                           "know it must reject the schema, not read it as 2020-12")
