"""Projection step: draft-07's tuple form. Draft-07 and 2019-09 type a tuple with ``items``
as an array of schemas (one per position) and ``additionalItems`` for the rest; 2020-12
writes the same tuple ``prefixItems`` + ``items``, and a 2020-12 or OpenAPI reader takes no
array under ``items`` at all. Decided by the target's facts, in this order:

* ``prefixItems`` (with ``items`` for ``additionalItems``) where the target enforces them:
  the same accepted values (``rewritten``); a draft-07 ``$schema`` is then written as 2020-12;
* the tuple form kept where the target reads it as written (the ``tuple-items`` construct);
* ``prefixItems`` where the target enforces it with a change of its own (a tuple it closes),
  or the tuple form kept where the target rewrites that: the profile's words (``target-rewrite``);
* otherwise one ``items`` schema every position fits in (the ``anyOf`` of the members, the
  tuple's length kept as ``maxItems`` when it is closed): ``weakened``, positions are lost.

A 2020-12 tuple (``prefixItems``, ``items`` for the rest) meets the same last step where the
target rejects or ignores ``prefixItems`` (pydantic's ``tuple[float, float]`` for OpenAI strict:
``items: {type: number}`` with its length, exactly). ``additionalItems`` beside a single ``items``
schema constrains nothing in any draft; where the target does not take it, it is removed without
a change of values (``removed``).
"""

from __future__ import annotations

from typing import Any

from ..profiles.model import NON_CONSTRAINING
from .tree import HIDDEN, KW_ORIGIN, ORIGIN, copy_tree, is_number, keyword_origin, origin_of, strip

SCHEMA_2020 = "https://json-schema.org/draft/2020-12/schema"
_OLD_DRAFTS = ("json-schema.org/draft-07/", "json-schema.org/draft-06/", "json-schema.org/draft-04/",
               "json-schema.org/draft/2019-09/")


def _is_any(s: Any) -> bool:
    return s is True or (isinstance(s, dict) and not [k for k in s if k not in HIDDEN])


def prefix_form(node: dict) -> dict:
    """``node`` with its tuple form written the 2020-12 way (a new dict; members shared)."""
    out = {k: v for k, v in node.items() if k not in ("items", "additionalItems")}
    out["prefixItems"] = list(node["items"])
    extra = node.get("additionalItems", True)
    if not _is_any(extra):
        out["items"] = extra
    return out


def as_2020(schema: Any) -> Any:
    """A copy of ``schema`` with every tuple form written with ``prefixItems`` (for checking the
    rest of the schema against the 2020-12 meta-schema before the projection repairs it);
    ``schema`` itself when it has none."""
    from ..schemawalk import subschemas

    if not any(isinstance(sub.schema, dict) and isinstance(sub.schema.get("items"), list)
               for sub in subschemas(schema)):
        return schema
    work = copy_tree(schema)
    for sub in list(subschemas(work)):
        n = sub.schema
        if isinstance(n, dict) and isinstance(n.get("items"), list):
            new = prefix_form(n)
            n.clear()
            n.update(new)
    return work


class TupleSteps:
    def _tuple(self, node: dict, at_root: bool) -> bool:
        """Rewrite this node's tuple form (see the module doc); True when the node changed."""
        members = node.get("items")
        if not isinstance(members, list):
            prefix = node.get("prefixItems")
            if isinstance(prefix, list):  # 2020-12's tuple, for a target that takes no prefixItems
                pr = self.action("prefixItems", node, at_root, None)
                if node.get("items") is False and (pr is None or pr.action not in ("reject", "drop")) and \
                        not self.enforces("items", node, at_root):
                    return self._close_by_length(node, len(prefix), at_root)
                if pr is not None and pr.action in ("reject", "drop"):
                    rest = node.pop("items", True)
                    node["items"] = node.pop("prefixItems")
                    node.setdefault(KW_ORIGIN, {})["items"] = keyword_origin(node, "prefixItems")
                    self._to_one_items(node, prefix, keyword_origin(node, "items"), pr, rest=rest, form="'prefixItems'")
                    return True
            if "additionalItems" in node and not self.enforces("additionalItems", node, at_root):
                node.pop("additionalItems")
                self.add("removed", "additionalItems", keyword_origin(node, "additionalItems"),
                         "'additionalItems' removed: beside a single 'items' schema (or none) it constrains "
                         "nothing in any draft, and no accepted value changes")
                return True
            return False
        where = keyword_origin(node, "items")
        n = len(members)

        def ok(r):
            return r is None or r.action in ("enforce", "annotation")

        cand = prefix_form(node)
        cands = [cand]
        if cand.get("items") is False:
            # a closed tuple is best closed by its length: a draft-07 reader ignores prefixItems and would
            # apply 'items: false' to every element, while 'maxItems' reads the same in both dialects
            mx = node.get("maxItems")
            cands.insert(0, {**{k: v for k, v in cand.items() if k != "items"},
                             "maxItems": mx if is_number(mx) and mx <= n else n})
        elif "items" not in cand:
            cands.append({**cand, "items": {}})  # an explicit open rest, for a target that closes it otherwise
        for c in cands:
            pr = self.action("prefixItems", c, at_root, None)
            ir = self.action("items", c, at_root, None) if "items" in c else None
            mr = self.action("maxItems", c, at_root, None) if "maxItems" in c and c is not cand else None
            if ok(pr) and ok(ir) and ok(mr):
                return self._to_prefix(node, c, where, n)
        pr = self.action("prefixItems", cand, at_root, None)
        ir = self.action("items", cand, at_root, None) if "items" in cand else None
        rule = self.p.constructs.get("tuple-items")
        tr = self.p.decide(rule, node, "items", at_root) if rule is not None else None
        if tr is not None and tr.action in ("enforce", "rewrite"):
            return False  # the target reads the tuple form (a change of its own is reported by the final check)
        if pr is not None and pr.action == "rewrite" and ok(ir):
            return self._to_prefix(node, cand, where, n)  # the keyword step reports what the target changes
        self._to_one_items(node, members, where, pr)
        return True

    def _close_by_length(self, node: dict, n: int, at_root: bool) -> bool:
        """'items: false' after prefixItems, for a target that refuses a boolean items: the same tuple
        is closed by 'maxItems' (where the target enforces it)."""
        mx = node.get("maxItems")
        cand = {**{k: v for k, v in node.items() if k != "items"}, "maxItems": mx if is_number(mx) and mx <= n else n}
        if not self.enforces("maxItems", cand, at_root):
            return False  # the keyword step removes items: false and says so
        where = keyword_origin(node, "items")
        node.pop("items")
        node["maxItems"] = cand["maxItems"]
        node.setdefault(KW_ORIGIN, {})["maxItems"] = where
        self.add("rewritten", "items", where,
                 f"'items: false' after 'prefixItems' written as 'maxItems: {cand['maxItems']}' ({self.p.display} "
                 "refuses a boolean 'items'); the tuple is closed all the same, same accepted values")
        return True

    def _to_prefix(self, node: dict, cand: dict, where: tuple, n: int) -> bool:
        had_extra = "additionalItems" in node
        extra = node.get("additionalItems", None)
        origin = {k: node[k] for k in HIDDEN if k in node}
        kw_origin = dict(origin.get(KW_ORIGIN) or {})
        kw_origin["prefixItems"] = where
        if "items" in cand:
            kw_origin["items"] = keyword_origin(node, "additionalItems") if had_extra else where
        if "maxItems" in cand and cand.get("maxItems") != node.get("maxItems"):
            kw_origin["maxItems"] = keyword_origin(node, "additionalItems")
        node.clear()
        node.update(cand)
        node.update(origin)
        node[KW_ORIGIN] = kw_origin
        rest = (f"'additionalItems: false' as 'maxItems: {cand['maxItems']}', which reads the same under draft-07 "
                "(there 'items: false' beside an ignored 'prefixItems' would refuse every element)"
                if had_extra and extra is False and "items" not in cand else
                "'additionalItems: false' as 'items: false'" if had_extra and extra is False else
                "'additionalItems' as 'items'" if had_extra and "items" in cand else
                "with 'items: {}' for the open rest" if "items" in cand else "no 'additionalItems', so no 'items'")
        self.add("rewritten", "tuple-items", where,
                 f"draft-07's tuple form ('items' an array of {n} schema(s)) written as 2020-12 'prefixItems', "
                 f"{rest}; same accepted values")
        self._tuples_2020 = True
        return True

    def _to_one_items(self, node: dict, members: list, where: tuple, pr, rest: Any = None,
                      form: str = "draft-07's tuple form") -> None:
        """One ``items`` schema every position (and what may follow: ``rest``, or ``additionalItems``
        for the draft-07 form) fits in; the tuple's length kept as ``maxItems`` when it is closed."""
        if rest is None:
            extra = node.pop("additionalItems", True) if "additionalItems" in node else True
        else:
            extra = rest
        mx = node.get("maxItems")
        closed = extra is False or (is_number(mx) and mx <= len(members))  # nothing may follow the members
        parts = list(members) + ([] if closed or _is_any(extra) else [extra])
        if not closed and _is_any(extra) or any(_is_any(m) for m in parts):
            one: Any = None  # any value may follow the tuple, or a position takes anything
        else:
            uniq: list = []
            for m in parts:
                if not [u for u in uniq if strip(u) == strip(m)]:
                    uniq.append(m)
            one = uniq[0] if len(uniq) == 1 else {ORIGIN: origin_of(node) + ("items",), "anyOf": uniq}
        node.pop("items")
        if one is not None:
            node["items"] = one
        if closed and not (is_number(node.get("maxItems")) and node["maxItems"] <= len(members)):
            node["maxItems"] = len(members)
        reason = self.why(pr, "prefixItems") if pr is not None else f"{self.p.display} does not read it"
        if isinstance(one, dict) and one.get(ORIGIN) != origin_of(node) + ("items",):
            # every position (and what may follow) takes the same schema: one items schema says exactly that
            self.add("rewritten", "tuple-items", where,
                     f"{form} (a tuple of {len(members)} schema(s)), every position alike, "
                     "written as that one 'items' schema" + (f" with 'maxItems: {node['maxItems']}'" if closed else "")
                     + f" ({self.p.display} does not enforce 'prefixItems': {reason}); same accepted values")
            return
        kept = ("'items' is the anyOf of the members" if one is not None
                else "'items' is left out, since a position or what follows the tuple takes any value")
        self.add("weakened", "tuple-items", where,
                 f"{form} (a tuple of {len(members)} schema(s)) written as one 'items' schema, since "
                 f"{self.p.display} does not enforce 'prefixItems' ({reason}): {kept}"
                 + (f", 'maxItems: {node['maxItems']}' keeps its length" if closed else "")
                 + "; the model can put any member's value at any position, so check positions in the server")

    def _schema_2020(self, work: dict) -> None:
        """After a tuple was written with prefixItems, a draft-07 (or 2019-09) $schema would make a
        reader of the projection ignore it: name 2020-12 instead."""
        uri = work.get("$schema") if isinstance(work, dict) else None
        if getattr(self, "_tuples_2020", False) and isinstance(uri, str) and any(d in uri for d in _OLD_DRAFTS) \
                and not _tuple_left(work):  # a tuple form kept for the target needs the old dialect
            work["$schema"] = SCHEMA_2020
            self.add("rewritten", "$schema", keyword_origin(work, "$schema"),
                     f"'$schema' {uri!r} written as 2020-12, the dialect of the 'prefixItems' the tuple forms were "
                     "rewritten to" + ("; note that 2020-12 applies keywords beside a '$ref', which the older "
                                       "draft ignores" if _ref_siblings(work) else
                                       "; the rest of the schema means the same under both"))


def _tuple_left(work: Any) -> bool:
    from ..schemawalk import subschemas

    return any(isinstance(sub.schema, dict) and isinstance(sub.schema.get("items"), list) for sub in subschemas(work))


def _ref_siblings(work: Any) -> bool:
    from ..schemawalk import subschemas

    return any(isinstance(sub.schema, dict) and "$ref" in sub.schema and
               [k for k in sub.schema if k != "$ref" and k not in HIDDEN and k not in NON_CONSTRAINING]
               for sub in subschemas(work))
