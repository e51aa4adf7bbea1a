"""The evaluator's shortcuts give what its plain path gives: every shipped profile on the real
servers' schemas and on a few odd ones, every field of every effect, once as the code is and
once with each shortcut replaced by the plain computation:

* a profile passes over a node whose keys it has found nothing to say about (``Compiled.silent``);
  plain: the set emptied before every evaluation, so every key of every node is looked up;
* ``SlotFacts.nodes`` passes over the usual scalar leaf with nothing to count or show; plain:
  every node measured and tested (``node_constructs``);
* a pattern's features are kept per (pattern, threshold, dialect); plain: worked out each time.
"""

from __future__ import annotations

import json

import pytest

from mcplint.profiles import SlotFacts, builtin_names, evaluate_slot, load_profile
from mcplint.profiles import compiled as compiled_module
from mcplint.profiles import evaluate, facts

from .common import ROOT

ODD = [
    {"type": "string"},  # a scalar root
    {"type": "string", "enum": ["a", "b" * 300], "const": "a"},
    {"type": "object", "properties": {"big": {"type": "string", "enum": [f"{i:060d}" for i in range(300)]},
                                      "far": {"type": "string", "$ref": "https://example.com/s.json"},
                                      "many": {"type": "integer", "enum": list(range(1001))}}},
    {"type": "object", "properties": {"dyn": {"type": "string", "$dynamicRef": "https://example.com/d.json#m"}}},
    {"type": "object", "properties": {"rec": {"type": "string", "$recursiveRef": "https://example.com/r.json"}}},
    {"type": "integer", "$ref": "#/$defs/x", "description": "d", "$defs": {"x": {"type": "integer"}}},
    {"type": "object", "properties": {"s": {"type": "string", "items": {"type": "string"}},
                                      "u": {"type": "str"}, "t": {"type": ["string", "null"]},
                                      "a": {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
                                      "n": {"type": "number", "anyOf": [{"minimum": 1}, {"maximum": 0}]},
                                      "r": {"type": "boolean", "required": ["x"]},
                                      "d": {"type": "string", "default": 3, "pattern": "^(?i)a\\d{1,500}$"},
                                      "p": {"type": "null", "additionalProperties": 3}}},
    {"anyOf": [{"properties": {"k": {"const": 1}}}, {"properties": {"k": {"const": 2}}}], "properties": {}},
]


def _schemas() -> list:
    out = []
    for f in sorted((ROOT / "tests" / "data" / "corpus").glob("*.tools.json")) + \
            sorted((ROOT / "examples").glob("*.tools.json")):
        for t in json.loads(f.read_text(encoding="utf-8"))["tools"]:
            out += [t[k] for k in ("inputSchema", "outputSchema") if isinstance(t.get(k), dict)]
    return out + ODD


SCHEMAS = _schemas()
PROFILES = [load_profile(name) for name in builtin_names()]


def forget_compiled():
    """Each profile's compiled form dropped: made again on the next evaluation."""
    for p in PROFILES:
        p.derived.pop("compiled", None)


def everything() -> list:
    out = []
    for s in SCHEMAS:
        shared = SlotFacts(s)
        for p in PROFILES:
            out.append(evaluate_slot(p, s, facts=shared))
    return out


@pytest.fixture(scope="module")
def as_the_code_is():
    forget_compiled()
    return everything()


def test_the_odd_schemas_take_each_shortcut():
    leaf = SlotFacts(ODD[0]).nodes[0]
    assert leaf[16] == ()  # the scalar leaf, passed over
    shown = {c[0] for s in ODD for n in SlotFacts(s).nodes for c in n[16]}
    assert {"items-on-non-array", "unknown-type", "type-array", "tuple-items", "large_string_enum",
            "additional-properties-invalid", "anyof-shared-first-key", "properties-beside-combinator"} <= shown


@pytest.mark.parametrize("plain", ["silent keywords read", "every node measured", "pattern features afresh",
                                   "all of them"])
def test_shortcut_gives_the_plain_result(plain, as_the_code_is, monkeypatch):
    real = compiled_module.compiled

    def plain_compiled(profile):
        comp = real(profile)
        if plain in ("silent keywords read", "all of them"):
            comp.silent.clear()
        return comp

    forget_compiled()
    monkeypatch.setattr(evaluate, "compiled", plain_compiled)
    if plain in ("every node measured", "all of them"):
        monkeypatch.setattr(facts, "_SCALARS", frozenset())
    if plain in ("pattern features afresh", "all of them"):
        monkeypatch.setattr(evaluate, "_pattern_features", evaluate._pattern_features.__wrapped__)
    try:
        assert everything() == as_the_code_is
    finally:
        forget_compiled()
