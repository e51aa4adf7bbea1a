"""CFG001-CFG002: how a server is reached, as the client reads its settings."""

from __future__ import annotations

from ...model import Severity
from ...clientconfig import TYPE_REQUIRED, URL_KEYS
from ...registry import rule
from .common import client_name, servers

_REMOTE_TYPES = ("http", "sse", "streamable-http", "streamableHttp")


@rule("CFG001", "remote-server-without-type", severity=Severity.ERROR, scope="document", requires="client-config",
      fix='Add "type": "http" (Streamable HTTP) or "type": "sse" (the HTTP+SSE transport) to the server',
      fix_safety="safe", fix_note='The client cannot connect to the server as written; "type": "http" '
      "is the only reading of a URL that is not an SSE endpoint (a URL ending in /sse gets the fix in words).")
def remote_server_without_type(coll, ctx):
    """A remote server in a Claude Code or VS Code configuration has no `type`.

    ## What it does
    Reports a server of a Claude Code `.mcp.json` or a VS Code `.vscode/mcp.json` that gives a
    `url` but no `command` and no `type`.

    ## Why is this bad?
    Claude Code reads a server without `type` as a stdio server, which needs a `command`: the
    remote server is not connected. VS Code's configuration reference lists `type` as required
    for every server (`"stdio"`, `"http"` or `"sse"`). Cursor, Gemini CLI, Codex and Windsurf
    tell a remote server by its URL key, and are not checked here.

    ## Example
    ```json
    {"mcpServers": {"docs": {"url": "https://mcp.example.com/mcp"}}}
    ```

    ## Use instead
    ```json
    {"mcpServers": {"docs": {"type": "http", "url": "https://mcp.example.com/mcp"}}}
    ```

    ## References
    Claude Code, "Connect Claude Code to tools via MCP" (code.claude.com/docs/en/mcp: `.mcp.json`
    remote servers with `"type": "http"`); VS Code, "MCP configuration reference"
    (code.visualstudio.com/docs/copilot/reference/mcp-configuration: `type` is required).
    """
    for client, name, entry, ptr in servers(coll):
        if client not in TYPE_REQUIRED or "type" in entry or "command" in entry:
            continue
        key = next((k for k in URL_KEYS if k in entry), None)
        if key is None or not isinstance(entry[key], str):
            continue
        sse = entry[key].rstrip("/").lower().endswith("/sse")
        how = ("Claude Code reads a server without \"type\" as stdio, which needs a command" if client == "claude-code"
               else "VS Code requires \"type\" for every server")
        yield ctx.finding(ptr / key, f"server {name!r} has a URL but no \"type\": {how}; the server is not connected",
                          fix=None if not sse else 'Add "type": "sse" (the URL ends in /sse: an HTTP+SSE endpoint), '
                          'or "type": "http" if it serves Streamable HTTP',
                          patch=() if sse else ({"op": "add", "path": str(ptr / "type"), "value": "http"},))


@rule("CFG002", "stdio-and-http-server", severity=Severity.ERROR, scope="document", requires="client-config",
      fix="Keep one transport: `command` (with `args`, `env`) for a local server, or a URL (with `headers`) "
          "for a remote one; make two servers for both")
def stdio_and_http_server(coll, ctx):
    """A server is configured both as a local command and as a remote URL.

    ## What it does
    Reports a server whose settings have a `command` and a URL (`url`, Gemini CLI's `httpUrl`,
    Windsurf's `serverUrl`), or a `type` that names the other transport than the one its
    settings give (`"type": "http"` with only a `command`, `"type": "stdio"` with only a URL).

    ## Why is this bad?
    Each client picks one transport by its own order (Gemini CLI, for one, tries `httpUrl`,
    then `url`, then `command`), and ignores the rest without a word: the server someone
    reads in the file is not the one the client starts, and another client may start the other.

    ## Example
    ```json
    {"servers": {"db": {"type": "stdio", "command": "db-mcp", "url": "https://db.example.com/mcp"}}}
    ```

    ## Use instead
    ```json
    {"servers": {"db": {"type": "stdio", "command": "db-mcp"},
                 "db-remote": {"type": "http", "url": "https://db.example.com/mcp"}}}
    ```

    ## References
    VS Code, "MCP configuration reference" (code.visualstudio.com/docs/copilot/reference/mcp-configuration:
    stdio servers take `command`, HTTP and SSE servers `url`); Gemini CLI, docs/tools/mcp-server.md
    (google-gemini/gemini-cli: "httpUrl", "url" and "command" and which wins); Claude Code,
    code.claude.com/docs/en/mcp.
    """
    for client, name, entry, ptr in servers(coll):
        url = next((k for k in URL_KEYS if k in entry), None)
        kind = entry.get("type")
        if "command" in entry and url is not None:
            yield ctx.finding(ptr / url, f"server {name!r} has both \"command\" (stdio) and {url!r} (HTTP): "
                                         f"{client_name(client)} uses one and ignores the other")
        elif "command" in entry and kind in _REMOTE_TYPES:
            yield ctx.finding(ptr / "type", f"server {name!r} says \"type\": {kind!r} but gives a \"command\" "
                                            "and no URL")
        elif url is not None and kind == "stdio":
            yield ctx.finding(ptr / "type", f"server {name!r} says \"type\": \"stdio\" but gives {url!r} and no "
                                            "\"command\"")
