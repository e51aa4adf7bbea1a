"""A probe's capture as a file: what ``mcplint probe --save FILE`` writes (written by
:mod:`mcplint.probe.snapshot`) and ``mcplint scan`` reads back.

``mcplint probe`` lints this very document (with or without ``--save``), so a scan of the
saved file gives the findings the probe gave. Layout (2-space indent, every tool's members
in the order the server sent them, its text kept token for token)::

    {
      "mcplintCapture": 1,
      "server": "python server.py",
      "serverName": "weather",                  <- its name in the client's configuration (probe --from)
      "disabledTools": ["delete_all"],          <- tools that configuration switches off (not linted)
      "captures": [
        {
          "protocolVersions": ["2024-11-05", "2025-03-26"],
          "result": {"tools": [...]},            <- the tools/list result, as sent
          "transcripts": {"2024-11-05": {...}}  <- how each version was captured
        }
      ],
      "unsupported": {"2026-07-28": "no answer to server/discover"}
    }

One capture per distinct ``tools/list`` result: versions that got the same text share it.
A transcript is the probe's record of that version (handshake, stdout noise, shutdown,
calls; see :mod:`mcplint.probe.transcript`) with each page's tools replaced by their count:
the tools themselves are the capture's ``result``. A capture with ``"pass": "binding"`` is
the listing a client advertising the JSON Structure binding got.
"""

from __future__ import annotations

import json
from typing import Any

from .model import ROOT

FORMAT_KEY = "mcplintCapture"


def is_capture(data: Any) -> bool:
    return isinstance(data, dict) and FORMAT_KEY in data and isinstance(data.get("captures"), list)


def _restore(compact: dict, tools: list) -> dict:
    """A transcript as the probe had it, its good pages' tools taken back from the result."""
    pages, k = [], 0
    for p in compact.get("pages") or []:
        msg = p.get("message") if isinstance(p, dict) else None
        res = msg.get("result") if isinstance(msg, dict) else None
        if isinstance(res, dict) and isinstance(res.get("tools"), int) and not isinstance(res["tools"], bool):
            n = res["tools"]
            pages.append({"message": {**msg, "result": {**res, "tools": tools[k:k + n]}}})
            k += n
        else:
            pages.append(p)
    return {**compact, "pages": pages}


def capture_collections(doc, versions) -> list:
    """One :class:`~mcplint.collect.Collection` per capture, each carrying its transcripts
    (``Collection.probe``), as ``mcplint probe`` lints them. ``versions`` narrows the
    versions linted (a capture none of whose versions is asked for is left out). The tools the
    capture's ``disabledTools`` names (switched off in the client's configuration, which never
    shows them to the model) are left out of each collection."""
    from .collect import Collection, input_error, read_tools_list
    from .versions import ordered

    out = []
    asked = set(versions)
    name = None
    if "serverName" in doc.data:
        name = doc.data["serverName"]
        if not isinstance(name, str) or not name.strip():
            raise input_error(doc, ROOT / "serverName", "mcplint capture file: \"serverName\" must be the server's name in "
                                                 "the client's configuration (a non-empty string)")
    disabled = frozenset()
    if "disabledTools" in doc.data:
        names = doc.data["disabledTools"]
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise input_error(doc, ROOT / "disabledTools", "mcplint capture file: \"disabledTools\" must be an array of "
                                                    "the names of the tools the client's configuration switches off")
        disabled = frozenset(names)
    for i, cap in enumerate(doc.data["captures"]):
        ptr = ROOT / "captures" / i
        if not isinstance(cap, dict) or not (cap.get("result") is None or (
                isinstance(cap.get("result"), dict) and isinstance(cap["result"].get("tools"), list))):
            raise input_error(doc, ptr, "mcplint capture file: each capture needs a \"result\" object with a \"tools\" "
                                  "array, or null when the server sent none")
        vs = ordered(v for v in cap.get("protocolVersions") or () if isinstance(v, str))
        vs = tuple(v for v in vs if v in asked) if asked else vs
        if not vs:
            continue
        if cap.get("result") is None:  # only what the server did is linted (the PRB rules)
            coll = Collection(doc, "no-result", [], vs, ptr)
            tools = []
        else:
            coll = read_tools_list(doc, ptr / "result", cap["result"], "tools-list", vs)
            tools = cap["result"]["tools"]
            if disabled:
                coll.tools = [t for t in coll.tools if t.name not in disabled]
        ts = cap.get("transcripts") if isinstance(cap.get("transcripts"), dict) else {}
        coll.probe = {v: _restore(t, tools) for v, t in ts.items() if v in vs and isinstance(t, dict)}
        coll.capture_versions = ordered(v for v in cap.get("protocolVersions") or () if isinstance(v, str))
        coll.server_name = name
        out.append(coll)
    return out


def one_per_problem(findings: list) -> list:
    """A capture's findings with each problem once: findings of several captures (the versions
    that got different tools/list results) that are one rule's, one profile's, on one tool at
    the same place in its result, in the same words, are one finding, at the first capture's
    place, naming every version they hold for (the JSON and SARIF reports list them)."""
    from .model import Finding
    from .versions import ordered

    first: dict = {}  # key -> [the first finding, the versions of all, the highest severity]
    for f in findings:
        key = _problem(f)
        entry = first.get(key)
        if entry is None:
            first[key] = [f, set(f.versions), f.severity]
        else:
            entry[1].update(f.versions)
            entry[2] = max(entry[2], f.severity)
    if len(first) == len(findings):
        return findings
    out = []
    for f, vs, severity in first.values():
        vs = ordered(vs)
        out.append(f if vs == f.versions and severity == f.severity else Finding(
            f.rule, f.name, severity, f._message, f.origin, f.pointer, f.span, f.tool, f.slot, vs, f.profile,
            f.fix, f.consequence, f.source, f.servers))
    return out


def _problem(f) -> tuple:
    """What makes two findings of captures one problem: one rule's, one profile's, on one tool at
    the same place in its tools/list result (whichever capture holds it), in the same words."""
    p = tuple(f.pointer)
    place = p[2:] if len(p) >= 2 and p[0] == "captures" and isinstance(p[1], int) else p
    return f.rule, place, f.profile, f.tool, f.slot, f.message


def probe_origin(name: str) -> str:
    """Where a probe's capture that was not saved is said to be: ``<probe NAME>`` (the server's
    name in a client configuration, or its command or URL)."""
    return f"<probe {name}>"


def origins(f) -> tuple:
    """The captures a finding stands for: its own, and those of the other servers it holds for
    (:func:`one_per_server`)."""
    return (f.origin, *map(probe_origin, f.servers[1:])) if f.servers else (f.origin,)


def one_per_server(servers: list) -> list:
    """``probe --from``: the findings of several servers' captures that were not saved (``servers``:
    (name, its findings, its capture document's data) in the configuration's order) with each
    problem once. A problem several servers have (the same rule, profile and words, at the same
    place in a tool each lists exactly alike, wherever in its list: the same npm server configured
    twice, two servers built from one template) is one finding at the first server's place, naming the servers
    (``Finding.servers``) and every version it holds for under any of them, at the worst severity
    any gives. A tool of one name that two servers list differently is two tools: its findings
    stay each server's. (A server's own findings are one per problem already: :func:`one_per_problem`.)

    Saved captures are merged the same way when they are scanned together
    (:func:`one_per_saved_server`), so every front end reports the same problems."""
    from .model import Finding
    from .versions import ordered

    first: dict = {}  # key -> [the first finding, the servers, the versions, the worst severity]
    order: list = []  # the findings in order, each problem's first standing for it
    for name, findings, data in servers:
        tools: dict = {}  # (capture, index) -> the tool's definition as canonical text
        for f in findings:
            key = _server_problem(f, data, tools)
            entry = first.get(key)
            if entry is None or name in entry[1]:
                if entry is None:
                    first[key] = [f, [name], set(f.versions), f.severity]
                order.append(f)
                continue
            entry[1].append(name)
            entry[2].update(f.versions)
            entry[3] = max(entry[3], f.severity)
    merged = {id(e[0]): e for e in first.values() if len(e[1]) > 1}
    if not merged:
        return order
    out = []
    for f in order:
        e = merged.get(id(f))
        if e is None:
            out.append(f)
            continue
        out.append(Finding(f.rule, f.name, e[3], f._message, f.origin, f.pointer, f.span, f.tool, f.slot,
                           ordered(e[2]), f.profile, f.fix, f.consequence, f.source, tuple(e[1])))
    return out


def one_per_saved_server(findings: list, documents: list) -> list:
    """A scan of several servers' saved captures (``probe --from --save``, then the
    ``mcplint-probe`` hook or the Action scanning what it saved): each problem once, as
    ``probe --from`` reports it (:func:`one_per_server`), at the first capture's place and naming
    the servers (each capture's ``serverName``, else its command). Captures of one server (the
    same name twice) are not merged. The other findings and the order of files stay as they are."""
    named = {d.source.origin: d for d in documents if is_capture(d.data)}
    if len(named) < 2:
        return findings
    mine: dict = {o: [] for o in named}
    for f in findings:
        if f.origin in mine:
            mine[f.origin].append(f)
    kept = one_per_server([(str(d.data.get("serverName") or d.data.get("server")), mine[o], d.data)
                           for o, d in named.items()])
    if len(kept) == sum(map(len, mine.values())):
        return findings
    by_origin: dict = {}
    for f in kept:
        by_origin.setdefault(f.origin, []).append(f)
    out, done = [], set()
    for f in findings:
        if f.origin not in named:
            out.append(f)
        elif f.origin not in done:
            done.add(f.origin)
            out += by_origin.get(f.origin, [])
    return out


def _server_problem(f, data, cache: dict) -> tuple:
    """What makes findings of two servers one problem: :func:`_problem`, but a finding in a tool
    (``/captures/i/result/tools/j/...``) is at its place in the tool, whatever the tool's place in
    the list, and only in a tool of the same definition (as JSON with sorted keys, made once per
    tool: ``cache``)."""
    p = tuple(f.pointer)
    if not (len(p) >= 5 and p[0] == "captures" and p[2:4] == ("result", "tools") and isinstance(p[4], int)):
        return _problem(f)
    hit = cache.get((p[1], p[4]))
    if hit is None:
        try:
            tool = data["captures"][p[1]]["result"]["tools"][p[4]]
        except (KeyError, IndexError, TypeError):
            tool = None
        hit = cache[(p[1], p[4])] = json.dumps(tool, sort_keys=True, ensure_ascii=False)
    return f.rule, p[5:], f.profile, f.tool, f.slot, f.message, hit
