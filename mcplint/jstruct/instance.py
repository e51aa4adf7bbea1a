"""Validate an instance (an argument object, a structured result) against a JSON
Structure schema, per Core and the add-ins the schema activates (binding §8).

Every failure is ``(pointer, keyword, message)``: an RFC 6901 pointer into the instance
(as a tuple of steps), the schema keyword that failed, and a sentence. Wire names follow
binding §6 (``altnames.json`` when the alternate-names add-in is active). Keywords of an
add-in that is not active constrain nothing (binding §5.4).

Argument objects and structured results are not instance *documents*: a ``$schema`` or
``$uses`` member in them is an ordinary member (no leniency, binding §7).

``maxLength`` is a Core *annotation*; it is enforced, with the validation add-in's string
keywords, only when that add-in is active. Lengths count Unicode code points.

Nesting is bounded (:data:`MAX_DEPTH` levels of instance plus reference hops, and
:data:`MAX_REFS` reference expansions per call); past a bound the validator reports the
location instead of going deeper. A ``pattern`` that could backtrack catastrophically is
not run against untrusted text (binding §10): it is reported as not evaluated.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from . import dialects as d
from .keywords import INT_RANGES, STRING_ENCODED_NUMBERS
from .walk import resolve


class InstanceError(NamedTuple):
    """One place an instance fails its JSON Structure schema."""

    path: tuple  # into the instance (keys and indices)
    keyword: str  # the keyword that failed
    message: str

MAX_DEPTH = 128
MAX_REFS = 10_000

DECIMAL_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
INT_STRING_RE = re.compile(r"^[+-]?\d+$")
DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
TIME_RE = re.compile(r"^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$")
DATETIME_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))$")
DURATION_RE = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$")
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
URI_RE = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
JSONPOINTER_RE = re.compile(r"^(?:/[^~/]*(?:~[01][^~/]*)*)*$")  # runs of plain characters: no frame per character
BASE64_RE = re.compile(r"^[A-Za-z0-9+/_\-\s]*={0,2}\s*$")
# A group holding a quantifier, itself quantified: (a+)+, (a|aa)*, ([a-z]+)* ...
_GROUP_BODY = r"[^()\\]*(?:\\.[^()\\]*)*"  # no parenthesis, escapes whole; no frame per character
RISKY_PATTERN = re.compile(r"\(" + _GROUP_BODY + r"[+*}]" + _GROUP_BODY + r"\)[+*{]|\(" + _GROUP_BODY + r"\|"
                           + _GROUP_BODY + r"\)[+*]")


def canonical_json(value: Any) -> str:
    """A canonical form for equality: numbers by value (1 == 1.0), keys sorted."""
    def norm(v):
        if isinstance(v, bool) or v is None or isinstance(v, str):
            return v
        if isinstance(v, (int, float)):
            return float(v) if isinstance(v, float) and not v.is_integer() else int(v) if not (
                isinstance(v, float) and (math.isinf(v) or math.isnan(v))) else v
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        return v
    return json.dumps(norm(value), sort_keys=True, separators=(",", ":"))


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _num(v) -> Decimal | None:
    try:
        if isinstance(v, bool):
            return None
        if isinstance(v, (int, float)):
            return Decimal(str(v)) if isinstance(v, float) else Decimal(v)
        if isinstance(v, str) and DECIMAL_RE.match(v):
            return Decimal(v)
    except InvalidOperation:
        return None
    return None


def _valid_date(text: str) -> bool:
    m = DATE_RE.match(text)
    if not m:
        return False
    try:
        _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return True
    except ValueError:
        return False


def _valid_time(text: str) -> bool:
    m = TIME_RE.match(text)
    return bool(m) and int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3)) < 61


def _valid_datetime(text: str) -> bool:
    m = DATETIME_RE.match(text)
    return bool(m) and _valid_date(m.group(1)) and _valid_time(m.group(2))


def check_primitive(t: str, v: Any) -> str | None:
    """Why ``v`` is not a ``t`` (a sentence), or None when it is."""
    if t == "string":
        return None if isinstance(v, str) else "expected a string"
    if t == "boolean":
        return None if isinstance(v, bool) else "expected true or false"
    if t == "null":
        return None if v is None else "expected null"
    if t in ("number", "float8", "float", "double"):
        return None if _is_number(v) else f"expected a JSON number ({t})"
    if t in INT_RANGES:
        lo, hi = INT_RANGES[t]
        if t in STRING_ENCODED_NUMBERS:
            if not isinstance(v, str):
                return f"expected {t} as a JSON string of digits (a JSON number loses precision)"
            if not INT_STRING_RE.match(v):
                return f"expected {t} as a string of digits"
            n = int(v)
        else:
            if not isinstance(v, int) or isinstance(v, bool):
                return f"expected an integer ({t})"
            n = v
        return None if lo <= n <= hi else f"{t} value out of range [{lo}, {hi}]"
    if t == "decimal":
        if not isinstance(v, str):
            return "expected decimal as a JSON string (a JSON number loses precision)"
        return None if DECIMAL_RE.match(v) else "expected a decimal number in a string"
    if not isinstance(v, str):
        return f"expected a string ({t})"
    ok = {
        "binary": lambda s: bool(BASE64_RE.match(s)),
        "date": _valid_date,
        "datetime": _valid_datetime,
        "time": _valid_time,
        "duration": lambda s: bool(DURATION_RE.match(s)),
        "uuid": lambda s: bool(UUID_RE.match(s)),
        "uri": lambda s: bool(URI_RE.match(s)),
        "jsonpointer": lambda s: bool(JSONPOINTER_RE.match(s)),
    }.get(t)
    if ok is None:
        return None
    return None if ok(v) else f"not a valid {t}"


def wire_name(name: str, prop: Any, altnames_active: bool) -> str:
    """The key a property travels under (binding §6)."""
    if altnames_active and isinstance(prop, dict) and isinstance(prop.get("altnames"), dict):
        w = prop["altnames"].get("json")
        if isinstance(w, str):
            return w
    return name


class _Run:
    def __init__(self, doc: dict):
        self.doc = doc
        self.active = d.active_addins(doc) if isinstance(doc, dict) else frozenset()
        self.validation = d.VALIDATION_ADDIN in self.active
        self.composition = d.COMPOSITION in self.active
        self.altnames = d.ALTNAMES in self.active
        self.refs = 0

    # -- reference and inheritance lookups
    def deref(self, ref, ptr, errs, kw="$ref"):
        self.refs += 1
        if self.refs > MAX_REFS:
            errs.append(InstanceError(ptr, kw, "too many $ref expansions; validation stopped here"))
            return None
        hit = resolve(self.doc, ref)
        if hit is None:
            errs.append(InstanceError(ptr, kw, f"reference {ref!r} does not resolve inside the schema"))
            return None
        return hit[1]

    def properties(self, schema: dict, ptr, errs) -> tuple[dict, list]:
        """Own plus inherited ($extends) properties and required lists, without cycles."""
        props: dict = {}
        required: list = []
        seen: set = set()
        chain = [schema]
        todo = [schema]
        while todo:
            s = todo.pop()
            ext = s.get("$extends")
            for ref in ([ext] if isinstance(ext, str) else ext if isinstance(ext, list) else []):
                if ref in seen:
                    continue
                seen.add(ref)
                base = self.deref(ref, ptr, errs, "$extends")
                if isinstance(base, dict):
                    chain.append(base)
                    todo.append(base)
        for s in reversed(chain):
            if isinstance(s.get("properties"), dict):
                props.update(s["properties"])
            if isinstance(s.get("required"), list):
                required.append(s["required"])
        return props, required

    # -- the validator
    def check(self, v: Any, schema: Any, ptr: tuple, depth: int, root: bool = False) -> list:
        errs: list = []
        if not isinstance(schema, dict):
            return errs
        if depth > MAX_DEPTH:
            return [InstanceError(ptr, "type", "nesting too deep; validation stopped here")]
        if root and "$root" in schema and "type" not in schema:
            target = self.deref(schema["$root"], ptr, errs, "$root")
            return errs + (self.check(v, target, ptr, depth + 1, root) if isinstance(target, dict) else [])
        t = schema.get("type")
        if isinstance(t, dict):
            target = self.deref(t.get("$ref"), ptr, errs)
            if isinstance(target, dict):
                errs += self.check(v, target, ptr, depth + 1, root)
        elif isinstance(t, list):
            for member in t:
                sub = {"type": member} if isinstance(member, str) else member if isinstance(member, dict) else None
                if sub is None:
                    continue
                if isinstance(member, dict):
                    sub = {"type": member}
                if not self.check(v, sub, ptr, depth + 1, root):
                    break
            else:
                names = [m if isinstance(m, str) else m.get("$ref", "?") for m in t if isinstance(m, (str, dict))]
                errs.append(InstanceError(ptr, "type", f"matches none of the types in the union {names}"))
        elif isinstance(t, str):
            if schema.get("abstract") is True:
                errs.append(InstanceError(ptr, "abstract", "an abstract type cannot validate an instance"))
                return errs
            errs += self.typed(t, v, schema, ptr, depth, root)
        if "const" in schema and canonical_json(v) != canonical_json(schema["const"]):
            errs.append(InstanceError(ptr, "const", f"must equal {json.dumps(schema['const'])}"))
        if isinstance(schema.get("enum"), list):
            cv = canonical_json(v)
            if not any(cv == canonical_json(e) for e in schema["enum"]):
                errs.append(InstanceError(ptr, "enum", f"must be one of {json.dumps(schema['enum'])[:200]}"))
        if self.validation:
            errs += self.constraints(v, schema, ptr, depth)
        if self.composition:
            errs += self.compose(v, schema, ptr, depth)
        return errs

    def typed(self, t: str, v: Any, schema: dict, ptr: tuple, depth: int, root: bool) -> list:
        errs: list = []
        if t == "any":
            return errs
        if t == "object":
            return self.typed_object(v, schema, ptr, depth)
        if t in ("array", "set"):
            if not isinstance(v, list):
                return [InstanceError(ptr, "type", f"expected an array ({t})")]
            items = schema.get("items")
            for i, item in enumerate(v):
                errs += self.check(item, items, ptr + (i,), depth + 1)
            if t == "set":
                seen: set = set()
                for i, item in enumerate(v):
                    c = canonical_json(item)
                    if c in seen:
                        errs.append(InstanceError(ptr + (i,), "type", "a set may not hold the same value twice"))
                    seen.add(c)
            return errs
        if t == "map":
            if not isinstance(v, dict):
                return [InstanceError(ptr, "type", "expected an object (map)")]
            for key, val in v.items():
                errs += self.check(val, schema.get("values"), ptr + (key,), depth + 1)
            return errs
        if t == "tuple":
            if not isinstance(v, list):
                return [InstanceError(ptr, "type", "expected an array (tuple)")]
            order = schema.get("tuple") if isinstance(schema.get("tuple"), list) else []
            props, _ = self.properties(schema, ptr, errs)
            if len(v) != len(order):
                errs.append(InstanceError(ptr, "tuple", f"expected exactly {len(order)} elements, found {len(v)}"))
            for i, (name, item) in enumerate(zip(order, v)):
                errs += self.check(item, props.get(name), ptr + (i,), depth + 1)
            return errs
        if t == "choice":
            return self.typed_choice(v, schema, ptr, depth)
        why = check_primitive(t, v)
        if why:
            return [InstanceError(ptr, "type", why)]
        if t == "string" and self.validation and isinstance(schema.get("maxLength"), int) and \
                len(v) > schema["maxLength"]:
            errs.append(InstanceError(ptr, "maxLength", f"longer than maxLength {schema['maxLength']}"))
        return errs

    def typed_object(self, v: Any, schema: dict, ptr: tuple, depth: int) -> list:
        """An object: its required properties (by wire name), each property checked, and the
        undeclared ones against additionalProperties."""
        errs: list = []
        if not isinstance(v, dict):
            return [InstanceError(ptr, "type", "expected an object")]
        props, required = self.properties(schema, ptr, errs)
        wire = {wire_name(n, p, self.altnames): n for n, p in props.items()}
        by_name = {n: w for w, n in wire.items()}
        for req in required:
            groups = [req] if all(isinstance(r, str) for r in req) else [g for g in req if isinstance(g, list)]
            if not groups:
                continue
            if len(groups) == 1 or all(isinstance(r, str) for r in req):
                for r in groups[0]:
                    if isinstance(r, str) and by_name.get(r, r) not in v:
                        errs.append(InstanceError(ptr, "required", f"missing required property {by_name.get(r, r)!r}"))
            elif not any(all(by_name.get(r, r) in v for r in g if isinstance(r, str)) for g in groups):
                errs.append(InstanceError(ptr, "required", f"must carry every property of one of the sets {groups}"))
        addl = schema.get("additionalProperties")
        for key, val in v.items():
            if key in wire:
                errs += self.check(val, props[wire[key]], ptr + (key,), depth + 1)
            elif addl is False:
                errs.append(InstanceError(ptr + (key,), "additionalProperties", f"property {key!r} is not declared"))
            elif isinstance(addl, dict):
                errs += self.check(val, addl, ptr + (key,), depth + 1)
        return errs

    def typed_choice(self, v: Any, schema: dict, ptr: tuple, depth: int) -> list:
        """A choice: the one named by its selector property, or the single member of a tagged one."""
        if not isinstance(v, dict):
            return [InstanceError(ptr, "type", "expected an object (choice)")]
        choices = schema.get("choices") if isinstance(schema.get("choices"), dict) else {}
        sel = schema.get("selector")
        if isinstance(sel, str):
            tag = v.get(sel)
            if tag not in choices:
                return [InstanceError(ptr + ((sel,) if sel in v else ()), "selector",
                         f"selector {sel!r} must be one of {sorted(choices)}")]
            return self.check(v, choices[tag], ptr, depth + 1)
        if len(v) != 1:
            return [InstanceError(ptr, "choices", f"a tagged choice has exactly one member, one of {sorted(choices)}")]
        (key, val), = v.items()
        if key not in choices:
            return [InstanceError(ptr + (key,), "choices", f"{key!r} is not one of the choices {sorted(choices)}")]
        return self.check(val, choices[key], ptr + (key,), depth + 1)

    def constraints(self, v: Any, s: dict, ptr: tuple, depth: int) -> list:
        errs: list = []
        n = _num(v) if ("minimum" in s or "maximum" in s or "exclusiveMinimum" in s or "exclusiveMaximum" in s
                        or "multipleOf" in s) else None
        if n is not None and (_is_number(v) or s.get("type") in STRING_ENCODED_NUMBERS):
            for kw, bad in (("minimum", lambda b: n < b), ("maximum", lambda b: n > b),
                            ("exclusiveMinimum", lambda b: n <= b), ("exclusiveMaximum", lambda b: n >= b)):
                b = _num(s.get(kw)) if kw in s else None
                if b is not None and bad(b):
                    errs.append(InstanceError(ptr, kw, f"{v} violates {kw} {s[kw]}"))
            m = _num(s.get("multipleOf")) if "multipleOf" in s else None
            if m is not None and m > 0 and (n % m) != 0:
                errs.append(InstanceError(ptr, "multipleOf", f"{v} is not a multiple of {s['multipleOf']}"))
        if isinstance(v, str):
            if isinstance(s.get("minLength"), int) and len(v) < s["minLength"]:
                errs.append(InstanceError(ptr, "minLength", f"shorter than minLength {s['minLength']}"))
            pat = s.get("pattern")
            if isinstance(pat, str):
                errs += _pattern(pat, v, ptr, "pattern")
        if isinstance(v, list):
            if isinstance(s.get("minItems"), int) and len(v) < s["minItems"]:
                errs.append(InstanceError(ptr, "minItems", f"fewer than minItems {s['minItems']}"))
            if isinstance(s.get("maxItems"), int) and len(v) > s["maxItems"]:
                errs.append(InstanceError(ptr, "maxItems", f"more than maxItems {s['maxItems']}"))
            if s.get("uniqueItems") is True and len({canonical_json(x) for x in v}) != len(v):
                errs.append(InstanceError(ptr, "uniqueItems", "items are not unique"))
            if isinstance(s.get("contains"), dict):
                hits = sum(1 for x in v if not self.check(x, s["contains"], ptr, depth + 1))
                lo = s.get("minContains", 1) if isinstance(s.get("minContains", 1), int) else 1
                if hits < lo:
                    errs.append(InstanceError(ptr, "minContains" if "minContains" in s else "contains",
                                 f"{hits} items match 'contains', at least {lo} required"))
                if isinstance(s.get("maxContains"), int) and hits > s["maxContains"]:
                    errs.append(InstanceError(ptr, "maxContains", f"{hits} items match 'contains', at most {s['maxContains']}"))
        if isinstance(v, dict):
            for lo_kw, hi_kw in (("minProperties", "maxProperties"), ("minEntries", "maxEntries")):
                if isinstance(s.get(lo_kw), int) and len(v) < s[lo_kw]:
                    errs.append(InstanceError(ptr, lo_kw, f"fewer than {lo_kw} {s[lo_kw]}"))
                if isinstance(s.get(hi_kw), int) and len(v) > s[hi_kw]:
                    errs.append(InstanceError(ptr, hi_kw, f"more than {hi_kw} {s[hi_kw]}"))
            dep = s.get("dependentRequired")
            if isinstance(dep, dict):
                for name, needs in dep.items():
                    if name in v and isinstance(needs, list):
                        for need in needs:
                            if need not in v:
                                errs.append(InstanceError(ptr, "dependentRequired", f"{name!r} requires {need!r}"))
            for kw in ("propertyNames", "keyNames"):
                ns = s.get(kw)
                if isinstance(ns, dict):
                    for key in v:
                        if self.check(key, ns, ptr + (key,), depth + 1):
                            errs.append(InstanceError(ptr + (key,), kw, f"key {key!r} does not satisfy {kw}"))
            for kw in ("patternProperties", "patternKeys"):
                pp = s.get(kw)
                if isinstance(pp, dict):
                    for pat, sub in pp.items():
                        for key, val in v.items():
                            if isinstance(pat, str) and not _pattern(pat, key, ptr, kw):
                                errs += self.check(val, sub, ptr + (key,), depth + 1)
            if isinstance(s.get("has"), dict) and not any(not self.check(x, s["has"], ptr, depth + 1)
                                                          for x in v.values()):
                errs.append(InstanceError(ptr, "has", "no property value satisfies 'has'"))
        return errs

    def compose(self, v: Any, s: dict, ptr: tuple, depth: int) -> list:
        errs: list = []
        if isinstance(s.get("allOf"), list):
            for sub in s["allOf"]:
                errs += self.check(v, sub, ptr, depth + 1)
        if isinstance(s.get("anyOf"), list) and s["anyOf"]:
            if all(self.check(v, sub, ptr, depth + 1) for sub in s["anyOf"]):
                errs.append(InstanceError(ptr, "anyOf", "matches none of the anyOf schemas"))
        if isinstance(s.get("oneOf"), list) and s["oneOf"]:
            hits = sum(1 for sub in s["oneOf"] if not self.check(v, sub, ptr, depth + 1))
            if hits != 1:
                errs.append(InstanceError(ptr, "oneOf", f"matches {hits} of the oneOf schemas, exactly one required"))
        if isinstance(s.get("not"), dict) and not self.check(v, s["not"], ptr, depth + 1):
            errs.append(InstanceError(ptr, "not", "matches the 'not' schema"))
        if isinstance(s.get("if"), dict):
            branch = "then" if not self.check(v, s["if"], ptr, depth + 1) else "else"
            if isinstance(s.get(branch), dict):
                errs += self.check(v, s[branch], ptr, depth + 1)
        return errs


def _pattern(pat: str, text: str, ptr: tuple, kw: str) -> list:
    """Run an untrusted ECMA-262 pattern only when it cannot backtrack catastrophically."""
    if RISKY_PATTERN.search(pat):
        return [InstanceError(ptr, kw, f"pattern {pat!r} was not evaluated: it can backtrack catastrophically")]
    try:
        return [] if re.search(pat, text) else [InstanceError(ptr, kw, f"does not match pattern {pat!r}")]
    except re.error:
        return [InstanceError(ptr, kw, f"pattern {pat!r} is not a regular expression mcplint can evaluate")]


def validate_instance(schema: dict, instance: Any) -> list[InstanceError]:
    """Validate ``instance`` against the JSON Structure ``schema``.

    Returns an :class:`InstanceError` per failing place, empty when valid. Neither
    argument is modified, and no state survives between calls.
    """
    if not isinstance(schema, dict):
        return [InstanceError((), "type", "the schema is not a JSON object")]
    run = _Run(schema)
    out = run.check(instance, schema, (), 0, root=True)
    seen: set = set()
    uniq = []
    for e in out:
        if e not in seen:
            seen.add(e)
            uniq.append(e)
    return uniq
