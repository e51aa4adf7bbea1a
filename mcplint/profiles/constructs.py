"""The structural constructs a profile rules on (its ``constructs:`` entries), registered one
by one: each entry's name, what it detects, where a finding points and the values its
message may use. The profile schema's list of construct names (``$defs/construct_name``) and
the table of constructs in docs/profiles.md are written from this registry by
scripts/gen_profile_vocabulary.py, and a test holds both equal to it.

Each construct is one registered function whose docstring says when a schema shows it. A
construct found at a node is detected by its function (asked once per node and slot, whichever
profile asks: :func:`.facts.node_constructs`); the few found once per slot are detected with
the slot: their functions read the slot's root and :class:`.facts.SlotFacts` (references in a
cycle, remote references, the first meta-schema error, the boolean subschemas of
:mod:`.constructs_extra`) when :mod:`.evaluate` asks them for a profile with a rule for them.
"""

from __future__ import annotations

import json
from typing import Callable, NamedTuple

from .model import NON_CONSTRAINING
from .shapes import JSON_TYPES, items_on_non_array, ref_annotation_siblings, sibling_set, tuple_items, unknown_types

_TYPED = frozenset({"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"})


class Construct(NamedTuple):
    """A structural construct one node shows (:func:`.facts.node_constructs`), in the order the
    evaluator reports them."""

    name: str  # the construct's name in a profile (``constructs:``) or, for STRING_ENUM, its limit's
    pointer: tuple  # where it is reported, relative to the slot
    params: dict | None  # the message's values; ``_node`` names the node (OpenAI's "context")
    # PLAIN (the profile's rule for it applies), REF_SIBLINGS (that rule is decided for ``$ref``
    # first) or STRING_ENUM (the profile's ``large_string_enum`` limit is compared with the
    # node's string values)
    how: int


PLAIN, REF_SIBLINGS, STRING_ENUM = 0, 1, 2
# which nodes a node construct's function is asked about: any dict node that is not a plain
# scalar leaf, an object, a node with a key an object or array construct looks at, an array
ANY, OBJECT, SHAPED, ARRAY = 0, 1, 2, 3


class ConstructSpec(NamedTuple):
    name: str  # as a profile writes it under ``constructs:``
    found: str  # when a schema shows it (its function's docstring: the docs' "found when")
    at: str  # where its finding points
    params: tuple  # the message values it gives (``{value}``, ``{keyword}``, ...) beside ``_node``
    scope: str  # "node": found at any node of a slot; "slot": found once per slot (its root, its references)
    # its function: for a node construct, detect(node, rel, t, types, via, at_root) -> the
    # constructs the node shows (see NODE_DETECTORS), or None; for a slot construct,
    # detect(root, facts, rule) -> (pointer, params) pairs, given the slot root's NodeFacts, the
    # slot's SlotFacts and the profile's rule for it
    detect: Callable
    on: int  # which nodes ``detect`` is asked about (ANY, OBJECT, SHAPED, ARRAY)


CONSTRUCTS: dict[str, ConstructSpec] = {}


def construct(name: str, *, at: str, params: tuple = (), on: int | None = None) -> Callable:
    """Register the construct ``name`` (in the order the schema and the docs list them) with the
    function under it that detects it: at one node (``on`` given: which nodes it is asked about)
    or once per slot (``on`` None)."""
    def register(fn: Callable) -> Callable:
        if name in CONSTRUCTS:
            raise ValueError(f"construct {name!r} registered twice")
        found = " ".join((fn.__doc__ or "").split())
        CONSTRUCTS[name] = ConstructSpec(name, found, at, tuple(params), "slot" if on is None else "node",
                                         fn, ANY if on is None else on)
        return fn
    return register


def _one(name: str, ptr: tuple, params: dict) -> list:
    return [Construct(name, ptr, params, PLAIN)]


@construct("root-not-object", at="the root's type (or the root)", params=("value",))
def _root_not_object(root, facts, rule):
    """the slot's root schema is not typed exactly `object`"""
    if root.type_names == {"object"}:
        return ()
    t, rel = root.type_value, root.pointer
    return [(rel + (("type",) if "type" in root.node else ()), {"value": "None" if t is None else t, "_node": rel})]


@construct("root-combinator", at="the combinator", params=("keyword",))
def _root_combinator(root, facts, rule):
    """the root schema holds anyOf, oneOf or allOf (a rule's `keywords:` narrows which)"""
    rel = root.pointer
    return [(rel + (kw,), {"keyword": kw, "_node": rel}) for kw in (rule.keywords or ("anyOf", "oneOf", "allOf"))
            if kw in root.node]


@construct("object-without-properties", at="the schema", on=OBJECT)
def _object_without_properties(node, rel, t, types, via, at_root):
    """an object schema has no properties keyword"""
    return None if "properties" in node else _one("object-without-properties", rel, {"_node": rel})


@construct("additional-properties-missing", at="the schema", on=OBJECT)
def _additional_properties_missing(node, rel, t, types, via, at_root):
    """an object schema does not say additionalProperties"""
    return None if "additionalProperties" in node else _one("additional-properties-missing", rel, {"_node": rel})


@construct("additional-properties-open", at="additionalProperties", params=("value",), on=OBJECT)
def _additional_properties_open(node, rel, t, types, via, at_root):
    """an object schema's additionalProperties is true or a schema"""
    ap = node.get("additionalProperties", False)
    if ap is False or not isinstance(ap, (bool, dict)):
        return None
    return _one("additional-properties-open", rel + ("additionalProperties",), {"value": json.dumps(ap), "_node": rel})


@construct("additional-properties-invalid", at="additionalProperties", params=("value",), on=SHAPED)
def _additional_properties_invalid(node, rel, t, types, via, at_root):
    """additionalProperties is neither a boolean nor a schema object"""
    if "additionalProperties" not in node or isinstance(node["additionalProperties"], (bool, dict)):
        return None
    return _one("additional-properties-invalid", rel + ("additionalProperties",),
                {"value": json.dumps(node["additionalProperties"]), "_node": rel})


@construct("optional-property", at="the property", params=("key",), on=OBJECT)
def _optional_property(node, rel, t, types, via, at_root):
    """a property that required does not list (one finding per property)"""
    props = node.get("properties")
    if not isinstance(props, dict):
        return None
    req = node.get("required")
    req = req if isinstance(req, list) else ()
    return [Construct("optional-property", rel + ("properties", key), {"key": key, "_node": rel}, PLAIN)
            for key in props if key not in req]


@construct("type-array", at="type", params=("value",), on=ANY)
def _type_array(node, rel, t, types, via, at_root):
    """type is a list of names"""
    return _one("type-array", rel + ("type",), {"value": json.dumps(t), "_node": rel}) if isinstance(t, list) else None


@construct("untyped-schema", at="the schema", params=("key",), on=ANY)
def _untyped_schema(node, rel, t, types, via, at_root):
    """a schema below the root (not a definition) with none of type, anyOf, oneOf, allOf, $ref, enum, const"""
    if at_root or not _TYPED.isdisjoint(node) or via in ("$defs", "definitions"):
        return None
    return _one("untyped-schema", rel, {"key": str(rel[-1]) if rel else "", "_node": rel})


@construct("array-without-items", at="the schema", on=ARRAY)
def _array_without_items(node, rel, t, types, via, at_root):
    """an array schema with neither items nor prefixItems"""
    return None if "items" in node or "prefixItems" in node else _one("array-without-items", rel, {"_node": rel})


@construct("recursion", at="the $ref", params=("value",))
def _recursion(root, facts, rule):
    """a local $ref that leads back into itself, so inlining it never ends"""
    return [(ptr, {"value": value}) for ptr, value in facts.recursive_refs]


@construct("remote-ref", at="the $ref", params=("value",))
def _remote_ref(root, facts, rule):
    """a $ref to another document (not a '#' reference)"""
    return [(r.pointer, {"value": r.value}) for r in facts.remote_refs]


@construct("ref-siblings", at="the first such keyword", params=("siblings", "keyword", "sibling_set"), on=SHAPED)
def _ref_siblings(node, rel, t, types, via, at_root):
    """$ref with a constraining keyword beside it (its rule is decided for $ref first)"""
    if "$ref" not in node:
        return None
    sibs = [k for k in node if k != "$ref" and k not in NON_CONSTRAINING]
    if not sibs:
        return None
    allk = [k for k in node if k != "$ref" and not k.startswith("$")]
    return [Construct("ref-siblings", rel + (sibs[0],), {"siblings": ", ".join(sibs), "keyword": sibs[0],
                                                         "sibling_set": sibling_set(allk), "_node": rel},
                      REF_SIBLINGS)]


@construct("anyof-shared-first-key", at="anyOf", params=("key",), on=SHAPED)
def _anyof_shared_first_key(node, rel, t, types, via, at_root):
    """two anyOf branches whose properties start with the same key"""
    if not isinstance(node.get("anyOf"), list):
        return None
    firsts = [next(iter(b["properties"]), None) for b in node["anyOf"]
              if isinstance(b, dict) and isinstance(b.get("properties"), dict) and b["properties"]]
    dup = sorted({k for k in firsts if k is not None and firsts.count(k) > 1})
    return _one("anyof-shared-first-key", rel + ("anyOf",), {"key": dup[0], "_node": rel}) if dup else None


@construct("properties-beside-combinator", at="the combinator", params=("keyword",), on=SHAPED)
def _properties_beside_combinator(node, rel, t, types, via, at_root):
    """properties beside anyOf or oneOf in the same schema"""
    if "properties" not in node:
        return None
    return [Construct("properties-beside-combinator", rel + (kw,), {"keyword": kw, "_node": rel}, PLAIN)
            for kw in ("anyOf", "oneOf") if kw in node] or None


@construct("invalid-schema", at="the error's place", params=("detail",))
def _invalid_schema(root, facts, rule):
    """the slot does not validate against the JSON Schema 2020-12 meta-schema (the first error)"""
    err = facts.metaschema_error
    return () if err is None else [(tuple(err[0]), {"detail": err[1], "_node": root.pointer})]


@construct("required-undeclared", at="required", params=("keys",), on=SHAPED)
def _required_undeclared(node, rel, t, types, via, at_root):
    """required names a key that properties does not declare"""
    if not (isinstance(node.get("required"), list) and isinstance(node.get("properties"), dict)):
        return None
    missing = [k for k in node["required"] if isinstance(k, str) and k not in node["properties"]]
    return _one("required-undeclared", rel + ("required",), {"keys": ", ".join(missing), "_node": rel}) \
        if missing else None


@construct("ref-annotation-siblings", at="the first annotation", params=("siblings", "keyword", "sibling_set"),
           on=SHAPED)
def _ref_annotation_siblings(node, rel, t, types, via, at_root):
    """$ref with only annotations beside it (description, title, default, ...)"""
    if "$ref" not in node or any(k != "$ref" and k not in NON_CONSTRAINING for k in node):
        return None  # with a constraining sibling, ref-siblings speaks for the node
    annotations = ref_annotation_siblings(node)
    if not annotations:
        return None
    return _one("ref-annotation-siblings", rel + (annotations[0],),
                {"siblings": ", ".join(annotations), "keyword": annotations[0],
                 "sibling_set": sibling_set(annotations), "_node": rel})


@construct("unknown-type", at="type", params=("value",), on=ANY)
def _unknown_type(node, rel, t, types, via, at_root):
    """type names something other than the seven JSON Schema types"""
    if (isinstance(t, str) and t in JSON_TYPES) or "type" not in node:
        return None
    bad = unknown_types(node)
    if not bad:
        return None
    return _one("unknown-type", rel + ("type",),
                {"value": json.dumps(bad[0]) if not isinstance(bad[0], str) else bad[0], "_node": rel})


@construct("items-on-non-array", at="items", params=("value",), on=SHAPED)
def _items_on_non_array(node, rel, t, types, via, at_root):
    """items beside a type other than exactly array (or no type at all)"""
    if not items_on_non_array(node, types):
        return None
    return _one("items-on-non-array", rel + ("items",),
                {"value": json.dumps(node.get("type")) if "type" in node else "none", "_node": rel})


@construct("boolean-subschema", at="the boolean", params=("value",))
def _boolean_subschema(root, facts, rule):
    """true or false where a schema goes, below the root (not additionalProperties,
    unevaluatedProperties/Items, additionalItems, nor items beside prefixItems)"""
    return facts.booleans  # (pointer, params) pairs kept with the slot: the caller copies the params


@construct("tuple-items", at="items", params=("count", "additional", "closed", "value"), on=SHAPED)
def _tuple_items(node, rel, t, types, via, at_root):
    """draft-07's tuple form: items is a list of schemas"""
    params = tuple_items(node)
    if params is None:
        return None
    params["_node"] = rel
    return _one("tuple-items", rel + ("items",), params)


# the order a node's constructs are reported in (the schema lists them in registration order)
_REPORT_ORDER = ("object-without-properties", "additional-properties-missing", "additional-properties-open",
                 "optional-property", "additional-properties-invalid", "type-array", "untyped-schema",
                 "array-without-items", "ref-siblings", "ref-annotation-siblings", "unknown-type",
                 "items-on-non-array", "tuple-items", "anyof-shared-first-key", "required-undeclared",
                 "properties-beside-combinator")
# (on, detect) of each node construct: detect(node, rel, t, types, via, at_root) returns the
# constructs the node shows (a list), or None
NODE_DETECTORS: tuple = tuple((CONSTRUCTS[name].on, CONSTRUCTS[name].detect) for name in _REPORT_ORDER)


def doc_table() -> str:
    """The constructs as the Markdown table docs/profiles.md shows."""
    rows = ["| construct | found when | reported at | message values |", "|---|---|---|---|"]
    for c in CONSTRUCTS.values():
        values = ", ".join(f"`{p}`" for p in c.params) or "-"
        rows.append(f"| `{c.name}` | {c.found} | {c.at} | {values} |")
    return "\n".join(rows) + "\n"


@construct("schema-over-budget", at="the root", params=("bytes", "max", "descriptions", "bare", "still"))
def _schema_over_budget(root, facts, rule):
    """the slot's schema, as the client sends it, is over the rule's `threshold` bytes of compact JSON:
    counted over the keys the rule's `keywords:` names, as a client that keeps only those coerces it
    (all keys, as written, when it names none; see mcplint/profiles/sizes.py). A client that compacts
    such a schema (the Codex CLI) removes every description, then, still over, more (`still` says so)"""
    if not rule.threshold:
        return ()
    from .sizes import measure

    size = measure(facts.schema, rule.keywords)
    if size.bytes <= rule.threshold:
        return ()
    still = "" if size.bare <= rule.threshold else (
        f" Without them it is still {size.bare:,} bytes, so the root's definitions and the schemas nested deepest "
        "are cut as well (to {}): those parts reach the model unconstrained")
    n = size.descriptions
    lost = f"all {n} of its descriptions" if n > 1 else "its one description" if n else "no description (it has none)"
    return [(root.pointer, {"bytes": f"{size.bytes:,}", "max": f"{rule.threshold:,}", "descriptions": lost,
                            "bare": f"{size.bare:,}", "still": still, "_node": root.pointer})]
