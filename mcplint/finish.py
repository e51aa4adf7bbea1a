"""The last stage of linting one collection: the raw findings the rules made become
:class:`~.model.Finding` values. Findings that differ only by protocol version merge into one;
each place is located in the document (and in the code that generated it); suppressions and
severity overrides apply; the engine's ID, name and severity are stamped; the findings are sorted.
Rules never compute a location: this stage does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .collect import Collection, only_under
from .config import Config, suppressed_by
from .model import CodeLocation, Finding, Pointer, Span
from .sources import in_generators_words

if TYPE_CHECKING:
    from .model import Tool
    from .registry import RawFinding, RuleMeta


class RuleHit(NamedTuple):
    """One raw finding as a rule call made it, with what the engine knew of the call."""

    meta: RuleMeta
    finding: RawFinding
    versions: Any  # the call's versions tuple; a set once findings of several calls merged into it
    tool: Tool | None  # None for a document rule's finding (its tool is found from its pointer)
    slot_kind: str | None
    profile: str | None  # the decoder profile's name (profile rules)


@dataclass(slots=True)
class Place:
    """Where findings are: one per pointer, shared by every finding there (here and in a
    worker's pickle). ``span`` and ``source`` are filled in when the place is located; ``file``,
    ``line`` and ``column`` are where the findings show (the first three of
    :meth:`Finding.sort_key` after the origin)."""

    text: str  # the pointer as text
    pointer: Pointer
    span: Span | None = None
    source: CodeLocation | None = None
    file: str = ""
    line: int = 1
    column: int = 1


def _owner(by_pointer: dict, pointer) -> Tool | None:
    """The tool whose declaration contains ``pointer`` (for document-level findings), from ``{tool
    pointer: tool}``: a look-up per ancestor, not a pass over every tool (PRB102 may report 100,000)."""
    p = tuple(pointer)
    for n in range(len(p)):
        tool = by_pointer.get(p[:n])
        if tool is not None:
            return tool
    return None


def merged(raw: list[RuleHit]) -> list[tuple[RuleHit, Place]]:
    """Each finding once, with its place, in the order first made; those equal but for their
    versions (rule, pointer text, message, profile) merge into the first, with all their
    versions. The findings at one pointer share one :class:`Place`."""
    places: dict = {}
    merged: dict[tuple, tuple[RuleHit, Place]] = {}
    for hit in raw:
        rf = hit.finding
        place = places.get(rf.pointer)
        if place is None:
            place = places[rf.pointer] = Place(str(rf.pointer), rf.pointer)
        key = (hit.meta.id, place.text, rf.message, hit.profile)  # (a profile's kept message: equal tuples, equal words)
        entry = merged.get(key)
        if entry is not None:  # (versions stay the caller's tuple unless another finding merges into this one)
            first = entry[0]
            merged[key] = (first._replace(versions=set(first.versions) | set(hit.versions)), place)
        else:
            merged[key] = (hit, place)
    return list(merged.values())


def _located(doc, merged_hits: list) -> None:
    """Locate the places of ``merged_hits`` in ``doc``."""
    origin = doc.source.origin
    places = list({id(place): place for _, place in merged_hits}.values())
    doc.prepare([place.pointer for place in places])
    for place in places:
        ptr = place.pointer
        span = place.span = doc.locate(ptr)
        source = place.source = doc.locate_code(ptr)
        if source is not None:
            place.file, place.line, place.column = source.file, source.line, source.column
        elif span is not None:
            place.file, place.line, place.column = origin, span.line, span.col
        else:
            place.file = origin


def finish(raw: list[RuleHit], coll: Collection, config: Config, used: set | None = None) -> list[Finding]:
    """Stamp IDs, severities and locations; merge findings that differ only by version."""
    doc = coll.doc
    origin = doc.source.origin
    hits = merged(raw)
    from .versions import ordered

    _located(doc, hits)
    suppress = bool(config.suppress)
    severities = config.severity
    # Equal messages become one object (a profile repeats its words for every tool): the
    # findings of a file then share it, in this process and in the pickle sent from a worker.
    messages: dict = {}
    in_order: dict = {}  # a call's versions tuple -> ordered(it)
    last_versions: tuple | None = None  # (a rule call's findings come one after another: its tuple, looked up once)
    vs: tuple = ()
    out: list = []  # the findings
    keys: list = []  # each finding's sort key: Finding.sort_key less the origin, from what is at hand here
    owners: dict | None = None  # {tool pointer: tool}, built when a finding needs it
    last_tool = name = None
    for hit, place in hits:
        meta, rf = hit.meta, hit.finding
        if suppress:
            entry = suppressed_by(config, meta.id, origin, place.text)
            if entry is not None:
                if used is not None:
                    used.add(entry)
                continue
        severity = (severities and severities.get(meta.id)) or rf.severity or meta.severity
        tool = hit.tool
        if tool is None:
            if owners is None:
                owners = {}
                for t in coll.tools:
                    owners.setdefault(tuple(t.pointer), t)
            tool = _owner(owners, place.pointer)
        if tool is not last_tool:
            last_tool = tool
            name = None if tool is None else tool.name
        versions = hit.versions
        if versions is last_versions:
            pass
        elif type(versions) is tuple:  # one rule call's versions, as the plan holds them
            last_versions = versions
            found = in_order.get(versions)
            if found is None:
                found = in_order[versions] = ordered(versions)
            vs = found
        else:  # merged from several calls
            last_versions = None
            vs = ordered(versions)
        message, fix = rf.message, rf.fix
        if coll.assumed and len(vs) < len(coll.assumed) and not (severities and meta.id in severities):
            severity, message, fix = only_under(severity, message, fix, vs, coll.assumed)  # (collect.assume_versions)
        message = messages.setdefault(message, message)
        out.append(Finding(meta.id, meta.name, severity, message, origin, place.pointer, place.span, name,
                           hit.slot_kind, vs, hit.profile, fix, rf.consequence, place.source))
        keys.append((place.file, place.line, place.column, -severity, meta.id, place.text, hit.profile or ""))
    if any(f.fix for f in out):  # fixes in the words of what generated the schema (pydantic, zod)
        out = in_generators_words(doc, out)  # (it changes a fix's words only: the sort keys stay)
    # Finding.sort_key's order (a stable sort by the same keys, computed once above)
    return list(map(out.__getitem__, sorted(range(len(out)), key=keys.__getitem__)))
