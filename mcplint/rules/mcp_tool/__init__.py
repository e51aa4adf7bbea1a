"""MCP tools (MCP1xx, family ``mcp_tool``): the Tool definition as each MCP protocol version
defines it.

One module per thing the rules look at: the Tool object's members (:mod:`.members`), whether
a schema slot's root is an object (:mod:`.object_root`) and what its root keywords say
(:mod:`.root_keywords`), annotations (:mod:`.tool_annotations`), icons (:mod:`.icons`), names and
scopes (:mod:`.names`), ``x-mcp-header`` (:mod:`.headers`), ``_meta`` keys (:mod:`.meta`) and the
2026-07-28 ``tools/list`` result (:mod:`.list_result`); helpers they share (and the ``mcp_result``
family uses too) live in :mod:`.common`. Every rule names the versions it applies to; per-version
facts come from the official schema.ts of each version (Tool is a closed type in every version).
Importing the package registers every rule.
"""

from __future__ import annotations

from . import (  # noqa: F401  (importing a module registers its rules)
    headers,
    icons,
    list_result,
    members,
    meta,
    names,
    object_root,
    root_keywords,
    tool_annotations,
)
