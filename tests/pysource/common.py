"""What the Python-server tests share: where the test servers are, and the check that each
finding's Python line holds what its pointer names."""

from __future__ import annotations

import os
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SERVERS = HERE / "pyservers"
REALISTIC = HERE / "data" / "corpus" / "fastmcp_realistic.py"
ALIASES = {"fullName": "full_name", "maxResults": "max_results", "Region": "region"}  # schema name -> Python name
# (tests/pyservers/app/models.py and server.py)


def rel(p: Path) -> str:
    return os.path.relpath(p, HERE.parent)


def _text_at(file: str, line: int, column: int) -> str:
    return Path(file).read_text(encoding="utf-8").splitlines()[line - 1][column - 1:]


def _expected(f) -> tuple[str, str]:
    """(what the pointer names, how the code at the finding must start) for one finding."""
    p = list(f.pointer)
    deepest = None
    for i in range(len(p) - 1):
        if p[i] in ("properties", "$defs") and isinstance(p[i + 1], str):
            deepest = (p[i], p[i + 1], i)
    if deepest and deepest[0] == "properties" and not (deepest[1] == "result" and p[1] == "outputSchema"):
        return "property", ALIASES.get(deepest[1], deepest[1])
    if deepest and deepest[0] == "$defs":
        return "class", f"class {deepest[1]}"
    if len(p) >= 2 and p[1] == "outputSchema":
        return "return", ""
    return "function", "def "


def check_lines(findings) -> int:
    """Every finding's Python line and column hold what its pointer names; returns how many."""
    checked = 0
    for f in findings:
        assert f.source is not None, f"{f.rule} at {f.pointer} has no Python location"
        kind, start = _expected(f)
        text = _text_at(f.source.file, f.source.line, f.source.column)
        if kind == "property":
            assert re.match(rf"{re.escape(start)}\s*:", text), (f.rule, str(f.pointer), f.source, text)
        elif kind == "return":
            line = Path(f.source.file).read_text().splitlines()[f.source.line - 1]
            assert "->" in line[:f.source.column], (str(f.pointer), f.source, line)
        elif kind == "function":
            assert text.startswith(("def ", "async def ")), (str(f.pointer), f.source, text)
        else:
            assert re.match(rf"{start}\s*[(:]", text), (str(f.pointer), f.source, text)
        checked += 1
    return checked
