"""The describer: the words for a profile's effects (finding messages, limit wording,
message templates), used by the DEC rules and the projection, and the words for a
profile itself: the listing of ``mcplint profiles`` and the sheet of ``mcplint profile
NAME`` (every fact, grouped by action, with its source)."""

from __future__ import annotations

import json
from dataclasses import replace

from string import Formatter
from typing import Any, Iterator, NamedTuple

from ..model import KeptMessage
from .evaluate import Effect
from .model import Profile, Source


def _context(ptr: tuple) -> str:
    """OpenAI's way of naming a place in the schema: ('properties', 'data')."""
    return "(" + ", ".join(repr(str(p)) for p in ptr) + ("," if len(ptr) == 1 else "") + ")"


def _proto_path(ptr: tuple) -> str:
    out = ""
    parts = [str(p) for p in ptr]
    i = 0
    while i < len(parts):
        if parts[i] == "properties" and i + 1 < len(parts):
            out += f".properties[{parts[i + 1]}]"
            i += 2
        else:
            out += f"[{parts[i]}]" if parts[i].isdigit() else f".{parts[i]}"
            i += 1
    return out.lstrip(".")


class _Blank(dict):
    def __missing__(self, key):
        return "{" + key + "}"


def _blank(params: dict) -> _Blank:
    return _Blank({k: ("" if v is None else v) for k, v in params.items()})


def fill(template: str | None, params: dict, blank: _Blank | None = None) -> str:
    """``template`` with ``params`` filled in (an unknown name stays as written). ``blank``:
    ``_blank(params)`` made already (one message fills several templates from one set of values)."""
    if not template:
        return ""
    if "{" not in template:  # nothing to fill (a lone "}" would fail below and give the template back too)
        return template
    try:
        return template.format_map(blank if blank is not None else _blank(params))
    except (ValueError, IndexError, AttributeError):
        return template


LIMIT_WORDS = {
    "nesting_depth": "the schema nests {count} levels deep; the limit is {max}",
    "object_properties": "the schema has {count} object properties in total; the limit is {max}",
    "enum_values": "the schema has {count} enum values in total; the limit is {max}",
    "string_budget": "property names, definition names, enum and const values total {count} characters; the limit is {max}",
    "large_string_enum": "this enum has {values} string values totalling {count} characters; above {max} is not allowed",
    "tools": "this server offers {count} tools; one request may carry at most {max} (the {over} beyond it: {beyond})",
    "tools_warning": "this server offers {count} tools, more than {max} (the {over} beyond it: {beyond})",
    "strict_tools": "this server offers {count} tools, each sent strict under this profile; at most {max} strict tools fit in one request (non-strict tools do not count; the {over} beyond it: {beyond})",
    "non_strict_tools": "every tool of the request must be strict, and {count} of the {total} tools have a schema strict mode rejects ({beyond}): no strict request can carry all of this server's tools",
    "optional_params": "the tools have {count} optional parameters in total; at most {max} fit in one strict request",
    "union_params": "the tools have {count} union-typed parameters (anyOf or a type array) in total; at most {max} fit in one strict request",
    "tool_name_length": "the tool name has {count} characters; at most {max} are allowed",
    "tool_description_length": "the description has {count} characters; at most {max} are allowed",
}


# memo.collection (mcplint.memo, when the caller has one): {(id(profile), id(rule), kind, subject, beyond):
# (profile, rule, plan)}: see _plan
PLANS_KEY = "profiles.message-plans"


class _Plan(NamedTuple):
    """What a message of one rule under one profile says whatever the effect's values."""

    names: tuple  # the values its templates read, in order (a kept message holds them)
    root_context: bool  # {context} names the root (a tool name's effect), not the node
    wants_context: bool  # OpenAI's ('properties', 'data')
    wants_path: bool  # OpenAI's "$.properties.x"
    wants_proto: bool  # Gemini's "properties[rows].items"
    head: str
    template: str | None  # the rule's message
    fallback: str | None  # a limit's own words (LIMIT_WORDS), when the rule has no message
    detail: str  # the words when the message says nothing
    error: str | None
    sdk: str | None
    remarks: str
    head_fills: bool = False  # the head reads a value too ({list_tools}: how many tools a lost list takes)


def _names(template: str | None, out: list) -> None:
    """The names ``template.format_map`` looks up (a template it cannot read looks up none:
    ``fill`` gives it back as written)."""
    if not template or "{" not in template:
        return
    try:
        parsed = list(Formatter().parse(template))
    except ValueError:
        return
    for _, name, spec, _ in parsed:
        if name is not None:
            base = name.split(".", 1)[0].split("[", 1)[0]
            if base not in out:
                out.append(base)
        if spec:
            _names(spec, out)


def _plan(profile: Profile, r, effect: Effect, memo=None) -> _Plan:
    """The words of a message of ``r`` under ``profile``: which places it names (context,
    context_path, proto_path), its head, its trailing remarks, the values its templates read.
    A profile's words repeat for every finding (100,000 of them over a corpus with three
    profiles), so with a ``memo`` they are worked out once per (profile, rule, kind, subject)."""
    beyond = effect.params.get("beyond") is not None
    if memo is None:
        return _new_plan(profile, r, effect, beyond)
    kept = memo.table(PLANS_KEY)
    key = (id(profile), id(r), effect.kind, effect.subject, beyond)
    hit = kept.get(key)
    if hit is not None and hit[0] is profile and hit[1] is r:
        return hit[2]
    plan = _new_plan(profile, r, effect, beyond)
    kept[key] = (profile, r, plan)
    return plan


_NAME_SUBJECTS = frozenset({"tool_name", "tool_name_length"})  # the effects judging a tool's name


def _new_plan(profile: Profile, r, effect: Effect, beyond: bool) -> _Plan:
    message, error, sdk = r.message, getattr(r, "error", None), getattr(r, "sdk", None)
    wants_context = any("context" in t for t in (message, error, sdk) if t)
    wants_path = any("context_path" in t for t in (message, error) if t)
    wants_proto = any("proto_path" in t for t in (message, error) if t)
    subject = f"'{effect.subject}'" if effect.kind == "keyword" else effect.subject.replace("_", " ")
    action = r.action
    if effect.kind == "limit" and action == "warn":
        head = f"{profile.display} warns about this request"
    elif effect.kind == "limit" and action == "annotation":  # (enforced past what it documents)
        head = f"{profile.display} accepts this, past the limit it documents"
    elif effect.kind == "limit" and action == "reject" and beyond and (r.on_reject or profile.on_reject) == "skip-tool":
        head = f"{profile.display} leaves the tools beyond its limit out (the model never sees them)"
    elif effect.kind == "tool_name" and action in ("rewrite", "annotation"):  # (a client's own name for it)
        head = f"{profile.display} renames the tool before the model sees it"
    elif action == "reject" and (r.on_reject or profile.on_reject) == "fail-list":
        # (a name the client refuses: it read the list, and holds back every tool of it)
        why = "refuses this tool's name" if effect.subject in _NAME_SUBJECTS else \
            "cannot read this server's tools/list because of this tool"
        head = f"{profile.display} {why}, so {{list_tools}}"
    elif action == "reject":
        head = profile.reject_verb(r)
    elif action == "drop":
        head = f"{profile.display} accepts this schema but does not enforce {subject}"
    elif action == "rewrite":
        head = f"{profile.display} rewrites this schema before it reaches the model"
    elif effect.subject == "backend-fallback":  # a route of .fallback
        head = f"{profile.display} compiles this schema with another backend"
    else:
        head = f"{profile.display} treats {subject} as an annotation only"
    remarks = ""
    if getattr(r, "hedge", None):
        remarks += f' (the provider says only that it "{r.hedge}", so this is reported one severity lower)'
    if r.source.confidence == "low":
        remarks += " (low-confidence fact: not confirmed by the vendor's documentation)"
    fallback = LIMIT_WORDS.get(effect.subject, "") if effect.kind == "limit" else None
    names: list = []
    head_fills = "{list_tools}" in head
    for t in (head if head_fills else None, message, fallback, error, sdk):
        _names(t, names)
    derived = {"context": wants_context, "context_path": wants_path, "proto_path": wants_proto}
    names = tuple(n for n in names if not derived.get(n))  # (set from the place, not the values)
    detail = "" if effect.kind == "regex" else _default_detail(effect)  # (a regex's: per effect)
    plan = _Plan(names, effect.kind == "tool_name", wants_context, wants_path, wants_proto, head, message,
                 fallback, detail, error, sdk, remarks, head_fills)
    return plan


_ABSENT = object()


def list_lost(tools: int | None) -> str:
    """What a client that cannot read a server's tools/list loses, for a list of ``tools`` tools
    (None: not known here)."""
    if tools is None:
        return "it loses every tool of the server (the model sees none of them)"
    if tools == 1:
        return "it loses the server's only tool"
    return f"it loses all {tools} of the server's tools, this one and {tools - 1} more (the model sees none of them)"


def message(profile: Profile, effect: Effect, tool_name: str | None = None, memo=None, list_tools: int | None = None):
    """The finding message for one effect, kept as its words and values (a
    :class:`~mcplint.model.KeptMessage`, which :func:`render` writes out when
    ``Finding.message`` is read). Most profile findings are never shown (the text report folds
    them), so their words are written only for those that are. Equal kept messages are equal
    messages (the engine merges findings by them); a worker sends the kept message, whose plan
    goes once per pickle. The text itself when a value the message reads is not hashable.
    ``memo``: where the words of each (profile, rule) are kept for the run (mcplint.memo).
    ``list_tools``: how many tools the tool's tools/list has (a client that loses the whole list
    over this tool says how many it loses)."""
    plan = _plan(profile, effect.rule, effect, memo)
    p = effect.params
    values = []
    for name in plan.names:
        v = p.get(name, _ABSENT)
        if v is _ABSENT:  # what describe's setdefault gives, else what _Blank gives for a missing name
            v = effect.subject if name == "keyword" else (tool_name or "") if name == "tool" else \
                list_lost(list_tools) if name == "list_tools" else "{" + name + "}"
        elif v is None:
            v = ""
        values.append(v)
    node = p.get("_node", effect.pointer)
    if not isinstance(node, tuple):
        try:
            node = tuple(node)
        except TypeError:  # (not a place: left as given, as the describer reads it)
            pass
    m = KeptMessage(render, plan, node, _default_detail(effect) if effect.kind == "regex" else None, tuple(values))
    try:
        hash(m)
    except TypeError:
        return render(m)
    return m


def render(m: KeptMessage) -> str:
    """The text of a message :func:`message` kept."""
    plan, node, detail = m.plan, m.node, m.detail
    blank = _Blank(zip(plan.names, m.values))
    if plan.wants_context:
        blank["context"] = _context(() if plan.root_context else node)
    if plan.wants_path:
        blank["context_path"] = (".".join(str(p) for p in node) or "$").replace("$.$", "$")
    if plan.wants_proto:
        blank["proto_path"] = _proto_path(node)
    if plan.fallback is not None:
        detail = fill(plan.template, blank, blank) or fill(plan.fallback, blank, blank)
    else:
        detail = fill(plan.template, blank, blank) or (plan.detail if detail is None else detail)
    head = fill(plan.head, blank, blank) if plan.head_fills else plan.head
    text = f"{head}: {detail}" if detail else head
    if not text.endswith((".", "!", "?")):
        text += "."
    if plan.error:
        error = fill(plan.error, blank, blank)
        text += f' Provider error: "{error}"' + ("" if error.rstrip().endswith((".", "!", "?")) else ".")
    if plan.sdk:  # what another path does (an SDK's transform): a sentence of its own, with its own subject
        sdk = fill(plan.sdk, blank, blank)
        text += f" {sdk[:1].upper()}{sdk[1:]}" + ("" if sdk.endswith((".", "!", "?", ";")) else ".")
    return text + plan.remarks if plan.remarks else text


def describe(profile: Profile, effect: Effect, tool_name: str | None = None, memo=None,
             list_tools: int | None = None) -> str:
    """The finding message for one effect, written out: consequence in words, provider text, SDK
    note. Takes what :func:`message` takes (``memo`` is not read: the words are worked out anew)."""
    m = message(profile, effect, tool_name, None, list_tools)
    return m if type(m) is str else render(m)


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


def listing_rows(rows: list[Profile]) -> list[dict]:
    """``mcplint profiles --format json``: one summary per profile."""
    return [{"id": p.name, "kind": p.kind, "title": p.title, "extends": list(p.chain),
             "default_set": p.default_set, "strict_set": p.strict_set} for p in rows]


def listing_text(rows: list[Profile], default_names: list[str], strict_names: list[str] = ()) -> str:
    """``mcplint profiles``: one line per profile, and what the ``default`` and ``strict`` aliases
    stand for."""
    out = []
    width = max((len(p.name) for p in rows), default=10)
    for p in rows:
        ext = f" (extends {p.chain[0]})" if p.chain else ""
        star = "*" if p.default_set else "s" if p.strict_set else " "
        out.append(f"{p.name:<{width}} {star} {p.kind:<8} {p.title}{ext}")
    out.append(f"\n* in the `default` set (the clients people run, each as it sends tools): --profile default = "
               f"{', '.join(default_names)}")
    if strict_names:
        out.append(f"s in the `strict` set (the providers' strict modes, for tools you send strict yourself): "
                   f"--profile strict = {', '.join(strict_names)}")
    out.append("Your own file: --profile ./my-model.yaml (see `mcplint profile NAME --format json` for the shape).")
    return "\n".join(out)


# ---------------------------------------------------------------- the sheet of one profile

ORDER = ("reject", "drop", "rewrite", "annotation", "enforce")
HEADINGS = {
    "reject": "Rejects (the request fails / no grammar / tool left out)",
    "drop": "Accepts but does not enforce (silent weakening)",
    "rewrite": "Rewrites before the model sees it",
    "annotation": "Treats as annotation only",
    "enforce": "Enforces",
}


def _fact_line(subject: str, rule, cond: str = "", judge=None) -> str:
    bits = [subject]
    if cond:
        bits.append(f"[{cond}]")
    msg = getattr(rule, "message", None)
    if msg:
        bits.append("- " + msg)
    err = getattr(rule, "error", None)
    if err:
        bits.append(f'\n      provider error: "{err}"')
    sdk = getattr(rule, "sdk", None)
    if sdk:
        bits.append(f"\n      client SDK: {sdk}")
    bits.append(f"\n      source: {evidence_line(rule.source)}")
    if rule.source.also:
        bits.append("\n      also: " + ", ".join(rule.source.also))
    if judge is not None:
        bits.append(f"\n      evidence: {judge(rule.source)}")
    return "\n".join(line.rstrip() for line in ("    " + " ".join(bits)).split("\n"))


def _branches(subject: str, rule, prefix: str = ""):
    """(action, subject, condition words, rule) for a rule and its otherwise-chain."""
    cond = prefix
    while True:
        here = rule.when.describe() if rule.when else ""
        yield rule.action, subject, " and ".join(x for x in (cond, ("if " + here) if here else "") if x), rule
        for feat, fr in (rule.regex or {}).items():
            yield fr.action, f"{subject} ({feat.replace('_', ' ')})", "", fr
        if rule.otherwise is None:
            return
        cond = " and ".join(x for x in (cond, f"unless {here}" if here else "") if x)
        rule = rule.otherwise


def profile_sheet(p: Profile, today=None, max_age: int | None = None) -> str:
    """The text of ``mcplint profile NAME``: what the profile enforces, rejects, drops and
    rewrites, grouped by action, each fact with its source, the kind and age of its evidence
    (marked when older than ``max_age`` days or resting on a single field report)."""
    import datetime as _dt

    from .evidence import DEFAULT_MAX_AGE_DAYS, LEGEND, evidence_words

    today = today or _dt.date.today()
    max_age = DEFAULT_MAX_AGE_DAYS if max_age is None else max_age

    def judge(src):
        return evidence_words(src, today, max_age)

    def _line(subject, rule, cond=""):
        return _fact_line(subject, rule, cond, judge)

    out: list[str] = []
    out.append(f"# {p.name}: {p.title}")
    out.append(f"Kind: {p.kind}. Checks: {', '.join((*p.slots, *(f'{k} (the rules that name it)' for k in sorted(p.scoped_slots - set(p.slots)))))}. " + (f"Extends: {' -> '.join(p.chain)}. " if p.chain else "")
               + f"A rejection means: {p.on_reject}.")
    out.append(f"Applies to: {p.applies_to}" if p.applies_to else "")
    out.append(p.summary)
    out.append(f"Source: {evidence_line(p.source)}")
    if p.verified_with:  # what `mcplint verify` held it against
        vw = p.verified_with
        out.append(f"Verified with: {vw['package']} {vw['version']} ({vw['date']}); "
                   f"{len(vw.get('exceptions') or {})} documented exception(s)")
    if p.root_defaults:  # what the client puts at the root before the schema is judged
        out.append("Sends the root with, where the server left them out: "
                   + ", ".join(f"{k}: {json.dumps(v)}" for k, v in p.root_defaults) + " (the schema is judged as sent)")
    out.append("")
    if p.fallback:  # .fallback: what the target does instead of failing on what is listed under Rejects
        if any(fb.trigger == "drop" for fb in p.fallback):
            out.append("## Falls back (a schema with anything listed under Accepts but does not enforce is sent "
                       "as it is, unconstrained, and judged by another profile)")
        else:
            out.append("## Falls back (a schema with anything listed under Rejects is compiled by another backend instead)")
        for fb in p.fallback:
            when = f" [if the schema has {'/'.join(fb.when_has)} anywhere]" if fb.when_has else " [otherwise]"
            out.append(_line(f"-> {fb.to}{when}", replace(fb, message=fb.message.replace("{to}", fb.to))) + "\n")
    groups: dict = {a: [] for a in ORDER}
    for kw, rule in p.keywords.items():
        for action, subject, cond, r in _branches(kw, rule):
            groups[action].append(_line(subject, r, cond))
    for cname, rule in p.constructs.items():
        for action, subject, cond, r in _branches(f"<{cname}>", rule):
            groups[action].append(_line(subject, r, cond))
    if p.tool_name:
        tn = p.tool_name
        past = f"cut past {tn.max_shown} characters" if tn.cut else f"at most {tn.max_shown} characters"
        subject = (f"<tool name> shown as {tn.shown_as}, {past} (without the server's name: {tn.pattern})"
                   if tn.shown_as else f"<tool name> must match {tn.pattern}")
        groups[tn.action].append(_line(subject, tn))
    for action in ORDER:
        if groups[action]:
            out.append(f"## {HEADINGS[action]}")
            out.append("\n".join(groups[action]) + "\n")
    for label, rule in (("any other JSON Schema keyword", p.default_action),
                        ("keys that are not JSON Schema keywords", p.unknown_keywords)):
        if rule is not None:
            out.append(f"## {label.capitalize()}: {rule.action}")
            out.append(_line("*", rule) + "\n")
    if p.limits:
        out.append("## Limits")
        for lname, lim in p.limits.items():
            words = fill(LIMIT_WORDS.get(lname, lname), {"count": "N", "max": lim.max, "values": lim.over_values,
                                                              "over": f"N - {lim.max}", "beyond": "named", "total": "N"})
            if lim.action == "annotation":  # (a documented limit the target does not hold to)
                words = "the limit documented; the target accepts more"
            out.append(_line(f"{lname} <= {lim.max} ({lim.action}): {words}", lim))
        out.append("")
    if p.notes:
        out.append("## Notes")
        for n in p.notes:
            out.append(f"  - {n}")
    out.append("")
    out.append(LEGEND.format(max_age=max_age))
    return "\n".join(out)


def evidence_rows(p: Profile, today, max_age: int) -> Iterator[dict]:
    """One row per fact (every branch of a condition, every regex feature) with the kind, age
    and marks of its evidence, for ``mcplint profile NAME --format json``."""
    from .evidence import KIND_OF_TAG, age_days, marks, single_report

    for section, subject, rule in iter_facts(p):
        branches = _branches(subject, rule) if section in ("keywords", "constructs") else [(rule.action, subject, "", rule)]
        for action, subj, _cond, r in branches:
            src = r.source
            yield {"section": section, "subject": subj, "action": action, "tag": src.tag,
                   "kind": KIND_OF_TAG.get(src.tag or "", "untagged"), "seen": src.seen,
                   "age_days": age_days(src, today), "sources": 1 + len(src.also),
                   "stale": "STALE" in marks(src, today, max_age), "single_report": single_report(src)}
