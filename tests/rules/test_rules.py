"""Run every fixture table in tests/cases/: each case with only its rule selected,
comparing the exact set of pointers reported."""

from __future__ import annotations

import pytest

from conftest import load_cases, run_case
from mcplint.registry import get

CASES = load_cases()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_case(case):
    assert get(case["rule"]) is not None, f"unknown rule {case['rule']}"
    findings = run_case(case, only_rule=case["rule"])
    got = sorted({str(f.pointer) for f in findings if f.rule == case["rule"]})
    assert got == sorted(set(case["expect"])), [f"{f.pointer}: {f.message}" for f in findings]
    for needle in case.get("messages", []):
        assert any(needle in f.message for f in findings), (needle, [f.message for f in findings])
    if "severity" in case:
        assert {f.severity.label for f in findings} == {case["severity"]}
