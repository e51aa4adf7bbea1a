"""``--format sarif``: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

Rule metadata (``driver.rules``) comes from the same RuleMeta as ``mcplint rule``.
Every result has a physical location with a region, the JSON Pointer as a logical
location, and a partial fingerprint that survives line moves. A finding in a probe's
capture that was not saved (``mcplint probe`` without ``--save``) names no file: it has the
logical location only, and the capture's name in ``properties.capture``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Iterator
from urllib.parse import quote, urlsplit

from .. import __version__
from ..registry import all_rules

LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def is_virtual(origin: str) -> bool:
    """An origin that names no file: a probe's capture that was not saved (``<probe CMD>``)."""
    return origin.startswith("<") and origin.endswith(">") and origin != "<stdin>"


def artifact_uri(origin: str) -> str:
    """A URI reference for ``origin``: relative to the working directory (resolved against
    ``%SRCROOT%``) when it lies inside it, else an absolute ``file:`` URI. Percent-encoded."""
    if origin == "<stdin>":
        return "stdin"
    p = Path(origin)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        p = p.resolve()
        return p.as_uri()
    return quote(os.fsencode(p.as_posix()), safe="/")  # a name's own bytes, as as_uri() quotes them


def artifact_location(origin: str) -> dict:
    return _location_of(origin, artifact_uri(origin))


def _location_of(origin: str, uri: str) -> dict:
    if origin == "<stdin>" or uri.startswith("file:"):
        return {"uri": uri}
    return {"uri": uri, "uriBaseId": "%SRCROOT%"}


def fingerprint(f, uri: str | None = None) -> str:
    """Keyed by rule, file, tool, pointer and profile (``uri``: the file's, when already known)."""
    where = f.origin if is_virtual(f.origin) else (uri or artifact_uri(f.origin))
    key = "\x1f".join([f.rule, where, f.tool or "", str(f.pointer), f.profile or ""])
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def rule_descriptor(m) -> dict:
    from ..docs import strip_comments

    explanation = strip_comments(m.explanation)  # an example's settings comment is for the docs tests
    help_text = f"{m.summary}\n\nFix: {m.fix}\n\n{explanation}"
    d = {
        "id": m.id,
        "name": m.name,
        "shortDescription": {"text": m.summary},
        "fullDescription": {"text": m.sections.get("What it does", m.summary)},
        "help": {"text": help_text, "markdown": f"**{m.name} ({m.id})**\n\n{m.summary}\n\n"
                                                 f"**Fix:** {m.fix}\n\n{explanation}"},
        "defaultConfiguration": {"level": LEVEL[m.severity.label]},
        "properties": {"family": m.family, "tags": [m.family, "mcp"], "scope": m.scope,
                       # as `mcplint rule ID` says it: safe / unsafe / varies (per fix) / display-only
                       "fixSafety": m.fix_safety or "display-only",
                       **({"fixNote": m.fix_note} if m.fix_note else {})},
    }
    if urlsplit(m.url).scheme:  # SARIF's helpUri must be an absolute URI; a relative doc link is left out
        d["helpUri"] = m.url
    return d


def notifications(result) -> list[dict]:
    """Inputs that could not be linted, and the run's warnings, as tool execution notifications."""
    out = []
    for e in result.errors:
        n: dict = {"level": "error", "message": {"text": str(e)}, "descriptor": {"id": "input-error"}}
        if e.origin and not is_virtual(e.origin):
            loc: dict = {"artifactLocation": artifact_location(e.origin)}
            if e.line is not None:
                loc["region"] = {"startLine": e.line, **({"startColumn": e.col} if e.col is not None else {})}
            n["locations"] = [{"physicalLocation": loc}]
        out.append(n)
    for note in result.notes:  # about the run (modules passed over, unused suppressions)
        out.append({"level": "warning", "message": {"text": note}, "descriptor": {"id": "run-warning"}})
    return out


def _result(f, index: dict, uri) -> dict:
    region = {"startLine": f.line, "startColumn": f.column}
    if f.region:
        region.update(endLine=f.region.end_line, endColumn=f.region.end_col)
    msg = f.message
    if f.profile:
        msg = f"[{f.profile}] {msg}"
    if f.fix:
        msg += f" Fix: {f.fix.title}"
    props = {"pointer": str(f.pointer), "tool": f.tool, "slot": f.slot,
             "protocolVersion": f.protocol_version, "profile": f.profile}
    if f.servers:  # probe --from: several servers have it (one result, at the first one's capture)
        props["servers"] = list(f.servers)
    if f.fix and f.fix.patch:
        props["jsonPatch"] = list(f.fix.patch)
        props["fixApplicability"] = f.fix.applicability  # safe: --fix applies it; unsafe: only --unsafe-fixes
    if f.source:  # located in the server's code: the generated schema it was found in, by pointer
        msg += f" (at {f.pointer or '/'} of the schema {f.origin} generates)"
        props["generatedFrom"] = f.origin
    logical = [{"fullyQualifiedName": str(f.pointer) or "/", "kind": "member"}]
    if is_virtual(f.file):  # nothing on disk to point at: where it is in what the server sent
        props["capture"] = f.file
        location = {"logicalLocations": logical}
    else:
        location = {"physicalLocation": {"artifactLocation": _location_of(f.file, uri(f.file)), "region": region},
                    "logicalLocations": logical}
    return {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": LEVEL[f.severity.label],
        "message": {"text": msg},
        "locations": [location],
        "partialFingerprints": {"mcplintFinding/v1": fingerprint(f, uri(f.origin) if not is_virtual(f.origin) else None)},
        "properties": {k: v for k, v in props.items() if v is not None},
    }


_RESULTS = "\x00results\x00"  # stands for the results in the document's frame, encoded one by one
CHUNK_RESULTS = 500


def _render_chunks(result, options):
    """The SARIF log in pieces: its frame once, then the results a few hundred at a time, each
    encoded as ``json.dumps(..., indent=2)`` encodes it inside the whole log (a run with decoder
    profiles may have 100,000 results). Each file's URI is worked out once (resolving a path
    asks the file system, once per path component)."""
    from .json import pretty

    metas = all_rules()
    index = {m.id: i for i, m in enumerate(metas)}
    uri = functools.lru_cache(maxsize=None)(artifact_uri)  # each file's, once

    from ..about import homepage

    # an address the caller knows (the Action: where it was fetched from), else the one the project
    # declares; none claimed when neither is known (informationUri is optional)
    info = options.information_uri or homepage()
    run = {
        "tool": {"driver": {"name": "mcplint", "version": __version__, "semanticVersion": __version__,
                            **({"informationUri": info} if info else {}),
                            "rules": [rule_descriptor(m) for m in metas]}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "invocations": [{"executionSuccessful": not result.errors,
                         "toolExecutionNotifications": notifications(result)}],
        "results": _RESULTS,
        "columnKind": "unicodeCodePoints",
    }
    frame = json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2, ensure_ascii=False) + "\n"
    head, tail = frame.split(json.dumps(_RESULTS))
    findings = result.findings
    if not findings:
        yield head + "[]" + tail
        return
    yield head
    indent = "        "  # the results' depth in the log: runs[0].results[i]
    for start in range(0, len(findings), CHUNK_RESULTS):
        yield ("[\n" + indent if not start else ",\n" + indent) + (",\n" + indent).join(
            [pretty(_result(f, index, uri), indent) for f in findings[start:start + CHUNK_RESULTS]])
    yield "\n      ]" + tail


def render_chunks(result, options) -> Iterator[str]:
    """The log in pieces (see :func:`_render_chunks`), safe to print."""
    from .json import printable_chunks

    return printable_chunks(_render_chunks(result, options))


def render(result, options) -> str:
    return "".join(render_chunks(result, options))

