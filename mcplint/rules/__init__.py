"""Rule families, one module or package each; a package names its family in ``FAMILY``.
Importing one registers its rules.

ID prefixes: DOC (the file itself), MCP (the MCP spec, per protocol version),
SCH (JSON Schema validity and likely mistakes), SEC (safety bounds, references,
ReDoS), JST (the JSON Structure MCP binding), DEC (decoder profiles), REG (MCP Registry
server.json manifests), CFG (MCP client configurations), DSC (descriptions a model chooses by).
"""

from __future__ import annotations

import importlib

FAMILIES = (
    "document",
    "mcp",
    "jstruct",
    "decoder_profile",
    "safety",
    "schema",
    "probe",
    "registry",
    "config",
    "descriptions",
)

_loaded = False


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    for name in FAMILIES:
        importlib.import_module(f"{__name__}.{name}")
    _loaded = True
