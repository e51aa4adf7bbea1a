"""Projection step: references. ``definitions`` renamed to ``$defs`` where only that is
read; local references inlined where the target cannot follow them (recursion unrolled
and cut, reported); references that do not resolve inside the schema removed (reported)."""

from __future__ import annotations

from ..refs import ref_cycles
from ..schemawalk import children, subschemas
from .tree import HIDDEN, KW_ORIGIN, ORIGIN, LeftOut, copy_tree, keyword_origin, malformed, origin_of


class RefSteps:
    def _index_refs(self, pristine: dict) -> None:
        from ..refs import index, resolve

        idx = index(pristine)
        self.idx = idx
        schema_at = {tuple(sub.pointer) for sub in subschemas(pristine)} if idx.refs else set()
        for r in idx.refs:
            if r.keyword != "$ref":
                continue
            res = resolve(r, idx, pristine)
            if res is not None:
                bad = malformed(res[1], tuple(res[0])) if tuple(res[0]) not in schema_at else None
                if bad is not None:  # ("#/properties": a map of schemas, not one)
                    raise LeftOut("invalid-schema", tuple(r.pointer),
                                   f"the reference {r.value!r} leads to a value that is not a schema ({bad[1]}); "
                                   "there is no projection of it")
                self.ref_at[r.pointer] = res

    def _rename_definitions(self, work: dict) -> None:
        """draft-07 ``definitions`` -> ``$defs`` where only the latter is enforced (exact)."""
        defs = work.get("definitions")
        if not isinstance(defs, dict) or self.enforces("definitions", work, True) or not self.enforces("$defs"):
            return
        if isinstance(work.get("$defs"), dict) and set(work["$defs"]) & set(defs):
            return  # name clash: leave it to the generic handling
        work.setdefault("$defs", {}).update(work.pop("definitions"))
        work.setdefault(KW_ORIGIN, {})["$defs"] = ("definitions",)
        for sub in subschemas(work):
            n = sub.schema
            if isinstance(n, dict) and isinstance(n.get("$ref"), str) and n["$ref"].startswith("#/definitions/"):
                n["$ref"] = "#/$defs/" + n["$ref"][len("#/definitions/"):]
        self.add("rewritten", "definitions", ("definitions",),
                 f"'definitions' renamed to '$defs' and its references rewritten ({self.p.display} reads only "
                 "'$defs'); same accepted values")

    def _needs_inlining(self, schema) -> bool:
        if not self.ref_at and not self.idx.refs:
            return False
        if not self.enforces("$ref") or not self.enforces("$defs"):
            return True
        rec = self.p.constructs.get("recursion")
        if rec is not None and rec.action != "enforce":
            return bool(ref_cycles(schema, self.idx))
        return False

    def _cut(self, origin: tuple) -> dict:
        return {ORIGIN: origin}

    def _inline_all(self, work: dict, pristine: dict) -> dict:
        """Replace every local $ref by a copy of its target; recursion is unrolled ``self.unroll``
        times and then cut to ``{}`` (reported). Iterative, bounded by max_ref_expansions."""
        limit = self.bounds.max_ref_expansions
        budget_nodes = self.bounds.max_subschemas * 5  # the inlined schema stays within 5x the slot bound
        expansions = nodes = copied = 0
        sizes: dict = {}
        root = {"": work}
        stack: list = [(work, root, "", ())]
        cut_reported: set = set()
        while stack:
            node, parent, key, chain = stack.pop()
            if not isinstance(node, dict):
                continue
            nodes += 1
            if "$ref" in node:
                res = self.ref_at.get(keyword_origin(node, "$ref"))
                ref = node["$ref"]
                if res is None:
                    parent[key] = self._remote(node)
                    continue
                tptr, target = res
                if tptr not in sizes:
                    sizes[tptr] = sum(1 for _ in subschemas(target))
                if chain.count(tptr) >= self.unroll or expansions >= limit or \
                        nodes + copied + sizes[tptr] >= budget_nodes:
                    parent[key] = self._cut(origin_of(node))
                    if (tptr, chain.count(tptr) >= self.unroll) not in cut_reported:
                        cut_reported.add((tptr, chain.count(tptr) >= self.unroll))
                        if chain.count(tptr) >= self.unroll:
                            rec = self.p.constructs.get("recursion")
                            reason = self.why(rec, "$ref", ref) if rec is not None else \
                                f"{self.p.display} needs references inlined"
                            self.add("weakened", "recursion", keyword_origin(node, "$ref"),
                                     f"the recursion through {ref!r} is unrolled {self.unroll} level(s) deep and "
                                     f"cut there: below that any value is accepted ({reason})")
                        else:
                            self.add("weakened", "$ref", keyword_origin(node, "$ref"),
                                     f"inlining {ref!r} stopped at the expansion bound; below it any value is accepted")
                    continue
                expansions += 1
                copied += sizes[tptr]
                new = copy_tree(target) if isinstance(target, dict) else target
                sibs = {k: v for k, v in node.items() if k not in ("$ref",) + HIDDEN}
                if sibs:
                    wrapper = {ORIGIN: origin_of(node), "allOf": [new]}
                    wrapper.update(sibs)
                    new = wrapper
                parent[key] = new
                stack.append((new, parent, key, chain + (tptr,)))
                continue
            for k in ("$defs", "definitions"):
                node.pop(k, None)
            for rel, child, kw in list(children(node)):
                container = node[rel[0]] if len(rel) == 2 else node
                stack.append((child, container, rel[-1], chain))
        if expansions:
            self.add("rewritten", "$ref", (), f"{expansions} reference(s) inlined and $defs removed: "
                                              f"{self.p.display} cannot follow them as written")
        return root[""]

    def _remote(self, node: dict) -> dict:
        ref = node.get("$ref")
        out = {k: v for k, v in node.items() if k != "$ref"}
        self.add("weakened", "remote-ref", keyword_origin(node, "$ref"),
                 f"the reference {ref!r} does not resolve inside the schema and is never retrieved: "
                 "it is removed, so any value is accepted there")
        return out

    def _is_local_ref(self, node) -> bool:
        ref = node.get("$ref")
        return isinstance(ref, str) and ref.startswith("#")

    def _inline_one(self, node: dict) -> None:
        res = self.ref_at.get(keyword_origin(node, "$ref"))
        ref = node.pop("$ref")
        if res is None:
            self.add("weakened", "$ref", keyword_origin(node, "$ref"),
                     f"the reference {ref!r} could not be resolved to inline it; it is removed")
            return
        target = copy_tree(res[1])
        self._merge_into(node, target, "$ref")
        rule = self.p.constructs.get("ref-siblings")
        self.add("rewritten", "ref-siblings", keyword_origin(node, "$ref"),
                 f"the reference {ref!r} is inlined because {self.p.display} ignores keywords beside a $ref "
                 f"({self.why(rule, '$ref') if rule else ''}); same accepted values")
