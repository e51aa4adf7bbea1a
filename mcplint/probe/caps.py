"""Caps over a whole client (``probe --from``): a limit on the tools of one request counts
the tools of every server the client is set up with, since a client sends them all in one
request (Cursor's 80, Windsurf's 100, VS Code's 128, a provider's 128 or 20 strict tools).

Each server is linted alone (DEC009 then counts that server's tools only); here the servers
of one configuration are counted together, in the configuration's order, and the finding
names the cap, the total, each server's share and the servers whose tools fall past the cap.
A server's tools are those it lists under the newest version probed, less the tools its
configuration switches off (the capture leaves them out of its collections). Limits summed over
every schema of a request (Anthropic's 24 optional and 16 union-typed parameters over all strict
tools) are counted over every server too.
"""

from __future__ import annotations

from ..model import Finding

RULE = "DEC009"
COUNTED = {"tools": "tools", "tools_warning": "tools", "strict_tools": "strict tools"}
# summed over every schema of the request: (which count of profiles.request.request_counts, words)
PARAMS = {"optional_params": (0, "optional parameters"), "union_params": (1, "union-typed parameters (anyOf or a "
                                                                             "type array)")}
SHOWN = 3  # tool names shown per server past the cap


def client_caps(probed: list, config, path: str, listed: int | None = None) -> list[Finding]:
    """The findings on caps that span servers. ``probed``: ``(server name, its Result)`` in the
    configuration's order, for the servers that were probed; ``listed``: how many servers the
    configuration has (the others' tools count too, unknown here)."""
    from ..capture import capture_collections, is_capture
    from ..config import is_selected, suppressed_by
    from ..profiles import load_profiles
    from ..registry import all_rules

    meta = next(m for m in all_rules() if m.id == RULE)
    shares = []  # (server name, its collection, its tools)
    for name, result in probed:
        doc = next((d for d in result.documents if isinstance(d.data, dict) and is_capture(d.data)), None)
        colls = [c for c in capture_collections(doc, ()) if c.shape != "no-result"] if doc is not None else []
        if colls:
            newest = max(colls, key=lambda c: max(c.versions))
            shares.append((name, newest, newest.tools))
    if sum(1 for _, _, tools in shares if tools) < 2 or not config.profiles:
        return []  # one server's tools alone: its own DEC009 says it all
    out = []
    for profile in load_profiles(config.profiles):
        for subject in (*COUNTED, *PARAMS):
            lim = profile.limits.get(subject)
            if lim is None or profile.consequence(lim) is None:
                continue
            counts = [len(tools) for _, _, tools in shares] if subject in COUNTED else \
                [_params(profile, tools, PARAMS[subject][0]) for _, _, tools in shares]
            if sum(counts) <= lim.max or sum(1 for n in counts if n) < 2:
                continue  # under the cap, or one server's alone (its own DEC009)
            finding = _finding(profile, lim, subject, shares, counts, path, meta, config, listed)
            origin, pointer = finding.origin, str(finding.pointer)
            if is_selected(RULE, meta.default, config, origin) and suppressed_by(config, RULE, origin, pointer) is None:
                out.append(finding)
    return out


def _params(profile, tools: list, which: int) -> int:
    """The optional (``which`` 0) or union-typed (1) parameters of the tools' schemas the
    profile sends, as DEC009 counts them for one server."""
    from ..profiles.request import request_counts

    return sum(request_counts(slot.schema)[which] for t in tools for slot in t.slots() if slot.kind in profile.slots)


def _finding(profile, lim, subject: str, shares: list, counts: list, path: str, meta, config,
             listed: int | None) -> Finding:
    from ..registry import fix_in_words
    from ..rules.decoder_profile.common import verdict_of

    consequence, severity, fix = verdict_of(profile, lim)
    severity = (config.severity and config.severity.get(RULE)) or severity
    total = sum(counts)
    seen = 0
    past = []  # (server, its collection, how many of its counted items are past the cap, its tools)
    for (name, coll, tools), n in zip(shares, counts):
        first_past = max(lim.max - seen, 0)
        if first_past < n:
            past.append((name, coll, n - first_past, tools))
        seen += n
    breakdown = ", ".join(f"'{name}' {n}" for (name, _, _), n in zip(shares, counts))
    head = f"{_head(profile, lim)}: the {len(shares)} servers of {path}"
    if listed is not None and listed > len(shares):
        head += f" probed (of the {listed} it lists; the others' tools add to the count)"
    if subject in PARAMS:
        noun = PARAMS[subject][1]
        message = (f"{head} have {total} {noun} together ({breakdown}), and {profile.display} takes at most "
                   f"{lim.max} in one request (one request carries every server's tools)")
    else:
        parts = []
        for name, _, n, tools in past:
            names = [t.name for t in tools[len(tools) - n:] if t.name][:SHOWN]
            more = n - len(names)
            listed = ", ".join(names) + (f" and {more} more" if more > 0 else "")
            parts.append((f"all {n} of '{name}'" if n == len(tools) else
                          f"the last {n} of the {len(tools)} of '{name}'") + (f" ({listed})" if listed else ""))
        cap = f"warns above {lim.max}" if lim.action == "warn" else f"takes at most {lim.max}"
        message = (f"{head} list {total} tools together ({breakdown}), and {profile.display} {cap} "
                   f"{COUNTED[subject]} over all of them (one request carries every server's tools); counted in "
                   f"the configuration's order, the {total - lim.max} past the cap are {_join(parts)}")
    _, coll, _, _ = past[0]
    doc = coll.doc
    pointer = coll.container / "tools" if coll.shape == "tools-list" else coll.container
    words = fix or meta.fix
    return Finding(RULE, meta.name, severity, message, doc.source.origin, pointer, doc.locate(pointer), None,
                   None, coll.versions, profile.name, fix_in_words(words) if words else None, consequence)


def _head(profile, lim) -> str:
    """What the client does, as the per-server finding's words say it."""
    if lim.action == "warn":
        return f"{profile.display} warns about this request"
    if lim.action == "annotation":
        return f"{profile.display} accepts this, past the limit it documents"
    if (lim.on_reject or profile.on_reject) == "skip-tool":
        return f"{profile.display} leaves the tools beyond its limit out (the model never sees them)"
    return profile.reject_verb(lim)


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
