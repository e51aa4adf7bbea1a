"""Constraints that constrain nothing: a target that drops one loses nothing, so saying it is not
enforced would be a false alarm.

zod writes ``propertyNames: {"type": "string"}`` for every ``z.record(z.string(), ...)`` (JSON
keys are strings already), and generators write ``minLength: 0`` or an unanchored ``[a-z_]*``
that every string matches. Only what provably accepts every value the keyword applies to counts
(true of every JSON text, by the JSON Schema 2020-12 validation vocabulary); anything doubtful is
not vacuous, and the finding stays.
"""

from __future__ import annotations

import re

from ..jsonvalue import SAFE_INTEGER  # zod 4 writes it for every .int()

_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated",
                          "readOnly", "writeOnly"})
# Zero-width assertions and back-references: with none of these, a pattern that matches the empty
# string matches at the start of every string (a match is searched for anywhere, ECMA-262 `test`).
# `^` and `$` are refused even inside a class, which only makes the test stricter.
_ASSERTS = re.compile(r"[\^$]|\\[bBk1-9]|\(\?<?[=!]")


def vacuous_pattern(pattern: str) -> bool:
    """Every string matches ``pattern`` (it matches the empty string and asserts nothing)."""
    if not isinstance(pattern, str) or _ASSERTS.search(pattern):
        return False
    from ..ecma import PatternError, search

    try:
        return search(pattern, "")  # the empty input: no backtracking blow-up to fear
    except PatternError:
        return False


def accepts_every_string(schema) -> bool:
    """``schema`` accepts every string (as ``propertyNames`` applies it: to each key)."""
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    for kw, value in schema.items():
        if kw in _ANNOTATIONS:
            continue
        if kw == "type":
            if not (value == "string" or isinstance(value, list) and "string" in value):
                return False
        elif kw == "minLength":
            if not _zero(value):
                return False
        elif kw == "pattern":
            if not vacuous_pattern(value):
                return False
        else:
            return False
    return True


VACUOUS_KEYWORDS = frozenset({"minLength", "minItems", "minProperties", "uniqueItems", "pattern", "propertyNames"})


def _zero(value) -> bool:
    return type(value) in (int, float) and value == 0


def vacuous(keyword: str, value) -> bool:
    """The keyword, with this value, accepts every instance it applies to."""
    if keyword in ("minLength", "minItems", "minProperties"):
        return _zero(value)
    if keyword == "uniqueItems":
        return value is False
    if keyword == "pattern":
        return vacuous_pattern(value)
    if keyword == "propertyNames":
        return accepts_every_string(value)
    return False


def beyond_exact_integers(keyword: str, value, node) -> bool:
    """``minimum``/``maximum`` on an integer schema at or beyond the safe-integer range: it rules
    out only integers that no JSON receiver is expected to read exactly (RFC 7493, section 2.2),
    so a target that drops it loses nothing an interoperable argument can say. Not vacuous in the
    sense above (``2**60`` is a JSON integer it refuses): the projection still reports it."""
    if keyword not in ("minimum", "maximum") or type(value) not in (int, float) or not isinstance(node, dict):
        return False
    if node.get("type") != "integer":
        return False
    return value >= SAFE_INTEGER if keyword == "maximum" else value <= -SAFE_INTEGER
