"""Tests of one schema node that profile conditions are built from (:mod:`.conditions`):
its type names, bounds, tuple shape, whether its branches are provably disjoint, whether it
takes null, whether a one-entry ``allOf`` merges into it, whether its ``$ref`` is on a cycle.

Pure functions of the node (and, for references, the slot's schema).
"""

from __future__ import annotations

import json

from ..model import Pointer
from .nullability import is_null_type

# Keywords beside a $ref that change no accepted value (openai-agents' list, agents/strict_schema.py).
NON_CONSTRAINING = frozenset({
    "$anchor", "$comment", "$defs", "$schema", "contentEncoding", "contentMediaType", "contentSchema", "default",
    "definitions", "deprecated", "description", "examples", "readOnly", "title", "writeOnly", "$id",
})


def is_primitive(v) -> bool:
    """A JSON scalar: null, a string, a number or a boolean."""
    return v is None or isinstance(v, (str, int, float, bool))


def schema_types(node: dict) -> set:
    """The type names a schema's ``type`` gives (a name or a list of names; empty when absent)."""
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def has_ref(value) -> bool:
    """Whether a ``$ref`` appears anywhere inside ``value`` (at any depth of objects and arrays)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if "$ref" in v:
                return True
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _deref(branch, schema):
    """A branch that is a local '#/...' reference, replaced by its target (one level)."""
    ref = branch.get("$ref") if isinstance(branch, dict) else None
    if isinstance(ref, str) and ref.startswith("#/") and schema is not None:
        try:
            target = Pointer.parse(ref[1:]).resolve_in(schema)
        except (KeyError, IndexError, TypeError, ValueError):  # a dangling reference: judged elsewhere
            return branch
        if isinstance(target, dict):
            return {**target, **{k: v for k, v in branch.items() if k != "$ref"}}
    return branch


def branches_disjoint(branches, schema=None) -> bool:
    """Provably pairwise disjoint: distinct single types, or distinct consts on a shared required key.
    With ``schema``, branches that are local references are looked through (one level)."""
    if not isinstance(branches, list):
        return False
    branches = [_deref(b, schema) for b in branches]
    if not all(isinstance(b, dict) for b in branches):
        return False
    types = [schema_types(b) for b in branches]
    if all(len(t) == 1 for t in types) and len({next(iter(t)) for t in types}) == len(types) and \
            not ({"integer", "number"} <= {next(iter(t)) for t in types}):
        return True
    # discriminator: a key required in every branch with a distinct const/single enum each
    keys = None
    for b in branches:
        req = {r for r in b["required"] if isinstance(r, str)} if isinstance(b.get("required"), list) else set()
        keys = req if keys is None else keys & req
    for key in sorted(keys or ()):
        vals = []
        for b in branches:
            p = (b.get("properties") or {}).get(key) if isinstance(b.get("properties"), dict) else None
            if not isinstance(p, dict):
                break
            if "const" in p:
                vals.append(json.dumps(p["const"], sort_keys=True))
            elif isinstance(p.get("enum"), list) and len(p["enum"]) == 1:
                vals.append(json.dumps(p["enum"][0], sort_keys=True))
            else:
                break
        else:
            if len(set(vals)) == len(vals):
                return True
    return False


def numeric_bounds(node: dict) -> tuple:
    """(lower, upper): the tightest of ``minimum``/``exclusiveMinimum`` and of
    ``maximum``/``exclusiveMaximum`` the node gives (None for a side it leaves open)."""
    lo = [node[k] for k in ("minimum", "exclusiveMinimum") if is_number(node.get(k))]
    hi = [node[k] for k in ("maximum", "exclusiveMaximum") if is_number(node.get(k))]
    return (max(lo) if lo else None), (min(hi) if hi else None)


def is_number(v) -> bool:
    """A JSON number (an int or a float, not a boolean)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def accepts_null(node: dict) -> bool:
    """Whether the schema says null is a value it takes: a type (or type array) with null, an
    anyOf/oneOf branch typed null (pydantic's Optional[X]), null among enum, const null."""
    if is_null_type(node.get("type")):
        return True
    for k in ("anyOf", "oneOf"):
        branches = node.get(k)
        if isinstance(branches, list) and any(isinstance(b, dict) and is_null_type(b.get("type")) for b in branches):
            return True
    return (isinstance(node.get("enum"), list) and None in node["enum"]) or ("const" in node and node["const"] is None)


def patterns_disjoint(node: dict) -> bool:
    """The node's patternProperties patterns are pairwise disjoint, as mcplint.redos.disjoint
    proves it (one pattern, or none, is)."""
    pp = node.get("patternProperties")
    if not isinstance(pp, dict) or len(pp) < 2:
        return True
    from ..redos.disjoint import all_disjoint

    return all_disjoint(pp)


def _converted(node, root, refs: tuple = ()):
    """``node`` as a strict conversion leaves it, at every level the conversion visits (``$defs``,
    ``properties``, ``items``, ``anyOf``, ``oneOf``): typed ``object`` when it has properties, closed
    when it says nothing, every property required, ``oneOf`` appended to ``anyOf``, a null
    ``default`` dropped, a local ``$ref`` with siblings inlined (the siblings win). A one-entry
    ``allOf`` below is left as written."""
    if not isinstance(node, dict):
        return node
    e = dict(node)
    ref = e.get("$ref")
    if isinstance(ref, str) and len(e) > 1 and ref not in refs and (ref == "#" or ref.startswith("#/")):
        target = _resolved(ref, root)
        if isinstance(target, dict):
            del e["$ref"]
            return _converted({**target, **e}, root, (*refs, ref))
    for kw in ("$defs", "definitions", "properties"):
        if isinstance(e.get(kw), dict):
            e[kw] = {k: _converted(v, root, refs) for k, v in e[kw].items()}
    if isinstance(e.get("items"), dict):
        e["items"] = _converted(e["items"], root, refs)
    if isinstance(e.get("anyOf"), list):
        e["anyOf"] = [_converted(b, root, refs) for b in e["anyOf"]]
    if isinstance(e.get("oneOf"), list):
        before = e["anyOf"] if isinstance(e.get("anyOf"), list) else []
        e["anyOf"] = before + [_converted(b, root, refs) for b in e.pop("oneOf")]
    if "default" in e and e["default"] is None:
        del e["default"]
    props = e.get("properties")
    if e.get("type") is None and isinstance(props, dict):
        e["type"] = "object"
    t = e.get("type")
    if (t == "object" or isinstance(t, list) and "object" in t) and "additionalProperties" not in e:
        e["additionalProperties"] = False
    if isinstance(props, dict):
        e["required"] = list(props)
    return e


def _same(a, b) -> bool:
    """JSON equality as the SDK compares values: numbers by value (``1`` is ``1.0``), booleans
    only to booleans, lists in order, objects by their keys."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and \
            all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def allof_merges(node: dict, schema) -> bool:
    """Whether a one-entry ``allOf`` merges into its schema without changing what it accepts:
    the entry (a chain of local ``$ref`` with only annotations beside them followed to its
    target) and the schema set no keyword both with different values, annotations aside, nor
    does a closed schema without properties take an entry that brings some. Both are compared as
    a strict conversion leaves them (:func:`_converted`), with the SDK's equality (:func:`_same`).
    True when that cannot be judged (not one entry, a dangling or circular chain): other
    conditions speak for those."""
    entries = node.get("allOf")
    if not (isinstance(entries, list) and len(entries) == 1 and isinstance(entries[0], dict)):
        return True
    entry, carried, seen = entries[0], {}, set()
    while isinstance(entry.get("$ref"), str) and not (set(entry) - {"$ref"} - NON_CONSTRAINING):
        ref = entry["$ref"]
        if ref in seen or not (ref == "#" or ref.startswith("#/")):
            return True
        seen.add(ref)
        carried = {**{k: v for k, v in entry.items() if k != "$ref"}, **carried}
        target = _resolved(ref, schema)
        if not isinstance(target, dict):
            return True
        entry = target
    entry = _converted({**entry, **carried}, schema)
    parent = _converted({k: v for k, v in node.items() if k != "allOf"}, schema)
    if node.get("additionalProperties") is not False:
        parent.pop("additionalProperties", None)  # the conversion closes the merged schema itself
    elif parent.get("properties") in (None, {}) and isinstance(entry.get("properties"), dict) and entry["properties"]:
        return False  # additionalProperties false sees only its own schema's properties, not the entry's
    for k, v in parent.items():
        if k not in entry or k in NON_CONSTRAINING:
            continue
        if (k == "properties" and v == {}) or (k == "required" and v == []):
            continue
        if not _same(v, entry[k]):
            return False
    return True


def _resolved(ref: str, schema):
    try:
        return Pointer.parse(ref[1:]).resolve_in(schema)
    except (KeyError, IndexError, TypeError, ValueError):  # a dangling reference: judged elsewhere
        return None


def ref_on_cycle(ref, schema, facts=None) -> bool:
    """Whether the local reference ``ref`` (``#`` or ``#/...``) leads back to its own target:
    the target is that of a reference that takes part in a cycle (:func:`mcplint.refs.ref_cycles`),
    so inlining it never ends. ``facts``: the slot's :class:`~.facts.SlotFacts`, which work the
    cycles out once per slot (without them, they are worked out for this call)."""
    if not (isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))) or not isinstance(schema, (dict, list)):
        return False
    if facts is not None and facts.schema is schema:
        on_cycle = facts.on_cycle
    else:
        from ..refs import ref_cycles

        on_cycle = {id(Pointer(t).resolve_in(schema)) for t in set(ref_cycles(schema).values())}
    target = _resolved(ref, schema)
    return target is not None and id(target) in on_cycle


def tuple_shape(node: dict) -> tuple:
    """(members, closed, fixed) of a tuple: draft-07 ``items: [..]`` or 2020-12 ``prefixItems``.
    Closed: nothing may follow its members (``additionalItems``/``items``/``unevaluatedItems`` false,
    or ``maxItems`` at most their number); fixed: closed, and ``minItems`` at least their number."""
    if isinstance(node.get("items"), list):
        n, closed = len(node["items"]), node.get("additionalItems") is False
    elif isinstance(node.get("prefixItems"), list):
        n, closed = len(node["prefixItems"]), node.get("items") is False
    else:
        return 0, False, False
    mx, mn = node.get("maxItems"), node.get("minItems")
    closed = closed or node.get("unevaluatedItems") is False or (is_number(mx) and mx <= n)
    return n, closed, closed and is_number(mn) and mn >= n
