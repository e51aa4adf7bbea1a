"""Every profile on every real server of the corpus: no crash, every DEC finding names its
profile and consequence, severity follows the consequence, and no message keeps an unfilled
{placeholder}."""

from __future__ import annotations

import pytest

import re
from pathlib import Path

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Severity
from mcplint.profiles import builtin_names, load_profile

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
PLACEHOLDER = re.compile(r"\{(tool|context|keyword|value|key|type|count|max|values|siblings|detail|feature|"
                         r"sibling_set|context_path|proto_path)\}")
EXPECTED = {"reject": Severity.ERROR, "drop": Severity.ERROR, "weaken": Severity.WARNING,
            "rewrite": Severity.WARNING, "annotation": Severity.INFO}


@pytest.mark.slow
def test_all_profiles_on_the_corpus():
    names = builtin_names()
    result = lint_paths([str(CORPUS)], Config(profiles=tuple(names), select=("DEC",)))
    assert not result.errors
    assert result.tools > 100
    assert set(result.profiles) == set(names)
    dec = [f for f in result.findings if f.rule.startswith("DEC")]
    assert dec
    for f in dec:
        assert f.profile in names and f.consequence in EXPECTED, f
        expected = EXPECTED[f.consequence]
        if "low-confidence" in f.message:
            expected = min(expected, Severity.WARNING)
        if "so this is reported one severity lower" in f.message:  # a hedged fact ("can be rejected")
            expected = Severity(max(expected - 1, Severity.INFO))
        if "nothing in the server's code changes it, so it is a warning" in f.message:  # a Python SDK's own object
            assert f.fix.title.startswith("The SDK writes this arguments object itself"), f.fix.title
            expected = min(expected, Severity.WARNING)
        assert f.severity == expected, (f.rule, f.message)
        assert not PLACEHOLDER.search(f.message), f.message
        assert load_profile(f.profile).display in f.message
    # every kind of consequence shows up on real servers
    assert {f.consequence for f in dec} >= {"reject", "weaken", "rewrite"}
