"""JSON Structure -> JSON Schema 2020-12 projection (binding §4.1).

The binding requires a server to send a client without the extension "a JSON Schema
2020-12 projection ... [that] MUST accept every instance the JSON Structure schema
accepts", and defines no mapping. This is mcplint's; the README lists it type by type.
The rule throughout: when a construct cannot be expressed exactly, project something
*looser*, never stricter, and say so in a note.

``to_json_schema(schema) -> (json_schema, notes)``; ``notes`` is a list of
:class:`ProjectionNote` ``(path, text)`` about what was loosened or dropped.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import dialects as d
from .instance import DECIMAL_RE, wire_name
from .keywords import INT_RANGES, STRING_ENCODED_NUMBERS
from .walk import nodes

DIALECT = "https://json-schema.org/draft/2020-12/schema"
MAX_DEPTH = 64

INT_STRING_PATTERN = r"^[+-]?\d+$"
FORMATS = {"date": "date", "datetime": "date-time", "time": "time", "duration": "duration", "uuid": "uuid",
           "uri": "uri-reference", "jsonpointer": "json-pointer"}
ANNOTATIONS = ("description", "examples", "default", "title")
NUMERIC_KWS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
STRING_KWS = ("minLength", "pattern", "format")
ARRAY_KWS = ("minItems", "maxItems", "uniqueItems", "minContains", "maxContains")
OBJECT_KWS = ("minProperties", "maxProperties", "dependentRequired")


class ProjectionNote(NamedTuple):
    """One place the projection loosened or dropped a construct it cannot express exactly."""

    path: tuple  # into the JSON Structure schema (keys and indices)
    text: str


def _def_key(parts: tuple) -> str:
    # definitions namespaces flatten to one $defs level; identifiers hold no ".", so "." joins safely
    return ".".join(parts)


class _Projector:
    def __init__(self, doc: dict):
        self.doc = doc
        self.active = d.active_addins(doc)
        self.validation = d.VALIDATION_ADDIN in self.active
        self.composition = d.COMPOSITION in self.active
        self.altnames = d.ALTNAMES in self.active
        self.notes: list[ProjectionNote] = []
        self.defs: dict = {}  # "#/definitions/a/b" -> $defs key
        for n in nodes(doc):
            if n.via == "definitions" and not n.namespace and n.pointer[:1] == ("definitions",):
                parts = tuple(p for p in n.pointer[1:])
                self.defs["#/definitions/" + "/".join(parts)] = _def_key(parts)

    def note(self, ptr: tuple, text: str) -> None:
        self.notes.append(ProjectionNote(ptr, text))

    def ref(self, ref: Any, ptr: tuple) -> dict:
        key = self.defs.get(ref) if isinstance(ref, str) else None
        if key is None:
            self.note(ptr, f"reference {ref!r} does not name a definition: projected as an unconstrained schema")
            return {}
        return {"$ref": f"#/$defs/{key}"}

    def base_chain(self, s: dict, ptr: tuple) -> list[dict]:
        chain, seen, todo = [s], set(), [s]
        while todo:
            cur = todo.pop()
            ext = cur.get("$extends")
            for r in ([ext] if isinstance(ext, str) else ext if isinstance(ext, list) else []):
                if r in seen or not isinstance(r, str) or not r.startswith("#/"):
                    continue
                seen.add(r)
                target: Any = self.doc
                for p in r[2:].split("/"):
                    target = target.get(p) if isinstance(target, dict) else None
                if isinstance(target, dict):
                    chain.append(target)
                    todo.append(target)
        return chain

    def project(self, s: Any, ptr: tuple, depth: int = 0) -> dict:
        if not isinstance(s, dict):
            return {}
        if depth > MAX_DEPTH:
            self.note(ptr, "nesting too deep: projected as an unconstrained schema")
            return {}
        out: dict = {}
        for kw in ANNOTATIONS:
            if kw in s and (kw != "default" or self.validation):
                out[kw] = s[kw]
        t = s.get("type")
        if isinstance(t, dict):
            out.update(self.ref(t.get("$ref"), ptr + ("type",)))
        elif isinstance(t, list):
            branches = []
            for i, m in enumerate(t):
                if isinstance(m, str):
                    branches.append(self.typed(m, {"type": m}, ptr + ("type", i), depth))
                elif isinstance(m, dict):
                    branches.append(self.ref(m.get("$ref"), ptr + ("type", i)))
            out["anyOf"] = branches
        elif isinstance(t, str):
            out.update(self.typed(t, s, ptr, depth))
        if "const" in s:
            out["const"] = s["const"]
        if isinstance(s.get("enum"), list):
            out["enum"] = s["enum"]
        if self.composition:
            self.compose(s, out, ptr, depth)
        return out

    def typed(self, t: str, s: dict, ptr: tuple, depth: int) -> dict:
        """The JSON Schema of a schema of JSON Structure type ``t``."""
        v = self.validation
        if t in ("string", "boolean", "null"):
            out: dict = {"type": t}
            if t == "string":
                if v:
                    if isinstance(s.get("maxLength"), int):
                        out["maxLength"] = s["maxLength"]
                    for kw in STRING_KWS:
                        if kw in s:
                            out[kw] = s[kw]
            return out
        if t in ("number", "float8", "float", "double") or t in INT_RANGES or t in STRING_ENCODED_NUMBERS:
            return self.numeric_type(t, s, ptr)
        if t == "binary":
            return {"type": "string", "contentEncoding": s.get("contentEncoding", "base64")}
        if t in FORMATS:
            return {"type": "string", "format": FORMATS[t]}
        if t == "any":
            return {}
        if t == "object":
            return self.obj(s, ptr, depth)
        if t in ("array", "set"):
            return self.array_type(t, s, ptr, depth)
        if t == "map":
            return self.map_type(s, ptr, depth)
        if t == "tuple":
            return self.tuple_type(s, ptr, depth)
        if t == "choice":
            return self.choice_type(s, ptr, depth)
        self.note(ptr, f"unknown type {t!r}: projected as an unconstrained schema")
        return {}

    def numeric_type(self, t: str, s: dict, ptr: tuple) -> dict:
        """A number type: JSON numbers, integers within the type's range, or a string on the wire."""
        v = self.validation
        if t in ("number", "float8", "float", "double"):
            out: dict = {"type": "number"}
            if v:
                out.update({kw: s[kw] for kw in NUMERIC_KWS if kw in s and _jnum(s[kw])})
            return out
        if t in INT_RANGES and t not in STRING_ENCODED_NUMBERS:
            lo, hi = INT_RANGES[t]
            out = {"type": "integer", "minimum": lo, "maximum": hi}
            if v:
                for kw in NUMERIC_KWS:
                    if kw in s and _jnum(s[kw]):
                        if kw in ("minimum", "maximum"):
                            out[kw] = max(lo, s[kw]) if kw == "minimum" else min(hi, s[kw])
                        else:
                            out[kw] = s[kw]
            return out
        if t in STRING_ENCODED_NUMBERS:
            pattern = DECIMAL_RE.pattern if t == "decimal" else INT_STRING_PATTERN
            out = {"type": "string", "pattern": pattern}
            if v and any(kw in s for kw in NUMERIC_KWS):
                self.note(ptr, f"numeric bounds on {t} (a string on the wire) cannot be expressed in JSON Schema: "
                               "dropped")
            return out
        raise AssertionError(t)  # (typed passes only number types)

    def array_type(self, t: str, s: dict, ptr: tuple, depth: int) -> dict:
        """An array or a set (unique items)."""
        v = self.validation
        out = {"type": "array", "items": self.project(s.get("items"), ptr + ("items",), depth + 1)}
        if t == "set":
            out["uniqueItems"] = True
        if v:
            out.update({kw: s[kw] for kw in ARRAY_KWS if kw in s})
            if isinstance(s.get("contains"), dict):
                out["contains"] = self.project(s["contains"], ptr + ("contains",), depth + 1)
        return out

    def map_type(self, s: dict, ptr: tuple, depth: int) -> dict:
        """A map: an object of any keys (named by keyNames, patternKeys) and values of one schema."""
        v = self.validation
        out = {"type": "object", "additionalProperties": self.project(s.get("values"), ptr + ("values",),
                                                                      depth + 1)}
        if v:
            for a, b in (("minEntries", "minProperties"), ("maxEntries", "maxProperties")):
                if a in s:
                    out[b] = s[a]
            if isinstance(s.get("keyNames"), dict):
                out["propertyNames"] = self.project(s["keyNames"], ptr + ("keyNames",), depth + 1)
            if isinstance(s.get("patternKeys"), dict):
                out["patternProperties"] = {k: self.project(x, ptr + ("patternKeys", k), depth + 1)
                                            for k, x in s["patternKeys"].items()}
        return out

    def tuple_type(self, s: dict, ptr: tuple, depth: int) -> dict:
        """A tuple: an array of fixed length, its items the properties in the tuple's order."""
        order = s.get("tuple") if isinstance(s.get("tuple"), list) else []
        props = self.props(s, ptr)
        items = [self.project(props.get(n), ptr + ("properties", n), depth + 1) for n in order]
        return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items),
                "maxItems": len(items)}

    def choice_type(self, s: dict, ptr: tuple, depth: int) -> dict:
        """A choice: one of its named choices, told apart by a selector property or a wrapper key."""
        choices = s.get("choices") if isinstance(s.get("choices"), dict) else {}
        sel = s.get("selector")
        branches = []
        for name, c in choices.items():
            sub = self.project(c, ptr + ("choices", name), depth + 1)
            if isinstance(sel, str):
                branches.append({"allOf": [sub], "properties": {sel: {"const": name}}, "required": [sel]})
            else:
                branches.append({"type": "object", "properties": {name: sub}, "required": [name],
                                 "additionalProperties": False})
        return {"type": "object", "anyOf": branches} if branches else {"type": "object"}

    def props(self, s: dict, ptr: tuple) -> dict:
        merged: dict = {}
        for base in reversed(self.base_chain(s, ptr)):
            if isinstance(base.get("properties"), dict):
                merged.update(base["properties"])
        return merged

    def obj(self, s: dict, ptr: tuple, depth: int) -> dict:
        chain = self.base_chain(s, ptr)
        props = self.props(s, ptr)
        wire = {n: wire_name(n, p, self.altnames) for n, p in props.items()}
        out: dict = {"type": "object",
                     "properties": {wire[n]: self.project(p, ptr + ("properties", n), depth + 1)
                                    for n, p in props.items()}}
        alternatives = []
        flat: list = []
        for base in chain:
            req = base.get("required")
            if not isinstance(req, list):
                continue
            if all(isinstance(r, str) for r in req):
                flat += [wire.get(r, r) for r in req]
            else:
                alternatives.append([[wire.get(r, r) for r in g if isinstance(r, str)]
                                     for g in req if isinstance(g, list)])
        if flat:
            out["required"] = list(dict.fromkeys(flat))
        for groups in alternatives:
            out.setdefault("allOf", []).append({"anyOf": [{"required": g} for g in groups]})
        addl = s.get("additionalProperties")
        if addl is False and not s.get("abstract"):
            out["additionalProperties"] = False
        elif isinstance(addl, dict):
            out["additionalProperties"] = self.project(addl, ptr + ("additionalProperties",), depth + 1)
        if self.validation:
            out.update({kw: s[kw] for kw in OBJECT_KWS if kw in s})
            if isinstance(s.get("propertyNames"), dict):
                out["propertyNames"] = self.project(s["propertyNames"], ptr + ("propertyNames",), depth + 1)
            if isinstance(s.get("patternProperties"), dict):
                out["patternProperties"] = {k: self.project(x, ptr + ("patternProperties", k), depth + 1)
                                            for k, x in s["patternProperties"].items()}
            if "has" in s:
                self.note(ptr + ("has",), "'has' has no JSON Schema counterpart for objects: dropped")
        return out

    def compose(self, s: dict, out: dict, ptr: tuple, depth: int) -> None:
        for kw in ("allOf", "anyOf", "oneOf"):
            if isinstance(s.get(kw), list):
                subs = [self.project(x, ptr + (kw, i), depth + 1) for i, x in enumerate(s[kw])]
                if kw == "oneOf":
                    self.note(ptr + (kw,), "oneOf projected as anyOf: the projection of each branch is looser, "
                                           "so 'exactly one' could wrongly fail")
                target = "allOf" if kw == "allOf" else "anyOf"
                if target in out:
                    out.setdefault("allOf", []).append({target: subs})
                else:
                    out[target] = subs
        if "not" in s:
            self.note(ptr + ("not",), "'not' cannot be loosened safely: dropped")
        if isinstance(s.get("if"), dict):
            then = self.project(s.get("then"), ptr + ("then",), depth + 1) if isinstance(s.get("then"), dict) else {}
            els = self.project(s.get("else"), ptr + ("else",), depth + 1) if isinstance(s.get("else"), dict) else {}
            cond = self.project(s["if"], ptr + ("if",), depth + 1)
            out.setdefault("allOf", []).append({"anyOf": [{"allOf": [cond, then]}, els]})


def _jnum(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def to_json_schema(schema: dict) -> tuple[dict, list[ProjectionNote]]:
    """Project a JSON Structure schema to JSON Schema 2020-12. See the module docstring."""
    if not isinstance(schema, dict):
        raise ValueError("a JSON Structure schema is a JSON object")
    p = _Projector(schema)
    defs: dict = {}
    for n in nodes(schema):
        if n.via == "definitions" and not n.namespace and n.pointer[:1] == ("definitions",):
            defs[_def_key(tuple(n.pointer[1:]))] = p.project(n.schema, n.pointer, 1)
    if "type" in schema:
        body = p.project(schema, ())
    elif "$root" in schema:
        body = p.ref(schema["$root"], ("$root",))
    else:
        p.note((), "the schema declares neither type nor $root: projected as an unconstrained schema")
        body = {}
    out: dict = {"$schema": DIALECT}
    if isinstance(schema.get("name"), str):
        out["title"] = schema["name"]
    out.update({k: v for k, v in body.items() if k != "title" or "title" not in out})
    if defs:
        out["$defs"] = defs
    return out, p.notes
