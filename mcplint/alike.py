"""A tool that several captures of a probe list alike, linted once.

A server answering ``tools/list`` under several protocol versions usually lists nearly the same
tools under each. The capture keeps each distinct listing (:mod:`mcplint.capture`), each is linted
under its own versions, and :func:`mcplint.capture.one_per_problem` then makes the findings of one
problem in several captures one finding, at the first capture's place, naming every version: a
probe of a server listing 60,000 tools under four versions linted 240,000 tools for the findings
of 60,000 (four times the CPU).

Most rule calls do not depend on the version they are made for: they read neither
``Context.versions`` nor ``Context.collection`` (:class:`mcplint.registry.Context` notes each
read). For a tool that an earlier capture listed at the same place, with the same JSON, such a
call finds what it found there: its findings join the earlier capture's, under this capture's
versions, where the engine's merge of findings that differ only by version makes them one, as
``one_per_problem`` made one of the findings of the call made again (and a finding is built
once, not once per version). The calls that read their versions or collection, and those the
earlier capture did not make (a rule of a version only this capture has), are made.
``tests/test_alike.py`` holds every result equal to linting each capture in full.
"""

from __future__ import annotations

from .finish import RuleHit

_NOTHING: dict = {}


class _Calls:
    """What the loop needs to know of one list of rule calls (the engine's plans are shared by
    every target of one kind, so this is made once per list). A call's key, its identity across
    captures, is its rule and profile, not its versions."""

    __slots__ = ("calls", "keys", "members", "contexts")

    def __init__(self, calls: list):
        self.calls = calls  # (kept: the caches below are keyed by its id)
        self.members: dict = {}  # (rule ID, profile) -> that rule's call
        self.contexts: dict = {}  # id(Context) -> (the Context, the key of its call)
        for call in calls:
            key = (call.meta.id, call.profile)
            self.members[key] = call
            self.contexts[id(call.ctx)] = (call.ctx, key)
        self.keys = frozenset(self.members)


def _names_a_place(rf) -> bool:
    """Do a finding's words (message, fix) hold a pointer into a capture? Those of an alike
    tool's would then name the other capture's place."""
    return "captures/" in str(rf.message) or (rf.fix is not None and "captures/" in rf.fix.title)


class AlikeTools:
    """What the captures linted so far found on each tool, by its place in a capture (the
    pointer below ``/captures/N``), for the captures after it. One per probe."""

    def __init__(self, tool_facts, slot_facts):
        self.tool_facts, self.slot_facts = tool_facts, slot_facts
        self.places: dict = {}  # place -> [[tool, repr of its data or None until compared, {slot kind: record}]]
        self.lists: dict = {}  # id(calls list) -> its _Calls
        self.interned: dict = {}  # frozenset of keys -> itself (most tools' calls made again are the same few)
        self.redo: dict = {}  # (id(calls list), id(keys made), id(keys made again)) -> the calls to make

    def _calls(self, calls: list) -> _Calls:
        info = self.lists.get(id(calls))
        if info is None:
            info = self.lists[id(calls)] = _Calls(calls)
        return info

    def lint(self, tool, raw: list, run, calls_for, words, walks) -> None:
        """Lint ``tool`` as the engine's loop does (``words``: None when no slot rule runs;
        ``walks``: the collection's shared walks, for the slot's facts), taking what an alike
        tool of an earlier capture found where a call read no version."""
        p = tool.pointer
        place = tuple(p[2:]) if len(p) > 2 and p[0] == "captures" else None
        earlier = self._alike(place, tool) if place is not None else None
        records: dict | None = None
        if earlier is None and place is not None:
            records = {}
            self.places.setdefault(place, []).append([tool, None, (tool, raw, records)])
        targets = [(tool, None)]
        if words is not None:
            targets += [(slot, slot.kind) for slot in tool.slots()]
        for target, kind in targets:
            before = earlier[2].get(kind) if earlier is not None else None
            if before is not None:
                facts = before[0]
            else:
                facts = self.tool_facts(tool) if kind is None else self.slot_facts(target, words, walks)
            info = self._calls(calls_for("tool" if kind is None else "slot", tool.versions, facts))
            if before is not None:
                self._replay(before, info, target, tool, kind, raw, run, earlier[:2])
            else:
                record = self._record(info, target, tool, kind, raw, run)
                if records is not None:
                    records[kind] = (facts, *record)

    def _alike(self, place: tuple, tool) -> tuple | None:
        """(tool, its capture's raw findings, {slot kind: record}) of a tool an earlier capture
        listed at ``place`` with the same JSON."""
        for entry in self.places.get(place, ()):
            if entry[0].data is tool.data:  # (a probe's captures share the value of a tool listed alike)
                return entry[2]
            if entry[0].data != tool.data:
                continue
            # == takes 1 for 1.0 and for true; the reprs of parsed JSON differ wherever a type or
            # a member's order does (and -0.0 from 0.0): equal reprs, the same JSON value
            try:
                if entry[1] is None:
                    entry[1] = repr(entry[0].data)
                if entry[1] == repr(tool.data):
                    return entry[2]
            except RecursionError:  # (nested about as deep as a parser takes: lint it in full)
                return None
        return None

    def _record(self, info: _Calls, target, tool, kind, raw: list, run) -> tuple:
        """Make every call; (the keys of the calls made, those that read a version or the
        collection, {key: [(rule ID, profile, raw finding)] of a call that read neither})."""
        for ctx, _ in info.contexts.values():
            ctx.looked = False
        n = len(raw)
        run(info.calls, target, tool, kind)
        again = {key for ctx, key in info.contexts.values() if ctx.looked}
        found: dict = _NOTHING
        for hit in raw[n:]:
            key = (hit.meta.id, hit.profile)
            if key in again:
                continue
            if _names_a_place(hit.finding):  # (its words may name this capture's place: make it again)
                again.add(key)
                found.pop(key, None)
                continue
            if found is _NOTHING:
                found = {}
            found.setdefault(key, []).append(hit.finding)
        frozen = frozenset(again)
        return info.keys, self.interned.setdefault(frozen, frozen), found

    def _replay(self, before: tuple, info: _Calls, target, tool, kind, raw: list, run, earlier: tuple) -> None:
        """Each call: its findings taken from the alike tool's record into that tool's capture
        (``earlier``: the tool and its capture's raw findings; at its place, under this call's
        versions), or the call made, when the record cannot stand for it (it read its versions
        or collection, or the earlier capture did not make it)."""
        _, made, again, found = before
        at = (id(info.calls), id(made), id(again))
        redo = self.redo.get(at)
        if redo is None:
            redo = self.redo[at] = [c for c in info.calls if (key := (c.meta.id, c.profile)) not in made or key in again]
        if redo:
            run(redo, target, tool, kind)
        first_tool, first_raw = earlier
        for key, rfs in found.items():
            if key in info.keys and key not in again:
                c = info.members[key]
                for rf in rfs:
                    first_raw.append(RuleHit(c.meta, rf, c.versions, first_tool, kind, c.profile))
