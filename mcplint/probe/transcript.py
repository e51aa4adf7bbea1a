"""A probe transcript, and the document the rules lint.

A transcript is a plain JSON object per protocol version: what the probe sent and
what came back::

    {"transport": "stdio" | "http",
     "handshake": {"method": "initialize" | "server/discover", "message": {JSON-RPC response}},
     "pages": [{"raw": "<the tools/list response exactly as received>"} | {"message": {...}}],
     "cursorLoop": "<cursor seen twice>" | null, "pageLimit": 500 | null,
     "stdoutNoise": ["<non-JSON line>", ...], "stdoutNoiseCount": 3,
     "otherVersions": {"2025-06-18": ["tool names listed there"]},
     "calls": [{"tool": "...", "arguments": {...}, "message": {response} | null, "timeout": bool}],
     "shutdown": "exited" | "terminated" | "killed" | null,
     "clientExtensions": [],
     "pairedPass": null | {"clientExtensions": ["org.json-structure/schema-binding"],
                           "pages": [...], "cursorLoop": ..., "pageLimit": ...}}

``clientExtensions`` lists the extensions the probe advertised while listing ``pages``.
Under 2026-07-28, when the server advertises ``org.json-structure/schema-binding`` or a
slot it sent looks like JSON Structure, the probe lists the tools a second time as a client
that advertises the binding: that second listing is ``pairedPass``.
:func:`binding_transcript` turns it into a transcript of its own (``"pass": "binding"``,
whose ``pairedPass`` is the first listing), linted as a second document when its capture
differs from the first.

The document is the captured ``tools/list`` result, cut verbatim out of the response
text (so duplicate keys, number spellings and key order are exactly what the server
sent). Several pages are joined into one ``{"tools": [...]}`` whose items are the
servers' own texts, in order. The transcripts ride on ``Document.probe`` for the PRB rules.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, Iterator

from ..jsonparse import parse_json_indexed
from ..model import Document
from ..sourcemap import json_spans

SCHEMA_BINDING = "org.json-structure/schema-binding"
JSTRUCT_SITE = "https://json-structure.org/meta/"


def page_message(page: dict) -> Any:
    if "message" in page:
        return page["message"]
    try:
        return _parsed(page["raw"])
    except (ValueError, KeyError, RecursionError, TypeError):
        return None


@functools.lru_cache(maxsize=4)
def _parsed(raw: str) -> Any:
    """A page's text parsed once, not once per rule that reads it (a string's hash is kept in the
    string, so a look-up costs nothing after the first; rules never change what they read)."""
    return json.loads(raw)


def page_text(page: dict) -> str:
    return page["raw"] if "raw" in page else json.dumps(page.get("message"))


def good_page(message: Any) -> bool:
    return (isinstance(message, dict) and isinstance(message.get("result"), dict)
            and isinstance(message["result"].get("tools"), list))


def page_tools(transcript: dict) -> Iterator[tuple[int, int, Any]]:
    """``(index in the captured document, page number, tool)`` for every listed tool."""
    i = 0
    for n, page in enumerate(transcript.get("pages") or []):
        msg = page_message(page)
        if not good_page(msg):
            continue
        for tool in msg["result"]["tools"]:
            yield i, n, tool
            i += 1


def tool_names(transcript: dict) -> list[str]:
    return [t["name"] for _, _, t in page_tools(transcript) if isinstance(t, dict) and isinstance(t.get("name"), str)]


def _slicer(text: str):
    try:  # the offsets parsing records for the upper levels (result, its members, each tool) suffice
        _, _, marks = parse_json_indexed(text)
    except (ValueError, RecursionError):
        marks = None
    if marks is not None and text[:1] != "\ufeff":
        def cut_marked(ptr: tuple) -> str:
            entry = marks.get(ptr)
            if entry is None:
                raise KeyError(ptr)
            return text[entry[2]:entry[3]]

        return cut_marked
    spans, _ = json_spans(text)  # (a map of the whole text: slow on a big one)
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def cut(ptr: tuple) -> str:
        entry = spans.get(ptr)
        if entry is None:
            raise KeyError(ptr)
        s = entry[1]
        return text[starts[s.line - 1] + s.col - 1: starts[s.end_line - 1] + s.end_col - 1]

    return cut


def capture_text(transcript: dict) -> str:
    """The captured tools/list result as text (see the module docstring)."""
    good = [(page_text(p), page_message(p)) for p in transcript.get("pages") or []]
    good = [(t, m) for t, m in good if good_page(m)]
    if not good:
        return '{"tools": []}\n'
    if len(good) == 1:
        text, _ = good[0]
        return _slicer(text)(("result",)) + "\n"
    items: list[str] = []
    for text, msg in good:
        cut = _slicer(text)
        items += [cut(("result", "tools", i)) for i in range(len(msg["result"]["tools"]))]
    text, msg = good[-1]
    cut = _slicer(text)
    extra = [f"{json.dumps(k)}: {cut(('result', k))}" for k in msg["result"] if k not in ("tools", "nextCursor")]
    body = ",\n".join(["\"tools\": [\n" + ",\n".join(items) + "\n]"] + extra)
    return "{" + body + "}\n"


def capture_document(transcripts: dict, origin: str) -> Document:
    """A Document for the captured result shared by ``transcripts`` ({version: transcript}),
    carrying them on ``Document.probe``. Every transcript must yield the same text."""
    from ..load import load_text

    first = next(iter(transcripts.values()))
    doc = load_text(capture_text(first), origin, "json")
    doc.probe = transcripts
    return doc


def example_document(text: str, versions, origin: str = "case.json") -> Document:
    """A rule example or fixture: one transcript (JSON text) standing for every version."""
    transcript = json.loads(text)
    return capture_document({v: transcript for v in versions}, origin)


def server_capabilities(transcript: dict) -> dict | None:
    hs = transcript.get("handshake") or {}
    msg = hs.get("message") if isinstance(hs, dict) else None
    res = msg.get("result") if isinstance(msg, dict) else None
    caps = res.get("capabilities") if isinstance(res, dict) else None
    return caps if isinstance(caps, dict) else None


def server_extensions(transcript: dict) -> dict:
    """The server's ``capabilities.extensions`` ({} when absent or malformed)."""
    exts = (server_capabilities(transcript) or {}).get("extensions")
    return exts if isinstance(exts, dict) else {}


def looks_jstruct(schema: Any) -> bool:
    """A recognised JSON Structure slot, a ``$schema`` on json-structure.org that mcplint does
    not recognise, or JSON Structure constructs without ``$schema`` (bounded walk)."""
    if not isinstance(schema, dict):
        return False
    from ..jstruct import is_jstruct

    if is_jstruct(schema):
        return True
    uri = schema.get("$schema")
    if isinstance(uri, str):
        return uri.startswith(JSTRUCT_SITE)
    from ..jstruct.schema import jstruct_signals

    return bool(jstruct_signals(schema, max_nodes=2000, max_depth=64))


def binding_transcript(transcript: dict) -> dict | None:
    """The second listing (client advertising the binding) as a transcript of its own, or
    None when there was none. Handshake and transport are shared; what the connection did
    (stdout noise, calls, shutdown, other versions) stays with the first listing."""
    paired = transcript.get("pairedPass")
    if not isinstance(paired, dict):
        return None
    return {**transcript, "pass": "binding", "clientExtensions": list(paired.get("clientExtensions") or []),
            "pages": paired.get("pages") or [], "cursorLoop": paired.get("cursorLoop"),
            "pageLimit": paired.get("pageLimit"), "stdoutNoise": [], "stdoutNoiseCount": 0, "otherVersions": {},
            "calls": [], "shutdown": None,
            "pairedPass": {"clientExtensions": list(transcript.get("clientExtensions") or []),
                           "pages": transcript.get("pages") or []}}
