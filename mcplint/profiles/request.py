"""Facts beyond one schema: a tool's name and description, and the limits that apply to
every tool of one request (one ``tools/list``)."""

from __future__ import annotations

import re
from typing import Any

from .evaluate import Effect
from .model import Profile


def evaluate_tool(profile: Profile, tool) -> list[Effect]:
    """Tool-level facts: the name rule and the description length."""
    out = []
    data = tool.data if isinstance(tool.data, dict) else {}
    name = data.get("name")
    tn = profile.tool_name
    if tn is not None and isinstance(name, str) and not re.fullmatch(tn.pattern, name):
        out.append(Effect(tuple(tool.pointer / "name"), "tool_name", "tool_name", tn,
                          {"value": name, "pattern": tn.pattern}))
    lim = profile.limits.get("tool_name_length")
    if lim is not None and isinstance(name, str) and len(name) > lim.max:
        out.append(Effect(tuple(tool.pointer / "name"), "tool_name_length", "limit", lim,
                          {"count": len(name), "max": lim.max, "value": name}))
    lim = profile.limits.get("tool_description_length")
    desc = data.get("description")
    if lim is not None and isinstance(desc, str) and len(desc) > lim.max:
        out.append(Effect(tuple(tool.pointer / "description"), "tool_description_length", "limit", lim,
                          {"count": len(desc), "max": lim.max}))
    return out


def _request_counts(schema: Any) -> tuple[int, int]:
    """(optional properties, union-typed properties) in one schema, as Anthropic counts them."""
    from ..schemawalk import subschemas

    optional = unions = 0
    if not isinstance(schema, dict):
        return 0, 0
    for sub in subschemas(schema):
        node = sub.schema
        if not isinstance(node, dict):
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            req = node.get("required") if isinstance(node.get("required"), list) else []
            optional += sum(1 for k in props if k not in req)
            unions += sum(1 for p in props.values()
                          if isinstance(p, dict) and ("anyOf" in p or isinstance(p.get("type"), list)))
    return optional, unions


def evaluate_request(profile: Profile, tools: list, container: tuple) -> list[Effect]:
    """Request-level limits, counted over every tool of one document (one tools/list)."""
    out = []
    L = profile.limits
    n = len(tools)
    where = tuple(tools[0].pointer)[:-1] if tools else tuple(container)
    for name in ("tools", "strict_tools"):
        lim = L.get(name)
        if lim is not None and n > lim.max:
            out.append(Effect(where, name, "limit", lim, {"count": n, "max": lim.max}))
    if "optional_params" in L or "union_params" in L:
        opt = uni = 0
        for t in tools:
            for slot in t.slots():
                if slot.kind in profile.slots:
                    o, u = _request_counts(slot.schema)
                    opt, uni = opt + o, uni + u
        for name, value in (("optional_params", opt), ("union_params", uni)):
            lim = L.get(name)
            if lim is not None and value > lim.max:
                out.append(Effect(where, name, "limit", lim, {"count": value, "max": lim.max}))
    return out
