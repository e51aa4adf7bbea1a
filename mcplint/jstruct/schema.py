"""Static checks of a JSON Structure schema in an MCP schema slot (binding §3, §5-§7).

Each ``check_*`` function takes the slot's schema and returns :class:`Problem` s whose
paths are relative to the slot root; the JST rules turn them into findings, and other
code (a gateway, the probe) can call them directly. No function here fetches anything,
recurses, or modifies its argument.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, NamedTuple

from ..schemawalk import UNSHARED, Walks, encoded_string
from . import dialects as d
from .keywords import (ADDIN_KEYWORDS, DATA_KEYWORDS, IDENTIFIER, JSTRUCT_ONLY_TYPES, KEYWORD_ADDIN,
                       ROOT_ONLY, STRING_ENCODED_NUMBERS, TYPES, near_miss)
from ..problems import Problem
from .sdk import schema_problems
from .walk import Node, resolve, schemas, walked, walked_schemas

_IDENT = re.compile(IDENTIFIER)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")

# --------------------------------------------------------------------------- §3 dialect


def _type_names(t: Any) -> Iterator[str]:
    if isinstance(t, str):
        yield t
    elif isinstance(t, list):
        for x in t:
            if isinstance(x, str):
                yield x


# In :func:`mcplint.schemawalk.encoded` form a dict is its keys and values in turn, so a member
# ``"type": "int64"`` is the encoded key right before the encoded value: ``type`` followed by a JSON
# Structure-only type name is a signal's sign ("format": "uuid" is not), and so is ``type`` followed
# by an object where some object holds ``$ref``; ``type`` followed by an array is one when a member
# of the array is such a name (read by _list_signals).
_TYPE_KEY = encoded_string("type")
_TYPE_SIGNAL = re.compile(  # the length byte is not tied to the name: a superset, searched fast
    re.escape(_TYPE_KEY) + rb"u[\x01-\x7f]\x00\x00\x00(?:"
    + b"|".join(re.escape(n.encode()) for n in sorted(JSTRUCT_ONLY_TYPES, key=lambda n: (-len(n), n))) + b")")
_TYPE_OBJECT, _REF_KEY = _TYPE_KEY + b"{", encoded_string("$ref")
_TYPE_LIST = re.compile(re.escape(_TYPE_KEY) + rb"\[")
_ENCODED_TYPES = frozenset(encoded_string(n) for n in JSTRUCT_ONLY_TYPES)


def _may_signal(blob: bytes) -> bool:
    """Might the schema encoded as ``blob`` hold a type signal? (False: surely not.)"""
    return (_TYPE_SIGNAL.search(blob) is not None or (_TYPE_OBJECT in blob and _REF_KEY in blob)
            or _list_signals(blob))


def _list_signals(blob: bytes) -> bool:
    """Does some ``type`` array in the encoding hold a JSON Structure-only type name? (True when a
    member is not a plain string: the walk decides.)"""
    if _TYPE_KEY + b"[" not in blob:  # the usual schema (a search in C)
        return False
    for m in _TYPE_LIST.finditer(blob):
        pos = m.end()
        count = int.from_bytes(blob[pos:pos + 4], "little")
        pos += 4
        for _ in range(count):
            if blob[pos:pos + 1] != b"u":
                return True
            end = pos + 5 + int.from_bytes(blob[pos + 1:pos + 5], "little")
            if blob[pos:end] in _ENCODED_TYPES:
                return True
            pos = end
    return False


class Signal(NamedTuple):
    """One piece of evidence that a schema without ``$schema`` is written in JSON Structure."""

    path: tuple  # into the schema (keys and indices)
    what: str  # the evidence, for a message


def jstruct_signals(schema: Any, walks: Walks = UNSHARED, **bounds) -> list[Signal]:
    """Evidence that a schema *without* ``$schema`` is written in JSON Structure: a
    :class:`Signal` ``(path, what)`` for each; empty when it reads as plain JSON Schema.

    Signals: ``$root``, ``$uses`` or ``$offers`` at the root, a type name JSON Schema does
    not have (``int64``, ``double``, ``datetime``, ``map``, ``choice``, ...) anywhere,
    including inside ``definitions``, or ``type`` holding ``{"$ref": ...}``. A root
    ``name`` alone is not enough: JSON Schema lets it stand as an unknown keyword.
    ``walks``: where the schema's encoding may already be (a rule's ``ctx.walks``).
    """
    if not isinstance(schema, dict):
        return []
    out: list[Signal] = []
    for kw in ("$root", "$uses", "$offers"):
        if kw in schema:
            out.append(Signal((kw,), f"the root has {kw}"))
    blob = walks.encoded(schema)
    if blob is not None and not _may_signal(blob):
        return out  # no string anywhere is a JSON Structure type name, no `type` holds an object
    for node in schemas(schema, **bounds):
        t = node.schema.get("type")
        for name in _type_names(t):
            if name in JSTRUCT_ONLY_TYPES:
                out.append(Signal(node.pointer + ("type",), f"type {name!r} is a JSON Structure type"))
        if isinstance(t, dict) and "$ref" in t:
            out.append(Signal(node.pointer + ("type",), "type holds a {\"$ref\": ...} (JSON Structure reference form)"))
    return out


# --------------------------------------------------------------------------- §5 validity

OWNED_CODES = {"SCHEMA_ROOT_MISSING_ID", "SCHEMA_ROOT_MISSING_NAME"}


def check_valid(schema: Any, kind: str | None = None, memo=None) -> list[Problem]:
    """Core validity (binding §5): the ``json-structure`` package's checks, cleaned up,
    plus what it misses. Problems another check owns (import, external URIs, root
    ``name``/``$id``, the zero-argument root) are left to that check."""
    if not isinstance(schema, dict):
        return [Problem((), "", "a JSON Structure schema must be a JSON object")]
    out: list[Problem] = []
    for p in schema_problems(schema):
        if p.severity != "error" or p.code in OWNED_CODES:
            continue
        if p.path[:1] == () and "'name'" in p.message:
            continue  # the package reports a missing root name twice
        if any(isinstance(s, str) and s in ("$import", "$importdefs") for s in p.path):
            continue
        if p.path and p.path[-1] in ("$ref", "$extends", "$root") and _external(at_pointer(schema, p.path)):
            continue
        if kind == "inputSchema" and p.path in ((), ("properties",)) and "properties" in p.message:
            continue  # the zero-argument convention (JST107) owns an input root without properties
        out.append(p)
    seen = {(p.path, p.keyword) for p in out}
    for node in walked_schemas(schema, memo):
        s = node.schema
        # Core: an object declares at least one property (the package accepts "properties": {}).
        if s.get("type") == "object" and s.get("properties") == {} and "$extends" not in s and not (
                kind == "inputSchema" and node.pointer == ()):
            ptr = node.pointer + ("properties",)
            if (ptr, "properties") not in seen:
                out.append(Problem(ptr, "properties", "an object type must declare at least one property"))
    uses = schema.get("$uses")
    uri = schema.get("$schema")
    if isinstance(uses, list) and d.canonical(uri):
        for i, u in enumerate(uses):
            if not isinstance(u, str) or u == d.IMPORT:
                continue
            if u not in d.offered(uri) and (("$uses", i), "$uses") not in seen:
                why = "" if u in d.KNOWN_ADDINS else " (no JSON Structure add-in has this name)"
                out.append(Problem(("$uses", i), "$uses",
                                   f"the meta-schema {uri} does not offer the add-in {u!r}{why}"))
    if d.ALTNAMES in d.active_addins(schema):
        out += _altnames_shape(schema, memo)
    return out


def _altnames_shape(schema: dict, memo=None) -> list[Problem]:
    """The alternate-names keywords map a purpose (``json``, ``lang:<tag>``, ...) to a string."""
    out = []
    for node in walked_schemas(schema, memo):
        for kw in ("altnames", "descriptions"):
            if kw not in node.schema:
                continue
            v = node.schema[kw]
            if not isinstance(v, dict):
                out.append(Problem(node.pointer + (kw,), kw, f"{kw} must be an object mapping purposes to strings"))
                continue
            for key, name in v.items():
                if not isinstance(name, str):
                    out.append(Problem(node.pointer + (kw, key), kw, f"{kw}[{key!r}] must be a string"))
    return out


def at_pointer(schema: Any, ptr: tuple) -> Any:
    """The node at pointer ``ptr`` (a tuple of keys and indices) of ``schema``, or None."""
    node = schema
    for p in ptr:
        try:
            node = node[p]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _external(value: Any) -> bool:
    vals = value if isinstance(value, list) else [value]
    return any(isinstance(v, str) and not v.startswith("#") for v in vals)


def check_typos(schema: Any, memo=None) -> list[Problem]:
    """Unknown keywords that are near misses of a known one (``propertiez``, ``maxlength``).
    Core lets unknown keywords stand as custom annotations, so a typo silently removes a
    constraint; the ``json-structure`` package does not report it."""
    out = []
    for node in walked_schemas(schema, memo):
        for key in node.schema:
            if isinstance(key, str):
                guess = near_miss(key)
                if guess and guess not in node.schema:
                    out.append(Problem(node.pointer + (key,), key,
                                       f"unknown keyword {key!r}: probably a misspelling of {guess!r}", "warning"))
    return out


# --------------------------------------------------------------------------- §5.1 root form

def check_root_form(schema: Any, kind: str) -> list[Problem]:
    if not isinstance(schema, dict):
        return []
    out = []
    has_type, has_root = "type" in schema, "$root" in schema
    if kind in ("inputSchema", "requestedSchema"):
        if has_root:
            out.append(Problem(("$root",), "$root", f"the root of a bound {kind} must not use $root; "
                                                     "declare \"type\": \"object\" inline"))
        if schema.get("type") != "object":
            ptr = ("type",) if has_type else ()
            out.append(Problem(ptr, "type", f"the root of a bound {kind} must declare \"type\": \"object\" "
                                            "inline (MCP's wire type for this slot)"))
    else:
        if has_type and has_root:
            out.append(Problem(("$root",), "$root", "the root declares both type and $root; "
                                                     "Core makes them mutually exclusive"))
        elif not has_type and not has_root:
            out.append(Problem((), "type", "the root declares neither a type nor a $root"))
    return out


def check_name_and_id(schema: Any) -> list[Problem]:
    """Core requires a root ``name`` (an identifier) and an absolute ``$id`` URI."""
    if not isinstance(schema, dict):
        return []
    out = []
    name = schema.get("name")
    if name is None:
        out.append(Problem((), "name", "the root has no name; Core requires one"))
    elif not isinstance(name, str) or not _IDENT.match(name):
        out.append(Problem(("name",), "name", f"name {name!r} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)"))
    sid = schema.get("$id")
    if sid is None:
        out.append(Problem((), "$id", "the root has no $id; Core requires one"))
    elif not isinstance(sid, str) or not _SCHEME.match(sid):
        out.append(Problem(("$id",), "$id", f"$id {sid!r} is not an absolute URI"))
    return out


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def check_name_from_tool(schema: Any, tool_name: str | None) -> list[Problem]:
    if not isinstance(schema, dict) or not isinstance(tool_name, str) or not isinstance(schema.get("name"), str):
        return []
    if _squash(tool_name) and _squash(tool_name) not in _squash(schema["name"]):
        return [Problem(("name",), "name", f"name {schema['name']!r} is not derived from the tool name "
                                           f"{tool_name!r}")]
    return []


# --------------------------------------------------------------------------- §5.2 zero arguments

def _is_null_property(p: Any) -> bool:
    return isinstance(p, dict) and p.get("type") == "null"


def check_zero_arg(schema: Any, kind: str, memo=None) -> list[Problem]:
    if not isinstance(schema, dict):
        return []
    props = schema.get("properties")
    out = []
    if kind == "inputSchema":
        if schema.get("type") != "object":
            return []
        if props is None or props == {}:
            ptr = ("properties",) if props == {} else ()
            out.append(Problem(ptr, "properties", "a zero-argument inputSchema must declare exactly one property "
                                                  "named \"null\" of type null (Core objects need a property)"))
            return out
        if not isinstance(props, dict) or "null" not in props:
            return []
        if len(props) > 1:
            out.append(Problem(("properties", "null"), "properties",
                               "the \"null\" property of the zero-argument convention must be the only property"))
        if not _is_null_property(props["null"]):
            out.append(Problem(("properties", "null"), "type", "the \"null\" property must be of type null"))
        if len(props) == 1 and schema.get("additionalProperties") is not False:
            out.append(Problem(("additionalProperties",) if "additionalProperties" in schema else (),
                               "additionalProperties",
                               "a zero-argument inputSchema must declare \"additionalProperties\": false"))
        req = schema.get("required")
        flat = [r for r in req for r in (r if isinstance(r, list) else [r])] if isinstance(req, list) else []
        if "null" in flat:
            out.append(Problem(("required",), "required", "the \"null\" property must not be required"))
        return out
    # any other slot: the convention must not stand in for an empty property set
    for node in walked_schemas(schema, memo):
        p = node.schema.get("properties")
        if node.schema.get("type") == "object" and isinstance(p, dict) and list(p) == ["null"] and \
                _is_null_property(p["null"]):
            out.append(Problem(node.pointer + ("properties", "null"), "properties",
                               f"the zero-argument \"null\" property is only for a bound inputSchema, not {kind}"))
    return out


# --------------------------------------------------------------------------- §5.3 self-containment

def check_imports(schema: Any, memo=None) -> list[Problem]:
    if not isinstance(schema, dict):
        return []
    out = []
    uses = schema.get("$uses")
    if isinstance(uses, list):
        for i, u in enumerate(uses):
            if u == d.IMPORT:
                out.append(Problem(("$uses", i), "$uses", "the Import add-in is not permitted in a bound slot"))
    for node in walked(schema, memo):
        for kw in ("$import", "$importdefs"):
            if kw in node.schema:
                out.append(Problem(node.pointer + (kw,), kw, f"{kw} is not permitted in a bound slot: "
                                                             "resolve imports before sending the schema"))
    return out


def check_external(schema: Any, memo=None) -> list[Problem]:
    """Members carrying a URI a processor would have to retrieve: a ``$ref``, ``$extends``
    or ``$root`` that is not a same-document fragment."""
    if not isinstance(schema, dict):
        return []
    out = []

    def refs_in_type(t, base):
        if isinstance(t, dict) and "$ref" in t:
            yield base + ("$ref",), t["$ref"]
        elif isinstance(t, list):
            for i, m in enumerate(t):
                if isinstance(m, dict) and "$ref" in m:
                    yield base + (i, "$ref"), m["$ref"]

    if "$root" in schema and _external(schema["$root"]):
        out.append(Problem(("$root",), "$root", f"$root {schema['$root']!r} points outside the schema"))
    for node in walked_schemas(schema, memo):
        s = node.schema
        for ptr, ref in refs_in_type(s.get("type"), node.pointer + ("type",)):
            if _external(ref):
                out.append(Problem(ptr, "$ref", f"$ref {ref!r} points outside the schema; a bound slot "
                                                "admits no external reference"))
        if "$ref" in s and _external(s["$ref"]):
            out.append(Problem(node.pointer + ("$ref",), "$ref", f"$ref {s['$ref']!r} points outside the schema"))
        ext = s.get("$extends")
        if _external(ext):
            out.append(Problem(node.pointer + ("$extends",), "$extends",
                               f"$extends {ext!r} points outside the schema"))
    return out


# --------------------------------------------------------------------------- §5.4 activation

def check_activation(schema: Any, skip: frozenset = frozenset({d.ALTNAMES, d.IMPORT}), memo=None) -> list[Problem]:
    """Add-in keywords whose add-in is neither in ``$uses`` nor on by default."""
    if not isinstance(schema, dict):
        return []
    active = d.active_addins(schema)
    out = []
    for node in walked_schemas(schema, memo):
        for key in node.schema:
            addin = KEYWORD_ADDIN.get(key)
            if addin and addin not in active and addin not in skip:
                effect = ("a client ignores it and expects the property name on the wire" if addin == d.ALTNAMES
                          else "a client treats the keyword as unconstraining")
                out.append(Problem(node.pointer + (key,), key,
                                   f"{key!r} belongs to the {addin} add-in, which this schema does not activate "
                                   f"(add it to $uses): {effect}"))
    return out


# --------------------------------------------------------------------------- §6 wire names

def check_altnames_activation(schema: Any, memo=None) -> list[Problem]:
    return check_activation(schema, skip=frozenset(set(ADDIN_KEYWORDS) - {d.ALTNAMES}), memo=memo)


def check_wire_names(schema: Any, memo=None) -> list[Problem]:
    """Two properties of one type that resolve to the same wire name (``altnames.json``
    when the alternate-names add-in is active, else the property name)."""
    if not isinstance(schema, dict):
        return []
    from .instance import wire_name

    active = d.ALTNAMES in d.active_addins(schema)  # unactivated altnames change no wire name (§5.4)
    out = []
    for node in walked_schemas(schema, memo):
        props = node.schema.get("properties")
        if not isinstance(props, dict):
            continue
        owner: dict = {}
        for name, p in props.items():
            wire = wire_name(name, p, active)
            if wire in owner:
                where = node.pointer + ("properties", name) + (("altnames", "json") if wire != name else ())
                out.append(Problem(where, "altnames", f"property {name!r} travels as {wire!r}, the same wire name "
                                                      f"as property {owner[wire]!r}"))
            else:
                owner[wire] = name
    return out


# --------------------------------------------------------------------------- §7 values

def _declared_type(schema: dict, s: dict) -> str | None:
    t = s.get("type")
    hops = 0
    while isinstance(t, dict) and hops < 32:
        hit = resolve(schema, t.get("$ref"))
        if hit is None or not isinstance(hit[1], dict):
            return None
        t = hit[1].get("type")
        hops += 1
    return t if isinstance(t, str) else None


def check_big_numbers(schema: Any, memo=None) -> list[Problem]:
    """int64/uint64/int128/uint128/decimal values written as JSON numbers."""
    if not isinstance(schema, dict):
        return []
    out = []
    for node in walked_schemas(schema, memo):
        t = _declared_type(schema, node.schema)
        if t not in STRING_ENCODED_NUMBERS:
            continue
        for kw in sorted(DATA_KEYWORDS):
            if kw not in node.schema:
                continue
            v = node.schema[kw]
            items = list(enumerate(v)) if kw in ("enum", "examples") and isinstance(v, list) else [(None, v)]
            for i, x in items:
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    ptr = node.pointer + (kw,) + ((i,) if i is not None else ())
                    out.append(Problem(ptr, kw, f"{t} value {x!r} is a JSON number; Core represents {t} as a "
                                                f"JSON string (\"{x}\") so no receiver rounds it"))
    return out


__all__ = [
    "Problem", "Signal", "jstruct_signals", "check_valid", "check_typos", "check_root_form", "check_name_and_id",
    "check_name_from_tool", "check_zero_arg", "check_imports", "check_external", "check_activation",
    "check_altnames_activation", "check_wire_names", "check_big_numbers", "TYPES", "ROOT_ONLY", "Node",
]
