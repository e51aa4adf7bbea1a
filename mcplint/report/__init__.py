"""Stage 4, report: findings -> text for people, JSON/SARIF/annotations for machines.

Each reporter is a module with ``render(result, options) -> str`` (and, for the formats
a big run makes big, ``render_chunks``: the same text in pieces, written as they are made);
they are imported only when chosen, so a JSON run never pays for rich.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Iterator

REPORTERS = {
    "text": "mcplint.report.text",
    "json": "mcplint.report.json",
    "sarif": "mcplint.report.sarif",
    "github": "mcplint.report.github",
    "markdown": "mcplint.report.markdown",
    "concise": "mcplint.report.concise",
}


@dataclass(frozen=True)
class Options:
    color: bool = False
    verbose: bool = False
    show_info: bool = False  # list every information finding (text formats fold them per rule and file otherwise)
    context_lines: int = 1  # lines of code frame around a finding
    width: int = 100
    quiet: bool = False  # the findings only: no summary line, no profile table
    show_fixes: bool = False  # under each finding, its JSON Patch and whether --fix applies it
    unsafe_fixes: bool = False  # --unsafe-fixes: count and mark unsafe fixes as applicable too (as ruff)
    information_uri: str | None = None  # SARIF: where users read about mcplint, when the caller knows it


def render(fmt: str, result, options: Options = Options()) -> str:
    return importlib.import_module(REPORTERS[fmt]).render(result, options)


def render_chunks(fmt: str, result, options: Options = Options()) -> Iterator[str]:
    """The report in pieces to write one after another (their concatenation is :func:`render`'s
    text): a reporter with ``render_chunks`` of its own makes each piece as it is asked for."""
    module = importlib.import_module(REPORTERS[fmt])
    chunks = getattr(module, "render_chunks", None)
    return chunks(result, options) if chunks is not None else iter((module.render(result, options),))


def split_info(findings, options) -> tuple[list, list]:
    """(the findings listed one by one, the information folded): unless ``options.show_info``,
    ``options.verbose`` or ``options.show_fixes``, the information findings (which never fail a run unless ``--fail-on
    info``) are folded into one entry per file and rule, each a list of the findings it stands
    for, in the order they came; otherwise nothing is folded."""
    from ..model import Severity

    if options.verbose or options.show_info or options.show_fixes:  # (each fix's patch is asked for)
        return list(findings), []
    shown, groups = [], {}
    for f in findings:
        if f.severity is Severity.INFO:
            groups.setdefault((f.origin, f.rule), []).append(f)
        else:
            shown.append(f)
    return shown, list(groups.values())


def folded_words(group: list) -> str:
    """What one folded group of information says: how many, on how many tools, and what the rule
    is about ("56 findings on 14 tools: A Tool member is used with ...")."""
    from ..registry import get

    meta = get(group[0].rule)
    about = meta.summary if meta is not None and meta.summary else group[0].message
    tools = {f.tool for f in group if f.tool is not None}
    on = f" on {count_of(len(tools), 'tool')}" if tools else ""
    return f"{count_of(len(group), 'finding')}{on}: {about} (information; --show-info lists each)"


def count_of(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless n is 1: "1 file", "3 files"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def scope(result) -> str:
    """What a summary says was looked at: a probe's servers ("2 servers, 5 tools"; the captures
    of a probe without ``--save`` are no files), else the files ("3 files, 5 tools")."""
    servers = result.servers
    if servers:
        looked = count_of(sum(1 for s in servers if s.get("status") != "error"), "server")
    else:
        looked = count_of(result.files, "file")
    return f"{looked}, {count_of(result.tools, 'tool')}"


def version_clause(result) -> str:
    """" (checked as protocol V: the file names no version, and nothing in it narrows that; ...)"
    when ``scan`` checked files that name no protocol version (a bare tools/list result or Tool),
    none having been chosen, under the versions their content is consistent with (and why), and
    "the Python server checked as protocol V, the newest its SDK serves" for Python servers;
    "" otherwise."""
    assumed = result.assumed_versions
    from_sdk = result.sdk_checked_versions
    if not assumed and not from_sdk:
        return ""
    from ..versions import spelled

    parts = []
    if assumed and len(assumed) > 1:  # files of several kinds: one clause, not one sentence per kind
        n = sum(bare for _, _, bare in assumed)
        per: dict = {}  # versions -> files (the reasons differ: the JSON summary's assumed_versions has each)
        for versions, _, bare in assumed:
            per[versions] = per.get(versions, 0) + bare
        groups = ", ".join(f"{spelled(versions)} ({bare} file{'s' * (bare != 1)})" for versions, bare in per.items())
        parts.append(f"the {n} files that name no version were each checked under the versions their content fits: "
                     f"{groups}")
        assumed = ()
    for versions, why, bare in assumed or ():
        if bare > 1 and why.startswith("its "):
            why = "their " + why[4:]
        if bare == result.files:
            which = "the file names" if bare == 1 else "the files name"
        else:
            which = f"{bare} of the {result.files} files name{'s' * (bare == 1)}"
        because = f", and {why}" if why else ", and nothing in it narrows that" if bare == 1 else \
            ", and nothing in them narrows that"
        parts.append(f"checked as protocol {spelled(versions)}: {which} no version{because}")
    if any(len(versions) > 1 for versions, _, _ in result.assumed_versions or ()):
        parts.append("a finding that holds under only some of them is one step less severe")
    if from_sdk:
        versions, n = from_sdk
        which = ("the Python server" if n == 1 else "each Python server") if n == result.files else \
            f"{n} Python server{'s' * (n != 1)}"
        parts.append(f"{which} checked as protocol {', '.join(versions)}, the newest its SDK serves")
    return f" ({'; '.join(parts)}; --protocol-version to choose)"


def interpreter_sentence(result) -> str:
    """"Imported with PATH (WHY; --python to choose)." when ``scan`` chose the interpreter of a
    Python server itself (none was named); "" otherwise. PATH is relative to the working
    directory when inside it."""
    chosen = [i for i in result.interpreters if i["chosen_by"] != "named"]
    if not chosen:
        return ""
    import os

    from ..pysource.interpreter import shown

    def short(path: str) -> str:
        try:
            rel = os.path.relpath(path)
        except ValueError:  # (another drive)
            return path
        return path if rel.startswith("..") or os.path.isabs(rel) else rel

    return "Imported with " + "; ".join(f"{shown(short(i['python']))} ({i['why']})" for i in chosen) + \
        ": --python to choose."


def unread(result) -> str:
    """"1 input could not be read." and/or "1 server could not be probed." (every error of a
    probe's result; a probe error among files, as the hook's scan of what it saved has them);
    "" when none."""
    servers = bool(result.servers)
    probed = sum(1 for e in result.errors if servers or getattr(e, "kind", "") == "probe error")
    parts = [f"{count_of(len(result.errors) - probed, 'input')} could not be read"] if len(result.errors) > probed else []
    parts += [f"{count_of(probed, 'server')} could not be probed"] if probed else []
    return ", ".join(parts) + "." if parts else ""


def summary(result) -> dict:
    from ..model import Severity

    out = {
        "files": result.files,
        "tools": result.tools,
        "errors": result.count(Severity.ERROR),
        "warnings": result.count(Severity.WARNING),
        "infos": result.count(Severity.INFO),
    }
    if result.servers:  # a probe: one entry per server probed
        out["servers"] = result.servers
    if result.interpreters:  # scan: what imported the Python servers
        out["interpreters"] = result.interpreters
    if result.assumed_versions:  # scan: files that name no protocol version, and why
        out["assumed_versions"] = [{"versions": list(versions), "why": why, "files": files}
                                   for versions, why, files in result.assumed_versions]
    return out


def fix_dict(fix) -> dict | None:
    """A fix for the JSON format; ``applicability`` says whether ``--fix`` applies it ("safe"),
    only ``--unsafe-fixes`` does ("unsafe"), or neither (no patch)."""
    if fix is None:
        return None
    return {"title": fix.title, "patch": list(fix.patch) if fix.patch else None, "applicability": fix.applicability}


def fix_lines(f) -> list[str]:
    """``--show-fixes``: a finding's fix, whether --fix applies it, and its JSON Patch, one
    operation a line."""
    if f.fix is None:
        return []
    how = {"safe": "safe: --fix applies it", "unsafe": "unsafe: only with --unsafe-fixes",
           "display-only": "not automatic"}[f.fix.applicability]
    if getattr(f, "source", None) is not None and f.fix.patch:
        how = "for the generated tools: fix the Python code"
    out = [f"fix ({how}): {f.fix.title}"]
    import json

    for op in f.fix.patch:
        value = f" {json.dumps(op['value'], ensure_ascii=False)}" if "value" in op else ""
        source = f" from {op['from']}" if "from" in op else ""
        out.append(f"  {op.get('op')} {op.get('path')}{source}{value}")
    return out


def error_dict(err) -> dict:
    """An input that could not be read: where, what, and which kind of error."""
    text = err.message + (f" (expected {err.expected})" if getattr(err, "expected", None) else "")
    return {"file": err.origin, "line": err.line, "column": err.col, "message": text,
            "kind": getattr(err, "kind", "error")}


VERDICTS = ("accepts", "weakens", "rejects", "drops", "loses-list")  # best to worst
_VERDICT_OF = {"fail-list": "loses-list", "drop": "drops", "reject": "rejects", "weaken": "weakens",
               "rewrite": "weakens"}


def profile_matrix(result) -> dict:
    """Per profile, per (file, tool): accepts as-is, weakens, rejects, drops, or loses it with the
    whole list (a client that cannot read the server's tools/list over one of its tools loses
    every tool the file lists).

    A tool with no finding of a profile is accepted as-is; otherwise the worst
    consequence among its findings for that profile (and, for a lost list, any tool's) decides.
    """
    profiles = sorted(set(result.profiles) | {f.profile for f in result.findings if f.profile})
    matrix: dict = {p: {key: "accepts" for key in result.tool_index} for p in profiles}
    keys: dict = {}  # (origin, tool) -> the first entry of tool_index naming it (one pass, not one per finding)
    of_origin: dict = {}  # origin -> its entries of tool_index (the tools of one list)
    for k in result.tool_index:
        keys.setdefault((k[0], k[1]), k)
        of_origin.setdefault(k[0], []).append(k)
    from ..capture import origins

    rank = {v: i for i, v in enumerate(VERDICTS)}
    for f in result.findings:
        if not f.profile or f.tool is None:
            continue
        verdict = _VERDICT_OF.get(f.consequence or "", "accepts")
        row = matrix[f.profile]
        for origin in origins(f) if f.servers else (f.origin,):  # (a finding several servers have: each one's tool)
            hit = of_origin.get(origin, ()) if verdict == "loses-list" else (keys.get((origin, f.tool)),)
            for key in hit:
                if key is not None and rank[verdict] > rank[row[key]]:
                    row[key] = verdict
    return matrix


def shared_sentence(result) -> str:
    """"N findings hold for several servers, each reported once." when ``probe --from`` merged
    findings of several servers (:func:`mcplint.capture.one_per_server`); "" otherwise."""
    n = sum(1 for f in result.findings if f.servers)
    if not n:
        return ""
    return f"{count_of(n, 'finding')} {'holds' if n == 1 else 'hold'} for several servers, each reported once."


def servers_words(f) -> str:
    """"servers a, b" for a finding several servers of a ``probe --from`` have (reported once);
    "" for any other."""
    return "servers " + ", ".join(f.servers) if f.servers else ""


def request_limits(result) -> dict:
    """Per profile, how many of its request limits the tools exceed together (DEC009 on the whole
    list, or over every server of a client's configuration): no single tool's verdict shows it, so
    the per-tool tally would call the tools accepted while the request carrying them fails."""
    out: dict = {}
    for f in result.findings:
        if f.profile and f.tool is None and f.rule == "DEC009":
            out[f.profile] = out.get(f.profile, 0) + 1
    return out
