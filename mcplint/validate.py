"""The validation gateway: check tool arguments and a ``CallToolResult`` against a tool's
full, un-projected schemas (JSON Structure MCP binding §8).

Public API (also exported lazily as ``mcplint.validate_arguments`` / ``mcplint.validate_result``)::

    problems = validate_arguments(tool, {"location": "Paris"})
    problems = validate_result(tool, call_tool_result, protocol_version="2026-07-28")
    if any(p.is_error for p in problems): ...

``tool`` is a Tool object as a dict (``name``, ``inputSchema``, ``outputSchema``...). Each
:class:`Problem` names a failing location as an RFC 6901 JSON Pointer *into the instance*
(the arguments object, or the result object: ``/structuredContent/0/email``), the keyword
that failed, a message, a severity, and a stable ``code`` saying which check it came from.

Dialects: ``$schema`` absent means JSON Schema 2020-12 (MCP's default); any dialect the
``jsonschema`` package implements (2020-12, 2019-09, draft-07, -06, -04) is honoured when
declared; a JSON Structure meta-schema URI dispatches to ``mcplint.jstruct`` when that module
is installed; anything else is reported, never silently read as 2020-12 (binding §3.2).

Safety (SEP-2106): nothing is ever fetched. References resolve inside the schema itself (and
the bundled JSON Schema meta-schemas); any other ``$ref`` is reported as "external $ref not
fetched", and validation of the rest goes on. Work is bounded: a per-validation time budget
(checked at every keyword and passed to each regular-expression match as a timeout), schema
size, and instance nesting depth. A bound that stops validation is itself a problem: an
instance is never reported valid when it was not fully checked.

The modules behind it: :mod:`mcplint.instance` (one value against one schema),
:mod:`mcplint.problems` (what is reported), :mod:`mcplint.jsonvalue` (JSON equality).
"""

from __future__ import annotations

import json
from typing import Any

from .instance import dialect_of, incomplete, time_budget, validate_instance
from .jsonvalue import json_equal, json_kind
from .problems import (ERROR, INCOMPLETE, INFO, INPUT_MISMATCH, MIRROR_MISMATCH, MIRROR_MISSING,  # noqa: F401
                       MISSING_STRUCTURED, OUTPUT_MISMATCH, RESULT_SHAPE, RESULT_TYPE, STRUCTURED_ERROR,
                       VERSION_FIELD, WARNING, Limits, Problem)
from .versions import LATEST, VERSIONS

__all__ = ["Problem", "Limits", "validate_arguments", "validate_result", "validate_instance",
           "json_equal", "dialect_of"]


# ------------------------------------------------------------------ tools: arguments and results

def _tool_schema(tool: Any, slot: str) -> tuple[bool, Any]:
    if not isinstance(tool, dict):
        raise TypeError(f"tool must be a Tool object (a dict), not {type(tool).__name__}")
    return (slot in tool), tool.get(slot)


def validate_arguments(tool: dict, args: Any, *, limits: Limits | None = None) -> list[Problem]:
    """Check a ``tools/call`` arguments value against the tool's full ``inputSchema``.
    Pointers are into ``args`` (``/items/0/id``); an empty list means valid."""
    present, schema = _tool_schema(tool, "inputSchema")
    if not present:
        return [incomplete((), "inputSchema", "the tool declares no inputSchema; the arguments were not validated")]
    try:
        return validate_instance(schema, args, code=INPUT_MISMATCH, schema_prefix=("inputSchema",), limits=limits,
                                 what="arguments object")
    except BaseException as e:
        return _panicked(e, "inputSchema", "arguments object")


def _panicked(e: BaseException, slot: str, what: str) -> list[Problem]:
    """A native library's panic (a ``BaseException``) while validating: a problem saying the
    value was not validated, never an exception through the caller's ``except Exception``."""
    from .errors import native_panic

    if not native_panic(e):
        raise e
    return [incomplete((), "schema", f"a native library failed on the {slot} ({type(e).__name__}: {str(e)[:200]}); "
                                     f"the {what} was not validated", (slot,))]


_result_schemas: dict = {}  # protocol version -> the official CallToolResult schema


def _result_schema(version: str):
    cached = _result_schemas.get(version)
    if cached is None:
        from importlib import resources

        text = resources.files("mcplint").joinpath("data", "mcp-results", f"{version}.json").read_text("utf-8")
        cached = json.loads(text)
        _result_schemas[version] = cached
    return cached


def validate_result(tool: dict, result: Any, protocol_version: str = LATEST, *,
                    limits: Limits | None = None) -> list[Problem]:
    """Check a ``CallToolResult`` for ``tool`` under one MCP protocol version.

    * the result's own shape against the official MCP schema of that version (``content``
      required, content blocks; ``resultType`` required in 2026-07-28);
    * result fields the version lacks (``structuredContent`` before 2025-06-18, a non-object
      ``structuredContent`` before 2026-07-28, ``resultType`` before 2026-07-28);
    * a successful result against the full ``outputSchema`` (an ``isError: true`` result
      need not match it);
    * the TextContent mirror: a text block holding the JSON serialization of the same value.

    Pointers are into ``result`` (``/structuredContent/0/email``).
    """
    if protocol_version not in VERSIONS:
        raise ValueError(f"unknown protocol version {protocol_version!r} (expected one of {', '.join(VERSIONS)})")
    limits = limits or Limits()
    has_output, output_schema = _tool_schema(tool, "outputSchema")
    try:
        with time_budget(limits.timeout):
            return _result(tool, result, protocol_version, has_output, output_schema, limits)
    except BaseException as e:
        return _panicked(e, "outputSchema", "result")


def _result(tool, result, version, has_output, output_schema, limits) -> list[Problem]:
    if not isinstance(result, dict):
        return [Problem((), "type", f"a CallToolResult must be an object, not {json_kind(result)}", ERROR, RESULT_SHAPE)]
    out: list[Problem] = []

    # 1. the result's own shape, per the official schema of the version
    for p in validate_instance(_result_schema(version), result, code=RESULT_SHAPE, limits=limits, what="result"):
        if p.keyword == "required" and not p.path and "'resultType'" in p.message:
            continue  # reported below with the MCP reason
        if p.keyword == "type" and p.path[:1] == ("structuredContent",):
            continue  # reported below as a version field
        out.append(Problem(p.path, p.keyword, p.message, p.severity, RESULT_SHAPE if p.code != INCOMPLETE else
                           INCOMPLETE))

    # 2. fields and their meaning per version
    has_sc = "structuredContent" in result
    sc = result.get("structuredContent")
    if version >= "2026-07-28":
        if "resultType" not in result:
            out.append(Problem((), "required", f"resultType is required on every result in MCP {version}; a tool "
                                               "result that completed carries resultType: \"complete\"",
                               ERROR, RESULT_TYPE))
        elif result["resultType"] != "complete":
            out.append(Problem(("resultType",), "const", f"resultType is {result['resultType']!r}: this is not a completed "
                                                       "tool result, so structuredContent and outputSchema do not apply",
                               WARNING, RESULT_TYPE))
    elif "resultType" in result:
        out.append(Problem(("resultType",), "resultType", f"resultType is not defined in MCP {version} (it is required from "
                                                        "2026-07-28); clients of this version ignore it",
                           WARNING, VERSION_FIELD))
    if has_sc and version < "2025-06-18":
        out.append(Problem(("structuredContent",), "structuredContent",
                           f"structuredContent is not defined in MCP {version} (it exists from 2025-06-18); clients of "
                           "this version ignore it, so the model sees only content", WARNING, VERSION_FIELD))
    elif has_sc and version < "2026-07-28" and not isinstance(sc, dict):
        out.append(Problem(("structuredContent",), "type",
                           f"structuredContent is {json_kind(sc)}, but MCP {version} allows only an object (any JSON value "
                           "from 2026-07-28)", ERROR, VERSION_FIELD))

    # 3. structuredContent against the full outputSchema
    is_error = result.get("isError") is True
    complete = result.get("resultType", "complete") == "complete"
    if is_error and has_sc:
        out.append(Problem(("structuredContent",), "isError", "an error result (isError: true) carries structuredContent; "
                                                            "it is not checked against outputSchema, and clients may "
                                                            "ignore it", INFO, STRUCTURED_ERROR))
    elif not is_error and complete and has_output and version >= "2025-06-18":
        if not has_sc:
            out.append(Problem((), "structuredContent", "the tool declares an outputSchema, so a successful result must "
                                                        "carry structuredContent that conforms to it (MCP 2025-06-18+)",
                               ERROR, MISSING_STRUCTURED))
        else:
            out += validate_instance(output_schema, sc, code=OUTPUT_MISMATCH, prefix=("structuredContent",),
                                     schema_prefix=("outputSchema",), limits=limits, what="structuredContent")

    # 4. the TextContent mirror
    if has_sc and not is_error and version >= "2025-06-18":
        bound = dialect_of(output_schema) == "json-structure" if has_output else False
        out += _mirror(result, sc, bound, limits)
    return out


def _mirror(result: dict, sc: Any, bound: bool, limits: Limits) -> list[Problem]:
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    json_blocks = []
    for i, block in enumerate(blocks):
        if not (isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)):
            continue
        text = block["text"]
        if len(text) > limits.max_text_bytes or text.strip()[:1] not in set('{["-0123456789tfn'):
            continue
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if json_equal(value, sc):
            return []
        if json_kind(value) == json_kind(sc):  # a JSON text of the same kind: meant as the mirror
            json_blocks.append(i)
    if json_blocks:
        i = json_blocks[0]
        why = ("the JSON Structure MCP binding §8 requires the mirror to hold the JSON serialization of the same value"
               if bound else "MCP asks for the serialized structuredContent in a TextContent block, and a client "
                             "without structured-content support shows the model this stale value")
        return [Problem(("content", i, "text"), "structuredContent",
                        f"content[{i}] holds JSON that is not the same value as structuredContent; {why}",
                        ERROR if bound else WARNING, MIRROR_MISMATCH)]
    if isinstance(sc, dict):
        return [Problem(("content",), "structuredContent",
                        "no TextContent block holds the serialized structuredContent; MCP (2025-06-18+) says a tool "
                        "returning structured content SHOULD also return it as JSON text for older clients",
                        INFO, MIRROR_MISSING)]
    return [Problem(("content",), "structuredContent",
                    f"structuredContent is {json_kind(sc)} and no TextContent block holds its JSON serialization; SEP-2106 "
                    "requires servers returning array or primitive structuredContent to mirror it as text so clients "
                    "that expect an object still get the value (the MCP spec page keeps this a SHOULD)",
                    WARNING, MIRROR_MISSING)]
