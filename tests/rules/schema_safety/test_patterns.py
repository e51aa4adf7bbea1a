"""SEC110-SEC113 beyond the fixture table: the ReDoS detector against its labelled corpora, hostile
expressions analysed in bounded time, and the per-expression analysis budget."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from conftest import lint_json
from mcplint.redos import analyse, analysis, search, validity

DATA = Path(__file__).resolve().parents[2] / "data"
TABLE = yaml.safe_load((DATA / "redos" / "patterns.yaml").read_text(encoding="utf-8"))
CORPUS = [e for e in json.loads((DATA / "redos" / "corpus.json").read_text(encoding="utf-8")) if e["label"] != "invalid"]


def test_corpus_labels_are_measured_and_sourced():
    kinds = {e["label"] for e in CORPUS}
    assert kinds == {"exponential", "polynomial", "safe"}
    for e in CORPUS:
        assert e["origins"], e["pattern"]
        assert validity(e["pattern"]).ok, e["pattern"]
        if e["label"] == "safe":
            assert e["v8"]["worst_ms"] < 1000 and e["v8"]["attacks"] > 0
        else:
            assert e["v8"]["ms"] >= 1000 and e["v8"]["length"] <= 100_000, e


def test_detector_recall_and_false_positive_rate_on_the_v8_labelled_corpus():
    """The goal: recall >= 0.90 on confirmed-vulnerable patterns of each kind, <= 3% false positives."""
    def flagged(e):
        return analyse(e["pattern"]) is not None
    expo = [e for e in CORPUS if e["label"] == "exponential"]
    poly = [e for e in CORPUS if e["label"] == "polynomial"]
    safe = [e for e in CORPUS if e["label"] == "safe"]
    assert len(expo) >= 30 and len(poly) >= 30 and len(safe) >= 200
    recall = {k: sum(map(flagged, v)) / len(v) for k, v in (("exponential", expo), ("polynomial", poly))}
    fp = sum(map(flagged, safe)) / len(safe)
    assert recall["exponential"] >= 0.9 and recall["polynomial"] >= 0.9 and fp <= 0.03, (recall, fp)
    # and the kind is right for most exponential ones
    right = sum(1 for e in expo if (r := analyse(e["pattern"])) is not None and r.kind == "exponential")
    assert right / len(expo) >= 0.8

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
        t = time.process_time()  # CPU time: a loaded machine does not fail it
        analyse(p)
        validity(p)
        assert time.process_time() - t < 1


def test_every_pattern_of_a_file_is_analysed():
    """No per-file budget: 40 distinct vulnerable expressions, 40 findings, nothing given up."""
    props = {f"p{i}": {"type": "string", "pattern": f"^(a+)+{i:04d}" + "b" * 90} for i in range(40)}
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": props}}
    findings = lint_json(tool, select=["SEC111", "SEC112"], bounds={"max-pattern-length": 100})
    assert len([f for f in findings if f.rule == "SEC111"]) == 40
    assert [f for f in findings if f.rule == "SEC112"] == []


def test_each_pattern_the_analysis_gives_up_on_is_reported(monkeypatch):
    monkeypatch.setattr(search, "STEP_BUDGET", 5)
    analysis.cache_clear()
    try:
        long_one = "^" + "[a-z]*-" * 40 + "$"
        tool = {"name": "t", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", "pattern": long_one}, "b": {"type": "string", "pattern": "^x$"},
            "c": {"type": "string", "pattern": long_one + "d"}}}}
        findings = lint_json(tool, select=["SEC111", "SEC112"])
    finally:
        analysis.cache_clear()
    assert sorted(str(f.pointer) for f in findings if f.rule == "SEC112") == [
        "/inputSchema/properties/a/pattern", "/inputSchema/properties/c/pattern"]
    assert all("budget" in f.message for f in findings)


def test_the_analysis_is_quiet_on_stderr(capfd):
    analysis.cache_clear()
    analyse("[[a]]+b")  # Python's parser warns "possible nested set" here
    assert capfd.readouterr().err == ""


def test_a_pattern_the_analysis_cannot_read_is_reported():
    out = analysis("(?<a>x)|(?<a>y)")  # ES2025 allows a name in two alternatives; Python's parser does not
    assert out.risk is None and out.gave_up


@pytest.mark.parametrize("pattern,rewrite", [("^(a+)+$", "^a+$"), ("^(\\d+)*x$", "^\\d*x$"),
                                             ("^\\d+\\d+$", "^\\d{2,}$"), ("^[a-z]*[a-z]+;$", "^[a-z]+;$")])
def test_mechanical_rewrites(pattern, rewrite):
    risk = analyse(pattern)
    assert risk.rewrite == rewrite
    assert analyse(rewrite) is None


def test_no_rewrite_when_it_would_not_remove_the_risk():
    assert analyse("^(\\w+\\s?)+$").rewrite == ""


def test_polynomial_degree():
    assert analyse("^\\d+\\d+$").degree == 2
    assert analyse("^.*a.*a.*b$").degree == 3
