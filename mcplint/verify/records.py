"""What the truth lab's client records share: the hand-written shapes and output schemas every
JavaScript client record runs, the real servers' tools keyed by a digest of their schemas, and the
difference between what a server wrote and what a client sent.

The record scripts (tests/data/*/record.py) run a client over these and write what it did; the
tests under tests/verify replay those records offline against the profiles. Both sides import the
same definitions from here, so a record and its test cannot disagree on the cases or their keys."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .frameworks import corpus_schemas as _distinct_schemas
from .frameworks import corpus_tools as _real_tools
from .suite import PROBES

S = {"type": "string"}


def obj(props: dict, **kw: Any) -> dict:
    return {"type": "object", "properties": props, **kw}


# each aimed at one decision of a conversion, with its near miss
SHAPES = {
    "lookahead": obj({"p": {"type": "string", "pattern": "^(?!admin$).+$"}}),
    "lookbehind": obj({"p": {"type": "string", "pattern": "(?<=a)b"}}),
    "lookaround-in-class": obj({"p": {"type": "string", "pattern": "^[(?=]+$"}}),
    "escaped-paren": obj({"p": {"type": "string", "pattern": "^\\(?=x$"}}),
    "named-group": obj({"p": {"type": "string", "pattern": "^(?<year>[0-9]{4})$"}}),
    "property-names-string": obj({"m": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}}),
    "property-names-typed-string": obj({"m": {"type": "object", "propertyNames": {"type": "string", "maxLength": 8}}}),
    "property-names-integer": obj({"m": {"type": "object", "propertyNames": {"type": "integer"}}}),
    "property-names-false": obj({"m": {"type": "object", "propertyNames": False}}),
    "anyof-null": obj({"q": {"anyOf": [S, {"type": "null"}], "default": None}}),
    "anyof-objects": obj({"q": {"anyOf": [obj({"a": S}, required=["a"]), obj({"b": S}, required=["b"])]}}),
    "oneof-scalars": obj({"q": {"oneOf": [S, {"type": "integer"}]}}),
    "allof-ref": obj({"q": {"allOf": [{"$ref": "#/$defs/Q"}]}}, **{"$defs": {"Q": obj({"x": S})}}),
    "ref-plain": obj({"q": {"$ref": "#/$defs/Q"}}, **{"$defs": {"Q": obj({"x": S})}}),
    "not": obj({"q": {"type": "string", "not": {"const": "x"}}}),
    "if-then": obj({"q": S, "r": S}, **{"if": {"properties": {"q": {"const": "a"}}}, "then": {"required": ["r"]}}),
    "schema-dialect": obj({"q": S}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    "draft-07": obj({"q": S}, **{"$schema": "http://json-schema.org/draft-07/schema#"}),
    "root-untyped": {"properties": {"q": S}},
    "root-empty": {},
    "root-no-properties": {"type": "object"},
    "root-closed": obj({"q": S}, additionalProperties=False, required=["q"]),
    "root-array": {"type": "array", "items": S},
    "root-anyof": {"anyOf": [obj({"a": S}), obj({"b": S})]},
    "format-uri": obj({"u": {"type": "string", "format": "uri"}}),
}
OUTPUTS = {
    "output-object": obj({"r": S}),
    "output-array": {"type": "array", "items": S},
    "output-untyped": {"properties": {"r": S}},
    "output-anyof": {"anyOf": [obj({"a": S}), obj({"b": S})]},
    "output-2020-12": obj({"r": S}, **{"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    "output-draft-07": obj({"r": S}, **{"$schema": "http://json-schema.org/draft-07/schema#"}),
    "output-bad-pattern": obj({"r": {"type": "string", "pattern": "\\p{L}+"}}),
    "output-unknown-format": obj({"r": {"type": "string", "format": "made-up"}}),
}


def digest(value: Any) -> str:
    """The key of a tool or schema in a record: the first 20 hex digits of the SHA-256 of its canonical JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


def corpus_tools(root: Path) -> dict:
    """Distinct {inputSchema, outputSchema} pairs of the real servers' tools under ``root``
    (:func:`mcplint.verify.frameworks.corpus_tools`), by :func:`digest`, in the order first seen."""
    seen: dict = {}
    for t in _real_tools(root):
        tool = {"inputSchema": t["inputSchema"]}
        if isinstance(t.get("outputSchema"), dict):
            tool["outputSchema"] = t["outputSchema"]
        seen.setdefault(digest(tool), tool)
    return seen


def corpus_schemas(root: Path) -> dict:
    """The distinct input schemas of the real servers' tools under ``root``, by :func:`digest`."""
    return {digest(s): s for s in _distinct_schemas(root)}


def diff(before: Any, after: Any, at: str = "") -> list:
    """[op, pointer, key] for each key removed, added or changed on the way from before to after."""
    out: list = []
    if isinstance(before, dict) and isinstance(after, dict):
        for k in before:
            p = f"{at}/{k.replace('~', '~0').replace('/', '~1')}"
            if k not in after:
                out.append(["removed", at, k])
            elif before[k] != after[k]:
                if isinstance(before[k], (dict, list)) and type(before[k]) is type(after[k]):
                    out += diff(before[k], after[k], p)
                else:
                    out.append(["changed", at, k])
        out += [["added", at, k] for k in after if k not in before]
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after)):
            out += diff(b, a, f"{at}/{i}")
    elif before != after:
        out.append(["changed", at, None])
    return out


SIMPLIFIED = ("anyOf", "oneOf", "not", "if", "then", "else", "unevaluatedProperties")


def keywords_in(schema: Any, names: tuple = SIMPLIFIED, out: set | None = None, outer_only: bool = False) -> set:
    """The keywords of ``names`` that occur in ``schema`` (the keys of properties are names, not keywords);
    ``outer_only``: not looking inside such a keyword's value."""
    out = set() if out is None else out
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k in names:
                out.add(k)
                if outer_only:
                    continue
            if k in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas") and isinstance(v, dict):
                for sub in v.values():
                    keywords_in(sub, names, out, outer_only)
            elif k not in ("enum", "const", "default", "examples", "required"):
                keywords_in(v, names, out, outer_only)
    elif isinstance(schema, list):
        for v in schema:
            keywords_in(v, names, out, outer_only)
    return out


def sent_parameters(sent: dict) -> Any:
    return (sent.get("function") or sent).get("parameters")


def sent_strict(sent: dict) -> Any:
    return (sent.get("function") or sent).get("strict")


def compact(tool: dict, result: dict) -> dict:
    """A client's result for ``tool`` as a record keeps it: its error's first line, or the difference
    between the inputSchema and the parameters sent, the simplified keywords left and the strict flag."""
    if "error" in result:
        return {"error": result["error"].splitlines()[0][:200]}
    if "sent" not in result:
        return result
    out = {"diff": diff(tool["inputSchema"], sent_parameters(result["sent"])),
           "kept": sorted(keywords_in(sent_parameters(result["sent"])))}
    if sent_strict(result["sent"]) is not None:
        out["strict"] = sent_strict(result["sent"])
    return out


def named_cases() -> list[tuple[str, dict]]:
    """The hand-written cases every client record runs, by name: each input shape, each output
    schema beside an empty object input, and each probe of the suite that is an object."""
    return [(f"shape:{k}", {"inputSchema": v}) for k, v in SHAPES.items()] + \
        [(f"output:{k}", {"inputSchema": obj({}), "outputSchema": v}) for k, v in OUTPUTS.items()] + \
        [(f"probe:{p.id}", {"inputSchema": p.schema}) for p in PROBES if isinstance(p.schema, dict)]


def drift(kept: dict, again: dict) -> list[str]:
    """Where a record made again by the installed client (``again``) differs from the kept one: each
    case and name by its name, each corpus entry by its key, each other value by its key (a "recorded"
    date is never compared); empty when they are the same."""
    out: list[str] = []
    for key, new in again.items():
        old = kept.get(key)
        if key == "recorded" or new == old:
            continue
        if key in ("cases", "names") and isinstance(new, list) and isinstance(old, list):
            out += [f"{key}: {n.get('name') or n.get('tool')}" for n, o in zip(new, old) if n != o]
            out += [f"{key}: {len(new)} made, {len(old)} kept"] if len(new) != len(old) else []
        elif isinstance(new, dict) and isinstance(old, dict):
            out += [f"{key}: {k}" for k in sorted(set(new) | set(old)) if k != "recorded" and new.get(k) != old.get(k)]
        else:
            out.append(key)
    return out
