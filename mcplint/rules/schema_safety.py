"""SEC: safety of processing a schema from an untrusted server (SEP-2106; JSON Structure
MCP binding §5.3 and §10): references that would need fetching, references that cannot
be resolved or loop forever, resource bounds, and regular expressions.

Every rule here reads one shared, bounded analysis of the slot (:func:`analysis`): one
walk that stops counting at the subschema bound, so a hostile schema costs at most
``max_subschemas`` steps before the remaining checks stand down.
"""

from __future__ import annotations

import json
from typing import Any

from .. import refs as refmod
from ..redos import analyse, validity
from ..model import Severity
from ..registry import rule
from ..schemawalk import encoded, walk_prefix

# Keywords that apply their subschema to the same instance location: a cycle made only
# of these (and references) re-validates the same value forever.
IN_PLACE = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
                      "dependencies"})
# Keywords whose subschemas are never applied by themselves (only through a reference).
NOT_APPLIED = frozenset({"$defs", "definitions"})
_REF_HINTS = ("$ref", "$dynamicRef", "$recursiveRef", "$id", "$anchor", "$dynamicAnchor")
_ANALYSED = frozenset({"enum", "pattern", "patternProperties", *_REF_HINTS})  # what analysis() reads of a node


class Analysis:
    """What the safety rules need of one slot, from one pass over its walk."""

    __slots__ = ("subs", "truncated", "depth", "too_deep", "enums", "patterns", "has_refs", "_nodes", "_refs")

    def __init__(self):
        self.subs: list = []  # the walk itself (schemawalk.Sub), up to the bound
        self.truncated = False  # more subschemas than the bound: later checks stand down
        self.depth = 0
        self.too_deep: tuple | None = None  # first node beyond max_depth
        self.enums: list = []  # (relative pointer of enum, length)
        self.patterns: list = []  # (relative pointer, pattern text, is_key)
        self.has_refs = False
        self._nodes: dict | None = None
        self._refs: Any = None

    @property
    def nodes(self) -> dict:
        """relative pointer -> (walk position, via keyword); built only for slots with references."""
        if self._nodes is None:
            self._nodes = {sub[0]: (i, sub[3]) for i, sub in enumerate(self.subs, 1)}
        return self._nodes

    def ref_info(self, schema):
        if self._refs is None:
            self._refs = _RefInfo(schema, self)
        return self._refs


_CACHE: list = [None, None, None]  # schema object, bounds, analysis (the engine runs rules slot by slot)


def analysis(slot, bounds) -> Analysis:
    if _CACHE[0] is slot.schema and _CACHE[1] is bounds:
        return _CACHE[2]
    a = Analysis()
    limit, max_depth = bounds.max_subschemas, bounds.max_depth
    walk = walk_prefix(slot.schema, limit)
    if len(walk) > limit:
        a.truncated = True
        walk = walk[:limit]
    a.subs = walk  # read-only: it may be the walk every family shares
    enums, patterns = a.enums, a.patterns
    depth = 0
    has_refs = False
    for sub in walk:
        ptr, node, d = sub[0], sub[1], sub[2]
        if d > depth:
            depth = d
            if a.too_deep is None and d > max_depth:
                a.too_deep = ptr
        if not isinstance(node, dict) or _ANALYSED.isdisjoint(node):  # most nodes: decided in C
            continue
        if "enum" in node and isinstance(node["enum"], list):
            enums.append((ptr + ("enum",), len(node["enum"])))
        if "pattern" in node and isinstance(node["pattern"], str):
            patterns.append((ptr + ("pattern",), node["pattern"], False))
        if "patternProperties" in node:
            pp = node["patternProperties"]
            if isinstance(pp, dict):
                patterns += [(ptr + ("patternProperties", k), k, True) for k in pp]
        if not has_refs:
            for k in _REF_HINTS:
                if k in node:
                    has_refs = True
                    break
    a.depth, a.has_refs = depth, has_refs
    _CACHE[:] = [slot.schema, bounds, a]
    return a


# ----------------------------------------------------------------------------- references

class _RefInfo:
    """Classified references and the evaluation graph they add to the slot."""

    def __init__(self, schema, a: Analysis):
        self.idx = refmod.index(schema, a.subs)
        self.external = []  # Ref
        self.broken = []  # (Ref, reason)
        self.edges = {}  # node pointer holding the ref -> [(target pointer, Ref)]
        for r in self.idx.refs:
            if not isinstance(r.value, str):
                self.broken.append((r, f"its value is {type(r.value).__name__}, not a URI-reference string"))
                continue
            if not refmod.is_local(r, self.idx):
                self.external.append(r)
                continue
            got = refmod.resolve(r, self.idx, schema)
            if got is None:
                self.broken.append((r, _why_unresolved(r)))
                continue
            target_ptr, target = got
            if not isinstance(target, (dict, bool)):
                self.broken.append((r, f"it points at {_kind(target)}, not at a schema"))
                continue
            self.edges.setdefault(r.pointer[:-1], []).append((tuple(target_ptr), r))
        self.nodes = a.nodes  # not the Analysis itself: it holds this object (no reference cycle)
        self._sccs: dict = {}
        self._full: list | None = None  # the components of the full evaluation graph
        self._tree: list | None = None

    def parent(self, ptr: tuple) -> tuple:
        return ptr[:-1] if ptr[:-1] in self.nodes else ptr[:-2]

    def tree_edges(self) -> list:
        """(parent, child, keyword) for every applied step on a path from the root to a
        subschema holding a reference: the only tree edges a reference cycle or an
        expansion can use, so the graphs below stay as small as the references."""
        if self._tree is None:
            out, seen, nodes = [], set(), self.nodes
            for src in self.edges:
                p = src
                while p and p not in seen and p in nodes:
                    seen.add(p)
                    via = nodes[p][1]
                    if via in NOT_APPLIED:
                        break
                    par = self.parent(p)
                    out.append((par, p, via))
                    p = par
            self._tree = out
        return self._tree

    def successors(self, in_place_only: bool) -> dict:
        """Evaluation edges: applied child schemas and reference targets."""
        succ: dict = {}
        for par, child, via in self.tree_edges():
            if not in_place_only or via in IN_PLACE:
                succ.setdefault(par, []).append(child)
        for src, targets in self.edges.items():
            for t, _ in targets:
                succ.setdefault(src, []).append(t)
        return succ

    def cycles(self, in_place_only: bool) -> list:
        """Strongly connected components holding at least one reference, each as the
        sorted list of (walk position, Ref) of the references inside it."""
        if in_place_only in self._sccs:
            return self._sccs[in_place_only]
        if self._full is None:
            self._full = _tarjan(self.successors(False)) if self._maybe_cyclic() else []
        comps = self._full
        if in_place_only and comps:
            # an in-place cycle is a cycle of the full graph too, so it lies inside one of its
            # components: look only there, at the in-place edges that stay inside
            where = {v: i for i, comp in enumerate(comps) for v in comp}
            comps = _tarjan({v: [w for w in ws if where.get(w) == where[v]]
                             for v, ws in self.successors(True).items() if v in where})
        out = []
        for comp in comps:
            members = set(comp)
            refs_in = [(self.nodes.get(src, (0,))[0], r) for src in comp for t, r in self.edges.get(src, ())
                       if t in members]
            if refs_in:
                out.append(sorted(refs_in, key=lambda x: x[0]))
        self._sccs[in_place_only] = out
        return out

    def _maybe_cyclic(self) -> bool:
        """A cycle needs a reference whose target encloses (or is) a reference's own node,
        since every other edge leads down the tree. Cheap to rule out, as it usually is."""
        prefixes = set()
        for src in self.edges:
            for i in range(len(src) + 1):
                prefixes.add(src[:i])
        return any(t in prefixes for targets in self.edges.values() for t, _ in targets)

    def expansions(self, bound: int) -> int:
        """How many reference substitutions fully inlining the slot would make, counting a
        reference back into its own chain once (a validator expands recursion only as deep
        as the data goes). Saturates at ``bound + 1``; never materialises anything."""
        if not self.edges:
            return 0
        succ: dict = {}
        for par, child, _ in self.tree_edges():
            succ.setdefault(par, []).append((child, 0))
        for src, targets in self.edges.items():
            for t, _ in targets:
                succ.setdefault(src, []).append((t, 1))
        cap = bound + 1
        memo: dict = {}
        on_path = {()}
        stack = [[(), iter(succ.get((), ())), 0]]
        while stack:
            frame = stack[-1]
            descended = False
            for child, is_ref in frame[1]:
                frame[2] += is_ref
                if child in memo:
                    frame[2] += memo[child]
                elif child not in on_path:  # (on the path: recursion, its reference counted once)
                    stack.append([child, iter(succ.get(child, ())), 0])
                    on_path.add(child)
                    descended = True
                    break
                if frame[2] >= cap:
                    return cap
            if descended:
                continue
            stack.pop()
            on_path.discard(frame[0])
            memo[frame[0]] = frame[2]
            if stack:
                stack[-1][2] += frame[2]
                if stack[-1][2] >= cap:
                    return cap
        return memo.get((), 0)


def _tarjan(succ: dict) -> list:
    """Non-trivial strongly connected components (size > 1, or a self-loop), iteratively."""
    index: dict = {}
    low: dict = {}
    on: set = set()
    st: list = []
    out: list = []
    counter = 0
    nodes = list(succ)
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        st.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    st.append(w)
                    on.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    pushed = True
                    break
                if w in on and index[w] < low[v]:
                    low[v] = index[w]
            if pushed:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = st.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in succ.get(v, ()):
                    out.append(comp)
    return out


def _why_unresolved(r) -> str:
    frag = r.value.split("#", 1)[1] if "#" in r.value else ""
    if frag and not frag.startswith("/"):
        return f"no $anchor or $dynamicAnchor named {frag!r} exists in this schema"
    return "nothing exists at that location in this schema"


def _kind(v) -> str:
    return {list: "an array", str: "a string", int: "a number", float: "a number", type(None): "null"}.get(
        type(v), type(v).__name__)


def _ref_text(r) -> str:
    return f"{r.keyword} {r.value!r}"


def _refs(slot, ctx):
    a = analysis(slot, ctx.bounds)
    if a.truncated or not a.has_refs:
        return None
    return a.ref_info(slot.schema)


@rule("SEC101", "external-ref", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Copy the referenced schema into $defs and point at it with a same-document reference such as "
          "\"#/$defs/Name\"")
def external_ref(slot, ctx):
    """A `$ref` or `$dynamicRef` points outside the schema.

    ## What it does
    Reports every reference keyword (`$ref`, `$dynamicRef`, `$recursiveRef`) whose target
    is not inside the same schema slot: a network URL, a file name such as `common.json`,
    or a URI that matches no `$id` declared inside the slot. The reference is never
    fetched: mcplint opens no connection and reads no file while linting.

    ## Why is this bad?
    Tool schemas arrive during discovery, before the client has decided to trust the
    server. SEP-2106 says implementations MUST NOT dereference a `$ref` that is not a
    same-document pointer or internal anchor, and that a schema which fails because an
    external `$ref` is unresolved SHOULD be rejected, not treated as permissive. So the
    reference either makes clients reject the tool or, in lax validators, silently
    accept anything in its place. A client that did fetch it would turn `tools/list`
    into a request-forgery primitive (binding §10).

    ## Example
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "https://schemas.example.com/address.json"}}}}
    ```

    ## Use instead
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/address"}},
     "$defs": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "JSON Schema Usage" ($ref resolution; SEP-2106 security
    implications); JSON Structure MCP binding §5.3 (self-containment) and §10 (retrieval
    during discovery).
    """
    info = _refs(slot, ctx)
    if info is None:
        return
    for r in info.external:
        yield ctx.finding(slot.pointer + r.pointer,
                          f"{_ref_text(r)} points outside this schema; it was not fetched (nothing a tool "
                          "schema points to is ever retrieved: SEP-2106 forbids dereferencing non-local "
                          "references), so clients must reject the schema or lose the constraint")


@rule("SEC102", "unresolved-ref", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Point the reference at a subschema that exists in this schema, or add the missing $defs entry or "
          "$anchor")
def unresolved_ref(slot, ctx):
    """A same-document reference points at nothing.

    ## What it does
    Reports a local `$ref`/`$dynamicRef` whose JSON Pointer designates no value in the
    schema, whose anchor (`#name`) no `$anchor` or `$dynamicAnchor` declares, that
    designates a value which is not a schema (an array, a string...), or whose value is
    not a string at all.

    ## Why is this bad?
    A validator cannot compile the schema: most refuse it outright, and SEP-2106 asks
    that a schema failing on an unresolved reference be rejected rather than read as
    permissive. Either way the tool is unusable or unchecked.

    ## Example
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/adress"}},
     "$defs": {"address": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "lookup", "inputSchema": {"type": "object",
     "properties": {"address": {"$ref": "#/$defs/address"}},
     "$defs": {"address": {"type": "string"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §8.2.3 (schema references) and §9.4.2 (references to
    possible non-schemas); MCP 2026-07-28 basic/index ($ref resolution, SEP-2106).
    """
    info = _refs(slot, ctx)
    if info is None:
        return
    for r, why in info.broken:
        yield ctx.finding(slot.pointer + r.pointer, f"{_ref_text(r)} cannot be resolved: {why}")


@rule("SEC103", "ref-loop", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Give the loop a real schema to land on, or remove the reference that closes it")
def ref_loop(slot, ctx):
    """References go round in a loop without ever reaching a schema that consumes input.

    ## What it does
    Reports references that close a cycle in which every step applies to the same
    value: `$ref` to `$ref` (`a -> b -> a`), a `$ref` to itself, or a `$ref` back to an
    ancestor reached only through `allOf`/`anyOf`/`oneOf`/`not`/`if`/`then`/`else`.
    One finding per loop, at its first reference, naming the others. (A cycle that
    passes through `properties`, `items` and the like is recursion, see SEC104.)

    ## Why is this bad?
    Resolving the loop never terminates: validators either refuse the schema, overflow
    their stack, or hang. JSON Schema 2020-12 §9.4.1 says a schema MUST NOT be run into
    an infinite loop against an instance and leaves the behaviour undefined; binding
    §10 requires implementations to detect reference cycles rather than recurse on them.

    ## Example
    ```json
    {"name": "loop", "inputSchema": {"type": "object",
     "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}}
    ```

    ## Use instead
    ```json
    {"name": "loop", "inputSchema": {"type": "object",
     "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "string"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §9.4.1 (guarding against infinite recursion); JSON
    Structure MCP binding §10 (detect reference cycles).
    """
    info = _refs(slot, ctx)
    if info is None:
        return
    for comp in info.cycles(in_place_only=True):
        first = comp[0][1]
        chain = " -> ".join(repr(r.value) for _, r in comp[:5]) + (" -> ..." if len(comp) > 5 else "")
        yield ctx.finding(slot.pointer + first.pointer,
                          f"{_ref_text(first)} starts a reference loop that never reaches a schema that "
                          f"consumes input ({chain}, and round again); no validator can resolve it")


@rule("SEC104", "recursive-ref", severity=Severity.INFO, scope="slot",
      requires="ref",
      fix="Nothing to fix for JSON Schema validators; for decoders that cannot recurse, bound the depth by "
          "unrolling a few levels")
def recursive_ref(slot, ctx):
    """A schema refers back to itself through properties or items (recursion).

    ## What it does
    Reports, once per recursive structure, a reference that leads back to an enclosing
    schema through a keyword that descends into the value (`properties`, `items`,
    `additionalProperties`...), such as a tree node whose `children` items are nodes.

    ## Why is this bad?
    It is not: recursion is valid JSON Schema and terminates because each step consumes
    a level of the value. It is reported for awareness, because tools that inline
    references (some clients, constrained decoders) cannot represent it, and a
    validator's work now grows with the depth of the value.

    ## Example
    ```json
    {"name": "tree", "inputSchema": {"type": "object",
     "properties": {"root": {"$ref": "#/$defs/node"}},
     "$defs": {"node": {"type": "object", "properties": {"label": {"type": "string"},
       "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "tree", "inputSchema": {"type": "object",
     "properties": {"root": {"$ref": "#/$defs/node"}},
     "$defs": {"node": {"type": "object", "properties": {"label": {"type": "string"},
       "children": {"type": "array", "items": {"type": "string"}}}}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §8.2.3.1 (recursive references are allowed) and §9.4.1;
    JSON Structure MCP binding §10 (reference cycles must be detected, not recursed on).
    """
    info = _refs(slot, ctx)
    if info is None:
        return
    loops = {id(r) for comp in info.cycles(in_place_only=True) for _, r in comp}
    for comp in info.cycles(in_place_only=False):
        if any(id(r) in loops for _, r in comp):
            continue  # reported as a loop
        first = comp[0][1]
        yield ctx.finding(slot.pointer + first.pointer,
                          f"{_ref_text(first)} makes this schema recursive (it leads back to an enclosing "
                          "schema); valid JSON Schema, but consumers that inline references cannot expand it")


# ----------------------------------------------------------------------------- bounds

def _bound_msg(what: str, got: str, limit: int, key: str, why: str) -> str:
    return f"{what} {got}, over the bound of {limit} (bounds.{key}); {why}"


@rule("SEC105", "excessive-depth", severity=Severity.ERROR, scope="slot",
      fix="Flatten the schema: move repeated structure into $defs, or raise bounds.max-depth if it is genuine")
def excessive_depth(slot, ctx):
    """Subschemas nest deeper than the configured bound.

    ## What it does
    Counts applicator steps (`properties`, `items`, `allOf`...) from the slot's root and
    reports the first subschema, in document order, that lies deeper than
    `bounds.max-depth`.

    ## Why is this bad?
    SEP-2106 asks implementations to bound schema depth, and binding §10 requires it:
    clients that do will reject the tool, and those that do not may exhaust their stack.
    Real tool schemas are shallow; extreme nesting is a mistake or an attack.

    ## Example
    <!-- settings: {"bounds": {"max-depth": 2}} -->
    ```json
    {"name": "deep", "inputSchema": {"type": "object", "properties": {"a": {"type": "object",
     "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}}}
    ```

    ## Use instead
    ```json
    {"name": "deep", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106: SHOULD bound
    depth); JSON Structure MCP binding §10 (MUST bound nesting depth).
    """
    a = analysis(slot, ctx.bounds)
    if a.too_deep is not None:
        b = ctx.bounds.max_depth
        yield ctx.finding(slot.pointer + a.too_deep,
                          _bound_msg("this subschema is nested", f"{b + 1}+ levels deep", b, "max-depth",
                                     "clients that bound depth reject the schema, others may exhaust their stack"))


@rule("SEC106", "excessive-subschemas", severity=Severity.ERROR, scope="slot",
      fix="Share repeated structure through $defs and $ref, split the tool, or raise bounds.max-subschemas")
def excessive_subschemas(slot, ctx):
    """The slot holds more subschemas than the configured bound.

    ## What it does
    Counts every subschema of the slot (the root included) and reports the slot when the
    count passes `bounds.max-subschemas`. Counting stops at the bound, and the other
    checks of this family stand down for that slot, so a huge schema costs little.

    ## Why is this bad?
    Validation and compilation cost grows with the number of subschemas. SEP-2106 asks
    implementations to bound total subschemas to keep a tool definition from acting as
    a CPU denial-of-service vector; clients that do will reject the tool.

    ## Example
    <!-- settings: {"bounds": {"max-subschemas": 3}} -->
    ```json
    {"name": "wide", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"},
     "b": {"type": "string"}, "c": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "wide", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    ```

    ## References
    MCP 2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106: SHOULD bound
    total subschema count); JSON Structure MCP binding §10 (MUST bound schema size).
    """
    a = analysis(slot, ctx.bounds)
    if a.truncated:
        b = ctx.bounds.max_subschemas
        yield ctx.finding(slot.pointer,
                          _bound_msg("this schema has", f"more than {b} subschemas", b, "max-subschemas",
                                     "clients that bound schema cost reject it; the other safety checks "
                                     "stopped here"))


@rule("SEC107", "excessive-enum", severity=Severity.ERROR, scope="slot",
      fix="Accept a pattern or a free string and validate membership in the tool, or raise bounds.max-enum")
def excessive_enum(slot, ctx):
    """An `enum` lists more values than the configured bound.

    ## What it does
    Reports each `enum` whose number of values passes `bounds.max-enum`.

    ## Why is this bad?
    Binding §10 requires implementations to bound enum cardinality: a client that does
    rejects the tool, and one that does not spends memory and model context on every
    value (enums are often copied verbatim into the prompt or a decoding grammar).

    ## Example
    <!-- settings: {"bounds": {"max-enum": 3}} -->
    ```json
    {"name": "pick", "inputSchema": {"type": "object", "properties": {"c": {"enum": ["r", "g", "b", "a"]}}}}
    ```

    ## Use instead
    ```json
    {"name": "pick", "inputSchema": {"type": "object", "properties": {"c": {"enum": ["r", "g", "b"]}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound enum cardinality).
    """
    a = analysis(slot, ctx.bounds)
    b = ctx.bounds.max_enum
    for ptr, n in a.enums:
        if n > b:
            yield ctx.finding(slot.pointer + ptr,
                              _bound_msg("this enum lists", f"{n} values", b, "max-enum",
                                         "clients that bound enum size reject the schema"))


def _schema_bytes(schema, limit: int) -> int:
    """Compact JSON size in UTF-8 bytes (exact below ``limit``; may stop early above it)."""
    try:
        text = json.dumps(schema, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    except (RecursionError, ValueError):
        return _size_iteratively(schema, limit)
    n = len(text)
    return n if n * 4 <= limit else len(text.encode("utf-8", "surrogatepass"))


# Compact JSON is never more than 6 times the size of marshal's version-2 encoding of the same
# value (a string costs marshal 5 + its UTF-8 bytes and JSON at most 2 + 6 per byte, \u001f being
# the longest escape; a literal 1 byte against at most 5; a number 5 or 9 bytes against at most
# 11 or 24 characters; each container entry 1 byte or more against a comma and, in objects, a
# colon), and marshal measures 3 times faster: a schema under a sixth of the bound needs no JSON.
_JSON_PER_MARSHAL_BYTE = 6


def _surely_within(schema, limit: int) -> bool:
    """True when the compact JSON of ``schema`` certainly fits in ``limit`` bytes."""
    blob = encoded(schema)
    # None: too deep, or not plain data: measured exactly instead
    return blob is not None and len(blob) * _JSON_PER_MARSHAL_BYTE <= limit


_SMALL: list = [None, None, False]  # document, limit, verdict


def _small_json(doc, limit: int) -> bool:
    """True when no slot of this JSON document can serialize to more than ``limit`` bytes.

    Compact re-serialization never grows a parsed JSON text except where a number is
    re-spelled (``1e15`` becomes ``1000000000000000.0``: at most 4.5 times longer), so a
    source of at most ``limit / 5`` bytes needs no measuring. YAML is always measured
    (aliases can expand)."""
    if _SMALL[0] is doc and _SMALL[1] == limit:
        return _SMALL[2]
    text = doc.source.text
    verdict = doc.source.fmt == "json" and (len(text) * 4 * 5 <= limit or
                                           len(text.encode("utf-8", "surrogatepass")) * 5 <= limit)
    _SMALL[:] = [doc, limit, verdict]
    return verdict


def _size_iteratively(value, limit: int) -> int:
    total = 0
    stack = [value]
    while stack and total <= limit:
        v = stack.pop()
        if isinstance(v, dict):
            total += 2 + max(0, len(v) - 1)
            for k, x in v.items():
                total += len(str(k).encode("utf-8", "surrogatepass")) + 3
                stack.append(x)
        elif isinstance(v, list):
            total += 2 + max(0, len(v) - 1)
            stack.extend(v)
        elif isinstance(v, str):
            total += len(v.encode("utf-8", "surrogatepass")) + 2
        else:
            total += len(json.dumps(v))
    return total


@rule("SEC108", "excessive-schema-size", severity=Severity.ERROR, scope="slot",
      fix="Shrink the schema (share structure through $defs, shorten descriptions) or raise "
          "bounds.max-schema-bytes")
def excessive_schema_size(slot, ctx):
    """The schema's serialized size passes the configured bound.

    ## What it does
    Measures the slot as compact JSON (UTF-8 bytes, no whitespace) and reports it when it
    passes `bounds.max-schema-bytes`.

    ## Why is this bad?
    Binding §10 requires implementations to bound schema size, and every client sends
    the schema to the model: an oversized schema is rejected by careful clients and
    costs context and latency in all the others.

    ## Example
    <!-- settings: {"bounds": {"max-schema-bytes": 60}} -->
    ```json
    {"name": "big", "inputSchema": {"type": "object", "properties": {"a": {"type": "string",
     "description": "a long description that pushes the schema over a small bound"}}}}
    ```

    ## Use instead
    ```json
    {"name": "big", "inputSchema": {"type": "object"}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound schema size); MCP
    2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106).
    """
    limit = ctx.bounds.max_schema_bytes
    if _small_json(slot.tool.doc, limit) or _surely_within(slot.schema, limit):
        return
    n = _schema_bytes(slot.schema, limit)
    if n > limit:
        yield ctx.finding(slot.pointer,
                          _bound_msg("this schema is", f"{n} bytes as compact JSON", limit, "max-schema-bytes",
                                     "clients that bound schema size reject it"))


@rule("SEC109", "excessive-ref-expansion", severity=Severity.ERROR, scope="slot",
      requires="ref",
      fix="Reference shared definitions fewer times in a row, or flatten the fan-out; raise "
          "bounds.max-ref-expansions if it is genuine")
def excessive_ref_expansion(slot, ctx):
    """Inlining the schema's references would take more substitutions than the bound.

    ## What it does
    Counts how many `$ref` substitutions a full inlining of the slot would make, without
    performing it: shared definitions are counted once per use, recursion once. A fan-out
    such as `a -> [b, b]`, `b -> [c, c]`... doubles at each level. Counting stops at
    `bounds.max-ref-expansions`.

    ## Why is this bad?
    A schema of a few hundred bytes can expand to billions of nodes ("billion laughs"),
    exhausting clients and decoders that inline references. Binding §10 requires
    implementations to bound `$ref` traversal.

    ## Example
    <!-- settings: {"bounds": {"max-ref-expansions": 5}} -->
    ```json
    {"name": "fan", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}},
     "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/b"}]},
               "b": {"allOf": [{"$ref": "#/$defs/c"}, {"$ref": "#/$defs/c"}]},
               "c": {"type": "string"}}}}
    ```

    ## Use instead
    ```json
    {"name": "fan", "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/c"}},
     "$defs": {"c": {"type": "string"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (implementations MUST bound $ref traversal); MCP
    2026-07-28 basic/index "Composition-keyword resource use" (SEP-2106).
    """
    info = _refs(slot, ctx)
    if info is None:
        return
    b = ctx.bounds.max_ref_expansions
    n = info.expansions(b)
    if n > b:
        yield ctx.finding(slot.pointer,
                          _bound_msg("fully inlining this schema's references takes", f"more than {b} substitutions",
                                     b, "max-ref-expansions",
                                     "clients and decoders that inline references blow up on it"))


# ----------------------------------------------------------------------------- patterns

def _patterns(slot, ctx):
    a = analysis(slot, ctx.bounds)
    if a.truncated:  # SEC106 reported; the slot is not examined further
        return
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key in a.patterns:
        yield ptr, text, is_key, len(text) > limit


# Backtracking analysis costs up to ~40 ms for a hostile 1,000-character expression, so a
# file gets a budget of distinct expression text to analyse: ANALYSIS_BUDGET times the
# pattern-length bound. Past it, SEC112 says so once per slot instead of going quiet.
ANALYSIS_BUDGET = 16
_SPENT: list = [None, set(), 0]  # document, patterns analysed, characters spent


def _analysable(doc, text: str, limit: int) -> bool:
    if _SPENT[0] is not doc:
        _SPENT[:] = [doc, set(), 0]
    if text in _SPENT[1]:
        return True
    if _SPENT[2] + len(text) > ANALYSIS_BUDGET * limit:
        return False
    _SPENT[1].add(text)
    _SPENT[2] += len(text)
    return True


def _what(is_key: bool) -> str:
    return "patternProperties key" if is_key else "pattern"


@rule("SEC110", "invalid-pattern", severity=Severity.ERROR, scope="slot",
      requires="pattern",
      fix="Rewrite the expression in ECMA-262 syntax (e.g. (?<name>...) rather than (?P<name>...), no inline "
          "flags such as (?i))")
def invalid_pattern(slot, ctx):
    """A `pattern` or `patternProperties` key is not a valid ECMA-262 regular expression.

    ## What it does
    Compiles each `pattern` value and `patternProperties` key with an ECMA-262 engine
    (the dialect JSON Schema prescribes, not Python's or PCRE) and reports those that do
    not compile.

    ## Why is this bad?
    Validators throw when compiling the schema, so the tool is rejected; lenient ones
    drop the constraint. Python- and PCRE-only syntax (`(?P<name>...)`, `(?i)`,
    possessive quantifiers) is the usual cause: it works in the server's tests and
    fails in JavaScript clients.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"code": {"type": "string",
     "pattern": "(?i)^[a-z]{3}$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"code": {"type": "string",
     "pattern": "^[a-zA-Z]{3}$"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §6.3.3 and Core §6.4 (regular expressions are
    ECMA-262); JSON Structure MCP binding §10 (patterns come from an untrusted source).
    """
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            continue
        v = validity(text)
        if not v.ok:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} is not a valid ECMA-262 regular expression ({v.error}); "
                              "validators fail to compile the schema or drop the constraint")


@rule("SEC111", "redos-pattern", severity=Severity.WARNING, scope="slot",
      requires="pattern",
      fix="Make the repetition unambiguous: no quantifier around a group that itself repeats, alternatives "
          "that cannot start with the same character; bound the lengths ({1,64})")
def redos_pattern(slot, ctx):
    """A regular expression is prone to catastrophic backtracking (ReDoS).

    ## What it does
    Analyses each `pattern` and `patternProperties` key for the shapes that make a
    backtracking matcher (JavaScript's, Python's, Java's...) take exponential time on a
    failing input, nested quantifiers such as `(a+)+` or `(\\w+\\s?)*` and overlapping
    alternatives under a quantifier such as `(a|aa)*`, and polynomial time, such as
    `\\d+\\d+` (reported as polynomial in the message).

    ## Why is this bad?
    The pattern comes from the server but runs in the client and the server's
    validator, on arguments a model (or an attacker steering it) writes: a 30-character
    argument can pin a CPU for minutes. Binding §10 requires a non-exponential matcher
    or a time bound; most JSON Schema validators have neither.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"slug": {"type": "string",
     "pattern": "^([a-z0-9]+-?)+$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"slug": {"type": "string",
     "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (a pattern is a regular expression from an untrusted
    source: non-exponential matcher or time bound); OWASP, "Regular expression Denial of
    Service - ReDoS".
    """
    limit = ctx.bounds.max_pattern_length
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long or not validity(text).ok or not _analysable(slot.tool.doc, text, limit):
            continue
        risk = analyse(text)
        if risk is not None:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} can take {risk.kind} time on a backtracking matcher: "
                              f"{risk.why}; a short crafted argument can stall the validator")


@rule("SEC112", "excessive-pattern-length", severity=Severity.ERROR, scope="slot",
      requires="pattern",
      fix="Shorten the expression (validate structure in the tool instead) or raise bounds.max-pattern-length")
def excessive_pattern_length(slot, ctx):
    """A regular expression is longer than the configured bound.

    ## What it does
    Reports each `pattern` value or `patternProperties` key longer than
    `bounds.max-pattern-length` characters. Such expressions are not compiled or
    analysed further. Also reported, once per schema at the slot, when the file's
    distinct expressions together pass 16 times that bound: the backtracking analysis
    (SEC111) stops there, so its silence would otherwise mislead.

    ## Why is this bad?
    Compiling and matching cost grows with the expression; binding §10 treats patterns
    as untrusted input that implementations must bound. Real tool schemas use short
    expressions; a huge one is a generated blob or an attack.

    ## Example
    <!-- settings: {"bounds": {"max-pattern-length": 10}} -->
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"d": {"type": "string",
     "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"d": {"type": "string",
     "format": "date"}}}}
    ```

    ## References
    JSON Structure MCP binding §10 (bound schema processing; patterns are untrusted).
    """
    limit = ctx.bounds.max_pattern_length
    over_budget = False
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            yield ctx.finding(slot.pointer + ptr,
                              _bound_msg(f"this {_what(is_key)} is", f"{len(text)} characters long", limit,
                                         "max-pattern-length", "it was neither compiled nor analysed"))
        elif not over_budget and not _analysable(slot.tool.doc, text, limit):
            over_budget = True
            yield ctx.finding(slot.pointer,
                              f"the regular expressions of this file add up to more than "
                              f"{ANALYSIS_BUDGET * limit} distinct characters ({ANALYSIS_BUDGET} x "
                              "bounds.max-pattern-length); those in this schema past that were not analysed "
                              "for catastrophic backtracking")


@rule("SEC113", "non-unicode-pattern", severity=Severity.WARNING, scope="slot",
      requires="pattern",
      fix="Remove escapes of characters that need none (\\_ -> _, \\- outside a class -> -) and escape "
          "literal braces (\\{)")
def non_unicode_pattern(slot, ctx):
    r"""A regular expression is valid only without ECMA-262's `u` (Unicode) flag.

    ## What it does
    Reports a `pattern` or `patternProperties` key that compiles as plain ECMA-262 but
    not with the `u` flag, typically because of a needless escape (`\_`, `\@`) or a
    lone brace (`a{`).

    ## Why is this bad?
    JSON Schema 2020-12 says regular expressions SHOULD be compiled with the `u` flag,
    and widely used validators (Ajv's default `unicodeRegExp: true`) do: they fail to
    compile this schema, while other clients accept it. The same tool works in one
    client and is rejected by another.

    ## Example
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"id": {"type": "string",
     "pattern": "^[a-z]+\\_[0-9]+$"}}}}
    ```

    ## Use instead
    ```json
    {"name": "t", "inputSchema": {"type": "object", "properties": {"id": {"type": "string",
     "pattern": "^[a-z]+_[0-9]+$"}}}}
    ```

    ## References
    JSON Schema 2020-12 Core §6.4 (regular expressions SHOULD be built with the "u"
    flag); Ajv options: unicodeRegExp defaults to true (https://ajv.js.org/options.html,
    seen 2026-11-30).
    """
    for ptr, text, is_key, too_long in _patterns(slot, ctx):
        if too_long:
            continue
        v = validity(text)
        if v.ok and not v.unicode_ok:
            yield ctx.finding(slot.pointer + ptr,
                              f"{_what(is_key)} {text!r} is valid ECMA-262 only without the u flag "
                              f"({v.unicode_error} with it); validators that use u, as JSON Schema recommends, "
                              "reject the schema")
