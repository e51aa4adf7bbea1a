"""JST: the JSON Structure MCP binding (draft-vasters-json-structure-mcp-binding).

A slot is JSON Structure when its ``$schema`` is a recognised JSON Structure meta-schema
URI (binding §3.1); every rule but JST101 looks only at such slots. The checks live in
:mod:`mcplint.jstruct.schema`; these rules turn their problems into findings. Size,
depth, ``$ref`` traversal, enum cardinality and regex safety (binding §10) are the SEC
rules' job and are not repeated here.

Modules: :mod:`.declaration` (``$schema``, meta-schema validity, misspellings), :mod:`.root`
(the root's form and names), :mod:`.references` (self-containment), :mod:`.addins` (add-in
activation), :mod:`.wire` (what the JSON on the wire looks like); :mod:`.common` holds what
they share.
"""

from __future__ import annotations

from . import addins, declaration, references, root, wire  # noqa: F401  (registers the rules)
