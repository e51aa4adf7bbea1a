"""SEC110-SEC113 beyond the fixture table: the ReDoS detector against its labelled table, hostile
expressions analysed in bounded time, and the per-file analysis budget."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from conftest import lint_json
from mcplint.redos import analyse, validity

DATA = Path(__file__).resolve().parents[2] / "data"
TABLE = yaml.safe_load((DATA / "redos" / "patterns.yaml").read_text(encoding="utf-8"))

def test_table_patterns_are_valid_ecma262():
    for entry in TABLE["vulnerable"] + TABLE["safe"]:
        assert validity(entry["pattern"]).ok, entry["pattern"]


def test_detector_precision_and_recall_on_the_table():
    vul = [e for e in TABLE["vulnerable"]]
    safe = [e for e in TABLE["safe"]]
    tp = sum(1 for e in vul if analyse(e["pattern"]) is not None)
    fp = sum(1 for e in safe if analyse(e["pattern"]) is not None)
    recall = tp / len(vul)
    precision = tp / (tp + fp)
    assert recall >= 0.9 and precision >= 0.9, (recall, precision)
    expo = [e for e in vul if e["label"] == "exponential"]
    found = [e for e in expo if (r := analyse(e["pattern"])) is not None and r.kind == "exponential"]
    assert len(found) / len(expo) >= 0.9


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(a|aa)*$", "(\\w+\\s?)+$", "^(\\d+|\\d+\\.\\d+)+$"])
def test_classics_are_exponential(pattern):
    assert analyse(pattern).kind == "exponential"


@pytest.mark.parametrize("pattern", ["^[a-z]+$", "^(ab)+$", "^[a-z0-9]+(-[a-z0-9]+)*$", "^(\\d+,)*\\d+$"])
def test_delimited_repetition_is_safe(pattern):
    assert analyse(pattern) is None


def test_hostile_expressions_are_bounded():
    for p in ["(" * 400 + "a" + ")" * 400, "(" * 150 + "a*" + ")*" * 150, "[a-z]*" * 166]:
        t = time.perf_counter()
        analyse(p)
        validity(p)
        assert time.perf_counter() - t < 1


def test_analysis_budget_reports_instead_of_going_quiet():
    props = {f"p{i}": {"type": "string", "pattern": f"^(a+)+{i:04d}" + "b" * 90} for i in range(40)}
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": props}}
    findings = lint_json(tool, select=["SEC111", "SEC112"], bounds={"max-pattern-length": 100})
    sec111 = [f for f in findings if f.rule == "SEC111"]
    sec112 = [f for f in findings if f.rule == "SEC112"]
    assert 0 < len(sec111) < 40
    assert [str(f.pointer) for f in sec112] == ["/inputSchema"]
