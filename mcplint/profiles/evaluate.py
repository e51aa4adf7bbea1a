"""The evaluator: every non-enforced decision of a profile on one schema slot.

:func:`evaluate_slot` walks the slot's :class:`~.facts.SlotFacts` (profile-independent)
with a profile's :mod:`compiled <.compiled>` rules and returns :class:`Effect` values
(where, what, which resolved rule). Tool-level and request-level facts are in
:mod:`.request`; the words for an effect are in :mod:`.describe`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .compiled import compiled
from .regex_dialects import DIALECT_FEATURES, dialect_features
from .constructs import CONSTRUCTS
from .facts import PLAIN, REF_SIBLINGS, SlotFacts, measure, regex_features
from .model import Profile, as_sent
from .shapes import additional_items_moot
from .vacuous import VACUOUS_KEYWORDS, beyond_exact_integers, vacuous

# the function of each construct found once per slot, looked up once
_SLOT_DETECT = {c.name: c.detect for c in CONSTRUCTS.values() if c.scope == "slot"}


@dataclass(slots=True)
class Effect:
    pointer: tuple  # relative to the slot (schema effects) or absolute (tool/request effects)
    subject: str  # the keyword, construct or limit name
    kind: str  # keyword | regex | construct | limit | tool_name
    rule: Any  # the resolved Rule / Limit / ToolName
    params: dict = field(default_factory=dict)  # values for message templates


_NUMERIC_BOUNDS = frozenset({"minimum", "maximum"})  # (checked before beyond_exact_integers is called)
_APPLICATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
                          "patternProperties", "propertyNames", "contains", "unevaluatedItems",
                          "unevaluatedProperties", "additionalProperties", "prefixItems", "additionalItems",
                          "dependencies", "contentSchema"})


def _type_word(types: set) -> str:
    """The node's type for a message, from its type names (:attr:`.facts.NodeFacts.type_names`)."""
    t = sorted(types - _NULL)
    return t[0] if t else "unknown"


_NULL = frozenset({"null"})
_MISS = object()  # a keyword the compiled table has not seen yet
_WORDS = {True: "true", False: "false", None: "null"}


def _shown(value) -> str:
    """A keyword's value as a message quotes it: a string as it is, anything else as JSON
    (integers and the three constants written directly, as json.dumps writes them)."""
    if isinstance(value, str):
        return value
    if type(value) is int:
        return str(value)
    if value is True or value is False or value is None:
        return _WORDS[value]
    return json.dumps(value)


@lru_cache(maxsize=4096)
def _pattern_features(pattern: str, threshold: int, dialect: bool) -> tuple:
    """:func:`regex_features` of one ``pattern`` (with the dialect features when asked): the
    same patterns recur across profiles, slots and tools."""
    feats = regex_features(pattern, threshold)
    if dialect:
        feats += dialect_features(pattern)
    return tuple(feats)


def evaluate_slot(profile: Profile, schema: Any, max_nodes: int = 20_000, *,
                  facts: SlotFacts | None = None, routes: bool = True, slot: str = "inputSchema",
                  _every_slot: bool = False) -> list[Effect]:
    """Every non-enforced decision of ``profile`` on one schema slot, in document order.

    ``facts`` (a :class:`SlotFacts` for this ``schema`` and ``max_nodes``) lets several
    profiles share one walk of the slot and what its nodes show. A profile with ``fallback``
    routes is judged as :mod:`.fallback` says (``routes=False``: as itself only).

    What a node shows whichever profile asks (its constructs, the measurements) is in the
    facts; here each node is looked at only if the profile may say something about it: the
    root, a node with a construct, a node with a keyword the profile is not silent about.
    ``slot`` (the slot's kind) keeps the effects of rules that judge it (a rule's ``slots``)."""
    if not _every_slot and (profile.scoped_slots or slot not in profile.slots):
        if not profile.checks(slot):
            return []
        return [e for e in evaluate_slot(profile, schema, max_nodes, facts=facts, routes=routes, _every_slot=True)
                if _judges(e.rule, slot, profile.slots)]
    effects: list[Effect] = []
    if not isinstance(schema, dict):
        return effects
    sent = as_sent(schema, profile.root_defaults)  # judged as the client sends it
    if sent is not schema:
        schema, facts = sent, None
    if routes and profile.fallback:
        from .fallback import routed_effects
        return routed_effects(profile, schema, max_nodes, facts, evaluate_slot, Effect)
    if facts is None or facts.schema is not schema or facts.max_nodes != max_nodes:
        facts = SlotFacts(schema, max_nodes)
    judge = _SlotJudge(profile, schema, facts)
    judge.nodes()
    return judge.slot_wide()


class _SlotJudge:
    """One profile's judgement of one slot (:func:`evaluate_slot`): its nodes one by one
    (:meth:`nodes`: keywords, the root, structural constructs), then what holds for the slot as
    a whole (:meth:`slot_wide`: references, boolean subschemas, limits)."""

    __slots__ = ("profile", "schema", "facts", "comp", "effects", "dead", "rejected")

    def __init__(self, profile: Profile, schema: dict, facts: SlotFacts):
        self.profile, self.schema, self.facts, self.comp = profile, schema, facts, compiled(profile)
        self.effects: list[Effect] = []
        self.dead: list = []  # subtrees under an ignored (dropped) applicator: their contents constrain nothing
        # Under a *rejected* applicator the walk goes on and every further rejection is reported in
        # the same pass, so fixing the outer one does not merely uncover the next at the next run;
        # what else the target would do there (ignore, rewrite) is moot and is left out.
        self.rejected: list = []

    def nodes(self) -> None:
        """The effects of each node the profile may say something about: the root, a node with
        a construct, a node with a keyword the profile is not silent about."""
        effects, dead, comp, schema, facts = self.effects, self.dead, self.comp, self.schema, self.facts
        silent, kwtab, compile_kw, decide = comp.silent, comp.keywords, comp.keyword, self.profile.decide
        cons, miss = self.profile.constructs, _MISS
        for facts_of_node in facts.nodes:
            node, shown, at_root = facts_of_node.node, facts_of_node.constructs, facts_of_node.at_root
            quiet = node.keys() <= silent
            if quiet and not (shown or at_root):
                continue  # nothing this profile could say here
            rel = facts_of_node.pointer
            if dead and any(rel[:len(d)] == d for d in dead):
                continue
            first = len(effects)
            for kw, value in () if quiet else node.items():
                rule = kwtab.get(kw, miss)
                if rule is None:
                    continue
                if rule is miss:
                    rule = compile_kw(kw)
                    if rule is None:
                        continue
                r = rule if rule.when is None else decide(rule, node, kw, at_root, schema, facts_of_node.via, facts)
                if r.action != "enforce":
                    self.keyword(facts_of_node, kw, value, r)
                elif kw == "pattern" and r.regex and isinstance(value, str):
                    self.regex(r, value, rel)
            conditional = at_root and comp.root_conditional
            if at_root:
                self.root(facts_of_node)
            for name, ptr, params, how in shown:  # the structural constructs it shows
                if how == PLAIN:
                    rule = cons.get(name)
                    if rule is not None:
                        effects.append(Effect(ptr, name, "construct", rule, dict(params)))
                        if rule.when is not None:
                            conditional = True
                elif how == REF_SIBLINGS:
                    rule = cons.get(name)
                    if rule is not None:
                        r = decide(rule, node, "$ref", at_root, schema, facts_of_node.via, facts)
                        if r.action != "enforce":
                            effects.append(Effect(ptr, name, "construct", r, dict(params)))
                            if r.when is not None:
                                conditional = True
                else:  # STRING_ENUM
                    self.string_enum(facts_of_node, name, ptr)
            if len(effects) > first and (self.rejected or conditional):
                effects[first:] = self.decided(facts_of_node, effects[first:])

    def keyword(self, facts_of_node, kw: str, value, r) -> None:
        """The effect of a keyword the target does not enforce (``r``: its rule, decided at the node)."""
        node, at_root, rel = facts_of_node.node, facts_of_node.at_root, facts_of_node.pointer
        if r.action == "drop" and self.comp.refuses:
            pass  # the client gives up on the whole schema over this keyword, whatever it constrains
        elif kw == "additionalItems" and r.action == "drop" and additional_items_moot(self.profile, node, at_root,
                                                                                     self.schema, facts_of_node.via):
            return
        elif r.action == "drop" and kw in VACUOUS_KEYWORDS and vacuous(kw, value):
            if kw in _APPLICATORS:  # (what it holds constrains nothing either)
                self.dead.append(rel + (kw,))
            return  # dropping what constrains nothing loses nothing: no finding
        elif r.action == "drop" and kw in _NUMERIC_BOUNDS and beyond_exact_integers(kw, value, node):
            return  # zod 4's .int() bounds: nothing an interoperable JSON integer can say is lost
        self.effects.append(Effect(rel + (kw,), kw, "keyword", r, {"keyword": kw, "value": _shown(value),
                                                                   "type": _type_word(facts_of_node.type_names),
                                                                   "_node": rel}))
        if r.action == "drop" and kw in _APPLICATORS:
            self.dead.append(rel + (kw,))
        elif r.action == "reject" and kw in _APPLICATORS:
            self.rejected.append(rel + (kw,))

    def regex(self, r, value: str, rel: tuple) -> None:
        """The effects of the regex features of an enforced ``pattern`` whose rule has ``regex`` rules."""
        feats = _pattern_features(value, (r.regex.get("large_repetition") or r).threshold or 100,
                                  not DIALECT_FEATURES.isdisjoint(r.regex))
        for feat in feats:
            fr = r.regex.get(feat)
            if fr is not None and fr.action != "enforce":
                self.effects.append(Effect(rel + ("pattern",), feat, "regex", fr,
                                           {"keyword": "pattern", "value": value, "feature": feat.replace("_", " "),
                                            "_node": rel}))

    def root(self, facts_of_node) -> None:
        """The constructs of the slot's root that depend on the profile's rule for them."""
        c_root_not_object, c_root_comb, c_invalid, c_budget = self.comp.root
        append = self.effects.append
        for name, rule in (("root-not-object", c_root_not_object), ("root-combinator", c_root_comb),
                           ("invalid-schema", c_invalid), ("schema-over-budget", c_budget)):
            if rule is not None:
                for ptr, params in _SLOT_DETECT[name](facts_of_node, self.facts, rule):
                    append(Effect(ptr, name, "construct", rule, params))

    def string_enum(self, facts_of_node, name: str, ptr: tuple) -> None:
        """The effect of the profile's limit on a node's string enum values, when it is passed."""
        lim = self.profile.limits.get(name)
        n_strs, strs_total = facts_of_node.string_enum_values, facts_of_node.string_enum_length
        if lim is not None and n_strs > (lim.over_values or 0) and strs_total > lim.max:
            self.effects.append(Effect(ptr, name, "limit", lim, {"count": strs_total, "max": lim.max, "values": n_strs,
                                                                 "_node": facts_of_node.pointer}))

    def decided(self, facts_of_node, found: list[Effect]) -> list[Effect]:
        """``found`` (one node's effects) with a conditional construct's rule decided at its node,
        and under a rejected applicator only further rejections kept."""
        node, rel, rejected = facts_of_node.node, facts_of_node.pointer, self.rejected
        decide, schema = self.profile.decide, self.schema
        under_rejected = bool(rejected) and any(rel[:len(d)] == d for d in rejected)
        kept = []
        for e in found:
            if e.kind == "construct" and e.rule.when is not None:
                p = e.pointer
                prop = (node.get("properties") or {}).get(p[-1]) if (
                    len(p) == len(rel) + 2 and p[-2] == "properties" and isinstance(node.get("properties"), dict)) else None
                if isinstance(prop, dict):  # a construct about one property is decided at that property
                    r = decide(e.rule, prop, None, False, schema, "properties", self.facts)
                else:
                    kw = p[-1] if p and len(p) == len(rel) + 1 and p[-1] in node else None
                    r = decide(e.rule, node, kw, facts_of_node.at_root, schema, facts_of_node.via, self.facts)
                if r.action == "enforce":
                    continue
                e = Effect(e.pointer, e.subject, e.kind, r, e.params)
            if under_rejected and e.rule.action != "reject" and not (
                    e.rule.action == "drop" and self.comp.walks and
                    all(d[-1] in self.comp.walks for d in rejected if rel[:len(d)] == d)):
                # (a client's refusal in a subschema its conversion visits stands: the tool then
                # goes out non-strict, and the target never sees the rejected keyword in strict mode)
                continue
            if under_rejected:
                e.params.setdefault("_under", True)
            kept.append(e)
        return kept

    def slot_wide(self) -> list[Effect]:
        """The effects so far, then those of the slot as a whole: references in a cycle and
        remote ones, boolean subschemas, and the slot-wide limits, measured over what the
        profile does not drop."""
        effects, facts, comp, dead = self.effects, self.facts, self.comp, self.dead
        if dead:
            measured = measure(facts.nodes, lambda rel: any(rel[:len(d)] == d for d in dead))
        else:
            measured = facts.totals
        if measured.has_ref and comp.references:
            effects += _recursion_effects(self.profile, self.schema, facts)
        if comp.boolean is not None:
            effects += _boolean_effects(self.profile, comp.boolean, self.schema, facts)
        for name, measure_name, lim in comp.slot_limits:
            value = getattr(measured, measure_name)
            if value > lim.max:  # the nesting depth is reported where it is deepest, the others at the root
                effects.append(Effect(measured.deepest if measure_name == "depth" else (), name, "limit", lim,
                                      {"count": value, "max": lim.max}))
        return effects


def _boolean_effects(profile: Profile, rule, schema: Any, facts: SlotFacts) -> list[Effect]:
    """One effect per boolean subschema; a conditional rule is decided by where the boolean stands
    (``via_in``: under ``properties``, a branch of ``anyOf``, ...), a boolean having no siblings."""
    out: list[Effect] = []
    for ptr, params in _SLOT_DETECT["boolean-subschema"](None, facts, rule):
        r = rule if rule.when is None else profile.decide(rule, {}, None, False, schema, params.get("_via"))
        if r.action != "enforce":
            out.append(Effect(ptr, "boolean-subschema", "construct", r, dict(params)))
    return out


def _judges(rule, slot: str, profile_slots: tuple) -> bool:
    """Whether an effect's rule applies in ``slot`` (a limit applies in the profile's own slots)."""
    judges = getattr(rule, "judges", None)
    return judges(slot, profile_slots) if judges is not None else slot in profile_slots


def _recursion_effects(profile: Profile, schema: dict, facts: SlotFacts | None = None) -> list[Effect]:
    out: list[Effect] = []
    rec, remote = profile.constructs.get("recursion"), profile.constructs.get("remote-ref")
    if rec is None and remote is None:
        return out
    facts = facts if facts is not None and facts.schema is schema else SlotFacts(schema)
    for name, rule in (("recursion", rec), ("remote-ref", remote)):
        if rule is not None:
            out += [Effect(ptr, name, "construct", rule, params) for ptr, params in _SLOT_DETECT[name](None, facts, rule)]
    return out
