"""Generate instances of a JSON Structure schema (for the fallback check and tests).

Deterministic for a given ``random.Random``. Aims at valid instances but does not
promise them (validation add-in constraints are only partly steered); callers keep the
ones :func:`mcplint.jstruct.validate_instance` accepts. Bounded: below ``max_depth`` it
takes the smallest choice (no optional members, empty collections).
"""

from __future__ import annotations

import random
import string
from decimal import Decimal
from typing import Any

from . import dialects as d
from .instance import wire_name
from .keywords import INT_RANGES, STRING_ENCODED_NUMBERS
from .walk import resolve

_TEXT = string.ascii_letters + string.digits + " -_éü\u2603"


def _resolve_type(doc: dict, s: dict, hops: int = 0) -> dict | None:
    t = s.get("type")
    while isinstance(t, dict) and hops < 32:
        hit = resolve(doc, t.get("$ref"))
        if hit is None or not isinstance(hit[1], dict):
            return None
        s = hit[1]
        t = s.get("type")
        hops += 1
    return s


MAX_GENERATED = 64  # most characters / items / entries one generated value gets


class Generator:
    def __init__(self, doc: dict, rnd: random.Random, max_depth: int = 5):
        self.doc = doc
        self.rnd = rnd
        self.max_depth = max_depth
        active = d.active_addins(doc)
        self.altnames = d.ALTNAMES in active
        self.validation = d.VALIDATION_ADDIN in active

    def root(self) -> Any:
        s = self.doc
        if "$root" in s and "type" not in s:
            hit = resolve(self.doc, s["$root"])
            s = hit[1] if hit else {}
        return self.value(s, 0)

    def value(self, s: Any, depth: int) -> Any:
        r = self.rnd
        if not isinstance(s, dict):
            return None
        if "const" in s:
            return s["const"]
        if isinstance(s.get("enum"), list) and s["enum"]:
            return r.choice(s["enum"])
        t = s.get("type")
        if isinstance(t, list) and t:
            m = r.choice(t)
            return self.value({"type": m} if isinstance(m, (str, dict)) else {}, depth)
        if isinstance(t, dict):
            target = _resolve_type(self.doc, s)
            return self.value(target, depth + 1) if target is not None and depth <= self.max_depth + 8 else None
        if not isinstance(t, str):
            return None
        return self.typed(t, s, depth)

    def _count(self, s: dict, depth: int, lo_kw: str = "minItems", hi_kw: str = "maxItems") -> int:
        lo = s.get(lo_kw, 0) if self.validation and isinstance(s.get(lo_kw), int) else 0
        hi = s.get(hi_kw, lo + 3) if self.validation and isinstance(s.get(hi_kw), int) else lo + 3
        lo = min(lo, MAX_GENERATED)  # bounded: such an instance is then simply not valid, and skipped
        hi = min(hi, lo + MAX_GENERATED)
        if depth >= self.max_depth:
            return lo
        return self.rnd.randint(lo, max(lo, hi))

    def typed(self, t: str, s: dict, depth: int) -> Any:
        r = self.rnd
        if t == "string":
            hi = s.get("maxLength", 12) if self.validation and isinstance(s.get("maxLength"), int) else 12
            lo = s.get("minLength", 0) if self.validation and isinstance(s.get("minLength"), int) else 0
            lo = min(lo, MAX_GENERATED)  # a schema from an untrusted server may ask for 10**9 characters
            return "".join(r.choice(_TEXT) for _ in range(r.randint(min(lo, hi), max(lo, min(hi, lo + 12)))))
        if t == "boolean":
            return r.random() < 0.5
        if t == "null":
            return None
        if t in ("number", "float8", "float", "double"):
            return r.choice([0, -1, 2.5, r.uniform(-1e6, 1e6), r.randint(-1000, 1000), 1e-7])
        if t in INT_RANGES:
            lo, hi = INT_RANGES[t]
            n = r.choice([lo, hi, 0, r.randint(lo, hi), r.randint(max(lo, -100), min(hi, 100))])
            return str(n) if t in STRING_ENCODED_NUMBERS else n
        if t == "decimal":
            return str(Decimal(r.randint(-10**12, 10**12)) / Decimal(10 ** r.randint(0, 6)))
        if t == "binary":
            return r.choice(["", "AAEC", "aGVsbG8="])
        if t == "date":
            return f"{r.randint(1, 9999):04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        if t == "time":
            return f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"
        if t == "datetime":
            return f"{r.randint(1970, 2100):04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T" \
                   f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}Z"
        if t == "duration":
            return r.choice(["P1D", "PT5M", "P1Y2M3DT4H5M6S", "P2W"])
        if t == "uuid":
            return "%08x-%04x-%04x-%04x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(16),
                                                  r.getrandbits(16), r.getrandbits(48))
        if t == "uri":
            return r.choice(["https://example.com/a?b=c", "urn:isbn:0451450523", "relative/path", ""])
        if t == "jsonpointer":
            return r.choice(["", "/a", "/a~1b/0"])
        if t == "any":
            return r.choice([None, 1, "x", [1, "y"], {"k": True}])
        if t == "object":
            return self.obj(s, depth)
        if t in ("array", "set"):
            n = self._count(s, depth)
            out: list = []
            seen: set = set()
            tries = 0
            while len(out) < n and tries < n * 4 + 4:
                tries += 1
                v = self.value(s.get("items"), depth + 1)
                if t == "set" or (self.validation and s.get("uniqueItems")):
                    from .instance import canonical_json

                    c = canonical_json(v)
                    if c in seen:
                        continue
                    seen.add(c)
                out.append(v)
            return out
        if t == "map":
            n = self._count(s, depth, "minEntries", "maxEntries")
            return {f"k{i}_{r.randint(0, 99)}": self.value(s.get("values"), depth + 1) for i in range(n)}
        if t == "tuple":
            props = self.props(s)
            order = s.get("tuple") if isinstance(s.get("tuple"), list) else []
            return [self.value(props.get(n), depth + 1) for n in order]
        if t == "choice":
            choices = s.get("choices") if isinstance(s.get("choices"), dict) else {}
            if not choices:
                return {}
            name = r.choice(sorted(choices))
            sel = s.get("selector")
            v = self.value(choices[name], depth + 1)
            if isinstance(sel, str):
                v = v if isinstance(v, dict) else {}
                v[sel] = name
                return v
            return {name: v}
        return None

    def props(self, s: dict) -> dict:
        chain, seen, todo = [s], set(), [s]
        while todo:
            cur = todo.pop()
            ext = cur.get("$extends")
            for ref in ([ext] if isinstance(ext, str) else ext if isinstance(ext, list) else []):
                if ref in seen:
                    continue
                seen.add(ref)
                hit = resolve(self.doc, ref)
                if hit and isinstance(hit[1], dict):
                    chain.append(hit[1])
                    todo.append(hit[1])
        merged: dict = {}
        for base in reversed(chain):
            if isinstance(base.get("properties"), dict):
                merged.update(base["properties"])
        self._required = [base.get("required") for base in chain if isinstance(base.get("required"), list)]
        return merged

    def obj(self, s: dict, depth: int) -> dict:
        props = self.props(s)
        need: set = set()
        for req in self._required:
            if all(isinstance(x, str) for x in req):
                need |= set(req)
            else:
                groups = [g for g in req if isinstance(g, list)]
                if groups:
                    need |= {x for x in self.rnd.choice(groups) if isinstance(x, str)}
        out = {}
        for name, p in props.items():
            if name in need or (depth < self.max_depth and self.rnd.random() < 0.5):
                out[wire_name(name, p, self.altnames)] = self.value(p, depth + 1)
        return out


def instances(schema: dict, rnd: random.Random, count: int, max_depth: int = 5) -> list:
    g = Generator(schema, rnd, max_depth)
    return [g.root() for _ in range(count)]
