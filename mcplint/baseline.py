"""Baselines: record today's findings, then report only new ones.

A finding is keyed by rule, file, tool, the JSON Pointer *relative to its tool* and the
profile, never by line, so edits that move lines, reformat the file or reorder tools
keep old findings matched. File paths are stored relative to the baseline file's
directory, so the baseline works from any working directory. Keys are counted: if a
key was recorded twice and occurs three times now, one is new.

The file is JSON (version 1), sorted, one entry per finding, with the message and
line kept for people reading it (they are not part of the key)::

    {"version": 1, "findings": [{"rule": "DOC001", "file": "tools.json", "tool": "search",
      "pointer": "/inputSchema/type", "profile": null, "message": "...", "line": 3}]}
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .versions import LATEST

VERSION = 1


def _rel_file(origin: str, base: Path) -> str:
    if origin == "<stdin>":
        return origin
    try:
        return Path(os.path.relpath(Path(origin).resolve(), base.resolve())).as_posix()
    except ValueError:  # another drive (Windows)
        return Path(origin).resolve().as_posix()


def tool_pointers(result) -> dict:
    """(origin, tool name) -> the tool's pointer, for tools whose name is unique in their file."""
    from .collect import collect

    out: dict = {}
    seen: Counter = Counter()
    for doc in result.documents:
        try:
            coll = collect(doc, (LATEST,))
        except Exception:  # noqa: BLE001  (already reported by the scan)
            continue
        for t in coll.tools:
            seen[(doc.source.origin, t.name)] += 1
            out[(doc.source.origin, t.name)] = t.pointer
    return {k: v for k, v in out.items() if seen[k] == 1 and k[1] is not None}


def relative_pointer(f, tools: dict) -> str:
    tp = tools.get((f.origin, f.tool))
    if tp is not None and tuple(f.pointer[:len(tp)]) == tuple(tp):
        from .model import Pointer

        return str(Pointer(f.pointer[len(tp):]))
    return str(f.pointer)


def key(entry: dict) -> tuple:
    return (entry["rule"], entry["file"], entry.get("tool"), entry["pointer"], entry.get("profile"))


def entries(result, base: Path) -> list[dict]:
    tools = tool_pointers(result)
    out = [{"rule": f.rule, "file": _rel_file(f.origin, base), "tool": f.tool, "pointer": relative_pointer(f, tools),
            "profile": f.profile, "message": f.message, "line": f.line} for f in result.findings]
    out.sort(key=lambda e: (e["file"], e["tool"] or "", e["rule"], e["pointer"], e["profile"] or ""))
    return out


def write(path: str, result) -> int:
    """Record every finding of ``result`` in ``path``; returns how many."""
    items = entries(result, Path(path).resolve().parent)
    try:
        from .atomicio import write_atomic

        write_atomic(path, json.dumps({"version": VERSION, "findings": items}, indent=2, ensure_ascii=False) + "\n")
    except OSError as e:
        from .errors import InputError

        raise InputError(f"cannot write the baseline: {e.strerror or e}", origin=path,
                         expected="a writable file path") from None
    return len(items)


def read(path: str) -> Counter:
    """The findings a baseline file records. Whatever the file holds, an error is located and
    exits 2: not UTF-8, not JSON, nested deeper than JSON's parser goes, a number too long to
    read, or JSON that is not a baseline."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("no baseline file here; create it with --update-baseline", origin=path) from None
    except OSError as e:
        raise InputError(f"cannot read baseline: {e.strerror or e}", origin=path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:  # located at the first such byte, which is not quoted
        from .errors import undecodable_at

        line, col = undecodable_at(e)
        raise InputError("the baseline is not UTF-8 text", origin=path, line=line, col=col,
                         expected="the JSON file --update-baseline writes") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"invalid baseline JSON: {e.msg}", origin=path, line=e.lineno, col=e.colno) from None
    except RecursionError:
        raise InputError("not an mcplint baseline: its JSON nests too deep to read", origin=path, line=1, col=1,
                         expected='{"version": 1, "findings": [...]}') from None
    except ValueError as e:  # an integer too long to convert (Python's limit: 4,300 digits)
        from .load import long_number

        line, col, what = long_number(text)
        raise InputError(f"invalid baseline JSON: {what or e}", origin=path, line=line, col=col,
                         expected="a number of at most 4300 digits" if what else None) from None
    if not (isinstance(data, dict) and data.get("version") == VERSION and isinstance(data.get("findings"), list)):
        raise InputError("not an mcplint baseline", origin=path, expected='{"version": 1, "findings": [...]}')
    try:
        return Counter(key(e) for e in data["findings"])
    except (KeyError, TypeError, AttributeError):
        raise InputError("a baseline entry lacks rule, file or pointer", origin=path) from None


@dataclass
class Applied:
    matched: int  # findings hidden because the baseline holds them
    fixed: int  # baseline entries no longer found


def apply(path: str, result) -> Applied:
    """Drop the findings of ``result`` that ``path`` records (in place)."""
    recorded = read(path)
    remaining = Counter(recorded)
    tools = tool_pointers(result)
    base = Path(path).resolve().parent
    kept, matched = [], 0
    for f in result.findings:
        k = (f.rule, _rel_file(f.origin, base), f.tool, relative_pointer(f, tools), f.profile)
        if remaining[k] > 0:
            remaining[k] -= 1
            matched += 1
        else:
            kept.append(f)
    result.findings = kept
    scanned = {_rel_file(d.source.origin, base) for d in result.documents}
    return Applied(matched, sum(n for k, n in remaining.items() if k[1] in scanned))
