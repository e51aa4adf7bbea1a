"""Adversarial inputs, small sizes, through the real CLI in a subprocess: each ends with
a finding or a clear input error (exit 2), never a traceback or an internal error
(exit 3), and quickly. bench/adversarial.py runs the same generators at full size."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import resource
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("adversarial_inputs", ROOT / "bench" / "adversarial.py")
adv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adv)  # type: ignore[union-attr]

pytestmark = pytest.mark.slow


def scan(tmp_path, text: str, *args: str, stdin: str | None = None, name: str = "case.json"):
    path = tmp_path / name
    if stdin is None:
        path.write_text(text, encoding="utf-8")
    cmd = [sys.executable, "-m", "mcplint", "scan", "-" if stdin is not None else str(path), "--format", "json",
           "--no-config", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, input=stdin, cwd=str(tmp_path), timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # the scan's CPU time (user + system), not the wall clock: a busy machine does not fail these bounds
    elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode != 3, proc.stderr
    findings = json.loads(proc.stdout)["findings"] if proc.stdout.strip().startswith("{") else []
    return proc, findings, elapsed


def rules(findings):
    return {f["rule"] for f in findings}


def test_deep_nesting_beyond_the_parser_is_a_located_error(tmp_path):
    proc, findings, elapsed = scan(tmp_path, adv.deep_nesting(100_000))
    assert proc.returncode == 2
    assert "case.json:1:1" in proc.stderr and "nesting is too deep" in proc.stderr
    assert elapsed < 10


def test_deep_yaml_nesting_is_a_located_error(tmp_path):
    text = "name: deep\ninputSchema: " + "[" * 20_000 + "]" * 20_000 + "\n"
    proc, _, _ = scan(tmp_path, text, name="case.yaml")
    assert proc.returncode == 2 and "case.yaml:2:" in proc.stderr and "nesting depth" in proc.stderr


def test_nesting_just_parseable_reports_depth(tmp_path):
    proc, findings, _ = scan(tmp_path, adv.mixed_nesting(600))
    assert proc.returncode == 1
    sec105 = [f for f in findings if f["rule"] == "SEC105"]
    assert len(sec105) == 1 and sec105[0]["line"] == 1 and sec105[0]["pointer"].startswith("/inputSchema/properties/x/")


def test_ref_fanout_is_bounded(tmp_path):
    proc, findings, elapsed = scan(tmp_path, adv.ref_fanout(40))
    assert proc.returncode == 1
    hit = [f for f in findings if f["rule"] == "SEC109"]
    assert hit and hit[0]["pointer"] == "/inputSchema" and "more than 10000 substitutions" in hit[0]["message"]
    assert elapsed < 10


def test_ref_loop_is_reported_once(tmp_path):
    proc, findings, _ = scan(tmp_path, adv.ref_chain(300, loop=True))
    assert proc.returncode == 1
    assert [f["pointer"] for f in findings if f["rule"] == "SEC103"] == ["/inputSchema/$defs/d0/$ref"]


def test_large_enum(tmp_path):
    proc, findings, elapsed = scan(tmp_path, adv.big_enum(20_000))
    assert proc.returncode == 1
    hit = [f for f in findings if f["rule"] == "SEC107"]
    assert hit and hit[0]["pointer"] == "/inputSchema/properties/c/enum" and "20000 values" in hit[0]["message"]
    assert elapsed < 10


def test_large_file_with_a_duplicate_key(tmp_path):
    proc, findings, elapsed = scan(tmp_path, adv.big_enum_duplicate_key(200_000))
    assert proc.returncode == 1
    assert {"DOC001", "SEC107"} <= rules(findings)
    dup = [f for f in findings if f["rule"] == "DOC001"]
    assert dup[0]["pointer"] == "/name" and dup[0]["line"] == 1
    assert elapsed < 20


@pytest.mark.parametrize("case", [lambda: adv.big_enum_duplicate_key(300_000),
                                  lambda: adv.long_string_duplicate_key(3_000_000)], ids=["enum", "string"])
def test_finding_a_duplicate_key_costs_no_memory_per_member_or_character(tmp_path, case):
    """Looking for a repeated key reads big arrays and long strings without a regular expression
    that keeps a backtracking frame per member or character (that took hundreds of MiB)."""
    path = tmp_path / "case.json"
    path.write_text(case(), encoding="utf-8")
    measured = adv.run_case(str(path))
    assert measured["code"] == 1 and "DOC001" in measured["findings"]
    assert measured["rss_mib"] < 150, measured


def test_redos_patterns_are_flagged_never_run(tmp_path):
    proc, findings, elapsed = scan(tmp_path, adv.redos_patterns(30), "--fail-on", "warning")
    assert proc.returncode == 1
    flagged = {f["pointer"] for f in findings if f["rule"] == "SEC111"}
    assert "/inputSchema/properties/p0/pattern" in flagged and "/inputSchema/properties/p2/pattern" in flagged
    assert elapsed < 10


def test_file_over_the_size_bound_is_refused(tmp_path):
    cfg = tmp_path / ".mcplint.yaml"
    cfg.write_text("bounds: {max-file-bytes: 20000}\n")
    big = adv.huge_file(1)
    path = tmp_path / "big.json"
    path.write_text(big)
    proc = subprocess.run([sys.executable, "-m", "mcplint", "scan", str(path), "--config", str(cfg)],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 2 and "over the limit of 20000" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "mcplint", "scan", "-", "--config", str(cfg)], input=big,
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 2 and "over the limit of 20000" in proc.stderr
