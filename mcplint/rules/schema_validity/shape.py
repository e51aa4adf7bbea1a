"""SCH106, SCH107, SCH108 and SCH111: schemas valid in their dialect whose shape still says too
little (an array of anything, a property of any type) or too much (a required property nobody
declares, bounds no value fits)."""

from __future__ import annotations

from typing import Any

from ...model import Severity
from ...registry import rule
from ...schemawalk import COMBINATORS
from .common import ALL_KEYWORDS, REFS, TYPE_IMPLYING, closest, constrains, show, slot_walk

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
    walk = slot_walk(slot, ctx)
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
    walk = slot_walk(slot, ctx)
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
    `$ref`, `enum`, `const`, `allOf`/`anyOf`/`oneOf`/`not`, `if` with `then` or `else` (an `if`
    alone constrains nothing). `true` (explicitly anything) is MCP108's. When the schema has type-specific keywords (`minLength`, `items`, ...) the
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
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    for ptr, node, sub in walk.nodes:
        if sub[3] != "properties" or (("type" in node or not TYPE_IMPLYING.isdisjoint(node)) and constrains(node)):
            continue
        specific = sorted(k for k in node if k in ALL_KEYWORDS and k not in _ANNOTATIONS and k != "$schema")
        if specific:
            msg = (f"property {show(sub.pointer[-1])} has {', '.join(f'`{k}`' for k in specific[:3])} but no `type`: "
                   "values of any other type are accepted without those checks")
        else:
            msg = f"property {show(sub.pointer[-1])} has no `type`: it accepts any JSON value"
        yield ctx.finding(ptr.full, msg)


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
    walk = slot_walk(slot, ctx)
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
