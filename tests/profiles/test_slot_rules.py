"""A rule's ``slots``: a rule that judges only outputSchema (a client validating results against a
dialect of its own) is checked there even where the profile's ``slots`` leave that slot out, and is
silent in inputSchema; the profile's other rules stay in their own slots."""

from __future__ import annotations

import pytest

from conftest import lint_json
from mcplint.errors import ConfigError
from mcplint.profiles import evaluate_slot, load_profile

from .common import write

SRC = "{url: 'https://x.invalid', seen: '2026-12-07', confidence: high}"
PROFILE = ("id: out\ntitle: t\nkind: client\nsource: " + SRC + "\n"
           "constructs:\n  root-not-object: {action: reject}\n"
           "keywords:\n  title: {action: reject, on_reject: fail-call, slots: [outputSchema], message: 'no titles in results'}\n")


def _tool(output):
    return {"name": "t", "inputSchema": {"type": "object", "title": "in", "properties": {}}, "outputSchema": output}


def test_a_rule_scoped_to_output_judges_only_output(tmp_path):
    path = str(write(tmp_path, PROFILE))
    found = lint_json(_tool({"type": "array", "title": "out"}), profiles=[path], select=["DEC"])
    where = {(str(f.pointer), f.consequence) for f in found}
    # the output's title is judged (and says every call fails), the input's is not; the profile's own
    # root rule judges inputSchema only, so the array output root is not reported
    assert where == {("/outputSchema/title", "reject")}, where
    msg = next(f.message for f in found)
    assert "fails every call" in msg and "no titles in results" in msg


def test_the_evaluator_filters_by_slot(tmp_path):
    p = load_profile(str(write(tmp_path, PROFILE)))
    schema = {"type": "array", "title": "x"}
    assert {e.subject for e in evaluate_slot(p, schema)} == {"root-not-object"}
    assert {e.subject for e in evaluate_slot(p, schema, slot="outputSchema")} == {"title"}
    assert p.checks("outputSchema") and not load_profile("anthropic-api").checks("outputSchema")


def test_a_profile_without_scoped_rules_leaves_output_alone():
    assert evaluate_slot(load_profile("anthropic-api"), {"type": "array"}, slot="outputSchema") == []
    assert evaluate_slot(load_profile("anthropic-api"), {"type": "array"})  # its own slot: judged


@pytest.mark.parametrize("entry, col, needle", [
    ("slots: [results]", 35, "'results' is not one of"),
    ("slots: []", 27, "should be non-empty"),
    ("on_reject: call-fails", 27, "'call-fails' is not one of"),
    ("when: {key_pattern: 3}", 34, "expected string"),
    ("when: {values_are: nulls}", 34, "'nulls' is not one of"),
])
def test_bad_slot_keys_are_located_errors(tmp_path, entry, col, needle):
    path = write(tmp_path, "id: bad\ntitle: t\nkind: client\nsource: " + SRC + "\n"
                 "keywords:\n  title: {action: reject, " + entry + "}\n")
    with pytest.raises(ConfigError) as e:
        load_profile(str(path))
    assert (e.value.line, e.value.col) == (6, col), str(e.value)
    assert needle in str(e.value)
