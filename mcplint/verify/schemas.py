"""`mcplint verify --decoder D tools.json`: compile each schema slot with the real
decoder and say what it rejects, plus what it drops or narrows among the keywords the
slot uses: the strongest evidence mcplint can give about a local model.

What is dropped comes from the decoder's profile evaluated on the slot (the same
decisions the DEC rules report), each backed where possible by the probe of the suite
that showed it on this very decoder version: a keyword is reported only where the
profile says so, so conditional facts (xgrammar drops maxLength only beside a pattern)
hold here too. A slot the decoder rejects while the profile expected it to compile, or
the reverse, is reported as a profile mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Pointer
from ..profiles import REFUSALS, Profile, describe, evaluate_slot
from .compare import claim
from .decoders import CompileError
from .run import Outcome, quiet_stderr

VERDICT_OF_ACTION = {"drop": "dropped", "rewrite": "over-constrained"}


@dataclass(frozen=True)
class SlotReport:
    origin: str
    tool: str
    slot: str
    pointer: str  # JSON Pointer of the slot, or of the keyword for drops
    line: int
    column: int
    verdict: str  # "compiled" | "rejected" | "dropped" | "over-constrained" | "profile-mismatch"
    detail: str
    probe: str | None = None  # the suite probe that shows the same behaviour on this decoder


def evidence(profile: Profile, outcomes: list[Outcome]) -> dict:
    """(subject, action) -> the Outcome of a probe where the profile made that very claim
    and the live decoder did the same."""
    out: dict = {}
    for o in outcomes:
        c = claim(profile, o.probe)
        if c.verdict != o.verdict or c.verdict not in ("dropped", "over-constrained"):
            continue
        for e in c.effects:
            out.setdefault((e.subject, e.rule.action), o)
    return out


def _where(doc, ptr: Pointer, fallback: tuple) -> tuple:
    s = doc.locate(ptr)
    return (s.line, s.col) if s else fallback


def verify_documents(decoder, documents_and_collections, outcomes: list[Outcome],
                     profile: Profile | None = None) -> list[SlotReport]:
    if profile is None:
        from ..profiles import load_profile

        profile = load_profile(decoder.name)
    proof = evidence(profile, outcomes)
    label = f"{decoder.name} {decoder.version}"
    reports: list[SlotReport] = []
    for doc, coll in documents_and_collections:
        origin = doc.source.origin
        for tool in coll.tools:
            for slot in tool.slots():
                if not isinstance(slot.schema, (dict, bool)):
                    continue
                here = _where(doc, slot.pointer, (1, 1))
                effects = evaluate_slot(profile, slot.schema) if isinstance(slot.schema, dict) else []
                rejects = [e for e in effects if e.kind != "limit" and profile.consequence(e.rule) in REFUSALS]
                with quiet_stderr():
                    try:
                        decoder.compile(slot.schema)
                        error = None
                    except CompileError as e:
                        error = str(e)

                def report(verdict, ptr, detail, probe=None, at=None):
                    line, col = at or _where(doc, ptr, here)
                    reports.append(SlotReport(origin, tool.label, slot.kind, str(ptr), line, col, verdict,
                                              detail, probe))

                if error is not None:
                    first = rejects[0] if rejects else None
                    ptr = slot.pointer + first.pointer if first else slot.pointer
                    why = (f"; profile {profile.name}: {describe(profile, first, tool.label)}" if first
                           else f"; profile {profile.name} expected it to compile")
                    report("rejected", ptr, f"{label} cannot compile this schema: {error}{why}")
                    continue
                report("compiled", slot.pointer, "", at=here)
                for e in rejects:
                    report("profile-mismatch", slot.pointer + e.pointer,
                           f"{label} compiles this schema, but profile {profile.name} says: "
                           f"{describe(profile, e, tool.label)}")
                seen = set()
                for e in effects:
                    verdict = VERDICT_OF_ACTION.get(e.rule.action)
                    if verdict is None or e.kind == "limit":
                        continue
                    ptr = slot.pointer + e.pointer
                    if (str(ptr), e.subject) in seen:
                        continue
                    seen.add((str(ptr), e.subject))
                    o = proof.get((e.subject, e.rule.action))
                    shown = (f" (probe {o.probe.id} on {label}: {o.detail})" if o is not None
                             else f" (profile {profile.name}; no probe of the suite shows it)")
                    report(verdict, ptr, describe(profile, e, tool.label) + shown, o.probe.id if o else None)
    return reports
