"""The JSON Schema validation engine behind the SCH rules: meta-schema checks of a slot, and
checks of values (``default``, ``enum``, ...) against the subschema that holds them.

Two interchangeable engines give the same results (``tests/test_schema_engines.py`` proves it
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


def meta_errors(schema: Any, dialect: str, engine_name: str | None = None) -> list[MetaError]:
    """Every top-level meta-schema error of ``schema`` under ``dialect``, document order aside."""
    eng = engine_name or engine()
    out: list[MetaError] = []
    if eng == "rs":
        v = _rs_meta_validator(dialect)
        for e in v.iter_errors(schema):
            out.append(MetaError(tuple(e.instance_path), e.kind.name, _rs_expected(e.kind)))
    else:
        v = _py_meta_validator(dialect)
        for e in v.iter_errors(schema):
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

class ValueChecker:
    """Validate values against subschemas of one slot, resolving only the slot's own references.

    Built once per slot; :meth:`errors` returns the engine's error messages (empty when the value
    is valid) or ``None`` when the subschema cannot be checked (the slot does not compile).
    """

    def __init__(self, schema: Any, dialect: str, engine_name: str | None = None):
        self.schema = schema
        self.dialect = dialect
        self.engine = engine_name or engine()
        self._compiled: Any = None
        self._failed = False

    def _compile(self):
        if self._compiled is None and not self._failed:
            try:
                if self.engine == "rs":
                    import jsonschema_rs

                    self._compiled = jsonschema_rs.validator_map_for(
                        self.schema, retriever=_stand_in, validate_formats=False)
                else:
                    import jsonschema
                    import referencing
                    import referencing.jsonschema

                    cls = getattr(jsonschema, _PY_CLASSES[self.dialect])
                    registry = referencing.Registry(retrieve=_py_refuse)
                    self._compiled = cls(self.schema, registry=registry)
            except Exception:  # an invalid schema (bad regex, wrong keyword types): nothing to check
                self._failed = True
        return self._compiled

    def errors(self, rel: tuple, value: Any) -> list[str] | None:
        compiled = self._compile()
        if compiled is None:
            return None
        try:
            if self.engine == "rs":
                from .model import Pointer

                v = compiled.get("#" + str(Pointer(rel)))
                if v is None:
                    return None
                return [e.message for e in v.iter_errors(value)]
            from .model import Pointer

            sub = Pointer(rel).resolve_in(self.schema)
            return [e.message for e in compiled.evolve(schema=sub).iter_errors(value)]
        except Exception:  # an unresolvable reference or an invalid subschema met at validation time
            return None


def _py_refuse(uri: str):
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)
