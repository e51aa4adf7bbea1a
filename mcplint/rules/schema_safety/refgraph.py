"""The references of one slot and the evaluation graph they add to it: which are external or
broken, the cycles they close (Tarjan's strongly connected components), and how many substitutions
inlining them would take. Built from the slot's :class:`.common.Analysis`; imports nothing of the
package."""

from __future__ import annotations

from ... import refs as refmod
from ...jsonvalue import json_kind

# Keywords that apply their subschema to the same instance location: a cycle made only
# of these (and references) re-validates the same value forever.
IN_PLACE = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas",
                      "dependencies"})
# Keywords whose subschemas are never applied by themselves (only through a reference).
NOT_APPLIED = frozenset({"$defs", "definitions"})


class RefInfo:
    """Classified references and the evaluation graph they add to the slot (``a``: the slot's
    :class:`.common.Analysis`)."""

    def __init__(self, schema, a):
        self.idx = refmod.index(schema, a.subs)
        self.external = []  # Ref
        self.broken = []  # (Ref, reason)
        self.edges = {}  # node pointer holding the ref -> [(target pointer, Ref)]
        for r in self.idx.refs:
            if not isinstance(r.value, str):
                self.broken.append((r, f"its value is {type(r.value).__name__}, not a URI-reference string"))
                continue
            if not refmod.is_local(r, self.idx):
                meta = refmod.bundled(r)
                if meta is None:
                    self.external.append(r)
                elif meta is refmod.MISSING:
                    self.broken.append((r, "the JSON Schema meta-schema it names has nothing at that location"))
                elif not isinstance(meta, (dict, bool)):
                    self.broken.append((r, f"it points at {_kind(meta)} in the JSON Schema meta-schema, not at a schema"))
                continue  # a meta-schema: resolved from the bundled copy, and outside the slot's graph
            got = refmod.resolve(r, self.idx, schema)
            if got is None:
                self.broken.append((r, _why_unresolved(r, self.idx)))
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


def _why_unresolved(r, idx) -> str:
    frag = r.value.split("#", 1)[1] if "#" in r.value else ""
    if frag and not frag.startswith("/"):
        if idx.legacy:
            kw = "id" if idx.dialect == "draft-04" else "$id"
            return (f"no {kw} declares the plain name {frag!r} (\"{kw}\": \"#{frag}\") in this schema "
                    f"({idx.dialect} has no $anchor keyword)")
        return f"no $anchor or $dynamicAnchor named {frag!r} exists in this schema"
    return "nothing exists at that location in this schema"


def _kind(v) -> str:
    kind = json_kind(v)
    return kind if kind == "null" else ("an " if kind[0] in "aeiou" else "a ") + kind
