"""One schema's projection: :func:`project_schema` runs a :class:`Projector` over the slot.

The projector holds the profile's decisions (which rule applies to a keyword or
construct at a node) and the list of :class:`~.tree.Item` values, and runs the steps in
order: references (:mod:`.refs`), then one pass over every node (the root, :mod:`.root`;
combinators rewritten until nothing changes, :mod:`.combine`; keywords, :mod:`.keywords`;
structure, :mod:`.structure`), then the check of the result (:mod:`.soundness`), and
gathers the items into the report (:meth:`Projector.finish`).
"""

from __future__ import annotations

import json
from typing import Any

from ..profiles.describe import fill
from ..profiles.facts import first_metaschema_error
from ..profiles.loader import load_profile
from ..profiles.model import NON_CONSTRAINING, Profile
from ..jsonvalue import json_kind
from ..schemawalk import children, subschemas
from .combine import CombineSteps
from .keywords import KeywordSteps
from .refs import RefSteps
from .root import RootSteps
from .soundness import SoundnessStep
from .structure import StructureSteps
from .tuples import TupleSteps, as_2020
from .tree import (DEFAULT_UNROLL, HIDDEN, KINDS, KW_ORIGIN, ORIGIN, Item, LeftOut, budget, charge, copy_tree,
                   keyword_origin, malformed, origin_of, short_text, strip)

# Work is counted in units of about a microsecond: a node copied or stripped is one, a node the
# main pass rewrites NODE_WORK, a node the check of the result evaluates EVAL_WORK. One schema's
# projection may do WORK_PER_SUBSCHEMA units per bounds.max-subschemas (200,000 by default:
# real servers' schemas take at most a few thousand), a whole document DOCUMENT_WORK_PER_SUBSCHEMA.
WORK_PER_SUBSCHEMA = 100
DOCUMENT_WORK_PER_SUBSCHEMA = 500  # all the schemas of one document (project_document)
NODE_WORK = 10  # (and EVAL_WORK, in .soundness)


class Projector(RefSteps, RootSteps, CombineSteps, KeywordSteps, StructureSteps, TupleSteps, SoundnessStep):
    def __init__(self, profile: Profile, unroll_depth: int, bounds):
        self.p = profile
        self.unroll = max(1, int(unroll_depth))
        self.bounds = bounds
        self.items: list[Item] = []
        self.ref_at: dict = {}  # input pointer of a $ref keyword -> (target pointer, pristine target)

    # ------------------------------------------------------------ decisions
    def action(self, kw: str, node: dict, at_root: bool, schema) -> Any:
        rule = self.p.keyword_rule(kw)
        if rule is None:
            return None
        return self.p.decide(rule, node, kw, at_root, schema)

    def construct(self, name: str, node: dict, at_root: bool, keyword: str | None = None, schema=None):
        """The resolved construct rule when it is not enforced, else None."""
        rule = self.p.constructs.get(name)
        if rule is None:
            return None
        if rule.when is not None:
            rule = self.p.decide(rule, node, keyword, at_root, schema)
        return None if rule.action == "enforce" else rule

    def enforces(self, kw: str, node: dict | None = None, at_root: bool = False) -> bool:
        r = self.action(kw, node if node is not None else {kw: None}, at_root, None)
        return r is None or r.action in ("enforce", "annotation")

    def add(self, kind, subject, pointer, message, node=None, suffix=()):
        self.items.append(Item(kind, subject, tuple(pointer), message, node=node, suffix=tuple(suffix)))

    def why(self, rule, kw: str = "", value=None) -> str:
        """The profile's own words for a rule, filled in."""
        text = fill(rule.message, {"keyword": kw, "value": short_text(value) if value is not None else "",
                                   "key": kw, "siblings": "", "tool": "", "context": "", "type": ""})
        return text or f"{self.p.display} does not support '{kw}'"

    # ------------------------------------------------------------ the whole slot
    def run(self, schema: Any) -> Any:
        if not isinstance(schema, dict):
            raise LeftOut("root-not-object", (), f"the schema is {json.dumps(schema)}, not an object schema: "
                                                  "there is nothing to project")
        work = copy_tree(schema)
        for sub in list(subschemas(work)):
            if isinstance(sub.schema, dict):
                sub.schema[ORIGIN] = sub.pointer
        pristine = copy_tree(work)
        bad = malformed(schema)
        if bad is not None:
            raise LeftOut("invalid-schema", bad[0], f"the schema is not valid JSON Schema ({bad[1]}); "
                                                     "there is no projection of it")
        inv = self.construct("invalid-schema", work, True, schema=schema)
        if inv is not None:
            err = first_metaschema_error(as_2020(schema))  # tuple forms are rewritten below, so they do not count
            if err is not None:
                raise LeftOut("invalid-schema", tuple(err[0]), f"the schema is not valid JSON Schema ({err[1]}); "
                                                                f"{self.p.display} refuses it and no projection can repair it")
        self._index_refs(pristine)
        self._rename_definitions(work)
        if self._needs_inlining(schema):
            work = self._inline_all(work, pristine)
        root = {"": work}
        self._main_pass(root)
        work = root[""]
        self._schema_2020(work)
        self._verify(work)
        return work

    # ------------------------------------------------------------ one pass over every node
    def _main_pass(self, root: dict) -> None:
        stack: list = [(root, "", True, None)]
        seen = 0
        cap = self.bounds.max_subschemas * 50
        while stack:
            parent, key, at_root, via = stack.pop()
            node = parent[key]
            if not isinstance(node, dict):
                continue
            seen += 1
            charge(NODE_WORK)
            if seen > cap:
                raise LeftOut("size", (), f"the schema has more than {cap} subschemas after projection; "
                                           "refusing to go on (raise bounds.max-subschemas)")
            node = self._node(node, at_root, via)
            parent[key] = node
            kids = list(children(node))
            for rel, child, kw in reversed(kids):
                container = node[rel[0]] if len(rel) == 2 else node
                stack.append((container, rel[-1], False, kw))

    def _node(self, node: dict, at_root: bool, via) -> dict:
        if at_root:
            self._root_combinators(node)
        for _ in range(64):
            if not self._normalise(node, at_root):
                break
        else:
            self.add("weakened", "allOf", origin_of(node), "the combination could not be simplified within bounds; "
                                                     "remaining conjuncts were dropped")
            node.pop("allOf", None)
        if at_root:
            self._root(node)
        self._branches_required(node, at_root)
        self._keywords(node, at_root)
        self._structure(node, at_root, via)
        return node

    # -- equivalent or near-equivalent rewrites, repeated until nothing changes
    def _normalise(self, node: dict, at_root: bool) -> bool:
        if ("items" in node or "additionalItems" in node or "prefixItems" in node) and self._tuple(node, at_root):
            return True
        if "$ref" in node:
            if keyword_origin(node, "$ref") not in self.ref_at and not self._is_local_ref(node) and \
                    self.p.constructs.get("remote-ref") is not None:
                ref = node.pop("$ref")
                self.add("weakened", "remote-ref", keyword_origin(node, "$ref"),
                         f"the reference {ref!r} does not resolve inside the schema and is never "
                         "retrieved: it is removed, so any value is accepted there")
                return True
            sibs = [k for k in node if k not in ("$ref",) + HIDDEN and k not in NON_CONSTRAINING]
            if sibs and self.construct("ref-siblings", node, at_root, "$ref") is not None:
                self._inline_one(node)
                return True
        if "allOf" in node:
            r = self.action("allOf", node, at_root, None)
            bad = r is not None and r.action not in ("enforce", "annotation")
            rc = self.construct("root-combinator", node, at_root) if at_root else None
            if bad or (rc is not None and "allOf" in (rc.keywords or ("anyOf", "oneOf", "allOf"))):
                self._merge_allof(node, r if bad else rc)
                return True
        if "oneOf" in node:
            r = self.action("oneOf", node, at_root, None)
            if r is not None and r.action not in ("enforce", "annotation") and self.enforces("anyOf"):
                self._oneof_to_anyof(node, r)
                return True
        if "const" in node and not self.enforces("const", node, at_root):
            c = node["const"]
            # a one-value enum; typed by its value where the target takes an enum only beside a type
            # (Gemini's OpenAPI dialect): the same accepted values either way
            typed = None if "type" in node else json_kind(c, integer=True)
            for extra in ({}, {"type": typed} if typed else None):
                if extra is not None and self.enforces("enum", {**node, **extra, "enum": [c]}, at_root):
                    node.pop("const")
                    node.update(extra)
                    node["enum"] = [c]
                    node.setdefault(KW_ORIGIN, {})["enum"] = keyword_origin(node, "const")
                    self.add("rewritten", "const", keyword_origin(node, "const"),
                             f"'const' written as a one-value 'enum' ({self.p.display} has no 'const')"
                             + (f" of type {typed!r}" if extra else "") + "; same accepted values")
                    return True
        if isinstance(node.get("type"), list) and self.construct("type-array", node, at_root) is not None:
            self._split_type(node)
            return True
        if ("anyOf" in node or "oneOf" in node) and "properties" in node and \
                self.construct("properties-beside-combinator", node, at_root) is not None:
            self._distribute(node)
            return True
        return False

    # ------------------------------------------------------------ results
    def finish(self, work: dict) -> tuple[dict, list[Item]]:
        where: dict = {}
        for sub in subschemas(work):
            if isinstance(sub.schema, dict):
                where.setdefault(id(sub.schema), sub.pointer)
        out: dict = {}
        outputs: dict = {}
        for it in self.items:
            if it.node is not None and id(it.node) in where:
                it.output.append(where[id(it.node)] + it.suffix)
            it.node = None
            key = (it.kind, it.subject, it.pointer, it.message)
            if key not in out:
                out[key], outputs[key] = it, set()
            for p in it.output:
                if p not in outputs[key]:
                    outputs[key].add(p)
                    if out[key] is not it:
                        out[key].output.append(p)
        items = sorted(out.values(), key=lambda i: (KINDS.index(i.kind) if i.kind in KINDS else 99,
                                                    [str(x) for x in i.pointer]))
        return strip(work), items


def as_profile(profile) -> Profile:
    """``profile`` as a Profile: a name or a path is loaded."""
    return profile if isinstance(profile, Profile) else load_profile(str(profile))


def project_schema(schema: Any, profile: Profile | str, *, unroll_depth: int = DEFAULT_UNROLL,
                   bounds=None) -> tuple[Any, list[Item]]:
    """Project one schema for ``profile`` (a name, a path to a profile file, or a Profile).

    Returns ``(projected, items)``; ``projected`` is None when the schema cannot be projected
    (then one item of kind ``left-out`` says why). Item pointers are relative to ``schema``.
    """
    from ..config import Bounds

    prof = as_profile(profile)
    bounds = bounds or Bounds()
    pr = Projector(prof, unroll_depth, bounds)
    try:
        with budget(bounds.max_subschemas * WORK_PER_SUBSCHEMA) as spent:
            work = pr.run(schema)
    except LeftOut as e:
        pr.work = spent.used
        return None, pr.finish({})[1] + [e.item]
    pr.work = spent.used
    return pr.finish(work)


def to_validation_schema(projected: Any, profile: Profile | str) -> Any:
    """The projection in plain JSON Schema, for validating values with a JSON Schema validator:
    a target dialect's own keywords (OpenAPI's ``nullable: true``) are turned into their
    JSON Schema meaning."""
    prof = as_profile(profile)
    if "nullable" not in prof.keywords or not isinstance(projected, dict):
        return projected
    out = copy_tree(projected)
    for sub in list(subschemas(out)):
        n = sub.schema
        if isinstance(n, dict) and n.pop("nullable", False) is True:
            t = n.get("type")
            if isinstance(t, str):
                n["type"] = [t, "null"]
            elif isinstance(t, list) and "null" not in t:
                n["type"] = t + ["null"]
            elif "anyOf" in n:
                n["anyOf"] = n["anyOf"] + [{"type": "null"}]
            if isinstance(n.get("enum"), list) and None not in n["enum"]:
                n["enum"] = n["enum"] + [None]
    return out
