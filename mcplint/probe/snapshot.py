"""The capture document a probe writes (``mcplint probe --save FILE``), laid out as
:mod:`mcplint.capture` describes and reads it back: one capture per distinct ``tools/list``
result, every tool's text kept token for token."""

from __future__ import annotations

import json
import re
from typing import Any

from ..capture import FORMAT_KEY
from ..jsonparse import parse_json, parse_json_indexed
from ..load import load_text
from ..model import Document, Source
from ..sourcemap import JsonMapper
from ..versions import VERSIONS
from .listing import layout
from .transcript import binding_transcript, capture_text, good_page, good_pages, has_result, page_cut, page_message

_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+)', re.S)


def reformat(text: str, indent: int = 0) -> str:
    """``text`` (valid JSON) laid out with 2-space indents, starting at ``indent`` levels: every
    token kept as it is (duplicate keys, number spellings, escapes), members in their order.
    An empty object or array stays ``{}`` / ``[]``."""
    tokens = _TOKEN.findall(text)
    out: list[str] = []
    level = indent
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok in "{[" and i + 1 < n and tokens[i + 1] == ("}" if tok == "{" else "]"):
            out.append(tok + tokens[i + 1])
            i += 2
            continue
        if tok in "{[":
            level += 1
            out.append(tok + "\n" + "  " * level)
        elif tok in "}]":
            level -= 1
            out.append("\n" + "  " * level + tok)
        elif tok == ",":
            out.append(",\n" + "  " * level)
        elif tok == ":":
            out.append(": ")
        else:
            out.append(tok)
        i += 1
    return "".join(out)


def result_layout(transcript: dict, level: int, tools_done: dict) -> tuple[str, Any]:
    """``reformat(capture_text(transcript).strip(), level)``, laid out from where each page's
    result is in its text (:func:`~mcplint.probe.transcript.page_cut`), each tool's text laid out
    once: ``tools_done`` (a tool's text -> its layout and its value) is shared by the versions
    laid out at ``level``, which list most tools alike. With it, what parsing that text gives,
    made of the values the pages parsed to (a tool listed alike is one value), when that is
    sure to be the same (:attr:`~mcplint.probe.listing.PageCut.plain`), else None."""
    good = good_pages(transcript)
    cuts = [page_cut(p) for p, _ in good]
    if not cuts or any(cut is None for _, cut in cuts):
        return reformat(capture_text(transcript).strip(), level), None
    values: list = []

    def tools() -> str:
        out = []
        for (text, cut), (_, msg) in zip(cuts, good):
            o, parsed = cut.items, msg["result"]["tools"]
            for i in range(0, len(o), 2):
                tool = text[o[i]:o[i + 1]]
                done = tools_done.get(tool)
                if done is None:
                    done = tools_done[tool] = (reformat(tool, level + 2), parsed[i // 2])
                out.append(done[0])
                values.append(done[1])
        return layout("[]", out, level + 1)

    last = good[-1][1]["result"]
    if len(cuts) == 1:  # the result as the server wrote it: every member in its order, repeats too
        text, cut = cuts[0]
        members = [text[ks:ke] + ": " + (tools() if (vs, ve) == cut.tools else reformat(text[vs:ve], level + 1))
                   for ks, ke, vs, ve in cut.members]
        value = {k: (values if k == "tools" else v) for k, v in last.items()}
    else:  # the pages joined, as capture_text joins them
        text, cut = cuts[-1]
        members = ['"tools": ' + tools()] + [f"{json.dumps(k)}: {reformat(text[vs:ve], level + 1)}"
                                             for k, (vs, ve) in cut.last.items() if k not in ("tools", "nextCursor")]
        value = {"tools": values, **{k: v for k, v in last.items() if k not in ("tools", "nextCursor")}}
    return layout("{}", members, level), value if all(cut.plain for _, cut in cuts) else None


def _dump(value: Any, indent: int) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * indent)


def compact_transcript(t: dict) -> dict:
    """``t`` with each good page's tools replaced by their count (they are the capture's result)."""
    def pages(ps):
        out = []
        for p in ps or []:
            msg = page_message(p)
            if good_page(msg):
                res = {k: (len(v) if k == "tools" else v) for k, v in msg["result"].items()}
                out.append({"message": {**msg, "result": res}})
            elif msg is not None:
                out.append({"message": msg})
            else:
                out.append({"raw": p.get("raw", "")})
        return out

    c = {**t, "pages": pages(t.get("pages"))}
    if isinstance(t.get("otherVersions"), dict):  # (filled in the order the versions finished)
        c["otherVersions"] = {v: t["otherVersions"][v] for v in sorted(t["otherVersions"])}
    if isinstance(t.get("pairedPass"), dict):
        c["pairedPass"] = {**t["pairedPass"], "pages": [{"message": page_message(p)} if page_message(p) is not None
                                                        else p for p in t["pairedPass"].get("pages") or []]}
    return c


def snapshot_text(transcripts: dict, server: str, unsupported: dict | None = None,
                  server_name: str | None = None, disabled_tools=()) -> str:
    """The capture document for ``transcripts`` ({version: transcript}). ``server_name``: the
    name the client's configuration gives the server (``probe --from``), kept as ``serverName``;
    ``disabled_tools``: the tools that configuration switches off, kept as ``disabledTools``."""
    return snapshot(transcripts, server, unsupported, server_name, disabled_tools)[0]


def snapshot(transcripts: dict, server: str, unsupported: dict | None = None, server_name: str | None = None,
             disabled_tools=()) -> tuple[str, dict | None]:
    """:func:`snapshot_text`, and what parsing each capture's object in it gives, with where it
    ends, by where it starts (for :func:`snapshot_document`); None when that is not known for
    every capture."""
    groups: dict[str, list[str]] = {}
    for v in VERSIONS:
        if v in transcripts:
            groups.setdefault(capture_text(transcripts[v]), []).append(v)
    entries: list = [(text, vs, {v: transcripts[v] for v in vs}, None) for text, vs in groups.items()]
    for v in VERSIONS:
        bt = binding_transcript(transcripts[v]) if v in transcripts else None
        if bt is not None and capture_text(bt) != capture_text(transcripts[v]):
            entries.append((capture_text(bt), [v], {v: bt}, "binding"))
    parts, values = [], []  # each capture's text in pieces (joined once: the listings may be large)
    tools_done: dict = {}
    for text, vs, ts, kind in entries:
        body = [f'"protocolVersions": {json.dumps(vs)}']
        if kind:
            body.append(f'"pass": {json.dumps(kind)}')
        # no version of this capture got a tools/list result: nothing stands for one it never sent
        got = any(has_result(t) for t in ts.values())
        result, value = result_layout(ts[vs[0]], 3, tools_done) if got else ("null", None)
        dumped = _dump({v: compact_transcript(t) for v, t in ts.items()}, 3)
        parts.append(["    {\n      " + ",\n      ".join(body) + ',\n      "result": ', result,
                      ',\n      "transcripts": ', dumped, "\n    }"])
        values.append(_capture_value(vs, kind, value, dumped) if value is not None or not got else None)
    head = [f'"{FORMAT_KEY}": 1', f'"server": {json.dumps(server, ensure_ascii=False)}']
    if server_name:
        head.append(f'"serverName": {json.dumps(server_name, ensure_ascii=False)}')
    if disabled_tools:
        head.append(f'"disabledTools": {json.dumps(list(disabled_tools), ensure_ascii=False)}')
    out = ["{\n  " + ",\n  ".join(head) + ',\n  "captures": [\n']
    at = len(out[0])  # where the next capture starts
    known: dict | None = {}
    for i, (pieces, value) in enumerate(zip(parts, values)):
        if i:
            out.append(",\n")
            at += 2
        out += pieces
        end = at + sum(map(len, pieces))
        if known is not None and value is not None:
            known[at + 4] = (value, end)  # (each capture starts with four spaces)
        else:
            known = None
        at = end
    out.append("\n  ]")
    if unsupported:
        out.append(',\n  "unsupported": ' + _dump(dict(sorted(unsupported.items())), 1))
    out.append("\n}\n")
    return "".join(out), known


def _capture_value(versions: list, kind: str | None, result: Any, transcripts: str) -> dict | None:
    """What parsing a capture's object gives, from its result's value and its transcripts' text;
    None when their text would not parse as it is (a repeated key, NaN: the file reports it)."""
    try:
        parsed, repeats = parse_json(transcripts)
    except (ValueError, RecursionError):
        return None
    if repeats:
        return None
    return {"protocolVersions": list(versions), **({"pass": kind} if kind else {}), "result": result,
            "transcripts": parsed}


# What makes the loader search a text for a lone surrogate (load.py): a capture that has it is
# parsed as a file is, to search it.
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]|\\U0000[dD][89a-fA-F]")


def snapshot_document(text: str, known: dict | None, origin: str) -> Document:
    """``load_text(text, origin, "json")`` for the capture :func:`snapshot` wrote, each capture's
    value taken from what the probe parsed (``known``) instead of parsing its text again: the
    same data, source map and checks (``tests/probe/test_probe_listing.py`` holds them equal)."""
    if known is not None and not _SURROGATE_HINT.search(text):
        try:
            data, repeats, marks = parse_json_indexed(text, known)
        except (ValueError, RecursionError):  # (the loader says where)
            repeats = True
        if not repeats and marks is not None:
            return Document(Source(origin, text, "json"), data, _mapper=JsonMapper(marks), _reparse=True)
    return load_text(text, origin, "json")
