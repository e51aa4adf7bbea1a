"""The keyword x target matrix of docs/targets.md is generated, not typed: it must be exactly what
`mcplint verify --report` renders now (with whatever decoders are installed: a live
verdict shows only where it differs from its profile, which the truth lab forbids)."""

from __future__ import annotations

import pytest

import re

from click.testing import CliRunner

from conftest import ROOT
from mcplint.cli import main
from mcplint.profiles import builtin_names
from mcplint.verify.suite import PROBES

BEGIN, END = "<!-- BEGIN verify --report -->\n", "<!-- END verify --report -->"


def matrix_table() -> str:
    text = (ROOT / "docs" / "targets.md").read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, "docs/targets.md needs one pair of report markers"
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


@pytest.mark.slow
def test_the_matrix_is_what_verify_report_generates():
    r = CliRunner().invoke(main, ["verify", "--report"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert matrix_table() == r.output, (
        "docs/targets.md's matrix is out of date: regenerate it with `mcplint verify --report` "
        "and paste it between the markers")


def test_matrix_covers_every_probe_and_profile():
    table = matrix_table()
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) == len(PROBES)
    header = table.splitlines()[0]
    assert re.findall(r"`([a-z0-9-]+)`", header) and set(re.findall(r"`([a-z0-9-]+)`", header)) == set(builtin_names())


def test_matrix_says_what_the_profiles_say():
    """Spot checks that would break if cells were shuffled."""
    table = matrix_table()
    header = [c.strip().strip("`") for c in table.splitlines()[0].strip("|").split("|")]

    def cell(probe, profile):
        for line in table.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == len(header) and cells[1] == probe:
                return cells[header.index(profile)]
        raise AssertionError(probe)

    assert cell("uniqueItems", "xgrammar") == "drop"
    assert cell("uniqueItems", "llguidance") == "reject"
    assert cell("minimum", "outlines") == "drop"
    assert cell("minimum", "anthropic-strict") == "reject"
    assert cell("allOf", "openai-strict") == "reject"
    assert cell("type-string", "gemini-openapi") == "✓"


def test_report_takes_no_paths(tmp_path):
    f = tmp_path / "t.json"
    f.write_text("{}", encoding="utf-8")
    r = CliRunner().invoke(main, ["verify", "--report", str(f)])
    assert r.exit_code == 2 and "takes no PATHS" in r.output
