"""Where in a schema a finding sits, in the terms both generators' fixes need: the property and
keyword a pointer names, whether an object is a tool's arguments, the slot a pointer lies in."""

from __future__ import annotations

import re

from ..model import Finding

OPTIONAL_WORDS = re.compile(r"'required'|\brequired\b.*\boptional\b|\boptional\b.*\brequired\b", re.I)


def subject_of(f: Finding) -> str:
    return f"{f.message} {f.fix.title if f.fix else ''}"


def property_at(pointer) -> tuple:
    """(object pointer, property name, keyword or None) when ``pointer`` names a property
    (``.../properties/p``) or a keyword of one (``.../properties/p/maxLength``)."""
    p = tuple(pointer)
    if len(p) >= 2 and p[-2] == "properties" and isinstance(p[-1], str):
        return p[:-2], p[-1], None
    if len(p) >= 3 and p[-3] == "properties" and isinstance(p[-1], str):
        return p[:-3], p[-2], p[-1]
    return None, None, None


def is_arguments(obj_pointer) -> bool:
    """Whether the pointer is a tool's inputSchema root, in any document shape (``/inputSchema`` of
    one tool, ``/tools/N/inputSchema``, ``/result/tools/N/...``, a capture's ``/captures/K/result/...``)."""
    if obj_pointer is None or not obj_pointer or obj_pointer[-1] != "inputSchema":
        return False
    return len(obj_pointer) == 1 or isinstance(obj_pointer[-2], int)


def slot_root(doc, pointer):
    """The tool-level inputSchema or outputSchema a pointer lies in."""
    p = tuple(pointer)
    for i in range(len(p)):  # the first one: a tool's slot comes before anything inside its schema
        if p[i] in ("inputSchema", "outputSchema") and (i == 0 or isinstance(p[i - 1], int)):
            return node_at(doc, type(pointer)(p[:i + 1]))
    return None


def node_at(doc, pointer):
    try:
        return pointer.resolve_in(doc.data)
    except (KeyError, IndexError, TypeError):
        return None


def closing(f: Finding, doc) -> tuple | None:
    """For a finding about closing an object: the object's pointer, the object, and whether it is a
    free-form map (a schema for every key and no named properties: what dict[str, X] or z.record writes).
    None when what the finding points at (or at whose ``additionalProperties``) is not an object
    schema: a keyword whose words happen to name ``additionalProperties`` (Codex's list of the
    keywords it keeps)."""
    at = f.pointer.parent if f.pointer and f.pointer[-1] == "additionalProperties" else f.pointer
    node = node_at(doc, at)
    if not (isinstance(node, dict) and (node.get("type") == "object" or "properties" in node
                                        or "additionalProperties" in node)):
        return None
    # dict[str, X] writes a schema for every key; dict[str, Any] writes "additionalProperties": true
    free_map = (isinstance(node.get("additionalProperties"), dict) or node.get("additionalProperties") is True) \
        and not node.get("properties")
    return at, node, free_map


# Words that start so say the finding asks nothing of the code: it is kept as information only.
NOTHING_TO_CHANGE = "nothing to change: "
# Words that start so say the only remedy lies outside the server's code (the SDK writes what the
# target refuses; only how a client sends the tool avoids it): an error becomes a warning.
OUTSIDE_THE_CODE = ("the SDK writes this arguments object itself", "this tool is built by the SDK")
