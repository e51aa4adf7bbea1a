"""``--format json``: the stable machine contract (version 2).

Version 2 (from version 1): ``errors`` lists the inputs that could not be read, beside the
findings of those that could; each ``fix`` says its ``applicability`` (safe, unsafe,
display-only). ``notes`` (added within version 2, an array of strings, empty when there are
none) holds the warnings about the run that stderr shows: modules passed over, unused
``suppress`` entries. A finding's ``servers`` (added within version 2, only on a finding of
``probe --from`` that several servers have): the names of those servers; the finding is
reported once, at the first one's place.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring as _encode_str  # the C encoder json.dumps uses for ensure_ascii=False
from typing import Iterator

from ..model import Severity
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
        "fix": fix_dict(f.fix),
    }
    if f.servers:  # probe --from: the servers it holds for, when several (one finding, at the first one's place)
        d["servers"] = list(f.servers)
    if f.source:  # a Python server: file/line/column are in its code; the pointer is into what it generates
        d["source"] = {"file": f.source.file, "line": f.source.line, "column": f.source.column,
                       "what": f.source.what, "best_effort": f.source.best_effort}
        d["generated_from"] = f.origin
    return d


def _nested(value, indent: str) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``indent`` deep inside a document
    (a JSON text holds no raw line break: every one of them is the indentation's)."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + indent)


_SCALAR = {True: "true", False: "false", None: "null"}


def pretty(value, indent: str) -> str:
    """What :func:`_nested` writes, for a finding's dict: with ``indent``, ``json.dumps`` encodes
    in Python, piece by piece, where this joins C-encoded strings (a finding's dict holds only
    dicts with string keys, lists, strings, ints and the three constants; anything else, and any
    value a test of the corpus has not checked, goes to ``json.dumps``)."""
    if type(value) is str:
        return _encode_str(value)
    if type(value) is dict:
        if not value:
            return "{}"
        inner = indent + "  "
        parts = []
        for k, v in value.items():
            if type(k) is not str:
                return _nested(value, indent)
            parts.append(f"{inner}{_encode_str(k)}: {pretty(v, inner)}")
        return "{\n" + ",\n".join(parts) + "\n" + indent + "}"
    if type(value) is list:
        if not value:
            return "[]"
        inner = indent + "  "
        return "[\n" + ",\n".join([inner + pretty(v, inner) for v in value]) + "\n" + indent + "]"
    if type(value) is int:
        return int.__repr__(value)
    if value is None or type(value) is bool:
        return _SCALAR[value]
    return _nested(value, indent)


# A finding's dict as pretty writes it four deep (each finding of the findings list), for the
# fields every finding has: a finding with a code location (a Python server) or several servers
# (probe --from) goes through finding_dict and pretty instead.
_LAYOUT = ("{\n" + ",\n".join(f'      "{k}": %s' for k in (
    "rule", "name", "severity", "message", "file", "line", "column", "pointer", "tool", "slot",
    "protocol_version", "profile", "fix")) + "\n    }")
_SEVERITY_TEXT = {s: _encode_str(s.label) for s in Severity}


def _text_or_null(value) -> str:
    return "null" if value is None else _encode_str(value) if type(value) is str else pretty(value, "      ")


def _finding_texts(findings: list, fixes: dict) -> list[str]:
    """``pretty(finding_dict(f), "    ")`` of each finding, in one format call per finding: a
    fix, shared by many findings, is written once (``fixes``: id(fix) -> (fix, its text), kept
    across calls; tests/report/test_report_chunks.py holds this to the plain path)."""
    out = []
    append = out.append
    for f in findings:
        if f.source or f.servers:
            append(pretty(finding_dict(f), "    "))
            continue
        fix = f.fix
        if fix is None:
            fix_text = "null"
        else:
            hit = fixes.get(id(fix))
            if hit is None or hit[0] is not fix:
                hit = fixes[id(fix)] = (fix, pretty(fix_dict(fix), "      "))
            fix_text = hit[1]
        line, column, file, tool, slot, versions, profile = f.line, f.column, f.file, f.tool, f.slot, f.versions, f.profile
        append(_LAYOUT % (
            _encode_str(f.rule), _encode_str(f.name), _SEVERITY_TEXT[f.severity], _encode_str(f.message),
            _encode_str(file) if type(file) is str else _text_or_null(file),
            int.__repr__(line) if type(line) is int else pretty(line, "      "),
            int.__repr__(column) if type(column) is int else pretty(column, "      "), _encode_str(str(f.pointer)),
            _encode_str(tool) if type(tool) is str else _text_or_null(tool),
            _encode_str(slot) if type(slot) is str else _text_or_null(slot),
            _text_or_null(f.protocol_version) if versions else "null",
            _encode_str(profile) if type(profile) is str else _text_or_null(profile), fix_text))
    return out


CHUNK_FINDINGS = 500  # findings per piece of the report written as it is made


def _render_chunks(result, options) -> Iterator[str]:
    """The document :func:`render` returns, in pieces written out one after another: one
    finding's dict at a time, never the whole document's (a run with decoder profiles may
    report 100,000 findings; encoding them in one ``json.dumps`` held about 600 MB of pieces)."""
    yield '{\n  "version": ' + json.dumps(VERSION) + ',\n  "findings": '
    findings = result.findings
    fixes: dict = {}
    if not findings:
        yield "[]"
    else:
        for start in range(0, len(findings), CHUNK_FINDINGS):
            yield ("[\n    " if not start else ",\n    ") + ",\n    ".join(
                _finding_texts(findings[start:start + CHUNK_FINDINGS], fixes))
        yield "\n  ]"
    yield (',\n  "errors": ' + _nested([error_dict(e) for e in result.errors], "  ")
           + ',\n  "notes": ' + _nested(list(result.notes), "  ")
           + ',\n  "summary": ' + _nested(summary(result), "  ") + "\n}\n")


def render_chunks(result, options) -> Iterator[str]:
    """The report in pieces (see :func:`_render_chunks`), safe to print."""
    return printable_chunks(_render_chunks(result, options))


def render(result, options) -> str:
    return "".join(render_chunks(result, options))


def printable_chunks(chunks) -> Iterator[str]:
    """Each piece with the characters a CI log or a terminal would act on written as JSON
    escapes (the same data; see :func:`mcplint.textsafe.json_text`)."""
    from ..textsafe import json_text

    for chunk in chunks:
        yield json_text(chunk)
