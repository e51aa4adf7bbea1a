"""The describer: the words for a profile's effects (finding messages, limit wording,
message templates) and the listings of a profile's facts with their sources, used by
``mcplint profile NAME`` and the DEC rules."""

from __future__ import annotations

from typing import Any, Iterator

from .evaluate import Effect
from .model import Profile, Source


def _context(ptr: tuple) -> str:
    """OpenAI's way of naming a place in the schema: ('properties', 'data')."""
    return "(" + ", ".join(repr(str(p)) for p in ptr) + ("," if len(ptr) == 1 else "") + ")"


class _Blank(dict):
    def __missing__(self, key):
        return "{" + key + "}"


def fill(template: str | None, params: dict) -> str:
    if not template:
        return ""
    if "{" not in template:  # nothing to fill (a lone "}" would fail below and give the template back too)
        return template
    try:
        return template.format_map(_Blank({k: ("" if v is None else v) for k, v in params.items()}))
    except (ValueError, IndexError, AttributeError):
        return template


LIMIT_WORDS = {
    "nesting_depth": "the schema nests {count} levels deep; the limit is {max}",
    "object_properties": "the schema has {count} object properties in total; the limit is {max}",
    "enum_values": "the schema has {count} enum values in total; the limit is {max}",
    "string_budget": "property names, definition names, enum and const values total {count} characters; the limit is {max}",
    "large_string_enum": "this enum has {values} string values totalling {count} characters; above {max} is not allowed",
    "tools": "this server offers {count} tools; one request may carry at most {max}",
    "strict_tools": "this server offers {count} tools; at most {max} strict tools fit in one request",
    "optional_params": "the tools have {count} optional parameters in total; at most {max} fit in one strict request",
    "union_params": "the tools have {count} union-typed parameters (anyOf or a type array) in total; at most {max} fit in one strict request",
    "tool_name_length": "the tool name has {count} characters; at most {max} are allowed",
    "tool_description_length": "the description has {count} characters; at most {max} are allowed",
}


def describe(profile: Profile, effect: Effect, tool_name: str | None = None, slot_pointer: tuple = ()) -> str:
    """The finding message for one effect: consequence in words, provider text, SDK note."""
    r = effect.rule
    params = dict(effect.params)
    params.setdefault("keyword", effect.subject)
    params.setdefault("tool", tool_name or "")
    if any("context" in t for t in (r.message, getattr(r, "error", None), getattr(r, "sdk", None)) if t):
        params["context"] = _context(params.get("_node", effect.pointer) if effect.kind != "tool_name" else ())
    if effect.kind == "limit":
        detail = fill(r.message, params) or fill(LIMIT_WORDS.get(effect.subject, ""), params)
    else:
        detail = fill(r.message, params) or _default_detail(effect)
    subject = f"'{effect.subject}'" if effect.kind == "keyword" else effect.subject.replace("_", " ")
    action = r.action
    if action == "reject":
        head = profile.reject_verb(r)
    elif action == "drop":
        head = f"{profile.display} accepts this schema but does not enforce {subject}"
    elif action == "rewrite":
        head = f"{profile.display} rewrites this schema before it reaches the model"
    else:
        head = f"{profile.display} treats {subject} as an annotation only"
    text = f"{head}: {detail}" if detail else head
    if not text.endswith((".", "!", "?")):
        text += "."
    if getattr(r, "error", None):
        text += f' Provider error: "{fill(r.error, params)}"'
    if getattr(r, "sdk", None):
        text += f" Client SDK: {fill(r.sdk, params)}"
    if r.source.confidence == "low":
        text += " (low-confidence fact: not confirmed by the vendor's documentation)"
    return text


def _default_detail(effect: Effect) -> str:
    p = effect.params
    if effect.kind == "keyword":
        if effect.rule.action == "reject":
            return f"'{effect.subject}' is not supported here"
        if effect.rule.action == "drop":
            return "the model can produce values that break it"
        return ""
    if effect.kind == "regex":
        return f"the pattern uses {p.get('feature')}"
    return effect.subject.replace("-", " ")


def evidence_line(source: Source) -> str:
    tag = f" [{source.tag}]" if source.tag else ""
    return f"{source.url} (seen {source.seen}, confidence {source.confidence}){tag}"


def iter_facts(profile: Profile) -> Iterator[tuple[str, str, Any]]:
    """(section, subject, rule) for every fact, for listings."""
    for k, v in profile.keywords.items():
        yield "keywords", k, v
    for k, v in profile.constructs.items():
        yield "constructs", k, v
    for k, v in profile.limits.items():
        yield "limits", k, v
    if profile.tool_name:
        yield "tool", "name", profile.tool_name
