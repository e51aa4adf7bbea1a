"""CFG003: keys a client does not read."""

from __future__ import annotations

import difflib

from ...model import Severity
from ...clientconfig import SERVER_KEYS
from ...registry import rule
from .common import client_name, servers


@rule("CFG003", "unknown-server-key", severity=Severity.WARNING, scope="document", requires="client-config",
      fix="Rename the key to the one the client reads (the closest is named), or remove it")
def unknown_server_key(coll, ctx):
    """A server's settings have a key its client does not read.

    ## What it does
    Reports a key of a server's settings that the client's documentation does not list, and
    names the closest key it does list (`arg` -> `args`, `enviroment` -> `env`). A key close
    to a known one is a warning; any other is information (a newer client may read it).

    ## Why is this bad?
    Clients ignore keys they do not know: a misspelt `args` starts the server without its
    arguments, a misspelt `env` without its variables, and nothing says why.

    ## Example
    ```json
    {"mcpServers": {"files": {"command": "files-mcp", "arg": ["--root", "."]}}}
    ```

    ## Use instead
    ```json
    {"mcpServers": {"files": {"command": "files-mcp", "args": ["--root", "."]}}}
    ```

    ## References
    Claude Code, code.claude.com/docs/en/mcp; VS Code, "MCP configuration reference"
    (code.visualstudio.com/docs/copilot/reference/mcp-configuration); Cursor, cursor.com/docs/context/mcp;
    Gemini CLI, docs/tools/mcp-server.md in google-gemini/gemini-cli; Codex, docs/config.md in
    openai/codex; Windsurf, docs.windsurf.com/windsurf/cascade/mcp.
    """
    for client, name, entry, ptr in servers(coll):
        known = SERVER_KEYS.get(client)
        if known is None:
            continue
        for key in entry:
            if key in known:
                continue
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6) or [
                k for k in known if k.lower() == str(key).lower()]
            where = f"{client_name(client)} does not read {str(key)!r} in a server's settings"
            if close:
                yield ctx.finding(ptr / key, f"server {name!r}: {where}; did you mean {close[0]!r}?",
                                  fix=f"Rename {str(key)!r} to {close[0]!r}")
            else:
                yield ctx.finding(ptr / key, f"server {name!r}: {where} (it reads {', '.join(known)})",
                                  severity=Severity.INFO)
