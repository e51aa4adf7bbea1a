"""Projection step: the root of a tool's ``inputSchema``. A root that is not an object is
typed or narrowed to one where tool arguments allow it (otherwise the tool is left out);
combinators the target refuses at the root are merged into one object (reported)."""

from __future__ import annotations

from ..profiles.nodetests import schema_types
from .tree import KW_ORIGIN, ORIGIN, LeftOut, copy_tree, keyword_origin, origin_of, short_text


class RootSteps:
    # -- the root of a tool's inputSchema
    def _root(self, node: dict) -> None:
        rno = self.construct("root-not-object", node, True)
        types = schema_types(node)
        if rno is not None and types != {"object"}:
            if not types and not any(k in node for k in ("anyOf", "oneOf", "enum", "const", "not")):
                node["type"] = "object"
                self.add("rewritten", "root-not-object", origin_of(node),
                         "'type: object' added at the root: tool arguments are always an object, so the "
                         "accepted arguments are the same")
            elif "object" in types:
                node["type"] = "object"
                self.add("rewritten", "root-not-object", keyword_origin(node, "type"),
                         f"the root type {short_text(sorted(types))} narrowed to 'object': tool arguments are always "
                         "an object, so the accepted arguments are the same")
            elif types:
                raise LeftOut("root-not-object", keyword_origin(node, "type"),
                               f"the root type is {short_text(node.get('type'))}, and {self.p.display} requires an "
                               f"object ({self.why(rno, 'type', node.get('type'))}): the tool cannot be projected")

    def _root_combinators(self, node: dict) -> None:
        rc = self.construct("root-combinator", node, True)
        if rc is not None:
            for kw in (rc.keywords or ("anyOf", "oneOf", "allOf")):
                if kw not in node:
                    continue
                if kw in ("anyOf", "oneOf"):
                    self._union_at_root(node, kw, rc)
                elif kw == "allOf":
                    self._merge_allof(node, rc)
                else:
                    v = node.pop(kw)
                    self.add("weakened", kw, keyword_origin(node, kw),
                             f"'{kw}' ({short_text(v)}) removed from the root ({self.why(rc, kw)}): the model can "
                             "send arguments it excluded")

    def _union_at_root(self, node: dict, kw: str, rule) -> None:
        branches = node.pop(kw)
        where = keyword_origin(node, kw)
        resolved = []
        for b in branches if isinstance(branches, list) else []:
            if isinstance(b, dict) and "$ref" in b:
                res = self.ref_at.get(keyword_origin(b, "$ref"))
                if res is not None and isinstance(res[1], dict):
                    b = copy_tree(res[1])
            resolved.append(b)
        if any(not isinstance(b, dict) or (schema_types(b) and "object" not in schema_types(b)) for b in resolved):
            if all(b is True or b == {} or (isinstance(b, dict) and (not schema_types(b) or "object" in schema_types(b)))
                   for b in resolved):
                pass
            else:
                raise LeftOut("root-combinator", where,
                               f"the root '{kw}' has branches that are not objects, and {self.p.display} allows "
                               f"no alternatives at the root ({self.why(rule, kw)}): the tool cannot be projected")
        props: dict = {}
        all_names = []
        for b in resolved:
            for name in (b.get("properties") or {}) if isinstance(b, dict) else {}:
                if name not in all_names:
                    all_names.append(name)
        for name in all_names:
            alts = []
            anything = False
            for b in resolved:
                bp = b.get("properties") if isinstance(b, dict) and isinstance(b.get("properties"), dict) else {}
                if name in bp:
                    alts.append(bp[name])
                elif not (isinstance(b, dict) and b.get("additionalProperties") is False):
                    anything = True
            if anything:  # some branch lets this key hold any value: the union cannot constrain it
                props[name] = {ORIGIN: where}
                continue
            uniq = []
            for a in alts:
                if a not in uniq:
                    uniq.append(a)
            props[name] = uniq[0] if len(uniq) == 1 else {ORIGIN: where, "anyOf": uniq}
        reqs = [set(b.get("required") or []) if isinstance(b, dict) and isinstance(b.get("required"), list)
                else set() for b in resolved]
        common = set.intersection(*reqs) if reqs else set()
        merged: dict = {}
        if props:
            merged["properties"] = props
        if common:
            order = [n for b in resolved if isinstance(b, dict) for n in (b.get("required") or []) if n in common]
            merged["required"] = list(dict.fromkeys(order))
        merged[KW_ORIGIN] = {k: where for k in merged}
        self._merge_into(node, merged, kw)
        self.add("weakened", "root-combinator", where,
                 f"the root '{kw}' of {len(resolved)} alternative(s) is merged into one object "
                 f"({self.why(rule, kw)}): properties of every alternative are offered, but which combinations "
                 "are valid is no longer enforced")
