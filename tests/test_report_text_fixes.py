"""The text report shows a long fix once per file: the same words for another tool of the file
refer back to the first ("fix: as for tool a above"), as a server's 53 tools would each repeat
one paragraph; a short fix, another file, and --show-fixes keep the words. The same information
(an info finding with the same words) on another tool of the file is one line that refers back."""

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


def test_a_long_fix_is_shown_once_per_file(tmp_path):
    text = render("text", _result(tmp_path, LONG, ("a", "b")), Options(color=False))
    assert text.count(LONG.title) == 2  # once in each file
    assert text.count("fix: as for tool a above") == 4  # b and c, in each file
    shown = render("text", _result(tmp_path, LONG), Options(color=False, show_fixes=True))
    assert shown.count(LONG.title) == 3 and "as for tool" not in shown


def test_a_short_fix_is_repeated(tmp_path):
    text = render("text", _result(tmp_path, SHORT), Options(color=False))
    assert text.count(f"fix: {SHORT.title}") == 3 and "as for tool" not in text


def test_the_same_information_on_another_tool_is_one_line(tmp_path):
    path = tmp_path / "a.tools.json"
    path.write_text(json.dumps({"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in ("a", "b", "c")]},
                               indent=2))
    result = lint_paths([str(path)], Config(select=("MCP125",)))
    assert [f.severity for f in result.findings] == [Severity.INFO] * 3
    text = render("text", result, Options(color=False))
    assert text.count("this tool takes no parameters") == 1 and text.count("> ") == 1  # words and frame once
    assert text.count("inputSchema: the same as for tool a above (--verbose repeats it)") == 2
    assert "Found 3 info" in text  # every finding still counted
    verbose = render("text", result, Options(color=False, verbose=True))
    assert verbose.count("this tool takes no parameters") == 3 and "the same as for tool" not in verbose
    other = tmp_path / "b.tools.json"  # near miss: another file shows it again
    other.write_text(path.read_text())
    both = render("text", lint_paths([str(path), str(other)], Config(select=("MCP125",))), Options(color=False))
    assert both.count("this tool takes no parameters") == 2
