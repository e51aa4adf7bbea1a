"""Best-effort source places for a probed server's tools (``mcplint probe --source-dir DIR``).

A live server says nothing about its code, so each tool is placed where its name is
registered in DIR's source files: ``server.tool("name"``, ``server.registerTool("name"``
(``registerToolTask`` for the TypeScript SDK's task tools), ``@mcp.tool(name="name")``, or
``name: "name"`` in a tools array. The place is marked best
effort (a name can be written in several places; the first registration-looking one wins,
a call before a ``name:`` member), and a tool whose name is found nowhere keeps no source.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from ..model import CodeLocation, CodeMap

SUFFIXES = (".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".py")
SKIP_DIRS = {"node_modules", ".git", "__pycache__", ".venv", "venv", "coverage"}
MAX_FILE_BYTES = 2 * 1024 * 1024
_Q = r"""(["'`])"""


def _patterns(name: str) -> list[re.Pattern]:
    n = re.escape(name)
    return [
        re.compile(rf"""\.(?:tool|registerTool|registerToolTask|addTool)\s*\(\s*{_Q}(?P<name>{n})\1"""),
        re.compile(rf"""\btool\s*\(\s*name\s*=\s*{_Q}(?P<name>{n})\1"""),
        re.compile(rf"""\bname\s*[:=]\s*{_Q}(?P<name>{n})\1"""),
    ]


def source_files(directory: str) -> list[str]:
    out = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(SUFFIXES) and not f.endswith(".d.ts")]
    return out


def _read(path: str) -> str | None:
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return None
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):
        return None


def find_sites(names, directory: str) -> dict:
    """{tool name: CodeLocation} for the names registered somewhere under ``directory``."""
    texts = {p: t for p in source_files(directory) if (t := _read(p)) is not None}
    found: dict = {}
    for name in dict.fromkeys(n for n in names if isinstance(n, str) and n):
        for pattern in _patterns(name):  # the strongest kind of registration first, in any file
            for path, text in texts.items():
                m = pattern.search(text)
                if m:
                    start = m.start("name") - 1  # the opening quote
                    line = text.count("\n", 0, start) + 1
                    col = start - (text.rfind("\n", 0, start) + 1) + 1
                    found[name] = CodeLocation(os.path.relpath(path) if not os.path.isabs(directory) else path,
                                               line, col, "tool name (best effort)", best_effort=True)
                    break
            if name in found:
                break
    return found


def sites_code_map(tools, directory: str, code: CodeMap | None = None) -> tuple[CodeMap, int]:
    """A code map with a best-effort place for each of ``tools`` found under ``directory`` (added
    to what ``code`` holds, if given), and how many of them were placed."""
    sites = find_sites([t.name for t in tools], directory)
    locations = dict(code.locations) if code is not None else {}
    for tool in tools:
        loc = sites.get(tool.name)
        if loc is not None:
            locations[tuple(tool.pointer)] = loc
    texts = dict(code.texts) if code is not None else {}
    for loc in sites.values():
        if loc.file not in texts:
            text = _read(loc.file)
            if text is not None:
                texts[loc.file] = text
    built = replace(code, locations=locations, texts=texts) if code is not None else CodeMap(locations, texts=texts)
    return built, sum(1 for t in tools if t.name in sites)
