"""The text report shows a long fix once per file: the same words for another tool of the file
refer back to the first ("fix: as for tool a above"), as a server's 53 tools would each repeat
one paragraph; a short fix, another file, and --show-fixes keep the words. A line longer than the
report's width wraps. Information is one line per rule and file with its count; with --show-info, the
same information (an info finding with the same words) on another tool of the file is one line that
refers back."""

from __future__ import annotations

import json
from dataclasses import replace

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Fix, Severity
from mcplint.report import Options, render

LONG = Fix("The SDK writes this arguments object itself from the function's parameters: send the tool "
           "strict through a client that closes every object, or send it non-strict")
SHORT = Fix("Add a description")


def _result(tmp_path, fix: Fix, files=("a",)):
    paths = []
    for name in files:
        path = tmp_path / f"{name}.tools.json"
        path.write_text(json.dumps({"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b", "c")]}))
        paths.append(str(path))
    result = lint_paths(paths, Config(select=("MCP125",)))
    assert len(result.findings) == 3 * len(files)
    # as warnings: a repeated piece of information is folded whole (below)
    result.findings = [replace(f.with_fix(fix), severity=Severity.WARNING) for f in result.findings]
    return result


def _flat(text: str) -> str:
    """The report's words with every run of spaces and line breaks as one space (a long line wraps)."""
    return " ".join(text.split())


def test_a_long_fix_is_shown_once_per_file(tmp_path):
    text = render("text", _result(tmp_path, LONG, ("a", "b")), Options(color=False))
    assert max(len(line) for line in text.splitlines() if " | " not in line) <= 120  # the fix wraps (150 characters)
    assert _flat(text).count(LONG.title) == 2  # once in each file
    assert text.count("fix: as for tool a above") == 4  # b and c, in each file
    shown = render("text", _result(tmp_path, LONG), Options(color=False, show_fixes=True))
    assert _flat(shown).count(LONG.title) == 3 and "as for tool" not in shown


def test_a_short_fix_is_repeated(tmp_path):
    text = render("text", _result(tmp_path, SHORT), Options(color=False))
    assert text.count(f"fix: {SHORT.title}") == 3 and "as for tool" not in text


def test_the_same_information_on_another_tool_is_one_line(tmp_path):
    path = tmp_path / "a.tools.json"
    path.write_text(json.dumps({"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b", "c")]},
                               indent=2))
    result = lint_paths([str(path)], Config(select=("MCP125",)))
    assert [f.severity for f in result.findings] == [Severity.INFO] * 3
    text = render("text", result, Options(color=False, show_info=True))
    assert text.count("this tool takes no parameters") == 1 and text.count("> ") == 1  # words and frame once
    assert text.count("inputSchema: the same as for tool a above (--verbose repeats it)") == 2
    assert "Found 3 info" in text  # every finding still counted
    verbose = render("text", result, Options(color=False, verbose=True))
    assert verbose.count("this tool takes no parameters") == 3 and "the same as for tool" not in verbose
    other = tmp_path / "b.tools.json"  # near miss: another file shows it again
    other.write_text(path.read_text())
    both = render("text", lint_paths([str(path), str(other)], Config(select=("MCP125",))),
                  Options(color=False, show_info=True))
    assert both.count("this tool takes no parameters") == 2


def test_information_is_one_line_per_rule_and_file_unless_asked_for(tmp_path):
    """Information asks nothing of the author: by default one line per rule and file says what it
    is about and how many there are, on how many tools; no tool heading, no code frame, no fix.
    --show-info and --verbose list each; a warning among them is listed as before."""
    path = tmp_path / "a.tools.json"
    path.write_text(json.dumps({"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b", "c")]},
                               indent=2))
    result = lint_paths([str(path)], Config(select=("MCP125",)))
    result.findings[2] = replace(result.findings[2], severity=Severity.WARNING)  # near miss: listed in full
    lines = render("text", result, Options(color=False)).splitlines()
    folded = [ln for ln in lines if "MCP125" in ln and "info" in ln]
    assert len(folded) == 1 and "2 findings on 2 tools: A tool without parameters does not forbid" in _flat(
        "\n".join(lines))
    assert "--show-info lists each" in lines[lines.index(folded[0]) - 1]
    assert "  tool a" not in lines and "  tool b" not in lines and "  tool c" in lines
    assert sum("> " in ln for ln in lines) == 1 and sum(ln.strip().startswith("fix:") for ln in lines) == 1
    assert "Found 1 warning, 2 info in 1 file, 3 tools." in lines  # every finding still counted
    for options in (Options(color=False, show_info=True), Options(color=False, verbose=True)):
        listed = render("text", result, options)
        assert "--show-info lists each" not in listed and "  tool a" in listed
    for fmt in ("concise", "github", "markdown"):  # one line (row, notice) for the two, with the count
        out = render(fmt, result, Options())
        assert out.count("2 findings on 2 tools") == (0 if fmt == "markdown" else 1), fmt
        assert render(fmt, result, Options(show_info=True)).count("A tool without parameters does not") == 0
    assert "| 2 tools |" in render("markdown", result, Options())
    assert render("json", result, Options()).count('"MCP125"') >= 3  # JSON keeps each


def test_show_info_and_fail_on_info_list_each_from_the_command_line(tmp_path):
    """`scan` folds information by default; `--show-info` lists each, and so does `--fail-on info`
    (information then fails the run, so each occurrence is shown), from the flag or the config."""
    from click.testing import CliRunner

    from mcplint.cli import main

    path = tmp_path / "a.tools.json"
    path.write_text(json.dumps({"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b")]},
                               indent=2))

    def scan(*args):
        return CliRunner().invoke(main, ["scan", str(path), "--select", "MCP125", "--no-color", *args])

    folded = scan("--no-config")
    assert folded.exit_code == 0 and "2 findings on 2 tools" in folded.output and "  tool a" not in folded.output
    for args in (["--no-config", "--show-info"], ["--no-config", "--fail-on", "info"]):
        listed = scan(*args)
        assert "  tool a" in listed.output and "  tool b" in listed.output and "findings on 2 tools" not in listed.output
    (tmp_path / ".mcplint.yaml").write_text("fail-on: info\n")
    from_config = scan("--config", str(tmp_path / ".mcplint.yaml"))
    assert from_config.exit_code == 1 and "  tool b" in from_config.output
