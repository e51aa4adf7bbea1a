"""Patterns as ECMA-262 reads them, on every path that matches one: `validate` (pattern,
patternProperties, additionalProperties and unevaluatedProperties beside them), SCH109's value
checks, and mcplint.ecma itself; the JSON-Schema-Test-Suite's pattern groups; and the time
bound, which a backtracking match must not escape."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import lint_json
from mcplint import ecma
from mcplint.validate import INCOMPLETE, Limits, validate_instance

SUITE = Path(__file__).parent / "data" / "json-schema-test-suite" / "tests"
DRAFTS = {"draft4": "http://json-schema.org/draft-04/schema#", "draft6": "http://json-schema.org/draft-06/schema#",
          "draft7": "http://json-schema.org/draft-07/schema#",
          "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
          "draft2020-12": "https://json-schema.org/draft/2020-12/schema"}

# Where Python's regular expressions (re and the regex module) and ECMA-262 disagree: (pattern,
# string, does ECMA-262 with the u flag match?). Each line is a test of the JSON-Schema-Test-Suite's
# optional/ecmascript-regex.json or non-bmp-regex.json, or of ECMA-262 §22.2 directly.
DIFFERENCES = [
    (r"^\d$", "\u07c0", False),  # NKO digit zero: \d is [0-9]
    (r"^\d+$", "\u09ea\u09e8", False),  # Bengali digits
    (r"^\D$", "\u07c0", True),
    (r"^\w$", "\u00e9", False),  # \w is [A-Za-z0-9_]
    (r"^\W$", "\u00e9", True),
    (r"^\s$", "\ufeff", True),  # \s includes the BOM (ECMA-262 WhiteSpace)
    (r"^\S$", "\ufeff", False),
    (r"^\s$", "\u00a0", True),
    (r"^abc$", "abc\n", False),  # $ is the end of input, not before a final newline
    (r"^\cC$", "\x03", True),  # control escape
    (r"^\cC$", "\\cC", False),
    (r"^\p{Letter}+$", "h\u00e9llo", True),  # a Unicode property (u flag)
    (r"^\p{Lu}$", "a", False),
    (r"^.$", "\U0001F600", True),  # one code point with the u flag
    (r"^.$", "\u2028", False),  # . excludes every line terminator
    (r"[^]", "x", True),  # ECMA-262's "any character" class
]


def _one(pattern, text):
    return validate_instance({"type": "string", "pattern": pattern}, text)


@pytest.mark.parametrize("pattern,text,matches", DIFFERENCES)
def test_pattern_is_ecma_262_in_validate(pattern, text, matches):
    problems = _one(pattern, text)
    assert not [p for p in problems if p.code == INCOMPLETE], problems
    assert (not problems) == matches, problems
    assert ecma.search(pattern, text) == matches
    assert ecma.search(pattern, text, time.monotonic() + 10) == matches  # the bounded path agrees


@pytest.mark.parametrize("pattern,text,matches", DIFFERENCES)
def test_pattern_properties_key_is_ecma_262_beside_additional_and_unevaluated(pattern, text, matches):
    for closing in ("additionalProperties", "unevaluatedProperties"):
        schema = {"type": "object", "patternProperties": {pattern: {"type": "integer"}}, closing: False}
        problems = validate_instance(schema, {text: 1})
        assert not [p for p in problems if p.code == INCOMPLETE], (closing, problems)
        assert (not problems) == matches, (closing, problems)
        # and the member's schema applies exactly when the key matches
        problems = validate_instance({"type": "object", "patternProperties": {pattern: {"type": "integer"}}},
                                     {text: "not an integer"})
        assert (not problems) == (not matches), problems


@pytest.mark.parametrize("pattern,text,matches", DIFFERENCES)
def test_sch109_checks_values_with_the_same_engine(pattern, text, matches):
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "s": {"type": "string", "pattern": pattern, "default": text}}}}
    found = [f for f in lint_json(tool, select=["SCH109"])]
    assert bool(found) == (not matches), [f.message for f in found]


def test_unicode_property_beside_additional_properties_is_applied_not_refused():
    schema = {"type": "object", "patternProperties": {r"^\p{Letter}+$": {"type": "integer"}},
              "additionalProperties": False}
    assert validate_instance(schema, {"h\u00e9llo": 1}) == []
    (p,) = validate_instance(schema, {"x1": 1})
    assert p.keyword == "additionalProperties" and p.code != INCOMPLETE and "'x1'" in p.message


def test_a_pattern_valid_only_without_the_u_flag_is_read_as_a_browser_does():
    assert ecma.check(r"^a\_b{$") is None  # identity escape, lone brace: Annex B
    assert ecma.search(r"^a\_b{$", "a_b{")
    with pytest.raises(ecma.PatternError):
        ecma.compile_pattern("(?P<n>a)")  # Python's named group is not ECMA-262
    (p,) = _one("(?P<n>a)", "a")
    assert p.code == INCOMPLETE and "not a valid ECMA-262 regular expression" in p.message


def _suite_groups():
    out = []
    for draft in DRAFTS:
        for name in ("pattern", "patternProperties", "optional/ecmascript-regex", "optional/non-bmp-regex"):
            path = SUITE / draft / f"{name}.json"
            if path.is_file():
                for i, g in enumerate(json.loads(path.read_text(encoding="utf-8"))):
                    out.append(pytest.param(draft, g, id=f"{draft}/{name}[{i}] {g['description']}"))
    return out


@pytest.mark.parametrize("draft,group", _suite_groups())
def test_json_schema_test_suite_pattern_groups(draft, group):
    schema = group["schema"]
    if isinstance(schema, dict) and "$schema" not in schema:
        schema = {"$schema": DRAFTS[draft], **schema}
    for test in group["tests"]:
        problems = validate_instance(schema, test["data"])
        assert not [p for p in problems if p.code == INCOMPLETE], (test["description"], problems)
        assert (not problems) == test["valid"], (test["description"], problems)


# ------------------------------------------------------------------ the time bound

# ^(a+)+$ backtracks twice as long per character: 25 took 0.86 s here and about half that on a
# faster machine (inside the 0.5 s budget), so 30 (about 30 s here) leaves a 30x margin; the
# helper is killed at the deadline, so the length costs the test nothing.
EVIL_KEY = "a" * 30 + "!"


@pytest.mark.parametrize("schema,value", [
    ({"type": "object", "patternProperties": {"^(a+)+$": {}}, "additionalProperties": False}, {EVIL_KEY: 1}),
    ({"type": "object", "patternProperties": {"^(a+)+$": {}}, "unevaluatedProperties": False}, {EVIL_KEY: 1}),
    ({"type": "object", "patternProperties": {"^(a+)+$": {"type": "string"}}}, {EVIL_KEY: 1}),
    ({"type": "string", "pattern": "^(a+)+$"}, EVIL_KEY),
    ({"type": "object", "propertyNames": {"pattern": "^(a+)+$"}}, {EVIL_KEY: 1}),
])
def test_every_match_is_inside_the_time_bound(schema, value):
    cpu = _cpu()
    problems = validate_instance(schema, value, limits=Limits(timeout=0.5))
    used = _cpu() - cpu
    assert [p.keyword for p in problems if p.code == INCOMPLETE] == ["timeout"], problems
    # CPU seconds of this process and of the helper (killed and waited for): the 0.5 s budget
    # plus starting the helper at most once, far from the ~30 s the whole match would take
    assert used < 5, used


def test_validate_command_reports_the_timeout(tmp_path):
    tools = tmp_path / "t.json"
    tools.write_text(json.dumps({"name": "t", "inputSchema": {
        "type": "object", "patternProperties": {"^(a+)+$": {}}, "additionalProperties": False}}))
    args = tmp_path / "a.json"
    args.write_text(json.dumps({EVIL_KEY: 1}))
    cpu = _cpu()
    r = subprocess.run([sys.executable, "-m", "mcplint", "validate", str(tools), "--arguments", str(args),
                        "--timeout", "0.5"], capture_output=True, text=True, timeout=60)
    # CPU seconds of the command and its helper (both waited for): starting Python twice and the
    # 0.5 s budget, not the ~30 s the match would take unbounded
    assert _cpu() - cpu < 8, _cpu() - cpu
    assert r.returncode == 1 and "[timeout]" in r.stdout and "time budget of 0.5 s" in r.stdout, r.stdout + r.stderr


def test_a_match_cut_short_leaves_the_engine_usable():
    with pytest.raises(ecma.MatchTimeout):
        ecma.search("^(a+)+$", "a" * 40 + "!", time.monotonic() + 0.2)
    assert ecma.search(r"^\d{3}$", "123", time.monotonic() + 10)  # a fresh helper answers


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (a stopped helper is)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def test_sch109_stays_bounded_on_a_hostile_default():
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^(a+)+$", "default": "a" * 60 + "!"},
        "n": {"type": "string", "pattern": r"^\d$", "default": "\u07c0"}}}}
    t = _cpu()
    found = lint_json(tool, select=["SCH109"])
    assert _cpu() - t < 5  # CPU seconds, this process's and the helpers' (the budget is CPU time)
    # the value whose check ran out of the slot's budget is not judged; the others still are,
    # unless the budget is spent (SEC111 reports the pattern itself)
    assert all("/properties/s/" not in str(f.pointer) for f in found)


def test_other_users_of_jsonschema_in_the_process_are_unaffected():
    """mcplint's ECMA-262 matching inside jsonschema's helpers applies during its own validations
    only: a plain jsonschema validator keeps Python's re."""
    import jsonschema

    validate_instance({"type": "object", "patternProperties": {"^a$": {}}, "unevaluatedProperties": False}, {"a": 1})
    plain = jsonschema.Draft202012Validator({"patternProperties": {r"^\d$": {}}, "unevaluatedProperties": False})
    assert plain.is_valid({"\u07c0": 1})  # Python's \d: every Unicode digit


@pytest.fixture
def slow_helper(monkeypatch):
    """Helpers that take a second to start, as on a loaded machine (the one running is stopped)."""
    def stop():
        if ecma._current:
            ecma._current[0].kill()
            ecma._current.clear()

    stop()
    monkeypatch.setattr(ecma, "_HELPER_CODE", "import time; time.sleep(1.0); " + ecma._HELPER_CODE)
    yield
    stop()


@pytest.mark.slow
def test_starting_the_helper_is_not_counted_against_a_deadline(slow_helper, monkeypatch):
    assert not ecma._current  # (the fixture stopped the helper)
    # the helper sleeps a second before it is ready: the deadline the match is held to must be
    # the caller's plus that second. What run() is given is recorded; the match itself then gets
    # ample time, so a loaded machine's slow round trip cannot fail the test (a deadline that
    # counted the start would have ended in MatchTimeout on any machine: it had passed already).
    given: list = []
    real_run = ecma._Helper.run

    def recording_run(self, pairs, deadline, cpu=None):
        given.append(deadline)
        return real_run(self, pairs, deadline + 60.0, cpu)

    monkeypatch.setattr(ecma._Helper, "run", recording_run)
    deadline = time.monotonic() + 0.3
    assert ecma.search("^a+$", "aaa", deadline)
    assert given[0] >= deadline + 1.0  # the second the helper took to start was added to it
    helper = ecma._current[0]
    assert helper.alive()
    deadline = time.monotonic() + 0.3
    assert not ecma.search("^b+$", "aaa", deadline)  # the helper now runs: nothing is added
    assert given[1] == deadline
    assert ecma._current[0] is helper and helper.alive()  # the same one: it was not started again


@pytest.mark.slow
def test_sch109_judges_a_value_whatever_the_helper_took_to_start(slow_helper):
    """A slot's 0.5 s of matching does not include the start of the helper: on a loaded machine
    the first slot that needed it lost its findings (the run's output depended on the load)."""
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^[a-z]+$", "default": "ABC"}}}}
    found = lint_json(tool, select=["SCH109"])
    assert [str(f.pointer) for f in found] == ["/inputSchema/properties/s/default"], found


@pytest.mark.slow
def test_validate_judges_a_value_whatever_the_helper_took_to_start(slow_helper):
    problems = validate_instance({"type": "string", "pattern": "^[a-z]+$"}, "ABC", limits=Limits(timeout=0.5))
    assert [p.keyword for p in problems] == ["pattern"], problems


@pytest.mark.slow
def test_sch109_judges_a_value_whatever_making_the_validator_class_took(monkeypatch):
    """Importing jsonschema and making mcplint's validator class happen once per process, the
    first time a slot with a pattern has a value to check: that is not checking the value, and
    on a loaded machine it outlasted the slot's budget (a baseline run missed an SCH109)."""
    from jsonschema import validators

    from mcplint import instance

    real = validators.extend

    def slow_extend(*args, **kwargs):
        time.sleep(1.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(instance, "_classes", {})
    monkeypatch.setattr(validators, "extend", slow_extend)
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        "key": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]+$", "default": None}}}}
    found = lint_json(tool, select=["SCH109"])
    assert [str(f.pointer) for f in found] == ["/inputSchema/properties/key/default"], found


def test_a_cpu_bound_match_is_stopped_by_the_helpers_cpu_time():
    """search_within bounds a match by the helper's CPU seconds (its CPU timer ends it): a
    backtracking match is stopped after about its budget of CPU, however long that takes on the
    clock, and a quick one reports the little CPU it used."""
    import resource

    if not ecma.CPU_TIMERS:
        pytest.skip("no CPU timers here: the bound is the clock's")
    found, used = ecma.search_within([(r"^\d{3}$", "123"), ("^b", "abc")], 0.5)
    assert found == [True, False] and 0 <= used < 0.1
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with pytest.raises(ecma.MatchTimeout):
        ecma.search_within([("^(a+)+$", "a" * 40 + "!")], 0.3)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # (the stopped helper was waited for)
    spent = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert 0.25 <= spent < 0.3 + 0.5, spent
    assert ecma.search_within([("^a", "abc")], 0.5)[0] == [True]  # a fresh helper answers


def test_sch109s_budget_is_cpu_time_not_the_clocks(monkeypatch):
    """A slot's value checks spend CPU seconds: time the process spends waiting (descheduled on
    a loaded machine; here, a sleep inside the check) is not charged, and the value is judged."""
    from mcplint import instance

    real = instance._pattern

    def sleepy(*args):
        time.sleep(0.3)
        yield from real(*args)

    monkeypatch.setattr(instance, "_classes", {})
    monkeypatch.setattr(instance, "_pattern", sleepy)
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
        f"s{i}": {"type": "string", "pattern": "^[a-z]+$", "default": "ABC"} for i in range(3)}}}
    found = lint_json(tool, select=["SCH109"])
    assert len(found) == 3, found  # 0.9 s on the clock, a little CPU
