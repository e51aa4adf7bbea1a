"""mcplint.redos.disjoint proves that two patterns share no key, or says it cannot; a proof
is checked against the real llguidance, which refuses overlapping patternProperties."""

from __future__ import annotations

import pytest

from mcplint.redos.disjoint import all_disjoint, disjoint

PROVED = [
    ("^x-", "^y-"), ("^a", "^b"), ("^[0-9]+$", "^[a-z]+$"), (r"\.json$", r"\.yaml$"), (r"^\d", "^[a-z]"),
    (r"^\w", "^-"), ("^.", "^\n"), ("^[^a]", "^a"), ("^[A-Z]", "^[a-z]"), ("^x_[0-9]+$", "^y_"),
    (r"^\s", r"^\S"), ("^ab", "^ac"),
]
# overlapping, or disjoint in a way the proof does not reach: never claimed disjoint
NOT_PROVED = [
    ("^a", "b$"), ("^a", "^ab"), ("a", "b"), (".*", "^a"), ("^(a|b)", "^c"), ("^a*b", "^c"), ("(?i)^a", "^b"),
    ("^[a-z]+$", "^x-"), (r"^\w", "^_"), ("^a|^b", "^c"), (r"^\p{L}", "^0"), ("^[", "^a"),
]


@pytest.mark.parametrize("p,q", PROVED)
def test_proved_disjoint(p, q):
    assert disjoint(p, q) and disjoint(q, p)


@pytest.mark.parametrize("p,q", NOT_PROVED)
def test_not_claimed(p, q):
    assert not disjoint(p, q) and not disjoint(q, p)


def test_all_disjoint_is_pairwise():
    assert all_disjoint([]) and all_disjoint(["^a"]) and all_disjoint(["^a", "^b", "^c"])
    assert not all_disjoint(["^a", "^b", "^ab"])


@pytest.mark.parametrize("p,q", PROVED + NOT_PROVED[:2])
def test_a_proof_holds_on_llguidance(p, q):
    from mcplint.verify.decoders import CompileError, Unavailable, get

    try:
        ll = get("llguidance")
    except (Unavailable, ImportError) as e:
        pytest.skip(f"llguidance is not importable: {e}")
    schema = {"type": "object", "patternProperties": {p: {"type": "string"}, q: {"type": "integer"}}}
    try:
        ll.compile(schema)
        compiled = True
    except CompileError as e:
        compiled = False
        assert "are not disjoint" in str(e)
    assert compiled == disjoint(p, q)
