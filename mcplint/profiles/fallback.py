"""Backend fallback: a target that, instead of failing on what one backend rejects, compiles
the whole schema with another backend (vLLM's structured-outputs backend ``auto`` tries
xgrammar with a pre-check, then llguidance, or outlines for a schema with
``patternProperties``).

A profile with ``fallback:`` routes is first evaluated as itself. If nothing in the schema is
rejected, that is the answer. Otherwise the first route whose ``when_has`` holds names the
profile whose facts then apply to the whole schema: an info effect at the first rejected
keyword says why the schema moved, and the other profile's effects follow, with the target's
prefix before the other backend's error text.

A route with ``trigger: drop`` is taken by a drop instead: a client that cannot convert a schema to its
strict form sends it as it is, unconstrained (openai-agents' non-strict fallback). Every drop
stays (each is a reason the tool is not strict), the profile's other effects go (the conversion
they describe never happens), and the other profile's follow (what the provider checks of a
non-strict tool), on the schema as the client sends it: ``root_defaults`` are the keys it puts at
the root where the server left them out (the Agents SDKs add ``properties: {}``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .model import Fallback, Profile, Rule, as_sent

_TRIGGER_KINDS = ("keyword", "regex", "construct")


def has_key(schema: Any, keys: tuple, max_nodes: int) -> bool:
    """Whether one of ``keys`` is a key of any object nested anywhere in ``schema`` (as vLLM's
    own checks walk it: every dict value and list item, not only subschemas)."""
    stack, seen = [schema], 0
    while stack and seen < max_nodes:
        v = stack.pop()
        seen += 1
        if isinstance(v, dict):
            if any(k in v for k in keys):
                return True
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend(x for x in v if isinstance(x, (dict, list)))
    return False


def _route_rule(fb: Fallback, to: Profile, trigger: str) -> Rule:
    return Rule("annotation", fb.source, message=fb.message.replace("{to}", to.display),
                fix=f"To keep the schema on the first backend, remove or rewrite '{trigger}'; "
                    f"otherwise fix what {to.display} reports")


def routed_effects(profile: Profile, schema: Any, max_nodes: int, facts, evaluate: Callable, Effect) -> list:
    """The effects of ``profile`` on one slot with its fallback routes applied (``evaluate`` is
    :func:`.evaluate.evaluate_slot`, ``Effect`` its effect class: passed in, so this module does
    not import the evaluator back)."""
    from .loader import load_profile

    own = evaluate(profile, schema, max_nodes, facts=facts, routes=False)
    for fb in profile.fallback:
        trigger = next((e for e in own if e.kind in _TRIGGER_KINDS and e.rule.action == fb.trigger), None)
        if trigger is None or fb.when_has and not has_key(schema, fb.when_has, max_nodes):
            continue
        to = load_profile(fb.to)
        if fb.trigger == "drop":
            # the schema goes out as it is, unconstrained: each refusal says so; what the profile
            # would have done to a converted schema never happens; the other profile's rules apply,
            # to the schema with what the client puts at its root where the server left it out
            sent = as_sent(schema, fb.root_defaults)
            return [e for e in own if e.rule.action == "drop"] + \
                evaluate(to, sent, max_nodes, facts=facts if sent is schema else None)
        out = [Effect(trigger.pointer, "backend-fallback", "construct", _route_rule(fb, to, trigger.subject),
                      {"keyword": trigger.subject, "_node": trigger.params.get("_node", ())})]
        for e in evaluate(to, schema, max_nodes, facts=facts):
            r = e.rule
            if fb.error_prefix and getattr(r, "error", None):
                e = Effect(e.pointer, e.subject, e.kind, replace(r, error=fb.error_prefix + r.error), e.params)
            out.append(e)
        return out
    return own
