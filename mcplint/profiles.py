"""Decoder profiles: what a constrained decoder, a hosted strict mode or an MCP client
does with each JSON Schema keyword and construct of a tool's schema.

A profile is data (``profiles/*.yaml``, shipped in the wheel as ``mcplint._profiles``;
users may pass their own file by path). Its shape is published as
``mcplint/data/profile.schema.json`` and every file is validated against it with
file:line:column errors. The model, for each keyword (``keywords:``), structural
construct (``constructs:``), limit (``limits:``) and the tool-name rule, is a
:class:`Rule`: an ``action`` (enforce | reject | drop | rewrite | annotation), an
optional condition (``when:``; the ``otherwise:`` rule applies when it does not hold),
the provider's own error text where known, a note on what a client SDK does with it,
and the fact's source (URL, date seen, confidence).

:func:`evaluate_slot`, :func:`evaluate_tool` and :func:`evaluate_request` turn a
profile and a schema into :class:`Effect` values (where, what, which resolved rule);
the DEC rules report them, and a projection can consume the same decisions through
:meth:`Profile.decide`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from .errors import ConfigError
from .model import Pointer

ACTIONS = ("enforce", "reject", "drop", "rewrite", "annotation")
CONFIDENCE_OF_TAG = {"D": "high", "S": "high", "X": "high", "I": "medium", "?": "low"}
DEFAULT_ALIAS = "default"

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
# Keywords beside a $ref that change no accepted value (openai-agents' list, agents/strict_schema.py).
NON_CONSTRAINING = frozenset({
    "$anchor", "$comment", "$defs", "$schema", "contentEncoding", "contentMediaType", "contentSchema", "default",
    "definitions", "deprecated", "description", "examples", "readOnly", "title", "writeOnly", "$id",
})
CONSEQUENCE_OF_ACTION = {"reject": "reject", "drop": "weaken", "rewrite": "rewrite", "annotation": "annotation"}
SECTIONS = ("keywords", "constructs", "limits")


# ---------------------------------------------------------------- the model

@dataclass(frozen=True)
class Source:
    url: str
    seen: str
    confidence: str  # high | medium | low
    tag: str | None = None
    note: str | None = None

    @classmethod
    def from_dict(cls, d: dict) -> "Source":
        return cls(d["url"], str(d["seen"]), d["confidence"], d.get("tag"), d.get("note"))

    def as_dict(self) -> dict:
        return {k: v for k, v in (("url", self.url), ("seen", self.seen), ("confidence", self.confidence),
                                  ("tag", self.tag), ("note", self.note)) if v is not None}


@dataclass(frozen=True)
class Condition:
    value_in: tuple | None = None
    value_max: float | None = None
    count_max: int | None = None
    values_are: str | None = None
    no_sibling: tuple | None = None
    has_sibling: tuple | None = None
    sibling_false: tuple | None = None
    value_pattern: str | None = None
    type_is: tuple | None = None
    no_ref_inside: bool = False
    branches_disjoint: bool = False
    branches_disjoint_inline: bool = False
    at_root: bool | None = None

    @classmethod
    def from_dict(cls, d: dict) -> "Condition":
        return cls(
            tuple(d["value_in"]) if "value_in" in d else None, d.get("value_max"), d.get("count_max"),
            d.get("values_are"),
            tuple(d["no_sibling"]) if "no_sibling" in d else None,
            tuple(d["has_sibling"]) if "has_sibling" in d else None,
            tuple(d["sibling_false"]) if "sibling_false" in d else None, d.get("value_pattern"),
            tuple(d["type_is"]) if "type_is" in d else None, bool(d.get("no_ref_inside")),
            bool(d.get("branches_disjoint")), bool(d.get("branches_disjoint_inline")), d.get("at_root"))

    def as_dict(self) -> dict:
        out = {}
        for k in ("value_in", "value_max", "count_max", "values_are", "no_sibling", "has_sibling", "sibling_false", "value_pattern",
                  "type_is", "at_root"):
            v = getattr(self, k)
            if v is not None:
                out[k] = list(v) if isinstance(v, tuple) else v
        if self.no_ref_inside:
            out["no_ref_inside"] = True
        if self.branches_disjoint:
            out["branches_disjoint"] = True
        if self.branches_disjoint_inline:
            out["branches_disjoint_inline"] = True
        return out

    def describe(self) -> str:
        parts = []
        if self.value_in is not None:
            parts.append("value is one of " + ", ".join(json.dumps(v) for v in self.value_in))
        if self.value_max is not None:
            parts.append(f"value <= {self.value_max:g}")
        if self.count_max is not None:
            parts.append(f"at most {self.count_max} entries")
        if self.values_are:
            parts.append(f"values are {self.values_are}")
        if self.no_sibling:
            parts.append("no sibling " + "/".join(self.no_sibling))
        if self.has_sibling:
            parts.append("beside " + "/".join(self.has_sibling))
        if self.sibling_false:
            parts.append("beside " + " or ".join(f"{k}: false" for k in self.sibling_false))
        if self.value_pattern:
            parts.append(f"value matches {self.value_pattern}")
        if self.type_is:
            parts.append("type is " + "/".join(self.type_is))
        if self.no_ref_inside:
            parts.append("no $ref inside")
        if self.branches_disjoint:
            parts.append("branches provably disjoint")
        if self.branches_disjoint_inline:
            parts.append("branches provably disjoint without following $ref")
        if self.at_root is not None:
            parts.append("at the root" if self.at_root else "not at the root")
        return ", ".join(parts)


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

    @classmethod
    def from_dict(cls, d: dict, default_source: Source) -> "Rule":
        src = Source.from_dict(d["source"]) if "source" in d else default_source
        return cls(
            d["action"], src, d.get("message"), d.get("error"), d.get("fix"), d.get("sdk"), d.get("on_reject"),
            tuple(d["keywords"]) if "keywords" in d else None,
            Condition.from_dict(d["when"]) if "when" in d else None,
            cls.from_dict(d["otherwise"], src) if "otherwise" in d else None,
            {k: cls.from_dict(v, src) for k, v in (d.get("regex") or {}).items()}, d.get("threshold"))

    def as_dict(self) -> dict:
        out: dict = {"action": self.action}
        for k in ("message", "error", "fix", "sdk", "on_reject", "threshold"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.keywords:
            out["keywords"] = list(self.keywords)
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
    pattern: str
    source: Source
    action: str = "reject"
    message: str | None = None
    error: str | None = None
    fix: str | None = None
    on_reject: str | None = None

    @classmethod
    def from_dict(cls, d: dict, default_source: Source) -> "ToolName":
        src = Source.from_dict(d["source"]) if "source" in d else default_source
        return cls(d["pattern"], src, d.get("action", "reject"), d.get("message"), d.get("error"), d.get("fix"),
                   d.get("on_reject"))

    def as_dict(self) -> dict:
        out = {"pattern": self.pattern, "action": self.action}
        for k in ("message", "error", "fix", "on_reject"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
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
    notes: tuple = ()
    verified_with: dict | None = None  # package, version, date, exceptions: what it was checked against

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

    def decide(self, rule: Rule, node: dict, keyword: str | None, at_root: bool, schema: Any = None) -> Rule:
        """Apply ``when``/``otherwise`` until a rule without a failing condition remains."""
        seen = 0
        while rule.when is not None and seen < 16:
            if holds(rule.when, node, keyword, at_root, schema):
                break
            if rule.otherwise is None:
                break
            rule = rule.otherwise
            seen += 1
        return rule

    def consequence(self, rule: Rule | Limit | ToolName) -> str | None:
        """drop (the tool disappears) | reject | weaken | rewrite | annotation | None (enforced)."""
        if rule.action == "reject":
            return "drop" if (rule.on_reject or self.on_reject) == "skip-tool" else "reject"
        return CONSEQUENCE_OF_ACTION.get(rule.action)

    def reject_verb(self, rule) -> str:
        how = rule.on_reject or self.on_reject
        if how == "skip-tool":
            return f"{self.display} leaves this tool out (the model never sees it)"
        if how == "compile-error":
            return f"{self.display} cannot compile this schema"
        return f"{self.display} rejects this request"

    def as_dict(self) -> dict:
        return {
            "id": self.name, "title": self.title, "display": self.display, "kind": self.kind,
            "extends": list(self.chain), "summary": self.summary, "applies_to": self.applies_to,
            "slots": list(self.slots), "on_reject": self.on_reject, "default_set": self.default_set,
            "source": self.source.as_dict(), "origin": self.origin,
            "default_action": self.default_action.as_dict() if self.default_action else None,
            "unknown_keywords": self.unknown_keywords.as_dict() if self.unknown_keywords else None,
            "keywords": {k: v.as_dict() for k, v in self.keywords.items()},
            "constructs": {k: v.as_dict() for k, v in self.constructs.items()},
            "limits": {k: v.as_dict() for k, v in self.limits.items()},
            "tool_name": self.tool_name.as_dict() if self.tool_name else None,
            "notes": list(self.notes),
            "verified_with": self.verified_with,
        }


# ---------------------------------------------------------------- conditions

def _is_primitive(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _types(node: dict) -> set:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _has_ref(value) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if "$ref" in v:
                return True
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _deref(branch, schema):
    """A branch that is a local '#/...' reference, replaced by its target (one level)."""
    ref = branch.get("$ref") if isinstance(branch, dict) else None
    if isinstance(ref, str) and ref.startswith("#/") and schema is not None:
        try:
            target = Pointer.parse(ref[1:]).resolve_in(schema)
        except (KeyError, IndexError, TypeError, ValueError):  # a dangling reference: judged elsewhere
            return branch
        if isinstance(target, dict):
            return {**target, **{k: v for k, v in branch.items() if k != "$ref"}}
    return branch


def _disjoint(branches, schema=None) -> bool:
    """Provably pairwise disjoint: distinct single types, or distinct consts on a shared required key.
    With ``schema``, branches that are local references are looked through (one level)."""
    if not isinstance(branches, list):
        return False
    branches = [_deref(b, schema) for b in branches]
    if not all(isinstance(b, dict) for b in branches):
        return False
    types = [_types(b) for b in branches]
    if all(len(t) == 1 for t in types) and len({next(iter(t)) for t in types}) == len(types) and \
            not ({"integer", "number"} <= {next(iter(t)) for t in types}):
        return True
    # discriminator: a key required in every branch with a distinct const/single enum each
    keys = None
    for b in branches:
        req = {r for r in b["required"] if isinstance(r, str)} if isinstance(b.get("required"), list) else set()
        keys = req if keys is None else keys & req
    for key in sorted(keys or ()):
        vals = []
        for b in branches:
            p = (b.get("properties") or {}).get(key) if isinstance(b.get("properties"), dict) else None
            if not isinstance(p, dict):
                break
            if "const" in p:
                vals.append(json.dumps(p["const"], sort_keys=True))
            elif isinstance(p.get("enum"), list) and len(p["enum"]) == 1:
                vals.append(json.dumps(p["enum"][0], sort_keys=True))
            else:
                break
        else:
            if len(set(vals)) == len(vals):
                return True
    return False


def holds(c: Condition, node: dict, keyword: str | None, at_root: bool, schema: Any = None) -> bool:
    value = node.get(keyword) if keyword is not None else None
    if c.value_in is not None and value not in c.value_in:
        return False
    if c.value_max is not None and not (isinstance(value, (int, float)) and not isinstance(value, bool)
                                        and value <= c.value_max):
        return False
    if c.count_max is not None and not (isinstance(value, (list, dict)) and len(value) <= c.count_max):
        return False
    if c.values_are is not None:
        vals = value if isinstance(value, list) else [value]
        ok = {"primitive": _is_primitive, "string": lambda v: isinstance(v, str),
              "string-or-number": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool)}[c.values_are]
        if not all(ok(v) for v in vals):
            return False
    if c.no_sibling is not None and any(s in node for s in c.no_sibling):
        return False
    if c.has_sibling is not None and not any(s in node for s in c.has_sibling):
        return False
    if c.sibling_false is not None and not any(node.get(s) is False for s in c.sibling_false):
        return False
    if c.value_pattern is not None and not (isinstance(value, str) and re.search(c.value_pattern, value)):
        return False
    if c.type_is is not None and not (_types(node) and _types(node) <= set(c.type_is)):
        return False
    if c.no_ref_inside and _has_ref(value):
        return False
    if c.branches_disjoint and not _disjoint(value, schema):
        return False
    if c.branches_disjoint_inline and not _disjoint(value):
        return False
    if c.at_root is not None and c.at_root != at_root:
        return False
    return True


# ---------------------------------------------------------------- regex features

_REGEX_FEATURES = {
    "lookaround": re.compile(r"\(\?<?[=!]"),
    "backreference": re.compile(r"(?<!\\)(?:\\\\)*\\([1-9]|k<)"),
    "word_boundary": re.compile(r"(?<!\\)(?:\\\\)*\\[bB]"),
    "unicode_property": re.compile(r"(?<!\\)(?:\\\\)*\\[pP]\{"),
    "lazy_quantifier": re.compile(r"(?<!\\)(?:[*+?]|\})\?"),
}
_REPEAT = re.compile(r"(?<!\\)\{(\d+)(?:,(\d*))?\}")


def regex_features(pattern: str, threshold: int = 100) -> list[str]:
    """Which constructs a decoder may not support appear in ``pattern`` (approximate, no parsing)."""
    out = [name for name, rx in _REGEX_FEATURES.items() if rx.search(pattern)]
    for m in _REPEAT.finditer(pattern):
        hi = m.group(2)
        if int(m.group(1)) > threshold or (hi and int(hi) > threshold):
            out.append("large_repetition")
            break
    starts, ends = pattern.startswith("^"), pattern.endswith("$") and not pattern.endswith("\\$")
    if not (starts and ends):
        out.append("unanchored")
        if starts or ends:
            out.append("partial_anchor")
    return out


# ---------------------------------------------------------------- loading

BUILTIN_PACKAGE = "mcplint._profiles"


def _builtin_dir() -> Path | None:
    try:
        from importlib.resources import files

        d = files(BUILTIN_PACKAGE)
        p = Path(str(d))
        if p.is_dir():
            return p
    except (ModuleNotFoundError, TypeError, ValueError):
        pass
    here = Path(__file__).resolve().parent.parent / "profiles"  # a source checkout, not installed
    return here if here.is_dir() else None


def builtin_names() -> list[str]:
    d = _builtin_dir()
    return sorted(p.stem for p in d.glob("*.yaml")) if d else []


@lru_cache(maxsize=1)
def _profile_validator():
    from importlib.resources import files

    import jsonschema

    schema = json.loads(files("mcplint").joinpath("data/profile.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def profile_schema() -> dict:
    return _profile_validator().schema


def _read(path: Path) -> tuple[dict, Any]:
    """Parse and validate one profile file: (data, document), or a located ConfigError."""
    from .errors import InputError
    from .load import load_text

    origin = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read profile: {e.strerror or e}", origin=origin) from None
    try:
        doc = load_text(text, origin, "yaml")
    except InputError as e:
        raise ConfigError(e.message, origin=origin, line=e.line, col=e.col) from None
    if doc.duplicate_keys:
        ptr, _first = doc.duplicate_keys[0]
        span = doc.locate(ptr)
        raise ConfigError(f"key {ptr[-1]!r} appears twice in the same mapping", origin=origin,
                          line=span.line if span else None, col=span.col if span else None)
    errors = sorted(_profile_validator().iter_errors(doc.data),
                    key=lambda e: (doc.locate(Pointer(e.absolute_path)) or (0, 0), len(e.absolute_path)))
    if errors:
        err = _deepest(errors[0])
        ptr = Pointer(err.absolute_path) + _offending_key(err)
        span = doc.locate(ptr)
        where = str(ptr) or "/"
        more = f" (and {len(errors) - 1} more problem{'s' * (len(errors) > 2)})" if len(errors) > 1 else ""
        raise ConfigError(f"invalid profile at {where}: {_explain(err)}{more}", origin=origin,
                          line=span.line if span else None, col=span.col if span else None,
                          expected="a profile as described by mcplint/data/profile.schema.json")
    for section in ("keywords",):
        for kw, rule in (doc.data.get(section) or {}).items():
            if isinstance(rule, dict) and rule.get("regex") and kw != "pattern":
                span = doc.locate(Pointer((section, kw, "regex")))
                raise ConfigError("'regex' features apply only to the 'pattern' keyword", origin=origin,
                                  line=span.line if span else None, col=span.col if span else None)
    return doc.data, doc


def _offending_key(err) -> tuple:
    """Point at the key itself for errors about keys (unknown key, bad key name)."""
    if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
        return (err.instance,)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = set((err.schema or {}).get("properties", {}))
        extra = [k for k in err.instance if k not in known]
        return (extra[0],) if extra else ()
    return ()


def _deepest(err):
    """For oneOf/anyOf failures, the most specific sub-error."""
    while err.context:
        err = max(err.context, key=lambda e: len(e.absolute_path))
    return err


def _explain(err) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown key")
    return err.message


_MERGED = ("keywords", "constructs", "limits")


def _resolve(path: Path, stack: tuple = ()) -> tuple[dict, tuple, dict]:
    """(merged raw data with per-entry sources filled in, chain of parent ids, raw child data)."""
    data, doc = _read(path)
    src = data["source"]
    # fill in the file's default source on every entry of this file, before merging with a parent
    local: dict = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for section in _MERGED:
        if section in local:
            local[section] = {k: ({"source": src, **v} if isinstance(v, dict) else v)
                              for k, v in (local[section] or {}).items()}
    for single in ("default_action", "unknown_keywords", "tool_name"):
        if isinstance(local.get(single), dict):
            local[single] = {"source": src, **local[single]}
    parent_name = data.get("extends")
    if not parent_name:
        return local, (), data
    ppath = _locate(parent_name, relative_to=path.parent)
    if ppath is None or str(ppath.resolve()) in stack:
        span = doc.locate(Pointer(("extends",)))
        why = "extends itself (a cycle)" if ppath is not None else f"no profile {parent_name!r} to extend"
        raise ConfigError(why, origin=str(path), line=span.line if span else None,
                          col=span.col if span else None, expected="one of " + ", ".join(builtin_names()))
    parent, chain, _ = _resolve(ppath, stack + (str(path.resolve()),))
    merged = dict(parent)
    for k, v in local.items():
        if k in _MERGED:
            section = dict(parent.get(k) or {})
            for name, entry in (v or {}).items():
                if entry is None:
                    section.pop(name, None)  # `name: null` removes an inherited entry
                else:
                    section[name] = entry
            merged[k] = section
        else:
            merged[k] = v
    for identity in ("display", "summary", "applies_to", "notes", "default_set", "verified_with"):  # describe the parent only
        if identity not in local:
            merged.pop(identity, None)
    return merged, (parent["id"],) + chain, data


def _locate(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    looks_like_path = any(c in name_or_path for c in "/\\") or name_or_path.endswith((".yaml", ".yml"))
    if looks_like_path:
        p = Path(name_or_path)
        if not p.is_absolute() and relative_to is not None and not p.exists():
            p = relative_to / p
        return p if p.is_file() else None
    d = _builtin_dir()
    if d is not None and (d / f"{name_or_path}.yaml").is_file():
        return d / f"{name_or_path}.yaml"
    return None


def _build(data: dict, chain: tuple, origin: str) -> Profile:
    src = Source.from_dict(data["source"])
    return Profile(
        name=data["id"], title=data["title"], display=data.get("display") or data["title"], kind=data["kind"],
        summary=data.get("summary", ""), applies_to=data.get("applies_to", ""),
        slots=tuple(data.get("slots") or ("inputSchema",)), on_reject=data.get("on_reject", "fail-request"),
        source=src,
        keywords={k: Rule.from_dict(v, src) for k, v in (data.get("keywords") or {}).items() if v is not None},
        constructs={k: Rule.from_dict(v, src) for k, v in (data.get("constructs") or {}).items() if v is not None},
        limits={k: Limit.from_dict(k, v, src) for k, v in (data.get("limits") or {}).items() if v is not None},
        tool_name=ToolName.from_dict(data["tool_name"], src) if data.get("tool_name") else None,
        default_action=Rule.from_dict(data["default_action"], src) if data.get("default_action") else None,
        unknown_keywords=Rule.from_dict(data["unknown_keywords"], src) if data.get("unknown_keywords") else None,
        origin=origin, chain=chain, default_set=bool(data.get("default_set")), notes=tuple(data.get("notes") or ()),
        verified_with=data.get("verified_with"),
    )


_CACHE: dict = {}


def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name (``openai-strict``) or a profile file by path."""
    path = _locate(name_or_path)
    if path is None:
        looks_like_path = any(c in name_or_path for c in "/\\") or name_or_path.endswith((".yaml", ".yml"))
        if looks_like_path:
            raise ConfigError("no such profile file", origin=name_or_path)
        raise ConfigError(f"unknown profile {name_or_path!r}", origin="--profile",
                          expected=f"{DEFAULT_ALIAS}, one of " + ", ".join(builtin_names()) + ", or a path to a YAML file")
    key = str(path.resolve())
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0
    hit = _CACHE.get(key)
    if hit and hit[0] == mtime:
        return hit[1]
    data, chain, _ = _resolve(path)
    prof = _build(data, chain, str(path))
    _CACHE[key] = (mtime, prof)
    return prof


_DEFAULT_SET: dict = {}


def default_set() -> list[str]:
    """The profiles the ``default`` alias stands for: the hosted strict modes."""
    key = str(_builtin_dir())
    if key in _DEFAULT_SET:
        return list(_DEFAULT_SET[key])
    out = []
    for n in builtin_names():
        try:
            if load_profile(n).default_set:
                out.append(n)
        except ConfigError:
            continue
    _DEFAULT_SET[key] = tuple(out)
    return out


def expand_names(names) -> list[str]:
    out: list[str] = []
    for n in names:
        for m in (default_set() if n == DEFAULT_ALIAS else [n]):
            if m not in out:
                out.append(m)
    return out


def check_names(names) -> tuple[int, str] | None:
    """(index, message) of the first name that is neither ``default``, a built-in profile nor a file."""
    for i, n in enumerate(names):
        if n != DEFAULT_ALIAS and _locate(n) is None:
            return i, (f"unknown profile {n!r} (expected {DEFAULT_ALIAS}, one of " + ", ".join(builtin_names())
                       + ", or a path to a YAML file)")
    return None


def load_profiles(names) -> list[Profile]:
    return [load_profile(n) for n in expand_names(names)]


# ---------------------------------------------------------------- evaluation

@dataclass(frozen=True)
class Effect:
    pointer: tuple  # relative to the slot (schema effects) or absolute (tool/request effects)
    subject: str  # the keyword, construct or limit name
    kind: str  # keyword | regex | construct | limit | tool_name
    rule: Any  # the resolved Rule / Limit / ToolName
    params: dict = field(default_factory=dict)  # values for message templates


_APPLICATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
                          "patternProperties", "propertyNames", "contains", "unevaluatedItems",
                          "unevaluatedProperties", "additionalProperties", "prefixItems", "additionalItems",
                          "dependencies", "contentSchema"})


def _type_word(node: dict) -> str:
    t = sorted(_types(node) - {"null"})
    return t[0] if t else "unknown"


def _is_object_schema(node: dict) -> bool:
    return "object" in _types(node) or (not _types(node) and "properties" in node)


def _context(ptr: tuple) -> str:
    """OpenAI's way of naming a place in the schema: ('properties', 'data')."""
    return "(" + ", ".join(repr(str(p)) for p in ptr) + ("," if len(ptr) == 1 else "") + ")"


def _recursive_refs(schema: Any, idx=None) -> list[tuple]:
    """Pointers (relative) of ``$ref`` keywords that take part in a reference cycle."""
    from .refs import index, resolve

    idx = idx if idx is not None else index(schema)
    targets: dict = {}
    for r in idx.refs:
        if r.keyword != "$ref":
            continue
        res = resolve(r, idx, schema)
        if res is not None:
            targets[r.pointer] = tuple(res[0])
    if not targets:
        return []

    def inside(loc: tuple, root: tuple) -> bool:
        return loc[:len(root)] == root

    # edges between targets: T -> targets of refs located inside T
    tset = set(targets.values())
    edges = {t: {targets[r] for r in targets if inside(r[:-1], t)} for t in tset}
    out = []
    for r, t in targets.items():
        seen, stack = set(), [t]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack.extend(edges.get(x, ()))
            if len(seen) > 10_000:
                break
        if any(inside(r[:-1], x) for x in seen):
            out.append(r)
    return out


class SlotFacts:
    """What :func:`evaluate_slot` needs to know about one schema slot that does not depend on
    the profile: its subschemas (walked once), its ``$ref`` index, the references that take
    part in a cycle, its first meta-schema error. Computed on first use and shared when the
    same slot is evaluated for several profiles (pass ``facts=`` to :func:`evaluate_slot`).
    The schema must not change while a ``SlotFacts`` for it is in use."""

    __slots__ = ("schema", "max_nodes", "_subs", "_nodes", "_index", "_recursive", "_remote", "_meta_err")

    def __init__(self, schema: Any, max_nodes: int = 20_000):
        self.schema = schema
        self.max_nodes = max_nodes
        self._subs = self._nodes = self._index = self._recursive = self._remote = None
        self._meta_err = _UNSET

    @property
    def subs(self) -> list:
        """The dict nodes among the first ``max_nodes`` subschemas, as (pointer, node, via)."""
        if self._subs is None:
            from .schemawalk import subschemas

            out = []
            for i, sub in enumerate(subschemas(self.schema)):
                if i >= self.max_nodes:
                    break
                if isinstance(sub[1], dict):
                    out.append((sub[0], sub[1], sub[3]))
            self._subs = out
        return self._subs

    @property
    def nodes(self) -> list:
        """Per dict node, everything about it no profile changes: (pointer, node, via, at root,
        type value, type names, is object, is array, nesting level (0 unless object/array),
        holds a reference keyword, properties count, string budget, enum is a list, enum count,
        string enum values, their total length)."""
        if self._nodes is None:
            out = []
            for rel, node, via in self.subs:
                t = node.get("type")
                types = {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)} \
                    if isinstance(t, list) else set()
                is_obj = "object" in types or (not types and "properties" in node)
                is_arr = "array" in types
                lv = 0
                if is_obj or is_arr:
                    lv = 1
                    for p in rel:
                        if p in _LEVEL_KEYS:
                            lv += 1
                n_props = budget = n_enum = n_strs = strs_total = 0
                props = node.get("properties")
                if isinstance(props, dict):
                    n_props = len(props)
                    budget += sum(len(str(k)) for k in props)
                for dk in ("$defs", "definitions"):
                    defs = node.get(dk)
                    if isinstance(defs, dict):
                        budget += sum(len(str(k)) for k in defs)
                enum = node.get("enum")
                enum_list = isinstance(enum, list)
                if enum_list:
                    n_enum = len(enum)
                    strs = [v for v in enum if isinstance(v, str)]
                    n_strs, strs_total = len(strs), sum(len(v) for v in strs)
                    budget += strs_total
                const = node.get("const")
                if isinstance(const, str):
                    budget += len(const)
                has_ref = "$ref" in node or "$dynamicRef" in node or "$recursiveRef" in node
                out.append((rel, node, via, rel == (), t, types, is_obj, is_arr, lv, has_ref, n_props, budget,
                            enum_list, n_enum, n_strs, strs_total))
            self._nodes = out
        return self._nodes

    @property
    def index(self):
        if self._index is None:
            from .refs import index

            self._index = index(self.schema)
        return self._index

    @property
    def recursive_refs(self) -> list:
        """(pointer, value) of each ``$ref`` that takes part in a cycle."""
        if self._recursive is None:
            schema = self.schema
            self._recursive = [(ptr, Pointer(ptr[:-1]).resolve_in(schema)["$ref"])
                               for ptr in _recursive_refs(schema, self.index)]
        return self._recursive

    @property
    def remote_refs(self) -> list:
        """Each reference that does not resolve inside the slot."""
        if self._remote is None:
            from .refs import is_local

            idx = self.index
            self._remote = [r for r in idx.refs if not is_local(r, idx)]
        return self._remote

    @property
    def metaschema_error(self):
        if self._meta_err is _UNSET:
            self._meta_err = _metaschema_error(self.schema)
        return self._meta_err


_UNSET = object()


class _Compiled:
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


_COMPILED: dict = {}  # id(profile) -> (profile, _Compiled)


def _compiled(profile: Profile) -> _Compiled:
    hit = _COMPILED.get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    if len(_COMPILED) > 64:
        _COMPILED.clear()
    comp = _Compiled(profile)
    _COMPILED[id(profile)] = (profile, comp)
    return comp


_LEVEL_KEYS = frozenset({"properties", "items", "additionalProperties", "prefixItems"})
_REF_KEYS = ("$ref", "$dynamicRef", "$recursiveRef")
_TYPED = ("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const")


def evaluate_slot(profile: Profile, schema: Any, max_nodes: int = 20_000, *,
                  facts: SlotFacts | None = None) -> list[Effect]:
    """Every non-enforced decision of ``profile`` on one schema slot, in document order.

    ``facts`` (a :class:`SlotFacts` for this ``schema`` and ``max_nodes``) lets several
    profiles share one walk of the slot."""
    effects: list[Effect] = []
    if not isinstance(schema, dict):
        return effects
    if facts is None or facts.schema is not schema or facts.max_nodes != max_nodes:
        facts = SlotFacts(schema, max_nodes)
    comp = _compiled(profile)
    kwtab = comp.keywords
    compile_kw = comp.keyword
    decide = profile.decide
    append = effects.append
    cons = profile.constructs
    c_root_not_object = cons.get("root-not-object")
    c_root_comb = cons.get("root-combinator")
    c_invalid = cons.get("invalid-schema")
    c_no_props = cons.get("object-without-properties")
    c_ap_missing = cons.get("additional-properties-missing")
    c_ap_open = cons.get("additional-properties-open")
    c_optional = cons.get("optional-property")
    c_ap_invalid = cons.get("additional-properties-invalid")
    c_type_array = cons.get("type-array")
    c_untyped = cons.get("untyped-schema")
    c_no_items = cons.get("array-without-items")
    c_ref_sibs = cons.get("ref-siblings")
    c_shared_first = cons.get("anyof-shared-first-key")
    c_props_comb = cons.get("properties-beside-combinator")
    c_req_undeclared = cons.get("required-undeclared")
    lim_large_enum = profile.limits.get("large_string_enum")
    levels_max = 0
    deepest: tuple = ()
    n_props = n_enum = budget = 0
    has_ref = False
    dead: list = []  # subtrees under a rejected or ignored applicator: their contents never reach the decoder
    miss = _UNSET
    for (rel, node, via, at_root, t, types, is_obj, is_arr, lv, ref_here, node_props, node_budget,
         enum_list, node_enum, n_strs, strs_total) in facts.nodes:
        if dead and any(rel[:len(d)] == d for d in dead):
            continue
        first = len(effects)
        if ref_here:
            has_ref = True
        # --- keywords
        for kw, value in node.items():
            rule = kwtab.get(kw, miss)
            if rule is None:
                continue
            if rule is miss:
                rule = compile_kw(kw)
                if rule is None:
                    continue
            r = rule if rule.when is None else decide(rule, node, kw, at_root, schema)
            if r.action != "enforce":
                shown = value if isinstance(value, str) else json.dumps(value)
                append(Effect(rel + (kw,), kw, "keyword", r, {"keyword": kw, "value": shown,
                                                              "type": _type_word(node)}))
                if r.action in ("reject", "drop") and kw in _APPLICATORS:
                    dead.append(rel + (kw,))
            elif kw == "pattern" and r.regex and isinstance(value, str):
                for feat in regex_features(value, (r.regex.get("large_repetition") or r).threshold or 100):
                    fr = r.regex.get(feat)
                    if fr is not None and fr.action != "enforce":
                        append(Effect(rel + (kw,), feat, "regex", fr, {"keyword": kw, "value": value,
                                                                       "feature": feat.replace("_", " ")}))
        # --- structural constructs
        if at_root:
            if c_root_not_object is not None and types != {"object"}:
                append(Effect(rel + (("type",) if "type" in node else ()), "root-not-object", "construct",
                              c_root_not_object, {"value": "None" if t is None else t}))
            if c_root_comb is not None:
                for kw in (c_root_comb.keywords or ("anyOf", "oneOf", "allOf")):
                    if kw in node:
                        append(Effect(rel + (kw,), "root-combinator", "construct", c_root_comb, {"keyword": kw}))
            if c_invalid is not None:
                err = facts.metaschema_error
                if err is not None:
                    append(Effect(tuple(err[0]), "invalid-schema", "construct", c_invalid, {"detail": err[1]}))
        if is_obj:
            if c_no_props is not None and "properties" not in node:
                append(Effect(rel, "object-without-properties", "construct", c_no_props, {}))
            if "additionalProperties" not in node:
                if c_ap_missing is not None:
                    append(Effect(rel, "additional-properties-missing", "construct", c_ap_missing, {}))
            else:
                ap = node["additionalProperties"]
                if ap is not False and isinstance(ap, (bool, dict)) and c_ap_open is not None:
                    append(Effect(rel + ("additionalProperties",), "additional-properties-open", "construct",
                                  c_ap_open, {"value": json.dumps(ap)}))
            if c_optional is not None and isinstance(node.get("properties"), dict):
                req = node.get("required") if isinstance(node.get("required"), list) else []
                for key in node["properties"]:
                    if key not in req:
                        append(Effect(rel + ("properties", key), "optional-property", "construct",
                                      c_optional, {"key": key}))
        if c_ap_invalid is not None and "additionalProperties" in node \
                and not isinstance(node["additionalProperties"], (bool, dict)):
            append(Effect(rel + ("additionalProperties",), "additional-properties-invalid", "construct",
                          c_ap_invalid, {"value": json.dumps(node["additionalProperties"])}))
        if c_type_array is not None and isinstance(t, list):
            append(Effect(rel + ("type",), "type-array", "construct", c_type_array, {"value": json.dumps(t)}))
        if c_untyped is not None and not at_root and via not in ("$defs", "definitions") and not any(
                k in node for k in _TYPED):
            append(Effect(rel, "untyped-schema", "construct", c_untyped, {}))
        if c_no_items is not None and is_arr and "items" not in node and "prefixItems" not in node:
            append(Effect(rel, "array-without-items", "construct", c_no_items, {}))
        if c_ref_sibs is not None and "$ref" in node:
            sibs = [k for k in node if k != "$ref" and k not in NON_CONSTRAINING]
            if sibs:
                r = decide(c_ref_sibs, node, "$ref", at_root, schema)
                if r.action != "enforce":
                    append(Effect(rel + (sibs[0],), "ref-siblings", "construct", r,
                                  {"siblings": ", ".join(sibs), "keyword": sibs[0]}))
        if c_shared_first is not None and isinstance(node.get("anyOf"), list):
            firsts = [next(iter(b["properties"]), None) for b in node["anyOf"]
                      if isinstance(b, dict) and isinstance(b.get("properties"), dict) and b["properties"]]
            dup = sorted({k for k in firsts if k is not None and firsts.count(k) > 1})
            if dup:
                append(Effect(rel + ("anyOf",), "anyof-shared-first-key", "construct", c_shared_first,
                              {"key": dup[0]}))
        if c_req_undeclared is not None and isinstance(node.get("required"), list) \
                and isinstance(node.get("properties"), dict):
            missing = [k for k in node["required"] if isinstance(k, str) and k not in node["properties"]]
            if missing:
                append(Effect(rel + ("required",), "required-undeclared", "construct", c_req_undeclared,
                              {"keys": ", ".join(missing)}))
        if c_props_comb is not None and "properties" in node:
            for kw in ("anyOf", "oneOf"):
                if kw in node:
                    append(Effect(rel + (kw,), "properties-beside-combinator", "construct", c_props_comb,
                                  {"keyword": kw}))
        # --- measurements for limits
        if lv > levels_max:
            levels_max, deepest = lv, rel
        n_props += node_props
        budget += node_budget
        if enum_list:
            n_enum += node_enum
            lim = lim_large_enum
            if lim is not None and n_strs > (lim.over_values or 0) and strs_total > lim.max:
                append(Effect(rel + ("enum",), "large_string_enum", "limit", lim,
                              {"count": strs_total, "max": lim.max, "values": n_strs}))
        if len(effects) > first:
            kept = []
            for e in effects[first:]:
                e.params.setdefault("_node", rel)  # the schema the effect belongs to (OpenAI's "context")
                if e.kind == "construct" and e.rule.when is not None:  # conditional constructs
                    r = decide(e.rule, node, None, at_root, schema)
                    if r.action == "enforce":
                        continue
                    e = Effect(e.pointer, e.subject, e.kind, r, e.params)
                kept.append(e)
            effects[first:] = kept
    if has_ref:
        effects += _recursion_effects(profile, schema, facts)
    L = profile.limits
    for name, value, where in (("nesting_depth", levels_max, deepest), ("object_properties", n_props, ()),
                               ("enum_values", n_enum, ()), ("string_budget", budget, ())):
        lim = L.get(name)
        if lim is not None and value > lim.max:
            effects.append(Effect(where, name, "limit", lim, {"count": value, "max": lim.max}))
    return effects


def _recursion_effects(profile: Profile, schema: dict, facts: SlotFacts | None = None) -> list[Effect]:
    out = []
    rec, remote = profile.constructs.get("recursion"), profile.constructs.get("remote-ref")
    if rec is None and remote is None:
        return out
    facts = facts if facts is not None and facts.schema is schema else SlotFacts(schema)
    if rec is not None:
        for ptr, value in facts.recursive_refs:
            out.append(Effect(ptr, "recursion", "construct", rec, {"value": value}))
    if remote is not None:
        for r in facts.remote_refs:
            out.append(Effect(r.pointer, "remote-ref", "construct", remote, {"value": r.value}))
    return out


def _metaschema_error(schema: Any):
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    err = best_match(_metaschema_validator().iter_errors(schema))
    if err is None:
        return None
    return tuple(err.absolute_path), err.message


@lru_cache(maxsize=1)
def _metaschema_validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


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
    from .schemawalk import subschemas

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


# ---------------------------------------------------------------- words

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
