"""A profile in the form the evaluator reads: per-keyword rules resolved once per profile.

:func:`compiled` keeps one :class:`Compiled` per loaded :class:`~.model.Profile`.
"""

from __future__ import annotations

from .model import Profile, Rule


class Compiled:
    """A profile made ready for evaluation: keyword -> rule to apply (None: nothing to say),
    filled in on first sight of each keyword, so the inheritance and metadata lookups of
    :meth:`Profile.keyword_rule` run once per keyword per profile, not once per node."""

    __slots__ = ("profile", "keywords")

    def __init__(self, profile: Profile):
        self.profile = profile
        self.keywords: dict = {}

    def keyword(self, kw: str) -> Rule | None:
        rule = self.profile.keyword_rule(kw)
        if rule is not None and rule.when is None and rule.action == "enforce" and not (kw == "pattern" and rule.regex):
            rule = None  # unconditionally enforced and no regex features to inspect: silent
        self.keywords[kw] = rule
        return rule


_COMPILED: dict = {}  # id(profile) -> (profile, Compiled)


def compiled(profile: Profile) -> Compiled:
    hit = _COMPILED.get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    if len(_COMPILED) > 64:
        _COMPILED.clear()
    comp = Compiled(profile)
    _COMPILED[id(profile)] = (profile, comp)
    return comp
