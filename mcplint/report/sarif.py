"""``--format sarif``: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

Rule metadata (``driver.rules``) comes from the same RuleMeta as ``mcplint rule``.
Every result has a physical location with a region, the JSON Pointer as a logical
location, and a partial fingerprint that survives line moves.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .. import __version__
from ..registry import all_rules

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def artifact_uri(origin: str) -> str:
    if origin == "<stdin>":
        return "stdin"
    p = Path(origin)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        p = p.resolve()
        return p.as_uri()
    return p.as_posix()


def fingerprint(f) -> str:
    key = "\x1f".join([f.rule, f.origin, f.tool or "", str(f.pointer), f.profile or "", f.message])
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def rule_descriptor(m) -> dict:
    help_text = f"{m.summary}\n\nFix: {m.fix}\n\n{m.explanation}"
    return {
        "id": m.id,
        "name": m.name,
        "shortDescription": {"text": m.summary},
        "fullDescription": {"text": m.sections.get("What it does", m.summary)},
        "help": {"text": help_text, "markdown": f"**{m.name} ({m.id})**\n\n{m.summary}\n\n"
                                                 f"**Fix:** {m.fix}\n\n{m.explanation}"},
        "helpUri": m.url,
        "defaultConfiguration": {"level": LEVEL[m.severity.label]},
        "properties": {"family": m.family, "tags": [m.family, "mcp"], "scope": m.scope},
    }


def render(result, options) -> str:
    metas = all_rules()
    index = {m.id: i for i, m in enumerate(metas)}
    results = []
    for f in result.findings:
        region = {"startLine": f.line, "startColumn": f.column}
        if f.span:
            region.update(endLine=f.span.end_line, endColumn=f.span.end_col)
        msg = f.message
        if f.profile:
            msg = f"[{f.profile}] {msg}"
        if f.fix:
            msg += f" Fix: {f.fix.title}"
        props = {"pointer": str(f.pointer), "tool": f.tool, "slot": f.slot,
                 "protocolVersion": f.protocol_version, "profile": f.profile}
        if f.fix and f.fix.patch:
            props["jsonPatch"] = list(f.fix.patch)
        results.append({
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": LEVEL[f.severity.label],
            "message": {"text": msg},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": artifact_uri(f.origin), **(
                        {"uriBaseId": "%SRCROOT%"} if not os.path.isabs(artifact_uri(f.origin))
                        and not artifact_uri(f.origin).startswith("file:") else {})},
                    "region": region,
                },
                "logicalLocations": [{"fullyQualifiedName": str(f.pointer) or "/", "kind": "member"}],
            }],
            "partialFingerprints": {"mcplintFinding/v1": fingerprint(f)},
            "properties": {k: v for k, v in props.items() if v is not None},
        })
    run = {
        "tool": {"driver": {"name": "mcplint", "version": __version__, "semanticVersion": __version__,
                            "informationUri": "https://pypi.org/project/mcplint/",
                            "rules": [rule_descriptor(m) for m in metas]}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False) + "\n"
