"""What the DEC rules share: the profile module (imported on first use), one evaluation of a
slot per profile, and how an effect becomes a finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...dialects import dialect_of
from ...model import Pointer, Severity
from ...registry import CONSEQUENCES, RawFinding, fix_in_words

if TYPE_CHECKING:  # mcplint.profiles is imported only when a profile rule runs
    from ...profiles import Effect, Profile

_PROFILES = None


def lazy_profiles():
    """mcplint.profiles, imported on first use (a plain scan without --profile never needs it)."""
    global _PROFILES
    if _PROFILES is None:
        from ... import profiles

        _PROFILES = profiles
    return _PROFILES


# ctx.memo.collection: {id(schema): (schema, SlotFacts, {id(profile): (profile, {consequence or "limit": [Effect]})})}
# (the request limits of the document read the slots' effects again after the slot rules)
SLOTS_KEY = "dec.slots"
_SLOTS_KEPT = 512  # at most this many slots' evaluations kept at once (a worker's memory)
SEVERITY_OF = {"fail-list": Severity.ERROR, "reject": Severity.ERROR, "drop": Severity.ERROR, "weaken": Severity.WARNING,
               "rewrite": Severity.WARNING, "annotation": Severity.INFO}


def _entry(schema, memo):
    """The memo's entry of one slot's schema, made on first use; None for a JSON Structure slot.
    No decoder reads JSON Structure: a client without the binding gets the JSON Schema
    fallback (binding §4.1), which is what a profile applies to (`mcplint project --to json-schema`)."""
    kept = memo.table(SLOTS_KEY)
    hit = kept.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit
    if isinstance(schema, dict) and dialect_of(schema) == "json-structure":
        return None
    if len(kept) > _SLOTS_KEPT:
        kept.clear()
    hit = kept[id(schema)] = (schema, lazy_profiles().SlotFacts(schema, walks=memo.walks), {})
    return hit


def slot_facts(schema, memo):
    """The slot's SlotFacts, shared with its evaluation by every profile (None: JSON Structure)."""
    hit = _entry(schema, memo)
    return hit[1] if hit is not None else None


def _slot_effects(profile: Profile, slot, memo) -> dict:
    """The profile's effects on one slot, grouped by what the DEC rules ask for: evaluated
    once per (profile, slot), with one walk of the slot shared by every profile. The six
    slot rules of every profile ask in turn, so the memo is looked at first."""
    if not profile.checks(slot.kind):
        return {}
    schema = slot.schema
    hit = memo.table(SLOTS_KEY).get(id(schema))
    if hit is not None and hit[0] is schema:
        got = hit[2].get(id(profile))
        if got is not None and got[0] is profile:
            return got[1]
    else:
        hit = _entry(schema, memo)
        if hit is None:
            return {}
    pm = lazy_profiles()
    per_profile = hit[2]
    groups: dict = {}
    wants: dict = {}  # id(rule) -> its consequence: a slot's effects share a few rules
    for e in pm.evaluate_slot(profile, schema, facts=hit[1], slot=slot.kind):
        if e.kind == "limit":
            want = "limit"
        else:
            want = wants.get(id(e.rule))
            if want is None:
                want = wants[id(e.rule)] = profile.consequence(e.rule)
        group = groups.get(want)
        if group is None:
            groups[want] = [e]
        else:
            group.append(e)
    per_profile[id(profile)] = (profile, groups)
    return groups


def kept_slot_effects(profile: Profile, slot, memo) -> dict | None:
    """The profile's effects on one slot as the slot rules read them (evaluated once and kept
    for them), or None for a slot they do not evaluate (JSON Structure) but a request limit
    still judges."""
    if profile.checks(slot.kind) and _entry(slot.schema, memo) is None:
        return None
    return _slot_effects(profile, slot, memo)


TOOL_KEY = "dec.tool"  # ctx.memo.target: (the tool, {id(profile): (profile, its effects)}): DEC007 and DEC008 ask in turn


def server_name(tool, ctx) -> str | None:
    """The name the client's configuration gives the tool's server, when known: the one a
    capture of ``probe --from`` records, else ``--server-name`` (the configuration's
    ``server-name``)."""
    return ctx.server_name or ctx.config.server_name


def siblings(ctx) -> list | None:
    """The tools of the tools/list the rule's tool is in (in its order), when the rule has it."""
    coll = getattr(ctx, "collection", None)
    return getattr(coll, "tools", None)


def tool_effects(profile: Profile, tool, memo, server: str | None = None, others=None) -> list:
    """``evaluate_tool`` of one (profile, tool), computed once for the two tool rules (which
    are called for every profile in turn: DEC007 for each, then DEC008 for each)."""
    kept = memo.target.get(TOOL_KEY)
    if kept is None or kept[0] is not tool:
        kept = memo.target[TOOL_KEY] = (tool, {})
    hit = kept[1].get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    effects = lazy_profiles().evaluate_tool(profile, tool, server, others, memo)
    kept[1][id(profile)] = (profile, effects)
    return effects


VERDICTS_KEY = "dec.verdicts"  # ctx.memo.collection: {(id(profile), id(rule)): (profile, rule, verdict)}


def verdict_of(profile: Profile, rule, memo=None) -> tuple:
    """The consequence, severity and fix words (None: the DEC rule's own) of one (profile,
    rule): the same for every finding of the rule, so worked out once with a ``memo``."""
    kept = memo.table(VERDICTS_KEY) if memo is not None else {}
    key = (id(profile), id(rule))
    hit = kept.get(key)
    if hit is not None and hit[0] is profile and hit[1] is rule:
        return hit[2]
    consequence = profile.consequence(rule)
    if consequence not in CONSEQUENCES:
        raise ValueError(f"consequence {consequence!r} not in {CONSEQUENCES}")
    severity = SEVERITY_OF[consequence]
    if rule.source.confidence == "low" and severity > Severity.WARNING:
        severity = Severity.WARNING  # a low-evidence fact does not fail CI by default
    if getattr(rule, "hedge", None):
        severity = Severity.WARNING if severity > Severity.WARNING else Severity.INFO  # "can be rejected": one lower
    verdict = (consequence, severity, getattr(rule, "fix", None))
    kept[key] = (profile, rule, verdict)
    return verdict


def emit(ctx, profile: Profile, effect: Effect, base: Pointer, tool_name: str | None) -> RawFinding:
    """The finding of one effect (what ``ctx.finding`` makes of it, without its checks: the
    fix is in words only and the consequence one the profile gives)."""
    consequence, severity, title = verdict_of(profile, effect.rule, ctx.memo)
    listed = list_size(ctx) if consequence == "fail-list" else None
    return RawFinding(base + effect.pointer, lazy_profiles().message(profile, effect, tool_name, ctx.memo, listed),
                      _fix(ctx, title), severity, consequence)


def list_size(ctx) -> int | None:
    """How many tools the tools/list of the rule's target has (what a client that cannot read the
    list loses), when the rule has the list (a file of one tool alone does not say)."""
    tools = siblings(ctx)
    if tools is None or getattr(ctx.collection, "shape", None) == "tool":
        return None
    return len(tools)


def _fix(ctx, title):
    """The fix in words: the profile rule's own, else the DEC rule's."""
    title = ctx.meta.fix if title is None else title
    return fix_in_words(title) if title else None


def slot_rule(slot, ctx, want):
    """The findings of one DEC slot rule under one profile: the effects of the slot the profile
    gives the consequence ``want``, made in one go (see :func:`_made`)."""
    profile = ctx.profile
    if profile is None:
        return []
    effects = _slot_effects(profile, slot, ctx.memo).get(want)
    if not effects:
        return []
    return _made(profile, effects, want, ctx, tuple(slot.pointer), slot.tool.name)


def _made(profile: Profile, effects: list, want: str, ctx, base: tuple, name: str | None) -> list:
    """The raw findings of ``effects`` (all of one consequence ``want``) on the slot at ``base``
    of the tool ``name``: the rule's fix and the message function looked up once, each
    effect's rule's verdict once per run of equal rules."""
    message = lazy_profiles().message
    memo = ctx.memo
    listed = list_size(ctx) if want == "fail-list" else None
    out = []
    rule = verdict = None
    for e in effects:
        if e.rule is not rule:
            rule = e.rule
            if want == "annotation" and not rule.message:
                verdict = None  # a plain annotation (title, $schema, ...) is not news
                continue
            verdict = verdict_of(profile, rule, memo)
            consequence, severity, title = verdict
            fix = _fix(ctx, title)
        elif verdict is None:
            continue
        out.append(RawFinding(Pointer(base + e.pointer), message(profile, e, name, memo, listed), fix, severity,
                              consequence))
    return out
