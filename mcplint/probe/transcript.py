"""A probe transcript, and the document the rules lint.

A transcript is a plain JSON object per protocol version: what the probe sent and
what came back::

    {"transport": "stdio" | "http" | "sse",
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
servers' own texts, in order. The transcripts ride on ``Document.capture`` for the PRB rules.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from typing import Any, Iterator

from ..jsonparse import parse_json_indexed
from .listing import Listed, PageCut, read_page
from ..model import Document, ProbeCapture
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


_LISTED = Listed()  # the tools of the last page read (tools listed alike under two versions: one value)


@functools.lru_cache(maxsize=4)
def _read(raw: str) -> tuple[Any, PageCut | None]:
    """A page's text parsed once, not once per rule that reads it (a string's hash is kept in the
    string, so a look-up costs nothing after the first; rules never change what they read), with
    where its result is in it (:func:`~mcplint.probe.listing.read_page`)."""
    return read_page(raw, _LISTED)


def forget_pages() -> None:
    """Let go of the pages parsed so far (a capture, once made, holds what it needs of them)."""
    _read.cache_clear()
    _LISTED.last = []


def _parsed(raw: str) -> Any:
    return _read(raw)[0]


def page_cut(page: dict) -> tuple[str, PageCut | None]:
    """A page's text and where its result is in it (None: read it again to know)."""
    if "raw" not in page:
        return page_text(page), None
    try:
        return page["raw"], _read(page["raw"])[1]
    except (ValueError, RecursionError, TypeError):
        return page["raw"], None


def page_text(page: dict) -> str:
    return page["raw"] if "raw" in page else json.dumps(page.get("message"))


def incomplete_type(message: Any) -> str | None:
    """The ``resultType`` of a result that says it is not complete (``"input_required"``...),
    else None. tools/list has no such result (MCP 2026-07-28 allows an InputRequiredResult only
    for tools/call, prompts/get and resources/read), and a client that reads ``resultType``
    does not take the tools of one."""
    result = message.get("result") if isinstance(message, dict) else None
    rt = result.get("resultType") if isinstance(result, dict) else None
    return rt if isinstance(rt, str) and rt != "complete" else None


def good_page(message: Any) -> bool:
    """A page that is a complete tools/list result: its tools are what a client lists."""
    return (isinstance(message, dict) and isinstance(message.get("result"), dict)
            and isinstance(message["result"].get("tools"), list) and incomplete_type(message) is None)


def has_result(transcript: dict) -> bool:
    """Did the server send at least one usable tools/list result under this transcript? When
    not, the captured document stands for nothing the server sent: only what happened (the
    PRB rules) is reported, and nothing is saved."""
    return any(good_page(page_message(p)) for p in transcript.get("pages") or [])


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
    if marks is not None:
        def cut_marked(ptr: tuple) -> str:
            entry = marks.get(ptr)
            if entry is None:
                raise KeyError(ptr)
            return text[entry[2]:entry[3]]

        return cut_marked
    offsets = json_spans(text)[0].offsets  # into ``text`` (a map of the whole text: slow on a big one)

    def cut(ptr: tuple) -> str:
        entry = offsets.get(ptr)
        if entry is None:
            raise KeyError(ptr)
        return text[entry[2]:entry[3]]

    return cut


def good_pages(transcript: dict) -> list[tuple[dict, Any]]:
    """(page, its message) of each page that is a complete tools/list result."""
    return [(p, m) for p in transcript.get("pages") or [] if good_page(m := page_message(p))]


def capture_text(transcript: dict) -> str:
    """The captured tools/list result as text (see the module docstring)."""
    good = good_pages(transcript)
    if not good:
        return '{"tools": []}\n'
    if len(good) == 1:
        text, cut = page_cut(good[0][0])
        return (text[cut.start:cut.end] if cut is not None else _slicer(text)(("result",))) + "\n"
    items: list[str] = []
    for page, msg in good:
        text, cut = page_cut(page)
        if cut is not None:
            o = cut.items
            items += [text[o[i]:o[i + 1]] for i in range(0, len(o), 2)]
        else:
            sliced = _slicer(text)
            items += [sliced(("result", "tools", i)) for i in range(len(msg["result"]["tools"]))]
    page, msg = good[-1]
    text, cut = page_cut(page)
    if cut is not None:
        extra = [f"{json.dumps(k)}: {text[vs:ve]}" for k, (vs, ve) in cut.last.items() if k not in ("tools", "nextCursor")]
    else:
        sliced = _slicer(text)
        extra = [f"{json.dumps(k)}: {sliced(('result', k))}" for k in msg["result"] if k not in ("tools", "nextCursor")]
    body = ",\n".join(["\"tools\": [\n" + ",\n".join(items) + "\n]"] + extra)
    return "{" + body + "}\n"


def capture_document(transcripts: dict, origin: str) -> Document:
    """A Document for the captured result shared by ``transcripts`` ({version: transcript}),
    carrying them on its ``capture``. Every transcript must yield the same text."""
    from ..load import load_text

    first = next(iter(transcripts.values()))
    return replace(load_text(capture_text(first), origin, "json"), capture=ProbeCapture(transcripts))


def failure_document(transcripts: dict, origin: str) -> Document:
    """For transcripts without any tools/list result (:func:`has_result` false): a Document of
    what the server answered instead (its first tools/list response, verbatim), carrying the
    transcripts, so that findings show what was sent and never a result that was not."""
    from ..load import load_text

    first = next(iter(transcripts.values()))
    pages = first.get("pages") or []
    text = page_text(pages[0]) if pages else "null"
    try:
        doc = load_text(text, origin, "json")
    except Exception:  # not JSON at all: the PRB rules say so; the document holds nothing
        doc = load_text("null", origin, "json")
    return replace(doc, capture=ProbeCapture(transcripts))


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
