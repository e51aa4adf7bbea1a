"""SCH109: the values a schema holds (`default`, `enum` members, `const`, `examples`) checked
against the subschema that holds them."""

from __future__ import annotations

from typing import Any

from ...metaschema import ValueChecker, simple_plan
from ...model import Pointer, Severity
from ...registry import rule
from ...schemawalk import Walks
from .common import slot_walk, show

# Values (defaults, enum members, consts, examples) SCH109 checks in one slot at most.
VALUE_LIMIT = 2_000

DATA = ("default", "const", "enum", "examples")
_DATA_KEYWORDS = frozenset(DATA)
_PY_JSON_TYPES = {str: ("string",), bool: ("boolean",), int: ("integer", "number"), float: ("number",),
                  type(None): ("null",)}


def _enum_only_of_its_types(node: dict) -> bool:
    """An ``enum`` whose node asserts nothing but a type (no const, no other assertion) and whose
    members all have that type: each member then validates against its own schema, with no
    need to check them one by one. (A float member of an integer type is left to the check.)"""
    enum = node.get("enum")
    if not isinstance(enum, list) or "const" in node:
        return False
    plan = simple_plan(node, index_enum=False)
    if plan is None:
        return False
    if plan.types is None:
        return True
    allowed = set(plan.types)
    for member_type in {type(v) for v in enum}:
        names = _PY_JSON_TYPES.get(member_type)
        if names is None or allowed.isdisjoint(names):
            return False
    return True


# ------------------------------------------------------------------ SCH109

class _RefGraph:
    """The slot's references, for asking whether a subschema reaches (through local references)
    one that is external or does not resolve, in time linear in the number of references
    (``walks``: the rule's, ``ctx.walks``)."""

    def __init__(self, schema: Any, walks: Walks):
        from ...refs import index

        self.schema = schema
        self.idx = index(schema, walks.subschemas(schema))
        self.under: dict = {}  # pointer of a subschema -> references held at or below it
        for r in self.idx.refs:
            p = tuple(r.pointer)
            for k in range(len(p)):
                self.under.setdefault(p[:k], []).append(r)
        self.targets: dict = {}  # id(ref) -> target pointer, or None (external / unresolvable)
        self.safe: set = set()  # subschemas known to reach no external reference

    def _target(self, r):
        key = id(r)
        if key not in self.targets:
            from ...refs import is_local, resolve

            t = resolve(r, self.idx, self.schema) if is_local(r, self.idx) else None
            self.targets[key] = tuple(t[0]) if t is not None else None
        return self.targets[key]

    def reaches_external(self, rel: tuple) -> bool:
        todo, seen = [rel], set()
        while todo:
            base = todo.pop()
            if base in seen or base in self.safe:
                continue
            seen.add(base)
            for r in self.under.get(base, ()):
                t = self._target(r)
                if t is None:
                    return True
                todo.append(t)
        self.safe |= seen
        return False


@rule("SCH109", "value-violates-schema", severity=Severity.WARNING, scope="slot",
      fix="Make the value valid against its schema, or correct the schema")
def value_violates_schema(slot, ctx):
    """A `default`, `enum`, `const` or `examples` value does not validate against its own schema.

    ## What it does
    Validates each `default`, each `enum` member, `const` and each `examples` member against the
    subschema that holds it, resolving the slot's own references (`#/$defs/...`, anchors) and
    never anything outside it: a subschema that reaches an external or unresolvable `$ref` is not
    checked. Patterns are matched as ECMA-262 reads them (the engine `mcplint validate` uses), at
    most 0.5 s of CPU time of matching per slot: a value whose check does not finish in it is not
    judged (CPU time, so a loaded machine finds the same).
    Formats are treated as annotations, as JSON Schema 2020-12 does by default. At most
    2,000 values per slot and `max-enum` members per `enum`/`examples` are checked; in a slot over
    the subschema bounds only values whose schema asserts just `type`/`enum`/`const` are.

    ## Why is this bad?
    A default the schema rejects is filled in by clients and then refused by the server; an enum
    member that fails `type` can never be sent; an example that does not validate teaches the model
    to send invalid arguments.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"limit": {"type": "integer", "minimum": 1, "default": 0}}}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object",
      "properties": {"limit": {"type": "integer", "minimum": 1, "default": 10}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §9.2 (`default` SHOULD be valid against its schema) and §9.5
    (`examples` SHOULD be), §6.1.2-3 (`enum`, `const`).
    """
    walk = slot_walk(slot, ctx)
    if walk is None or not isinstance(slot.schema, dict):
        return
    dialect = walk.dialect
    if _DATA_KEYWORDS.isdisjoint(walk.keys):
        return
    targets = []
    for ptr, node, sub in walk.nodes:
        if _DATA_KEYWORDS.isdisjoint(node):
            continue
        if _enum_only_of_its_types(node):  # a plain typed enum: every member is valid as it stands
            if "default" not in node and "examples" not in node:
                continue
            node = {k: v for k, v in node.items() if k != "enum"}
        for kw in DATA:
            if kw not in node:
                continue
            value = node[kw]
            if kw in ("enum", "examples"):
                if isinstance(value, list):  # beyond the enum bound SEC reports the size; check the first ones
                    targets += [(sub.pointer, (kw, i), v) for i, v in enumerate(value[:ctx.bounds.max_enum])]
            else:
                targets.append((sub.pointer, (kw,), value))
    if not targets:
        return
    holders = {p[:k] for p in walk.ref_nodes for k in range(len(p) + 1)}  # subschemas holding a ref
    graph = None
    # a slot the engine must not see whole is checked in pure Python only (type/enum/const)
    checker = ValueChecker(slot.schema, dialect, simple_only=not walk.engine_safe, walks=ctx.walks)
    verdicts: dict = {}
    for rel, where, value in targets[:VALUE_LIMIT]:
        if rel not in verdicts:  # (checkable?, holds no reference?)
            holds_ref = rel in holders
            if holds_ref and graph is None:
                graph = _RefGraph(slot.schema, ctx.walks)
            verdicts[rel] = (not holds_ref or not graph.reaches_external(rel), not holds_ref)
        checkable, standalone = verdicts[rel]
        if not checkable:
            continue
        failed = checker.errors(rel, value, standalone)
        if not failed:
            continue
        node = Pointer(rel).resolve_in(slot.schema)
        label = {"default": "default", "const": "const", "enum": "enum member", "examples": "example"}[where[0]]
        kw = failed[0]
        detail = f"`{kw}`: {show(node[kw])}" if isinstance(node, dict) and kw in node and kw != where[0] else f"`{kw}`"
        why = {"default": "a client that fills it in sends a value the tool rejects",
               "const": "no value can satisfy this schema",
               "enum": "that member can never be sent",
               "examples": "it teaches the model to send arguments the tool rejects"}[where[0]]
        yield ctx.finding(slot.pointer + rel + where,
                          f"{label} {show(value)} is not valid against its own schema (it fails {detail}); {why}")
