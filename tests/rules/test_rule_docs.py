"""Every rule documents itself, and its docs cannot drift from its behaviour:
the Example must fire, the Use instead must not, and the fixture table must hold at
least one firing case and one near miss."""

from __future__ import annotations

import json

import pytest

from conftest import load_cases, run_case
from mcplint.registry import SECTIONS, all_rules

RULES = all_rules()
CASES = [c for _, c in load_cases()]


def test_registry_is_not_empty():
    assert len(RULES) >= 1


@pytest.mark.parametrize("meta", RULES, ids=[m.id for m in RULES])
def test_rule_has_docs(meta):
    for section in SECTIONS:
        assert meta.sections.get(section), f"{meta.id} lacks a '## {section}' section"
    assert meta.summary and meta.fix
    assert meta.example("Example") and meta.example("Use instead"), f"{meta.id} needs ```json examples"


def _run_example(meta, section):
    text = meta.example(section)
    case = {"text": text, "config": meta.example_settings()}
    if meta.family == "probe":  # the example is a probe transcript, not a tools document
        case = {"transcript": json.loads(text), "config": meta.example_settings()}
    if "protocol-versions" not in case["config"]:
        case["versions"] = sorted(meta.versions)
    try:
        json.loads(text)
    except ValueError:
        case["format"] = "yaml"
    return [f for f in run_case(case, only_rule=meta.id) if f.rule == meta.id]


@pytest.mark.parametrize("meta", RULES, ids=[m.id for m in RULES])
def test_example_fires_and_fix_does_not(meta):
    assert _run_example(meta, "Example"), f"{meta.id}: its Example does not fire"
    assert not _run_example(meta, "Use instead"), f"{meta.id}: its 'Use instead' fires"


@pytest.mark.parametrize("meta", RULES, ids=[m.id for m in RULES])
def test_rule_has_firing_case_and_near_miss(meta):
    mine = [c for c in CASES if c["rule"] == meta.id]
    assert any(c["expect"] for c in mine), f"{meta.id}: no fixture case that fires"
    assert any(not c["expect"] for c in mine), f"{meta.id}: no near-miss fixture case"
