"""The structural constructs a profile rules on (its ``constructs:`` entries), registered one
by one: each entry's name, what it detects, where a finding points and the values its
message may use. The profile schema's list of construct names (``$defs/construct_name``) and
the table of constructs in docs/profiles.md are written from this registry by
scripts/gen_profile_vocabulary.py, and a test holds both equal to it.

The detection itself is in :func:`.facts.node_constructs` (constructs of one node, found once
per slot whichever profile asks), :meth:`.evaluate._SlotJudge.root` (constructs of the slot's
root), :mod:`.constructs_extra` (boolean subschemas) and :class:`.facts.SlotFacts` (references
in a cycle, remote references, the first meta-schema error); each of them uses only names
registered here (tests/profiles/test_constructs.py).
"""

from __future__ import annotations

from typing import NamedTuple


class ConstructSpec(NamedTuple):
    name: str  # as a profile writes it under ``constructs:``
    found: str  # when a schema shows it (the docs' "found when")
    at: str  # where its finding points
    params: tuple  # the message values it gives (``{value}``, ``{keyword}``, ...) beside ``_node``
    scope: str  # "node": found at any node of a slot; "slot": found once per slot (its root, its references)


CONSTRUCTS: dict[str, ConstructSpec] = {}


def construct(name: str, found: str, *, at: str, params: tuple = (), scope: str = "node") -> ConstructSpec:
    """Register the construct ``name`` (in the order the schema and the docs list them)."""
    if name in CONSTRUCTS:
        raise ValueError(f"construct {name!r} registered twice")
    spec = ConstructSpec(name, found, at, tuple(params), scope)
    CONSTRUCTS[name] = spec
    return spec


construct("root-not-object", "the slot's root schema is not typed exactly `object`",
          at="the root's type (or the root)", params=("value",), scope="slot")
construct("root-combinator", "the root schema holds anyOf, oneOf or allOf (a rule's `keywords:` narrows which)",
          at="the combinator", params=("keyword",), scope="slot")
construct("object-without-properties", "an object schema has no properties keyword", at="the schema")
construct("additional-properties-missing", "an object schema does not say additionalProperties", at="the schema")
construct("additional-properties-open", "an object schema's additionalProperties is true or a schema",
          at="additionalProperties", params=("value",))
construct("additional-properties-invalid", "additionalProperties is neither a boolean nor a schema object",
          at="additionalProperties", params=("value",))
construct("optional-property", "a property that required does not list (one finding per property)",
          at="the property", params=("key",))
construct("type-array", "type is a list of names", at="type", params=("value",))
construct("untyped-schema", "a schema below the root (not a definition) with none of type, anyOf, oneOf, allOf, "
          "$ref, enum, const", at="the schema", params=("key",))
construct("array-without-items", "an array schema with neither items nor prefixItems", at="the schema")
construct("recursion", "a local $ref that leads back into itself, so inlining it never ends",
          at="the $ref", params=("value",), scope="slot")
construct("remote-ref", "a $ref to another document (not a '#' reference)", at="the $ref", params=("value",),
          scope="slot")
construct("ref-siblings", "$ref with a constraining keyword beside it (its rule is decided for $ref first)",
          at="the first such keyword", params=("siblings", "keyword", "sibling_set"))
construct("anyof-shared-first-key", "two anyOf branches whose properties start with the same key",
          at="anyOf", params=("key",))
construct("properties-beside-combinator", "properties beside anyOf or oneOf in the same schema",
          at="the combinator", params=("keyword",))
construct("invalid-schema", "the slot does not validate against the JSON Schema 2020-12 meta-schema (the first error)",
          at="the error's place", params=("detail",), scope="slot")
construct("required-undeclared", "required names a key that properties does not declare",
          at="required", params=("keys",))
construct("ref-annotation-siblings", "$ref with only annotations beside it (description, title, default, ...)",
          at="the first annotation", params=("siblings", "keyword", "sibling_set"))
construct("unknown-type", "type names something other than the seven JSON Schema types", at="type",
          params=("value",))
construct("items-on-non-array", "items beside a type other than exactly array (or no type at all)",
          at="items", params=("value",))
construct("boolean-subschema", "true or false where a schema goes, below the root (not additionalProperties, "
          "unevaluatedProperties/Items, additionalItems, nor items beside prefixItems)",
          at="the boolean", params=("value",), scope="slot")
construct("tuple-items", "draft-07's tuple form: items is a list of schemas", at="items",
          params=("count", "additional", "closed", "value"))


def doc_table() -> str:
    """The constructs as the Markdown table docs/profiles.md shows."""
    rows = ["| construct | found when | reported at | message values |", "|---|---|---|---|"]
    for c in CONSTRUCTS.values():
        values = ", ".join(f"`{p}`" for p in c.params) or "-"
        rows.append(f"| `{c.name}` | {c.found} | {c.at} | {values} |")
    return "\n".join(rows) + "\n"
