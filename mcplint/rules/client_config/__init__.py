"""CFG: MCP client configurations (Claude Code ``.mcp.json``, VS Code ``.vscode/mcp.json``,
Cursor ``.cursor/mcp.json``, Gemini CLI ``.gemini/settings.json``, Codex ``.codex/config.toml``,
Windsurf ``mcp_config.json``):
what the client will not read as the author meant, secrets written into the file, packages
run at whatever version is newest. The formats are those ``probe --from`` reads
(:mod:`mcplint.clientconfig`, which holds what each client's documentation says of its keys).

* :mod:`.transport`: a remote server without the ``type`` its client needs, a server both stdio and HTTP (CFG001-CFG002);
* :mod:`.keys`: keys the client does not know, with the closest it does (CFG003);
* :mod:`.values`: literal secrets, unpinned packages, VS Code input prompts (CFG004-CFG006).

A command that is not on PATH is not a finding: that is for ``mcplint probe --from``. A value
is never quoted whole: a secret at most as its first four characters and its length.
"""

from __future__ import annotations

from . import keys, transport, values  # noqa: F401  (importing a module registers its rules)
