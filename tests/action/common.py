"""What the action's tests share."""

from __future__ import annotations

from pathlib import Path

BAD = '{"tools": [\n  {"name": "search", "inputSchema": {"type": "object", "type": "object"}}\n]}\n'
GOOD = '{"tools": [{"name": "fetch", "inputSchema": {"type": "object"}}]}\n'
CONFIG = "select: [DOC001]\n"  # exact expectations: only the rule these files are built for


def outputs(path: Path) -> dict:
    return dict(line.split("=", 1) for line in path.read_text().splitlines())
