"""Fixes in zod's words, for a schema zod wrote (a TypeScript server on the official SDK): what
to change in the zod code, said as an inference from the schema's shape, with no source line
claimed. What zod writes was checked against zod 4.6.7 (``z.toJSONSchema``, as the SDK 1.32.2
calls it) and zod 3 through zod-to-json-schema."""

from __future__ import annotations

from ..model import Finding
from .places import OPTIONAL_WORDS, closing, is_arguments, property_at, slot_root, subject_of

# JSON Schema keyword -> the zod method that writes it
ZOD_METHOD = {
    "maxLength": ".max()", "minLength": ".min()", "pattern": ".regex()", "maximum": ".max()",
    "minimum": ".min()", "exclusiveMaximum": ".lt()", "exclusiveMinimum": ".gt()", "multipleOf": ".multipleOf()",
    "maxItems": ".max()", "minItems": ".min()", "format": ".email() / .url() / .uuid() ...",
}
# The `$schema` zod writes on every object it converts: zod-to-json-schema (draft-07) and zod 4's
# z.toJSONSchema (2020-12 by default, draft-07 as a target), as the TypeScript MCP SDK sends them.
ZOD_SCHEMA_URIS = {"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"}
# What the TypeScript SDK's McpServer sends for a tool registered without an inputSchema (no zod
# wrote it): it neither shows nor hides that the server's other tools are zod's.
SDK_EMPTY_INPUT = {"type": "object", "properties": {}}


def _tools_of(data) -> list:
    """The tool objects of a document of any shape collect reads: a tools/list result (bare or in a
    JSON-RPC response), an array of tools, one tool, an MCP Description document, or a probe's
    capture (the tools of each version's result)."""
    if isinstance(data, dict) and isinstance(data.get("captures"), list):
        return [t for cap in data["captures"] for t in _tools_of(cap)]
    if isinstance(data, dict) and isinstance(data.get("name"), str) and "inputSchema" in data:
        return [data]
    if isinstance(data, dict):
        data = data.get("result", data)
        data = data.get("tools") if isinstance(data, dict) else data
    return [t for t in data if isinstance(t, dict)] if isinstance(data, list) else []


def looks_zod(doc) -> bool:
    """Every tool's inputSchema has zod's shape: an object root carrying one of the ``$schema``
    URIs zod writes and no ``title`` (pydantic writes a title and no ``$schema``); the TypeScript
    SDK's own schema for a tool without input does not count either way."""
    roots = [r for t in _tools_of(doc.data) if (r := t.get("inputSchema")) != SDK_EMPTY_INPUT]
    return bool(roots) and all(isinstance(r, dict) and r.get("$schema") in ZOD_SCHEMA_URIS
                               and r.get("type") == "object" and "title" not in r for r in roots)


def zod_fix(f: Finding, doc) -> str | None:
    """Zod's words; a JSON input has no source line, so none is claimed, and the words say the
    schema's shape is zod's (mcplint infers that, the file does not say it)."""
    root = slot_root(doc, f.pointer)
    if not (isinstance(root, dict) and root.get("$schema") in ZOD_SCHEMA_URIS):
        return None  # a tool of its own shape in a zod server (the SDK's default for a tool without input)
    subject = subject_of(f)
    obj, prop, keyword = property_at(f.pointer)
    if "additionalProperties" in subject:
        at, node, free_map = closing(f, doc)
        if free_map and isinstance(node.get("additionalProperties"), dict):  # z.record's (true is .passthrough()'s)
            return ("if this schema comes from zod, as its shape suggests: `z.record(...)` generates this "
                    "free-form map; a strict target needs named keys: use `z.object({...})`")
        if is_arguments(at):  # the SDK wraps a plain shape in z.object itself, and zod 4 leaves it open
            return ("if this schema comes from zod, as its shape suggests: give the tool "
                    "`inputSchema: z.strictObject({...})` (zod 4; `z.object({...}).strict()` in zod 3) in place "
                    "of the plain shape, and zod writes \"additionalProperties\": false")
        if isinstance(node, dict) and node.get("type") == "object":
            return ("if this schema comes from zod, as its shape suggests: write this object as "
                    "`z.strictObject({...})` (zod 4), or call `.strict()` on its `z.object({...})`, and zod "
                    "writes \"additionalProperties\": false")
        return None
    if prop is not None and keyword is None and OPTIONAL_WORDS.search(subject):
        return (f"if this schema comes from zod, as its shape suggests: use `.nullable()` instead of "
                f"`.optional()` on `{prop}` (required and nullable: callers send null to leave it out)")
    if prop is not None and keyword == "default":  # the SDK parses the arguments with the schema: zod fills it in
        if f.consequence == "reject":
            return (f"if this schema comes from zod, as its shape suggests: `.default(...)` on `{prop}` writes "
                    f"\"default\", which this target rejects: drop it, make `{prop}` `.nullable()`, and apply the "
                    f"default in the handler (`{prop} ?? ...`), or do not send this tool strict")
        return (f"if this schema comes from zod, as its shape suggests: zod still fills in `.default(...)` of `{prop}` "
                f"when the tool is called without it; this target does not show it to the model: say it in "
                f"`.describe(...)`")
    if prop is not None and keyword in ZOD_METHOD and f.consequence == "reject":
        return (f"if this schema comes from zod, as its shape suggests: the zod check `{ZOD_METHOD[keyword]}` on "
                f"`{prop}` writes \"{keyword}\", which this target rejects: check it in the handler instead, or do "
                f"not send this tool strict")
    if prop is not None and keyword in ZOD_METHOD:
        return (f"if this schema comes from zod, as its shape suggests: the zod check `{ZOD_METHOD[keyword]}` "
                f"on `{prop}` still runs on the server, but this target does not enforce it: keep it, and say "
                f"the limit in `.describe(...)`")
    return None
