"""Stage 4, report: findings -> text for people, JSON/SARIF/annotations for machines.

Each reporter is a module with ``render(result, options) -> str``; they are imported
only when chosen, so a JSON run never pays for rich.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

REPORTERS = {
    "text": "mcplint.report.text",
    "json": "mcplint.report.json",
    "sarif": "mcplint.report.sarif",
    "github": "mcplint.report.github",
}


@dataclass(frozen=True)
class Options:
    color: bool = False
    verbose: bool = False
    context_lines: int = 1  # lines of code frame around a finding
    width: int = 100


def render(fmt: str, result, options: Options = Options()) -> str:
    return importlib.import_module(REPORTERS[fmt]).render(result, options)


def summary(result) -> dict:
    from ..model import Severity

    return {
        "files": result.files,
        "tools": result.tools,
        "errors": result.count(Severity.ERROR),
        "warnings": result.count(Severity.WARNING),
        "infos": result.count(Severity.INFO),
    }


def fix_dict(fix) -> dict | None:
    if fix is None:
        return None
    return {"title": fix.title, "patch": list(fix.patch) if fix.patch else None}
