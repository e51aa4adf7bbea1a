"""Character offsets to line:column: columns count code points, 1-based; a tab is one
column; CRLF is one break. Offsets are into the text as read, byte-order mark included;
a leading byte-order mark is not a column (line 1 counts from the character after it, as
editors show it). What the JSON source map (:mod:`mcplint.sourcemap`) hands a
finding's location to."""

from __future__ import annotations

import bisect
from itertools import accumulate

from .model import Span


class Lines:
    """Offset -> (line, column). :meth:`warm` converts a batch of offsets in one pass over the
    text; for other offsets, line breaks are counted (in C) from the nearest offset already
    converted, so a big file with a handful of findings is never split into lines; past a few
    hundred such offsets, a table of every line start is built once."""

    __slots__ = ("text", "bom", "offsets", "lines", "cols", "starts", "known")
    CHECKPOINTS = 256

    def __init__(self, text: str):
        self.text = text
        self.bom = bom_length(text)
        self.offsets = [0]  # converted offsets, sorted, and the line each is on
        self.lines = [1]
        self.cols = [1 - self.bom]  # (offset 0's column: the character after a BOM is column 1)
        self.starts: list | None = None  # offset of every line's first character, when built
        self.known: dict = {}  # offset -> (line, column), from warm()

    def warm(self, offsets) -> dict:
        """Convert ``offsets`` (ascending), counting line breaks once from the start; returns
        ``{offset: (line, column)}``. A batch of fewer than :attr:`CHECKPOINTS` is also kept, for
        :meth:`pos` to look up (and, the first time, as checkpoints); a bigger one is not: its
        caller keeps what it made of it (100,000 findings' offsets held twice cost 27 MiB)."""
        found: dict = {}
        text = self.text
        count, rfind = text.count, text.rfind
        # start: where the line break before ``prev`` is (on line 1: just before its first column)
        line, prev, start = 1, 0, self.bom - 1
        for o in offsets:
            n = count("\n", prev, o)
            if n:  # (searched back only to the previous offset: one pass over a one-line file too)
                line += n
                start = rfind("\n", prev, o)
            found[o] = (line, o - start)
            prev = o
        if len(found) < self.CHECKPOINTS:
            known = self.known
            known.update(found)
            if len(self.offsets) == 1 and len(known) < self.CHECKPOINTS:  # and keep them as checkpoints
                pairs = sorted(known.items())
                self.offsets = [0] + [o for o, _ in pairs if o]
                self.lines = [1] + [lc[0] for o, lc in pairs if o]
                self.cols = [1 - self.bom] + [lc[1] for o, lc in pairs if o]
        return found

    def pos(self, offset: int) -> tuple[int, int]:
        hit = self.known.get(offset)
        if hit is not None:
            return hit
        starts = self.starts
        if starts is not None:
            i = bisect.bisect_right(starts, offset) - 1
            return i + 1, offset - starts[i] + 1 - (self.bom if i == 0 else 0)
        offsets = self.offsets
        i = bisect.bisect_right(offsets, offset) - 1
        base = offsets[i]
        line = self.lines[i] + self.text.count("\n", base, offset)
        # the column: from the last line break since the checkpoint, else from the checkpoint's own
        # column (not a search back to the start: on a one-line file that would be its whole length)
        nl = self.text.rfind("\n", base, offset)
        col = offset - nl if nl >= 0 else self.cols[i] + offset - base
        if base != offset:
            if len(offsets) >= self.CHECKPOINTS:
                # running sum of (line length + 1), all in C
                self.starts = list(accumulate(map((1).__add__, map(len, self.text.split("\n"))), initial=0))[:-1]
            else:
                offsets.insert(i + 1, offset)
                self.lines.insert(i + 1, line)
                self.cols.insert(i + 1, col)
        return line, col

    def span(self, start: int, end: int) -> Span:
        l1, c1 = self.pos(start)
        l2, c2 = self.pos(end)
        return Span(l1, c1, l2, c2)


def bom_length(text: str) -> int:
    """How many characters of ``text`` are a leading byte-order mark: every leading U+FEFF, as
    mcplint's JSON parser skips them all (:func:`mcplint.jsonparse.parse_json`)."""
    return len(text) - len(text.lstrip("\ufeff")) if text[:1] == "\ufeff" else 0


class OffsetMap:
    """``{pointer: (key start, key end, value start, value end)}`` in character offsets
    (key offsets -1 for array items and the root); :meth:`get` turns an entry into
    ``(key span, value span)`` only when asked, so building the map stays cheap."""

    __slots__ = ("offsets", "lines", "regions")

    def __init__(self, offsets: dict, lines: Lines):
        self.offsets = offsets
        self.lines = lines
        self.regions: dict = {}  # {pointer: what region() gives}, made by warm()

    def get(self, ptr, default=None):
        entry = self.offsets.get(ptr)
        if entry is None:
            return default
        ks, ke, vs, ve = entry
        return (self.lines.span(ks, ke) if ks >= 0 else None), self.lines.span(vs, ve)

    def region(self, ptr) -> Span | None:
        """The span of ``ptr``'s member, its key included (what a finding there points at), or
        None when ``ptr`` is not mapped: one :class:`Span`, from the two offsets it needs."""
        known = self.regions.get(ptr)
        if known is not None:
            return known
        entry = self.offsets.get(ptr)
        if entry is None:
            return None
        pos = self.lines.pos
        line, col = pos(entry[0] if entry[0] >= 0 else entry[2])
        return Span(line, col, *pos(entry[3]))

    def __contains__(self, ptr) -> bool:
        return ptr in self.offsets

    def warm(self, ptrs) -> None:
        """Convert the offsets :meth:`region` reads for ``ptrs`` (where each starts, its key
        included, and where its value ends) to lines and columns in ascending order, so that
        counting line breaks passes over the text once rather than once per finding."""
        offsets = self.offsets
        offs = set()
        entries = []
        for p in ptrs:
            entry = offsets.get(p)
            if entry is not None:
                start = entry[0] if entry[0] >= 0 else entry[2]
                offs.add(start)
                offs.add(entry[3])
                entries.append((p, start, entry[3]))
        known = self.lines.warm(sorted(offs))
        # and each one's region made now, from the lines and columns at hand: region() is then one look-up
        regions, span = self.regions, tuple.__new__
        for p, start, end in entries:
            regions[p] = span(Span, known[start] + known[end])

    def __len__(self) -> int:
        return len(self.offsets)
