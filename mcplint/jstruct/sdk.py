"""A safe wrapper around the ``json-structure`` package (0.8.x).

What the package gets wrong, and what this module does about it:

* ``InstanceValidator`` mutates the caller's schema (it appends add-in names to ``$uses``)
  and pops ``$uses`` from the instance: every call here works on deep copies.
* ``InstanceValidator.validate_instance`` accumulates errors across calls on one
  validator, and ``SchemaValidator`` keeps ``errors``/``warnings`` between calls: every
  call here builds a fresh validator.
* Paths are not RFC 6901 (``#/required[1]``, ``#/a/allOf[0]``, unescaped ``/`` and ``~``
  in keys): :func:`to_pointer` turns them into pointer tuples by following the document.
* It ignores typos and unknown keywords, and misjudges add-in activation for some
  meta-schemas (``maxLength`` is Core, not Validation; the validation meta-schema also
  activates Units and AlternateNames; it does not know the semantic-annotations add-in):
  :func:`schema_problems` drops those reports, and :mod:`mcplint.jstruct.schema` adds the
  checks the package lacks.
* It recurses: a document nested deeper than :data:`MAX_SDK_DEPTH` is not handed to it.

Nothing here opens a network connection: imports are disabled and no import map is given.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from ..jsonvalue import depth_of
from ..problems import Problem
from . import dialects as d

MAX_SDK_DEPTH = 200  # the package recurses about twice per JSON level


_INDEX = re.compile(r"\[(\d+)\]")


def to_pointer(path: str, doc: Any) -> tuple:
    """Turn a package path (``#/a/b[1]/c``) into pointer steps, following ``doc`` so that
    keys containing ``/`` or ``[`` are read whole. Synthetic steps the document does not
    have (``type(inline)``) end the pointer at the last real location."""
    s = path[1:] if path.startswith("#") else path
    out: list = []
    node = doc
    while s:
        if s[0] == "[":
            m = _INDEX.match(s)
            if not m:
                break
            i = int(m.group(1))
            if not (isinstance(node, list) and i < len(node)):
                break
            out.append(i)
            node = node[i]
            s = s[m.end():]
        elif s[0] == "/":
            s = s[1:]
            if not isinstance(node, dict):
                break
            # the longest key of this object that the rest of the path starts with
            best = None
            for k in node:
                if isinstance(k, str) and s.startswith(k) and (len(s) == len(k) or s[len(k)] in "/[") and (
                        best is None or len(k) > len(best)):
                    best = k
            if best is None:
                if s == "" and "" in node:
                    out.append("")
                break
            out.append(best)
            node = node[best]
            s = s[len(best):]
        else:
            break
    return tuple(out)


def _keyword(ptr: tuple) -> str:
    for p in reversed(ptr):
        if isinstance(p, str):
            return p
    return ""


# (code, keyword) reports the package gets wrong: see the module docstring.
def _spurious(err, schema: dict) -> bool:
    msg = err.message
    uri = d.canonical(schema.get("$schema"))
    if err.code == "SCHEMA_EXTENSION_KEYWORD_NOT_ENABLED" and "'maxLength'" in msg:
        return True  # maxLength is a Core annotation
    if err.code == "SCHEMA_USES_UNKNOWN_EXTENSION" and d.SEMANTIC_ADDIN in msg:
        return True
    if uri == d.VALIDATION and ("Units" in msg or "unit" in msg.lower()) and "not enabled" in msg.lower():
        return True
    # Add-in activation is judged by mcplint itself (rule JST110), per meta-schema.
    if err.code == "SCHEMA_EXTENSION_KEYWORD_NOT_ENABLED":
        return True
    if ("not enabled" in msg and "$uses" in msg) or "requires JSONStructure" in msg:
        return True
    if "not a valid regular expression" in msg and _ECMA_ONLY.search(_pattern_at(err, schema)):
        return True  # valid ECMA-262 that Python's re does not read: \p{L}, (?<name>...), \u{...}
    return False


_ECMA_ONLY = re.compile(r"\\[pP]\{|\(\?<[A-Za-z]|\\u\{")


def _pattern_at(err, schema) -> str:
    v = schema
    for p in to_pointer(err.path or "#", schema):
        v = v[p] if isinstance(v, (dict, list)) else None
    return v if isinstance(v, str) else ""


_CACHE: dict = {}


def schema_problems(schema: Any) -> list[Problem]:
    """Core (and add-in) schema validity as the package sees it, cleaned up.

    Results are remembered by the schema's canonical text (tool lists often repeat a
    schema), for the last 256 distinct schemas."""
    if not isinstance(schema, dict):
        return _schema_problems(schema)
    try:
        key = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return _schema_problems(schema)
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) >= 256:
            _CACHE.clear()
        hit = _CACHE[key] = tuple(_schema_problems(schema))
    return list(hit)


def _schema_problems(schema: Any) -> list[Problem]:
    if not isinstance(schema, dict):
        return [Problem((), "", "a JSON Structure schema must be a JSON object", code="SCHEMA_NOT_OBJECT")]
    if depth_of(schema) > MAX_SDK_DEPTH:
        return []  # too deep to hand to a recursive validator; the safety rules report the depth
    from json_structure import SchemaValidator

    try:
        doc = json.loads(json.dumps(schema))  # a private copy (faster than deepcopy for JSON data)
    except (TypeError, ValueError, RecursionError):
        return []
    sv = SchemaValidator(extended=True, allow_import=False)
    try:
        errors = list(sv.validate(doc))
    except RecursionError:
        return []
    except Exception:  # the package fails on some malformed schemas (an object inside $uses): report, never crash
        uses = schema.get("$uses")
        bad = [Problem(("$uses", i), "$uses", f"$uses entry {i} must be an add-in name (a string)",
                       code="SCHEMA_KEYWORD_INVALID_TYPE")
               for i, u in enumerate(uses) if not isinstance(u, str)] if isinstance(uses, list) else []
        return bad or [Problem((), "", "the JSON Structure Core checker could not read this schema; check that "
                                       "every keyword holds a value of the type Core defines",
                               code="SCHEMA_UNREADABLE")]
    out: list[Problem] = []
    seen: set = set()
    for err in errors:
        if _spurious(err, schema):
            continue
        ptr = to_pointer(err.path or "#", schema)
        sev = "warning" if getattr(err.severity, "name", "ERROR") == "WARNING" else "error"
        key = (ptr, err.message)
        if key in seen:
            continue
        seen.add(key)
        out.append(Problem(ptr, _keyword(ptr), err.message, sev, err.code))
    return out


_AT = re.compile(r" at (#[^\s,:]*)")


def instance_errors(schema: dict, instance: Any) -> list[Problem]:
    """Instance validation by the package, isolated per call (fresh validator, deep
    copies), with RFC 6901 pointers recovered from its message strings. Its messages carry
    no keyword; the keyword slot holds "" here. Used as a second opinion in tests; the
    binding's own validator is :func:`mcplint.jstruct.validate_instance`."""
    from json_structure import InstanceValidator

    iv = InstanceValidator(copy.deepcopy(schema), extended=False, allow_import=False)
    try:
        msgs = iv.validate(copy.deepcopy(instance))
    except RecursionError:
        return [Problem((), "", "nesting too deep for the json-structure package")]
    out = []
    for m in msgs:
        hit = _AT.search(m)
        ptr = to_pointer(hit.group(1), instance) if hit else ()
        out.append(Problem(ptr, "", m))
    return out
