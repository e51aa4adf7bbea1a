"""Constraints that constrain nothing (a target that drops one loses nothing), checked against the
full validator: a vacuous keyword accepts every instance tried; each near miss rejects one."""

from __future__ import annotations

import jsonschema
import pytest

from mcplint.profiles.vacuous import vacuous, vacuous_pattern

STRINGS = ["", "a", "A-9_", "\n", "é", "line\nbreak", "x" * 50]
INSTANCES = {"minLength": STRINGS, "pattern": STRINGS, "minItems": [[], [1], [1, 1]],
             "minProperties": [{}, {"a": 1}], "uniqueItems": [[], [1, 1], [1, 2]],
             "propertyNames": [{}, {"": 1}, {"a b": 1, "é": 2}, {"a long key": 1}]}

VACUOUS = [("minLength", 0), ("minItems", 0), ("minProperties", 0), ("minLength", 0.0), ("uniqueItems", False),
           ("pattern", ""), ("pattern", ".*"), ("pattern", "[0-9a-z_]*"), ("pattern", "(ab)?"), ("pattern", "a*|b"),
           ("propertyNames", True), ("propertyNames", {}), ("propertyNames", {"type": "string"}),
           ("propertyNames", {"type": ["string", "null"], "description": "keys"}),
           ("propertyNames", {"type": "string", "minLength": 0, "pattern": ".*"})]
NEAR_MISSES = [("minLength", 1), ("minItems", 1), ("minProperties", 1), ("uniqueItems", True),
               ("pattern", "^$"), ("pattern", "^.*$"), ("pattern", "a"), ("pattern", "(?!x)"), ("pattern", "\\b"),
               ("pattern", "[^a]*"), ("pattern", "x*$"),
               ("propertyNames", False), ("propertyNames", {"minLength": 1}), ("propertyNames", {"pattern": "^a"}),
               ("propertyNames", {"type": "string", "maxLength": 3}), ("propertyNames", {"enum": ["a"]})]


@pytest.mark.parametrize("keyword, value", VACUOUS)
def test_a_vacuous_constraint_accepts_every_instance(keyword, value):
    assert vacuous(keyword, value)
    schema = {keyword: value}
    for instance in INSTANCES[keyword]:
        assert jsonschema.Draft202012Validator(schema).is_valid(instance), (schema, instance)


@pytest.mark.parametrize("keyword, value", NEAR_MISSES)
def test_a_constraint_is_not_taken_for_vacuous_unless_it_is(keyword, value):
    assert not vacuous(keyword, value)


def test_which_near_misses_really_constrain():
    """The near misses that do reject an instance. The others match every string too, and are
    refused only because the test stays on the safe side (any anchor, lookaround or `^`)."""
    safe_side = {("pattern", "[^a]*"), ("pattern", "(?!x)"), ("pattern", "x*$")}  # ("^.*$" fails on a line break)
    for keyword, value in NEAR_MISSES:
        if keyword == "pattern" and (keyword, value) in safe_side:
            assert all(jsonschema.Draft202012Validator({keyword: value}).is_valid(i) for i in INSTANCES[keyword])
            continue
        schema = {keyword: value}
        assert any(not jsonschema.Draft202012Validator(schema).is_valid(i) for i in INSTANCES[keyword]), schema


def test_a_pattern_that_does_not_compile_is_not_vacuous():
    assert not vacuous_pattern("(") and not vacuous_pattern(None)


def test_bounds_beyond_the_exact_integers():
    """zod 4's .int() bounds (RFC 7493's safe-integer range) rule out no integer a receiver holds
    exactly; a bound inside the range, on a number schema, or of another keyword does."""
    from mcplint.profiles.vacuous import SAFE_INTEGER, beyond_exact_integers

    integer = {"type": "integer"}
    assert beyond_exact_integers("maximum", SAFE_INTEGER, integer)
    assert beyond_exact_integers("minimum", -SAFE_INTEGER, integer)
    assert beyond_exact_integers("maximum", 2.0**60, integer)
    assert not beyond_exact_integers("maximum", SAFE_INTEGER - 1, integer)
    assert not beyond_exact_integers("minimum", SAFE_INTEGER, integer)  # a lower bound up there constrains
    assert not beyond_exact_integers("maximum", SAFE_INTEGER, {"type": "number"})  # 1e20 is exact as a double
    assert not beyond_exact_integers("maximum", SAFE_INTEGER, {"type": ["integer", "string"]})
    assert not beyond_exact_integers("exclusiveMaximum", SAFE_INTEGER, integer)
    assert not beyond_exact_integers("maximum", True, integer)
    assert SAFE_INTEGER == 9007199254740991  # RFC 7493, section 2.2
