"""REG: MCP Registry ``server.json`` manifests, against the registry's published schema and
the publishing requirements its documentation and validator state.

The current schema ships with mcplint (``mcplint/data/server-json/``, never fetched):
:mod:`.schema` validates against it and reads ``$schema`` (REG001-REG002), :mod:`.names` checks
the name, its namespace and the description (REG003, REG004, REG009), :mod:`.packages` the
versions, transports and packages (REG005-REG007), :mod:`.meta` the ``_meta`` limits (REG008,
REG010), :mod:`.arguments` named arguments and https links (REG011-REG012). Every rule requires a server.json document (``requires="server-json"``): a manifest
gets no other rules but DOC's, and a tools document none of these.
"""

from __future__ import annotations

from . import arguments, meta, names, packages, schema  # noqa: F401  (importing a module registers its rules)
