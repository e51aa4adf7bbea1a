"""What checking a value against a schema reports: a :class:`Problem` per failing location (for
:mod:`mcplint.validate` and :mod:`mcplint.jstruct` alike), the stable codes saying which check it
came from, its severities, and the :class:`Limits` that bound one validation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .model import Pointer

ERROR, WARNING, INFO = "error", "warning", "info"

# Codes: which check a problem comes from (stable; the MCP3xx rules in mcplint/rules/mcp_result/ use them).
INPUT_MISMATCH = "input-mismatch"  # arguments do not match inputSchema
OUTPUT_MISMATCH = "output-mismatch"  # structuredContent does not match outputSchema
RESULT_SHAPE = "result-shape"  # the CallToolResult itself is malformed for the protocol version
RESULT_TYPE = "result-type"  # resultType missing / not "complete" where required
VERSION_FIELD = "version-field"  # a result field the protocol version lacks
MISSING_STRUCTURED = "missing-structured-content"  # success without structuredContent despite outputSchema
STRUCTURED_ERROR = "structured-error"  # isError: true carrying structuredContent
MIRROR_MISSING = "mirror-missing"  # no TextContent block with the serialized structuredContent
MIRROR_MISMATCH = "mirror-mismatch"  # a JSON text block that is not the same value
INCOMPLETE = "incomplete"  # validation could not be completed (external $ref, dialect, bounds...)
MAX_MESSAGE = 400


@dataclass(frozen=True)
class Problem:
    """One failing location found by checking a value against a schema: an instance against a
    tool's schema (:mod:`mcplint.validate`), or a JSON Structure schema against its own rules
    (:mod:`mcplint.jstruct`). ``path`` is the location as RFC 6901 steps (keys and indices)
    relative to the checked value's root; ``pointer`` is the same as text (``""`` for the root)."""

    path: tuple
    keyword: str
    message: str
    severity: str = ERROR  # "error" | "warning" | "info"
    code: str = ""  # which check it came from (the codes above; a json-structure package code in jstruct)
    schema_pointer: str | None = None  # where the failing keyword sits, e.g. "/outputSchema/items/required"

    @property
    def pointer(self) -> str:
        return str(Pointer(self.path))

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> dict:
        return {"pointer": self.pointer, "keyword": self.keyword, "message": self.message,
                "severity": self.severity, "code": self.code, "schema_pointer": self.schema_pointer}


@dataclass(frozen=True)
class Limits:
    """Bounds on one validation (SEP-2106: bound depth, subschema count and time)."""

    timeout: float = 2.0  # seconds for the whole call
    max_instance_depth: int = 128  # nesting of arrays/objects in the validated value
    max_subschemas: int = 10_000  # subschemas in one schema
    max_text_bytes: int = 1 << 20  # a TextContent block larger than this is not parsed as a mirror


def pointer_str(path: Iterable) -> str:
    return str(Pointer(path))


def clip(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"
