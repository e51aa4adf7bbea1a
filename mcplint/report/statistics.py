"""``mcplint scan --statistics``: how many findings each rule produced, most first (as ruff's
``--statistics``), for a first look at a large server whose full report runs to hundreds of
findings. ``[*]`` marks a rule some of whose findings ``--fix`` fixes (``fixable`` in JSON), and
the last line says how many fixes ``--fix`` (and ``--unsafe-fixes``) would apply."""

from __future__ import annotations

import json
from collections import Counter

from ..textsafe import inline, json_text
from . import count_of, scope, summary


def rows(result, unsafe: bool = False) -> list[dict]:
    """One row per (rule, decoder profile): the count, most first, then by rule ID."""
    from ..autofix.safety import fixable

    counts: Counter = Counter((f.rule, f.profile) for f in result.findings)
    first = {}
    fixes = set()  # (rule, profile) rows with a finding --fix fixes
    for f in result.findings:
        first.setdefault((f.rule, f.profile), f)
        if fixable(f, unsafe):
            fixes.add((f.rule, f.profile))
    out = []
    for (rule, profile), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0], kv[0][1] or "")):
        f = first[(rule, profile)]
        out.append({"rule": rule, "name": f.name, "severity": f.severity.label, "profile": profile, "count": n,
                    "fixable": (rule, profile) in fixes})
    return out


def render(result, fmt: str, unsafe: bool = False) -> str:
    """``unsafe``: --unsafe-fixes given, so unsafe fixes count as applicable (as in the other formats)."""
    table = rows(result, unsafe)
    if fmt == "json":
        return json_text(json.dumps({"version": 1, "statistics": table, "summary": summary(result)}, indent=2)) + "\n"
    if not table:
        return f"No findings in {scope(result)}.\n"
    width = max(len(str(r["count"])) for r in table)
    name_w = max(len(r["name"]) for r in table)
    lines = [f"{r['count']:>{width}}  {r['rule']}  {'[*]' if r['fixable'] else '[ ]'} {r['name']:<{name_w}}  "
             f"{r['severity']:<7}"
             + (f"  [{r['profile']}]" if r["profile"] else "") for r in table]
    s = summary(result)
    lines.append(f"{count_of(len(result.findings), 'finding')} ({count_of(s['errors'], 'error')}, {count_of(s['warnings'], 'warning')}, "
                 f"{s['infos']} info) in {scope(result)}.")
    from .text import fix_hint

    hint = fix_hint(result, unsafe)
    if hint:
        lines.append(hint)
    return "\n".join(inline(line.rstrip()) for line in lines) + "\n"  # (a profile may be a path: input)
