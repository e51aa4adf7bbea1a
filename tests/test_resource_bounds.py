"""Bounded work on hostile input: a regular expression whose nested counted repetitions would
make the ECMA-262 engine allocate gigabytes (and abort the process) is not matched and ends as a
finding. Bounds are asserted on what the code decides and on memory, never on the clock."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import lint_json
from mcplint import ecma
from mcplint.cli import main
from mcplint.profiles.vacuous import vacuous_pattern
from mcplint.validate import INCOMPLETE, validate_instance

# Matches the empty string after 10^8 iterations: regress asks for ~4 GB on "" (5 GB and an
# abort, SIGABRT, with larger counts). Every string matches it, so it looks vacuous.
BOMB = "(?:(?:a?){10000}){10000}"


@pytest.mark.parametrize("pattern", [BOMB, "(?:(?:(?:x?){100}){100}){1000}", "a{99999999999999999999999}",
                                     "((?:a?){2000})(?:b{3}){4,}|(?:(?:c){1000}){1001}"])
def test_nested_counts_past_the_bound_are_not_matched(pattern):
    assert ecma.iterations(pattern) > ecma.MAX_ITERATIONS
    assert "iterations" in ecma.too_complex(pattern)
    with pytest.raises(ecma.PatternTooComplex):
        ecma.search(pattern, "")  # matched here, it would abort the test process
    with pytest.raises(ecma.PatternTooComplex):
        ecma.search_within([(pattern, "aaa")], 1.0)


@pytest.mark.parametrize("pattern,expected", [
    (r"^[a-z]{1,64}(\.[a-z]{1,64}){0,10}$", 640),
    (r"^(?:[A-Za-z0-9+/]{4}){0,1000}$", 4000),
    (r"^\d{4}-\d{2}-\d{2}$", 4),
    (r"^(a+)+$", 1),  # unbounded quantifiers stop at an empty iteration: the text bounds them
    (r"\p{L}{5}[{]{3}\u{1F600}{7}", 7),  # braces of escapes and classes are not quantifiers
    (r"a{,5}\{9}x{2,}", 2),  # not quantifiers (a literal brace), then {2,} counts 2
    (r"(?:(?:a?){1000}){1000}", 1_000_000),
])
def test_ordinary_patterns_stay_under_the_bound(pattern, expected):
    assert ecma.iterations(pattern) == expected
    assert ecma.too_complex(pattern) is None


def test_a_bomb_is_not_vacuous_so_the_weakening_is_reported():
    assert vacuous_pattern("(?:a?){3}")  # matched: every string matches it
    assert not vacuous_pattern(BOMB)  # not matched: doubtful, so not vacuous
    tools = [{"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {"x": {"type": "string", "pattern": BOMB}},
        "required": ["x"], "additionalProperties": False}}]
    found = lint_json(tools, profiles=["gemini"])
    assert [str(f.pointer) for f in found if f.rule == "DEC002"] == ["/0/inputSchema/properties/x/pattern"]


def test_project_reports_the_pattern_weakened(tmp_path):
    f = tmp_path / "t.json"
    f.write_text(json.dumps([{"name": "t", "inputSchema": {
        "type": "object", "properties": {"x": {"type": "string", "pattern": BOMB}}}}]))
    r = CliRunner().invoke(main, ["project", str(f), "--profile", "gemini", "-o", str(tmp_path / "out.json")])
    assert r.exit_code == 1, r.output
    assert "weakened: /0/inputSchema/properties/x/pattern" in r.output


def test_validate_says_the_pattern_was_not_matched():
    problems = validate_instance({"type": "string", "pattern": BOMB}, "aaaa")
    assert [(p.code, p.keyword) for p in problems] == [(INCOMPLETE, "pattern")]
    assert "not matched" in problems[0].message and "100,000,000 iterations" in problems[0].message
    problems = validate_instance({"type": "object", "patternProperties": {BOMB: {"type": "integer"}}}, {"a": "x"})
    assert [(p.code, p.keyword) for p in problems] == [(INCOMPLETE, "patternProperties")]


def test_the_match_helper_runs_under_a_memory_limit():
    code = ("from mcplint import ecma\necma._limit_memory()\n"
            "try:\n    bytearray(ecma.HELPER_MEMORY + (1 << 20))\nexcept MemoryError:\n    print('refused')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    if sys.platform.startswith("linux"):
        assert r.stdout.strip() == "refused", r.stdout + r.stderr
