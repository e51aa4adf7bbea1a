"""What every PRB rule reads: the transcript of one protocol version, the handshake result,
where a tool sits in the captured document, and the JSON Structure binding's identifiers."""

from __future__ import annotations

from ...model import Pointer
from ...probe import wire

SCHEMA_BINDING = "org.json-structure/schema-binding"
JSTRUCT_META = "https://json-structure.org/meta/"
SLOTS = ("inputSchema", "outputSchema")  # the schema slots of a tool


def transcript_of(collection, ctx) -> dict | None:
    probe = collection.probe  # a capture file's (mcplint.capture), else the live probe's
    if probe is None and collection.doc.capture is not None:
        probe = collection.doc.capture.transcripts
    if not isinstance(probe, dict):
        return None
    t = probe.get(ctx.version)
    return t if isinstance(t, dict) else None


def handshake_result(t: dict):
    hs = t.get("handshake") or {}
    msg = hs.get("message") or {}
    res = msg.get("result") if isinstance(msg, dict) else None
    return hs.get("method"), res if isinstance(res, dict) else None


def tool_pointer(collection, name: str) -> Pointer:
    for tool in collection.tools:
        if tool.name == name:
            return tool.pointer / "name"
    return collection.container


def clip(text: str, n: int = 80) -> str:
    return wire.clip(text, n)


def is_jstruct_schema(schema) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("$schema"), str) and \
        schema["$schema"].startswith(JSTRUCT_META)
