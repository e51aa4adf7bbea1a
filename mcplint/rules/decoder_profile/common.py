"""What the DEC rules share: the profile module (imported on first use), one evaluation of a
slot per profile, and how an effect becomes a finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...dialects import dialect_of
from ...model import Pointer, Severity

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


# id(schema) -> (schema, SlotFacts, {id(profile): (profile, {consequence or "limit": [Effect]})})

_SLOT_CACHE: dict = {}
SEVERITY_OF = {"reject": Severity.ERROR, "drop": Severity.ERROR, "weaken": Severity.WARNING,
               "rewrite": Severity.WARNING, "annotation": Severity.INFO}


def _slot_effects(profile: Profile, slot) -> dict:
    """The profile's effects on one slot, grouped by what the DEC rules ask for: evaluated
    once per (profile, slot), with one walk of the slot shared by every profile."""
    if slot.kind not in profile.slots:
        return {}
    schema = slot.schema
    if isinstance(schema, dict) and dialect_of(schema) == "json-structure":
        # No decoder reads JSON Structure: a client without the binding gets the JSON Schema
        # fallback (binding §4.1), which is what a profile applies to (`mcplint project --to json-schema`).
        return {}
    pm = lazy_profiles()
    hit = _SLOT_CACHE.get(id(schema))
    if hit is None or hit[0] is not schema:
        if len(_SLOT_CACHE) > 512:
            _SLOT_CACHE.clear()
        hit = _SLOT_CACHE[id(schema)] = (schema, pm.SlotFacts(schema), {})
    per_profile = hit[2]
    got = per_profile.get(id(profile))
    if got is not None and got[0] is profile:
        return got[1]
    groups: dict = {}
    for e in pm.evaluate_slot(profile, schema, facts=hit[1]):
        want = "limit" if e.kind == "limit" else profile.consequence(e.rule)
        groups.setdefault(want, []).append(e)
    per_profile[id(profile)] = (profile, groups)
    return groups


def emit(ctx, profile: Profile, effect: Effect, base: Pointer, tool_name: str | None):
    consequence = profile.consequence(effect.rule)
    severity = SEVERITY_OF[consequence]
    if effect.rule.source.confidence == "low" and severity > Severity.WARNING:
        severity = Severity.WARNING  # a low-evidence fact does not fail CI by default
    if getattr(effect.rule, "hedge", None):
        severity = Severity.WARNING if severity > Severity.WARNING else Severity.INFO  # "can be rejected": one lower
    return ctx.finding(base + effect.pointer, lazy_profiles().describe(profile, effect, tool_name),
                       fix=getattr(effect.rule, "fix", None), severity=severity, consequence=consequence)


def slot_rule(slot, ctx, want):
    profile = ctx.profile
    if profile is None:
        return
    for e in _slot_effects(profile, slot).get(want, ()):
        if want == "annotation" and not e.rule.message:
            continue  # a plain annotation (title, $schema, ...) is not news
        yield emit(ctx, profile, e, slot.pointer, slot.tool.name)
