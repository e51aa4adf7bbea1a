"""The evaluator: every non-enforced decision of a profile on one schema slot.

:func:`evaluate_slot` walks the slot's :class:`~.facts.SlotFacts` (profile-independent)
with a profile's :mod:`compiled <.compiled>` rules and returns :class:`Effect` values
(where, what, which resolved rule). Tool-level and request-level facts are in
:mod:`.request`; the words for an effect are in :mod:`.describe`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .compiled import compiled
from .constructs_extra import boolean_subschemas
from .regex_dialects import DIALECT_FEATURES, dialect_features
from .conditions import _types
from .facts import _UNSET, SlotFacts, regex_features
from .model import NON_CONSTRAINING, Profile
from .shapes import SHAPES, additional_items_moot, shape_effects, sibling_set


@dataclass(frozen=True)
class Effect:
    pointer: tuple  # relative to the slot (schema effects) or absolute (tool/request effects)
    subject: str  # the keyword, construct or limit name
    kind: str  # keyword | regex | construct | limit | tool_name
    rule: Any  # the resolved Rule / Limit / ToolName
    params: dict = field(default_factory=dict)  # values for message templates


_APPLICATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
                          "patternProperties", "propertyNames", "contains", "unevaluatedItems",
                          "unevaluatedProperties", "additionalProperties", "prefixItems", "additionalItems",
                          "dependencies", "contentSchema"})


def _type_word(node: dict) -> str:
    t = sorted(_types(node) - {"null"})
    return t[0] if t else "unknown"


_TYPED = ("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const")


def evaluate_slot(profile: Profile, schema: Any, max_nodes: int = 20_000, *,
                  facts: SlotFacts | None = None, routes: bool = True) -> list[Effect]:
    """Every non-enforced decision of ``profile`` on one schema slot, in document order.

    ``facts`` (a :class:`SlotFacts` for this ``schema`` and ``max_nodes``) lets several
    profiles share one walk of the slot. A profile with ``fallback`` routes is judged as
    :mod:`.fallback` says (``routes=False``: as itself only)."""
    effects: list[Effect] = []
    if not isinstance(schema, dict):
        return effects
    if routes and profile.fallback:
        from .fallback import routed_effects
        return routed_effects(profile, schema, max_nodes, facts, evaluate_slot, Effect)
    if facts is None or facts.schema is not schema or facts.max_nodes != max_nodes:
        facts = SlotFacts(schema, max_nodes)
    comp = compiled(profile)
    kwtab = comp.keywords
    compile_kw = comp.keyword
    decide = profile.decide
    append = effects.append
    cons = profile.constructs
    c_root_not_object = cons.get("root-not-object")
    c_root_comb = cons.get("root-combinator")
    c_invalid = cons.get("invalid-schema")
    c_no_props = cons.get("object-without-properties")
    c_ap_missing = cons.get("additional-properties-missing")
    c_ap_open = cons.get("additional-properties-open")
    c_optional = cons.get("optional-property")
    c_ap_invalid = cons.get("additional-properties-invalid")
    c_type_array = cons.get("type-array")
    c_untyped = cons.get("untyped-schema")
    c_no_items = cons.get("array-without-items")
    c_ref_sibs = cons.get("ref-siblings")
    c_shared_first = cons.get("anyof-shared-first-key")
    c_props_comb = cons.get("properties-beside-combinator")
    c_req_undeclared = cons.get("required-undeclared")
    lim_large_enum = profile.limits.get("large_string_enum")
    any_shape = any(c in cons for c in SHAPES)

    def make(ptr, subject, rule, params):
        return Effect(ptr, subject, "construct", rule, params)

    levels_max = 0
    deepest: tuple = ()
    n_props = n_enum = budget = 0
    has_ref = False
    dead: list = []  # subtrees under an ignored (dropped) applicator: their contents constrain nothing
    # Under a *rejected* applicator the walk goes on and every further rejection is reported in
    # the same pass, so fixing the outer one does not merely uncover the next at the next run;
    # what else the target would do there (ignore, rewrite) is moot and is left out.
    rejected: list = []
    miss = _UNSET
    for (rel, node, via, at_root, t, types, is_obj, is_arr, lv, ref_here, node_props, node_budget,
         enum_list, node_enum, n_strs, strs_total) in facts.nodes:
        if dead and any(rel[:len(d)] == d for d in dead):
            continue
        first = len(effects)
        if ref_here:
            has_ref = True
        # --- keywords
        for kw, value in node.items():
            rule = kwtab.get(kw, miss)
            if rule is None:
                continue
            if rule is miss:
                rule = compile_kw(kw)
                if rule is None:
                    continue
            r = rule if rule.when is None else decide(rule, node, kw, at_root, schema, via)
            if r.action != "enforce":
                if kw == "additionalItems" and r.action == "drop" and additional_items_moot(profile, node, at_root,
                                                                                             schema, via):
                    continue
                shown = value if isinstance(value, str) else json.dumps(value)
                append(Effect(rel + (kw,), kw, "keyword", r, {"keyword": kw, "value": shown,
                                                              "type": _type_word(node)}))
                if r.action == "drop" and kw in _APPLICATORS:
                    dead.append(rel + (kw,))
                elif r.action == "reject" and kw in _APPLICATORS:
                    rejected.append(rel + (kw,))
            elif kw == "pattern" and r.regex and isinstance(value, str):
                feats = regex_features(value, (r.regex.get("large_repetition") or r).threshold or 100)
                if DIALECT_FEATURES.intersection(r.regex):
                    feats += dialect_features(value)
                for feat in feats:
                    fr = r.regex.get(feat)
                    if fr is not None and fr.action != "enforce":
                        append(Effect(rel + (kw,), feat, "regex", fr, {"keyword": kw, "value": value,
                                                                       "feature": feat.replace("_", " ")}))
        # --- structural constructs
        if at_root:
            if c_root_not_object is not None and types != {"object"}:
                append(Effect(rel + (("type",) if "type" in node else ()), "root-not-object", "construct",
                              c_root_not_object, {"value": "None" if t is None else t}))
            if c_root_comb is not None:
                for kw in (c_root_comb.keywords or ("anyOf", "oneOf", "allOf")):
                    if kw in node:
                        append(Effect(rel + (kw,), "root-combinator", "construct", c_root_comb, {"keyword": kw}))
            if c_invalid is not None:
                err = facts.metaschema_error
                if err is not None:
                    append(Effect(tuple(err[0]), "invalid-schema", "construct", c_invalid, {"detail": err[1]}))
        if is_obj:
            if c_no_props is not None and "properties" not in node:
                append(Effect(rel, "object-without-properties", "construct", c_no_props, {}))
            if "additionalProperties" not in node:
                if c_ap_missing is not None:
                    append(Effect(rel, "additional-properties-missing", "construct", c_ap_missing, {}))
            else:
                ap = node["additionalProperties"]
                if ap is not False and isinstance(ap, (bool, dict)) and c_ap_open is not None:
                    append(Effect(rel + ("additionalProperties",), "additional-properties-open", "construct",
                                  c_ap_open, {"value": json.dumps(ap)}))
            if c_optional is not None and isinstance(node.get("properties"), dict):
                req = node.get("required") if isinstance(node.get("required"), list) else []
                for key in node["properties"]:
                    if key not in req:
                        append(Effect(rel + ("properties", key), "optional-property", "construct",
                                      c_optional, {"key": key}))
        if c_ap_invalid is not None and "additionalProperties" in node \
                and not isinstance(node["additionalProperties"], (bool, dict)):
            append(Effect(rel + ("additionalProperties",), "additional-properties-invalid", "construct",
                          c_ap_invalid, {"value": json.dumps(node["additionalProperties"])}))
        if c_type_array is not None and isinstance(t, list):
            append(Effect(rel + ("type",), "type-array", "construct", c_type_array, {"value": json.dumps(t)}))
        if c_untyped is not None and not at_root and via not in ("$defs", "definitions") and not any(
                k in node for k in _TYPED):
            append(Effect(rel, "untyped-schema", "construct", c_untyped, {"key": str(rel[-1]) if rel else ""}))
        if c_no_items is not None and is_arr and "items" not in node and "prefixItems" not in node:
            append(Effect(rel, "array-without-items", "construct", c_no_items, {}))
        if c_ref_sibs is not None and "$ref" in node:
            sibs = [k for k in node if k != "$ref" and k not in NON_CONSTRAINING]
            if sibs:
                r = decide(c_ref_sibs, node, "$ref", at_root, schema, via)
                if r.action != "enforce":
                    allk = [k for k in node if k != "$ref" and not k.startswith("$")]
                    append(Effect(rel + (sibs[0],), "ref-siblings", "construct", r,
                                  {"siblings": ", ".join(sibs), "keyword": sibs[0], "sibling_set": sibling_set(allk)}))
        if any_shape:
            effects.extend(shape_effects(make, node, rel, types, cons))
        if c_shared_first is not None and isinstance(node.get("anyOf"), list):
            firsts = [next(iter(b["properties"]), None) for b in node["anyOf"]
                      if isinstance(b, dict) and isinstance(b.get("properties"), dict) and b["properties"]]
            dup = sorted({k for k in firsts if k is not None and firsts.count(k) > 1})
            if dup:
                append(Effect(rel + ("anyOf",), "anyof-shared-first-key", "construct", c_shared_first,
                              {"key": dup[0]}))
        if c_req_undeclared is not None and isinstance(node.get("required"), list) \
                and isinstance(node.get("properties"), dict):
            missing = [k for k in node["required"] if isinstance(k, str) and k not in node["properties"]]
            if missing:
                append(Effect(rel + ("required",), "required-undeclared", "construct", c_req_undeclared,
                              {"keys": ", ".join(missing)}))
        if c_props_comb is not None and "properties" in node:
            for kw in ("anyOf", "oneOf"):
                if kw in node:
                    append(Effect(rel + (kw,), "properties-beside-combinator", "construct", c_props_comb,
                                  {"keyword": kw}))
        # --- measurements for limits
        if lv > levels_max:
            levels_max, deepest = lv, rel
        n_props += node_props
        budget += node_budget
        if enum_list:
            n_enum += node_enum
            lim = lim_large_enum
            if lim is not None and n_strs > (lim.over_values or 0) and strs_total > lim.max:
                append(Effect(rel + ("enum",), "large_string_enum", "limit", lim,
                              {"count": strs_total, "max": lim.max, "values": n_strs}))
        under_rejected = bool(rejected) and any(rel[:len(d)] == d for d in rejected)
        if len(effects) > first:
            kept = []
            for e in effects[first:]:
                e.params.setdefault("_node", rel)  # the schema the effect belongs to (OpenAI's "context")
                if e.kind == "construct" and e.rule.when is not None:  # conditional constructs
                    kw = e.pointer[-1] if e.pointer and len(e.pointer) == len(rel) + 1 and e.pointer[-1] in node else None
                    r = decide(e.rule, node, kw, at_root, schema, via)
                    if r.action == "enforce":
                        continue
                    e = Effect(e.pointer, e.subject, e.kind, r, e.params)
                if under_rejected and e.rule.action != "reject":
                    continue
                if under_rejected:
                    e.params.setdefault("_under", True)
                kept.append(e)
            effects[first:] = kept
    if has_ref:
        effects += _recursion_effects(profile, schema, facts)
    c_bool = cons.get("boolean-subschema")
    if c_bool is not None:
        effects += [Effect(ptr, "boolean-subschema", "construct", c_bool, params)
                    for ptr, params in boolean_subschemas(schema, max_nodes)]
    L = profile.limits
    for name, value, where in (("nesting_depth", levels_max, deepest), ("object_properties", n_props, ()),
                               ("enum_values", n_enum, ()), ("string_budget", budget, ())):
        lim = L.get(name)
        if lim is not None and value > lim.max:
            effects.append(Effect(where, name, "limit", lim, {"count": value, "max": lim.max}))
    return effects


def _recursion_effects(profile: Profile, schema: dict, facts: SlotFacts | None = None) -> list[Effect]:
    out = []
    rec, remote = profile.constructs.get("recursion"), profile.constructs.get("remote-ref")
    if rec is None and remote is None:
        return out
    facts = facts if facts is not None and facts.schema is schema else SlotFacts(schema)
    if rec is not None:
        for ptr, value in facts.recursive_refs:
            out.append(Effect(ptr, "recursion", "construct", rec, {"value": value}))
    if remote is not None:
        for r in facts.remote_refs:
            out.append(Effect(r.pointer, "remote-ref", "construct", remote, {"value": r.value}))
    return out
