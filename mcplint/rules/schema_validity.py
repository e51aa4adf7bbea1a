"""SCH: JSON Schema validity, and likely mistakes that a valid schema can still hold.

Every rule runs on one schema slot (``inputSchema``/``outputSchema``) read in its dialect
(:func:`mcplint.dialects.dialect_of`): 2020-12 when ``$schema`` is absent, else the declared
JSON Schema dialect. Slots in a JSON Structure dialect belong to the JST family and are skipped
here; slots in an unknown dialect are reported by SCH102 and not read at all. Subschemas are
walked with :mod:`mcplint.schemawalk`; the validation engine lives in :mod:`mcplint.metaschema`.
"""

from __future__ import annotations

import functools
import json
import operator
from typing import Any, Iterator

from ..dialects import CANONICAL, JSON_STRUCTURE, dialect_of, near_miss
from ..metaschema import MetaError, ValueChecker, engine, meta_errors, simple_plan
from ..model import Pointer, Severity
from ..registry import rule
from ..schemawalk import COMBINATORS, subschemas, walk_prefix
from ..versions import since

# Subschema nesting (applicator steps) beyond which a slot is not handed to a validation
# engine: the Rust engine's stack and the Python engine's recursion limit both give out
# above it (measured: Python at about 100 nested properties, Rust at a few thousand nested
# `not`). No real tool schema comes near it, and the SEC family bounds depth far below it.
MAX_NESTING = 50
# Values (defaults, enum members, consts, examples) SCH109 checks in one slot at most.
VALUE_LIMIT = 2_000

# ------------------------------------------------------------------ keyword vocabularies

_COMMON = {
    "$schema", "$ref", "title", "description", "default", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "maxItems", "minItems",
    "uniqueItems", "maxProperties", "minProperties", "required", "additionalProperties", "properties",
    "patternProperties", "enum", "type", "format", "allOf", "anyOf", "oneOf", "not",
}
_D4 = _COMMON | {"id", "additionalItems", "definitions", "dependencies"}
_D6 = (_D4 - {"id"}) | {"$id", "examples", "const", "contains", "propertyNames"}
_D7 = _D6 | {"$comment", "readOnly", "writeOnly", "if", "then", "else", "contentMediaType", "contentEncoding"}
_D2019 = (_D7 - {"definitions", "dependencies"}) | {
    "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$defs", "deprecated", "maxContains",
    "minContains", "dependentRequired", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties",
    "contentSchema",
}
_D2020 = (_D2019 - {"$recursiveRef", "$recursiveAnchor", "additionalItems"}) | {
    "$dynamicRef", "$dynamicAnchor", "prefixItems",
}
# (The 2019-09 and 2020-12 meta-schemas still describe `definitions`, `dependencies` and, in
# 2020-12, `$recursiveRef`/`$recursiveAnchor` for compatibility, so SCH101 checks their shape;
# validators of those dialects do not assert `dependencies` and `$recursive*`, so SCH103 says so.
# `definitions` stays silent: it is only a place that `$ref`s point into.)
KEYWORDS: dict[str, frozenset] = {
    "2020-12": frozenset(_D2020), "2019-09": frozenset(_D2019), "draft-07": frozenset(_D7),
    "draft-06": frozenset(_D6), "draft-04": frozenset(_D4),
}
# Annotations seen in real tool schemas that an older dialect does not define: harmless
# everywhere (validators ignore them), so never reported. "$defs"/"definitions" are
# reached by JSON Pointer refs whatever the dialect.
TOLERATED = frozenset({
    "$defs", "definitions", "$comment", "$id", "examples", "deprecated", "readOnly", "writeOnly",
    "contentMediaType", "contentEncoding", "title", "description", "default", "format",
})
# OpenAPI 3.0 Schema Object keywords that JSON Schema does not have (SCH104 reports them).
OPENAPI = frozenset({"nullable", "example", "discriminator", "xml", "externalDocs"})
_ALL_KEYWORDS = frozenset().union(*KEYWORDS.values())
_INTRODUCED = {  # the first dialect that has a keyword, for "belongs to another dialect" messages
    kw: next(d for d in ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12") if kw in KEYWORDS[d])
    for kw in _ALL_KEYWORDS
}
_REMOVED = {  # keywords a later dialect dropped, and what replaced them
    "dependencies": "2019-09 split it into `dependentRequired` and `dependentSchemas`",
    "additionalItems": "in 2020-12 `items` took its place next to `prefixItems`",
    "id": "draft-06 renamed it `$id`",
    "$recursiveRef": "2020-12 replaced it with `$dynamicRef`",
    "$recursiveAnchor": "2020-12 replaced it with `$dynamicAnchor`",
}

REFS = ("$ref", "$dynamicRef", "$recursiveRef")
_REF_KEYWORDS = frozenset(REFS)
TYPE_IMPLYING = frozenset({*REFS, "enum", "const", *COMBINATORS})
DATA = ("default", "const", "enum", "examples")
_DATA_KEYWORDS = frozenset(DATA)
_PY_JSON_TYPES = {str: ("string",), bool: ("boolean",), int: ("integer", "number"), float: ("number",),
                  type(None): ("null",)}


def _enum_only_of_its_types(node: dict) -> bool:
    """An ``enum`` whose node asserts nothing but a type (no const, no other assertion) and whose
    members all have that type: each member then validates against its own schema, with no
    need to check them one by one. (A float member of an integer type is left to the check.)"""
    enum = node.get("enum")
    if not isinstance(enum, list) or "const" in node:
        return False
    plan = simple_plan(node, index_enum=False)
    if plan is None:
        return False
    if plan.types is None:
        return True
    allowed = set(plan.types)
    for member_type in {type(v) for v in enum}:
        names = _PY_JSON_TYPES.get(member_type)
        if names is None or allowed.isdisjoint(names):
            return False
    return True
JSON_TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


# ------------------------------------------------------------------ shared helpers

def _read(slot, ctx) -> "_Walk | None":
    """The slot's walk, when SCH rules may read the slot (its dialect is one they know); else None
    (not a schema at all, which the MCP family reports; a JSON Structure slot; an unknown dialect)."""
    if not isinstance(slot.schema, (dict, bool)):
        return None
    walk = _walk(slot, ctx)
    return walk if walk.dialect is not None else None


class _At(tuple):
    """(slot pointer, relative pointer): an absolute pointer built only when a rule reports
    something (most nodes are clean). A tuple, so that making one per node costs no Python call."""

    __slots__ = ()

    def __truediv__(self, key) -> Pointer:
        return Pointer((*self[0], *self[1], key))

    @property
    def full(self) -> Pointer:
        return Pointer((*self[0], *self[1]))


_DEPTH = operator.itemgetter(2)


class _Walk:
    """One walk of a slot, shared by every SCH rule that runs on it. It stops after ``limit``
    object subschemas (the max-subschemas bound): work stays bounded on adversarial input, and a
    slot over the bound is marked ``truncated`` (SCH101 says it was not fully checked)."""

    __slots__ = ("limit", "nodes", "depth", "dialect", "truncated", "_keys", "_refs", "slot")

    def __init__(self, schema: Any, base: Pointer, limit: int):
        self.limit = limit
        self.truncated = False
        self._keys: frozenset | None = None
        self._refs: list | None = None
        self.slot: Any = None  # the slot it was made for (set by _walk)
        tnew = tuple.__new__
        walked = walk_prefix(schema, limit)
        if len(walked) <= limit:  # the whole walk, so no more object nodes than the bound: in C where it can
            # (pointer builder, dict node, sub) for each object node
            self.nodes: list = [(tnew(_At, (base, sub[0])), sub[1], sub) for sub in walked if type(sub[1]) is dict]
            self.depth = max(map(_DEPTH, walked))  # applicator steps of the deepest subschema
        else:  # perhaps more object nodes than the bound: count them as they come
            self.nodes, depth = [], 0
            for sub in subschemas(schema):
                if sub[2] > depth:
                    depth = sub[2]
                if isinstance(sub[1], dict):
                    if len(self.nodes) >= limit:
                        self.truncated = True
                        break
                    self.nodes.append((tnew(_At, (base, sub[0])), sub[1], sub))
            self.depth = depth
        d = dialect_of(schema) if isinstance(schema, (dict, bool)) else None
        self.dialect = None if d in (None, JSON_STRUCTURE) else d

    @property
    def ref_nodes(self) -> list:
        """Relative pointers of the subschemas holding a reference keyword."""
        if self._refs is None:
            self._refs = [entry[2][0] for entry in self.nodes if not _REF_KEYWORDS.isdisjoint(entry[1])]
        return self._refs

    @property
    def keys(self) -> frozenset:
        """Every key of every walked subschema (one set union, in C): a rule that looks for a
        keyword can tell at once that no subschema has it."""
        if self._keys is None:
            self._keys = frozenset().union(*[entry[1] for entry in self.nodes])
        return self._keys

    @property
    def engine_safe(self) -> bool:
        """May the whole slot go to a validation engine (fully walked, not too deep)?"""
        return not self.truncated and self.depth <= MAX_NESTING




# The rules of one slot run one after another: keep the last walk, with the slot and the bound it
# was made for. One shared cell (assigning it is atomic): two threads linting at once only make
# each other walk again.
_LAST: list = [None]


def _walk(slot, ctx) -> _Walk:
    w = _LAST[0]
    limit = ctx.config.bounds.max_subschemas
    if w is None or w.slot is not slot or w.limit != limit:
        w = _Walk(slot.schema, slot.pointer, limit)
        w.slot = slot
        _LAST[0] = w
    return w


def show(value: Any, limit: int = 60) -> str:
    """A short JSON rendering of a value for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError, RecursionError):
        text = "(a deeply nested value)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def distance(a: str, b: str) -> int:
    """Optimal string alignment distance (edits, with adjacent transpositions)."""
    if abs(len(a) - len(b)) > 2:
        return 3
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > 2 and (not prev2 or min(prev) > 2):
            return 3  # no alignment can come back under the largest limit closest() uses
        prev2, prev = prev, cur
    return prev[-1]


def closest(word: str, candidates) -> str | None:
    """The candidate a misspelt ``word`` most likely meant, or None."""
    low = word.lower()
    for c in candidates:
        if c.lower() == low:
            return c
    best, best_d = None, 99
    limit = 1 if len(word) <= 4 else 2
    for c in sorted(candidates):
        if abs(len(c) - len(word)) > limit:
            continue
        d = distance(low, c.lower())
        if d < best_d:
            best, best_d = c, d
    return best if best_d <= limit else None


def _deletes(word: str, n: int) -> set:
    out = frontier = {word}
    for _ in range(n):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out = out | frontier
    return out


@functools.lru_cache(maxsize=8)
def _delete_index(dialect: str) -> dict:
    """Every keyword of the dialect under each string that deleting up to two characters of it
    gives: two words within edit distance 2 share such a string (symmetric deletion), so
    :func:`_suggest` compares a word with a handful of keywords, not all of them."""
    idx: dict = {}
    for kw in KEYWORDS[dialect] | TOLERATED:
        for v in _deletes(kw.lower(), 2):
            idx.setdefault(v, set()).add(kw)
    return idx


@functools.lru_cache(maxsize=4096)
def _suggest(word: str, dialect: str) -> str | None:
    """The keyword of ``dialect`` a misspelt ``word`` most likely meant (same answer as
    :func:`closest` over the dialect's keywords, in near-constant time)."""
    if len(word) > 30:  # longer than every keyword by more than the edits allowed
        return None
    low = word.lower()
    limit = 1 if len(word) <= 4 else 2
    idx = _delete_index(dialect)
    candidates: set = set()
    for v in _deletes(low, limit):
        candidates |= idx.get(v, set())
    return closest(word, candidates) if candidates else None


@functools.lru_cache(maxsize=8)
def _accepted(dialect: str) -> frozenset:
    """Keys SCH103 never reports in ``dialect`` (extension keys aside)."""
    return KEYWORDS[dialect] | TOLERATED | OPENAPI


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
        return f"{where} must be {_type_list(err.expected)}; {found} ({_json_type(value)})"
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


def _unique_key(value: Any) -> str:
    def norm(v):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        return v

    return json.dumps(norm(value), sort_keys=True)


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
    walk = _read(slot, ctx)
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


# ------------------------------------------------------------------ SCH103

@rule("SCH103", "unknown-keyword", severity=Severity.WARNING, scope="slot",
      fix="Spell the keyword as its dialect defines it, or prefix an extension with x-")
def unknown_keyword(slot, ctx):
    """A schema uses a keyword its dialect does not define: usually a misspelling.

    ## What it does
    Reports every keyword of every subschema that the slot's dialect does not define. A near
    miss of a real keyword (`requried`, `additionalproperties`, `minLenght`) or a keyword of a
    different dialect (`prefixItems` under draft-07) is a warning naming the keyword meant; any
    other unknown keyword is info. Extension keywords (`x-...`, such as `x-mcp-header`) and
    annotations common in real tool schemas (`title`, `examples`, `deprecated`, `readOnly`,
    `$defs`, `$comment`, `contentMediaType`, ...) are never reported. OpenAPI keywords are SCH104's.

    ## Why is this bad?
    JSON Schema ignores keywords it does not know. A misspelt `requried` makes nothing required,
    a lower-case `additionalproperties: false` lets any extra argument through, and `minLenght`
    accepts the empty string: the schema reads as strict and enforces nothing, and no validator
    says a word.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "requried": ["query"]}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "required": ["query"]}}
    ```

    ## References
    JSON Schema 2020-12 Core §6.5 (unknown keywords are collected as annotations, not asserted);
    MCP 2025-11-25 basic/index "JSON Schema Usage".
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
    known = KEYWORDS[dialect]
    accepted = _accepted(dialect)
    if walk.keys <= accepted:  # the usual slot: every key of every subschema accepted
        return
    for ptr, node, _ in walk.nodes:
        if node.keys() <= accepted:  # every key a keyword of the dialect or tolerated: decided in C
            continue
        for kw in node:
            if kw in known or kw in TOLERATED or kw in OPENAPI or kw.startswith("x-") or kw.startswith("X-"):
                continue
            at = ptr / kw
            if kw in _ALL_KEYWORDS:
                why = _REMOVED.get(kw) or f"it was added in {_INTRODUCED[kw]}"
                yield ctx.finding(at, f"`{kw}` is not a JSON Schema {dialect} keyword ({why}); validators of this "
                                      f"schema's dialect ignore it, so its constraint is not enforced",
                                  fix="Use the keyword of the schema's dialect, or declare the dialect that has it")
                continue
            guess = _suggest(kw, dialect)
            if guess == "required" and isinstance(node[kw], bool):
                yield ctx.finding(at, f"unknown keyword `{kw}`: a misspelt `required`, in its draft-3 boolean form; "
                                      "list the property's name in the parent object's `required` array instead",
                                  fix="Remove it and list the property in the parent's `required` array")
            elif guess and guess not in node:
                yield ctx.finding(at, f"unknown keyword `{kw}`: did you mean `{guess}`? Validators ignore unknown "
                                      "keywords, so this constraint is not enforced",
                                  fix=f"Rename `{kw}` to `{guess}`",
                                  patch=[{"op": "move", "from": str(at), "path": str(ptr / guess)}])
            else:
                yield ctx.finding(at, f"unknown keyword `{kw}` is not part of JSON Schema {dialect}; validators "
                                      "ignore it (name an extension `x-...` to say it is one)",
                                  severity=Severity.INFO)


# ------------------------------------------------------------------ SCH104

@rule("SCH104", "openapi-keyword", severity=Severity.WARNING, scope="slot",
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
    walk = _read(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
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
                                      patch=[{"op": "remove", "path": str(at)}], severity=Severity.INFO)
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
                                  fix="Add \"null\" to `type` and remove `nullable`", patch=patch)
            elif kw == "example":
                patch = [] if "examples" in node else [
                    {"op": "move", "from": str(at), "path": str(ptr / "examples")},
                    {"op": "replace", "path": str(ptr / "examples"), "value": [value]}]
                yield ctx.finding(at, "`example` is an OpenAPI 3.0 keyword that JSON Schema tools ignore; "
                                      "JSON Schema's is `examples`, an array of values",
                                  fix="Replace `example: v` with `examples: [v]`", patch=patch,
                                  severity=Severity.INFO)
            else:
                yield ctx.finding(at, f"`{kw}` is an OpenAPI keyword that JSON Schema ignores",
                                  fix=f"Remove `{kw}` (or rename it `x-{kw}`)", severity=Severity.INFO)


# ------------------------------------------------------------------ SCH105

@rule("SCH105", "required-boolean", severity=Severity.ERROR, scope="slot",
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
    walk = _read(slot, ctx)
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
                                  "instead (as written, the property is not required)", patch=patch)
        else:
            yield ctx.finding(at, f"`required` must be an array of property names, not {show(value)} "
                                  "(a draft-3 form, invalid since draft-4)",
                              fix="Remove it, or list property names in the object's `required` array",
                              patch=patch if not value else [])


# ------------------------------------------------------------------ SCH106

def _pattern_may_match(pattern: Any, name: str) -> bool:
    import re

    if not isinstance(pattern, str):
        return True
    try:
        return re.search(pattern, name) is not None
    except (re.error, RecursionError, OverflowError):
        return True  # cannot tell (ECMA-262 syntax Python lacks): assume it matches


@rule("SCH106", "required-undeclared", severity=Severity.WARNING, scope="slot",
      fix="Declare the property in `properties`, or correct the name in `required`")
def required_undeclared(slot, ctx):
    """`required` names a property that the same object does not declare.

    ## What it does
    For each object schema with `properties`, reports names in `required` that `properties` does
    not declare, where that is truly a mistake:

    * the object closes itself (`additionalProperties: false`, or `unevaluatedProperties: false`
      with nothing else that could evaluate the name) and no `patternProperties` pattern matches
      the name: no object can ever be valid, so every call is refused (error);
    * the object is open but declares `properties`, has no `patternProperties`, no
      `additionalProperties` schema describing other keys, and no `$ref`/combinator that could
      declare the name elsewhere: most likely a typo or a renamed property (warning, naming the
      closest declared property).

    Schemas with only `required` (as in `anyOf: [{"required": ["a"]}, {"required": ["b"]}]`)
    are not reported.

    ## Why is this bad?
    A closed object that requires an undeclared property rejects every argument object. An open
    one demands a key the model is never told about (no type, no description), so models omit it
    or guess, and calls fail validation.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "required": ["querry"], "additionalProperties": false}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "required": ["query"], "additionalProperties": false}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.5.3 (`required`) and Core §10.3.2.3 (`additionalProperties`
    sees only the `properties` and `patternProperties` of its own schema object).
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    if "required" not in walk.keys:
        return
    for ptr, node, _ in walk.nodes:
        req, props = node.get("required"), node.get("properties")
        if not isinstance(req, list) or not isinstance(props, dict):
            continue
        if all(name in props for name in req if isinstance(name, str)):  # the usual case
            continue
        pattern_props = node.get("patternProperties")
        pattern_props = pattern_props if isinstance(pattern_props, dict) else {}
        elsewhere = any(k in node for k in (*REFS, *COMBINATORS, "dependentSchemas", "dependencies"))
        closed = node.get("additionalProperties") is False or (
            node.get("unevaluatedProperties") is False and not elsewhere and "additionalProperties" not in node)
        for i, name in enumerate(req[:ctx.bounds.max_enum]):  # a longer list is SEC's to report
            if not isinstance(name, str) or name in props:
                continue
            if any(_pattern_may_match(p, name) for p in pattern_props):
                continue
            guess = closest(name, props) if len(props) <= 200 and len(name) <= 100 else None
            hint = f" (did you mean {show(guess)}?)" if guess else ""
            if closed:
                yield ctx.finding(ptr / "required" / i,
                                  f"{show(name)} is required but not declared in `properties`, and "
                                  f"`additionalProperties: false` forbids it: no object can satisfy this "
                                  f"schema{hint}", severity=Severity.ERROR)
            elif not pattern_props and not elsewhere and not isinstance(node.get("additionalProperties"), dict):
                yield ctx.finding(ptr / "required" / i,
                                  f"{show(name)} is required but not declared in `properties`{hint}; the model "
                                  "is never told its type or meaning")


# ------------------------------------------------------------------ SCH107

_ARRAY_SHAPING = frozenset({"items", "prefixItems", "additionalItems", "contains", "unevaluatedItems", *REFS,
                            *COMBINATORS})


def _types(node: dict) -> set:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    return {x for x in t if isinstance(x, str)} if isinstance(t, list) else set()


@rule("SCH107", "array-without-items", severity=Severity.WARNING, scope="slot",
      fix="Describe the items with `items` (or `prefixItems` for a tuple)")
def array_without_items(slot, ctx):
    """`type: "array"` with no `items`: an array of anything.

    ## What it does
    Reports a schema whose `type` includes `"array"` but that says nothing about its items: no
    `items`, `prefixItems`, `additionalItems`, `contains` or `unevaluatedItems`, and no `$ref` or
    combinator that could. `"items": {}` (explicitly anything) is not reported.

    ## Why is this bad?
    The model gets no guidance on what to put in the array and any item is accepted, so the tool
    receives values it does not expect. Several constrained decoders reject or rewrite an array
    schema without `items`.

    ## Example
    ```json
    {"name": "tag", "inputSchema": {"type": "object", "properties": {"tags": {"type": "array"}}}}
    ```

    ## Use instead
    ```json
    {"name": "tag", "inputSchema": {"type": "object",
      "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §10.3.1.2 (`items`; absent means any item is valid).
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    for ptr, node, _ in walk.nodes:
        t = node.get("type")
        if (t == "array" or (isinstance(t, list) and "array" in t)) and _ARRAY_SHAPING.isdisjoint(node):
            yield ctx.finding(ptr / "type", "an array with no `items`: any item is accepted and the model is "
                                            "not told what the array holds")


# ------------------------------------------------------------------ SCH108

_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
                          "$comment", "format", "example"})


@rule("SCH108", "property-without-type", severity=Severity.INFO, scope="slot",
      fix="Give the property a `type` (or an `enum`/`const`/`$ref` that implies one)")
def property_without_type(slot, ctx):
    """A property schema says nothing about the type of its value.

    ## What it does
    Reports a schema under `properties` that has no `type` and nothing that implies one: no
    `$ref`, `enum`, `const`, `allOf`/`anyOf`/`oneOf`/`not`/`if`. `true` (explicitly anything)
    is not reported. When the schema has type-specific keywords (`minLength`, `items`, ...) the
    message says that values of other types skip them.

    ## Why is this bad?
    Such a property accepts any JSON value; a model has to guess whether to send a string, a number
    or an object. Keywords like `minLength` apply only to their own type, so
    `{"minLength": 3}` still accepts `42`. It is sometimes intended (an "any" value), hence info.

    ## Example
    ```json
    {"name": "set", "inputSchema": {"type": "object",
      "properties": {"value": {"description": "the new value"}}}}
    ```

    ## Use instead
    ```json
    {"name": "set", "inputSchema": {"type": "object",
      "properties": {"value": {"type": "string", "description": "the new value"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.1.1 (`type`) and §6 (type-specific keywords ignore other types).
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    for ptr, node, sub in walk.nodes:
        if sub[3] != "properties" or "type" in node or not TYPE_IMPLYING.isdisjoint(node):
            continue
        specific = sorted(k for k in node if k in _ALL_KEYWORDS and k not in _ANNOTATIONS and k != "$schema")
        if specific:
            msg = (f"property {show(sub.pointer[-1])} has {', '.join(f'`{k}`' for k in specific[:3])} but no `type`: "
                   "values of any other type are accepted without those checks")
        else:
            msg = f"property {show(sub.pointer[-1])} has no `type`: it accepts any JSON value"
        yield ctx.finding(ptr.full, msg)


# ------------------------------------------------------------------ SCH109

class _RefGraph:
    """The slot's references, for asking whether a subschema reaches (through local references)
    one that is external or does not resolve, in time linear in the number of references."""

    def __init__(self, schema: Any):
        from ..refs import index

        self.schema = schema
        self.idx = index(schema)
        self.under: dict = {}  # pointer of a subschema -> references held at or below it
        for r in self.idx.refs:
            p = tuple(r.pointer)
            for k in range(len(p)):
                self.under.setdefault(p[:k], []).append(r)
        self.targets: dict = {}  # id(ref) -> target pointer, or None (external / unresolvable)
        self.safe: set = set()  # subschemas known to reach no external reference

    def _target(self, r):
        key = id(r)
        if key not in self.targets:
            from ..refs import is_local, resolve

            t = resolve(r, self.idx, self.schema) if is_local(r, self.idx) else None
            self.targets[key] = tuple(t[0]) if t is not None else None
        return self.targets[key]

    def reaches_external(self, rel: tuple) -> bool:
        todo, seen = [rel], set()
        while todo:
            base = todo.pop()
            if base in seen or base in self.safe:
                continue
            seen.add(base)
            for r in self.under.get(base, ()):
                t = self._target(r)
                if t is None:
                    return True
                todo.append(t)
        self.safe |= seen
        return False


@rule("SCH109", "value-violates-schema", severity=Severity.WARNING, scope="slot",
      fix="Make the value valid against its schema, or correct the schema")
def value_violates_schema(slot, ctx):
    """A `default`, `enum`, `const` or `examples` value does not validate against its own schema.

    ## What it does
    Validates each `default`, each `enum` member, `const` and each `examples` member against the
    subschema that holds it, resolving the slot's own references (`#/$defs/...`, anchors) and
    never anything outside it: a subschema that reaches an external or unresolvable `$ref` is not
    checked. Formats are treated as annotations, as JSON Schema 2020-12 does by default. At most
    2,000 values per slot and `max-enum` members per `enum`/`examples` are checked; in a slot over
    the subschema bounds only values whose schema asserts just `type`/`enum`/`const` are.

    ## Why is this bad?
    A default the schema rejects is filled in by clients and then refused by the server; an enum
    member that fails `type` can never be sent; an example that does not validate teaches the model
    to send invalid arguments.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"limit": {"type": "integer", "minimum": 1, "default": 0}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"limit": {"type": "integer", "minimum": 1, "default": 10}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §9.2 (`default` SHOULD be valid against its schema) and §9.5
    (`examples` SHOULD be), §6.1.2-3 (`enum`, `const`).
    """
    walk = _read(slot, ctx)
    if walk is None or not isinstance(slot.schema, dict):
        return
    dialect = walk.dialect
    if _DATA_KEYWORDS.isdisjoint(walk.keys):
        return
    targets = []
    for ptr, node, sub in walk.nodes:
        if _DATA_KEYWORDS.isdisjoint(node):
            continue
        if _enum_only_of_its_types(node):  # a plain typed enum: every member is valid as it stands
            if "default" not in node and "examples" not in node:
                continue
            node = {k: v for k, v in node.items() if k != "enum"}
        for kw in DATA:
            if kw not in node:
                continue
            value = node[kw]
            if kw in ("enum", "examples"):
                if isinstance(value, list):  # beyond the enum bound SEC reports the size; check the first ones
                    targets += [(sub.pointer, (kw, i), v) for i, v in enumerate(value[:ctx.bounds.max_enum])]
            else:
                targets.append((sub.pointer, (kw,), value))
    if not targets:
        return
    holders = {p[:k] for p in walk.ref_nodes for k in range(len(p) + 1)}  # subschemas holding a ref
    graph = None
    # a slot the engine must not see whole is checked in pure Python only (type/enum/const)
    checker = ValueChecker(slot.schema, dialect, simple_only=not walk.engine_safe)
    verdicts: dict = {}
    for rel, where, value in targets[:VALUE_LIMIT]:
        if rel not in verdicts:  # (checkable?, holds no reference?)
            holds_ref = rel in holders
            if holds_ref and graph is None:
                graph = _RefGraph(slot.schema)
            verdicts[rel] = (not holds_ref or not graph.reaches_external(rel), not holds_ref)
        checkable, standalone = verdicts[rel]
        if not checkable:
            continue
        failed = checker.errors(rel, value, standalone)
        if not failed:
            continue
        node = Pointer(rel).resolve_in(slot.schema)
        label = {"default": "default", "const": "const", "enum": "enum member", "examples": "example"}[where[0]]
        kw = failed[0]
        detail = f"`{kw}`: {show(node[kw])}" if isinstance(node, dict) and kw in node and kw != where[0] else f"`{kw}`"
        why = {"default": "a client that fills it in sends a value the tool rejects",
               "const": "no value can satisfy this schema",
               "enum": "that member can never be sent",
               "examples": "it teaches the model to send arguments the tool rejects"}[where[0]]
        yield ctx.finding(slot.pointer + rel + where,
                          f"{label} {show(value)} is not valid against its own schema (it fails {detail}); {why}")


# ------------------------------------------------------------------ SCH110

_FORMATS_DRAFT04 = frozenset({"date-time", "email", "hostname", "ipv4", "ipv6", "uri"})
_FORMATS_DRAFT06 = _FORMATS_DRAFT04 | {"uri-reference", "uri-template", "json-pointer"}
_FORMATS_DRAFT07 = _FORMATS_DRAFT06 | {"date", "time", "idn-email", "idn-hostname", "iri", "iri-reference",
                                      "relative-json-pointer", "regex"}
FORMATS = {  # the format attributes each dialect defines (its specification's "Defined Formats")
    "draft-04": _FORMATS_DRAFT04, "draft-06": _FORMATS_DRAFT06, "draft-07": _FORMATS_DRAFT07,
    "2019-09": _FORMATS_DRAFT07 | {"duration", "uuid"}, "2020-12": _FORMATS_DRAFT07 | {"duration", "uuid"},
}
# OpenAPI's own format names (a sign of a schema converted from an OpenAPI document)
_OPENAPI_FORMATS = frozenset({"int32", "int64", "float", "double", "byte", "binary", "password"})
# spellings seen for defined formats
_FORMAT_ALIASES = {"datetime": "date-time", "date_time": "date-time", "timestamp": "date-time", "url": "uri",
                   "e-mail": "email", "ip": "ipv4", "ipv4-address": "ipv4", "ipv6-address": "ipv6",
                   "host": "hostname", "guid": "uuid"}


@rule("SCH110", "unknown-format", severity=Severity.WARNING, scope="slot",
      fix="Use a format the dialect defines (date-time, date, time, duration, email, hostname, ipv4, ipv6, "
          "uri, uri-reference, uuid, ...) or state the constraint with `pattern`")
def unknown_format(slot, ctx):
    """A `format` value the schema's dialect does not define.

    ## What it does
    Reports a string `format` that is not one of the formats the dialect's specification defines
    (2020-12: `date-time`, `date`, `time`, `duration`, `email`, `idn-email`, `hostname`,
    `idn-hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference`, `iri`, `iri-reference`, `uuid`,
    `uri-template`, `json-pointer`, `relative-json-pointer`, `regex`; draft-07 lacks `duration`
    and `uuid`). The message names the defined format a misspelling most likely meant
    (`datetime`, `url`) and says when the name is an OpenAPI format (`int64`, `binary`).

    ## Why is this bad?
    A format no one defines constrains nothing: validators treat an unknown format as an
    annotation, so `"format": "datetime"` accepts any string. Decoders that enforce formats
    enforce only the ones they know, and some reject the schema outright on an unknown one.

    ## Example
    ```json
    {"name": "schedule", "inputSchema": {"type": "object",
     "properties": {"at": {"type": "string", "format": "datetime"}}}}
    ```

    ## Use instead
    ```json
    {"name": "schedule", "inputSchema": {"type": "object",
     "properties": {"at": {"type": "string", "format": "date-time"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §7.3 (defined formats) and §7.2.3 (unknown formats are
    annotations); draft-07 Validation §7.3.
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
    if "format" not in walk.keys:
        return
    known = FORMATS.get(dialect, FORMATS["2020-12"])
    for ptr, node, _ in walk.nodes:
        if "format" not in node:
            continue
        fmt = node["format"]
        if not isinstance(fmt, str) or fmt in known:
            continue
        yield ctx.finding(ptr / "format", f"format {json.dumps(fmt)} is not a format JSON Schema {dialect} defines: "
                                          f"validators ignore it and the value is unconstrained{_format_hint(fmt, dialect)}")


@functools.lru_cache(maxsize=256)
def _format_hint(fmt: str, dialect: str) -> str:
    known = FORMATS.get(dialect, FORMATS["2020-12"])
    meant = _FORMAT_ALIASES.get(fmt.lower()) or closest(fmt, known)
    if meant in known:
        return f"; did you mean {json.dumps(meant)}?"
    if fmt in _OPENAPI_FORMATS:
        return " (an OpenAPI format: JSON Schema states it with `type`, bounds or `contentEncoding`)"
    return ""


# ------------------------------------------------------------------ SCH111

_BOUND_PAIRS = (("minLength", "maxLength", "string"), ("minItems", "maxItems", "array"),
                ("minProperties", "maxProperties", "object"), ("minContains", "maxContains", "array"))


_BOUND_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                             *(k for pair in _BOUND_PAIRS for k in pair[:2])})


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numeric_range(node: dict) -> tuple | None:
    """(lower keyword, lower, upper keyword, upper) when the numeric bounds of ``node``
    admit no number, else None. Handles draft-04's boolean exclusive flags."""
    lows, highs = [], []  # (value, exclusive, keyword)
    if _number(node.get("minimum")):
        lows.append((node["minimum"], node.get("exclusiveMinimum") is True, "minimum"))
    if _number(node.get("exclusiveMinimum")):
        lows.append((node["exclusiveMinimum"], True, "exclusiveMinimum"))
    if _number(node.get("maximum")):
        highs.append((node["maximum"], node.get("exclusiveMaximum") is True, "maximum"))
    if _number(node.get("exclusiveMaximum")):
        highs.append((node["exclusiveMaximum"], True, "exclusiveMaximum"))
    for lo, lo_ex, lo_kw in lows:
        for hi, hi_ex, hi_kw in highs:
            if lo > hi or (lo == hi and (lo_ex or hi_ex)):
                return lo_kw, lo, hi_kw, hi
    return None


@rule("SCH111", "contradictory-bounds", severity=Severity.WARNING, scope="slot",
      fix="Swap or correct the bounds so that some value satisfies both")
def contradictory_bounds(slot, ctx):
    """A lower bound above its upper bound: no value of that type can satisfy the schema.

    ## What it does
    Reports `minimum` above `maximum` (or meeting it where either side is exclusive, draft-04's
    boolean `exclusiveMinimum`/`exclusiveMaximum` included), and `minLength` above `maxLength`,
    `minItems` above `maxItems`, `minProperties` above `maxProperties`, `minContains` above
    `maxContains`.

    ## Why is this bad?
    The schema is valid, but every value of the bounded type fails it: a required argument
    can never be given, so the tool cannot be called, and a constrained decoder either rejects
    the schema or loops looking for a value that does not exist. It is almost always a swap or
    a typo.

    ## Example
    ```json
    {"name": "page", "inputSchema": {"type": "object",
     "properties": {"size": {"type": "integer", "minimum": 100, "maximum": 10}}}}
    ```

    ## Use instead
    ```json
    {"name": "page", "inputSchema": {"type": "object",
     "properties": {"size": {"type": "integer", "minimum": 10, "maximum": 100}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.2 (numeric bounds), §6.3 (string length), §6.4
    (array size), §6.5 (object size).
    """
    walk = _read(slot, ctx)
    if walk is None:
        return
    if _BOUND_KEYWORDS.isdisjoint(walk.keys):
        return
    for ptr, node, _ in walk.nodes:
        if _BOUND_KEYWORDS.isdisjoint(node) or len(node.keys() & _BOUND_KEYWORDS) < 2:  # most have no pair
            continue
        found = _numeric_range(node)
        if found is not None:
            lo_kw, lo, hi_kw, hi = found
            yield ctx.finding(ptr / lo_kw, f"`{lo_kw}` {show(lo)} does not fit under `{hi_kw}` {show(hi)}: no "
                                           "number satisfies both, so the value can never be given")
        for lo_kw, hi_kw, kind in _BOUND_PAIRS:
            lo, hi = node.get(lo_kw), node.get(hi_kw)
            if _number(lo) and _number(hi) and lo > hi:
                yield ctx.finding(ptr / lo_kw, f"`{lo_kw}` {show(lo)} is above `{hi_kw}` {show(hi)}: no {kind} "
                                               "satisfies both, so the value can never be given")
