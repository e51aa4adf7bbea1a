"""Whole documents: every tool of a loaded document projected, the result in the input's
shape, with tool-level facts (names, descriptions) and per-request limits reported."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..profiles.describe import describe
from ..profiles.model import REFUSALS, Profile
from .projector import DOCUMENT_WORK_PER_SUBSCHEMA, as_profile, project_schema
from .tree import DEFAULT_UNROLL, KINDS, WORK, Item, at_pointer, copy_tree

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


def _refused_root(prof: Profile, slot, titems: list) -> bool:
    """Whether the profile refuses this (output) schema's root shape, leaving the tool out: a
    client whose SDK requires an object root there (gemini-cli). Says so in a left-out item."""
    from ..profiles.evaluate import evaluate_slot

    for e in evaluate_slot(prof, slot.schema, slot=slot.kind, routes=False):
        if e.subject == "root-not-object" and len(tuple(e.pointer)) <= 1 and prof.consequence(e.rule) in REFUSALS:
            titems.append(Item("left-out", e.subject, tuple(slot.pointer), describe(prof, e, slot.tool.name)
                               + " The projection does not change what a tool returns, so the tool is left out."))
            return True
    return False


def project_document(doc, profile: Profile | str, *, unroll_depth: int = DEFAULT_UNROLL,
                     bounds=None) -> DocumentProjection:
    """Project every tool of a loaded document; the result keeps the document's shape
    (a tools/list result stays one, a JSON-RPC response stays one, ...)."""
    from ..collect import collect
    from ..config import Bounds, Config
    from ..profiles.request import evaluate_tool

    prof = as_profile(profile)
    bounds = bounds or Bounds()
    coll = collect(doc, Config().protocol_versions)
    out = copy_tree(doc.data)
    items: list[Item] = []
    outcomes: list[ToolOutcome] = []
    leave: list = []
    limit, start = bounds.max_subschemas * DOCUMENT_WORK_PER_SUBSCHEMA, WORK[0]  # (each projection adds its work)
    for tool in coll.tools:
        if WORK[0] - start > limit:
            _leave_unprojected(tool, limit, items, outcomes, leave)
            continue
        titems: list[Item] = []
        left = False
        for e in evaluate_tool(prof, tool):
            if e.subject == "tool_description_length":
                target = at_pointer(out, tuple(tool.pointer))
                lim = e.rule.max
                if isinstance(target, dict) and isinstance(target.get("description"), str):
                    target["description"] = target["description"][: max(0, lim - 3)] + "..."
                    titems.append(Item("shortened", "description", tuple(e.pointer),
                                       f"the description is shortened from {e.params.get('count')} to {lim} "
                                       f"characters ({describe(prof, e, tool.name)}); the rest is cut"))
                continue
            if prof.consequence(e.rule) in REFUSALS:
                left = True
                titems.append(Item("left-out", e.subject, tuple(e.pointer), describe(prof, e, tool.name)
                                   + " The projection does not rename tools, so the tool is left out."))
        for slot in tool.slots():
            if slot.kind == "outputSchema" and _refused_root(prof, slot, titems):
                left = True  # (a root the client refuses in a result's schema: no rewrite keeps the tool's results)
                continue
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
                target = at_pointer(out, tuple(tool.pointer))
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
        container = at_pointer(out, ptr[:-1])
        if isinstance(container, list):
            container.pop(ptr[-1])
    if out is not None and any(o.status != "left-out" for o in outcomes):
        items += _request_items(prof, out, coll, doc)
    items.sort(key=lambda i: i.kind not in ("left-out", "limit"))  # errors first, then in tool order
    return DocumentProjection(out, items, outcomes, prof)


def _leave_unprojected(tool, limit: int, items: list, outcomes: list, leave: list) -> None:
    """The document's work bound is spent: the tool is left out unprojected, with an item saying so."""
    items.append(Item("left-out", "work", tuple(tool.pointer),
                      f"not projected: the tools before it took the document's whole bound of {limit:,} units of "
                      "work (nodes copied or visited; raise bounds.max-subschemas, of which it is a multiple, or "
                      "project fewer tools at a time), so the tool is left out", tool=tool.label))
    outcomes.append(ToolOutcome(tool.label, tuple(tool.pointer), "left-out"))
    leave.append(tuple(tool.pointer))


def _request_items(prof: Profile, out, coll, doc) -> list[Item]:
    from ..collect import collect
    from ..config import Config
    from ..load import load_text
    from ..profiles.request import evaluate_request

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
