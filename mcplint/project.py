"""The decoder-safe projection: rewrite a tool's schema into one a target can enforce.

``project_schema(schema, profile)`` returns ``(projected, items)``. Every decision comes
from the profile (:mod:`mcplint.profiles`): a keyword or construct the target enforces is
kept; anything else is rewritten into an equivalent form where one exists, and otherwise
removed or narrowed, with one :class:`Item` per change saying what and where (a pointer
into the INPUT schema). Nothing is changed silently.

Kinds of items, from harmless to serious:

* ``rewritten``  an equivalent form (``oneOf`` of disjoint branches -> ``anyOf``, ``allOf``
  merged, references inlined, ``["T", "null"]`` -> ``nullable``): same accepted values.
* ``removed``    an annotation the target refuses (``$schema`` for Gemini's OpenAPI
  dialect): no accepted value changes.
* ``nullable``   an optional property made required and nullable (OpenAI strict): the model
  sends ``null`` where it would have left the key out; treat ``null`` as absent.
* ``weakened``   a constraint the target cannot express was removed or loosened: the model
  can produce values the original rejects, so validate them against the full schema.
* ``narrowed``   the target cannot express something the original allows (an open object
  is closed with ``additionalProperties: false``; recursion unrolled; an untyped value
  given types): the model can no longer produce some valid values.
* ``target-rewrite`` the target itself still changes the schema (what the profile says).
* ``left-out``   no projection keeps the tool usable (a root that is not an object, a
  limit the target enforces): the tool is left out of the output.

Soundness: every value valid under the input is valid under the projection, except where
an item of kind ``nullable`` or ``narrowed`` says otherwise. Work is iterative and bounded
by :class:`mcplint.config.Bounds` (reference expansions, subschemas).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from .profiles.conditions import _disjoint, _types
from .profiles.describe import describe, fill
from .profiles.evaluate import evaluate_slot
from .profiles.facts import _metaschema_error, _recursive_refs, regex_features
from .profiles.loader import load_profile
from .profiles.model import METADATA_KEYWORDS, NON_CONSTRAINING, STANDARD_KEYWORDS, Profile
from .schemawalk import children, subschemas

ORIGIN = "\x00o"  # hidden key on working nodes: the node's pointer in the input schema
KW_ORIGIN = "\x00k"  # hidden key: keyword -> input pointer, for keywords merged in from elsewhere
HIDDEN = (ORIGIN, KW_ORIGIN)

KINDS = ("left-out", "limit", "weakened", "narrowed", "nullable", "shortened", "target-rewrite", "rewritten",
         "removed")
# Kinds that change what the model can send: any of them makes `mcplint project` exit 1.
CHANGES = frozenset({"left-out", "weakened", "narrowed", "nullable", "target-rewrite", "limit", "shortened"})
DEFAULT_UNROLL = 3

_MIN = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_MAX = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
_OBJECT_KWS = ("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
               "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties")
_SCHEMA_ONE = ("items", "additionalProperties", "propertyNames", "contains", "unevaluatedItems",
               "unevaluatedProperties")
_TYPED = ("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const")
_INFER = (("object", ("properties", "additionalProperties", "required", "patternProperties")),
          ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")),
          ("string", ("minLength", "maxLength", "pattern", "format")),
          ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")))


@dataclass
class Item:
    """One change the projection made, or one reason it could not keep a tool."""

    kind: str
    subject: str  # the keyword or construct concerned
    pointer: tuple  # where, in the input: relative to the schema (project_schema) or absolute (documents)
    message: str
    output: list = field(default_factory=list)  # pointers of the affected places in the projected schema
    tool: str | None = None  # documents: the tool's name
    slot: str | None = None  # documents: inputSchema / outputSchema
    node: Any = field(default=None, repr=False, compare=False)  # working node (internal)
    suffix: tuple = field(default=(), repr=False, compare=False)

    @property
    def changes_values(self) -> bool:
        return self.kind in CHANGES

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "subject": self.subject, "pointer": _ptr(self.pointer), "message": self.message,
               "output": [_ptr(p) for p in self.output]}
        if self.tool is not None or self.slot is not None:
            out["tool"], out["slot"] = self.tool, self.slot
        return out


def _ptr(p) -> str:
    return "".join("/" + str(x).replace("~", "~0").replace("/", "~1") for x in p)


def _short(value, limit: int = 60) -> str:
    value = strip(value)
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError, TypeError):
        text = "..."
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _o(node) -> tuple:
    return node.get(ORIGIN, ()) if isinstance(node, dict) else ()


def _ko(node, kw) -> tuple:
    if isinstance(node, dict):
        k = node.get(KW_ORIGIN)
        if k and kw in k:
            return k[kw]
    return _o(node) + (kw,)


def strip(value: Any) -> Any:
    """A copy of a working tree without the hidden bookkeeping keys (iterative: deep
    schemas must not exhaust the stack)."""
    return _strip_iter(value)


def _copy(value: Any) -> Any:
    """A deep copy of JSON data, iteratively."""
    out_root: list = [None]
    stack = [(value, out_root, 0)]
    while stack:
        v, parent, key = stack.pop()
        if isinstance(v, dict):
            new: Any = dict.fromkeys(v)
            parent[key] = new
            stack.extend((x, new, k) for k, x in v.items())
        elif isinstance(v, list):
            new = [None] * len(v)
            parent[key] = new
            stack.extend((x, new, i) for i, x in enumerate(v))
        else:
            parent[key] = v
    return out_root[0]


def _strip_iter(value: Any) -> Any:
    out_root: list = [None]
    stack = [(value, out_root, 0)]
    while stack:
        v, parent, key = stack.pop()
        if isinstance(v, dict):
            new: Any = {}
            parent[key] = new
            for k, x in v.items():
                if k not in HIDDEN:
                    new[k] = None
                    stack.append((x, new, k))
        elif isinstance(v, list):
            new = [None] * len(v)
            parent[key] = new
            for i, x in enumerate(v):
                stack.append((x, new, i))
        else:
            parent[key] = v
    return out_root[0]


class _LeftOut(Exception):
    def __init__(self, subject: str, pointer: tuple, message: str):
        super().__init__(message)
        self.item = Item("left-out", subject, pointer, message)


class _Projector:
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
        text = fill(rule.message, {"keyword": kw, "value": _short(value) if value is not None else "",
                                   "key": kw, "siblings": "", "tool": "", "context": "", "type": ""})
        return text or f"{self.p.display} does not support '{kw}'"

    # ------------------------------------------------------------ the whole slot
    def run(self, schema: Any) -> Any:
        if not isinstance(schema, dict):
            raise _LeftOut("root-not-object", (), f"the schema is {json.dumps(schema)}, not an object schema: "
                                                  "there is nothing to project")
        work = _copy(schema)
        for sub in list(subschemas(work)):
            if isinstance(sub.schema, dict):
                sub.schema[ORIGIN] = sub.pointer
        pristine = _copy(work)
        inv = self.construct("invalid-schema", work, True, schema=schema)
        if inv is not None:
            err = _metaschema_error(schema)
            if err is not None:
                raise _LeftOut("invalid-schema", tuple(err[0]), f"the schema is not valid JSON Schema ({err[1]}); "
                                                                f"{self.p.display} refuses it and no projection can repair it")
        self._index_refs(pristine)
        self._rename_definitions(work)
        if self._needs_inlining(schema):
            work = self._inline_all(work, pristine)
        root = {"": work}
        self._main_pass(root)
        work = root[""]
        self._verify(work)
        return work

    def _index_refs(self, pristine: dict) -> None:
        from .refs import index, resolve

        idx = index(pristine)
        self.idx = idx
        for r in idx.refs:
            if r.keyword != "$ref":
                continue
            res = resolve(r, idx, pristine)
            if res is not None:
                self.ref_at[r.pointer] = res

    def _rename_definitions(self, work: dict) -> None:
        """draft-07 ``definitions`` -> ``$defs`` where only the latter is enforced (exact)."""
        defs = work.get("definitions")
        if not isinstance(defs, dict) or self.enforces("definitions", work, True) or not self.enforces("$defs"):
            return
        if isinstance(work.get("$defs"), dict) and set(work["$defs"]) & set(defs):
            return  # name clash: leave it to the generic handling
        work.setdefault("$defs", {}).update(work.pop("definitions"))
        work.setdefault(KW_ORIGIN, {})["$defs"] = ("definitions",)
        for sub in subschemas(work):
            n = sub.schema
            if isinstance(n, dict) and isinstance(n.get("$ref"), str) and n["$ref"].startswith("#/definitions/"):
                n["$ref"] = "#/$defs/" + n["$ref"][len("#/definitions/"):]
        self.add("rewritten", "definitions", ("definitions",),
                 f"'definitions' renamed to '$defs' and its references rewritten ({self.p.display} reads only "
                 "'$defs'); same accepted values")

    def _needs_inlining(self, schema) -> bool:
        if not self.ref_at and not self.idx.refs:
            return False
        if not self.enforces("$ref") or not self.enforces("$defs"):
            return True
        rec = self.p.constructs.get("recursion")
        if rec is not None and rec.action != "enforce":
            return bool(_recursive_refs(schema, self.idx))
        return False

    def _cut(self, origin: tuple) -> dict:
        return {ORIGIN: origin}

    def _inline_all(self, work: dict, pristine: dict) -> dict:
        """Replace every local $ref by a copy of its target; recursion is unrolled ``self.unroll``
        times and then cut to ``{}`` (reported). Iterative, bounded by max_ref_expansions."""
        limit = self.bounds.max_ref_expansions
        budget_nodes = self.bounds.max_subschemas * 5  # the inlined schema stays within 5x the slot bound
        expansions = nodes = copied = 0
        sizes: dict = {}
        root = {"": work}
        stack: list = [(work, root, "", ())]
        cut_reported: set = set()
        while stack:
            node, parent, key, chain = stack.pop()
            if not isinstance(node, dict):
                continue
            nodes += 1
            if "$ref" in node:
                res = self.ref_at.get(_ko(node, "$ref"))
                ref = node["$ref"]
                if res is None:
                    parent[key] = self._remote(node)
                    continue
                tptr, target = res
                if tptr not in sizes:
                    sizes[tptr] = sum(1 for _ in subschemas(target))
                if chain.count(tptr) >= self.unroll or expansions >= limit or \
                        nodes + copied + sizes[tptr] >= budget_nodes:
                    parent[key] = self._cut(_o(node))
                    if (tptr, chain.count(tptr) >= self.unroll) not in cut_reported:
                        cut_reported.add((tptr, chain.count(tptr) >= self.unroll))
                        if chain.count(tptr) >= self.unroll:
                            rec = self.p.constructs.get("recursion")
                            reason = self.why(rec, "$ref", ref) if rec is not None else \
                                f"{self.p.display} needs references inlined"
                            self.add("weakened", "recursion", _ko(node, "$ref"),
                                     f"the recursion through {ref!r} is unrolled {self.unroll} level(s) deep and "
                                     f"cut there: below that any value is accepted ({reason})")
                        else:
                            self.add("weakened", "$ref", _ko(node, "$ref"),
                                     f"inlining {ref!r} stopped at the expansion bound; below it any value is accepted")
                    continue
                expansions += 1
                copied += sizes[tptr]
                new = _copy(target) if isinstance(target, dict) else target
                sibs = {k: v for k, v in node.items() if k not in ("$ref",) + HIDDEN}
                if sibs:
                    wrapper = {ORIGIN: _o(node), "allOf": [new]}
                    wrapper.update(sibs)
                    new = wrapper
                parent[key] = new
                stack.append((new, parent, key, chain + (tptr,)))
                continue
            for k in ("$defs", "definitions"):
                node.pop(k, None)
            for rel, child, kw in list(children(node)):
                container = node[rel[0]] if len(rel) == 2 else node
                stack.append((child, container, rel[-1], chain))
        if expansions:
            self.add("rewritten", "$ref", (), f"{expansions} reference(s) inlined and $defs removed: "
                                              f"{self.p.display} cannot follow them as written")
        return root[""]

    def _remote(self, node: dict) -> dict:
        ref = node.get("$ref")
        out = {k: v for k, v in node.items() if k != "$ref"}
        self.add("weakened", "remote-ref", _ko(node, "$ref"),
                 f"the reference {ref!r} does not resolve inside the schema and is never retrieved: "
                 "it is removed, so any value is accepted there")
        return out

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
            if seen > cap:
                raise _LeftOut("size", (), f"the schema has more than {cap} subschemas after projection; "
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
            self.add("weakened", "allOf", _o(node), "the combination could not be simplified within bounds; "
                                                     "remaining conjuncts were dropped")
            node.pop("allOf", None)
        if at_root:
            self._root(node)
        self._keywords(node, at_root)
        self._structure(node, at_root, via)
        return node

    # -- equivalent or near-equivalent rewrites, repeated until nothing changes
    def _normalise(self, node: dict, at_root: bool) -> bool:
        if "$ref" in node:
            if _ko(node, "$ref") not in self.ref_at and not self._is_local_ref(node) and \
                    self.p.constructs.get("remote-ref") is not None:
                ref = node.pop("$ref")
                self.add("weakened", "remote-ref", _ko(node, "$ref"),
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
        if "const" in node and not self.enforces("const", node, at_root) and \
                self.enforces("enum", {**node, "enum": [node["const"]]}, at_root):
            c = node.pop("const")
            node["enum"] = [c]
            node.setdefault(KW_ORIGIN, {})["enum"] = _ko(node, "const")
            self.add("rewritten", "const", _ko(node, "const"),
                     f"'const' written as a one-value 'enum' ({self.p.display} has no 'const'); same accepted values")
            return True
        if isinstance(node.get("type"), list) and self.construct("type-array", node, at_root) is not None:
            self._split_type(node)
            return True
        if ("anyOf" in node or "oneOf" in node) and "properties" in node and \
                self.construct("properties-beside-combinator", node, at_root) is not None:
            self._distribute(node)
            return True
        return False

    def _is_local_ref(self, node) -> bool:
        ref = node.get("$ref")
        return isinstance(ref, str) and ref.startswith("#")

    def _inline_one(self, node: dict) -> None:
        res = self.ref_at.get(_ko(node, "$ref"))
        ref = node.pop("$ref")
        if res is None:
            self.add("weakened", "$ref", _ko(node, "$ref"),
                     f"the reference {ref!r} could not be resolved to inline it; it is removed")
            return
        target = _copy(res[1])
        self._merge_into(node, target, "$ref")
        rule = self.p.constructs.get("ref-siblings")
        self.add("rewritten", "ref-siblings", _ko(node, "$ref"),
                 f"the reference {ref!r} is inlined because {self.p.display} ignores keywords beside a $ref "
                 f"({self.why(rule, '$ref') if rule else ''}); same accepted values")

    def _merge_allof(self, node: dict, rule) -> None:
        branches = node.pop("allOf")
        where = _ko(node, "allOf")
        if not isinstance(branches, list):
            self.add("weakened", "allOf", where, "an invalid 'allOf' (not an array) is removed")
            return
        before = len(self.items)
        for b in branches:
            if isinstance(b, dict) and "$ref" in b and "$ref" in node and b["$ref"] != node["$ref"]:
                res = self.ref_at.get(_ko(b, "$ref"))
                if res is not None and isinstance(res[1], dict):
                    b = dict(b)
                    b.pop("$ref")
                    self._merge_into(node, _copy(res[1]), "allOf")
            self._merge_into(node, b, "allOf")
        lost = len(self.items) - before
        self.add("rewritten", "allOf", where,
                 f"the {len(branches)} 'allOf' branch(es) are merged into the schema that holds them "
                 f"({self.why(rule, 'allOf')})" + ("" if not lost else "; see the weakenings listed for what "
                                                                        "could not be merged"))

    def _merge_into(self, dst: dict, src: Any, why: str) -> None:
        """dst := dst AND src, in place. Exact where keywords combine; otherwise dst's value is kept
        and the lost conjunct is reported (dropping a conjunct only ever admits more values)."""
        if src is True or src == {}:
            return
        if src is False:
            self.add("weakened", why, _o(dst), "a branch that accepts nothing ('false') is dropped: the "
                                               "projection accepts values the original rejects")
            return
        if not isinstance(src, dict):
            return
        ap_d, ap_s = "additionalProperties" in dst, "additionalProperties" in src
        pd = set(dst.get("properties") or {}) if isinstance(dst.get("properties"), dict) else set()
        ps = set(src.get("properties") or {}) if isinstance(src.get("properties"), dict) else set()
        if (ap_d and ap_s) or (ap_d and not ps <= pd) or (ap_s and not pd <= ps):
            self.add("weakened", "additionalProperties", _ko(src if ap_s else dst, "additionalProperties"),
                     "merged object schemas: 'additionalProperties' of one part no longer excludes the "
                     "properties named by the other")
        for kw, v in src.items():
            if kw in HIDDEN:
                continue
            if kw not in dst:
                dst[kw] = v
                dst.setdefault(KW_ORIGIN, {})[kw] = _ko(src, kw)
                continue
            d = dst[kw]
            if d == v:
                continue
            if kw in ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas") and \
                    isinstance(d, dict) and isinstance(v, dict):
                for name, s in v.items():
                    d[name] = self._conj(d[name], s) if name in d and kw not in ("$defs", "definitions") else \
                        d.get(name, s)
            elif kw == "required" and isinstance(d, list) and isinstance(v, list):
                dst[kw] = d + [x for x in v if x not in d]
            elif kw == "dependentRequired" and isinstance(d, dict) and isinstance(v, dict):
                for name, lst in v.items():
                    d[name] = list(dict.fromkeys(list(d.get(name, [])) + list(lst)))
            elif kw == "type":
                td = set(d if isinstance(d, list) else [d])
                ts = set(v if isinstance(v, list) else [v])
                both = (td & ts) | ({"integer"} if ("integer" in td and "number" in ts) or
                                    ("number" in td and "integer" in ts) else set())
                if both:
                    order = [t for t in (d if isinstance(d, list) else [d]) + (v if isinstance(v, list) else [v])
                             if t in both]
                    order = list(dict.fromkeys(order))
                    dst[kw] = order[0] if len(order) == 1 else order
                else:
                    self.add("weakened", "type", _ko(src, kw), f"the merged parts require incompatible types "
                                                               f"({_short(d)} and {_short(v)}); only {_short(d)} is kept")
            elif kw in _MIN and _num(d) and _num(v):
                dst[kw] = max(d, v)
            elif kw in _MAX and _num(d) and _num(v):
                dst[kw] = min(d, v)
            elif kw == "enum" and isinstance(d, list) and isinstance(v, list):
                common = [x for x in d if x in v]
                if common:
                    dst[kw] = common
                else:
                    self.add("weakened", "enum", _ko(src, kw), "the merged parts allow no common enum value; "
                                                               "only the first enum is kept")
            elif kw in _SCHEMA_ONE:
                dst[kw] = self._conj(d, v)
            elif kw == "anyOf" and isinstance(d, list) and isinstance(v, list) and len(d) * len(v) <= 16:
                dst[kw] = [self._conj(_copy(a), _copy(b)) for a in d for b in v]
            elif kw in METADATA_KEYWORDS or kw in NON_CONSTRAINING:
                continue
            elif kw == "uniqueItems":
                dst[kw] = bool(d) or bool(v)
            else:
                self.add("weakened", kw, _ko(src, kw),
                         f"'{kw}' ({_short(v)}) conflicts with '{kw}' ({_short(d)}) in the schema it is merged "
                         "into; only the latter is kept")

    def _conj(self, a, b):
        if a is True or a == {}:
            return b
        if b is True or b == {} or a == b:
            return a
        return {ORIGIN: _o(a) or _o(b), "allOf": [a, b]}

    def _oneof_to_anyof(self, node: dict, rule) -> None:
        branches = node.pop("oneOf")
        where = _ko(node, "oneOf")
        exact = _disjoint(strip(branches))
        if "anyOf" in node and isinstance(node["anyOf"], list) and isinstance(branches, list):
            if len(node["anyOf"]) * len(branches) <= 16:
                node["anyOf"] = [self._conj(_copy(a), _copy(b)) for a in node["anyOf"]
                                 for b in branches]
            else:
                self.add("weakened", "oneOf", where, "'oneOf' beside 'anyOf' is too large to combine and is removed")
                return
        else:
            node["anyOf"] = branches
            node.setdefault(KW_ORIGIN, {})["anyOf"] = where
        if exact:
            self.add("rewritten", "oneOf", where, "'oneOf' rewritten to 'anyOf': its branches are provably "
                                                  "disjoint, so both accept the same values")
        else:
            self.add("weakened", "oneOf", where,
                     f"'oneOf' rewritten to 'anyOf' ({self.why(rule, 'oneOf')}): a value matching several "
                     "branches is now accepted; the original requires exactly one")

    def _split_type(self, node: dict) -> None:
        t = node.pop("type")
        types = [x for x in t if isinstance(x, str)]
        nonnull = [x for x in types if x != "null"]
        has_null = "null" in types
        nullable_ok = "nullable" in self.p.keywords and self.enforces("nullable")
        if len(nonnull) <= 1:
            node["type"] = nonnull[0] if nonnull else "null"
            if has_null and nonnull:
                if nullable_ok:
                    node["nullable"] = True
                    self.add("rewritten", "type-array", _ko(node, "type"),
                             f"type {_short(t)} written as type {nonnull[0]!r} with 'nullable: true'; same values")
                    return
                self.add("narrowed", "type-array", _ko(node, "type"),
                         f"type {_short(t)}: {self.p.display} takes one type, so null is no longer accepted")
                return
            self.add("rewritten", "type-array", _ko(node, "type"), f"one-element type {_short(t)} written as a string")
            return
        branches = [{"type": x} for x in nonnull]
        if "anyOf" in node:
            node["anyOf"] = [self._conj(_copy(a), b) for a in node["anyOf"] for b in branches]
        else:
            node["anyOf"] = branches
        if has_null and nullable_ok:
            node["nullable"] = True
        self.add("rewritten" if (not has_null or nullable_ok) else "narrowed", "type-array", _ko(node, "type"),
                 f"type {_short(t)} written as 'anyOf' of single types"
                 + ("" if not has_null or nullable_ok else "; null is no longer accepted"))

    def _distribute(self, node: dict) -> None:
        part = {k: node.pop(k) for k in _OBJECT_KWS if k in node}
        origins = {k: _ko(node, k) for k in part}
        for kw in ("anyOf", "oneOf"):
            if isinstance(node.get(kw), list):
                new = []
                for b in node[kw]:
                    piece = _copy(part)
                    piece[KW_ORIGIN] = dict(origins)
                    if isinstance(b, dict):
                        b = _copy(b)
                        self._merge_into(b, piece, kw)
                        new.append(b)
                    elif b is True:
                        piece[ORIGIN] = _o(node)
                        new.append(piece)
                    else:
                        new.append(b)
                node[kw] = new
        rule = self.p.constructs.get("properties-beside-combinator")
        self.add("rewritten", "properties-beside-combinator", _o(node),
                 f"the object keywords beside the alternatives are moved into each branch "
                 f"({self.why(rule, 'anyOf')}); same accepted values")

    # -- the root of a tool's inputSchema
    def _root(self, node: dict) -> None:
        rno = self.construct("root-not-object", node, True)
        types = _types(node)
        if rno is not None and types != {"object"}:
            if not types and not any(k in node for k in ("anyOf", "oneOf", "enum", "const", "not")):
                node["type"] = "object"
                self.add("rewritten", "root-not-object", _o(node),
                         "'type: object' added at the root: tool arguments are always an object, so the "
                         "accepted arguments are the same")
            elif "object" in types:
                node["type"] = "object"
                self.add("rewritten", "root-not-object", _ko(node, "type"),
                         f"the root type {_short(sorted(types))} narrowed to 'object': tool arguments are always "
                         "an object, so the accepted arguments are the same")
            elif types:
                raise _LeftOut("root-not-object", _ko(node, "type"),
                               f"the root type is {_short(node.get('type'))}, and {self.p.display} requires an "
                               f"object ({self.why(rno, 'type', node.get('type'))}): the tool cannot be projected")

    def _root_combinators(self, node: dict) -> None:
        rc = self.construct("root-combinator", node, True)
        if rc is not None:
            for kw in (rc.keywords or ("anyOf", "oneOf", "allOf")):
                if kw not in node:
                    continue
                if kw in ("anyOf", "oneOf"):
                    self._union_at_root(node, kw, rc)
                elif kw == "allOf":
                    self._merge_allof(node, rc)
                else:
                    v = node.pop(kw)
                    self.add("weakened", kw, _ko(node, kw),
                             f"'{kw}' ({_short(v)}) removed from the root ({self.why(rc, kw)}): the model can "
                             "send arguments it excluded")

    def _union_at_root(self, node: dict, kw: str, rule) -> None:
        branches = node.pop(kw)
        where = _ko(node, kw)
        resolved = []
        for b in branches if isinstance(branches, list) else []:
            if isinstance(b, dict) and "$ref" in b:
                res = self.ref_at.get(_ko(b, "$ref"))
                if res is not None and isinstance(res[1], dict):
                    b = _copy(res[1])
            resolved.append(b)
        if any(not isinstance(b, dict) or (_types(b) and "object" not in _types(b)) for b in resolved):
            if all(b is True or b == {} or (isinstance(b, dict) and (not _types(b) or "object" in _types(b)))
                   for b in resolved):
                pass
            else:
                raise _LeftOut("root-combinator", where,
                               f"the root '{kw}' has branches that are not objects, and {self.p.display} allows "
                               f"no alternatives at the root ({self.why(rule, kw)}): the tool cannot be projected")
        props: dict = {}
        all_names = []
        for b in resolved:
            for name in (b.get("properties") or {}) if isinstance(b, dict) else {}:
                if name not in all_names:
                    all_names.append(name)
        for name in all_names:
            alts = []
            anything = False
            for b in resolved:
                bp = b.get("properties") if isinstance(b, dict) and isinstance(b.get("properties"), dict) else {}
                if name in bp:
                    alts.append(bp[name])
                elif not (isinstance(b, dict) and b.get("additionalProperties") is False):
                    anything = True
            if anything:  # some branch lets this key hold any value: the union cannot constrain it
                props[name] = {ORIGIN: where}
                continue
            uniq = []
            for a in alts:
                if a not in uniq:
                    uniq.append(a)
            props[name] = uniq[0] if len(uniq) == 1 else {ORIGIN: where, "anyOf": uniq}
        reqs = [set(b.get("required") or []) if isinstance(b, dict) and isinstance(b.get("required"), list)
                else set() for b in resolved]
        common = set.intersection(*reqs) if reqs else set()
        merged: dict = {}
        if props:
            merged["properties"] = props
        if common:
            order = [n for b in resolved if isinstance(b, dict) for n in (b.get("required") or []) if n in common]
            merged["required"] = list(dict.fromkeys(order))
        merged[KW_ORIGIN] = {k: where for k in merged}
        self._merge_into(node, merged, kw)
        self.add("weakened", "root-combinator", where,
                 f"the root '{kw}' of {len(resolved)} alternative(s) is merged into one object "
                 f"({self.why(rule, kw)}): properties of every alternative are offered, but which combinations "
                 "are valid is no longer enforced")

    # -- keyword by keyword
    def _keywords(self, node: dict, at_root: bool) -> None:
        for kw in list(node):
            if kw in HIDDEN or kw not in node:
                continue
            value = node[kw]
            r = self.action(kw, node, at_root, None)
            if r is None or r.action == "annotation":
                continue
            if r.action == "enforce":
                if kw == "pattern" and r.regex and isinstance(value, str):
                    self._pattern(node, r)
                continue
            if r.action == "rewrite":
                self.add("target-rewrite", kw, _ko(node, kw),
                         f"{self.p.display} changes '{kw}' ({_short(value)}): {self.why(r, kw, value)}")
                continue
            self._drop_keyword(node, kw, r)

    def _pattern(self, node: dict, r) -> None:
        value = node["pattern"]
        feats = regex_features(value, (r.regex.get("large_repetition") or r).threshold or 100)
        bad = [f for f in feats if f in r.regex and r.regex[f].action in ("reject", "drop") and f != "unanchored"]
        if bad:
            fr = r.regex[bad[0]]
            node.pop("pattern")
            self.add("weakened", "pattern", _ko(node, "pattern"),
                     f"'pattern' {value!r} removed ({self.why(fr, 'pattern', value)}): the model can produce "
                     "strings that do not match it")
            return
        if "unanchored" in feats and "unanchored" in r.regex and r.regex["unanchored"].action != "enforce":
            node["pattern"] = "^[\\s\\S]*(?:" + value + ")[\\s\\S]*$"
            self.add("rewritten", "pattern", _ko(node, "pattern"),
                     f"'pattern' {value!r} wrapped so that {self.p.display}, which matches the whole string, "
                     "keeps JSON Schema's match-anywhere meaning; same accepted values")

    def _drop_keyword(self, node: dict, kw: str, r) -> None:
        value = node.pop(kw)
        where = _ko(node, kw)
        reason = self.why(r, kw, value)
        if kw in NON_CONSTRAINING or kw in METADATA_KEYWORDS or kw in ("$anchor", "$dynamicAnchor", "$vocabulary"):
            self.add("removed", kw, where, f"annotation '{kw}' removed ({reason}); no accepted value changes")
            return
        if kw not in STANDARD_KEYWORDS:
            self.add("removed", kw, where, f"'{kw}' removed ({reason}); it is not a JSON Schema keyword, so no "
                                           "accepted value changes")
            return
        if kw == "additionalProperties" and (value is True or value == {}):
            self.add("removed", kw, where, f"'additionalProperties: {_short(value)}' removed ({reason}); it is the "
                                           "default, so no accepted value changes")
            return
        # a bound the target accepts only in a weaker form: keep the nearest weaker value
        cond = self.p.keyword_rule(kw).when if self.p.keyword_rule(kw) is not None else None
        if cond is not None and cond.value_in and _num(value):
            allowed = [x for x in cond.value_in if _num(x)]
            weaker = [x for x in allowed if x <= value] if kw in _MIN else \
                [x for x in allowed if x >= value] if kw in _MAX else []
            if weaker:
                nv = max(weaker) if kw in _MIN else min(weaker)
                node[kw] = nv
                self.add("weakened", kw, where, f"'{kw}' lowered from {value} to {nv} ({reason}): the model can "
                         f"produce values the original rejects" if kw in _MIN else
                         f"'{kw}' raised from {value} to {nv} ({reason})")
                return
        self.add("weakened", kw, where, f"'{kw}' ({_short(value)}) removed ({reason}): the model can produce "
                                        "values that break it; keep the check in the server")

    # -- object structure, untyped values, arrays
    def _structure(self, node: dict, at_root: bool, via) -> None:
        types = _types(node)
        is_obj = "object" in types or (not types and "properties" in node)
        if is_obj:
            if "properties" not in node and self.construct("object-without-properties", node, at_root) is not None:
                node["properties"] = {}
                self.add("rewritten", "object-without-properties", _o(node),
                         "'properties: {}' added (the target requires it on every object); same accepted values")
            ap = node.get("additionalProperties", None)
            if "additionalProperties" in node and not isinstance(ap, (bool, dict)):
                rule = self.construct("additional-properties-invalid", node, at_root)
                if rule is not None:
                    node.pop("additionalProperties")
                    self.add("weakened", "additionalProperties", _ko(node, "additionalProperties"),
                             f"the invalid 'additionalProperties: {_short(ap)}' is removed")
            if "additionalProperties" not in node:
                rule = self.construct("additional-properties-missing", node, at_root)
                if rule is not None:
                    node["additionalProperties"] = False
                    names = list(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else []
                    self.add("narrowed", "additional-properties-missing", _o(node),
                             "'additionalProperties: false' added: the model can no longer send properties the "
                             "schema does not name" + (" (there are none: only an empty object)" if not names else "")
                             + f" ({self.why(rule, 'additionalProperties')})", node=node,
                             suffix=("additionalProperties",))
            elif ap is not False and isinstance(ap, (bool, dict)):
                rule = self.construct("additional-properties-open", node, at_root, "additionalProperties")
                if rule is not None:
                    node["additionalProperties"] = False
                    names = list(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else []
                    self.add("narrowed", "additional-properties-open", _ko(node, "additionalProperties"),
                             f"'additionalProperties: {_short(ap)}' closed to false: the model can no longer send "
                             "properties the schema does not name" +
                             (" (there are none: only an empty object)" if not names else "")
                             + f" ({self.why(rule, 'additionalProperties', ap)})", node=node,
                             suffix=("additionalProperties",))
            props = node.get("properties")
            if isinstance(props, dict) and self.construct("optional-property", node, at_root) is not None:
                req = node.get("required") if isinstance(node.get("required"), list) else []
                for key in list(props):
                    if key in req:
                        continue
                    props[key] = self._nullable(props[key])
                    self.add("nullable", "optional-property", _o(node) + ("properties", key),
                             f"optional property {key!r} made required and nullable: the model sends null where "
                             "it would leave the key out; treat null as absent", node=node,
                             suffix=("properties", key))
                node["required"] = list(req) + [k for k in props if k not in req]
        if isinstance(node.get("anyOf"), list) and self.construct("anyof-shared-first-key", node, at_root) is not None:
            self._first_keys(node)
        if "array" in types and "items" not in node and "prefixItems" not in node and \
                self.construct("array-without-items", node, at_root) is not None:
            node["items"] = {}
            self.add("rewritten", "array-without-items", _o(node), "'items: {}' added; same accepted values")
        if not at_root and via not in ("$defs", "definitions") and not any(k in node for k in _TYPED) and \
                self.construct("untyped-schema", node, at_root) is not None:
            self._give_type(node)

    def _nullable(self, s):
        if s is True or (isinstance(s, dict) and not any(k for k in s if k not in HIDDEN and
                                                         k not in METADATA_KEYWORDS and k not in NON_CONSTRAINING)):
            return s  # accepts null already
        if not isinstance(s, dict):
            return {"anyOf": [s, {"type": "null"}]}
        if "null" in _types(s) and "enum" not in s and not any(k in s for k in ("anyOf", "oneOf", "allOf", "const",
                                                                               "$ref", "not")):
            return s
        simple = isinstance(s.get("type"), (str, list)) and not any(
            k in s for k in ("anyOf", "oneOf", "allOf", "const", "$ref", "not", "if"))
        if simple:
            t = s["type"]
            if isinstance(t, str):
                s["type"] = [t, "null"] if t != "null" else t
            elif "null" not in t:
                s["type"] = list(t) + ["null"]
            if isinstance(s.get("enum"), list) and None not in s["enum"]:
                s["enum"] = list(s["enum"]) + [None]
            return s
        if list(k for k in s if k not in HIDDEN) == ["anyOf"] and isinstance(s["anyOf"], list):
            if not any(isinstance(b, dict) and _types(b) == {"null"} for b in s["anyOf"]):
                s["anyOf"] = list(s["anyOf"]) + [{"type": "null"}]
            return s
        meta = {k: s.pop(k) for k in list(s) if k in ("description", "title")}
        return {ORIGIN: _o(s), **meta, "anyOf": [s, {"type": "null"}]}

    def _first_keys(self, node: dict) -> None:
        """Give every object branch of an anyOf a distinct first property: branches with the
        fewest properties choose first, each keeping its own first key when it is free."""
        uniq: list = []
        for b in node["anyOf"]:
            if strip(b) not in [strip(u) for u in uniq]:
                uniq.append(b)
        changed = len(uniq) != len(node["anyOf"])
        node["anyOf"] = uniq = self._merge_single_key_branches(uniq) if changed or len(uniq) > 1 else uniq
        changed = changed or len(uniq) != len(node["anyOf"])
        branches = [b for b in node["anyOf"] if isinstance(b, dict) and isinstance(b.get("properties"), dict)
                    and b["properties"]]
        used: set = set()
        for b in sorted(branches, key=lambda b: len(b["properties"])):
            keys = list(b["properties"])
            free = next((k for k in keys if k not in used), keys[0])
            if free != keys[0]:
                b["properties"] = {free: b["properties"][free],
                                   **{k: v for k, v in b["properties"].items() if k != free}}
                changed = True
            used.add(free)
        if changed:
            self.add("rewritten", "anyof-shared-first-key", _ko(node, "anyOf"),
                     "the object branches of 'anyOf' made to start with distinct keys, as the target requires "
                     "(identical branches removed, branches naming one and the same property merged, properties "
                     "reordered); same accepted values, the model emits properties in the new order")

    def _merge_single_key_branches(self, branches: list) -> list:
        """Object branches that name the same single property and agree on everything else
        are one branch whose property is the anyOf of theirs: {a: A} | {a: B} == {a: A|B}."""
        out: list = []
        for b in branches:
            if isinstance(b, dict) and isinstance(b.get("properties"), dict) and len(b["properties"]) == 1:
                rest = strip({k: v for k, v in b.items() if k != "properties"})
                key = next(iter(b["properties"]))
                for o in out:
                    if isinstance(o, dict) and isinstance(o.get("properties"), dict) and \
                            list(o["properties"]) == [key] and strip({k: v for k, v in o.items()
                                                                      if k != "properties"}) == rest:
                        a, c = o["properties"][key], b["properties"][key]
                        if isinstance(a, dict) and list(k for k in a if k not in HIDDEN) == ["anyOf"]:
                            a["anyOf"].append(c)
                        else:
                            o["properties"][key] = {ORIGIN: _o(a), "anyOf": [a, c]}
                        break
                else:
                    out.append(b)
            else:
                out.append(b)
        return out

    def _give_type(self, node: dict) -> None:
        guesses = [t for t, kws in _INFER if any(k in node for k in kws)]
        if len(guesses) == 1:
            node["type"] = guesses[0]
            self.add("narrowed", "untyped-schema", _o(node),
                     f"'type: {guesses[0]}' added (the target needs a type on every schema): values of other "
                     "types, which the original accepted, are no longer accepted", node=node)
            return
        node["anyOf"] = [{"type": t} for t in ("string", "number", "boolean", "object")]
        self.add("narrowed", "untyped-schema", _o(node),
                 "a schema without a type is written as 'anyOf' string, number, boolean or object (the target "
                 "needs a type on every schema): arrays and null are no longer accepted", node=node)

    # ------------------------------------------------------------ checking the result
    def _verify(self, work: dict) -> None:
        """Check the projection with the profile's own evaluator; remove what is still not
        enforced (reported), and give up on the tool where that is impossible."""
        for _ in range(6):
            clean = _strip_iter(work)
            effects = evaluate_slot(self.p, clean)
            todo = []
            for e in effects:
                cons = self.p.consequence(e.rule)
                if cons in ("reject", "drop", "weaken"):
                    todo.append(e)
                elif cons == "rewrite" and e.kind not in ("keyword",):
                    node = _at(work, e.pointer[:-1]) if e.pointer else work
                    self.add("target-rewrite", e.subject, _ko(node, e.pointer[-1]) if e.pointer and
                             isinstance(node, dict) else _o(work), describe(self.p, e))
            if not todo:
                return
            for e in todo:
                if e.kind in ("keyword", "regex") and e.pointer:
                    parent = _at(work, e.pointer[:-1])
                    if isinstance(parent, dict) and e.pointer[-1] == "oneOf" and "anyOf" not in parent and \
                            self.enforces("anyOf"):
                        self._oneof_to_anyof(parent, e.rule)
                        continue
                    if isinstance(parent, dict) and e.pointer[-1] in parent:
                        where = _ko(parent, e.pointer[-1])
                        parent.pop(e.pointer[-1])
                        self.add("weakened", e.subject, where, f"'{e.pointer[-1]}' removed: {describe(self.p, e)}")
                        continue
                node = _at(work, e.pointer) if e.pointer else work
                where = _o(node) if isinstance(node, dict) and ORIGIN in node else tuple(e.pointer)
                raise _LeftOut(e.subject, where, describe(self.p, e) + " The projection cannot repair this, so "
                                                                      "the tool is left out.")
        raise _LeftOut("projection", (), "the projection did not settle within its bounds")

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
        return _strip_iter(work), items


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _at(tree, ptr):
    node = tree
    for part in ptr:
        try:
            node = node[part] if not isinstance(node, list) else node[int(part)]
        except (KeyError, IndexError, TypeError, ValueError):
            return None
    return node


def _as_profile(profile) -> Profile:
    return profile if isinstance(profile, Profile) else load_profile(str(profile))


def project_schema(schema: Any, profile: Profile | str, *, unroll_depth: int = DEFAULT_UNROLL,
                   bounds=None) -> tuple[Any, list[Item]]:
    """Project one schema for ``profile`` (a name, a path to a profile file, or a Profile).

    Returns ``(projected, items)``; ``projected`` is None when the schema cannot be projected
    (then one item of kind ``left-out`` says why). Item pointers are relative to ``schema``.
    """
    from .config import Bounds

    prof = _as_profile(profile)
    pr = _Projector(prof, unroll_depth, bounds or Bounds())
    try:
        work = pr.run(schema)
    except _LeftOut as e:
        return None, pr.finish({})[1] + [e.item]
    return pr.finish(work)


def to_validation_schema(projected: Any, profile: Profile | str) -> Any:
    """The projection in plain JSON Schema, for validating values with a JSON Schema validator:
    a target dialect's own keywords (OpenAPI's ``nullable: true``) are turned into their
    JSON Schema meaning."""
    prof = _as_profile(profile)
    if "nullable" not in prof.keywords or not isinstance(projected, dict):
        return projected
    out = _copy(projected)
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


# ---------------------------------------------------------------- whole documents

@dataclass
class ToolOutcome:
    name: str
    pointer: tuple  # of the tool in the input
    status: str  # exact | changed | left-out


@dataclass
class DocumentProjection:
    data: Any  # the projected document, in the input's shape (None: no tool left)
    items: list  # of Item, pointers absolute into the input document
    tools: list  # of ToolOutcome
    profile: Profile

    @property
    def changed(self) -> bool:
        return any(i.changes_values for i in self.items)

    def counts(self) -> dict:
        out = {k: 0 for k in KINDS}
        for i in self.items:
            out[i.kind] = out.get(i.kind, 0) + 1
        return out


def project_document(doc, profile: Profile | str, *, unroll_depth: int = DEFAULT_UNROLL,
                     bounds=None) -> DocumentProjection:
    """Project every tool of a loaded document; the result keeps the document's shape
    (a tools/list result stays one, a JSON-RPC response stays one, ...)."""
    from .collect import collect
    from .config import Bounds, Config
    from .model import Pointer
    from .profiles.request import evaluate_tool

    prof = _as_profile(profile)
    bounds = bounds or Bounds()
    coll = collect(doc, Config().protocol_versions)
    out = _copy(doc.data)
    items: list[Item] = []
    outcomes: list[ToolOutcome] = []
    leave: list = []
    for tool in coll.tools:
        titems: list[Item] = []
        left = False
        for e in evaluate_tool(prof, tool):
            if e.subject == "tool_description_length":
                target = _at(out, tuple(tool.pointer))
                lim = e.rule.max
                if isinstance(target, dict) and isinstance(target.get("description"), str):
                    target["description"] = target["description"][: max(0, lim - 3)] + "..."
                    titems.append(Item("shortened", "description", tuple(e.pointer),
                                       f"the description is shortened from {e.params.get('count')} to {lim} "
                                       f"characters ({describe(prof, e, tool.name)}); the rest is cut"))
                continue
            if prof.consequence(e.rule) in ("reject", "drop"):
                left = True
                titems.append(Item("left-out", e.subject, tuple(e.pointer), describe(prof, e, tool.name)
                                   + " The projection does not rename tools, so the tool is left out."))
        for slot in tool.slots():
            if slot.kind not in prof.slots:
                continue
            projected, sitems = project_schema(slot.schema, prof, unroll_depth=unroll_depth, bounds=bounds)
            for it in sitems:
                it.pointer = tuple(slot.pointer) + tuple(it.pointer)
                it.slot = slot.kind
            titems += sitems
            if projected is None:
                left = True
            else:
                target = _at(out, tuple(tool.pointer))
                if isinstance(target, dict):
                    target[slot.kind] = projected
        for it in titems:
            it.tool = tool.label
        items += titems
        status = "left-out" if left else "changed" if any(i.changes_values for i in titems) else "exact"
        outcomes.append(ToolOutcome(tool.label, tuple(tool.pointer), status))
        if left:
            leave.append(tuple(tool.pointer))
    for ptr in sorted(leave, key=lambda p: p[-1] if p else 0, reverse=True):
        if not ptr:
            out = None
            break
        container = _at(out, ptr[:-1])
        if isinstance(container, list):
            container.pop(ptr[-1])
    if out is not None and any(o.status != "left-out" for o in outcomes):
        items += _request_items(prof, out, coll, doc)
    items.sort(key=lambda i: i.kind not in ("left-out", "limit"))  # errors first, then in tool order
    return DocumentProjection(out, items, outcomes, prof)


def _request_items(prof: Profile, out, coll, doc) -> list[Item]:
    from .collect import collect
    from .config import Config
    from .load import load_text
    from .profiles.request import evaluate_request

    try:
        c2 = collect(load_text(json.dumps(out), doc.source.origin, "json"), Config().protocol_versions)
    except Exception:  # the projection of a valid document is always collectable; be safe
        return []
    res = []
    for e in evaluate_request(prof, c2.tools, tuple(c2.container)):
        if prof.consequence(e.rule) is None:
            continue
        res.append(Item("limit", e.subject, tuple(coll.container) + (("tools",) if coll.shape != "array" else ()),
                        describe(prof, e) + " (a per-request limit: send fewer tools per request)"))
    return res
