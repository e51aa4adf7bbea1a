"""Fixes in zod's words, for a schema zod wrote (a TypeScript server on the official SDK): what
to change in the zod code, said as an inference from the schema's shape, with no source line
claimed. What zod writes was checked against zod 4.6.7 as the TypeScript SDK 1.32.2 converts it
(``z.toJSONSchema``, draft-07) and as its successor ``@modelcontextprotocol/server`` 2.4.0 does
(Standard Schema, 2020-12), and against zod 3 through zod-to-json-schema."""

from __future__ import annotations

import functools
import json
import re

from ..jsonvalue import SAFE_INTEGER  # the bounds zod 4 writes for every .int(), negated for minimum
from ..model import Finding
from .places import NOTHING_TO_CHANGE, OPTIONAL_WORDS, closing, is_arguments, node_at, property_at, slot_root, subject_of

# JSON Schema keyword -> the zod method that writes it
ZOD_METHOD = {
    "maxLength": "`.max()`", "minLength": "`.min()`", "pattern": "`.regex()`", "maximum": "`.max()`",
    "minimum": "`.min()`", "exclusiveMaximum": "`.lt()` (or `.negative()`)",
    "exclusiveMinimum": "`.gt()` (or `.positive()`)", "multipleOf": "`.multipleOf()`",
    "maxItems": "`.max()`", "minItems": "`.min()`", "format": "`.email()` / `.url()` / `.uuid()` ...",
}
# "format" -> the zod 4 schema that writes it (zod 3's method in brackets where it differs in name).
# zod 4 writes its own regular expression for the format beside it as "pattern" (all but uri and
# jwt); zod 3 writes the format alone. Any other zod 4 format is written by z.<format>().
ZOD_FORMAT = {
    "email": ("z.email()", "z.string().email()"), "uri": ("z.url()", "z.string().url()"),
    "uuid": ("z.uuid()", "z.string().uuid()"), "date-time": ("z.iso.datetime()", "z.string().datetime()"),
    "date": ("z.iso.date()", "z.string().date()"), "duration": ("z.iso.duration()", "z.string().duration()"),
    "ipv4": ("z.ipv4()", "z.string().ip()"), "ipv6": ("z.ipv6()", "z.string().ip()"),
}
_ZOD_IMPORT = re.compile(r"""(?:from\s*|require\(\s*|import\(\s*)["']zod(?:/[\w./-]*)?["']""")
_ZOD_RECURSIVE = re.compile(r"#/(?:\$defs|definitions)/__schema\d+$")
_LOOKAROUND = re.compile(r"\(\?<?[=!]")  # (?= (?! (?<= (?<!
# The other formats zod 4 writes, each by the z.<format>() of its name
ZOD4_FORMATS = frozenset({"base64", "base64url", "cidrv4", "cidrv6", "cuid", "cuid2", "e164", "emoji", "hex",
                          "hostname", "jwt", "ksuid", "mac", "nanoid", "ulid", "xid"})
# The `$schema` zod writes on every object it converts: zod-to-json-schema (draft-07) and zod 4's
# z.toJSONSchema (2020-12 by default, draft-07 as a target), as the TypeScript MCP SDK sends them.
ZOD_SCHEMA_URIS = {"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"}
# What the TypeScript SDK's McpServer sends for a tool registered without an inputSchema (no zod
# wrote it): it neither shows nor hides that the server's other tools are zod's.
SDK_EMPTY_INPUT = {"type": "object", "properties": {}}


def tools_of(data) -> list:
    """The tool objects of a document of any shape collect reads: a tools/list result (bare or in a
    JSON-RPC response), an array of tools, one tool, an MCP Description document, or a probe's
    capture (the tools of each version's result)."""
    if isinstance(data, dict) and isinstance(data.get("captures"), list):
        return [t for cap in data["captures"] for t in tools_of(cap)]
    if isinstance(data, dict) and isinstance(data.get("name"), str) and "inputSchema" in data:
        return [data]
    if isinstance(data, dict):
        data = data.get("result", data)
        data = data.get("tools") if isinstance(data, dict) else data
    return [t for t in data if isinstance(t, dict)] if isinstance(data, list) else []


def _zod_uri(root: dict) -> bool:
    """The root's ``$schema`` is one zod writes (a ``$schema`` of another JSON type is not)."""
    uri = root.get("$schema")
    return isinstance(uri, str) and uri in ZOD_SCHEMA_URIS


def looks_zod(doc) -> bool:
    """Every tool's inputSchema has zod's shape: an object root carrying one of the ``$schema``
    URIs zod writes and no ``title`` (pydantic writes a title and no ``$schema``); the TypeScript
    SDK's own schema for a tool without input does not count either way."""
    roots = [r for t in tools_of(doc.data) if (r := t.get("inputSchema")) != SDK_EMPTY_INPUT]
    return bool(roots) and all(isinstance(r, dict) and _zod_uri(r)
                               and r.get("type") == "object" and "title" not in r for r in roots)


def zod_fix(f: Finding, doc) -> str | None:
    """Zod's words. A JSON input has no source line, so none is claimed, and the words say the
    schema's shape is zod's (mcplint infers that, the file does not say it), unless the place a
    probe's --source-dir found for the tool is in a file that imports zod."""
    words = _zod_words(f, doc)
    if words is None:
        return None
    if f.source is not None and _imports_zod(f.source.file):
        return words if words.startswith(NOTHING_TO_CHANGE) else "in zod: " + words
    return "if this schema comes from zod, as its shape suggests: " + words


@functools.lru_cache(maxsize=64)
def _imports_zod(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return _ZOD_IMPORT.search(fh.read(200_000)) is not None
    except OSError:
        return False


def _zod_words(f: Finding, doc) -> str | None:
    root = slot_root(doc, f.pointer)
    if not (isinstance(root, dict) and _zod_uri(root)):
        return None  # a tool of its own shape in a zod server (the SDK's default for a tool without input)
    subject = subject_of(f)
    words = _zod_reference_words(f, doc, subject)
    if words is not None:
        return words
    obj, prop, keyword = property_at(f.pointer)
    if "additionalProperties" in subject and (closed := closing(f, doc)) is not None:
        return _zod_closing_words(f, closed)
    if prop is not None and keyword is None and OPTIONAL_WORDS.search(subject):
        return _zod_optional_words(f, doc, prop)
    if prop is not None and keyword == "default":  # the SDK parses the arguments with the schema: zod fills it in
        return _zod_default_words(f, prop)
    node = node_at(doc, f.pointer.parent) if prop is not None and keyword else None
    shaped = _zod_shape_words(keyword, node, prop, f.consequence == "reject", subject) if node is not None else None
    if shaped is not None:
        return shaped
    own = _written_by_zod(keyword, node) if node is not None else None
    if own is not None:
        return _zod_own_words(f, own, keyword, node, prop)
    return _zod_check_words(f, doc, prop, keyword)


def _zod_reference_words(f: Finding, doc, subject: str) -> str | None:
    """Shared and recursive schemas: zod's "definitions" and its ``$ref`` to a schema of its own."""
    if tuple(f.pointer)[-1:] == ("definitions",) and '"$defs"' in subject:
        return ("the TypeScript SDK 1.x converts zod to "
                "draft-07, which keeps shared and recursive schemas under \"definitions\"; "
                "`@modelcontextprotocol/server` 2.x converts it to 2020-12, which names them \"$defs\"")
    if tuple(f.pointer)[-1:] == ("$ref",) and "recursi" in subject and \
            _ZOD_RECURSIVE.match(str(node_at(doc, f.pointer))):  # zod names a schema that refers to itself __schemaN
        return ("zod writes this `$ref` for a schema that refers to itself (a getter such as "
                "`get children() { return z.array(Node) }`, or `z.lazy(...)`); " + (
                    "this target rejects recursion: nest a fixed number of levels instead, or do not send this "
                    "tool strict" if f.consequence == "reject" else
                    "this target follows it only a few levels deep: zod still checks every level on the server"))
    return None


def _zod_closing_words(f: Finding, closed: tuple) -> str | None:
    """An object left open: the zod that closes it (``z.strictObject``), or why nothing needs to."""
    at, node, free_map = closed
    if free_map and isinstance(node.get("additionalProperties"), dict):  # z.record's (true is .passthrough()'s)
        return ("`z.record(...)` generates this "
                "free-form map; a strict target needs named keys: use `z.object({...})`")
    if f.consequence == "rewrite" and not free_map:  # a client closes it (the Agents SDKs)
        return (NOTHING_TO_CHANGE + "zod's `z.object` strips the keys it does not name before the handler "
                "sees the arguments (the SDK parses them with the tool's schema), so a closed object loses "
                "nothing")
    if is_arguments(at):  # the SDK wraps a plain shape in z.object itself, and zod 4 leaves it open
        return ("give the tool "
                "`inputSchema: z.strictObject({...})` (zod 4; `z.object({...}).strict()` in zod 3) in place "
                "of a plain shape or a `z.object({...})`, and zod writes \"additionalProperties\": false")
    if isinstance(node, dict) and node.get("type") == "object":
        return ("write this object as "
                "`z.strictObject({...})` (zod 4), or call `.strict()` on its `z.object({...})`, and zod "
                "writes \"additionalProperties\": false")
    return None


def _zod_optional_words(f: Finding, doc, prop: str) -> str:
    """An optional property where the target wants every property required."""
    if isinstance(at_prop := node_at(doc, f.pointer), dict) and "default" in at_prop:  # zod's .default(...)
        return (f"`.default(...)` makes `{prop}` optional: write `.nullable()` in its place (required and "
                f"nullable: callers send null to leave it out) and apply the default in the handler "
                f"(`{prop} ?? ...`)")
    return (f"use `.nullable()` instead of "
            f"`.optional()` on `{prop}` (required and nullable: callers send null to leave it out)")


def _zod_default_words(f: Finding, prop: str) -> str:
    """A ``.default(...)``: zod fills it in on the server, the target drops or rejects it."""
    if f.consequence == "reject":
        return (f"`.default(...)` on `{prop}` writes "
                f"\"default\", which this target rejects: drop it, make `{prop}` `.nullable()`, and apply the "
                f"default in the handler (`{prop} ?? ...`), or do not send this tool strict")
    return (f"zod still fills in `.default(...)` of `{prop}` "
            f"when the tool is called without it; this target does not show it to the model: say it in "
            f"`.describe(...)`")


def _zod_own_words(f: Finding, own: tuple, keyword: str, node, prop: str) -> str:
    """A keyword zod writes by itself (a format's pattern, ``.int()``'s bounds)."""
    what, writes = own
    if f.consequence == "reject" and keyword == "pattern" and node.get("format") == "email" and \
            _LOOKAROUND.search(str(node.get("pattern"))):
        return (f"zod before 4.6.0 writes `z.email()`'s own "
                f"pattern on `{prop}` with a lookahead, which this target rejects, and zod 4.6.0 and later write "
                f"one without: upgrade zod, or pass `z.email({{ pattern: z.regexes.html5Email }})`")
    if f.consequence == "reject":
        instead = ("`z.number().refine(Number.isInteger)` (zod still refuses a fraction; say \"an integer\" in "
                   "`.describe(...)`)" if what.startswith("`.int()") else
                   "`z.string()` with a `.refine(...)` that checks the format (say it in `.describe(...)`)")
        return (f"{what} on `{prop}` writes {writes} by "
                f"itself, and this target rejects it: write {instead}, or do not send this tool strict")
    return (f"{what} on `{prop}` writes {writes} by "
            f"itself, and zod still checks it on the server; this target does not enforce it in what the model "
            f"writes: say it in `.describe(...)`")


def _zod_check_words(f: Finding, doc, prop: str | None, keyword: str | None) -> str | None:
    """``z.any()`` with no type, or a zod check (``.min()``, ``.regex()``...) the target drops or rejects."""
    if prop is not None and keyword is None and isinstance(node := node_at(doc, f.pointer), dict) and \
            not (set(node) - {"description", "title", "default", "examples"}):
        return (f"`z.any()` or `z.unknown()` on `{prop}` writes "
                f"no type at all; give it one (`z.string()`, or `z.union([...])` of the types it takes)")
    if prop is not None and keyword in ZOD_METHOD and f.consequence == "reject":
        return (f"the zod check {ZOD_METHOD[keyword]} on "
                f"`{prop}` writes \"{keyword}\", which this target rejects: check it in the handler instead, or do "
                f"not send this tool strict")
    if prop is not None and keyword in ZOD_METHOD:
        return (f"the zod check {ZOD_METHOD[keyword]} "
                f"on `{prop}` still runs on the server, but this target does not enforce it: keep it, and say "
                f"the limit in `.describe(...)`")
    return None


def _written_by_zod(keyword: str, node) -> tuple | None:
    """(the zod code, what it writes) for a keyword zod 4 writes by itself, not from a check the author
    chained: the pattern beside a string format, the format itself, the safe-integer bounds of .int()."""
    if not isinstance(node, dict):
        return None
    fmt = node.get("format")
    if keyword in ("pattern", "format") and (fmt in ZOD_FORMAT or fmt in ZOD4_FORMATS) and \
            (keyword == "format" or fmt not in ("uri", "jwt")):
        four, three = ZOD_FORMAT.get(fmt) or (f"z.{fmt}()", None)
        if keyword == "pattern":
            return f"zod 4's `{four}`", f'this pattern (its own check for "format": "{fmt}")'
        return f"`{four}`" + (f" (`{three}` in zod 3)" if three else ""), f'"format": "{fmt}"'
    value = node.get(keyword)
    if keyword in ("minimum", "maximum") and node.get("type") == "integer" and type(value) is int and \
            value == (SAFE_INTEGER if keyword == "maximum" else -SAFE_INTEGER):
        return "`.int()` (zod 4's `z.int()` or `z.number().int()`)", f'"{keyword}": {value} (the safe-integer range)'
    return None


def _tuple(node) -> bool:
    return isinstance(node, dict) and (isinstance(node.get("items"), list) or isinstance(node.get("prefixItems"), list))


def _zod_shape_words(keyword: str, node, prop: str, rejected: bool, subject: str = "") -> str | None:
    """Words for a keyword a zod schema's own shape writes: a discriminated (or exclusive) union's
    oneOf, a tuple's positions and length, `.length(n)`'s two string bounds, a record's key schema."""
    if keyword == "oneOf":
        return (f"`z.discriminatedUnion(...)` (or `z.xor([...])`) on `{prop}` writes \"oneOf\"; write it as "
                f"`z.union([...])`, which zod writes as \"anyOf\" (the same values where no value fits two branches, "
                f"as a discriminator's literals ensure)")
    if _tuple(node) and keyword in ("items", "prefixItems", "additionalItems", "minItems", "maxItems"):
        what = "its positions" if keyword in ("items", "prefixItems", "additionalItems") else f'"{keyword}" (its length)'
        if isinstance(node.get("items"), list):
            what += (" in draft-07's form (the TypeScript SDK 1.x converts to draft-07; `@modelcontextprotocol/server` "
                     "2.x writes 2020-12's `prefixItems`)")
        return (f"`z.tuple([...])` on `{prop}` writes {what}; " + (
            "this target rejects it: " if rejected else "this target does not enforce it: ") +
            "give each position a name in a `z.strictObject({...})`, or use one `z.array(...)` type")
    if keyword in ("minLength", "maxLength") and node.get("minLength") == node.get("maxLength"):
        return (f"`.length({node.get('minLength')})` on `{prop}` writes \"minLength\" and \"maxLength\"; " + (
            "this target rejects them: check the length in the handler instead, or do not send this tool strict"
            if rejected else "zod still checks it on the server; this target does not enforce it: say the "
                             "length in `.describe(...)`"))
    if keyword == "const" and isinstance(node.get("const"), str) and "one-value enum" in subject:  # (z.enum: strings)
        return (f"`z.literal(...)` on `{prop}` writes \"const\", which this target ignores: write "
                f"`z.enum([{json.dumps(node['const'])}])` (a one-value \"enum\", which it enforces; a discriminated "
                f"union takes it as its key too)")
    if keyword == "propertyNames" and isinstance(node.get("additionalProperties"), dict) and not node.get("properties"):
        return ("`z.record(...)` writes this key schema beside its free-form map; a strict target needs named keys: "
                "use `z.object({...})`")
    return None
