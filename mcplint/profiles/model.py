"""The profile model: what a profile file says, once read (:mod:`.loader` builds it).

For each keyword (``keywords:``), structural construct (``constructs:``), limit
(``limits:``) and the tool-name rule, a :class:`Rule` (or :class:`Limit`,
:class:`ToolName`): an ``action`` (enforce | reject | drop | rewrite | annotation), an
optional condition (``when:``; the ``otherwise:`` rule applies when it does not hold),
the provider's own error text where known, a note on what a client SDK does with it,
and the fact's source (URL, date seen, confidence). :class:`Profile` answers the
per-node questions (which rule, which branch of a condition, what consequence).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .conditions import NON_CONSTRAINING, Condition, holds  # noqa: F401 (NON_CONSTRAINING: re-exported)

ACTIONS = ("enforce", "reject", "drop", "rewrite", "annotation")
CONFIDENCE_OF_TAG = {"D": "high", "S": "high", "X": "high", "I": "medium", "?": "low"}
DEFAULT_ALIAS = "default"  # the clients people run, each judged as it sends tools
STRICT_ALIAS = "strict"  # the providers' strict modes, for those who send tools strict themselves
ALIASES = {DEFAULT_ALIAS: "default_set", STRICT_ALIAS: "strict_set"}  # alias -> the profile key that puts a profile in it

# JSON Schema 2020-12 keywords (and the draft-07 ones MCP servers still emit).
STANDARD_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "type", "enum", "const", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
    "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples",
    "format", "contentEncoding", "contentMediaType", "contentSchema",
    "definitions", "dependencies", "additionalItems", "$recursiveRef", "$recursiveAnchor",
})
# Pure metadata: silent unless a profile lists the keyword explicitly.
METADATA_KEYWORDS = frozenset({
    "title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly",
    "contentEncoding", "contentMediaType",
})
# What a rejection may mean (``on_reject``): the request fails, the grammar does not compile, the
# client leaves the tool out, lists it but fails its calls, or cannot read the server's tools/list
# and loses every tool of the server.
ON_REJECT = ("fail-request", "compile-error", "skip-tool", "fail-call", "fail-list")
# The consequences by which the target does not take the tool as written at all (it is not sent)
REFUSALS = frozenset({"reject", "drop", "fail-list"})
CONSEQUENCE_OF_ACTION = {"reject": "reject", "drop": "weaken", "rewrite": "rewrite", "annotation": "annotation"}
SECTIONS = ("keywords", "constructs", "limits")


@dataclass(frozen=True)
class Source:
    url: str
    seen: str
    confidence: str  # high | medium | low
    tag: str | None = None
    note: str | None = None
    also: tuple = ()  # further independent sources of the same fact (URLs)

    @classmethod
    def from_dict(cls, d: dict) -> "Source":
        return cls(d["url"], str(d["seen"]), d["confidence"], d.get("tag"), d.get("note"), tuple(d.get("also") or ()))

    def as_dict(self) -> dict:
        out = {k: v for k, v in (("url", self.url), ("seen", self.seen), ("confidence", self.confidence),
                                 ("tag", self.tag), ("note", self.note)) if v is not None}
        if self.also:
            out["also"] = list(self.also)
        return out


@dataclass(frozen=True)
class Rule:
    action: str
    source: Source
    message: str | None = None
    error: str | None = None
    fix: str | None = None
    sdk: str | None = None
    on_reject: str | None = None
    keywords: tuple | None = None
    when: Condition | None = None
    otherwise: "Rule | None" = None
    regex: dict = field(default_factory=dict)  # feature -> Rule
    threshold: int | None = None
    hedge: str | None = None  # the provider only says it *can* happen: reported one severity lower, with these words
    # the schema slots this rule judges (None: every slot the profile checks); a slot named here is
    # checked for this rule even when the profile's ``slots`` leave it out (a client that validates
    # outputSchema against a dialect of its own while the model sees only inputSchema)
    slots: tuple | None = None

    @classmethod
    def from_dict(cls, d: dict, default_source: Source, default_slots: tuple | None = None) -> "Rule":
        src = Source.from_dict(d["source"]) if "source" in d else default_source
        slots = tuple(d["slots"]) if "slots" in d else default_slots
        return cls(
            d["action"], src, d.get("message"), d.get("error"), d.get("fix"), d.get("sdk"), d.get("on_reject"),
            tuple(d["keywords"]) if "keywords" in d else None,
            Condition.from_dict(d["when"]) if "when" in d else None,
            cls.from_dict(d["otherwise"], src, slots) if "otherwise" in d else None,
            {k: cls.from_dict(v, src, slots) for k, v in (d.get("regex") or {}).items()}, d.get("threshold"),
            d.get("hedge"), slots)

    def judges(self, slot: str, profile_slots: tuple) -> bool:
        """Whether this rule applies in a slot of kind ``slot``."""
        return slot in profile_slots if self.slots is None else slot in self.slots

    def as_dict(self) -> dict:
        out: dict = {"action": self.action}
        for k in ("message", "error", "fix", "sdk", "on_reject", "threshold", "hedge"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        if self.slots is not None:
            out["slots"] = list(self.slots)
        if self.when:
            out["when"] = self.when.as_dict()
        if self.otherwise:
            out["otherwise"] = self.otherwise.as_dict()
        if self.regex:
            out["regex"] = {k: v.as_dict() for k, v in self.regex.items()}
        out["source"] = self.source.as_dict()
        return out


@dataclass(frozen=True)
class Limit:
    name: str
    max: int
    source: Source
    action: str = "reject"
    over_values: int | None = None
    message: str | None = None
    error: str | None = None
    fix: str | None = None
    on_reject: str | None = None

    @classmethod
    def from_dict(cls, name: str, d: dict, default_source: Source) -> "Limit":
        src = Source.from_dict(d["source"]) if "source" in d else default_source
        return cls(name, d["max"], src, d.get("action", "reject"), d.get("over_values"), d.get("message"),
                   d.get("error"), d.get("fix"), d.get("on_reject"))

    def as_dict(self) -> dict:
        out = {"max": self.max, "action": self.action}
        for k in ("over_values", "message", "error", "fix", "on_reject"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        out["source"] = self.source.as_dict()
        return out


@dataclass(frozen=True)
class ToolName:
    """The target's rule for a tool's name. ``pattern`` is judged on the name the server gives
    the tool. A client that shows the model a name of its own (``shown_as``, such as
    ``mcp_{server}_{tool}``, ``{server}`` being the name its configuration gives the server) is
    judged on that name instead when the server's name is known (``probe --from``, a capture it
    saved, ``--server-name``): the finding is a name over ``max_shown`` characters, with
    ``message_server`` for its message, and ``cut`` says what the model then sees (``middle``:
    the first and last 30 characters around ``...``; ``hash``: the name cut and ended with a
    hash; none: the action says what the client does instead, Cursor leaving the tool out is a
    ``reject`` with ``on_reject: skip-tool``). Characters outside ``allowed`` (a character
    class) become ``_`` in the name shown, which is not reported on its own: the client maps the
    call back. Without the server's name, ``pattern`` is judged; it should fail exactly the names
    that pass ``max_shown`` whatever the server is called (its shortest name: one character)."""

    pattern: str
    source: Source
    action: str = "reject"
    message: str | None = None
    error: str | None = None
    fix: str | None = None
    on_reject: str | None = None
    shown_as: str | None = None
    allowed: str | None = None
    max_shown: int | None = None
    cut: str | None = None
    message_server: str | None = None
    collision: dict | None = None  # {message, fix}: the later of two tools shown under one name replaces the earlier

    _OPTIONAL = ("message", "error", "fix", "on_reject", "shown_as", "allowed", "max_shown", "cut", "message_server",
                 "collision")

    @classmethod
    def from_dict(cls, d: dict, default_source: Source) -> "ToolName":
        src = Source.from_dict(d["source"]) if "source" in d else default_source
        return cls(d["pattern"], src, d.get("action", "reject"), *(d.get(k) for k in cls._OPTIONAL))

    def as_dict(self) -> dict:
        out = {"pattern": self.pattern, "action": self.action}
        for k in self._OPTIONAL:
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        out["source"] = self.source.as_dict()
        return out

    def full(self, server: str, tool: str) -> str:
        """The name ``shown_as`` makes for the tool of a server of that name, before any cut."""
        return (self.shown_as or "{tool}").replace("{server}", server).replace("{tool}", tool)

    def seen(self, server: str | None, tool: str) -> str:
        """The name the model sees for the tool: sanitized and, when the server's name is known,
        cut. Without it, the names of one server's tools compare the same way (their server
        part is the same), so two that collide here collide whatever the server is called."""
        if not server:  # (the server's part left as a placeholder: what differs is the tool's)
            return self.full("<server>", self._clean(tool))
        return self.shown(server, tool) or self._clean(self.full(server, tool))

    def _clean(self, text: str) -> str:
        """``text`` with the characters outside ``allowed`` replaced by ``_``."""
        if not self.allowed:
            return text
        import re

        return re.sub(f"[^{self.allowed}]", "_", text)

    def shown(self, server: str, tool: str) -> str | None:
        """What the model is shown for the tool of a server of that name when the name passes
        ``max_shown``, else None (no ``shown_as``, or the name fits)."""
        if not self.shown_as or self.max_shown is None:
            return None
        name = self.full(server, tool)
        if len(name) <= self.max_shown:
            return None
        name = self._clean(name)
        if self.cut == "middle":
            return name[:30] + "..." + name[-30:]
        if self.cut == "hash":  # the client's own hash, not worked out here
            return name[:self.max_shown - 13] + "...<hash>"
        return name  # not cut: the action says what the client does (Cursor's reject: the tool is left out)


def as_sent(schema: Any, root_defaults) -> Any:
    """``schema`` as a client sends it that puts ``root_defaults`` ((key, value) pairs) at its root
    where the server left them out; the same object when nothing is missing."""
    if not root_defaults or not isinstance(schema, dict) or all(k in schema for k, _ in root_defaults):
        return schema
    return {**schema, **{k: v for k, v in root_defaults if k not in schema}}


@dataclass(frozen=True)
class Fallback:
    """A route to another backend: when the profile rejects anything in a schema, the target
    compiles the whole schema with the profile ``to`` instead (vLLM's backend auto)."""

    to: str  # a built-in profile name or a resolved path
    message: str
    source: Source
    when_has: tuple | None = None  # only when one of these keys occurs anywhere in the schema
    error_prefix: str | None = None  # put before the other backend's error text
    trigger: str = "reject"  # what takes the route: a rejection, or (drop) a refusal that sends the schema unconstrained
    # (key, value) pairs the client puts at the root of what it sends instead, where the schema lacks them
    root_defaults: tuple | None = None
    # What is worked out from the profile alone and kept with it (its compiled form: .compiled),
    # so it lives exactly as long as the profile; not part of what the profile says
    derived: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    walks: tuple | None = None  # with trigger drop: the applicators whose subschemas the client's conversion visits

    @classmethod
    def from_dict(cls, d: dict) -> "Fallback":
        return cls(d["to"], d["message"], Source.from_dict(d["source"]),
                   tuple(d["when_has"]) if d.get("when_has") else None, d.get("error_prefix"), d.get("trigger", "reject"),
                   tuple(d["root_defaults"].items()) if d.get("root_defaults") else None,
                   tuple(d["walks"]) if d.get("walks") else None)

    def as_dict(self) -> dict:
        out = {"to": self.to, "message": self.message}
        if self.trigger != "reject":
            out["trigger"] = self.trigger
        if self.when_has:
            out["when_has"] = list(self.when_has)
        if self.error_prefix is not None:
            out["error_prefix"] = self.error_prefix
        if self.root_defaults:
            out["root_defaults"] = dict(self.root_defaults)
        if self.walks:
            out["walks"] = list(self.walks)
        out["source"] = self.source.as_dict()
        return out


@dataclass(frozen=True, eq=False)
class Profile:
    """A resolved profile (``extends`` already applied)."""

    name: str
    title: str
    display: str
    kind: str
    summary: str
    applies_to: str
    slots: tuple
    on_reject: str
    source: Source
    keywords: dict  # keyword -> Rule
    constructs: dict  # construct name -> Rule
    limits: dict  # limit name -> Limit
    tool_name: ToolName | None
    default_action: Rule | None
    unknown_keywords: Rule | None
    origin: str  # file it was read from
    chain: tuple = ()  # names of the profiles it extends, nearest first
    default_set: bool = False
    strict_set: bool = False
    notes: tuple = ()
    verified_with: dict | None = None  # package, version, date, exceptions: what it was checked against
    fallback: tuple = ()  # Fallback routes, tried in order, when the profile rejects part of a schema
    # (key, value) pairs the client puts at the root of every schema it sends, where the server left them out
    # (the Agents SDKs' non-strict tools): the profile judges the schema as sent
    root_defaults: tuple | None = None
    # What is worked out from the profile alone and kept with it (its compiled form: .compiled),
    # so it lives exactly as long as the profile; not part of what the profile says
    derived: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- decisions: what the target does with one keyword at one node
    def keyword_rule(self, keyword: str) -> Rule | None:
        """The profile's rule for ``keyword`` before conditions are applied (None: silent)."""
        if keyword in self.keywords:
            return self.keywords[keyword]
        if keyword in METADATA_KEYWORDS:
            return None
        if keyword in STANDARD_KEYWORDS:
            return self.default_action
        return self.unknown_keywords

    def decide(self, rule: Rule, node: dict, keyword: str | None, at_root: bool, schema: Any = None,
               via: Any = None, facts: Any = None) -> Rule:
        """Apply ``when``/``otherwise`` until a rule without a failing condition remains
        (``facts``: the slot's SlotFacts, when the caller has them)."""
        seen = 0
        while rule.when is not None and seen < 16:
            if holds(rule.when, node, keyword, at_root, schema, via, facts):
                break
            if rule.otherwise is None:
                break
            rule = rule.otherwise
            seen += 1
        return rule

    def consequence(self, rule: Rule | Limit | ToolName) -> str | None:
        """fail-list (the server's whole tool list is lost) | drop (the tool disappears) | reject | weaken |
        rewrite | annotation | None (enforced)."""
        if rule.action == "reject":
            how = rule.on_reject or self.on_reject
            return "drop" if how == "skip-tool" else "fail-list" if how == "fail-list" else "reject"
        if rule.action == "warn":  # a limit the target accepts with a warning: the request degrades
            return "weaken"
        return CONSEQUENCE_OF_ACTION.get(rule.action)

    def checks(self, slot: str) -> bool:
        """Whether any rule of the profile judges a slot of kind ``slot``."""
        return slot in self.slots or slot in self.scoped_slots

    @property
    def scoped_slots(self) -> frozenset:
        """The slots named by a rule's ``slots`` (checked for those rules alone where the
        profile's ``slots`` leave them out)."""
        got = self.__dict__.get("_scoped")
        if got is None:
            got = frozenset(s for r in (*self.keywords.values(), *self.constructs.values(),
                                        self.default_action, self.unknown_keywords)
                            if r is not None for s in (r.slots or ()))
            object.__setattr__(self, "_scoped", got)
        return got

    def reject_verb(self, rule) -> str:
        how = rule.on_reject or self.on_reject
        if how == "skip-tool":
            return f"{self.display} leaves this tool out (the model never sees it)"
        if how == "fail-call":
            return f"{self.display} lists this tool but fails every call of it"
        if how == "compile-error":
            return f"{self.display} cannot compile this schema"
        if how == "fail-list":
            return f"{self.display} cannot read this server's tools/list over this tool and loses every tool of it"
        return f"{self.display} rejects this request"

    def as_dict(self) -> dict:
        return {
            "id": self.name, "title": self.title, "display": self.display, "kind": self.kind,
            "extends": list(self.chain), "summary": self.summary, "applies_to": self.applies_to,
            "slots": list(self.slots), "on_reject": self.on_reject, "default_set": self.default_set,
            "strict_set": self.strict_set,
            "source": self.source.as_dict(), "origin": self.origin,
            "default_action": self.default_action.as_dict() if self.default_action else None,
            "unknown_keywords": self.unknown_keywords.as_dict() if self.unknown_keywords else None,
            "keywords": {k: v.as_dict() for k, v in self.keywords.items()},
            "constructs": {k: v.as_dict() for k, v in self.constructs.items()},
            "limits": {k: v.as_dict() for k, v in self.limits.items()},
            "tool_name": self.tool_name.as_dict() if self.tool_name else None,
            "notes": list(self.notes),
            "verified_with": self.verified_with,
            **({"fallback": [f.as_dict() for f in self.fallback]} if self.fallback else {}),
            **({"root_defaults": dict(self.root_defaults)} if self.root_defaults else {}),
        }
