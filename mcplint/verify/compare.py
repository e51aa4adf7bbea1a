"""Profile versus decoder: what a profile claims a decoder does with each probe of the
suite, and where that differs from what the real decoder did.

The claim is derived by running the profile's own evaluation (:func:`evaluate_slot`) on
the probe's schema, so the comparison tests the same code path the DEC rules use:

* ``rejected``         some effect is a rejection (the schema would not compile)
* ``over-constrained`` a ``rewrite`` effect that concerns the probe's keyword: the decoder
                       changes what is accepted in a way that can refuse valid values
* ``dropped``          a ``drop`` effect on what the violating instance breaks
* ``enforced``         nothing of the above (annotations constrain nothing)

A documented exception (``verified_with.exceptions`` in the profile) turns a known
disagreement into an accepted one, with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..profiles import REFUSALS, Effect, Profile, evaluate_slot
from .run import Outcome
from .suite import Probe

# constructs and regex features -> the keyword they are about
_ABOUT = {
    "additional-properties-missing": "additionalProperties", "additional-properties-open": "additionalProperties",
    "additional-properties-invalid": "additionalProperties", "object-without-properties": "properties",
    "optional-property": "required", "recursion": "$ref", "remote-ref": "$ref", "ref-siblings": "$ref",
    "type-array": "type", "untyped-schema": "type", "array-without-items": "items",
    "anyof-shared-first-key": "anyOf", "required-undeclared": "required", "tuple-items": "items",
}


@dataclass(frozen=True)
class Claim:
    verdict: str
    effects: tuple  # the effects that decide the verdict

    def reason(self) -> str:
        if not self.effects:
            return "the profile enforces every keyword of this probe"
        parts = []
        for e in self.effects:
            where = "/" + "/".join(str(p) for p in e.pointer)
            parts.append(f"{e.subject} {e.rule.action} at {where}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Row:
    probe: Probe
    claim: Claim
    outcome: Outcome
    exception: str | None = None  # the documented reason, when the profile lists this probe

    @property
    def agrees(self) -> bool:
        return self.claim.verdict == self.outcome.verdict

    @property
    def ok(self) -> bool:
        return self.agrees or self.exception is not None


@lru_cache(maxsize=None)
def _violations(probe_id: str) -> tuple:
    """Schema locations (relative pointers) that the probe's violating instance breaks."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    from .suite import BY_ID

    probe = BY_ID[probe_id]
    if probe.bad is None:
        return ()
    cls = validator_for(probe.schema, default=Draft202012Validator)  # a few probes are draft-07 (tuple form)
    v = cls(probe.schema, format_checker=cls.FORMAT_CHECKER)
    out = set()
    stack = list(v.iter_errors(probe.bad))
    while stack:
        err = stack.pop()
        out.add(tuple(err.absolute_schema_path))
        stack.extend(err.context or ())
    return tuple(sorted(out, key=str))


def keywords_about(e: Effect) -> set:
    """The keywords an effect is about: its subject, the keyword the subject stands for, and
    the ``keyword`` parameter it names."""
    kws = {e.subject, _ABOUT.get(e.subject, e.subject)}
    if isinstance(e.params.get("keyword"), str):
        kws.add(e.params["keyword"])
    return kws


def _concerns(e: Effect, probe: Probe, by_place: bool) -> bool:
    """Does the effect concern what the probe tests: its keyword, or (``by_place``, for
    drops) a keyword the violating instance breaks, at or under the effect's place?"""
    if probe.keyword in keywords_about(e):
        return True
    ptr = tuple(e.pointer)
    if e.subject == "$ref":  # a reference applies its whole target where it stands
        ptr = ptr[:-1]
    if not by_place or not ptr or probe.id not in _probe_ids():
        return False
    return any(tuple(p[:len(ptr)]) == ptr for p in _violations(probe.id))


@lru_cache(maxsize=1)
def _probe_ids() -> frozenset:
    from .suite import BY_ID

    return frozenset(BY_ID)


def claim(profile: Profile, probe: Probe, focus: bool = False) -> Claim:
    """The profile's verdict on the probe. ``focus``: judge the keyword under test only,
    leaving out what the profile says of the probe's wrapper (the closed object around
    the property), so a target that rejects ``additionalProperties`` does not reject every
    row of the matrix."""
    effects = [e for e in evaluate_slot(profile, probe.schema) if e.kind != "limit"]
    if focus:
        effects = [e for e in effects if len(e.pointer) > 1 or probe.keyword in keywords_about(e)]
        if profile.fallback:
            # a route taken only for the wrapper's sake says nothing of the keyword: judge it as the
            # profile itself does (a client that sends the whole tool non-strict over an open wrapper
            # would still send the keyword strict in a wrapper it can convert)
            own = [e for e in evaluate_slot(profile, probe.schema, routes=False) if e.kind != "limit"]
            own = [e for e in own if len(e.pointer) > 1 or probe.keyword in keywords_about(e)]
            if not any(e.rule.action == fb.trigger for e in own for fb in profile.fallback):
                effects = own
    rejects = tuple(e for e in effects if profile.consequence(e.rule) in REFUSALS)
    if rejects:
        return Claim("rejected", rejects)
    rewrites = tuple(e for e in effects if e.rule.action == "rewrite" and _concerns(e, probe, False))
    if rewrites:
        return Claim("over-constrained", rewrites)
    drops = tuple(e for e in effects if e.rule.action == "drop" and _concerns(e, probe, True))
    if drops and probe.bad is not None:
        return Claim("dropped", drops)
    return Claim("enforced", ())


def exceptions(profile: Profile) -> dict:
    vw = profile.verified_with or {}
    return dict(vw.get("exceptions") or {})


def compare(profile: Profile, outcomes: list[Outcome]) -> list[Row]:
    exc = exceptions(profile)
    rows = []
    for o in outcomes:
        c = claim(profile, o.probe)
        rows.append(Row(o.probe, c, o, exc.get(o.probe.id) if c.verdict != o.verdict else None))
    return rows


def stale_exceptions(profile: Profile, rows: list[Row]) -> list[str]:
    """Documented exceptions that no longer describe a disagreement (the profile or the
    decoder changed): they must be removed, or they would hide a future one."""
    exc = exceptions(profile)
    agreeing = {r.probe.id for r in rows if r.agrees}
    known = {r.probe.id for r in rows}
    return sorted(k for k in exc if k in agreeing or k not in known)
