"""What the REG rules share: the bundled server.json schema, the dated schema versions the MCP
Registry has published, and walks over a manifest's packages and remotes."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from ...model import ROOT, Pointer

# Every dated server.json schema the registry has published, oldest first (the registry's
# docs/reference/server-json/CHANGELOG.md). Each ships with mcplint (mcplint/data/server-json/,
# SOURCE.md says where each came from); the last is the current one.
SCHEMA_DATES = ("2025-07-09", "2025-09-16", "2025-09-29", "2025-10-11", "2025-10-17", "2025-12-11")
CURRENT = SCHEMA_DATES[-1]
# The last version that changed the format incompatibly (2025-09-29 removed `status` and the
# registry's `_meta`); a manifest written for it or later means the same under the current one.
LAST_BREAKING = "2025-09-29"
SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/{}/server.schema.json"
CURRENT_URL = SCHEMA_URL.format(CURRENT)
_DATED = re.compile(r"^https?://static\.modelcontextprotocol\.io/schemas/(\d{4}-\d{2}-\d{2})/server\.schema\.json$")

# The package registries the official registry accepts, and the one base URL each may name
# (official-registry-requirements.md, "Restricted Registry Base URLs"); oci and mcpb name none.
REGISTRY_TYPES = ("npm", "pypi", "nuget", "oci", "mcpb")
BASE_URLS = {
    "npm": ("https://registry.npmjs.org",),
    "pypi": ("https://pypi.org",),
    "nuget": ("https://api.nuget.org/v3/index.json", "https://api.nuget.org"),
}
NEEDS_VERSION = ("npm", "pypi", "nuget")  # the others carry it in the identifier (CHANGELOG 2025-10-11)
PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided"
PUBLISHER_META_LIMIT = 4096  # bytes of JSON (official-registry-requirements.md)


def schema_date(uri: str) -> str | None:
    """The date of a dated server.json schema URI, else None."""
    m = _DATED.match(uri.strip())
    return m.group(1) if m else None


@lru_cache(maxsize=len(SCHEMA_DATES))
def validator(date: str = CURRENT):
    """A draft-07 validator of the bundled schema of ``date`` (one of SCHEMA_DATES; each built once)."""
    from jsonschema import Draft7Validator

    if date not in SCHEMA_DATES:
        raise ValueError(f"no bundled server.json schema of {date}")
    text = resources.files("mcplint").joinpath(f"data/server-json/{date}.json").read_text(encoding="utf-8")
    return Draft7Validator(json.loads(text))


def manifest(collection) -> dict | None:
    """The manifest object of a server.json collection, else None (any other document)."""
    if collection.shape != "server-json" or not isinstance(collection.doc.data, dict):
        return None
    return collection.doc.data


def items(data: dict, key: str):
    """(pointer, object) for each object entry of the array ``data[key]``."""
    value = data.get(key)
    if not isinstance(value, list):
        return []
    return [(ROOT / key / i, v) for i, v in enumerate(value) if isinstance(v, dict)]


def clip(text: str, n: int = 60) -> str:
    """A value from the file, shortened for a message (the report makes it inert)."""
    return repr(text if len(text) <= n else text[: n - 3] + "...")


def kind(value) -> str:
    if isinstance(value, bool):
        return "a boolean"
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), "a value")


def pointer_of(path) -> Pointer:
    return ROOT + tuple(path)
