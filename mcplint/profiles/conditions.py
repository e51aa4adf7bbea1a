"""The ``when:`` conditions of profile rules: a registry of named tests (:data:`CONDITIONS`),
:class:`Condition` (the options one ``when:`` gives them) and :func:`holds`.

Each condition is one small function registered with :func:`condition`: its name, the JSON
Schema of its option, a line of documentation, and how it reads in a finding. The
``$defs/condition`` of ``mcplint/data/profile.schema.json`` and the table of conditions in
``docs/profiles.md`` are generated from the registry (:func:`option_schema`, :func:`doc_table`)
and tested against it; a new condition is one function here and its test.

Pure functions of the node (and, for references, the slot's schema); nothing here
depends on which profile asks.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, NamedTuple

from .nodetests import (  # noqa: F401 (NON_CONSTRAINING: re-exported)
    NON_CONSTRAINING, accepts_null, allof_merges, branches_disjoint, has_ref, is_number, is_primitive, numeric_bounds,
    patterns_disjoint, ref_on_cycle, schema_types, tuple_shape,
)
from .nullability import nullability, ref_resolves, wraps_for_null


class Site(NamedTuple):
    """Where a condition is asked: the schema node, the keyword the rule is about (None for a
    construct) and its value, whether the node is the slot's root, the slot's whole schema (for
    references) and the keyword the node was reached through (None when unknown)."""
    node: dict
    keyword: str | None
    value: Any
    at_root: bool
    schema: Any
    via: Any
    facts: Any = None  # the slot's SlotFacts (what is worked out once per slot), when the caller has them


class ConditionKind(NamedTuple):
    name: str
    option: dict  # the JSON Schema of the option a profile gives it
    doc: str  # what it tests, for the profile schema and docs/profiles.md
    test: Callable[[Any, Site], bool]  # (option, site) -> whether the condition holds
    words: Callable[[Any], str]  # how the condition reads in a finding ("" says nothing)
    flag: bool  # the option can only be true: a false one is the same as leaving it out


CONDITIONS: dict[str, ConditionKind] = {}  # in the order `describe` lists them


def condition(name: str, option: dict, doc: str, words: Callable[[Any], str], *, flag: bool = False):
    """Register the decorated ``test(option, site) -> bool`` as the condition ``name``."""
    def register(test: Callable[[Any, Site], bool]) -> Callable[[Any, Site], bool]:
        if name in CONDITIONS:
            raise ValueError(f"condition {name!r} registered twice")
        CONDITIONS[name] = ConditionKind(name, option, doc, test, words, flag)
        return test
    return register


def _yes_no(yes: str, no: str) -> Callable[[Any], str]:
    return lambda option: yes if option else no


def _joined(prefix: str, sep: str = "/") -> Callable[[Any], str]:
    """The words of a list option, said only when the list names something."""
    return lambda option: prefix + sep.join(option) if option else ""


_NAMES = {"type": "array", "items": {"type": "string"}, "minItems": 1}
_BOOL = {"type": "boolean"}
_TRUE = {"const": True}


# --- the keyword's value -------------------------------------------------------------------------

@condition("value_in", {"type": "array", "minItems": 1}, "the keyword's value is one of these",
           lambda o: "value is one of " + ", ".join(json.dumps(v) for v in o))
def _value_in(option, s: Site) -> bool:
    return s.value in option


@condition("value_max", {"type": "number"}, "the keyword's value is a number at most this",
           lambda o: f"value <= {o:g}")
def _value_max(option, s: Site) -> bool:
    return is_number(s.value) and s.value <= option


@condition("count_max", {"type": "integer", "minimum": 0}, "the keyword holds at most this many entries",
           lambda o: f"at most {o} entries")
def _count_max(option, s: Site) -> bool:
    return isinstance(s.value, (list, dict)) and len(s.value) <= option


_VALUES_ARE = {
    "primitive": is_primitive, "string": lambda v: isinstance(v, str),
    "string-or-number": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
    "non-null": lambda v: v is not None,
}


@condition("values_are", {"enum": list(_VALUES_ARE)},
           "the keyword's value (or each entry of it, for a list) is of this kind",
           lambda o: f"values are {o}" if o else "")
def _values_are(option, s: Site) -> bool:
    ok = _VALUES_ARE[option]
    return all(ok(v) for v in (s.value if isinstance(s.value, list) else [s.value]))


# --- the keywords beside it ----------------------------------------------------------------------

@condition("no_sibling", _NAMES, "none of these keywords is beside it", _joined("no sibling "))
def _no_sibling(option, s: Site) -> bool:
    return not any(k in s.node for k in option)


@condition("has_sibling", _NAMES, "at least one of these keywords is beside it", _joined("beside "))
def _has_sibling(option, s: Site) -> bool:
    return any(k in s.node for k in option)


@condition("sibling_false", _NAMES, "one of these keywords is beside it with the value false",
           lambda o: "beside " + " or ".join(f"{k}: false" for k in o) if o else "")
def _sibling_false(option, s: Site) -> bool:
    return any(s.node.get(k) is False for k in option)


@condition("sibling_schema", _NAMES,
           "one of these keywords is beside it with a schema object (not a boolean) as its value",
           lambda o: "beside " + " or ".join(f"{k}: a schema object" for k in o) if o else "")
def _sibling_schema(option, s: Site) -> bool:
    return any(isinstance(s.node.get(k), dict) for k in option)


# --- patterns and types --------------------------------------------------------------------------

@condition("value_pattern", {"type": "string", "format": "regex"},
           "the keyword's value is a string this regex finds a match in",
           lambda o: f"value matches {o}" if o else "")
def _value_pattern(option, s: Site) -> bool:
    return isinstance(s.value, str) and bool(re.search(option, s.value))


@condition("key_pattern", {"type": "string", "format": "regex"},
           "the keyword's value is an object with a key this regex finds a match in (a property name)",
           lambda o: f"a key matches {o}" if o else "")
def _key_pattern(option, s: Site) -> bool:
    return isinstance(s.value, dict) and any(re.search(option, k) for k in s.value)


@condition("type_is", _NAMES, "the schema's type names are all among these (and it names one)",
           _joined("type is "))
def _type_is(option, s: Site) -> bool:
    types = schema_types(s.node)
    return bool(types) and types <= set(option)


# --- references and branches ---------------------------------------------------------------------

@condition("no_ref_inside", _TRUE, "no $ref anywhere inside the keyword's value",
           lambda o: "no $ref inside", flag=True)
def _no_ref_inside(option, s: Site) -> bool:
    return not has_ref(s.value)


@condition("branches_disjoint", _TRUE,
           "the keyword's branches are provably pairwise disjoint (distinct single types, or distinct "
           "consts on a key every branch requires), looking through local $ref branches",
           lambda o: "branches provably disjoint", flag=True)
def _branches_disjoint(option, s: Site) -> bool:
    return branches_disjoint(s.value, s.schema)


@condition("branches_disjoint_inline", _TRUE, "disjoint without looking through $ref branches (llguidance's own check)",
           lambda o: "branches provably disjoint without following $ref", flag=True)
def _branches_disjoint_inline(option, s: Site) -> bool:
    return branches_disjoint(s.value)


# --- where the schema is -------------------------------------------------------------------------

@condition("at_root", _BOOL, "the schema is (or is not) the root of the slot",
           _yes_no("at the root", "not at the root"))
def _at_root(option, s: Site) -> bool:
    return option == s.at_root


@condition("value_integer", _BOOL, "the keyword's value is (or is not) an integer",
           _yes_no("value is an integer", "value is not an integer"))
def _value_integer(option, s: Site) -> bool:
    return (is_number(s.value) and float(s.value).is_integer()) == option


@condition("range_width_max", {"type": "number"},
           "the schema has a lower and an upper bound (minimum/exclusiveMinimum, maximum/exclusiveMaximum) "
           "at most this far apart",
           lambda o: f"a lower and an upper bound at most {o:g} apart")
def _range_width_max(option, s: Site) -> bool:
    lo, hi = numeric_bounds(s.node)
    return lo is not None and hi is not None and hi - lo <= option


@condition("all_required", _BOOL, "every key of properties is (or some key is not) listed in required",
           _yes_no("every key of properties is required", "some key of properties is optional"))
def _all_required(option, s: Site) -> bool:
    node = s.node
    props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    req = {r for r in node["required"] if isinstance(r, str)} if isinstance(node.get("required"), list) else set()
    return all(k in req for k in props) == option


@condition("type_has", _NAMES, "the schema's type names include one of these", _joined("type includes "))
def _type_has(option, s: Site) -> bool:
    return bool(schema_types(s.node) & set(option))


@condition("type_list", _BOOL, "the schema's type is (or is not) a list of two or more names",
           _yes_no("type is a list of types", "type is not a list of types"))
def _type_list(option, s: Site) -> bool:
    t = s.node.get("type")
    return (isinstance(t, list) and len(t) > 1) == option


@condition("via_in", _NAMES, "the schema is reached through one of these keywords (properties, anyOf, items, ...)",
           _joined("reached through "))
def _via_in(option, s: Site) -> bool:
    return s.via in option


# --- tuples --------------------------------------------------------------------------------------

@condition("fixed_length", _BOOL,
           "the node is a tuple (items: [..] or prefixItems) closed after its members, with minItems at least "
           "their number",
           _yes_no("a tuple of fixed length", "a tuple that may be shorter or longer"))
def _fixed_length(option, s: Site) -> bool:
    return tuple_shape(s.node)[2] == option


@condition("closed_tuple", _BOOL,
           "the node is a tuple (items: [..] or prefixItems) after whose members nothing may follow "
           "(items/additionalItems/unevaluatedItems false, or maxItems at most their number)",
           _yes_no("a tuple closed after its members", "a tuple open after its members"))
def _closed_tuple(option, s: Site) -> bool:
    return tuple_shape(s.node)[1] == option


@condition("alone", _BOOL, "the keyword is the only key of its schema (false: it has siblings, whatever they are)",
           _yes_no("the keyword alone in its schema", "the keyword beside other keys"))
def _alone(option, s: Site) -> bool:
    return (len(s.node) == 1) == option


@condition("ref_cycle", _BOOL,
           "the schema's local $ref leads back to its own target (some $ref inside the target, or inside what "
           "that one points at, points at it again), so inlining it never ends",
           _yes_no("a $ref whose target leads back to itself",
                   "a $ref to a target that does not lead back to itself"))
def _ref_cycle(option, s: Site) -> bool:
    return ref_on_cycle(s.node.get("$ref"), s.schema, s.facts) == option


# --- null ----------------------------------------------------------------------------------------

@condition("accepts_null", _BOOL,
           "the schema takes null: a type (array) with null, an anyOf/oneOf branch typed null, null in enum, "
           "const null (for a construct about one property: that property's schema)",
           _yes_no("a schema that accepts null", "a schema that does not accept null"))
def _accepts_null(option, s: Site) -> bool:
    return accepts_null(s.node) == option


@condition("null_as_absent", _BOOL,
           "the schema takes null and has no default but null, so a null stands for leaving it out (for a "
           "construct about one property: that property's schema)",
           _yes_no("a schema that accepts null and has no default but null",
                   "a schema where null does not stand for leaving it out"))
def _null_as_absent(option, s: Site) -> bool:
    return (accepts_null(s.node) and s.node.get("default") is None) == option


@condition("patterns_disjoint", _BOOL,
           "no key can match two of the node's patternProperties patterns, as mcplint proves it: anchored at the "
           "same end, with character sets that share nothing at a position fixed from there (one pattern always is)",
           _yes_no("patternProperties whose patterns are shown to be disjoint",
                   "patternProperties whose patterns may overlap"))
def _patterns_disjoint_holds(option, s: Site) -> bool:
    return patterns_disjoint(s.node) == option


@condition("allof_merges", _BOOL,
           "the schema's one-entry allOf merges into it: the entry (a local $ref chain followed) and the schema "
           "set no keyword both with different values, annotations aside, nor does a closed schema without "
           "properties take an entry with properties (compared as a strict conversion leaves them)",
           _yes_no("a one-entry allOf that merges into its schema",
                   "a one-entry allOf whose schema sets a keyword differently"))
def _allof_merges(option, s: Site) -> bool:
    return allof_merges(s.node, s.schema) == option


# --- the OpenAI Agents SDK for JavaScript's strict conversion (see .nullability) ---------------

@condition("siblings_in", {"type": "array", "items": {"type": "string"}},
           "every key of the schema beside the keyword is one of these (the OpenAI Agents SDK for JavaScript "
           "refuses a $ref or anyOf beside anything but its list of annotations)",
           lambda o: "every other key beside it is one of " + "/".join(o))
def _siblings_in(option, s: Site) -> bool:
    # keys that begin with NUL are a projection's own markers on its working copy, not the schema's
    return all(k == s.keyword or k in option or k[:1] == "\x00" for k in s.node)


@condition("declares_properties", _BOOL, "properties is an object with at least one key (false: absent or empty)",
           _yes_no("properties names at least one key", "properties names no key"))
def _declares_properties(option, s: Site) -> bool:
    props = s.node.get("properties")
    return (isinstance(props, dict) and bool(props)) == option


@condition("nullability", {"enum": ["allows", "disallows", "unknown"]},
           "whether the OpenAI Agents SDK for JavaScript takes the schema to accept null (its own rule: a schema "
           "without type, enum, const or anyOf allows it; for a construct about one property: that property's "
           "schema)",
           lambda o: f"the Agents SDK's nullability of the schema is '{o}'")
def _nullability(option, s: Site) -> bool:
    return nullability(s.node, s.schema) == option


@condition("wraps_null_inside", _BOOL,
           "some branch of the anyOf holds, through local $ref, anyOf, properties or items, an optional property "
           "whose schema does not take null (which the OpenAI Agents SDK for JavaScript would wrap for null)",
           _yes_no("a branch holds an optional property that does not take null",
                   "no branch holds an optional property that does not take null"))
def _wraps_null_inside(option, s: Site) -> bool:
    branches = s.value if isinstance(s.value, list) else ()
    return any(wraps_for_null(b, s.schema) for b in branches) == option


@condition("ref_resolves", _BOOL,
           "the schema's $ref is a '#' pointer that resolves inside the slot (not an anchor, a remote reference or "
           "a dangling pointer)",
           _yes_no("a $ref that resolves inside the schema", "a $ref that does not resolve inside the schema"))
def _ref_resolves(option, s: Site) -> bool:
    return ref_resolves(s.node.get("$ref"), s.schema) == option


# The order `mcplint profile NAME --format json` writes a condition's options in (kept so that
# its output does not change; test_conditions checks it names every condition once).
JSON_ORDER = (
    "value_in", "value_max", "count_max", "values_are", "no_sibling", "has_sibling", "sibling_false", "value_pattern",
    "type_is", "at_root", "value_integer", "range_width_max", "all_required", "type_has", "via_in", "fixed_length",
    "closed_tuple", "alone", "ref_cycle", "allof_merges", "patterns_disjoint", "accepts_null", "null_as_absent",
    "siblings_in", "declares_properties", "nullability", "wraps_null_inside", "ref_resolves", "key_pattern",
    "sibling_schema", "no_ref_inside", "branches_disjoint", "branches_disjoint_inline", "type_list",
)


class Condition:
    """The options of one ``when:``: ``{condition name: option}``, every one of which must hold.
    Built by keyword (``Condition(value_in=(0, 1))``) or from a profile's mapping
    (:meth:`from_dict`); a list option is kept as a tuple, a false flag is left out."""

    __slots__ = ("options", "_tests")

    def __init__(self, **options: Any) -> None:
        unknown = [k for k in options if k not in CONDITIONS]
        if unknown:
            raise TypeError("unknown condition(s): " + ", ".join(unknown))
        kept: dict[str, Any] = {}
        for name, kind in CONDITIONS.items():  # the registry's order
            v = options.get(name)
            if v is None or (kind.flag and not v):
                continue
            kept[name] = True if kind.flag else tuple(v) if isinstance(v, list) else v
        object.__setattr__(self, "options", kept)
        object.__setattr__(self, "_tests", tuple((CONDITIONS[k].test, v) for k, v in kept.items()))

    def __setattr__(self, name, value):
        raise AttributeError("Condition is immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, Condition) and self.options == other.options

    def __hash__(self) -> int:
        return hash(tuple(self.options.items()))

    def __reduce__(self):
        return Condition.from_dict, (self.options,)

    def __repr__(self) -> str:
        return "Condition(" + ", ".join(f"{k}={v!r}" for k, v in self.options.items()) + ")"

    def __getattr__(self, name: str):
        if name in CONDITIONS:
            if name in self.options:
                return self.options[name]
            return False if CONDITIONS[name].flag else None  # not given
        raise AttributeError(name)

    @classmethod
    def from_dict(cls, d: dict) -> "Condition":
        return cls(**d)

    def as_dict(self) -> dict:
        opts = self.options
        return {k: list(opts[k]) if isinstance(opts[k], tuple) else opts[k] for k in JSON_ORDER if k in opts}

    def describe(self) -> str:
        words = (CONDITIONS[k].words(v) for k, v in self.options.items())
        return ", ".join(w for w in words if w)


def holds(c: Condition, node: dict, keyword: str | None, at_root: bool, schema: Any = None, via: Any = None,
          facts: Any = None) -> bool:
    site = Site(node, keyword, node.get(keyword) if keyword is not None else None, at_root, schema, via, facts)
    for test, option in c._tests:
        if not test(option, site):
            return False
    return True


def option_schema() -> dict:
    """``$defs/condition`` of the profile schema, from the registry."""
    props = {k: {**kind.option, "description": kind.doc} for k, kind in CONDITIONS.items()}
    return {"type": "object", "additionalProperties": False, "minProperties": 1, "properties": props}


def doc_table() -> str:
    """The table of conditions in docs/profiles.md, from the registry."""
    rows = ["| condition | option | holds when |", "|---|---|---|"]
    for k, kind in CONDITIONS.items():
        rows.append(f"| `{k}` | {_option_words(kind.option)} | {kind.doc} |")
    return "\n".join(rows) + "\n"


def _option_words(option: dict) -> str:
    if "const" in option:
        return "`true`"
    if "enum" in option:
        return " \\| ".join(f"`{v}`" for v in option["enum"])
    t = option.get("type")
    if t == "array":
        return "list of names" if option.get("items") == {"type": "string"} else "list of values"
    if option.get("format") == "regex":
        return "regex"
    return {"boolean": "`true` \\| `false`", "number": "number", "integer": "integer"}.get(t, str(t))
