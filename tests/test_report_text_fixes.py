"""The text report shows a long fix once per file: the same words for another tool of the file
refer back to the first ("fix: as for tool a above"), as a server's 53 tools would each repeat
one paragraph; a short fix, another file, and --show-fixes keep the words."""

from __future__ import annotations

import json

from mcplint.config import Config
from mcplint.engine import lint_paths
from mcplint.model import Fix
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
    result.findings = [f.with_fix(fix) for f in result.findings]
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
