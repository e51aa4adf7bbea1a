"""What the evaluator needs to know about a schema slot that does not depend on the
profile: :class:`SlotFacts` (the subschemas walked once, per-node measurements, the
``$ref`` index, references in a cycle, remote references, the first meta-schema error)
and, re-exported from :mod:`.regex_features`, :func:`regex_features` (which constructs a ``pattern`` uses).

Computed once per slot and shared by every profile evaluated on it; a profile's
decisions live in :mod:`.evaluate`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from ..model import Pointer
from ..schemawalk import UNSHARED, Walks
from .constructs import NODE_DETECTORS, PLAIN, REF_SIBLINGS, STRING_ENUM, Construct  # noqa: F401 (re-exported)
from .regex_features import gbnf_escape, has_lookaround, python_re_compiles, regex_features  # noqa: F401 (re-exported)

_LEVEL_KEYS = frozenset({"properties", "items", "additionalProperties", "prefixItems"})
_REF_KEYS = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})
_SCALARS = frozenset({"string", "number", "integer", "boolean", "null"})
# a scalar-typed node with none of these keys has nothing to measure and shows no construct
_LEAF_QUIET = frozenset({"properties", "$defs", "definitions", "enum", "const", "$ref", "$dynamicRef", "$recursiveRef",
                         "additionalProperties", "items", "anyOf", "required"})


class NodeFacts(NamedTuple):
    """Everything about one dict node of a slot that no profile changes (:attr:`SlotFacts.nodes`)."""

    pointer: tuple  # relative to the slot
    node: dict
    via: Any  # the keyword the walk reached the node through (schemawalk's ``via``)
    at_root: bool
    type_value: Any  # ``type`` as written (None when absent)
    type_names: set  # the type names it allows
    is_object: bool
    is_array: bool
    level: int  # nesting level (0 unless an object or an array)
    has_ref: bool  # holds a reference keyword
    properties: int  # how many properties it declares
    string_budget: int  # the length of its property and definition names and of its string values
    enum_is_list: bool
    enum_values: int
    string_enum_values: int  # how many of the enum values are strings
    string_enum_length: int  # their total length
    # The structural constructs it shows. Those of the root itself (``root-not-object``,
    # ``root-combinator``, ``invalid-schema``) depend on the profile's rule and are left to the
    # evaluator.
    constructs: list | tuple


class Measures(NamedTuple):
    """What the slot-wide limits are compared with, over some of a slot's nodes (:func:`measure`)."""

    depth: int  # the deepest nesting level
    deepest: tuple  # the first pointer at that level
    properties: int
    enum_values: int
    string_budget: int
    has_ref: bool  # some node holds a reference keyword


class SlotFacts:
    """What :func:`evaluate_slot` needs to know about one schema slot that does not depend on
    the profile: its subschemas (walked once), its ``$ref`` index, the references that take
    part in a cycle, its first meta-schema error. Computed on first use and shared when the
    same slot is evaluated for several profiles (pass ``facts=`` to :func:`evaluate_slot`).
    The schema must not change while a ``SlotFacts`` for it is in use. ``walks``: where the
    slot is walked (:mod:`mcplint.schemawalk`; a rule's ``ctx.walks`` shares the walk of the
    other rule families)."""

    __slots__ = ("schema", "max_nodes", "walks", "_subs", "_nodes", "_index", "_recursive", "_on_cycle", "_remote", "_meta_err",
                 "complete",
                 "_totals", "_booleans")

    def __init__(self, schema: Any, max_nodes: int = 20_000, walks: Walks = UNSHARED):
        self.schema = schema
        self.max_nodes = max_nodes
        self.walks = walks
        self._subs: list | None = None
        self._nodes: list[NodeFacts] | None = None
        self._index: Any = None
        self._recursive: list | None = None
        self._on_cycle: frozenset | None = None
        self._remote: list | None = None
        self._totals: Measures | None = None
        self._booleans: list | None = None
        self._meta_err: Any = _UNSET
        self.complete = False  # set by nodes: whether it holds every subschema (none beyond max_nodes)

    @property
    def subs(self) -> list:
        """The dict nodes among the first ``max_nodes`` subschemas, as (pointer, node, via)."""
        if self._subs is None:
            self._subs = [(n.pointer, n.node, n.via) for n in self.nodes]
        return self._subs

    @property
    def nodes(self) -> list[NodeFacts]:
        """The :class:`NodeFacts` of each dict node among the first ``max_nodes`` subschemas."""
        if self._nodes is None:
            out: list[NodeFacts] = []
            append = out.append
            max_nodes = self.max_nodes
            walked = self.walks.walk_prefix(self.schema, max_nodes)  # (perhaps the shared walk: read, never changed)
            self.complete = len(walked) <= max_nodes
            for sub in walked[:max_nodes] if not self.complete else walked:
                node = sub[1]
                if not isinstance(node, dict):
                    continue
                rel, via = sub[0], sub[3]
                t = node.get("type")
                if type(t) is str and t in _SCALARS and _LEAF_QUIET.isdisjoint(node):
                    # the usual leaf ({"type": "string", "description": ...}): nothing to count, no construct
                    append(NodeFacts(rel, node, via, rel == (), t, {t}, False, False, 0, False, 0, 0, False, 0, 0, 0,
                                     ()))
                    continue
                types = {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)} \
                    if isinstance(t, list) else set()
                is_obj = "object" in types or (not types and "properties" in node)
                is_arr = "array" in types
                lv = 0
                if is_obj or is_arr:
                    lv = 1
                    for p in rel:
                        if p in _LEVEL_KEYS:
                            lv += 1
                n_props = budget = n_enum = n_strs = strs_total = 0
                props = node.get("properties")
                if isinstance(props, dict):
                    n_props = len(props)
                    budget += sum(map(len, map(str, props)))
                if "$defs" in node or "definitions" in node:
                    for dk in ("$defs", "definitions"):
                        defs = node.get(dk)
                        if isinstance(defs, dict):
                            budget += sum(map(len, map(str, defs)))
                enum = node.get("enum")
                enum_list = isinstance(enum, list)
                if isinstance(enum, list):
                    n_enum = len(enum)
                    strs = [v for v in enum if isinstance(v, str)]
                    n_strs, strs_total = len(strs), sum(map(len, strs))
                    budget += strs_total
                const = node.get("const")
                if isinstance(const, str):
                    budget += len(const)
                at_root = rel == ()
                has_ref = not _REF_KEYS.isdisjoint(node)
                shown = node_constructs(node, rel, t, types, is_obj, is_arr, via, at_root, enum_list)
                append(NodeFacts(rel, node, via, at_root, t, types, is_obj, is_arr, lv, has_ref, n_props, budget,
                                 enum_list, n_enum, n_strs, strs_total, shown))
            self._nodes = out
        return self._nodes

    @property
    def totals(self) -> Measures:
        """The measurements over every node, for a profile that drops no applicator (whose
        subtrees would not count)."""
        if self._totals is None:
            self._totals = measure(self.nodes)
        return self._totals

    @property
    def booleans(self) -> list:
        """(pointer, parameters) of each boolean subschema that is a schema in its own right
        (:func:`.constructs_extra.boolean_subschemas`)."""
        if self._booleans is None:
            from .constructs_extra import boolean_subschemas

            self._booleans = boolean_subschemas(self.schema, self.max_nodes, self.walks)
        return self._booleans

    @property
    def index(self):
        if self._index is None:
            from ..refs import index

            self._index = index(self.schema, self.walks.subschemas(self.schema))
        return self._index

    @property
    def recursive_refs(self) -> list:
        """(pointer, value) of each ``$ref`` that takes part in a cycle."""
        if self._recursive is None:
            schema = self.schema
            from ..refs import ref_cycles

            self._recursive = [(ptr, Pointer(ptr[:-1]).resolve_in(schema)["$ref"])
                               for ptr in ref_cycles(schema, self.index)]
        return self._recursive

    @property
    def on_cycle(self) -> frozenset:
        """The ids of the nodes a ``$ref`` that takes part in a cycle points at (what the
        ``ref_cycle`` condition asks of a node's ``$ref``)."""
        if self._on_cycle is None:
            from ..refs import ref_cycles

            schema = self.schema
            self._on_cycle = frozenset(id(Pointer(t).resolve_in(schema))
                                       for t in set(ref_cycles(schema, self.index).values()))
        return self._on_cycle

    @property
    def remote_refs(self) -> list:
        """Each reference that does not resolve inside the slot."""
        if self._remote is None:
            from ..refs import is_local

            idx = self.index
            self._remote = [r for r in idx.refs if not is_local(r, idx)]
        return self._remote

    @property
    def metaschema_error(self):
        if self._meta_err is _UNSET:
            self._meta_err = first_metaschema_error(self.schema)
        return self._meta_err


_UNSET = object()


def first_metaschema_error(schema: Any):
    """(pointer, python-jsonschema's best-matching message) of a schema the 2020-12 meta-schema
    refuses, else None. Shortcut: most schemas are valid, and the engine in use (the native one,
    which the SCH rules load anyway) says so without importing python-jsonschema, which a run
    with the default client profiles otherwise pays for on every file (see docs/performance.md);
    tests/profiles/test_metaschema_shortcut.py holds it to the plain path."""
    from ..metaschema import is_valid

    if is_valid(schema, "2020-12"):
        return None
    return _metaschema_best_error(schema)


def _metaschema_best_error(schema: Any):
    from jsonschema.exceptions import best_match

    from ..errors import unlink_validation_errors

    errors = list(_metaschema_validator().iter_errors(schema))
    err = best_match(errors)
    found = None if err is None else (tuple(err.absolute_path), err.message)
    unlink_validation_errors(errors)
    return found


@lru_cache(maxsize=1)
def _metaschema_validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


# the keys the constructs of a node that is neither an object nor an array look at, beside its type
_SHAPE_KEYS = frozenset({"additionalProperties", "$ref", "items", "anyOf", "required", "properties"})


def measure(nodes: list[NodeFacts], skip=None) -> Measures:
    """The :class:`Measures` over ``nodes`` (as in :attr:`SlotFacts.nodes`), leaving out the
    nodes ``skip(pointer)`` is true of."""
    levels_max, deepest = 0, ()
    n_props = n_enum = budget = 0
    has_ref = False
    for facts in nodes:
        if skip is not None and skip(facts.pointer):
            continue
        if facts.has_ref:
            has_ref = True
        if facts.level > levels_max:
            levels_max, deepest = facts.level, facts.pointer
        n_props += facts.properties
        budget += facts.string_budget
        if facts.enum_is_list:
            n_enum += facts.enum_values
    return Measures(levels_max, deepest, n_props, n_enum, budget, has_ref)


def node_constructs(node: dict, rel: tuple, t, types: set, is_obj: bool, is_arr: bool, via, at_root: bool,
                    enum_list: bool) -> list[Construct]:
    """The structural constructs one node shows (see :class:`NodeFacts`), each registered node
    construct's function asked in turn (:data:`.constructs.NODE_DETECTORS`). Each construct's
    parameters name the node (``_node``: OpenAI's "context")."""
    out = []
    # most constructs cannot hold at a node that is neither an object nor shaped like one: a leaf
    asked = (True, is_obj, is_obj or not _SHAPE_KEYS.isdisjoint(node), is_arr)
    for on, detect in NODE_DETECTORS:
        if asked[on]:
            found = detect(node, rel, t, types, via, at_root)
            if found:
                out += found
    if enum_list:
        out.append(Construct("large_string_enum", rel + ("enum",), None, STRING_ENUM))
    return out
