"""MCP results (MCP3xx, family ``mcp_result``): the examples of an MCP Description tool
declaration, their shape (:mod:`.examples`) and their results checked against the tool's
outputSchema and the result type of each MCP protocol version (:mod:`.example_results`), as the
MCP Description validation guide asks. Helpers they share live in :mod:`.common`. Importing the
package registers every rule.
"""

from __future__ import annotations

from . import example_results, examples  # noqa: F401  (importing a module registers its rules)
