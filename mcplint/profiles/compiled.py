"""A profile in the form the evaluator reads: per-keyword rules resolved once per profile.

:func:`compiled` gives the one :class:`Compiled` a loaded :class:`~.model.Profile` keeps.
"""

from __future__ import annotations

from .model import Profile, Rule


class Compiled:
    """A profile made ready for evaluation: keyword -> rule to apply (None: nothing to say),
    filled in on first sight of each keyword, so the inheritance and metadata lookups of
    :meth:`Profile.keyword_rule` run once per keyword per profile, not once per node.
    ``silent`` holds the keywords seen so far that have nothing to say (None in ``keywords``):
    a node whose keys are all in it is passed over in one test. The rest is what every
    evaluation of a slot would otherwise look up again."""

    __slots__ = ("profile", "keywords", "silent", "root", "root_conditional", "boolean", "references", "slot_limits",
                 "refuses", "walks")

    def __init__(self, profile: Profile):
        self.profile = profile
        self.keywords: dict = {}
        self.silent: set = set()
        cons, limits = profile.constructs, profile.limits
        # the root's own constructs: root-not-object, root-combinator, invalid-schema, schema-over-budget
        self.root = (cons.get("root-not-object"), cons.get("root-combinator"), cons.get("invalid-schema"),
                     cons.get("schema-over-budget"))
        self.root_conditional = any(c is not None and c.when is not None for c in self.root)
        self.boolean = cons.get("boolean-subschema")
        self.references = "recursion" in cons or "remote-ref" in cons
        # a drop is the client refusing the whole conversion (openai-agents' non-strict fallback), not one
        # constraint lost: a keyword that constrains nothing still makes it refuse, so it is still reported
        self.refuses = any(fb.trigger == "drop" for fb in profile.fallback or ())
        # the applicators that conversion visits: a refusal under one the target rejects still stands
        self.walks = frozenset(k for fb in profile.fallback or () if fb.trigger == "drop" for k in fb.walks or ())
        # the limits measured over the whole slot: (name, the field of facts.Measures it reads, the limit)
        self.slot_limits = tuple((name, measured, limits[name]) for name, measured in (
            ("nesting_depth", "depth"), ("object_properties", "properties"), ("enum_values", "enum_values"),
            ("string_budget", "string_budget")) if name in limits)

    def keyword(self, kw: str) -> Rule | None:
        rule = self.profile.keyword_rule(kw)
        if rule is not None and rule.when is None and rule.action == "enforce" and not (kw == "pattern" and rule.regex):
            rule = None  # unconditionally enforced and no regex features to inspect: silent
        self.keywords[kw] = rule
        if rule is None:
            self.silent.add(kw)
        return rule


def compiled(profile: Profile) -> Compiled:
    """The profile's :class:`Compiled` form, made on first use and kept by the profile itself
    (``Profile.derived``): it lives as long as the profile, and no longer."""
    comp = profile.derived.get("compiled")
    if comp is None:
        comp = profile.derived["compiled"] = Compiled(profile)
    return comp
