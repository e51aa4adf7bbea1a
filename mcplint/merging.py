"""Findings of one collection that differ only by their protocol versions, merged into one
(the engine's :func:`mcplint.engine._finish` calls :func:`_merged`)."""

from __future__ import annotations


def _merged_plain(raw: list) -> list:
    """Each finding once: (the raw finding's tuple, its place), in the order first made; those
    equal but for their versions (rule, pointer text, message, profile) merge into the first, with
    all their versions. A place, [pointer text, pointer, span, code location] (the last two filled
    in by the caller), is shared by the findings at one pointer (here and in a worker's pickle)."""
    places: dict = {}
    merged: dict[tuple, tuple] = {}
    for item in raw:
        rf = item[1]
        place = places.get(rf.pointer)
        if place is None:
            place = places[rf.pointer] = [str(rf.pointer), rf.pointer, None, None]
        key = (item[0].id, place[0], rf.message, item[5])  # (a profile's kept message: equal tuples, equal words)
        entry = merged.get(key)
        if entry is not None:  # (versions stay the caller's tuple unless another finding merges into this one)
            first = entry[0]
            merged[key] = ((*first[:2], set(first[2]) | set(item[2]), *first[3:]), place)
        else:
            merged[key] = (item, place)
    return list(merged.values())


def _merged(raw: list) -> list:
    """What :func:`_merged_plain` gives, grouped by place, which the final sort cannot tell
    apart: findings whose sort keys tie share their pointer's text, so their place, and keep
    their order within it. Only findings that share a place can merge, and only those of one
    rule and one profile: a place's findings are compared only then (a run with the three hosted
    profiles makes 118,617 findings, at 93,517 places, and none merge), where the plain way
    hashes every finding's message twice."""
    at: dict = {}  # pointer -> the raw findings there, in the order made
    for item in raw:
        ptr = item[1].pointer
        here = at.get(ptr)
        if here is None:
            at[ptr] = [item]
        else:
            here.append(item)
    texts = list(map(str, at))
    if len(set(texts)) < len(texts):  # two pointers with one text (a key "0" and an index 0): the plain way
        return _merged_plain(raw)
    out: list = []
    append = out.append
    for text, (ptr, items) in zip(texts, at.items()):
        place = [text, ptr, None, None]
        if len(items) > 1 and len({(item[0].id, item[5]) for item in items}) < len(items):
            items = [entry[0] for entry in _merged_plain(items)]
        for item in items:
            append((item, place))
    return out
