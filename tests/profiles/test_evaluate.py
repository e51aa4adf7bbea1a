"""The evaluator: regex features, and evaluation that stays bounded on deep schemas."""

from __future__ import annotations

from mcplint.profiles import evaluate_slot, load_profile, regex_features


def test_regex_features():
    assert regex_features("^(?=a)b$") == ["lookaround"]
    assert regex_features(r"^(a)\1$") == ["backreference"]
    assert regex_features(r"^\bword\b$") == ["word_boundary"]
    assert regex_features(r"^\\b$") == []  # an escaped backslash followed by b is not a word boundary
    assert regex_features(r"^\p{L}+$") == ["unicode_property"]
    assert regex_features("^a{1,500}$") == ["large_repetition"]
    assert regex_features("abc") == ["unanchored"]
    assert regex_features("^a+?$") == ["lazy_quantifier"]


def test_evaluation_is_bounded_and_iterative():
    deep: dict = {"type": "string"}
    for _ in range(5000):
        deep = {"type": "array", "items": deep}
    effects = evaluate_slot(load_profile("openai-strict"), {"type": "object", "properties": {"a": deep}})
    assert any(e.subject == "nesting_depth" for e in effects)
