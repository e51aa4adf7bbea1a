"""References inside one schema slot: find them, classify them, resolve the local ones.

Nothing here ever retrieves anything. A reference is *local* when it resolves inside
the slot itself: a JSON Pointer fragment (``#/$defs/a``), a plain-name anchor
(``#node``), or a relative/absolute URI that matches an identifier declared inside the
slot (an embedded resource, or the slot's own root ``$id``). A reference to a JSON Schema
meta-schema is answered from the copies bundled with the ``jsonschema`` package
(:func:`bundled`), as validation does. Everything else is *external* and is reported,
never followed.

Identifiers are read as the slot's dialect (its root ``$schema``) defines them:

* draft-04: ``id`` (not ``$id``) declares a resource or, as ``"#name"``, a plain-name
  fragment; draft-06/07: ``$id`` does both. In these drafts a ``$ref`` makes every sibling
  keyword ignored, its sibling ``id``/``$id`` included (it changes no base URI).
* 2019-09 and 2020-12: ``$id`` declares resources only (a fragment is not allowed in it);
  plain names come from ``$anchor`` (and ``$dynamicAnchor`` in 2020-12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator
from urllib.parse import unquote, urldefrag, urljoin

from .dialects import dialect_of
from .model import Pointer
from .schemawalk import subschemas

REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
_BASE = "https://slot.mcplint.invalid/root"  # the slot's own unnamed base URI (.invalid: never resolvable, never fetched)
LEGACY = frozenset({"draft-04", "draft-06", "draft-07"})  # $ref siblings ignored; plain names in the id keyword
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def join(base: str, ref: str) -> str:
    """``ref`` resolved against ``base`` (RFC 3986 §5.2), also for non-hierarchical bases such
    as ``urn:`` ones, where :func:`urllib.parse.urljoin` drops the base of a fragment."""
    if ref.startswith("#"):
        return urldefrag(base)[0] + ref
    if _SCHEME.match(ref):
        return ref
    return urljoin(base, ref)


@dataclass(frozen=True)
class Ref:
    pointer: tuple  # relative to the slot root: where the keyword is (…, "$ref")
    keyword: str
    value: Any
    base: str  # absolute base URI in force at the keyword

    @property
    def target_uri(self) -> str:
        if not isinstance(self.value, str):
            return ""
        if self.value.startswith("#"):  # fragment-only: the common case, without urllib's cost
            return self.base + self.value
        return join(self.base, self.value)


@dataclass
class Index:
    """Every identified resource and plain-name fragment in one slot, keyed by absolute URI."""

    resources: dict  # absolute URI (no fragment) -> relative pointer of the resource root
    anchors: dict  # absolute URI#name -> relative pointer
    refs: list  # of Ref
    resolved: dict = field(default_factory=dict, repr=False, compare=False)  # (uri, fragment) -> resolve()
    dialect: str = "2020-12"  # the dialect the identifiers were read in

    @property
    def legacy(self) -> bool:
        return self.dialect in LEGACY


def _strip(uri: str) -> str:
    return urldefrag(uri)[0]


_INDEXED = frozenset({"$anchor", "$dynamicAnchor", *REF_KEYWORDS})
_INDEXED_LEGACY = frozenset({"$id", "id", *REF_KEYWORDS})


def _declare(value: Any, base: str, ptr: tuple, resources: dict, anchors: dict, legacy: bool) -> str:
    """Read one identifier keyword: record what it declares, return the base URI below it."""
    if not isinstance(value, str):
        return base
    uri, frag = urldefrag(join(base, value))
    if not value.startswith("#") and uri:
        resources.setdefault(uri, ptr)  # the first declaration wins (a duplicate is a schema error)
        base = uri
    if legacy and frag and not frag.startswith("/"):
        anchors.setdefault(f"{base}#{unquote(frag)}", ptr)
    return base


def index(schema: Any, subs: Iterable | None = None, dialect: str | None = None) -> Index:
    """One pass over the slot: resources, anchors and every reference keyword.

    ``subs``: the slot's subschemas already walked (``schemawalk.subschemas(schema)``,
    in its order), to save a second walk. ``dialect``: how identifiers are read (default:
    the slot's ``$schema``; 2020-12 without one, and for anything mcplint does not know)."""
    dialect = dialect or dialect_of(schema)
    if dialect not in ("2020-12", "2019-09", *LEGACY):
        dialect = "2020-12"
    legacy = dialect in LEGACY
    id_kw = "id" if dialect == "draft-04" else "$id"
    resources = {_BASE: ()}
    anchors: dict = {}
    refs: list = []
    bases: dict = {(): _BASE}
    if isinstance(schema, dict) and id_kw in schema and not (legacy and "$ref" in schema):
        bases[()] = _declare(schema[id_kw], _BASE, (), resources, anchors, legacy)
    subs = list(subschemas(schema) if subs is None else subs)
    # The common case: no identifier below the root, so one base holds everywhere.
    nested_ids = any(isinstance(sub.schema, dict) and id_kw in sub.schema for sub in subs[1:])
    root_base = bases[()]
    watched = _INDEXED_LEGACY if legacy else _INDEXED
    for sub in subs:
        node = sub.schema
        if not isinstance(node, dict):
            continue
        base = bases.get(sub.pointer) if nested_ids else root_base
        if base is None:  # inherit from the nearest ancestor with a base
            p = sub.pointer
            while p not in bases:
                p = p[:-1]
            base = bases[p]
            if id_kw in node and sub.pointer and not (legacy and "$ref" in node):
                base = _declare(node[id_kw], base, sub.pointer, resources, anchors, legacy)
            bases[sub.pointer] = base
        if watched.isdisjoint(node):  # most nodes: decided in C
            continue
        if not legacy:
            for kw in ("$anchor", "$dynamicAnchor"):
                if isinstance(node.get(kw), str):
                    anchors.setdefault(f"{base}#{node[kw]}", sub.pointer)
        for kw in REF_KEYWORDS:
            if kw in node:
                refs.append(Ref((*sub.pointer, kw), kw, node[kw], base))
    return Index(resources, anchors, refs, dialect=dialect)


def _target(ref: Ref) -> tuple[str, str]:
    """(absolute URI without fragment, fragment) of a string reference."""
    if ref.value.startswith("#"):  # bases carry no fragment, so no parsing is needed
        return ref.base, ref.value[1:]
    return urldefrag(ref.target_uri)


def is_local(ref: Ref, idx: Index) -> bool:
    """Does ``ref`` point inside the slot (whether or not the target exists)?"""
    if not isinstance(ref.value, str):
        return False
    uri, _ = _target(ref)
    return uri in idx.resources


def resolve(ref: Ref, idx: Index, schema: Any) -> tuple[tuple, Any] | None:
    """The (relative pointer, subschema) a local reference designates, or None."""
    if not isinstance(ref.value, str):
        return None
    uri, frag = _target(ref)
    key = (uri, frag)
    if key in idx.resolved:  # a slot often references the same definition many times
        return idx.resolved[key]
    got = idx.resolved[key] = _resolve(uri, frag, idx, schema)
    return got


def _resolve(uri: str, frag: str, idx: Index, schema: Any) -> tuple[tuple, Any] | None:
    if uri not in idx.resources:
        return None
    root_ptr = idx.resources[uri]
    if frag == "" or frag.startswith("/"):
        try:
            rel = Pointer.parse("#" + frag) if frag else Pointer()
            resource = Pointer(root_ptr).resolve_in(schema)
            target = rel.resolve_in(resource)
            full = Pointer(root_ptr) + rel.normalized(resource)
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        return tuple(full), target
    ptr = idx.anchors.get(f"{uri}#{unquote(frag)}")
    if ptr is None:
        return None
    return ptr, Pointer(ptr).resolve_in(schema)


_META_PREFIXES = ("http://json-schema.org/", "https://json-schema.org/")
MISSING = object()  # a bundled meta-schema has nothing at the reference's fragment


def bundled(ref: Ref) -> Any:
    """For a reference to a JSON Schema meta-schema (``http://json-schema.org/draft-07/schema#``,
    ``https://json-schema.org/draft/2020-12/meta/core``...): the value it designates in the copy
    bundled with the ``jsonschema`` package (:data:`MISSING` when the fragment designates nothing
    there). None for any other reference. Nothing is fetched: an unknown URI is not bundled."""
    if not isinstance(ref.value, str):
        return None
    uri, frag = _target(ref)
    if not uri.startswith(_META_PREFIXES):
        return None
    try:
        from jsonschema_specifications import REGISTRY  # the meta-schemas jsonschema validates with

        contents = REGISTRY.contents(uri)
    except Exception:  # not a meta-schema it ships (LookupError), or the package is unusable
        return None
    if frag == "" or frag.startswith("/"):
        try:
            return Pointer.parse("#" + frag).resolve_in(contents) if frag else contents
        except (KeyError, IndexError, TypeError, ValueError):
            return MISSING
    name = unquote(frag)
    for sub in subschemas(contents):
        node = sub.schema
        if isinstance(node, dict) and name in (node.get("$anchor"), node.get("$dynamicAnchor")):
            return node
    return MISSING


def iter_refs(schema: Any) -> Iterator[Ref]:
    yield from index(schema).refs


def ref_cycles(schema: Any, idx: Index | None = None) -> dict[tuple, tuple]:
    """``{pointer of a $ref keyword that takes part in a reference cycle: pointer of its
    target}`` (relative to ``schema``): the target, or what the references inside it lead to,
    contains the reference again."""
    idx = idx if idx is not None else index(schema)
    targets: dict = {}
    for r in idx.refs:
        if r.keyword != "$ref":
            continue
        res = resolve(r, idx, schema)
        if res is not None:
            targets[r.pointer] = tuple(res[0])
    if not targets:
        return {}

    def inside(loc: tuple, root: tuple) -> bool:
        return loc[:len(root)] == root

    # edges between targets: T -> targets of refs located inside T
    tset = set(targets.values())
    edges = {t: {targets[r] for r in targets if inside(r[:-1], t)} for t in tset}
    out = {}
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
            out[r] = t
    return out
