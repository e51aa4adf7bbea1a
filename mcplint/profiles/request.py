"""Facts beyond one schema: a tool's name and description, and the limits that apply to
every tool of one request (one ``tools/list``)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .evaluate import Effect
from .model import REFUSALS, Profile


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern:
    """A profile's tool name pattern, compiled once (``re.fullmatch`` looks it up in re's cache each call)."""
    return re.compile(pattern)


# memo.collection (mcplint.memo, when the caller has one): {(id(tool name rule), case): (the rule, the
# rule its findings of that case carry)}; {(id(tools), id(tool name rule), server): (the tools, the rule,
# {id(tool): the later tool})}
VARIANTS_KEY = "profiles.tool-name-variants"
REPLACED_KEY = "profiles.tools-replaced"


def _variant(tn, case: str, memo=None):
    """The tool name rule as a finding of ``case`` carries it: "served", the name the client shows
    when the server's name is known (``message_server``); "collided", a tool the client leaves out
    for a later one of its name (``collision``). Made once per run with a ``memo``."""
    kept = memo.table(VARIANTS_KEY) if memo is not None else {}
    hit = kept.get((id(tn), case))
    if hit is None or hit[0] is not tn:
        from dataclasses import replace

        if case == "served":
            rule = replace(tn, message=tn.message_server or tn.message)
        else:
            c = tn.collision  # (a client keeps the later tool; an API that refuses the pair says so)
            rule = replace(tn, action="reject", on_reject=c.get("on_reject", "skip-tool"), error=c.get("error"),
                           message=c["message"], fix=c["fix"])
        hit = kept[(id(tn), case)] = (tn, rule)
    return hit[1]


def _replaced(tn, tools, server, memo=None) -> dict:
    """{id(tool): the later tool the client shows under the same name} over one tools/list,
    worked out once for all its tools with a ``memo``."""
    kept = memo.table(REPLACED_KEY) if memo is not None else {}
    key = (id(tools), id(tn), server)
    hit = kept.get(key)
    if hit is None or hit[0] is not tools or hit[1] is not tn:
        last: dict = {}
        out: dict = {}
        for t in reversed(tools):
            n = t.data.get("name") if isinstance(t.data, dict) else None
            if isinstance(n, str):
                seen = tn.seen(server, n)
                if seen in last:
                    out[id(t)] = last[seen]
                else:
                    last[seen] = t
        hit = kept[key] = (tools, tn, out)
    return hit[2]


def evaluate_tool(profile: Profile, tool, server: str | None = None, siblings=None, memo=None) -> list[Effect]:
    """Tool-level facts: the name rule and the description length. ``server``: the name the
    client's configuration gives the server, when known; a client that shows the model its own
    name for the tool (``shown_as``) is then judged on that name. ``siblings``: the tools of the
    same tools/list (in its order), for a client that keeps one tool per name it shows.
    ``memo`` (mcplint.memo): where what every tool of the list shares is kept for the run."""
    out = []
    data = tool.data if isinstance(tool.data, dict) else {}
    name = data.get("name")
    tn = profile.tool_name
    later = (_replaced(tn, siblings, server, memo).get(id(tool)) if tn is not None and tn.collision and siblings
             else None)
    if later is not None:  # (left out: how its name is cut no longer matters)
        out.append(Effect(tuple(tool.pointer / "name"), "tool_name", "tool_name", _variant(tn, "collided", memo),
                          {"value": name, "other": later.name, "shown": tn.seen(server, name)}))
    lim = profile.limits.get("tool_name_length")
    over = lim is not None and isinstance(name, str) and len(name) > lim.max
    if later is None and tn is not None and isinstance(name, str):
        if server and tn.shown_as:
            shown = tn.shown(server, name)
            if shown is not None:
                out.append(Effect(tuple(tool.pointer / "name"), "tool_name", "tool_name", _variant(tn, "served", memo),
                                  {"value": name, "pattern": tn.pattern, "shown": shown, "server": server,
                                   "max": tn.max_shown, "length": len(tn.full(server, name))}))
        elif not _compiled(tn.pattern).fullmatch(name):
            # One name, one finding where one fault explains it: a name the length limit fails
            # and whose characters are fine (its first ``max`` pass the pattern) is the limit's,
            # with the provider's words for it; a name the pattern fails anyway carries no softer
            # note about a documented length.
            if not (over and lim.action == "reject" and _compiled(tn.pattern).fullmatch(name[:lim.max])):
                out.append(Effect(tuple(tool.pointer / "name"), "tool_name", "tool_name", tn,
                                  {"value": name, "pattern": tn.pattern}))
                over = over and lim.action == "reject"
    if over:
        out.append(Effect(tuple(tool.pointer / "name"), "tool_name_length", "limit", lim,
                          {"count": len(name), "max": lim.max, "value": name}))
    lim = profile.limits.get("tool_description_length")
    desc = data.get("description")
    if lim is not None and isinstance(desc, str) and len(desc) > lim.max:
        out.append(Effect(tuple(tool.pointer / "description"), "tool_description_length", "limit", lim,
                          {"count": len(desc), "max": lim.max}))
    return out


def request_counts(schema: Any, facts=None) -> tuple[int, int]:
    """(optional properties, union-typed properties) in one schema, as Anthropic counts them.
    ``facts``: the slot's :class:`~.facts.SlotFacts`, whose walk is read when it holds every
    subschema (the same nodes as walking the schema here), else walked where it walks."""
    optional = unions = 0
    if not isinstance(schema, dict):
        return 0, 0
    walked = facts.nodes if facts is not None and facts.schema is schema else None
    if walked is not None and facts.complete:
        nodes = [n.node for n in walked]
    else:
        from ..schemawalk import UNSHARED

        walks = facts.walks if facts is not None else UNSHARED
        nodes = [sub.schema for sub in walks.subschemas(schema) if isinstance(sub.schema, dict)]
    for node in nodes:
        props = node.get("properties")
        if isinstance(props, dict):
            req = node.get("required") if isinstance(node.get("required"), list) else []
            optional += sum(1 for k in props if k not in req)
            unions += sum(1 for p in props.values()
                          if isinstance(p, dict) and ("anyOf" in p or isinstance(p.get("type"), list)))
    return optional, unions


def _names(tools: list, limit: int = 5) -> str:
    """The tools' names for a message: the first few, then how many more."""
    names = [t.name or f"#{i}" for i, t in enumerate(tools)]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _rejected(profile: Profile, tool, facts_of=None, effects_of=None) -> bool:
    """Whether the profile rejects something in one of the tool's slots (the tool cannot be sent as it is).
    ``effects_of(profile, slot)``: the slot's effects grouped by consequence as the DEC rules
    keep them ("limit" for limits), or None where it keeps none (the slot is evaluated here)."""
    from .evaluate import evaluate_slot

    for slot in tool.slots():
        if slot.kind in profile.slots:
            groups = effects_of(profile, slot) if effects_of is not None else None
            if groups is not None:
                if groups.get("reject") or groups.get("drop") or groups.get("fail-list"):
                    return True
                continue
            facts = facts_of(slot.schema) if facts_of is not None else None
            if any(e.kind != "limit" and profile.consequence(e.rule) in REFUSALS
                   for e in evaluate_slot(profile, slot.schema, facts=facts, slot=slot.kind)):
                return True
    return False


def evaluate_request(profile: Profile, tools: list, container: tuple, facts_of=None,
                     effects_of=None) -> list[Effect]:
    """Request-level limits, counted over every tool of one document (one tools/list).

    ``facts_of`` (schema -> its :class:`~.facts.SlotFacts`, or None) shares each slot's walk
    with the evaluation of the slot itself, and ``effects_of`` (see :func:`_rejected`) the
    evaluation itself.

    ``tools`` and ``strict_tools`` count every tool: a profile is one way of sending them,
    and a strict profile sends every tool strict (MCP has no per-tool strict flag). A tool
    past the limit is named by its place in the list, as clients send them in that order."""
    out = []
    L = profile.limits
    n = len(tools)
    where = tuple(tools[0].pointer)[:-1] if tools else tuple(container)
    for name in ("tools", "tools_warning", "strict_tools"):
        lim = L.get(name)
        if lim is not None and n > lim.max:
            out.append(Effect(where, name, "limit", lim, {"count": n, "max": lim.max,
                                                          "beyond": _names(tools[lim.max:]), "over": n - lim.max}))
    lim = L.get("non_strict_tools")
    if lim is not None and tools:
        bad = [t for t in tools if _rejected(profile, t, facts_of, effects_of)]
        if len(bad) > lim.max:
            out.append(Effect(where, "non_strict_tools", "limit", lim, {"count": len(bad), "max": lim.max,
                                                                         "total": n, "beyond": _names(bad)}))
    if "optional_params" in L or "union_params" in L:
        opt = uni = 0
        for t in tools:
            for slot in t.slots():
                if slot.kind in profile.slots:
                    o, u = request_counts(slot.schema, facts_of(slot.schema) if facts_of is not None else None)
                    opt, uni = opt + o, uni + u
        for name, value in (("optional_params", opt), ("union_params", uni)):
            lim = L.get(name)
            if lim is not None and value > lim.max:
                out.append(Effect(where, name, "limit", lim, {"count": value, "max": lim.max}))
    return out
