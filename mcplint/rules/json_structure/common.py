"""What the JST rules share: whether a slot is bound to JSON Structure, and turning the
problems of :mod:`mcplint.jstruct.schema` into findings."""

from __future__ import annotations

from ...jstruct import dialects


def is_bound(slot):
    return dialects.is_jstruct(slot.schema)


def emit(slot, ctx, problems, fix=None, patch_for=None):
    for p in problems:
        patch = patch_for(p) if patch_for else ()
        yield ctx.finding(slot.pointer + p.path, p.message, fix=fix, patch=patch or ())
