"""Every real-world breakage behind the profiles' facts (32 public reports, numbered 1-32 as in
the provider research the profiles were built from; each profile fact cites its report) rebuilt
as a tool and checked against the matching profile: the finding must name the profile, point at
the construct and quote what the provider said (or describe what the client does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from breakage_cases import CASES
from conftest import lint_json

PROFILES = Path(__file__).parent / "data" / "profiles"




def test_every_breakage_is_covered():
    assert {c[0] for c in CASES} == set(range(1, 33))


@pytest.mark.parametrize("number, profile, document, rule, pointer, needle", CASES,
                         ids=[f"#{c[0]}-{Path(c[1]).stem}-{c[3]}" for c in CASES])
def test_breakage(number, profile, document, rule, pointer, needle):
    findings = lint_json(document, profiles=[profile], select=["DEC"])
    hits = [f for f in findings if f.rule == rule and str(f.pointer) == pointer]
    assert hits, f"#{number}: no {rule} at {pointer}; got " + "; ".join(
        f"{f.rule} {f.pointer}: {f.message}" for f in findings)
    assert any(needle in f.message for f in hits), [f.message for f in hits]
    assert all(f.profile for f in hits)
    expected = {"DEC002": "weaken", "DEC003": "drop", "DEC004": "rewrite"}.get(rule, "reject")
    assert {f.consequence for f in hits} == {expected}
