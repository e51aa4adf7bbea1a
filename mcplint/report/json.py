"""``--format json``: the stable machine contract (version 1)."""

from __future__ import annotations

import json

from . import fix_dict, summary


def finding_dict(f) -> dict:
    return {
        "rule": f.rule,
        "name": f.name,
        "severity": f.severity.label,
        "message": f.message,
        "file": f.origin,
        "line": f.line,
        "column": f.column,
        "pointer": str(f.pointer),
        "tool": f.tool,
        "slot": f.slot,
        "protocol_version": f.protocol_version,
        "profile": f.profile,
        "fix": fix_dict(f.fix),
    }


def render(result, options) -> str:
    return json.dumps({"version": 1, "findings": [finding_dict(f) for f in result.findings],
                       "summary": summary(result)}, indent=2, ensure_ascii=False) + "\n"
