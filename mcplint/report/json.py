"""``--format json``: the stable machine contract (version 2).

Version 2 (from version 1): ``errors`` lists the inputs that could not be read, beside the
findings of those that could; each ``fix`` says its ``applicability`` (safe, unsafe,
display-only).
"""

from __future__ import annotations

import json

from . import error_dict, fix_dict, summary

VERSION = 2


def finding_dict(f) -> dict:
    d = {
        "rule": f.rule,
        "name": f.name,
        "severity": f.severity.label,
        "message": f.message,
        "file": f.file,
        "line": f.line,
        "column": f.column,
        "pointer": str(f.pointer),
        "tool": f.tool,
        "slot": f.slot,
        "protocol_version": f.protocol_version,
        "profile": f.profile,
        "fix": fix_dict(f.fix, f.rule),
    }
    if f.source:  # a Python server: file/line/column are in its code; the pointer is into what it generates
        d["source"] = {"file": f.source.file, "line": f.source.line, "column": f.source.column,
                       "what": f.source.what, "best_effort": f.source.best_effort}
        d["generated_from"] = f.origin
    return d


def render(result, options) -> str:
    return json.dumps({"version": VERSION, "findings": [finding_dict(f) for f in result.findings],
                       "errors": [error_dict(e) for e in result.errors],
                       "summary": summary(result)}, indent=2, ensure_ascii=False) + "\n"
