"""Projection step: object structure, untyped values, arrays. Objects given ``properties``
or closed with ``additionalProperties: false`` (narrowed), optional properties made
required and nullable, ``anyOf`` object branches given distinct first keys, untyped
schemas given types, arrays given ``items``, as the profile requires."""

from __future__ import annotations

import copy

from ..profiles.nodetests import schema_types
from ..profiles.nullability import DISALLOWS, nullability
from ..profiles.model import METADATA_KEYWORDS, NON_CONSTRAINING
from .tree import HIDDEN, ORIGIN, keyword_origin, origin_of, short_text, strip

_TYPED = ("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const")
_INFER = (("object", ("properties", "additionalProperties", "required", "patternProperties")),
          ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")),
          ("string", ("minLength", "maxLength", "pattern", "format")),
          ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")))


class StructureSteps:
    # -- object structure, untyped values, arrays
    def _structure(self, node: dict, at_root: bool, via) -> None:
        types = schema_types(node)
        is_obj = "object" in types or (not types and "properties" in node)
        if is_obj:
            if "properties" not in node and self.construct("object-without-properties", node, at_root) is not None:
                node["properties"] = {}
                self.add("rewritten", "object-without-properties", origin_of(node),
                         "'properties: {}' added (the target requires it on every object); same accepted values")
            ap = node.get("additionalProperties", None)
            if "additionalProperties" in node and not isinstance(ap, (bool, dict)):
                rule = self.construct("additional-properties-invalid", node, at_root)
                if rule is not None:
                    node.pop("additionalProperties")
                    self.add("weakened", "additionalProperties", keyword_origin(node, "additionalProperties"),
                             f"the invalid 'additionalProperties: {short_text(ap)}' is removed")
            if "additionalProperties" not in node:
                rule = self.construct("additional-properties-missing", node, at_root)
                if rule is not None:
                    node["additionalProperties"] = False
                    names = list(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else []
                    self.add("narrowed", "additional-properties-missing", origin_of(node),
                             "'additionalProperties: false' added: the model can no longer send properties the "
                             "schema does not name" + (" (there are none: only an empty object)" if not names else "")
                             + f" ({self.why(rule, 'additionalProperties')})", node=node,
                             suffix=("additionalProperties",))
            elif ap is not False and isinstance(ap, (bool, dict)):
                rule = self.construct("additional-properties-open", node, at_root, "additionalProperties")
                if rule is not None:
                    node["additionalProperties"] = False
                    names = list(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else []
                    self.add("narrowed", "additional-properties-open", keyword_origin(node, "additionalProperties"),
                             f"'additionalProperties: {short_text(ap)}' closed to false: the model can no longer send "
                             "properties the schema does not name" +
                             (" (there are none: only an empty object)" if not names else "")
                             + f" ({self.why(rule, 'additionalProperties', ap)})", node=node,
                             suffix=("additionalProperties",))
            props = node.get("properties")
            optional = self.p.constructs.get("optional-property")
            if isinstance(props, dict) and optional is not None and (optional.when is not None or optional.action != "enforce"):
                req = node.get("required") if isinstance(node.get("required"), list) else []
                kept_optional = []  # what the target keeps optional itself (openai-agents-js wraps it for null)
                for key in list(props):
                    if key in req:
                        continue
                    # decided at the property: one that takes null for "left out" is required as it is
                    if self.construct("optional-property", props[key] if isinstance(props[key], dict) else {},
                                      False) is None:
                        if nullability(props[key], None) == DISALLOWS:
                            kept_optional.append(key)
                        continue
                    props[key] = self._nullable(props[key])
                    self.add("nullable", "optional-property", origin_of(node) + ("properties", key),
                             f"optional property {key!r} made required and nullable: the model sends null where "
                             "it would leave the key out; treat null as absent", node=node,
                             suffix=("properties", key))
                node["required"] = list(req) + [k for k in props if k not in req and k not in kept_optional]
        if isinstance(node.get("anyOf"), list) and self.construct("anyof-shared-first-key", node, at_root) is not None:
            self._first_keys(node)
        if "array" in types and "items" not in node and "prefixItems" not in node and \
                self.construct("array-without-items", node, at_root) is not None:
            node["items"] = {}
            self.add("rewritten", "array-without-items", origin_of(node), "'items: {}' added; same accepted values")
        if not at_root and via not in ("$defs", "definitions") and not any(k in node for k in _TYPED) and \
                self.construct("untyped-schema", node, at_root) is not None:
            self._give_type(node)

    def _nullable(self, s):
        if s is True or (isinstance(s, dict) and not any(k for k in s if k not in HIDDEN and
                                                         k not in METADATA_KEYWORDS and k not in NON_CONSTRAINING)):
            return s  # accepts null already
        if not isinstance(s, dict):
            return {"anyOf": [s, {"type": "null"}]}
        if "null" in schema_types(s) and "enum" not in s and not any(k in s for k in ("anyOf", "oneOf", "allOf", "const",
                                                                               "$ref", "not")):
            return s
        simple = isinstance(s.get("type"), (str, list)) and not any(
            k in s for k in ("anyOf", "oneOf", "allOf", "const", "$ref", "not", "if"))
        if simple:
            t = s["type"]
            if isinstance(t, str):
                s["type"] = [t, "null"] if t != "null" else t
            elif "null" not in t:
                s["type"] = list(t) + ["null"]
            if isinstance(s.get("enum"), list) and None not in s["enum"]:
                s["enum"] = list(s["enum"]) + [None]
            return s
        if list(k for k in s if k not in HIDDEN) == ["anyOf"] and isinstance(s["anyOf"], list):
            if not any(isinstance(b, dict) and schema_types(b) == {"null"} for b in s["anyOf"]):
                s["anyOf"] = list(s["anyOf"]) + [{"type": "null"}]
            return s
        meta = {k: s.pop(k) for k in list(s) if k in ("description", "title")}
        return {ORIGIN: origin_of(s), **meta, "anyOf": [s, {"type": "null"}]}

    def _first_keys(self, node: dict) -> None:
        """Give every object branch of an anyOf a distinct first property: branches with the
        fewest properties choose first, each keeping its own first key when it is free."""
        uniq: list = []
        for b in node["anyOf"]:
            if strip(b) not in [strip(u) for u in uniq]:
                uniq.append(b)
        changed = len(uniq) != len(node["anyOf"])
        node["anyOf"] = uniq = self._merge_single_key_branches(uniq) if changed or len(uniq) > 1 else uniq
        changed = changed or len(uniq) != len(node["anyOf"])
        branches = [b for b in node["anyOf"] if isinstance(b, dict) and isinstance(b.get("properties"), dict)
                    and b["properties"]]
        used: set = set()
        for b in sorted(branches, key=lambda b: len(b["properties"])):
            keys = list(b["properties"])
            free = next((k for k in keys if k not in used), keys[0])
            if free != keys[0]:
                b["properties"] = {free: b["properties"][free],
                                   **{k: v for k, v in b["properties"].items() if k != free}}
                changed = True
            used.add(free)
        if changed:
            self.add("rewritten", "anyof-shared-first-key", keyword_origin(node, "anyOf"),
                     "the object branches of 'anyOf' made to start with distinct keys, as the target requires "
                     "(identical branches removed, branches naming one and the same property merged, properties "
                     "reordered); same accepted values, the model emits properties in the new order")

    def _merge_single_key_branches(self, branches: list) -> list:
        """Object branches that name the same single property and agree on everything else
        are one branch whose property is the anyOf of theirs: {a: A} | {a: B} == {a: A|B}."""
        out: list = []
        for b in branches:
            if isinstance(b, dict) and isinstance(b.get("properties"), dict) and len(b["properties"]) == 1:
                rest = strip({k: v for k, v in b.items() if k != "properties"})
                key = next(iter(b["properties"]))
                for o in out:
                    if isinstance(o, dict) and isinstance(o.get("properties"), dict) and \
                            list(o["properties"]) == [key] and strip({k: v for k, v in o.items()
                                                                      if k != "properties"}) == rest:
                        a, c = o["properties"][key], b["properties"][key]
                        if isinstance(a, dict) and list(k for k in a if k not in HIDDEN) == ["anyOf"]:
                            a["anyOf"].append(c)
                        else:
                            o["properties"][key] = {ORIGIN: origin_of(a), "anyOf": [a, c]}
                        break
                else:
                    out.append(b)
            else:
                out.append(b)
        return out

    def _give_type(self, node: dict) -> None:
        guesses = [t for t, kws in _INFER if any(k in node for k in kws)]
        if len(guesses) == 1:
            node["type"] = guesses[0]
            self.add("narrowed", "untyped-schema", origin_of(node),
                     f"'type: {guesses[0]}' added (the target needs a type on every schema): values of other "
                     "types, which the original accepted, are no longer accepted", node=node)
            return
        # the branches stand where the node stands in the input: what is done to them later is reported there
        node["anyOf"] = [{ORIGIN: origin_of(node), "type": t} for t in ("string", "number", "boolean", "object")]
        self.add("narrowed", "untyped-schema", origin_of(node),
                 "a schema without a type is written as 'anyOf' string, number, boolean or object (the target "
                 "needs a type on every schema): arrays and null are no longer accepted", node=node)

    # -- an anyOf a client refuses over the optional properties in its branches (openai-agents-js)
    def _branches_required(self, node: dict, at_root: bool) -> None:
        """Where the target refuses an ``anyOf`` because a branch holds an optional property it
        would wrap for null, and would take the ``anyOf`` once those properties are required and
        nullable, make them so (the model then sends null to leave one out), instead of letting
        the ``anyOf`` go."""
        if not isinstance(node.get("anyOf"), list):
            return
        r = self.action("anyOf", node, at_root, None)
        if r is None or r.action != "drop":
            return
        made: list = []
        trial = [self._require_inside(copy.deepcopy(b), made) for b in node["anyOf"]]
        after = self.action("anyOf", {**node, "anyOf": trial}, at_root, None)
        if not made or (after is not None and after.action == "drop"):
            return
        node["anyOf"] = trial
        for obj, key in made:
            self.add("nullable", "optional-property", origin_of(obj) + ("properties", key),
                     f"optional property {key!r} made required and nullable, so that {self.p.display} takes the "
                     "anyOf around it: the model sends null where it would leave the key out; treat null as absent",
                     node=obj, suffix=("properties", key))

    def _require_inside(self, s, made: list, depth: int = 0):
        """``s`` with every optional property that does not take null, in it and below it
        (properties, items, anyOf), made required and nullable; each one is listed in ``made``."""
        if not isinstance(s, dict) or depth > 64:
            return s
        props = s.get("properties")
        if isinstance(props, dict):
            req = s.get("required") if isinstance(s.get("required"), list) else []
            for key in list(props):
                props[key] = self._require_inside(props[key], made, depth + 1)
                if key not in req and nullability(props[key], None) == DISALLOWS:
                    props[key] = self._nullable(props[key])
                    made.append((s, key))
            if made and any(o is s for o, _ in made):
                s["required"] = list(req) + [k for k in props if k not in req]
        if isinstance(s.get("items"), dict):
            s["items"] = self._require_inside(s["items"], made, depth + 1)
        if isinstance(s.get("anyOf"), list):
            s["anyOf"] = [self._require_inside(b, made, depth + 1) for b in s["anyOf"]]
        return s
