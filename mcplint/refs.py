"""References inside one schema slot: find them, classify them, resolve the local ones.

Nothing here ever retrieves anything. A reference is *local* when it resolves inside
the slot itself: a JSON Pointer fragment (``#/$defs/a``), a plain-name anchor
(``#node``), or a relative/absolute URI that matches an ``$id`` declared inside the
slot (an embedded resource). Everything else is *external* and is reported, never
followed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator
from urllib.parse import unquote, urldefrag, urljoin

from .model import Pointer
from .schemawalk import subschemas

REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
_BASE = "https://slot.mcplint.invalid/root"  # the slot's own unnamed base URI (.invalid: never resolvable, never fetched)


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
        return urljoin(self.base, self.value)


@dataclass
class Index:
    """Every ``$id`` resource and anchor in one slot, keyed by absolute URI."""

    resources: dict  # absolute URI (no fragment) -> relative pointer of the resource root
    anchors: dict  # absolute URI#name -> relative pointer
    refs: list  # of Ref
    resolved: dict = field(default_factory=dict, repr=False, compare=False)  # (uri, fragment) -> resolve()


def _strip(uri: str) -> str:
    return urldefrag(uri)[0]


_INDEXED = frozenset({"$anchor", "$dynamicAnchor", *REF_KEYWORDS})


def index(schema: Any, subs: Iterable | None = None) -> Index:
    """One pass over the slot: resources, anchors and every reference keyword.

    ``subs``: the slot's subschemas already walked (``schemawalk.subschemas(schema)``,
    in its order), to save a second walk."""
    resources = {_BASE: ()}
    anchors: dict = {}
    refs: list = []
    bases: dict = {(): _BASE}
    root_id = schema.get("$id") if isinstance(schema, dict) else None
    if isinstance(root_id, str):
        bases[()] = _strip(urljoin(_BASE, root_id)) or _BASE
        resources[bases[()]] = ()
    subs = list(subschemas(schema) if subs is None else subs)
    # The common case: no $id below the root, so one base holds everywhere.
    nested_ids = any(isinstance(sub.schema, dict) and "$id" in sub.schema for sub in subs[1:])
    root_base = bases[()]
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
            if isinstance(node.get("$id"), str) and sub.pointer:
                base = _strip(urljoin(base, node["$id"])) or base
                resources[base] = sub.pointer
            bases[sub.pointer] = base
        if _INDEXED.isdisjoint(node):  # most nodes: decided in C
            continue
        for kw in ("$anchor", "$dynamicAnchor"):
            if isinstance(node.get(kw), str):
                anchors[f"{base}#{node[kw]}"] = sub.pointer
        for kw in REF_KEYWORDS:
            if kw in node:
                refs.append(Ref((*sub.pointer, kw), kw, node[kw], base))
    return Index(resources, anchors, refs)


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


def iter_refs(schema: Any) -> Iterator[Ref]:
    yield from index(schema).refs
