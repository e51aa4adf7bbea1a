"""Breaking changes between two versions of a server's tools (``mcplint diff OLD NEW``).

Both files go through the same loader and collector as ``scan``, so every shape it
accepts works here too, and every change carries a JSON Pointer and line:column: into
NEW for what NEW says, into OLD for what NEW no longer has (a removed tool, argument
or output field).

Tools are matched by name. The two schema slots are read from opposite sides:

* ``inputSchema`` is what callers send: it breaks when it **narrows** (a newly required
  argument, a narrower type or enum, a removed argument on a closed object, a tightened
  bound);
* ``outputSchema`` is what consumers read: it breaks when it **widens** or loses
  something (a removed or no-longer-required field, a wider type, new enum values,
  the whole schema gone).

Severity: ``error`` breaks existing callers or consumers, ``warning`` may break some,
``info`` is compatible. Composed schemas (``$ref``, ``anyOf``, ``oneOf``, ``allOf``,
``not``, ``if``) that differ are reported as a warning without guessing at their meaning.
Schemas are compared side by side with an explicit stack, never recursively, down to
``bounds.max-depth``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .collect import collect
from .model import Document, Pointer, Severity, Span

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
COMPOSITION = ("$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "not", "if", "then", "else")
UPPER = ("maxLength", "maxItems", "maximum", "exclusiveMaximum", "maxProperties")
LOWER = ("minLength", "minItems", "minimum", "exclusiveMinimum", "minProperties")
STRING_RULES = ("pattern", "format", "multipleOf", "const", "uniqueItems")
# keywords that say nothing about which values are valid
ANNOTATIONS = frozenset({"title", "description", "examples", "example", "default", "$comment", "deprecated",
                         "readOnly", "writeOnly", "$schema", "$id", "$anchor", "$defs", "definitions"})
TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


@dataclass(frozen=True)
class Change:
    kind: str
    severity: Severity
    message: str
    tool: str
    side: str  # "old" or "new": the document the pointer is into
    origin: str
    pointer: Pointer
    span: Span | None

    @property
    def breaking(self) -> bool:
        return self.severity == ERROR

    @property
    def line(self) -> int:
        return self.span.line if self.span else 1

    @property
    def column(self) -> int:
        return self.span.col if self.span else 1


def _accepted(schema: dict) -> frozenset | None:
    """The JSON types a schema node admits by its ``type`` (None: any)."""
    t = schema.get("type")
    if t is None:
        return None
    ts = {t} if isinstance(t, str) else {x for x in t if isinstance(x, str)} if isinstance(t, list) else set()
    if "number" in ts:
        ts.add("integer")
    return frozenset(ts)


def _fmt_types(ts) -> str:
    return "any type" if ts is None else "/".join(sorted(t for t in ts if not ("number" in ts and t == "integer")))


def _js(v) -> str:
    import json

    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 60 else s[:57] + "..."


class _Differ:
    def __init__(self, old: Document, new: Document, max_depth: int):
        self.old, self.new, self.max_depth = old, new, max_depth
        self.changes: list[Change] = []

    def add(self, kind, severity, message, tool, side, pointer):
        doc = self.old if side == "old" else self.new
        self.changes.append(Change(kind, severity, message, tool, side, doc.source.origin, Pointer(pointer),
                                   doc.locate(Pointer(pointer))))

    # ------------------------------------------------------------------ tools
    def tools(self, old_tools, new_tools):
        old_by = {}
        for t in old_tools:
            if t.name is not None:
                old_by.setdefault(t.name, t)
        new_by = {}
        for t in new_tools:
            if t.name is not None:
                new_by.setdefault(t.name, t)
        for name, t in old_by.items():
            if name not in new_by:
                self.add("tool-removed", ERROR, f"tool {name!r} was removed: clients that call it now fail", name,
                         "old", t.pointer / "name")
        for name, t in new_by.items():
            if name not in old_by:
                self.add("tool-added", INFO, f"tool {name!r} was added", name, "new", t.pointer / "name")
            else:
                self.tool(old_by[name], t)

    def tool(self, old, new):
        name = new.name
        od = old.data if isinstance(old.data, dict) else {}
        nd = new.data if isinstance(new.data, dict) else {}
        if isinstance(nd.get("inputSchema"), (dict, bool)):
            o = od.get("inputSchema", {})
            self.schemas("input", name, o if isinstance(o, (dict, bool)) else {}, nd["inputSchema"],
                         old.pointer / "inputSchema", new.pointer / "inputSchema")
        elif isinstance(od.get("inputSchema"), (dict, bool)):
            self.add("input-schema-removed", WARNING, "inputSchema was removed: clients no longer know the "
                     "arguments", name, "old", old.pointer / "inputSchema")
        o_out, n_out = od.get("outputSchema"), nd.get("outputSchema")
        if o_out is not None and n_out is None:
            self.add("output-schema-removed", ERROR, "outputSchema was removed: consumers of structuredContent lose "
                     "its contract", name, "old", old.pointer / "outputSchema")
        elif o_out is None and n_out is not None:
            self.add("output-schema-added", INFO, "outputSchema was added", name, "new", new.pointer / "outputSchema")
        elif isinstance(o_out, (dict, bool)) and isinstance(n_out, (dict, bool)):
            self.schemas("output", name, o_out, n_out, old.pointer / "outputSchema", new.pointer / "outputSchema")
        oa = od.get("annotations") if isinstance(od.get("annotations"), dict) else {}
        na = nd.get("annotations") if isinstance(nd.get("annotations"), dict) else {}
        if oa.get("readOnlyHint") is True and na.get("readOnlyHint") is not True:
            self.add("annotation-changed", WARNING, "the tool is no longer marked read-only: clients that call it "
                     "without confirmation should stop", name, "new", new.pointer / "annotations")
        if oa.get("destructiveHint") is False and na.get("destructiveHint") is not False:
            self.add("annotation-changed", WARNING, "the tool may now be destructive (destructiveHint is no longer "
                     "false)", name, "new", new.pointer / "annotations")

    # ---------------------------------------------------------------- schemas
    def schemas(self, slot, tool, old, new, op, np):
        stack = [(old, new, op, np, 0)]
        while stack:
            o, n, op_, np_, depth = stack.pop()
            if depth > self.max_depth:
                continue
            if isinstance(o, bool) or isinstance(n, bool):
                if (o is True or o == {}) and (n is True or n == {}):
                    continue  # true and {} both accept everything
                if o != n:
                    self.bool_schema(slot, tool, o, n, op_, np_)
                continue
            if not isinstance(o, dict) or not isinstance(n, dict):
                continue
            pairs = self.node(slot, tool, o, n, op_, np_)
            stack.extend((a, b, pa, pb, depth + 1) for a, b, pa, pb in reversed(pairs))

    def bool_schema(self, slot, tool, o, n, op, np):
        opens = n is True or n == {}
        if slot == "input":
            sev, what = (INFO, "now accepts anything") if opens else (ERROR, "no longer accepts every value")
        else:
            sev, what = (ERROR, "may now be anything") if opens else (WARNING, "was restricted")
        self.add(f"{slot}-schema-changed", sev, f"this {slot} schema {what} ({_js(o)} -> {_js(n)})", tool, "new", np)

    def node(self, slot, tool, o, n, op, np) -> list:
        """Compare one pair of object schemas (``o`` the old at ``op``, ``n`` the new at ``np``);
        returns the pairs of subschemas to compare next (the properties both have, items)."""
        self.composition(slot, tool, o, n, op, np)
        self.types(slot, tool, o, n, op, np)
        self.enums(slot, tool, o, n, op, np)
        self.bounds(slot, tool, o, n, op, np)
        pairs = self.members(slot, tool, o, n, op, np)
        oi, ni = o.get("items"), n.get("items")
        if isinstance(oi, (dict, bool)) and isinstance(ni, (dict, bool)):
            pairs.append((oi, ni, op / "items", np / "items"))
        return pairs

    def composition(self, slot, tool, o, n, op, np):
        """Composed schemas: report, do not guess."""
        inp = slot == "input"
        composed = [k for k in COMPOSITION if o.get(k) != n.get(k)]
        if composed:
            self.add(f"{slot}-composition-changed", WARNING,
                     f"{', '.join(composed)} changed; mcplint does not compare composed schemas in depth: check "
                     f"that existing {'arguments are still accepted' if inp else 'consumers still understand it'}",
                     tool, "new", np / composed[0] if composed[0] in n else np)

    def types(self, slot, tool, o, n, op, np):
        """The types a schema accepts, narrowed or widened."""
        inp = slot == "input"
        ot, nt = _accepted(o), _accepted(n)
        if ot != nt:
            lost = ot is None or (nt is not None and not ot <= nt)
            gained = nt is None or (ot is not None and not nt <= ot)
            disjoint = ot is not None and nt is not None and not (ot & nt)
            desc = f"type {_fmt_types(ot)} -> {_fmt_types(nt)}"
            where = np / "type" if "type" in n else np
            if inp and lost:
                self.add("type-changed" if disjoint else "type-narrowed", ERROR,
                         f"{desc}: callers sending the old type are now rejected", tool, "new", where)
            elif inp:
                self.add("type-widened", INFO, f"{desc}: more values accepted", tool, "new", where)
            elif gained:
                self.add("output-type-changed" if disjoint else "output-type-widened", ERROR,
                         f"{desc}: consumers may now receive a type they do not handle", tool, "new", where)
            else:
                self.add("output-type-narrowed", INFO, f"{desc}: fewer types returned", tool, "new", where)

    def enums(self, slot, tool, o, n, op, np):
        """enum values added or removed."""
        inp = slot == "input"
        oe, ne = o.get("enum"), n.get("enum")
        if isinstance(ne, list) and not isinstance(oe, list) and inp:
            self.add("enum-added", ERROR, f"an enum ({_js(ne)}) now restricts values that were free before", tool,
                     "new", np / "enum")
        elif isinstance(oe, list) and isinstance(ne, list):
            gone = [v for v in oe if v not in ne]
            more = [v for v in ne if v not in oe]
            if inp and gone:
                self.add("enum-narrowed", ERROR, f"enum values {_js(gone)} were removed: callers sending them are "
                         "now rejected", tool, "new", np / "enum")
            if inp and more:
                self.add("enum-widened", INFO, f"enum values {_js(more)} were added", tool, "new", np / "enum")
            if not inp and more:
                self.add("output-enum-widened", WARNING, f"enum values {_js(more)} may now be returned: consumers "
                         "that switch over the old values miss them", tool, "new", np / "enum")
        elif isinstance(oe, list) and ne is None and not inp:
            self.add("output-enum-removed", WARNING, "the enum on this output was removed: any value may now be "
                     "returned", tool, "old", op / "enum")

    def bounds(self, slot, tool, o, n, op, np):
        """Bounds and value rules (maximum, minLength, pattern, ...) tightened or relaxed."""
        inp = slot == "input"
        for kw in UPPER + LOWER + STRING_RULES:
            if o.get(kw) == n.get(kw):
                continue
            ov, nv = o.get(kw), n.get(kw)
            nums = isinstance(ov, (int, float)) and isinstance(nv, (int, float))
            if kw in UPPER:
                tighter = nv is not None and (ov is None or (nums and nv < ov))
            elif kw in LOWER:
                tighter = nv is not None and (ov is None or (nums and nv > ov))
            else:
                tighter = nv is not None
            if inp and tighter:
                self.add("constraint-tightened", WARNING, f"{kw} {_js(ov) if ov is not None else '(none)'} -> "
                         f"{_js(nv)}: some values callers send today may be rejected", tool, "new", np / kw)
            elif not inp and (not tighter or (kw in STRING_RULES and ov is not None)):
                after = _js(nv) if nv is not None else "(none)"
                self.add("output-schema-changed", WARNING, f"{kw} {_js(ov)} -> {after}: consumers may receive "
                         "values they did not before", tool,
                         "new" if kw in n else "old", np / kw if kw in n else op / kw)

    def members(self, slot, tool, o, n, op, np) -> list:
        """Object members: properties removed or added, required, additionalProperties; returns
        the pairs of properties both have."""
        inp = slot == "input"
        pairs = []
        oprops = o.get("properties") if isinstance(o.get("properties"), dict) else {}
        nprops = n.get("properties") if isinstance(n.get("properties"), dict) else {}
        oreq = {r for r in o.get("required", []) if isinstance(r, str)} if isinstance(o.get("required"), list) else set()
        nreq_list = n.get("required") if isinstance(n.get("required"), list) else []
        closed = n.get("additionalProperties") is False or n.get("unevaluatedProperties") is False
        for p, sub in oprops.items():
            if p not in nprops:
                if inp:
                    self.add("argument-removed", ERROR if closed else WARNING,
                             f"argument {p!r} was removed: " + ("callers sending it are now rejected" if closed else
                                                                 "callers sending it are now ignored"),
                             tool, "old", op / "properties" / p)
                else:
                    self.add("output-property-removed", ERROR, f"output field {p!r} was removed: consumers reading "
                             "it break", tool, "old", op / "properties" / p)
            else:
                pairs.append((sub, nprops[p], op / "properties" / p, np / "properties" / p))
        for p in nprops:
            if p not in oprops and p not in nreq_list:
                self.add("argument-added" if inp else "output-property-added", INFO,
                         f"{'optional argument' if inp else 'output field'} {p!r} was added", tool, "new",
                         np / "properties" / p)
        for i, r in enumerate(nreq_list):
            if isinstance(r, str) and r not in oreq:
                if inp:
                    self.add("argument-required", ERROR, f"argument {r!r} is now required"
                             + ("" if r in oprops else " (a new argument)") + ": existing calls without it are "
                             "rejected", tool, "new", np / "required" / i)
                else:
                    self.add("output-property-added", INFO, f"output field {r!r} is now always present", tool, "new",
                             np / "required" / i)
        for r in sorted(oreq - {x for x in nreq_list if isinstance(x, str)}):
            if inp:
                self.add("requirement-relaxed", INFO, f"argument {r!r} is no longer required", tool, "new",
                         np / "required" if "required" in n else np)
            elif r in nprops:
                self.add("output-property-optional", ERROR, f"output field {r!r} is no longer required: consumers "
                         "that expect it may not find it", tool, "new", np / "required" if "required" in n else np)
        if inp and o.get("additionalProperties") is not False and n.get("additionalProperties") is False:
            self.add("closed-to-extra-arguments", WARNING, "additionalProperties is now false: callers sending "
                     "arguments not listed in properties are rejected", tool, "new", np / "additionalProperties")
        if not inp and o.get("additionalProperties") is False and n.get("additionalProperties") is not False:
            self.add("output-schema-changed", WARNING, "additionalProperties is no longer false: consumers may "
                     "receive fields they do not expect", tool, "new", np)
        return pairs


def diff_documents(old: Document, new: Document, versions: tuple, max_depth: int = 32) -> list[Change]:
    old_c, new_c = collect(old, versions), collect(new, versions)
    d = _Differ(old, new, max_depth)
    d.tools(old_c.tools, new_c.tools)
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted(d.changes, key=lambda c: (order[c.severity], c.side, c.line, c.column, c.kind))
