"""Validate one value against one schema (JSON Schema 2020-12, 2019-09, draft-07, -06, -04, or a
JSON Structure schema through ``mcplint.jstruct``), never fetching anything and within the
bounds of :class:`~mcplint.problems.Limits`: how the engine is compiled and guarded (time
budget at every keyword, every regular expression an ECMA-262 match within that budget
(:mod:`mcplint.ecma`), unresolvable references as problems), and how its errors become :class:`~mcplint.problems.Problem`s."""

from __future__ import annotations

import json
import re
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator, NamedTuple

from .dialects import DEFAULT, JSON_SCHEMA_URIS, JSON_STRUCTURE
from .errors import unlink_validation_errors
from .jsonvalue import depth_exceeds, json_kind
from .problems import ERROR, INCOMPLETE, INPUT_MISMATCH, Limits, Problem, clip, pointer_str
from .schemawalk import subschemas

# Any JSON Structure meta-schema URI (not only those dialects.JSON_STRUCTURE_URIS lists) is sent
# to mcplint.jstruct, which says whether it knows it.
JSON_STRUCTURE_RE = re.compile(r"^https://json-structure\.org/meta/[A-Za-z0-9_-]+/v0/?#?$")
DIALECT_NAMES = {"2020-12": "JSON Schema 2020-12", "2019-09": "JSON Schema 2019-09", "draft-07": "JSON Schema draft-07",
                 "draft-06": "JSON Schema draft-06", "draft-04": "JSON Schema draft-04",
                 "json-structure": "JSON Structure"}


# ------------------------------------------------------------------ dialects

def dialect_of(schema: Any) -> str | None:
    """"2020-12", "draft-07", ..., "json-structure", or None for an unknown ``$schema``."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return DEFAULT
    uri = schema["$schema"]
    if not isinstance(uri, str):
        return None
    if JSON_STRUCTURE_RE.match(uri):
        return JSON_STRUCTURE
    base = uri[:-1] if uri.endswith("#") else uri
    return JSON_SCHEMA_URIS.get(base)


class ExternalRefRefused(Exception):
    """Raised by the registry's retrieve function: mcplint never fetches a schema."""

    def __init__(self, uri: str):
        super().__init__(f"external $ref not fetched: {uri!r}")
        self.uri = uri


class _Timeout(Exception):
    pass


_state = threading.local()  # .deadline, a value of .clock after which validation stops; .cpu
_classes: dict = {}


@contextmanager
def time_budget(timeout: float, cpu: bool = False) -> Iterator[None]:
    """Start the clock for one validation of ``timeout`` seconds, unless one already runs (a
    result's checks share one budget with the values inside it). ``cpu``: seconds of CPU time
    (this thread's, and the pattern helper's for its matches) rather than of the clock, so that
    a loaded machine reaches the same verdicts (a lint's value checks); else of the clock (a
    validation's latency bound)."""
    outer = getattr(_state, "deadline", None)
    if outer is None:
        _state.clock = time.thread_time if cpu else time.monotonic
        _state.cpu = cpu
        _state.deadline = _state.clock() + timeout
    try:
        yield
    finally:
        if outer is None:
            del _state.deadline


def remaining() -> float:
    """Seconds left of the running budget (of its clock: see :func:`time_budget`)."""
    return _state.deadline - _state.clock()


def _check_time() -> None:
    if _state.clock() > _state.deadline:
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

    from .ecma import PatternError, PatternTooComplex

    try:
        found = _search_all([(patrn, instance)])[0]
    except PatternError as e:
        what = f"is not matched: {e}" if isinstance(e, PatternTooComplex) else \
            f"is not a valid ECMA-262 regular expression ({e})"
        err = ValidationError(f"pattern {patrn!r} {what}; the string was not checked against it")
        err.incomplete = True
        yield err
        return
    if not found:
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _bad_patterns(patterns) -> dict:
    """{pattern: why it is not matched} for the patterns that are invalid or nest their counted
    repetitions too deep to match (mcplint.ecma.too_complex)."""
    from .ecma import check, too_complex

    out = {}
    for p in patterns:
        why = check(p)
        if why is not None:
            out[p] = f"is not a valid ECMA-262 regular expression ({why})"
        elif (why := too_complex(p)) is not None:
            out[p] = f"is not matched: {why}"
    return out


def _pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    from jsonschema.exceptions import ValidationError

    bad = _bad_patterns(pattern_properties)
    for pattern, why in bad.items():
        err = ValidationError(f"patternProperties key {pattern!r} {why}; "
                              "the members were not checked against it")
        err.incomplete = True
        yield err
    good = [p for p in pattern_properties if p not in bad]
    pairs = [(p, k) for p in good for k in instance]
    found = iter(_search_all(pairs))
    for pattern in good:
        for k in instance:
            if next(found):
                yield from validator.descend(instance[k], pattern_properties[pattern], path=k, schema_path=pattern)


def _additional_properties(validator, aP, instance, schema):
    """jsonschema's additionalProperties, with patternProperties keys matched as ECMA-262 and
    one at a time (jsonschema joins them into one expression for Python's ``re``)."""
    if not validator.is_type(instance, "object"):
        return
    from jsonschema._utils import extras_msg
    from jsonschema.exceptions import ValidationError

    properties = schema.get("properties", {})
    patterns = [p for p in schema.get("patternProperties", {}) if p not in _bad_patterns(schema["patternProperties"])]
    candidates = [k for k in instance if k not in properties]
    found = iter(_search_all([(p, k) for k in candidates for p in patterns]))
    extras = [k for k in candidates if not any([next(found) for _ in patterns])]
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            pats = ", ".join(repr(each) for each in sorted(schema["patternProperties"]))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {pats}")
        else:
            yield ValidationError("Additional properties are not allowed (%s %s unexpected)"
                                  % extras_msg(sorted(extras, key=str)))


def _search_all(pairs: list) -> list:
    """ECMA-262 matches within the remaining time budget (run in mcplint.ecma's helper process,
    which is stopped when the budget runs out: a backtracking match cannot be interrupted here)."""
    from .ecma import MatchTimeout, search_all, search_within, start_helper

    if not pairs:
        return []
    _check_time()
    try:
        if _state.cpu:  # the helper's CPU seconds are charged to the budget
            found, used = search_within(pairs, remaining())
            _state.deadline -= used
            return found
        _state.deadline += start_helper()  # (starting the helper is not matching: see mcplint.ecma)
        return search_all(pairs, _state.deadline)
    except MatchTimeout:
        raise _Timeout() from None


class _EcmaRe:
    """Stands for the ``re`` module inside jsonschema's helpers for unevaluatedProperties (which
    match patternProperties keys themselves): during an mcplint validation (a time budget is set in
    this thread) ``search`` is an ECMA-262 match within the budget; otherwise, and for everything
    else, it is Python's ``re``, so other users of jsonschema in the process see no change."""

    def __init__(self, real):
        self._real = real

    def search(self, pattern, string, *args, **kwargs):
        if getattr(_state, "deadline", None) is None or args or kwargs or not isinstance(pattern, str):
            return self._real.search(pattern, string, *args, **kwargs)
        return True if _search_all([(pattern, string)])[0] else None

    def __getattr__(self, name):
        return getattr(self._real, name)


def _install_ecma_re() -> None:
    import jsonschema._legacy_keywords as legacy
    import jsonschema._utils as utils

    for module in (utils, legacy):
        if not isinstance(getattr(module, "re", None), _EcmaRe):
            module.re = _EcmaRe(re)


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
        if "additionalProperties" in fns:
            fns["additionalProperties"] = _additional_properties
        _install_ecma_re()  # unevaluatedProperties matches patternProperties keys in jsonschema's helpers
        cls = validators.extend(base, {k: _guard(f, k) for k, f in fns.items()})
        _classes[dialect] = cls
    return cls


def ecma_validator_class(dialect: str):
    """The jsonschema validator class of ``dialect`` with mcplint's keyword functions: every
    pattern an ECMA-262 match within the time budget of :func:`time_budget` (which must be running
    while it validates), an unresolvable reference an error marked ``incomplete``."""
    return _validator_class(dialect)


def _refuse(uri: str):
    raise ExternalRefRefused(uri)


def _registry():
    from referencing import Registry

    return Registry(retrieve=_refuse)  # type: ignore[call-arg]


# ------------------------------------------------------------------ one value, one schema

def validate_instance(schema: Any, instance: Any, *, code: str = INPUT_MISMATCH, prefix: tuple = (),
                      schema_prefix: tuple = (), limits: Limits | None = None,
                      what: str = "value") -> list[Problem]:
    """Validate ``instance`` against ``schema`` (any supported dialect). Pointers in the
    problems are ``prefix`` + the path inside ``instance``; ``schema_prefix`` is prepended to
    schema pointers. Never raises on bad schemas or pathological input: those are problems."""
    limits = limits or Limits()
    with time_budget(limits.timeout):
        return _validate(schema, instance, code, tuple(prefix), tuple(schema_prefix), limits, what)


def incomplete(prefix: tuple, keyword: str, message: str, schema_prefix: tuple = (),
                severity: str = ERROR) -> Problem:
    return Problem(prefix, keyword, clip(message), severity, INCOMPLETE, pointer_str(schema_prefix))


def _validate(schema, instance, code, prefix, schema_prefix, limits, what) -> list[Problem]:
    if not isinstance(schema, (dict, bool)):
        return [incomplete(prefix, "type", f"the schema is a {json_kind(schema)}, not a JSON Schema (an object or a "
                                            f"boolean); the {what} was not validated", schema_prefix)]
    dialect = dialect_of(schema)
    if dialect is None:
        return [incomplete(prefix, "$schema", f"unsupported schema dialect {schema.get('$schema')!r}; the {what} was "
                                               "not validated (an unknown $schema is never read as JSON Schema "
                                               "2020-12: JSON Structure MCP binding §3.2)",
                            schema_prefix + ("$schema",))]
    if depth_exceeds(instance, limits.max_instance_depth):
        return [incomplete(prefix, "depth", f"the {what} nests deeper than {limits.max_instance_depth} levels; "
                                             "it was not validated (validation bound)", schema_prefix)]
    if dialect == "json-structure":
        return _json_structure(schema, instance, code, prefix, schema_prefix, what)

    count = 0
    for _ in subschemas(schema):
        count += 1
        if count > limits.max_subschemas:
            return [incomplete(prefix, "schema", f"the schema has more than {limits.max_subschemas} subschemas; the "
                                                  f"{what} was not validated (validation bound)", schema_prefix)]
    cls = _validator_class(dialect)
    try:
        meta_error, validator = _compiled(cls, dialect, schema)
    except RecursionError:
        return [incomplete(prefix, "schema", f"the schema nests too deeply to be checked; the {what} was not "
                                              "validated (validation bound)", schema_prefix)]
    except Exception as e:  # the validator library could not read the schema: say so, never a traceback
        return [incomplete(prefix, "schema", f"the schema could not be read ({e}); the {what} was not validated",
                            schema_prefix)]
    if meta_error is not None:
        e = meta_error
        where = pointer_str(schema_prefix + tuple(e.absolute_path))
        return [incomplete(prefix, "schema", f"the schema is not valid {DIALECT_NAMES[dialect]} at "
                                              f"{where or '/'}: {e.message}; the {what} was not validated",
                            schema_prefix + tuple(e.absolute_path))]
    problems: list[Problem] = []
    try:
        for err in validator.iter_errors(instance):
            problems += _problems(err, code, prefix, schema_prefix)
            unlink_validation_errors((err,))
    except _Timeout:
        problems.append(incomplete(prefix, "timeout", f"validation stopped after the time budget of "
                                                       f"{limits.timeout:g} s; the rest of the {what} was not "
                                                       "validated (SEP-2106 bound)", schema_prefix))
    except RecursionError:
        problems.append(incomplete(prefix, "$ref", "validation recursed too deeply (a $ref cycle that never consumes the "
                                                    f"value, or a very deep value); the {what} could not be validated", schema_prefix))
    except Exception as e:  # a bad pattern, an unknown type name...: say so, never a traceback
        problems.append(incomplete(prefix, "schema", f"the schema could not be applied ({type(e).__name__}: {e}); "
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
    errors = list(meta(cls.META_SCHEMA).iter_errors(schema))
    best = best_match(errors)
    found = None if best is None else MetaSchemaError(tuple(best.absolute_path), best.message)
    unlink_validation_errors(errors)
    return found


class MetaSchemaError(NamedTuple):
    """Where a schema breaks its meta-schema, and jsonschema's words for it."""
    absolute_path: tuple
    message: str


def _problems(err, code: str, prefix: tuple, schema_prefix: tuple) -> list[Problem]:
    out = []
    for e in _expand(err):
        path = prefix + tuple(e.absolute_path)
        keyword = e.validator if isinstance(e.validator, str) else "false"
        c = INCOMPLETE if getattr(e, "incomplete", False) else code
        out.append(Problem(path, keyword, clip(e.message), ERROR, c,
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
        return [incomplete(prefix, "$schema", f"the schema is a JSON Structure schema ({schema.get('$schema')}) and "
                                               "JSON Structure validation is not available in this mcplint; the "
                                               f"{what} was NOT validated", schema_prefix + ("$schema",))]
    try:
        found = fn(schema, instance)
    except Exception as e:
        return [incomplete(prefix, "$schema", f"JSON Structure validation failed ({type(e).__name__}: {e}); the "
                                               f"{what} was not validated", schema_prefix)]
    out = []
    for ptr, keyword, message in found:
        path = prefix + tuple(ptr)
        out.append(Problem(path, str(keyword), clip(str(message)), ERROR, code))
    return out
