"""The flags users know from ruff: --output-format (and its alias --format) with concise and
full, --exit-zero, -q/--quiet, --show-fixes, --max-file-bytes."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from mcplint.cli import main

# five unknown annotation members in one tool (folded by `text` after three), one open
# zero-argument schema, no resultType (nor ttlMs, cacheScope) on the tools/list result: 8 findings
TOOLS = {"tools": [{"name": "t", "description": "Tags a page.", "inputSchema": {"type": "object"},
                    "annotations": {f"x{i}": 1 for i in range(5)}}]}


def run(args, input=None):  # as 2026-07-28, where TOOLS' resultType fix applies (the file names no version)
    return CliRunner().invoke(main, ["scan", "--no-config", "--protocol-version", "2026-07-28", *args], input=input,
                              catch_exceptions=False)


@pytest.fixture
def tools(tmp_path):
    f = tmp_path / "tools.json"
    f.write_text(json.dumps(TOOLS, indent=2))
    return f


def test_concise_is_one_clickable_line_per_finding(tools):
    r = run(["--output-format", "concise", str(tools)])
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    full = json.loads(run(["--format", "json", str(tools)]).stdout)["findings"]
    assert len(lines) == len(full) + 1  # and the summary
    pattern = re.compile(rf"^{re.escape(str(tools))}:(\d+):(\d+): ([A-Z]{{3}}\d{{3}})( \[\*\])? \S")
    places = []
    for line in lines[:-1]:
        m = pattern.match(line)
        assert m, line
        places.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    assert sorted(places) == sorted((f["line"], f["column"], f["rule"]) for f in full)
    assert "MCP128 [*] " in r.stdout  # resultType "complete": a safe fix
    assert "MCP112 [*]" not in r.stdout  # removing a member is unsafe
    assert lines[-1].startswith("Found 8 findings") and "[*] 1 fixable with --fix" in lines[-1]


def test_format_is_an_alias_of_output_format(tools):
    for fmt in ("concise", "json", "text"):
        assert run(["--format", fmt, str(tools)]).stdout == run(["--output-format", fmt, str(tools)]).stdout


def test_full_lists_every_finding_where_text_folds(tools):
    text = run(["--output-format", "text", str(tools)]).stdout
    full = run(["--output-format", "full", str(tools)]).stdout
    assert "... and 2 more MCP112" in text
    assert "more MCP112" not in full and full.count("MCP112 unknown-annotation-member") == 5
    assert full == run(["--verbose", str(tools)]).stdout


def test_exit_zero(tools, tmp_path):
    assert run([str(tools)]).exit_code == 1
    assert run(["--exit-zero", str(tools)]).exit_code == 0
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert run(["--exit-zero", str(tools), str(broken)]).exit_code == 2  # unreadable input still counts


def test_quiet_prints_findings_only(tools, tmp_path):
    loud = run([str(tools)])
    quiet = run(["-q", str(tools)])
    assert "Found 8 findings" not in quiet.stdout and "Found" in loud.stdout
    assert "MCP112" in quiet.stdout
    concise = run(["--quiet", "--output-format", "concise", str(tools)]).stdout.splitlines()
    assert len(concise) == 8 and all(": MCP" in ln for ln in concise)
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"name": "a", "description": "Adds a row.",
                                 "inputSchema": {"type": "object", "additionalProperties": False}}))
    assert run(["-q", str(clean)]).stdout == ""
    # a run-level warning (a suppress entry that matched nothing) is not printed with -q
    cfg = tmp_path / "c.yaml"
    cfg.write_text("suppress: [{rule: SEC101, pointer: /nope}]\n")
    args = ["scan", "--config", str(cfg), str(clean)]
    assert "warning: suppress entry" in CliRunner().invoke(main, args).stderr
    assert "warning" not in CliRunner().invoke(main, [*args, "-q"]).stderr


def test_show_fixes_prints_the_patch_and_whether_fix_applies_it(tools):
    r = run(["--show-fixes", str(tools)])
    assert 'fix (safe: --fix applies it): Add "resultType": "complete"' in r.stdout
    assert '  add /resultType "complete"' in r.stdout
    assert "fix (unsafe: only with --unsafe-fixes)" in r.stdout and "remove /tools/0/annotations/x0" in r.stdout
    concise = run(["--show-fixes", "--output-format", "concise", str(tools)]).stdout
    assert '      add /tools/0/inputSchema/additionalProperties false' in concise
    assert "add /resultType" not in run([str(tools)]).stdout


def test_max_file_bytes(tools):
    size = tools.stat().st_size
    r = run(["--max-file-bytes", str(size - 1), str(tools)])
    assert r.exit_code == 2
    assert f"file is {size} bytes, over the limit of {size - 1}" in r.stderr
    assert run(["--max-file-bytes", str(size), str(tools)]).exit_code == 1
    assert run(["--max-file-bytes", "0", str(tools)]).exit_code == 2  # a usage error
    stdin = run(["--max-file-bytes", "10", "-"], input=json.dumps(TOOLS))
    assert stdin.exit_code == 2 and "over the limit of 10 bytes" in stdin.stderr


def test_statistics_stays(tools):
    r = run(["--statistics", str(tools)])
    assert r.exit_code == 1 and re.search(r"^5\s+MCP112", r.stdout, re.M)
    assert "1 file, 1 tool" in r.stdout


def test_statistics_says_info_as_the_other_formats_do(tmp_path):
    two = tmp_path / "two.json"  # two open zero-argument schemas: 2 MCP125 infos
    two.write_text(json.dumps([{"name": n, "description": "Adds a row.", "inputSchema": {"type": "object"}}
                               for n in ("a", "b")]))
    assert "(0 errors, 0 warnings, 2 info) in 1 file, 2 tools." in run(["--statistics", str(two)]).stdout
    assert "(0 errors, 0 warnings, 2 info) in 1 file, 2 tools." in run(["--output-format", "concise", str(two)]).stdout


def test_text_says_how_many_findings_fix_would_fix(tools, tmp_path):
    out = run([str(tools)]).stdout.splitlines()
    assert out[-1] == "[*] 1 fixable with --fix (6 more with --unsafe-fixes)."  # resultType; 5 x MCP112, MCP125
    assert "fixable" not in run(["-q", str(tools)]).stdout
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"name": "a", "inputSchema": {"type": "object", "additionalProperties": False}}))
    assert "fixable" not in run([str(clean)]).stdout


def test_concise_counts_the_fixes_as_text_does(tools, tmp_path):
    """ruff's one-line format ends with the same fix count as its full one, unsafe fixes included."""
    last = run(["--output-format", "concise", str(tools)]).stdout.splitlines()[-1]
    assert last.endswith(" [*] 1 fixable with --fix (6 more with --unsafe-fixes).")
    only_unsafe = tmp_path / "u.json"  # one tool whose only fixes are unsafe (MCP125, MCP104)
    only_unsafe.write_text(json.dumps({"name": "a", "inputSchema": {"type": "object"}, "bogus": 1}))
    last = run(["--output-format", "concise", str(only_unsafe)]).stdout.splitlines()[-1]
    assert last.endswith(" 2 unsafe fixes available with --fix --unsafe-fixes.")
    assert "fixable" not in run(["--output-format", "concise", "-q", str(tools)]).stdout


def test_probe_takes_the_same_flags():
    import sys
    from pathlib import Path

    server = str(Path(__file__).parent.parent / "probe_servers" / "stdio_server.py")
    def probe(*flags):
        argv = ["probe", "--no-config", *flags, "--", sys.executable, server]
        return CliRunner().invoke(main, argv, catch_exceptions=False)

    # (its findings are information: members older versions lack, in the one list it sends to all)
    plain = probe("--output-format", "concise", "--fail-on", "info")
    assert plain.exit_code == 1, plain.stderr
    assert re.search(r"^<probe [^>]+>:\d+:\d+: [A-Z]{3}\d{3} ", plain.stdout, re.M)
    zero = probe("--exit-zero", "-q", "--output-format", "concise", "--fail-on", "info")
    assert zero.exit_code == 0 and "Found" not in zero.stdout
    assert zero.stdout.splitlines() == plain.stdout.splitlines()[:-1]  # the same findings, no summary


def test_concise_points_at_the_python_code_of_a_server():
    from pathlib import Path

    server = Path(__file__).parent.parent / "pyservers" / "app" / "server.py"
    r = CliRunner().invoke(main, ["scan", "--no-config", str(server), "--profile", "openai-strict",
                                  "--output-format", "concise"], catch_exceptions=False)
    lines = r.stdout.splitlines()[:-1]
    assert lines and all(re.match(r"^\S+\.py:\d+:\d+: [A-Z]{3}\d{3} ", ln) for ln in lines), lines[:3]
    assert any(re.match(r"^(\S*/)?app/models\.py:\d+:\d+: ", ln) for ln in lines)  # a model in its own module
    assert "[*]" not in r.stdout  # nothing --fix would edit: the tools come from code


def test_code_frame_of_a_file_with_byte_order_mark_points_where_its_column_says(tmp_path):
    """Columns count from after a BOM; the frame shows line 1 without it, so the caret under it
    stands at that column (and concise output gives the same column)."""
    f = tmp_path / "bom.json"
    f.write_text('\ufeff{"tools": [{"name": "t", "inputSchema": {"type": "object"}, "bogus": 1}]}\n', encoding="utf-8")
    out = run(["--output-format", "full", "--select", "MCP104", str(f)]).stdout
    frame = out.split("\n")
    i = next(n for n, line in enumerate(frame) if line.lstrip().startswith("> 1 |"))
    source, caret = frame[i], frame[i + 1]
    assert "\ufeff" not in out
    assert source[caret.index("^"):].startswith('"bogus"')
    assert f"{f}:1:{caret.index('^') - source.index('{') + 1}: MCP104" in run(
        ["--output-format", "concise", "--select", "MCP104", str(f)]).stdout


def test_unsafe_fixes_alone_marks_and_counts_the_unsafe_fixes_too(tools):
    """As in ruff: --unsafe-fixes without --fix makes the report treat unsafe fixes as applicable
    (the [*] marks and the count say what `--fix --unsafe-fixes` would do); nothing is written."""
    before = tools.read_text()
    plain = run(["--output-format", "concise", "--show-info", str(tools)]).stdout.splitlines()
    unsafe = run(["--output-format", "concise", "--show-info", "--unsafe-fixes", str(tools)]).stdout.splitlines()
    assert sum("[*]" in x for x in plain[:-1]) == 1 and sum("[*]" in x for x in unsafe[:-1]) == 7
    assert unsafe[-1].endswith(" [*] 7 fixable with --fix --unsafe-fixes.")
    assert run(["--unsafe-fixes", str(tools)]).stdout.splitlines()[-1] == "[*] 7 fixable with --fix --unsafe-fixes."
    stats = run(["--statistics", "--unsafe-fixes", str(tools)]).stdout
    assert re.search(r"^5\s+MCP112\s+\[\*\] unknown-annotation-member", stats, re.M)
    assert re.search(r"^5\s+MCP112\s+\[ \] unknown-annotation-member", run(["--statistics", str(tools)]).stdout, re.M)
    assert tools.read_text() == before


def test_text_and_full_mark_each_fixable_finding_as_concise_does(tools):
    """`[*]` before a finding's message in the text and full formats too (as ruff's full output),
    on exactly the findings concise marks, with --unsafe-fixes on the unsafe ones as well."""
    for extra in ([], ["--unsafe-fixes"]):
        concise = run(["--output-format", "concise", "--show-info", *extra, str(tools)]).stdout.splitlines()[:-1]
        marked = sorted(re.match(r".*?:(\d+):(\d+): (\w+)", x).groups() for x in concise if " [*] " in x)
        full = run(["--output-format", "full", *extra, str(tools)]).stdout
        rows = re.findall(r"^    (\d+):(\d+)\s+\w+\s+(\w+) \S+  (\[\*\] )?", full, re.M)
        assert len(rows) == len(concise)
        assert sorted((a, b, c) for a, b, c, star in rows if star) == marked
        assert marked  # the table has fixable findings in both runs
