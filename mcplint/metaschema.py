"""The JSON Schema validation engine behind the SCH rules: meta-schema checks of a slot, and
checks of values (``default``, ``enum``, ...) against the subschema that holds them.

Two interchangeable engines give the same results (``tests/rules/schema_validity/test_engines.py`` proves it
over the corpus and generated schemas):

* ``rs``: ``jsonschema-rs`` (Rust), the default: >100x faster than the pure-Python engine.
* ``python``: ``jsonschema``, used when ``jsonschema-rs`` is not installed, or when the
  environment variable ``MCPLINT_SCHEMA_ENGINE=python`` asks for it.

Neither ever retrieves anything: every meta-schema is built into the engine, and a reference
to anything else is answered by a retriever that refuses (meta-schemas) or by an empty stand-in
that is never consulted (value checks skip any subschema that reaches an external reference).
Both engines and their compiled meta-schema validators are imported and built lazily, once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from .dialects import CANONICAL
from .model import Pointer
from .refs import REF_KEYWORDS
from .schemawalk import UNSHARED, Walks

ENGINES = ("rs", "python")


class RetrievalRefused(Exception):
    pass


def _refuse(uri: str):
    raise RetrievalRefused(f"mcplint never retrieves {uri!r}")


def _stand_in(uri: str):
    # Value checks compile a whole slot; a subschema that reaches an external reference is
    # skipped before it is validated, so this stand-in is never consulted (and nothing is fetched).
    return {}


_engine: str | None = None


def engine() -> str:
    """The engine in use: ``MCPLINT_SCHEMA_ENGINE`` if set, else ``rs`` when importable."""
    global _engine
    if _engine is None:
        wanted = os.environ.get("MCPLINT_SCHEMA_ENGINE", "").strip().lower()
        if wanted in ENGINES:
            _engine = wanted
        else:
            try:
                import jsonschema_rs  # noqa: F401
                _engine = "rs"
            except ImportError:  # pragma: no cover - depends on the installation
                _engine = "python"
    return _engine


@dataclass(frozen=True)
class MetaError:
    """One meta-schema violation: where in the schema (relative pointer), which meta-schema
    keyword failed, and the keyword's expectation where it has a simple one."""

    path: tuple
    keyword: str
    expected: Any = None  # type: list of type names; minimum/minItems: the limit; enum: options


# ------------------------------------------------------------------ meta-schema checks

_rs_meta: dict = {}
_py_meta: dict = {}


def _rs_meta_validator(dialect: str):
    v = _rs_meta.get(dialect)
    if v is None:
        import jsonschema_rs

        uri = CANONICAL[dialect]
        # A reference to the dialect's own meta-schema: resolved from the engine's built-in copy.
        v = jsonschema_rs.validator_for({"$schema": uri, "$ref": uri}, retriever=_refuse, validate_formats=False)
        _rs_meta[dialect] = v
    return v


_PY_CLASSES = {"2020-12": "Draft202012Validator", "2019-09": "Draft201909Validator",
               "draft-07": "Draft7Validator", "draft-06": "Draft6Validator", "draft-04": "Draft4Validator"}


def _py_meta_validator(dialect: str):
    v = _py_meta.get(dialect)
    if v is None:
        import jsonschema

        cls = getattr(jsonschema, _PY_CLASSES[dialect])
        v = cls(cls.META_SCHEMA)  # its registry holds every meta-schema; nothing is retrieved
        _py_meta[dialect] = v
    return v


def _rs_expected(kind) -> Any:
    name = kind.name
    if name == "type":
        return list(kind.types)
    if name in ("minimum", "minItems", "minLength", "maximum", "maxItems", "maxLength"):
        return kind.limit
    if name == "enum":
        return list(kind.options) if hasattr(kind, "options") else None
    return None


def is_valid(schema: Any, dialect: str) -> bool:
    """Whether ``schema`` is valid under its dialect's meta-schema, by the engine in use."""
    if engine() == "rs":
        return _rs_meta_validator(dialect).is_valid(schema)
    return _py_meta_validator(dialect).is_valid(schema)


def meta_errors(schema: Any, dialect: str, engine_name: str | None = None) -> list[MetaError]:
    """Every top-level meta-schema error of ``schema`` under ``dialect``, document order aside."""
    eng = engine_name or engine()
    out: list[MetaError] = []
    if eng == "rs":
        v = _rs_meta_validator(dialect)
        if v.is_valid(schema):  # the usual answer, found faster than by listing no errors
            return out
        for e in v.iter_errors(schema):
            out.append(MetaError(tuple(e.instance_path), e.kind.name, _rs_expected(e.kind)))
    else:
        out = meta_errors_from_py(_py_meta_validator(dialect).iter_errors(schema))
    return out


def meta_errors_from_py(errors) -> list[MetaError]:
    out = []
    for e in errors:
        kw = e.validator
        expected = None
        if kw == "type":
            expected = [e.validator_value] if isinstance(e.validator_value, str) else list(e.validator_value)
        elif kw in ("minimum", "minItems", "minLength", "maximum", "maxItems", "maxLength"):
            expected = e.validator_value
        elif kw == "enum":
            expected = list(e.validator_value)
        out.append(MetaError(tuple(e.absolute_path), kw, expected))
    return out


# ------------------------------------------------------------------ value checks

_SIMPLE = frozenset({"type", "enum", "const", "title", "description", "default", "examples", "deprecated",
                     "readOnly", "writeOnly", "$comment", "format"})
_TYPES = {"null", "boolean", "object", "array", "number", "string", "integer"}


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema defines it: 1 == 1.0, but true != 1."""
    ta = type(a)
    if ta is type(b) and (ta is str or ta is int or ta is float or a is None):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _has_type(value: Any, t: str) -> bool | None:
    if t == "null":
        return value is None
    if t == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if t == "integer":
        if isinstance(value, float) and value.is_integer():
            return None  # dialects disagree (draft-04 says no): leave it to the engine
        return isinstance(value, int)
    if t == "number":
        return isinstance(value, (int, float))
    if t == "string":
        return isinstance(value, str)
    if t == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def _scalar_key(v: Any) -> tuple | None:
    """A hashable key under which scalars are equal exactly when :func:`json_equal` says so."""
    t = type(v)
    if t is bool:
        return ("b", v)
    if t is int or t is float:
        return ("n", v)
    if t is str:
        return ("s", v)
    if v is None:
        return ("z", None)
    return None


def enum_keys(members: list) -> frozenset:
    """The scalar members of an enum as :func:`_scalar_key` keys (a scalar never equals an array
    or an object, so those members need not be looked at for a scalar value)."""
    return frozenset(k for k in map(_scalar_key, members) if k is not None)


class SimplePlan:
    """What a subschema whose only assertions are type/enum/const (and, for value checks, numeric
    bounds and string lengths) asserts, read once, so that checking many values against it (every
    member of an enum) costs a few lookups each."""

    __slots__ = ("types", "enum", "keys", "has_const", "const", "bounds")

    def __init__(self, types, enum, keys, has_const, const, bounds=()):
        self.types, self.enum, self.keys, self.has_const, self.const = types, enum, keys, has_const, const
        self.bounds = bounds  # ((keyword, limit), ...): see _bounds

    def errors(self, value: Any) -> list[str] | None:
        out = self._errors(value)
        if not self.bounds or out is None:
            return out
        failed = _bound_failures(self.bounds, value)
        if failed is None:
            return None
        if not failed:
            return out
        # more than one keyword failed: which the engine names first is its own business
        return failed if not out and len(failed) == 1 else None

    def _errors(self, value: Any) -> list[str] | None:
        """The keywords ``value`` fails (empty when valid); None when only an engine can tell."""
        out = []
        if self.types is not None:
            verdicts = [_has_type(value, t) for t in self.types]
            if True not in verdicts:
                if None in verdicts:
                    return None
                out.append("type")
        try:
            if self.enum is not None:
                key = _scalar_key(value) if self.keys is not None else None
                if key is not None:
                    if key not in self.keys:
                        out.append("enum")
                elif not any(json_equal(value, e) for e in self.enum):
                    out.append("enum")
            if self.has_const and not json_equal(value, self.const):
                out.append("const")
        except RecursionError:  # absurdly deep data: leave it to the engine
            return None
        return out


def simple_plan(node: dict, index_enum: bool = True) -> SimplePlan | None:
    """The :class:`SimplePlan` of a node whose only assertions are type/enum/const, or None when
    the node asserts anything else (or something malformed). ``index_enum``: look enum members
    up by :func:`enum_keys` (worth it when many values are checked, or the enum is long)."""
    for k in node:
        if k not in _SIMPLE and not k.startswith("x-"):
            return None
    types = None
    if "type" in node:
        t = node["type"]
        types = [t] if isinstance(t, str) else t
        if not isinstance(types, list) or not types or not all(isinstance(x, str) and x in _TYPES for x in types):
            return None
    enum = keys = None
    if "enum" in node:
        enum = node["enum"]
        if not isinstance(enum, list):
            return None
        if index_enum:
            keys = enum_keys(enum)
    has_const = "const" in node
    return SimplePlan(types, enum, keys, has_const, node.get("const"))


_ANNOTATIONS = _SIMPLE - {"type", "enum", "const"}
_NUMBER_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_LENGTH_BOUNDS = frozenset({"minLength", "maxLength"})
_BOUNDS = _NUMBER_BOUNDS | _LENGTH_BOUNDS
_EXACT = 2 ** 53  # integers beyond this may compare differently once an engine makes them floats


def _bounds(node: dict, dialect: str | None) -> tuple | None:
    """The numeric bounds and string lengths of ``node`` as ((keyword, limit), ...), or None when
    one is malformed or not plainly comparable (draft-04's boolean exclusive bounds, huge numbers)."""
    out = []
    for kw in _BOUNDS.intersection(node):
        limit = node[kw]
        if kw in _LENGTH_BOUNDS:
            if type(limit) is not int or limit < 0:
                return None
        elif type(limit) not in (int, float) or abs(limit) > _EXACT or (
                dialect == "draft-04" and kw.startswith("exclusive")):  # a boolean there, or meaningless
            return None
        out.append((kw, limit))
    return tuple(sorted(out))


def _bound_failures(bounds: tuple, value: Any) -> list[str] | None:
    """The bounds ``value`` fails; None when only an engine can tell."""
    t = type(value)
    if t is int or t is float:
        if abs(value) > _EXACT:
            return None
        failed = []
        for kw, limit in bounds:
            if kw == "minimum" and value < limit or kw == "maximum" and value > limit or \
                    kw == "exclusiveMinimum" and value <= limit or kw == "exclusiveMaximum" and value >= limit:
                failed.append(kw)
        return failed
    if t is str:
        if not value.isascii():
            return None  # counted in code points by both, but a lone surrogate is another matter
        n = len(value)
        return [kw for kw, limit in bounds if kw == "minLength" and n < limit or kw == "maxLength" and n > limit]
    return []  # bounds and lengths assert nothing about other types


def _bounded_plan(node: dict, dialect: str | None = None) -> SimplePlan | None:
    """:func:`simple_plan` that also takes numeric bounds and string lengths (for value checks)."""
    if _BOUNDS.isdisjoint(node):
        return simple_plan(node)
    bounds = _bounds(node, dialect)
    if bounds is None:
        return None
    plan = simple_plan({k: v for k, v in node.items() if k not in _BOUNDS})
    if plan is not None:
        plan.bounds = bounds
    return plan


class AnyOfPlan:
    """A subschema that asserts nothing but an ``anyOf`` of simple branches (what Pydantic
    writes for an optional field: ``{"anyOf": [{"type": "string"}, {"type": "null"}]}``)."""

    __slots__ = ("branches",)

    def __init__(self, branches: list):
        self.branches = branches

    def errors(self, value: Any) -> list[str] | None:
        unknown = False
        for plan in self.branches:
            got = plan.errors(value) if plan is not None else None
            if got == []:
                return []
            unknown = unknown or got is None
        return None if unknown else ["anyOf"]


def value_plan(node: dict, dialect: str | None = None):
    """A :class:`SimplePlan` or :class:`AnyOfPlan` for checking values against ``node`` without
    an engine, or None when the node needs one."""
    plan = _bounded_plan(node, dialect)
    if plan is not None or "anyOf" not in node:
        return plan
    branches = node["anyOf"]
    if not isinstance(branches, list) or not branches:
        return None
    for k in node:
        if k != "anyOf" and k not in _ANNOTATIONS and not k.startswith("x-"):
            return None
    # a branch only an engine can read is asked of the engine only when no simple branch accepts
    plans = [_bounded_plan(b, dialect) if isinstance(b, dict) else None for b in branches]
    return AnyOfPlan(plans) if any(p is not None for p in plans) else None


_RS_CLASSES = {"2020-12": "Draft202012Validator", "2019-09": "Draft201909Validator",
               "draft-07": "Draft7Validator", "draft-06": "Draft6Validator", "draft-04": "Draft4Validator"}


def _keyword(e, eng: str) -> str:
    if eng == "rs":
        name = e.kind.name
        return "false" if name == "falseSchema" else name
    return e.validator or "false"


_MISSING = object()


class ValueChecker:
    """Validate values against subschemas of one slot, resolving only the slot's own references.

    Built once per slot; :meth:`errors` returns the names of the keywords the value fails (empty
    when it is valid) or ``None`` when the subschema cannot be checked (it does not compile).
    A subschema whose only assertions are type/enum/const is checked without an engine
    (:class:`SimplePlan`, pure Python and exact); one without references is compiled on its
    own; one with references is looked up in a compilation of the whole slot. ``walks``: where
    the slot is walked (:mod:`mcplint.schemawalk`; a rule's ``ctx.walks``).
    """

    def __init__(self, schema: Any, dialect: str, engine_name: str | None = None, fast: bool = True,
                 simple_only: bool = False, walks: Walks = UNSHARED):
        self.schema = schema
        self.walks = walks
        self.simple_only = simple_only
        self.dialect = dialect
        self.engine = engine_name or engine()
        self.fast = fast
        # A slot with a pattern is checked by mcplint.instance's engine: patterns as ECMA-262 reads
        # them (neither engine's own regular expressions do), each match within VALUE_BUDGET.
        self.ecma = _has_patterns(schema, walks)
        self._budget = VALUE_BUDGET
        self._whole: Any = None
        self._whole_failed = False
        self._rs: dict = {}  # rel -> the jsonschema-rs validator for the subschema there
        self._alone: dict = {}  # rel -> python-jsonschema validator compiled from the subschema alone
        self._plans: dict = {}  # rel -> SimplePlan of the subschema (None: not that simple)
        self._subs: dict = {}  # rel -> the subschema there (_MISSING when there is none)
        self._defs: dict | None | bool = False  # the slot's $defs/definitions members (None: other refs)

    def _compile_whole(self):
        if self._whole is None and not self._whole_failed:
            try:
                if self.engine == "rs":
                    import jsonschema_rs

                    self._whole = jsonschema_rs.validator_map_for(
                        self.schema, retriever=_stand_in, validate_formats=False)
                else:
                    self._whole = self._py(self.schema)
            except Exception:  # an invalid schema (bad regex, wrong keyword types): nothing to check
                self._whole_failed = True
        return self._whole

    def _defs_only(self) -> dict | None:
        """When every reference in the slot is a ``#/$defs/...`` or ``#/definitions/...`` pointer
        (and no ``$id``/anchor changes what one means): the root's ``$defs``/``definitions``
        members, so that a subschema can be compiled on its own beside them, with each of its
        references meaning what it means in the slot; else None (compile the whole slot)."""
        if self._defs is False:
            found: dict | None = {k: self.schema[k] for k in ("$defs", "definitions") if k in self.schema}
            if not all(isinstance(v, dict) for v in found.values()):
                found = None
            for sub in self.walks.subschemas(self.schema) if found is not None else ():
                node = sub.schema
                if not isinstance(node, dict) or _REF_WORDS.isdisjoint(node):
                    continue
                ref = node.get("$ref")
                if not _OTHER_REF_WORDS.isdisjoint(node) or not isinstance(ref, str) or not ref.startswith(_DEFS_PREFIXES):
                    found = None
                    break
            self._defs = found
        return self._defs

    def _beside_defs(self, sub: Any) -> dict | None:
        """A subschema holding references, made standalone beside the root's definitions when
        :meth:`_defs_only` allows it; None otherwise."""
        defs = self._defs_only() if isinstance(sub, dict) and _DEFS.isdisjoint(sub) else None
        return {**sub, **defs} if defs is not None else None

    def _py(self, schema):
        import jsonschema
        import referencing

        if self.ecma:
            from .instance import ecma_validator_class

            cls = ecma_validator_class(self.dialect)
        else:
            cls = getattr(jsonschema, _PY_CLASSES[self.dialect])
        return cls(schema, registry=referencing.Registry(retrieve=_py_refuse))

    def errors(self, rel: tuple, value: Any, standalone: bool = False) -> list[str] | None:
        """Keywords ``value`` fails at the subschema ``rel``. ``standalone``: the subschema holds
        no reference, so it can be compiled on its own."""
        sub = self._subs.get(rel, self._subs)
        if sub is self._subs:  # not looked up yet (None is a legal subschema value)
            try:
                sub = Pointer(rel).resolve_in(self.schema)
            except (KeyError, IndexError, TypeError):
                sub = _MISSING
            self._subs[rel] = sub
        if sub is _MISSING:
            return None
        if self.fast and isinstance(sub, dict):
            plan = self._plans.get(rel, self._plans)
            if plan is self._plans:  # read the subschema once for all the values checked against it
                plan = self._plans[rel] = value_plan(sub, self.dialect)
            if plan is not None:
                simple = plan.errors(value)
                if simple is not None:
                    return simple
        if self.simple_only:
            return None
        if self.ecma:
            return self._ecma_errors(rel, sub, value, standalone)
        try:
            if self.engine == "rs":
                v = self._rs.get(rel)
                if v is None:
                    alone = sub if standalone else self._beside_defs(sub)
                    if alone is not None:
                        import jsonschema_rs

                        v = getattr(jsonschema_rs, _RS_CLASSES[self.dialect])(
                            alone, retriever=_stand_in, validate_formats=False)
                    else:
                        compiled = self._compile_whole()
                        v = compiled.get("#" + str(Pointer(rel))) if compiled is not None else None
                        if v is None:
                            return None
                    self._rs[rel] = v
                if v.is_valid(value):
                    return []
                return [_keyword(e, "rs") for e in v.iter_errors(value)]
            if standalone:
                v = self._alone.get(rel)
                if v is None:
                    v = self._alone[rel] = self._py(sub)
            else:
                compiled = self._compile_whole()
                if compiled is None:
                    return None
                v = compiled.evolve(schema=sub)
            return [_keyword(e, "python") for e in v.iter_errors(value)]
        except Exception:  # an unresolvable reference or an invalid subschema met at validation time
            return None


    def _ecma_errors(self, rel: tuple, sub: Any, value: Any, standalone: bool) -> list[str] | None:
        """:meth:`errors` through mcplint.instance's engine, within what is left of the slot's
        budget of CPU time (None once it is spent, or when the check was cut short). CPU time, not
        the clock's: a loaded machine must not find less."""
        from .instance import ecma_validator_class, remaining, time_budget

        if self._budget <= 0:
            return None
        try:  # made once per process, before the clock starts: importing jsonschema is not checking a value
            ecma_validator_class(self.dialect)
        except Exception:
            return None
        try:
            with time_budget(self._budget, cpu=True):
                try:
                    if standalone:
                        v = self._alone.get(rel)
                        if v is None:
                            v = self._alone[rel] = self._py(sub)
                    else:
                        compiled = self._compile_whole_py()
                        if compiled is None:
                            return None
                        v = compiled.evolve(schema=sub)
                    errs = list(v.iter_errors(value))
                finally:
                    self._budget = remaining()
        except Exception:  # the budget ran out, an invalid subschema, a reference that does not resolve
            return None
        if any(getattr(e, "incomplete", False) for e in errs):
            return None
        return [_keyword(e, "python") for e in errs]

    def _compile_whole_py(self):
        if self._whole is None and not self._whole_failed:
            try:
                self._whole = self._py(self.schema)
            except Exception:
                self._whole_failed = True
        return self._whole


# Seconds of CPU time of pattern matching (and the validation around it) SCH109 spends on one slot
# at most (CPU time: a loaded machine finds the same).
VALUE_BUDGET = 0.5


def _has_patterns(schema: Any, walks: Walks) -> bool:
    return any(isinstance(sub.schema, dict) and ("pattern" in sub.schema or "patternProperties" in sub.schema)
               for sub in walks.subschemas(schema))


_DEFS = frozenset({"$defs", "definitions"})
_DEFS_PREFIXES = ("#/$defs/", "#/definitions/")
# keywords besides $ref that reference, or change what a reference means
_OTHER_REF_WORDS = frozenset({*REF_KEYWORDS, "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"}) - {"$ref"}
_REF_WORDS = _OTHER_REF_WORDS | {"$ref"}


def _py_refuse(uri: str):
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)
