"""A slot whose schema an earlier slot of the same collection holds, linted once.

Listings repeat schemas: an empty input schema, one output schema shared by a server's tools,
generated families of look-alike tools (a fifth of the slots of the servers in ``bench/servers``
repeat a slot before them in their file). A slot rule's findings depend on the slot's schema,
its kind and its versions, and on nothing else unless it reads the slot's tool or its collection,
both of which are noted (:attr:`mcplint.model.Slot.tool_read`,
:attr:`mcplint.registry.Context.looked_collection`). So on a slot whose schema (its ``marshal``
encoding: the same values, of the same types, in the same order) an earlier slot of the
collection holds, with the same rule calls, a call that read neither finds what it found there,
each finding moved under this slot's pointer.

The first slot of a schema is linted as usual. The second is linted as usual too, each call
watched: a call is replayed on the slots after it only when it read neither its tool nor its
collection, each of its findings lies under the slot's pointer, none carries a patch (whose
values a fix would write into the document), and the first two slots' findings agree once
moved (so a call whose words depend on its place in some other way is made every time). The
decoder profiles' rules are always made: what they keep per schema for the document's rules
(:mod:`mcplint.rules.decoder_profile.common`) is kept for every slot. ``tests/test_repeats.py``
holds the findings equal to linting every slot.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from .schemawalk import Walks

# The encodings of the first slots are kept, to find their repeats: at most this many bytes of them
# (a file of that many distinct schemas is linted slot by slot past it).
_KEPT_BYTES = 32 * 1024 * 1024


class _First(NamedTuple):
    """The first slot of a schema: its pointer, and where its findings start and end in ``raw``."""

    pointer: tuple
    start: int
    end: int


class RepeatedSlots:
    """The slots of one collection seen so far, by schema and rule calls. ``raw`` is the engine's
    list of raw findings, ``run`` its ``run(calls, target, tool, slot kind)``, which appends to
    it, and ``walks`` the collection's (the slots' encodings, which the engine's plan read)."""

    def __init__(self, raw: list, run, walks: Walks):
        self.raw, self.run, self.walks = raw, run, walks
        self.first: dict = {}  # key -> its _First
        self.replays: dict = {}  # key -> the calls for the slots after the second: some made, some replayed
        self.kept = 0  # bytes of encodings kept

    def lint(self, slot, tool, calls: list) -> None:
        """Lint ``slot`` (of ``tool``) with ``calls``, the engine's plan for it."""
        blob = self.walks.encoded(slot.schema)
        if blob is None:  # (too deep to encode: linted as it is)
            self.run(calls, slot, tool, slot.kind)
            return
        key = (slot.kind, blob, id(calls))  # (the engine keeps each plan for the collection: its id stays its own)
        replay = self.replays.get(key)
        if replay is not None:
            self.run(replay, slot, tool, slot.kind)
            return
        start = len(self.raw)
        first = self.first.pop(key, None)
        if first is None:
            self.run(calls, slot, tool, slot.kind)
            if self.kept + len(blob) <= _KEPT_BYTES:
                self.kept += len(blob)
                self.first[key] = _First(slot.pointer, start, len(self.raw))
            return
        looked: dict = {}
        self.run([c._replace(func=partial(_watched, c.func, looked, i)) for i, c in enumerate(calls)],
                 slot, tool, slot.kind)
        self.replays[key] = self._replays(calls, looked, first, slot.pointer, start)

    def _replays(self, calls: list, looked: dict, first: _First, here, start: int) -> list:
        """``calls``, each call that can stand for its repeats replaced by its replay."""
        base = first.pointer
        before, now = _by_call(self.raw[first.start:first.end]), _by_call(self.raw[start:])
        out = []
        for i, call in enumerate(calls):
            meta, key = call.meta, (call.meta.id, call.profile, call.versions)
            kept = _relative(before.get(key, ()), base)
            if (meta.profiled or looked.get(i, True) or kept is None
                    or [rf._replace(pointer=here + rest) for rf, rest in kept] != now.get(key, [])):
                out.append(call)
            else:
                out.append(call._replace(func=partial(_replay, kept)))
        return out


def _watched(func, looked: dict, i: int, target, ctx):
    """A rule call, noting in ``looked[i]`` whether it read its slot's tool or its collection."""
    target.tool_read = ctx.looked_collection = False
    yield from func(target, ctx)
    looked[i] = target.tool_read or ctx.looked_collection


def _replay(kept: list, target, ctx):
    """The findings of a replayed call, under ``target``'s pointer."""
    here = target.pointer
    for rf, rest in kept:
        yield rf._replace(pointer=here + rest)


def _by_call(hits: list) -> dict:
    """{(rule ID, profile, versions): [raw finding]} of the engine's rule hits, in the order made."""
    out: dict = {}
    for hit in hits:
        out.setdefault((hit.meta.id, hit.profile, hit.versions), []).append(hit.finding)
    return out


def _relative(found, base) -> list | None:
    """[(raw finding, its pointer below ``base``)], or None when one lies elsewhere or carries a patch."""
    n, out = len(base), []
    for rf in found:
        if rf.pointer[:n] != base or (rf.fix is not None and rf.fix.patch):
            return None
        out.append((rf, rf.pointer[n:]))
    return out
