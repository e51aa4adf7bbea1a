"""Findings packed to cross from a worker process to the parent (the parallel runner's
codec): :func:`pack_findings` writes a list of findings column by column, and
:func:`unpack_findings` makes them again. Only ``engine`` uses it; a single
:class:`~.model.Finding` pickles by itself.
"""

from __future__ import annotations

from array import array
from functools import partial
from typing import Sequence

from .model import Finding, Pointer, Severity, Span

_SEVERITIES = {int(s): s for s in Severity}


def pack_findings(findings: list) -> tuple:
    """``findings`` column by column, to send to another process (:func:`unpack_findings`
    rebuilds them): a pickle of one tuple per field, whose values repeat (a file's findings
    share their origin, tools, places, profiles, fixes), costs about a third less to write and to
    read than one reduction per finding. A place (the pointer, span and code location a
    place's findings share) goes once, its pointer and span as plain tuples: the pickle writes
    a ``Pointer`` or ``Span`` through its class's reduction (1.5 and 1 us each, against 0.3 and
    0.1 us for a tuple), and the parent makes them again in C."""
    n = len(findings)
    pointers = [f.pointer for f in findings]
    spans = [f.span for f in findings]
    sources = [f.source for f in findings]
    first: dict = {}  # (ids of pointer, span, code location) -> the first finding there
    at = list(map(first.setdefault, zip(map(id, pointers), map(id, spans), map(id, sources)), range(n)))
    number = dict(zip(first.values(), range(len(first))))  # the first finding at a place -> the place's number
    places = packed_places(array("I", map(number.__getitem__, at)).tobytes(),
                           list(map(pointers.__getitem__, first.values())),
                           list(map(spans.__getitem__, first.values())),
                           list(map(sources.__getitem__, first.values())))
    return (tuple([f.rule for f in findings]), tuple([f.name for f in findings]),
            bytes([f.severity for f in findings]), tuple([f._message for f in findings]),
            tuple([f.origin for f in findings]), places, tuple([f.tool for f in findings]),
            tuple([f.slot for f in findings]), tuple([f.versions for f in findings]),
            tuple([f.profile for f in findings]), tuple([f.fix for f in findings]),
            tuple([f.consequence for f in findings]))


def packed_places(at: bytes, pointers: Sequence, spans: Sequence, sources: Sequence) -> tuple:
    """The places of :func:`pack_findings`: ``at``, each finding's place number (an ``array("I")``'s
    bytes), and each place's pointer, span and code location."""
    if set(map(type, pointers)) <= {Pointer} and set(map(type, spans)) <= {Span, type(None)}:
        return (at, True, tuple(map(tuple, pointers)), tuple([None if s is None else tuple(s) for s in spans]),
                tuple(sources))
    return (at, False, tuple(pointers), tuple(spans), tuple(sources))  # (anything else goes as it is)


_span = partial(tuple.__new__, Span)


def unpack_findings(columns: tuple) -> list:
    """The findings :func:`pack_findings` packed."""
    rule, name, severity, message, origin, (at, plain, ptrs, spans, sources), *rest = columns
    where = array("I")
    where.frombytes(at)
    if plain:
        ptrs = list(map(Pointer, ptrs))
        spans = [None if s is None else _span(s) for s in spans]
    rows = zip(rule, name, map(_SEVERITIES.__getitem__, severity), message, origin, map(ptrs.__getitem__, where),
               map(spans.__getitem__, where), *rest, map(sources.__getitem__, where))
    return [Finding(*row) for row in rows]
