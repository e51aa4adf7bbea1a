"""Which schema language a slot is written in, read from its ``$schema``.

MCP (2025-11-25 on) reads a slot without ``$schema`` as JSON Schema 2020-12. A slot whose
``$schema`` is a JSON Structure meta-schema URI is a JSON Structure schema (the JSON Structure
MCP binding, §3.1) and is checked by the JST family, never as JSON Schema. Anything else
mcplint does not know is *unknown*: it is reported, and never silently read as 2020-12
(binding §3.2). Nothing here is ever fetched: ``$schema`` is matched, not retrieved.
"""

from __future__ import annotations

from typing import Any

DEFAULT = "2020-12"

# JSON Schema dialects mcplint validates, by canonical meta-schema URI (without the empty fragment).
JSON_SCHEMA_URIS: dict[str, str] = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
    "http://json-schema.org/draft-06/schema": "draft-06",
    "http://json-schema.org/draft-04/schema": "draft-04",
}
# Canonical URI of each dialect, as written in a schema.
CANONICAL: dict[str, str] = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
}
JSON_SCHEMA_DIALECTS = tuple(CANONICAL)

# JSON Structure meta-schema URIs (JSON Structure MCP binding §3.1, Table 1; the list is open to
# further JSON Structure meta-schemas a processor knows, such as relations/v0).
JSON_STRUCTURE_URIS: tuple[str, ...] = (
    "https://json-structure.org/meta/core/v0/#",
    "https://json-structure.org/meta/extended/v0/#",
    "https://json-structure.org/meta/validation/v0/#",
    "https://json-structure.org/meta/semantic-annotations/v0/#",
    "https://json-structure.org/meta/relations/v0/#",
)
JSON_STRUCTURE = "json-structure"
_JSTRUCT = {u.rstrip("#") for u in JSON_STRUCTURE_URIS}


def _strip_empty_fragment(uri: str) -> str:
    return uri[:-1] if uri.endswith("#") else uri


def dialect_of(schema: Any) -> str | None:
    """``"2020-12"``, ``"2019-09"``, ``"draft-07"``, ``"draft-06"``, ``"draft-04"``,
    ``"json-structure"``, or ``None`` when ``$schema`` names something mcplint does not know
    (or is not a string). A schema without ``$schema`` (or a boolean schema) is 2020-12."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return DEFAULT
    value = schema["$schema"]
    if not isinstance(value, str):
        return None
    uri = _strip_empty_fragment(value)
    if uri in _JSTRUCT:
        return JSON_STRUCTURE
    return JSON_SCHEMA_URIS.get(uri)


def is_json_structure(schema: Any) -> bool:
    return dialect_of(schema) == JSON_STRUCTURE


def near_miss(value: str) -> str | None:
    """The canonical URI a mistyped ``$schema`` most likely meant (scheme, ``www.``, trailing
    slash or ``.json`` differences), or None."""
    def key(u: str) -> str:
        u = _strip_empty_fragment(u.strip()).lower()
        for prefix in ("https://", "http://"):
            if u.startswith(prefix):
                u = u[len(prefix):]
        u = u.removeprefix("www.").rstrip("/")
        return u.removesuffix(".json")

    k = key(value)
    for uri, dialect in JSON_SCHEMA_URIS.items():
        if key(uri) == k:
            return CANONICAL[dialect]
    for uri in JSON_STRUCTURE_URIS:
        if key(uri) == k:
            return uri
    return None
