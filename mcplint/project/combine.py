"""Projection step: combinators and type arrays, rewritten into forms the target enforces.
``allOf`` merged into its schema, ``oneOf`` written as ``anyOf`` (exact when the branches
are provably disjoint), ``type`` arrays split or made ``nullable``, object keywords beside
``anyOf``/``oneOf`` moved into each branch. What cannot be kept exactly is reported."""

from __future__ import annotations

from typing import Any

from ..profiles.nodetests import branches_disjoint
from ..profiles.model import METADATA_KEYWORDS, NON_CONSTRAINING
from .tree import (HIDDEN, KW_ORIGIN, LOWER_BOUNDS, ORIGIN, UPPER_BOUNDS, copy_tree, is_number,
                   keyword_origin, origin_of, short_text, strip)

_OBJECT_KWS = ("properties", "required", "additionalProperties", "patternProperties", "propertyNames",
               "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties")
_SCHEMA_ONE = ("items", "additionalProperties", "propertyNames", "contains", "unevaluatedItems",
               "unevaluatedProperties")


class CombineSteps:
    def _merge_allof(self, node: dict, rule) -> None:
        branches = node.pop("allOf")
        where = keyword_origin(node, "allOf")
        if not isinstance(branches, list):
            self.add("weakened", "allOf", where, "an invalid 'allOf' (not an array) is removed")
            return
        before = len(self.items)
        for b in branches:
            if isinstance(b, dict) and "$ref" in b and "$ref" in node and b["$ref"] != node["$ref"]:
                res = self.ref_at.get(keyword_origin(b, "$ref"))
                if res is not None and isinstance(res[1], dict):
                    b = dict(b)
                    b.pop("$ref")
                    self._merge_into(node, copy_tree(res[1]), "allOf")
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
            self.add("weakened", why, origin_of(dst), "a branch that accepts nothing ('false') is dropped: the "
                                               "projection accepts values the original rejects")
            return
        if not isinstance(src, dict):
            return
        ap_d, ap_s = "additionalProperties" in dst, "additionalProperties" in src
        pd = set(dst.get("properties") or {}) if isinstance(dst.get("properties"), dict) else set()
        ps = set(src.get("properties") or {}) if isinstance(src.get("properties"), dict) else set()
        if (ap_d and ap_s) or (ap_d and not ps <= pd) or (ap_s and not pd <= ps):
            self.add("weakened", "additionalProperties", keyword_origin(src if ap_s else dst, "additionalProperties"),
                     "merged object schemas: 'additionalProperties' of one part no longer excludes the "
                     "properties named by the other")
        for kw, v in src.items():
            if kw in HIDDEN:
                continue
            if kw not in dst:
                dst[kw] = v
                dst.setdefault(KW_ORIGIN, {})[kw] = keyword_origin(src, kw)
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
                    self.add("weakened", "type", keyword_origin(src, kw), f"the merged parts require incompatible types "
                                                               f"({short_text(d)} and {short_text(v)}); only {short_text(d)} is kept")
            elif kw in LOWER_BOUNDS and is_number(d) and is_number(v):
                dst[kw] = max(d, v)
            elif kw in UPPER_BOUNDS and is_number(d) and is_number(v):
                dst[kw] = min(d, v)
            elif kw == "enum" and isinstance(d, list) and isinstance(v, list):
                common = [x for x in d if x in v]
                if common:
                    dst[kw] = common
                else:
                    self.add("weakened", "enum", keyword_origin(src, kw), "the merged parts allow no common enum value; "
                                                               "only the first enum is kept")
            elif kw in _SCHEMA_ONE:
                dst[kw] = self._conj(d, v)
            elif kw == "anyOf" and isinstance(d, list) and isinstance(v, list) and len(d) * len(v) <= 16:
                dst[kw] = [self._conj(copy_tree(a), copy_tree(b)) for a in d for b in v]
            elif kw in METADATA_KEYWORDS or kw in NON_CONSTRAINING:
                continue
            elif kw == "uniqueItems":
                dst[kw] = bool(d) or bool(v)
            else:
                self.add("weakened", kw, keyword_origin(src, kw),
                         f"'{kw}' ({short_text(v)}) conflicts with '{kw}' ({short_text(d)}) in the schema it is merged "
                         "into; only the latter is kept")

    def _conj(self, a, b):
        if a is True or a == {}:
            return b
        if b is True or b == {} or a == b:
            return a
        return {ORIGIN: origin_of(a) or origin_of(b), "allOf": [a, b]}

    def _oneof_to_anyof(self, node: dict, rule) -> None:
        branches = node.pop("oneOf")
        where = keyword_origin(node, "oneOf")
        exact = branches_disjoint(strip(branches))
        if "anyOf" in node and isinstance(node["anyOf"], list) and isinstance(branches, list):
            if len(node["anyOf"]) * len(branches) <= 16:
                node["anyOf"] = [self._conj(copy_tree(a), copy_tree(b)) for a in node["anyOf"]
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
                    self.add("rewritten", "type-array", keyword_origin(node, "type"),
                             f"type {short_text(t)} written as type {nonnull[0]!r} with 'nullable: true'; same values")
                    return
                self.add("narrowed", "type-array", keyword_origin(node, "type"),
                         f"type {short_text(t)}: {self.p.display} takes one type, so null is no longer accepted")
                return
            self.add("rewritten", "type-array", keyword_origin(node, "type"), f"one-element type {short_text(t)} written as a string")
            return
        branches = [{"type": x} for x in nonnull]
        if "anyOf" in node:
            node["anyOf"] = [self._conj(copy_tree(a), b) for a in node["anyOf"] for b in branches]
        else:
            node["anyOf"] = branches
        if has_null and nullable_ok:
            node["nullable"] = True
        self.add("rewritten" if (not has_null or nullable_ok) else "narrowed", "type-array", keyword_origin(node, "type"),
                 f"type {short_text(t)} written as 'anyOf' of single types"
                 + ("" if not has_null or nullable_ok else "; null is no longer accepted"))

    def _distribute(self, node: dict) -> None:
        part = {k: node.pop(k) for k in _OBJECT_KWS if k in node}
        origins = {k: keyword_origin(node, k) for k in part}
        for kw in ("anyOf", "oneOf"):
            if isinstance(node.get(kw), list):
                new = []
                for b in node[kw]:
                    piece = copy_tree(part)
                    piece[KW_ORIGIN] = dict(origins)
                    if isinstance(b, dict):
                        b = copy_tree(b)
                        self._merge_into(b, piece, kw)
                        new.append(b)
                    elif b is True:
                        piece[ORIGIN] = origin_of(node)
                        new.append(piece)
                    else:
                        new.append(b)
                node[kw] = new
        rule = self.p.constructs.get("properties-beside-combinator")
        self.add("rewritten", "properties-beside-combinator", origin_of(node),
                 f"the object keywords beside the alternatives are moved into each branch "
                 f"({self.why(rule, 'anyOf')}); same accepted values")
