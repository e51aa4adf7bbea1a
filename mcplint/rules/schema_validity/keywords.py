"""SCH103 and SCH110: names the slot's dialect does not define, keywords and formats alike. Most
are misspellings, and the messages name the keyword or format most likely meant."""

from __future__ import annotations

import functools
import json

from ...model import Severity
from ...registry import rule
from .common import ALL_KEYWORDS, KEYWORDS, OPENAPI, TOLERATED, slot_walk, closest

_INTRODUCED = {  # the first dialect that has a keyword, for "belongs to another dialect" messages
    kw: next(d for d in ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12") if kw in KEYWORDS[d])
    for kw in ALL_KEYWORDS
}
_REMOVED = {  # keywords a later dialect dropped, and what replaced them
    "dependencies": "2019-09 split it into `dependentRequired` and `dependentSchemas`",
    "additionalItems": "in 2020-12 `items` took its place next to `prefixItems`",
    "id": "draft-06 renamed it `$id`",
    "$recursiveRef": "2020-12 replaced it with `$dynamicRef`",
    "$recursiveAnchor": "2020-12 replaced it with `$dynamicAnchor`",
}


# ------------------------------------------------------------------ near misses

def _deletes(word: str, n: int) -> set:
    out = frontier = {word}
    for _ in range(n):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out = out | frontier
    return out


@functools.lru_cache(maxsize=8)
def _delete_index(dialect: str) -> dict:
    """Every keyword of the dialect under each string that deleting up to two characters of it
    gives: two words within edit distance 2 share such a string (symmetric deletion), so
    :func:`_suggest` compares a word with a handful of keywords, not all of them."""
    idx: dict = {}
    for kw in KEYWORDS[dialect] | TOLERATED:
        for v in _deletes(kw.lower(), 2):
            idx.setdefault(v, set()).add(kw)
    return idx


@functools.lru_cache(maxsize=4096)
def _suggest(word: str, dialect: str) -> str | None:
    """The keyword of ``dialect`` a misspelt ``word`` most likely meant (same answer as
    :func:`closest` over the dialect's keywords, in near-constant time)."""
    if len(word) > 30:  # longer than every keyword by more than the edits allowed
        return None
    low = word.lower()
    limit = 1 if len(word) <= 4 else 2
    idx = _delete_index(dialect)
    candidates: set = set()
    for v in _deletes(low, limit):
        candidates |= idx.get(v, set())
    return closest(word, candidates) if candidates else None


@functools.lru_cache(maxsize=8)
def _accepted(dialect: str) -> frozenset:
    """Keys SCH103 never reports in ``dialect`` (extension keys aside)."""
    return KEYWORDS[dialect] | TOLERATED | OPENAPI


# ------------------------------------------------------------------ SCH103

@rule("SCH103", "unknown-keyword", severity=Severity.WARNING, scope="slot",
      fix_safety="unsafe", fix_note="renaming a misspelt keyword makes its constraint enforced",
      fix="Spell the keyword as its dialect defines it, or prefix an extension with x-")
def unknown_keyword(slot, ctx):
    """A schema uses a keyword its dialect does not define: usually a misspelling.

    ## What it does
    Reports every keyword of every subschema that the slot's dialect does not define. A near
    miss of a real keyword (`requried`, `additionalproperties`, `minLenght`) or a keyword of a
    different dialect (`prefixItems` under draft-07) is a warning naming the keyword meant; any
    other unknown keyword is info. Extension keywords (`x-...`, such as `x-mcp-header`) and
    annotations common in real tool schemas (`title`, `examples`, `deprecated`, `readOnly`,
    `$defs`, `$comment`, `contentMediaType`, ...) are never reported. OpenAPI keywords are SCH104's.

    ## Why is this bad?
    JSON Schema ignores keywords it does not know. A misspelt `requried` makes nothing required,
    a lower-case `additionalproperties: false` lets any extra argument through, and `minLenght`
    accepts the empty string: the schema reads as strict and enforces nothing, and no validator
    says a word.

    ## Example
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "requried": ["query"]}}
    ```

    ## Use instead
    ```json
    {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
      "required": ["query"]}}
    ```

    ## References
    JSON Schema 2020-12 Core §6.5 (unknown keywords are collected as annotations, not asserted);
    MCP 2025-11-25 basic/index "JSON Schema Usage".
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
    known = KEYWORDS[dialect]
    accepted = _accepted(dialect)
    if walk.keys <= accepted:  # the usual slot: every key of every subschema accepted
        return
    for ptr, node, _ in walk.nodes:
        if node.keys() <= accepted:  # every key a keyword of the dialect or tolerated: decided in C
            continue
        for kw in node:
            if kw in known or kw in TOLERATED or kw in OPENAPI or kw.startswith("x-") or kw.startswith("X-"):
                continue
            at = ptr / kw
            if kw in ALL_KEYWORDS:
                why = _REMOVED.get(kw) or f"it was added in {_INTRODUCED[kw]}"
                yield ctx.finding(at, f"`{kw}` is not a JSON Schema {dialect} keyword ({why}); validators of this "
                                      f"schema's dialect ignore it, so its constraint is not enforced",
                                  fix="Use the keyword of the schema's dialect, or declare the dialect that has it")
                continue
            guess = _suggest(kw, dialect)
            if guess == "required" and isinstance(node[kw], bool):
                yield ctx.finding(at, f"unknown keyword `{kw}`: a misspelt `required`, in its draft-3 boolean form; "
                                      "list the property's name in the parent object's `required` array instead",
                                  fix="Remove it and list the property in the parent's `required` array")
            elif guess and guess not in node:
                yield ctx.finding(at, f"unknown keyword `{kw}`: did you mean `{guess}`? Validators ignore unknown "
                                      "keywords, so this constraint is not enforced",
                                  fix=f"Rename `{kw}` to `{guess}`",
                                  patch=[{"op": "move", "from": str(at), "path": str(ptr / guess)}])
            else:
                yield ctx.finding(at, f"unknown keyword `{kw}` is not part of JSON Schema {dialect}; validators "
                                      "ignore it (name an extension `x-...` to say it is one)",
                                  severity=Severity.INFO)


# ------------------------------------------------------------------ SCH110

_FORMATS_DRAFT04 = frozenset({"date-time", "email", "hostname", "ipv4", "ipv6", "uri"})
_FORMATS_DRAFT06 = _FORMATS_DRAFT04 | {"uri-reference", "uri-template", "json-pointer"}
_FORMATS_DRAFT07 = _FORMATS_DRAFT06 | {"date", "time", "idn-email", "idn-hostname", "iri", "iri-reference",
                                      "relative-json-pointer", "regex"}
FORMATS = {  # the format attributes each dialect defines (its specification's "Defined Formats")
    "draft-04": _FORMATS_DRAFT04, "draft-06": _FORMATS_DRAFT06, "draft-07": _FORMATS_DRAFT07,
    "2019-09": _FORMATS_DRAFT07 | {"duration", "uuid"}, "2020-12": _FORMATS_DRAFT07 | {"duration", "uuid"},
}
# OpenAPI's own format names (a sign of a schema converted from an OpenAPI document)
_OPENAPI_FORMATS = frozenset({"int32", "int64", "float", "double", "byte", "binary", "password"})
# what JSON Schema says in place of each OpenAPI format (OpenAPI 3.1 §4.2, the OpenAPI Format Registry)
_OPENAPI_FIXES = {
    "int32": 'Remove the format, or bound the value with "minimum": -2147483648 and "maximum": 2147483647',
    "int64": 'Remove the format, or bound the value with "minimum" and "maximum" if its range matters',
    "float": 'Remove the format: "type": "number" already says it',
    "double": 'Remove the format: "type": "number" already says it',
    "byte": 'Replace it with "contentEncoding": "base64"',
    "binary": 'Say how the bytes are written as text: "contentEncoding": "base64" if they are base64, '
              'otherwise in the description',
    "password": 'Remove the format, and say in the description that the value is a secret',
}
# spellings seen for defined formats
_FORMAT_ALIASES = {"datetime": "date-time", "date_time": "date-time", "timestamp": "date-time", "url": "uri",
                   "e-mail": "email", "ip": "ipv4", "ipv4-address": "ipv4", "ipv6-address": "ipv6",
                   "host": "hostname", "guid": "uuid"}


@rule("SCH110", "unknown-format", severity=Severity.WARNING, scope="slot",
      fix="Use a format the dialect defines (date-time, date, time, duration, email, hostname, ipv4, ipv6, "
          "uri, uri-reference, uuid, ...) or state the constraint with `pattern`")
def unknown_format(slot, ctx):
    """A `format` value the schema's dialect does not define.

    ## What it does
    Reports a string `format` that is not one of the formats the dialect's specification defines
    (2020-12: `date-time`, `date`, `time`, `duration`, `email`, `idn-email`, `hostname`,
    `idn-hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference`, `iri`, `iri-reference`, `uuid`,
    `uri-template`, `json-pointer`, `relative-json-pointer`, `regex`; draft-07 lacks `duration`
    and `uuid`). The message names the defined format a misspelling most likely meant
    (`datetime`, `url`) and says when the name is an OpenAPI format (`int64`, `binary`).

    ## Why is this bad?
    A format no one defines constrains nothing: validators treat an unknown format as an
    annotation, so `"format": "datetime"` accepts any string. Decoders that enforce formats
    enforce only the ones they know, and some reject the schema outright on an unknown one.

    ## Example
    ```json
    {"name": "schedule", "inputSchema": {"type": "object",
     "properties": {"at": {"type": "string", "format": "datetime"}}}}
    ```

    ## Use instead
    ```json
    {"name": "schedule", "inputSchema": {"type": "object",
     "properties": {"at": {"type": "string", "format": "date-time"}}}}
    ```

    ## References
    JSON Schema 2020-12 Validation §7.3 (defined formats) and §7.2.3 (unknown formats are
    annotations); draft-07 Validation §7.3.
    """
    walk = slot_walk(slot, ctx)
    if walk is None:
        return
    dialect = walk.dialect
    if "format" not in walk.keys:
        return
    known = FORMATS.get(dialect, FORMATS["2020-12"])
    for ptr, node, _ in walk.nodes:
        if "format" not in node:
            continue
        fmt = node["format"]
        if not isinstance(fmt, str) or fmt in known:
            continue
        yield ctx.finding(ptr / "format", f"format {json.dumps(fmt)} is not a format JSON Schema {dialect} defines: "
                                          f"validators ignore it, so it constrains nothing{_format_hint(fmt, dialect)}",
                          fix=_OPENAPI_FIXES.get(fmt))


@functools.lru_cache(maxsize=256)
def _format_hint(fmt: str, dialect: str) -> str:
    known = FORMATS.get(dialect, FORMATS["2020-12"])
    meant = _FORMAT_ALIASES.get(fmt.lower()) or closest(fmt, known)
    if meant in known:
        return f"; did you mean {json.dumps(meant)}?"
    if fmt in _OPENAPI_FORMATS:
        return " (an OpenAPI format: JSON Schema states it with `type`, bounds or `contentEncoding`)"
    return ""
