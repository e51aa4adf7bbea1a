"""The validation gateway: check tool arguments and a ``CallToolResult`` against a tool's
full, un-projected schemas (seed 003; JSON Structure MCP binding §8).

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
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from .model import Pointer
from .versions import LATEST, VERSIONS

__all__ = ["Problem", "Limits", "validate_arguments", "validate_result", "validate_instance",
           "json_equal", "dialect_of"]

ERROR, WARNING, INFO = "error", "warning", "info"

# Codes: which check a problem comes from (stable; the MCP3xx rules in mcplint/rules/mcp/ use them).
INPUT_MISMATCH = "input-mismatch"  # arguments do not match inputSchema
OUTPUT_MISMATCH = "output-mismatch"  # structuredContent does not match outputSchema
RESULT_SHAPE = "result-shape"  # the CallToolResult itself is malformed for the protocol version
RESULT_TYPE = "result-type"  # resultType missing / not "complete" where required
VERSION_FIELD = "version-field"  # a result field the protocol version lacks
MISSING_STRUCTURED = "missing-structured-content"  # success without structuredContent despite outputSchema
STRUCTURED_ERROR = "structured-error"  # isError: true carrying structuredContent
MIRROR_MISSING = "mirror-missing"  # no TextContent block with the serialized structuredContent
MIRROR_MISMATCH = "mirror-mismatch"  # a JSON text block that is not the same value
INCOMPLETE = "incomplete"  # validation could not be completed (external $ref, dialect, bounds...)

JSON_STRUCTURE_RE = re.compile(r"^https://json-structure\.org/meta/[A-Za-z0-9_-]+/v0/?#?$")
DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
    "http://json-schema.org/draft-06/schema": "draft-06",
    "http://json-schema.org/draft-04/schema": "draft-04",
}
DIALECT_NAMES = {"2020-12": "JSON Schema 2020-12", "2019-09": "JSON Schema 2019-09", "draft-07": "JSON Schema draft-07",
                 "draft-06": "JSON Schema draft-06", "draft-04": "JSON Schema draft-04",
                 "json-structure": "JSON Structure"}
MAX_MESSAGE = 400


@dataclass(frozen=True)
class Problem:
    """One failing location. ``pointer`` is an RFC 6901 JSON Pointer into the validated
    value (``""`` is its root); ``path`` is the same location as a tuple of keys/indices."""

    pointer: str
    keyword: str
    message: str
    severity: str = ERROR  # "error" | "warning" | "info"
    code: str = INPUT_MISMATCH
    path: tuple = ()
    schema_pointer: str | None = None  # where the failing keyword sits, e.g. "/outputSchema/items/required"

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> dict:
        return {"pointer": self.pointer, "keyword": self.keyword, "message": self.message,
                "severity": self.severity, "code": self.code, "schema_pointer": self.schema_pointer}


@dataclass(frozen=True)
class Limits:
    """Bounds on one validation (SEP-2106: bound depth, subschema count and time)."""

    timeout: float = 2.0  # seconds for the whole call
    max_instance_depth: int = 128  # nesting of arrays/objects in the validated value
    max_subschemas: int = 10_000  # subschemas in one schema
    max_text_bytes: int = 1 << 20  # a TextContent block larger than this is not parsed as a mirror


def pointer_str(path: Iterable) -> str:
    return str(Pointer(path))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


# ------------------------------------------------------------------ equality of JSON values

def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def json_equal(a: Any, b: Any) -> bool:
    """Equality of two JSON values as JSON sees them: ``1 == 1.0``, ``true != 1``, key order
    ignored. Iterative, so any depth is safe."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        kx, ky = _kind(x), _kind(y)
        if kx != ky:
            return False
        if kx == "array":
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif kx == "object":
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def _depth_exceeds(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > limit:
                return True
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


# ------------------------------------------------------------------ dialects

def dialect_of(schema: Any) -> str | None:
    """"2020-12", "draft-07", ..., "json-structure", or None for an unknown ``$schema``."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return "2020-12"
    uri = schema["$schema"]
    if not isinstance(uri, str):
        return None
    if JSON_STRUCTURE_RE.match(uri):
        return "json-structure"
    base = uri[:-1] if uri.endswith("#") else uri
    return DIALECTS.get(base)


class ExternalRefRefused(Exception):
    """Raised by the registry's retrieve function: mcplint never fetches a schema."""

    def __init__(self, uri: str):
        super().__init__(f"external $ref not fetched: {uri!r}")
        self.uri = uri


class _Timeout(Exception):
    pass


_state = threading.local()  # .deadline: time.monotonic() value after which validation stops
_classes: dict = {}


def _remaining() -> float:
    return _state.deadline - time.monotonic()


def _check_time() -> None:
    if time.monotonic() > _state.deadline:
        raise _Timeout()


def _guard(fn, keyword: str):
    """Wrap a keyword function: check the time budget and turn an unresolvable reference
    into a validation error at the reference instead of an exception that ends validation."""

    from jsonschema.exceptions import ValidationError
    from referencing.exceptions import Unresolvable

    def guarded(validator, value, instance, schema):
        _check_time()
        try:
            yield from fn(validator, value, instance, schema) or ()
        except Unresolvable as e:
            cause, uri = e, None
            while cause is not None:
                if isinstance(cause, ExternalRefRefused):
                    uri = cause.uri
                    break
                cause = cause.__cause__ or cause.__context__
            if uri is not None:
                msg = (f"external $ref not fetched: {uri!r}; mcplint never retrieves schemas, so this part "
                       "of the value was not validated (SEP-2106: an unresolved external $ref is rejected, "
                       "never treated as permissive)")
            else:
                msg = f"{keyword} {value!r} does not resolve inside the schema, so this part of the value was not validated"
            err = ValidationError(msg, validator=keyword, validator_value=value, instance=instance, schema=schema)
            err.incomplete = True
            yield err

    return guarded


def _pattern(validator, patrn, instance, schema):
    if not validator.is_type(instance, "string"):
        return
    from jsonschema.exceptions import ValidationError

    import regex

    try:
        found = _search(patrn, instance)
    except regex.error as e:
        err = ValidationError(f"pattern {patrn!r} is not a valid regular expression ({e}); the string was not "
                              "checked against it")
        err.incomplete = True
        yield err
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    from jsonschema.exceptions import ValidationError

    import regex

    for pattern, subschema in pattern_properties.items():
        for k, v in instance.items():
            try:
                found = _search(pattern, k)
            except regex.error as e:
                err = ValidationError(f"patternProperties key {pattern!r} is not a valid regular expression ({e}); "
                                      f"member {k!r} was not checked against it", path=(k,))
                err.incomplete = True
                yield err
                break
            if found:
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def _search(pattern: str, text: str) -> bool:
    """Regular-expression search bounded by the remaining time budget (the ``regex`` engine
    takes a timeout per match; Python's ``re`` cannot be interrupted from another thread)."""
    import regex

    try:
        return regex.search(pattern, text, timeout=max(_remaining(), 0.001)) is not None
    except TimeoutError:
        raise _Timeout() from None


def _validator_class(dialect: str):
    cls = _classes.get(dialect)
    if cls is None:
        from jsonschema import validators

        base = {"2020-12": validators.Draft202012Validator, "2019-09": validators.Draft201909Validator,
                "draft-07": validators.Draft7Validator, "draft-06": validators.Draft6Validator,
                "draft-04": validators.Draft4Validator}[dialect]
        fns = dict(base.VALIDATORS)
        if "pattern" in fns:
            fns["pattern"] = _pattern
        if "patternProperties" in fns:
            fns["patternProperties"] = _pattern_properties
        cls = validators.extend(base, {k: _guard(f, k) for k, f in fns.items()})
        _classes[dialect] = cls
    return cls


def _refuse(uri: str):
    raise ExternalRefRefused(uri)


def _registry():
    from referencing import Registry

    return Registry(retrieve=_refuse)  # type: ignore[call-arg]


# ------------------------------------------------------------------ core: one value, one schema

def validate_instance(schema: Any, instance: Any, *, code: str = INPUT_MISMATCH, prefix: tuple = (),
                      schema_prefix: tuple = (), limits: Limits | None = None,
                      what: str = "value") -> list[Problem]:
    """Validate ``instance`` against ``schema`` (any supported dialect). Pointers in the
    problems are ``prefix`` + the path inside ``instance``; ``schema_prefix`` is prepended to
    schema pointers. Never raises on bad schemas or pathological input: those are problems."""
    limits = limits or Limits()
    outer = getattr(_state, "deadline", None)
    if outer is None:
        _state.deadline = time.monotonic() + limits.timeout
    try:
        return _validate(schema, instance, code, tuple(prefix), tuple(schema_prefix), limits, what)
    finally:
        if outer is None:
            del _state.deadline


def _incomplete(prefix: tuple, keyword: str, message: str, schema_prefix: tuple = (),
                severity: str = ERROR) -> Problem:
    return Problem(pointer_str(prefix), keyword, _clip(message), severity, INCOMPLETE, prefix,
                   pointer_str(schema_prefix))


def _validate(schema, instance, code, prefix, schema_prefix, limits, what) -> list[Problem]:
    if not isinstance(schema, (dict, bool)):
        return [_incomplete(prefix, "type", f"the schema is a {_kind(schema)}, not a JSON Schema (an object or a "
                                            f"boolean); the {what} was not validated", schema_prefix)]
    dialect = dialect_of(schema)
    if dialect is None:
        return [_incomplete(prefix, "$schema", f"unsupported schema dialect {schema.get('$schema')!r}; the {what} was "
                                               "not validated (an unknown $schema is never read as JSON Schema "
                                               "2020-12: JSON Structure MCP binding §3.2)",
                            schema_prefix + ("$schema",))]
    if _depth_exceeds(instance, limits.max_instance_depth):
        return [_incomplete(prefix, "depth", f"the {what} nests deeper than {limits.max_instance_depth} levels; "
                                             "it was not validated (validation bound)", schema_prefix)]
    if dialect == "json-structure":
        return _json_structure(schema, instance, code, prefix, schema_prefix, what)

    from .schemawalk import subschemas

    count = 0
    for _ in subschemas(schema):
        count += 1
        if count > limits.max_subschemas:
            return [_incomplete(prefix, "schema", f"the schema has more than {limits.max_subschemas} subschemas; the "
                                                  f"{what} was not validated (validation bound)", schema_prefix)]
    cls = _validator_class(dialect)
    try:
        meta_error, validator = _compiled(cls, dialect, schema)
    except RecursionError:
        return [_incomplete(prefix, "schema", f"the schema nests too deeply to be checked; the {what} was not "
                                              "validated (validation bound)", schema_prefix)]
    except Exception as e:  # the validator library could not read the schema: say so, never a traceback
        return [_incomplete(prefix, "schema", f"the schema could not be read ({e}); the {what} was not validated",
                            schema_prefix)]
    if meta_error is not None:
        e = meta_error
        where = pointer_str(schema_prefix + tuple(e.absolute_path))
        return [_incomplete(prefix, "schema", f"the schema is not valid {DIALECT_NAMES[dialect]} at "
                                              f"{where or '/'}: {e.message}; the {what} was not validated",
                            schema_prefix + tuple(e.absolute_path))]
    problems: list[Problem] = []
    try:
        for err in validator.iter_errors(instance):
            problems += _problems(err, code, prefix, schema_prefix)
    except _Timeout:
        problems.append(_incomplete(prefix, "timeout", f"validation stopped after the time budget of "
                                                       f"{limits.timeout:g} s; the rest of the {what} was not "
                                                       "validated (SEP-2106 bound)", schema_prefix))
    except RecursionError:
        problems.append(_incomplete(prefix, "$ref", "validation recursed too deeply (a $ref cycle that never consumes the "
                                                    f"value, or a very deep value); the {what} could not be validated", schema_prefix))
    except Exception as e:  # a bad pattern, an unknown type name...: say so, never a traceback
        problems.append(_incomplete(prefix, "schema", f"the schema could not be applied ({type(e).__name__}: {e}); "
                                                      f"the {what} was not validated", schema_prefix))
    return problems


_compiled_cache: dict = {}


def _compiled(cls, dialect: str, schema):
    """(meta-schema error or None, validator), cached by the schema's canonical text: the
    same tool schema is checked once however many values are validated against it."""
    try:
        key = (dialect, json.dumps(schema, sort_keys=True, separators=(",", ":")))
    except (TypeError, ValueError, RecursionError):
        key = None
    hit = _compiled_cache.get(key) if key is not None else None
    if hit is None:
        meta = _meta_error(cls, schema)  # an invalid schema may not even construct (a non-string $id)
        hit = (meta, cls(schema, registry=_registry()) if meta is None else None)
        if key is not None:
            if len(_compiled_cache) >= 512:
                _compiled_cache.clear()
            _compiled_cache[key] = hit
    return hit


def _meta_error(cls, schema):
    """The most relevant meta-schema error, or None. Formats are not asserted here: a
    ``pattern`` is checked by the regex engine that runs it, not by Python's ``re``."""
    from jsonschema.exceptions import best_match
    from jsonschema.validators import validator_for

    meta = validator_for(cls.META_SCHEMA, default=cls)
    return best_match(meta(cls.META_SCHEMA).iter_errors(schema))


def _problems(err, code: str, prefix: tuple, schema_prefix: tuple) -> list[Problem]:
    out = []
    for e in _expand(err):
        path = prefix + tuple(e.absolute_path)
        keyword = e.validator if isinstance(e.validator, str) else "false"
        c = INCOMPLETE if getattr(e, "incomplete", False) else code
        out.append(Problem(pointer_str(path), keyword, _clip(e.message), ERROR, c, path,
                           pointer_str(schema_prefix + tuple(e.absolute_schema_path))))
    return out


def _expand(err) -> list:
    """For anyOf/oneOf over tagged shapes (content blocks: ``type: "text"`` ...), report the
    errors of the one branch whose tag matched instead of "is not valid under any of the
    given schemas"."""
    if err.validator not in ("anyOf", "oneOf") or not err.context:
        return [err]
    branches: dict = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
    if len(branches) < 2:
        return [err]

    def tag_failed(errs) -> bool:
        return any(e.validator in ("const", "enum") and list(e.relative_path) == ["type"] for e in errs) or \
            any(e.validator == "type" and not e.relative_path for e in errs)

    matched = [errs for errs in branches.values() if not tag_failed(errs)]
    if not matched and isinstance(err.instance, dict) and "type" in err.instance:
        tags = sorted({str(v) for errs in branches.values() for e in errs if list(e.relative_path) == ["type"]
                       for v in ([e.validator_value] if e.validator == "const" else
                                 e.validator_value if e.validator == "enum" else [])})
        if tags:
            err.message = f"unknown type {err.instance['type']!r} (expected one of: {', '.join(tags)})"
    if len(matched) != 1:
        return [err]
    return [x for e in matched[0] for x in _expand(e)]


def _json_structure(schema, instance, code, prefix, schema_prefix, what) -> list[Problem]:
    try:
        from . import jstruct  # type: ignore[attr-defined]

        fn = jstruct.validate_instance
    except (ImportError, AttributeError):
        return [_incomplete(prefix, "$schema", f"the schema is a JSON Structure schema ({schema.get('$schema')}) and "
                                               "JSON Structure validation is not available in this mcplint; the "
                                               f"{what} was NOT validated", schema_prefix + ("$schema",))]
    try:
        found = fn(schema, instance)
    except Exception as e:
        return [_incomplete(prefix, "$schema", f"JSON Structure validation failed ({type(e).__name__}: {e}); the "
                                               f"{what} was not validated", schema_prefix)]
    out = []
    for ptr, keyword, message in found:
        path = prefix + tuple(ptr)
        out.append(Problem(pointer_str(path), str(keyword), _clip(str(message)), ERROR, code, path, None))
    return out


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
        return [_incomplete((), "inputSchema", "the tool declares no inputSchema; the arguments were not validated")]
    return validate_instance(schema, args, code=INPUT_MISMATCH, schema_prefix=("inputSchema",), limits=limits,
                             what="arguments object")


def _result_schema(version: str):
    cached = _classes.get(("result", version))
    if cached is None:
        from importlib import resources

        text = resources.files("mcplint").joinpath("data", "mcp-results", f"{version}.json").read_text("utf-8")
        cached = json.loads(text)
        _classes[("result", version)] = cached
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
    outer = getattr(_state, "deadline", None)
    if outer is None:
        _state.deadline = time.monotonic() + limits.timeout
    try:
        return _result(tool, result, protocol_version, has_output, output_schema, limits)
    finally:
        if outer is None:
            del _state.deadline


def _result(tool, result, version, has_output, output_schema, limits) -> list[Problem]:
    if not isinstance(result, dict):
        return [Problem("", "type", f"a CallToolResult must be an object, not {_kind(result)}", ERROR, RESULT_SHAPE)]
    out: list[Problem] = []

    # 1. the result's own shape, per the official schema of the version
    for p in validate_instance(_result_schema(version), result, code=RESULT_SHAPE, limits=limits, what="result"):
        if p.keyword == "required" and not p.path and "'resultType'" in p.message:
            continue  # reported below with the MCP reason
        if p.keyword == "type" and p.path[:1] == ("structuredContent",):
            continue  # reported below as a version field
        out.append(Problem(p.pointer, p.keyword, p.message, p.severity, RESULT_SHAPE if p.code != INCOMPLETE else
                           INCOMPLETE, p.path, None))

    # 2. fields and their meaning per version
    has_sc = "structuredContent" in result
    sc = result.get("structuredContent")
    if version >= "2026-07-28":
        if "resultType" not in result:
            out.append(Problem("", "required", f"resultType is required on every result in MCP {version}; a tool "
                                               "result that completed carries resultType: \"complete\"",
                               ERROR, RESULT_TYPE))
        elif result["resultType"] != "complete":
            out.append(Problem("/resultType", "const", f"resultType is {result['resultType']!r}: this is not a completed "
                                                       "tool result, so structuredContent and outputSchema do not apply",
                               WARNING, RESULT_TYPE, ("resultType",)))
    elif "resultType" in result:
        out.append(Problem("/resultType", "resultType", f"resultType is not defined in MCP {version} (it is required from "
                                                        "2026-07-28); clients of this version ignore it",
                           WARNING, VERSION_FIELD, ("resultType",)))
    if has_sc and version < "2025-06-18":
        out.append(Problem("/structuredContent", "structuredContent",
                           f"structuredContent is not defined in MCP {version} (it exists from 2025-06-18); clients of "
                           "this version ignore it, so the model sees only content", WARNING, VERSION_FIELD,
                           ("structuredContent",)))
    elif has_sc and version < "2026-07-28" and not isinstance(sc, dict):
        out.append(Problem("/structuredContent", "type",
                           f"structuredContent is {_kind(sc)}, but MCP {version} allows only an object (any JSON value "
                           "from 2026-07-28)", ERROR, VERSION_FIELD, ("structuredContent",)))

    # 3. structuredContent against the full outputSchema
    is_error = result.get("isError") is True
    complete = result.get("resultType", "complete") == "complete"
    if is_error and has_sc:
        out.append(Problem("/structuredContent", "isError", "an error result (isError: true) carries structuredContent; "
                                                            "it is not checked against outputSchema, and clients may "
                                                            "ignore it", INFO, STRUCTURED_ERROR, ("structuredContent",)))
    elif not is_error and complete and has_output and version >= "2025-06-18":
        if not has_sc:
            out.append(Problem("", "structuredContent", "the tool declares an outputSchema, so a successful result must "
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
        if _kind(value) == _kind(sc):  # a JSON text of the same kind: meant as the mirror
            json_blocks.append(i)
    if json_blocks:
        i = json_blocks[0]
        why = ("the JSON Structure MCP binding §8 requires the mirror to hold the JSON serialization of the same value"
               if bound else "MCP asks for the serialized structuredContent in a TextContent block, and a client "
                             "without structured-content support shows the model this stale value")
        return [Problem(pointer_str(("content", i, "text")), "structuredContent",
                        f"content[{i}] holds JSON that is not the same value as structuredContent; {why}",
                        ERROR if bound else WARNING, MIRROR_MISMATCH, ("content", i, "text"))]
    if isinstance(sc, dict):
        return [Problem("/content", "structuredContent",
                        "no TextContent block holds the serialized structuredContent; MCP (2025-06-18+) says a tool "
                        "returning structured content SHOULD also return it as JSON text for older clients",
                        INFO, MIRROR_MISSING, ("content",))]
    return [Problem("/content", "structuredContent",
                    f"structuredContent is {_kind(sc)} and no TextContent block holds its JSON serialization; SEP-2106 "
                    "requires servers returning array or primitive structuredContent to mirror it as text so clients "
                    "that expect an object still get the value (the MCP spec page keeps this a SHOULD)",
                    WARNING, MIRROR_MISSING, ("content",))]
