"""The ``when:`` conditions of profile rules (:class:`Condition`), and :func:`holds`, which
tests one against a schema node.

Pure functions of the node (and, for references, the slot's schema); nothing here
depends on which profile asks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..model import Pointer
from .nullability import is_null_type, nullability, ref_resolves, wraps_for_null

# Keywords beside a $ref that change no accepted value (openai-agents' list, agents/strict_schema.py).
NON_CONSTRAINING = frozenset({
    "$anchor", "$comment", "$defs", "$schema", "contentEncoding", "contentMediaType", "contentSchema", "default",
    "definitions", "deprecated", "description", "examples", "readOnly", "title", "writeOnly", "$id",
})


@dataclass(frozen=True)
class Condition:
    value_in: tuple | None = None
    value_max: float | None = None
    count_max: int | None = None
    values_are: str | None = None
    no_sibling: tuple | None = None
    has_sibling: tuple | None = None
    sibling_false: tuple | None = None
    value_pattern: str | None = None
    type_is: tuple | None = None
    no_ref_inside: bool = False
    branches_disjoint: bool = False
    branches_disjoint_inline: bool = False
    at_root: bool | None = None
    # added for facts read from the decoders' and providers' source (see _holds_more)
    value_integer: bool | None = None
    range_width_max: float | None = None
    all_required: bool | None = None
    type_has: tuple | None = None
    via_in: tuple | None = None
    fixed_length: bool | None = None
    closed_tuple: bool | None = None
    alone: bool | None = None
    ref_cycle: bool | None = None
    allof_merges: bool | None = None
    patterns_disjoint: bool | None = None
    accepts_null: bool | None = None
    null_as_absent: bool | None = None
    # added for the OpenAI Agents SDK for JavaScript's strict conversion (see .nullability)
    siblings_in: tuple | None = None
    declares_properties: bool | None = None
    nullability: str | None = None
    wraps_null_inside: bool | None = None
    ref_resolves: bool | None = None
    key_pattern: str | None = None  # a key of the keyword's value (a property name) matches
    sibling_schema: tuple | None = None  # one of these keywords is beside it with a schema object as its value

    @classmethod
    def from_dict(cls, d: dict) -> "Condition":
        return cls(
            tuple(d["value_in"]) if "value_in" in d else None, d.get("value_max"), d.get("count_max"),
            d.get("values_are"),
            tuple(d["no_sibling"]) if "no_sibling" in d else None,
            tuple(d["has_sibling"]) if "has_sibling" in d else None,
            tuple(d["sibling_false"]) if "sibling_false" in d else None, d.get("value_pattern"),
            tuple(d["type_is"]) if "type_is" in d else None, bool(d.get("no_ref_inside")),
            bool(d.get("branches_disjoint")), bool(d.get("branches_disjoint_inline")), d.get("at_root"),
            d.get("value_integer"), d.get("range_width_max"), d.get("all_required"),
            tuple(d["type_has"]) if "type_has" in d else None, tuple(d["via_in"]) if "via_in" in d else None,
            d.get("fixed_length"), d.get("closed_tuple"), d.get("alone"), d.get("ref_cycle"),
            d.get("allof_merges"), d.get("patterns_disjoint"), d.get("accepts_null"), d.get("null_as_absent"),
            tuple(d["siblings_in"]) if "siblings_in" in d else None, d.get("declares_properties"),
            d.get("nullability"), d.get("wraps_null_inside"), d.get("ref_resolves"), d.get("key_pattern"),
            tuple(d["sibling_schema"]) if "sibling_schema" in d else None)

    def as_dict(self) -> dict:
        out = {}
        for k in ("value_in", "value_max", "count_max", "values_are", "no_sibling", "has_sibling", "sibling_false", "value_pattern",
                  "type_is", "at_root", "value_integer", "range_width_max", "all_required", "type_has", "via_in", "fixed_length", "closed_tuple", "alone", "ref_cycle",
                  "allof_merges", "patterns_disjoint", "accepts_null", "null_as_absent", "siblings_in",
                  "declares_properties", "nullability", "wraps_null_inside", "ref_resolves", "key_pattern",
                  "sibling_schema"):
            v = getattr(self, k)
            if v is not None:
                out[k] = list(v) if isinstance(v, tuple) else v
        if self.no_ref_inside:
            out["no_ref_inside"] = True
        if self.branches_disjoint:
            out["branches_disjoint"] = True
        if self.branches_disjoint_inline:
            out["branches_disjoint_inline"] = True
        return out

    def describe(self) -> str:
        parts = []
        if self.value_in is not None:
            parts.append("value is one of " + ", ".join(json.dumps(v) for v in self.value_in))
        if self.value_max is not None:
            parts.append(f"value <= {self.value_max:g}")
        if self.count_max is not None:
            parts.append(f"at most {self.count_max} entries")
        if self.values_are:
            parts.append(f"values are {self.values_are}")
        if self.no_sibling:
            parts.append("no sibling " + "/".join(self.no_sibling))
        if self.has_sibling:
            parts.append("beside " + "/".join(self.has_sibling))
        if self.sibling_false:
            parts.append("beside " + " or ".join(f"{k}: false" for k in self.sibling_false))
        if self.sibling_schema:
            parts.append("beside " + " or ".join(f"{k}: a schema object" for k in self.sibling_schema))
        if self.value_pattern:
            parts.append(f"value matches {self.value_pattern}")
        if self.key_pattern:
            parts.append(f"a key matches {self.key_pattern}")
        if self.type_is:
            parts.append("type is " + "/".join(self.type_is))
        if self.no_ref_inside:
            parts.append("no $ref inside")
        if self.branches_disjoint:
            parts.append("branches provably disjoint")
        if self.branches_disjoint_inline:
            parts.append("branches provably disjoint without following $ref")
        if self.at_root is not None:
            parts.append("at the root" if self.at_root else "not at the root")
        if self.value_integer is not None:
            parts.append("value is an integer" if self.value_integer else "value is not an integer")
        if self.range_width_max is not None:
            parts.append(f"a lower and an upper bound at most {self.range_width_max:g} apart")
        if self.all_required is not None:
            parts.append("every key of properties is required" if self.all_required
                         else "some key of properties is optional")
        if self.type_has:
            parts.append("type includes " + "/".join(self.type_has))
        if self.via_in:
            parts.append("reached through " + "/".join(self.via_in))
        if self.fixed_length is not None:
            parts.append("a tuple of fixed length" if self.fixed_length else "a tuple that may be shorter or longer")
        if self.closed_tuple is not None:
            parts.append("a tuple closed after its members" if self.closed_tuple else "a tuple open after its members")
        if self.alone is not None:
            parts.append("the keyword alone in its schema" if self.alone else "the keyword beside other keys")
        if self.ref_cycle is not None:
            parts.append("a $ref whose target leads back to itself" if self.ref_cycle else "a $ref to a target that does not lead back to itself")
        if self.accepts_null is not None:
            parts.append("a schema that accepts null" if self.accepts_null else "a schema that does not accept null")
        if self.null_as_absent is not None:
            parts.append("a schema that accepts null and has no default but null" if self.null_as_absent
                         else "a schema where null does not stand for leaving it out")
        if self.patterns_disjoint is not None:
            parts.append("patternProperties whose patterns are shown to be disjoint" if self.patterns_disjoint
                         else "patternProperties whose patterns may overlap")
        if self.allof_merges is not None:
            parts.append("a one-entry allOf that merges into its schema" if self.allof_merges
                         else "a one-entry allOf whose schema sets a keyword differently")
        if self.siblings_in is not None:
            parts.append("every other key beside it is one of " + "/".join(self.siblings_in))
        if self.declares_properties is not None:
            parts.append("properties names at least one key" if self.declares_properties
                         else "properties names no key")
        if self.nullability is not None:
            parts.append(f"the Agents SDK's nullability of the schema is '{self.nullability}'")
        if self.wraps_null_inside is not None:
            parts.append("a branch holds an optional property that does not take null" if self.wraps_null_inside
                         else "no branch holds an optional property that does not take null")
        if self.ref_resolves is not None:
            parts.append("a $ref that resolves inside the schema" if self.ref_resolves
                         else "a $ref that does not resolve inside the schema")
        return ", ".join(parts)


def _is_primitive(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _types(node: dict) -> set:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _has_ref(value) -> bool:
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


def _disjoint(branches, schema=None) -> bool:
    """Provably pairwise disjoint: distinct single types, or distinct consts on a shared required key.
    With ``schema``, branches that are local references are looked through (one level)."""
    if not isinstance(branches, list):
        return False
    branches = [_deref(b, schema) for b in branches]
    if not all(isinstance(b, dict) for b in branches):
        return False
    types = [_types(b) for b in branches]
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


def _bounds(node: dict) -> tuple:
    lo = [node[k] for k in ("minimum", "exclusiveMinimum") if _is_number(node.get(k))]
    hi = [node[k] for k in ("maximum", "exclusiveMaximum") if _is_number(node.get(k))]
    return (max(lo) if lo else None), (min(hi) if hi else None)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _holds_more(c: Condition, node: dict, value, via, schema=None, keyword=None) -> bool:
    """The conditions added for the second round of provider facts (kept apart from the
    original ones so each stays a small, separately testable test of the node)."""
    if c.value_integer is not None:
        is_int = _is_number(value) and float(value).is_integer()
        if is_int != c.value_integer:
            return False
    if c.range_width_max is not None:
        lo, hi = _bounds(node)
        if lo is None or hi is None or hi - lo > c.range_width_max:
            return False
    if c.all_required is not None:
        props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
        req = set(r for r in node["required"] if isinstance(r, str)) if isinstance(node.get("required"), list) else set()
        if all(k in req for k in props) != c.all_required:
            return False
    if c.type_has is not None and not (_types(node) & set(c.type_has)):
        return False
    if c.via_in is not None and via not in c.via_in:
        return False
    if c.fixed_length is not None and _tuple_shape(node)[2] != c.fixed_length:
        return False
    if c.closed_tuple is not None and _tuple_shape(node)[1] != c.closed_tuple:
        return False
    if c.alone is not None and (len(node) == 1) != c.alone:
        return False
    if c.ref_cycle is not None and ref_on_cycle(node.get("$ref"), schema) != c.ref_cycle:
        return False
    if c.allof_merges is not None and allof_merges(node, schema) != c.allof_merges:
        return False
    if c.patterns_disjoint is not None and _patterns_disjoint(node) != c.patterns_disjoint:
        return False
    if c.accepts_null is not None and accepts_null(node) != c.accepts_null:
        return False
    if c.null_as_absent is not None and (accepts_null(node) and node.get("default") is None) != c.null_as_absent:
        return False
    if c.siblings_in is not None and any(k != keyword and k not in c.siblings_in and k[:1] != "\x00" for k in node):
        # (keys that begin with NUL are a projection's own markers on its working copy, not the schema's)
        return False
    if c.declares_properties is not None and \
            (isinstance(node.get("properties"), dict) and bool(node["properties"])) != c.declares_properties:
        return False
    if c.nullability is not None and nullability(node, schema) != c.nullability:
        return False
    if c.wraps_null_inside is not None and \
            any(wraps_for_null(b, schema) for b in (value if isinstance(value, list) else ())) != c.wraps_null_inside:
        return False
    if c.ref_resolves is not None and ref_resolves(node.get("$ref"), schema) != c.ref_resolves:
        return False
    return True


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


def _patterns_disjoint(node: dict) -> bool:
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


_CYCLES: dict = {}  # id(slot schema) -> (the schema, ids of the nodes that are targets of a cycle)


def _resolved(ref: str, schema):
    try:
        return Pointer.parse(ref[1:]).resolve_in(schema)
    except (KeyError, IndexError, TypeError, ValueError):  # a dangling reference: judged elsewhere
        return None


def ref_on_cycle(ref, schema) -> bool:
    """Whether the local reference ``ref`` (``#`` or ``#/...``) leads back to its own target:
    the target is that of a reference that takes part in a cycle (:func:`mcplint.refs.ref_cycles`),
    so inlining it never ends. The cycles are worked out once per slot."""
    if not (isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))) or not isinstance(schema, (dict, list)):
        return False
    hit = _CYCLES.get(id(schema))
    if hit is None or hit[0] is not schema:
        from ..refs import ref_cycles

        if len(_CYCLES) > 64:
            _CYCLES.clear()
        on_cycle = {id(Pointer(t).resolve_in(schema)) for t in set(ref_cycles(schema).values())}
        hit = _CYCLES[id(schema)] = (schema, on_cycle)
    target = _resolved(ref, schema)
    return target is not None and id(target) in hit[1]


def _tuple_shape(node: dict) -> tuple:
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
    closed = closed or node.get("unevaluatedItems") is False or (_is_number(mx) and mx <= n)
    return n, closed, closed and _is_number(mn) and mn >= n


def holds(c: Condition, node: dict, keyword: str | None, at_root: bool, schema: Any = None, via: Any = None) -> bool:
    value = node.get(keyword) if keyword is not None else None
    if c.value_in is not None and value not in c.value_in:
        return False
    if c.value_max is not None and not (isinstance(value, (int, float)) and not isinstance(value, bool)
                                        and value <= c.value_max):
        return False
    if c.count_max is not None and not (isinstance(value, (list, dict)) and len(value) <= c.count_max):
        return False
    if c.values_are is not None:
        vals = value if isinstance(value, list) else [value]
        ok = {"primitive": _is_primitive, "string": lambda v: isinstance(v, str),
              "string-or-number": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
              "non-null": lambda v: v is not None}[c.values_are]
        if not all(ok(v) for v in vals):
            return False
    if c.no_sibling is not None and any(s in node for s in c.no_sibling):
        return False
    if c.has_sibling is not None and not any(s in node for s in c.has_sibling):
        return False
    if c.sibling_false is not None and not any(node.get(s) is False for s in c.sibling_false):
        return False
    if c.sibling_schema is not None and not any(isinstance(node.get(s), dict) for s in c.sibling_schema):
        return False
    if c.value_pattern is not None and not (isinstance(value, str) and re.search(c.value_pattern, value)):
        return False
    if c.key_pattern is not None and not (isinstance(value, dict) and any(re.search(c.key_pattern, k) for k in value)):
        return False
    if c.type_is is not None and not (_types(node) and _types(node) <= set(c.type_is)):
        return False
    if c.no_ref_inside and _has_ref(value):
        return False
    if c.branches_disjoint and not _disjoint(value, schema):
        return False
    if c.branches_disjoint_inline and not _disjoint(value):
        return False
    if c.at_root is not None and c.at_root != at_root:
        return False
    return _holds_more(c, node, value, via, schema, keyword)
