"""Rule families, one module or package each. Importing one registers its rules.

A family has one name: its package (or module) here, which is also the family as the reports
publish it (``mcplint rules --format json``, ``mcplint rule``, SARIF ``properties.family`` and
``tags``, docs/rules.md), its table of cases in ``tests/cases/<name>.yaml`` and its extra tests in
``tests/rules/<name>/``; its docs page is ``docs/<name>.md`` with hyphens for underscores, save
``docs/mcp-rules.md`` (both MCP families), ``docs/client-configs.md``, ``docs/profiles.md`` (DEC)
and ``docs/scanning.md`` (DOC). The family names are part of those formats: renaming a package
renames what users' tools read.

ID prefixes: DOC (the file itself), MCP (the MCP spec, per protocol version: MCP1xx the tool,
MCP3xx example results), SCH (JSON Schema validity and likely mistakes), SEC (safety bounds,
references, ReDoS), JST (the JSON Structure MCP binding), DEC (decoder profiles), REG (MCP Registry
server.json manifests), CFG (MCP client configurations), DSC (descriptions a model chooses by).
"""

from __future__ import annotations

import importlib

FAMILIES = (
    "document",
    "mcp_result",
    "mcp_tool",
    "json_structure",
    "decoder_profile",
    "schema_safety",
    "schema_validity",
    "probe",
    "server_json",
    "client_config",
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
