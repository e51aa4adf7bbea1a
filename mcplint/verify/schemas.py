"""`mcplint verify --decoder D tools.json`: compile each schema slot with the real
decoder and say what it rejects, plus what the probe suite says it drops among the
keywords the slot uses: the strongest evidence mcplint can give about a local model."""

from __future__ import annotations

from dataclasses import dataclass

from ..schemawalk import subschemas
from .decoders import CompileError
from .run import Outcome, quiet_stderr


@dataclass(frozen=True)
class SlotReport:
    origin: str
    tool: str
    slot: str
    pointer: str  # JSON Pointer of the slot (or of the keyword, for drops)
    line: int
    column: int
    verdict: str  # "rejected" | "dropped" | "compiled"
    detail: str


def keyword_verdicts(outcomes: list[Outcome]) -> dict[str, Outcome]:
    """For each keyword, the basic probe's outcome (the probe named after the keyword,
    else the first probe of that keyword)."""
    out: dict[str, Outcome] = {}
    for o in outcomes:
        kw = o.probe.keyword
        if kw not in out or o.probe.id == kw:
            out[kw] = o
    return out


def verify_documents(decoder, documents_and_collections, outcomes: list[Outcome]) -> list[SlotReport]:
    by_kw = keyword_verdicts(outcomes)
    reports: list[SlotReport] = []
    for doc, coll in documents_and_collections:
        for tool in coll.tools:
            for slot in tool.slots():
                if not isinstance(slot.schema, (dict, bool)):
                    continue
                span = doc.locate(slot.pointer)
                line, col = (span.line, span.col) if span else (1, 1)
                with quiet_stderr():
                    try:
                        decoder.compile(slot.schema)
                    except CompileError as e:
                        reports.append(SlotReport(doc.source.origin, tool.label, slot.kind, str(slot.pointer),
                                                  line, col, "rejected", str(e)))
                        continue
                reports.append(SlotReport(doc.source.origin, tool.label, slot.kind, str(slot.pointer), line, col,
                                          "compiled", ""))
                for sub in subschemas(slot.schema):
                    if not isinstance(sub.schema, dict):
                        continue
                    for kw in sub.schema:
                        o = by_kw.get(kw)
                        if o is not None and o.verdict == "dropped":
                            ptr = slot.pointer + sub.pointer
                            s = doc.locate(ptr / kw)
                            reports.append(SlotReport(
                                doc.source.origin, tool.label, slot.kind, str(ptr / kw),
                                s.line if s else line, s.col if s else col, "dropped",
                                f"{decoder.name} {decoder.version} compiles this schema but does not enforce "
                                f"'{kw}' (probe {o.probe.id}: {o.detail})"))
    return reports
