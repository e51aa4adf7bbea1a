"""Hosted providers, where no decoder can run: hold a profile against what the provider's
own client SDK does to a schema before sending it.

An SDK transform that strips, rewrites or adds a keyword, or refuses the schema, is a
claim by the provider's own engineers about what the API does. :func:`check` runs one
transform on one schema, lists every change keyword by keyword, and says which ones the
profile of the SDK's target does not explain: a change is explained when the profile
does not simply enforce that keyword there (it drops, rejects, rewrites or ignores it),
or when it sits under something the profile already rejects. A refusal is explained by
any rejection (or, for a client that falls back to non-strict, a drop). For a client
profile that models the SDK itself (openai-agents), every rewrite it claims must also
happen. Known differences are listed in the profile's ``verified_with.exceptions`` as
``keyword:change`` with the reason.

The SDKs are imported lazily and used offline; nothing here is needed at run time.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable

from ..model import Pointer
from ..profiles import Profile, evaluate_slot
from ..schemawalk import subschemas
from .compare import keywords_about

# keywords whose value holds subschemas: compared by shape, their children are walked
_MAP_OF_SCHEMAS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
_LIST_OF_SCHEMAS = {"anyOf", "oneOf", "allOf", "prefixItems"}
_ONE_SCHEMA = {"items", "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties",
               "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema"}
# where SDKs park what they strip, and keys they add for their own API: not semantics
_IGNORED = {"description", "title", "propertyOrdering"}


@dataclass(frozen=True)
class Change:
    node: tuple  # relative pointer of the schema node
    keyword: str
    change: str  # stripped | rewritten | added | refused | not-rewritten
    detail: str = ""

    @property
    def key(self) -> str:
        return f"{self.keyword}:{self.change}"  # for a refusal: refused:<exception type>

    def where(self) -> str:
        return "/" + "/".join(str(p) for p in self.node)


@dataclass(frozen=True)
class Sdk:
    name: str  # the PyPI distribution
    target: str  # the profile of what the SDK sends to
    transform: Callable[[dict], Any]
    models_itself: bool = False  # the target profile describes this SDK's own rewrites

    @property
    def version(self) -> str:
        return metadata.version(self.name)


def _openai(schema):
    from openai.lib._pydantic import _ensure_strict_json_schema

    s = copy.deepcopy(schema)
    return _ensure_strict_json_schema(s, path=(), root=s)


def _openai_agents(schema):
    from agents.strict_schema import ensure_strict_json_schema

    # agents.mcp.util.MCPUtil.to_function_tool: properties {} added first; open objects refused unless empty
    return ensure_strict_json_schema(copy.deepcopy(schema), _reject_open_objects=bool(schema))


def _anthropic(schema):
    from anthropic.lib._parse._transform import transform_schema

    return transform_schema(copy.deepcopy(schema))


_CAMEL = re.compile(r"_([a-z])")


def _from_gemini(node):
    """google-genai's Schema (snake_case, upper-case types, nullable) back to JSON Schema words."""
    if isinstance(node, list):
        return [_from_gemini(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        key = _CAMEL.sub(lambda m: m.group(1).upper(), k)
        if key == "defs":
            key = "$defs"
        if key in _MAP_OF_SCHEMAS:
            out[key] = {n: _from_gemini(s) for n, s in v.items()} if isinstance(v, dict) else v
        else:
            out[key] = _from_gemini(v) if key in _ONE_SCHEMA or key in _LIST_OF_SCHEMAS else v
    if isinstance(out.get("type"), str):
        out["type"] = out["type"].lower()
    return out


def _google_genai(schema):
    from google.genai import _mcp_utils

    class Tool:
        name, description, inputSchema = "t", "", copy.deepcopy(schema)

    params = _mcp_utils.mcp_to_gemini_tool(Tool()).function_declarations[0].parameters
    return _from_gemini(params.model_dump(exclude_none=True, mode="json")) if params is not None else {}


SDKS = {
    "openai": Sdk("openai", "openai-strict", _openai),
    "openai-agents": Sdk("openai-agents", "openai-agents", _openai_agents, models_itself=True),
    "anthropic": Sdk("anthropic", "anthropic-strict", _anthropic),
    "google-genai": Sdk("google-genai", "gemini-openapi", _google_genai),
}


def _prepare(sdk: Sdk, schema: dict) -> dict:
    if sdk.name == "openai-agents" and isinstance(schema, dict) and "properties" not in schema:
        schema = {**schema, "properties": {}}  # what MCPUtil.to_function_tool does before converting
    return schema


def node_at(doc: Any, ptr: tuple) -> Any:
    """The value at ``ptr`` (a tuple of keys and indices) inside ``doc``, or None where the path
    leaves the document."""
    for p in ptr:
        if isinstance(doc, dict) and p in doc:
            doc = doc[p]
        elif isinstance(doc, list) and isinstance(p, int) and p < len(doc):
            doc = doc[p]
        else:
            return None
    return doc


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or a == b


def _shape_same(k, a, b) -> bool:
    if k in _MAP_OF_SCHEMAS:
        return isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b)
    if k in _LIST_OF_SCHEMAS or (k == "items" and isinstance(a, list)):  # items: draft-07's tuple form too
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b
    return isinstance(a, dict) and isinstance(b, dict)


def _types(node: dict) -> set:
    t = node.get("type")
    out = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()
    if node.get("nullable") is True:
        out.add("null")
    return out


def _same_value(k, a, b) -> bool:
    if k == "required" and isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))  # an order, not a constraint
    return _same(a, b)


def diff(before: dict, after: Any) -> list[Change]:
    """Keyword-level changes from ``before`` to ``after``, node by node. Equivalent forms
    are not changes: a reordered ``required``, ``nullable: true`` for a null type, a local
    ``$ref`` replaced by its target (one change, ``$ref:inlined``), a one-entry ``allOf``
    merged into its schema (one change, ``allOf:merged``, its entry's keys not added)."""
    out = []
    for sub in subschemas(before):
        node, rel = sub.schema, tuple(sub.pointer)
        if not isinstance(node, dict):
            continue
        new = node_at(after, rel)
        if not isinstance(new, dict):
            continue  # the node itself went away: reported on its parent keyword
        same_type = ("type" in node or "nullable" in node) and _types(node) == _types(new)
        target = {}
        if isinstance(node.get("$ref"), str) and "$ref" not in new:
            t = _local(before, node["$ref"])
            if isinstance(t, dict):
                target = t
                out.append(Change(rel, "$ref", "inlined", node["$ref"]))
        merged = _single_entry(before, node) if "allOf" not in new else None
        if merged is not None:
            target = {**merged, **target}
            out.append(Change(rel, "allOf", "merged", json.dumps(node["allOf"])[:80]))
        for k, v in node.items():
            if k in _IGNORED or (k in ("type", "nullable") and same_type) or (k == "$ref" and target) or \
                    (k == "allOf" and merged is not None):
                continue
            if k not in new:
                out.append(Change(rel, k, "stripped", json.dumps(v)[:80]))
            elif k in _MAP_OF_SCHEMAS | _LIST_OF_SCHEMAS | _ONE_SCHEMA and not isinstance(v, bool):
                if not _shape_same(k, v, new[k]):
                    out.append(Change(rel, k, "rewritten", f"{json.dumps(v)[:60]} -> {json.dumps(new[k])[:60]}"))
            elif not _same_value(k, v, new[k]):
                out.append(Change(rel, k, "rewritten", f"{json.dumps(v)[:60]} -> {json.dumps(new[k])[:60]}"))
        for k in new:
            if k in node or k in _IGNORED or (k, json.dumps(new[k])) in _NO_OPS:
                continue
            if (k in ("type", "nullable") and same_type) or (k in target and _same(target[k], new[k])):
                continue
            out.append(Change(rel, k, "added", json.dumps(new[k])[:80]))
    return _renames(out)


def _single_entry(root: dict, node: dict) -> dict | None:
    """The keys a one-entry ``allOf`` of ``node`` brings when merged into it: the entry's own,
    a local ``$ref`` in it replaced by its target's (None: not a one-entry allOf of a schema)."""
    entries = node.get("allOf")
    if not (isinstance(entries, list) and len(entries) == 1 and isinstance(entries[0], dict)):
        return None
    entry = entries[0]
    t = _local(root, entry.get("$ref"))
    if isinstance(t, dict):
        return {**t, **{k: v for k, v in entry.items() if k != "$ref"}}
    return entry


def _local(root: dict, ref) -> Any:
    """What a local ``#/...`` reference points at in ``root`` (None: not one, or dangling)."""
    if not (isinstance(ref, str) and ref.startswith("#/")):
        return None
    try:
        return Pointer.parse(ref).resolve_in(root)
    except (KeyError, IndexError, TypeError, ValueError):
        return None


# additions that constrain nothing by themselves
_NO_OPS = {("required", "[]"), ("properties", "{}")}


def _renames(changes: list) -> list:
    """oneOf stripped and anyOf added (or grown) at the same node: one rewrite of oneOf."""
    gone = {c.node for c in changes if c.keyword == "oneOf" and c.change == "stripped"}
    if not gone:
        return changes
    out = []
    for c in changes:
        if c.node in gone and c.keyword == "anyOf" and c.change in ("added", "rewritten"):
            continue
        if c.node in gone and c.keyword == "oneOf":
            c = Change(c.node, "oneOf", "rewritten", "oneOf -> anyOf")
        out.append(c)
    return out


@dataclass(frozen=True)
class Result:
    schema: Any
    changes: tuple
    unexplained: tuple  # Changes the profile does not account for (nor its exceptions)
    excused: tuple = ()  # Changes only a documented exception accounts for


def check(sdk: Sdk, profile: Profile, schema: dict) -> Result:
    schema = _prepare(sdk, schema)
    effects = [e for e in evaluate_slot(profile, schema) if e.kind != "limit"]
    live = [e for e in effects if e.rule.action != "enforce"]
    exc = dict((profile.verified_with or {}).get("exceptions") or {})
    try:
        after = sdk.transform(schema)
    except Exception as e:  # the SDK refuses: any exception type, as the caller would see it
        change = Change((), "refused", type(e).__name__, f"{type(e).__name__}: {str(e)[:160]}")
        ok = any(e.rule.action in ("reject", "drop") for e in live)
        if ok:
            return Result(schema, (change,), ())
        return Result(schema, (change,), () if change.key in exc else (change,), (change,) if change.key in exc else ())
    changes = diff(schema, after)
    # what the profile rejects or drops as a keyword: its subtree never reaches the model as written
    dead = [tuple(e.pointer) for e in live if e.rule.action in ("reject", "drop") and e.kind in ("keyword", "regex")]

    def explained(c: Change) -> bool:
        for e in live:
            node = tuple(e.params.get("_node", e.pointer[:-1]))
            if node == c.node and c.keyword in keywords_about(e):
                return True
        loc = c.node + (c.keyword,)
        # under something the profile rejects or drops, or holding it (the SDK mangles its container)
        return any(c.node[:len(d)] == d or d[:len(loc)] == loc for d in dead)

    odd = [c for c in changes if not explained(c)]
    unexplained = [c for c in odd if c.key not in exc]
    excused = [c for c in odd if c.key in exc]
    if sdk.models_itself:
        touched = {c.node for c in changes}
        for e in live:
            if e.rule.action == "rewrite":
                node = tuple(e.params.get("_node", e.pointer[:-1]))
                if node not in touched and isinstance(node_at(after, node), dict):  # (a moved node is not judged)
                    c = Change(node, e.subject, "not-rewritten", f"the profile says {e.subject} is rewritten")
                    (excused if c.key in exc else unexplained).append(c)
    return Result(schema, tuple(changes), tuple(unexplained), tuple(excused))
