"""``--format markdown``: a GitHub-flavoured Markdown report for a job summary
(``$GITHUB_STEP_SUMMARY``) or a pull-request comment.

Three parts: a one-line verdict, a table of findings grouped by rule and tool (with the
first location of each group), and, when decoder profiles were checked, a compatibility
matrix saying for every tool whether each profile accepts it, weakens it, rejects it,
drops it or loses it with the server's whole tool list (:func:`mcplint.report.profile_matrix`).
The individual findings follow in a collapsed ``<details>`` block, capped so a large run stays
under GitHub's summary limit.
"""

from __future__ import annotations

from collections import defaultdict

from ..model import Severity
from ..textsafe import md_code, md_text
from . import VERDICTS, count_of, profile_matrix, request_limits, servers_words

MAX_DETAILS = 200  # individual findings listed before "... and N more"
ICON = {"error": "🔴", "warning": "🟡", "info": "🔵"}
VERDICT_ICON = {"accepts": "✅ accepts", "weakens": "⚠️ weakens", "rejects": "❌ rejects", "drops": "🚫 drops",
                "loses-list": "💥 loses the list"}
TOTAL_WORD = {"loses-list": "lost with the list"}


def cell(text) -> str:
    """Input (or a message quoting it) as text in a table cell or a list item: no HTML, link or
    image of its own, pipes escaped, control characters shown as escapes (:func:`mcplint.textsafe.md_text`)."""
    return md_text("" if text is None else text)


def code(text) -> str:
    """A code span whose content is literal, whatever backticks it holds; the table's pipe escaped
    (:func:`mcplint.textsafe.md_code`)."""
    return md_code(text)


def verdict(result) -> str:
    e, w, i = (result.count(s) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
    from . import scope as _scope, unread

    scope = _scope(result)
    if not result.findings:
        head = f"✅ No findings in {scope}."
    else:
        parts = [p for p in (e and count_of(e, "error"), w and count_of(w, "warning"), i and f"{i} info") if p]
        head = f"{'❌' if e else '⚠️'} {', '.join(parts)} in {scope}."
    if result.errors:
        head += " " + unread(result)
    from . import shared_sentence

    if shared_sentence(result):
        head += " " + shared_sentence(result)
    return head


def findings_table(result, options=None) -> list[str]:
    from . import Options, split_info

    shown, folded = split_info(result.findings, options or Options())
    groups: dict = defaultdict(list)
    for f in shown:
        groups[(f.rule, f.origin, f.tool)].append(f)
    for group in folded:  # information: one row per rule and file, whatever the tool
        groups[(group[0].rule, group[0].origin, (_tools(group),))] = group  # (a tuple: not a tool's own name)
    rows = sorted(groups.items(), key=lambda kv: (-max(f.severity for f in kv[1]), kv[0][0], kv[0][1],
                                                  str(kv[0][2] or "")))
    out = ["| Rule | Severity | Tool | File | Findings | First at |", "|---|---|---|---|---:|---|"]
    for (rule, origin, tool), fs in rows:
        worst = max(f.severity for f in fs).label
        first = min(fs, key=lambda f: (f.line, f.column))
        named = (tool[0] or "(document)") if isinstance(tool, tuple) else code(tool) if tool else "(document)"
        servers = list(dict.fromkeys(s for f in fs for s in f.servers))  # probe --from: several servers have them
        where = code(origin) + (f" ({cell('servers ' + ', '.join(servers))})" if servers else "")
        out.append(f"| {code(rule)} {cell(fs[0].name)} | {ICON[worst]} {worst} | {named} "
                   f"| {where} | {len(fs)} | {first.line}:{first.column} {code(first.pointer) if str(first.pointer) else ''} |")
    return out


def _tools(group: list) -> str | None:
    """The tool column of a folded row: the one tool, or how many ("14 tools")."""
    tools = list(dict.fromkeys(f.tool for f in group if f.tool is not None))
    return code(tools[0]) if len(tools) == 1 else f"{len(tools)} tools" if tools else None


def profile_names(result) -> list[str]:
    """Profiles to show: those that produced findings, plus those selected that did not."""
    names = set(profile_matrix(result))
    for p in result.profiles:
        if "/" not in p and "\\" not in p and not p.endswith((".yaml", ".yml", ".json")):
            names.add(p)
    return sorted(names)


def matrix_table(result) -> list[str]:
    names = profile_names(result)
    if not names or not result.tool_index:
        return []
    matrix = profile_matrix(result)
    limits = request_limits(result)
    files = {origin for origin, _ in result.tool_index}
    out = ["| Tool | " + " | ".join(code(p) for p in names) + " |", "|---|" + "---|" * len(names)]
    for key in result.tool_index:
        origin, label = key
        name = code(label) + (f" ({code(origin)})" if len(files) > 1 else "")
        out.append(f"| {name} | " + " | ".join(VERDICT_ICON[matrix.get(p, {}).get(key, "accepts")] for p in names)
                   + " |")
    totals = []
    for p in names:
        counts = defaultdict(int)
        for key in result.tool_index:
            counts[matrix.get(p, {}).get(key, "accepts")] += 1
        n = limits.get(p, 0)
        totals.append(", ".join(f"{counts[v]} {TOTAL_WORD.get(v, v)}" for v in VERDICTS if counts[v])
                      + (f"; the request exceeds {n} limit{'s' * (n != 1)} (DEC009)" if n else ""))
    out.append("| **total** | " + " | ".join(totals) + " |")
    return out


def details(result, options=None) -> list[str]:
    from . import Options, split_info

    shown, folded = split_info(result.findings, options or Options())
    out = ["<details><summary>All findings</summary>", ""]
    for f in shown[:MAX_DETAILS]:
        extra = [x for x in (f.tool and f"tool {code(f.tool)}", f.profile and f"profile {code(f.profile)}",
                             f.servers and cell(servers_words(f))) if x]
        where = f" at {code(f.pointer)}" if str(f.pointer) else ""
        out.append(f"- {ICON[f.severity.label]} {code(f'{f.file}:{f.line}:{f.column}')} **{f.rule}** "
                   f"{cell(f.message)}{where}" + (f" ({', '.join(extra)})" if extra else "")
                   + (f". Fix: {cell(f.fix.title)}" if f.fix else ""))
    if len(shown) > MAX_DETAILS:
        out.append(f"- ... and {len(shown) - MAX_DETAILS} more (see the annotations or the SARIF report)")
    folded_n = sum(len(g) for g in folded)
    if folded_n:
        out.append(f"- {ICON['info']} {folded_n} information finding{'s' * (folded_n != 1)} counted in the table "
                   "above (`--show-info` lists each; the JSON and SARIF reports keep them all)")
    out += ["", "</details>"]
    return out


def render(result, options) -> str:
    lines = ["## mcplint", "", verdict(result), ""]
    for err in result.errors:
        lines.append(f"- ⛔ {cell(str(err))}")
    for note in result.notes:  # about the run: modules passed over, unused suppressions
        lines.append(f"- ⚠️ {cell(note)}")
    if result.errors or result.notes:
        lines.append("")
    if result.findings:
        lines += ["### Findings by rule and tool", ""] + findings_table(result, options) + [""]
    matrix = matrix_table(result)
    if matrix:
        lines += ["### Decoder profile compatibility", "",
                  "What each profile's decoder does with each tool: accepts it as written, weakens it "
                  "(enforces less than the schema says), rejects it, or drops it"
                  + (", or loses it with the server's whole tool list (one tool it cannot read, or whose name it "
                     "refuses, fails the list)"
                     if any("loses the list" in line for line in matrix) else "") + ".", ""] + matrix + [""]
    if result.findings:
        lines += details(result, options) + [""]
    return "\n".join(lines)
