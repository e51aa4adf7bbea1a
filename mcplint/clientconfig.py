"""MCP client configurations as each client reads them: which file belongs to which client,
the keys of a server's settings it knows, and the values in them that are secrets. The CFG rules
and `mcplint scan` read configurations with it; :mod:`mcplint.probe.clients` turns one into
the servers ``probe --from`` starts.

Recognised files and their server tables:

=====================  ==========================================  ==================  ===============
client                 file                                        servers under       default profile
=====================  ==========================================  ==================  ===============
Claude Code            ``.mcp.json``                               ``mcpServers``      claude-code
Claude Desktop         ``claude_desktop_config.json``              ``mcpServers``      claude-desktop
VS Code                ``.vscode/mcp.json``                        ``servers``         vscode-copilot
Cursor                 ``.cursor/mcp.json``                        ``mcpServers``      cursor
Gemini CLI             ``settings.json`` (``.gemini/``)            ``mcpServers``      gemini-cli
Codex                  ``config.toml`` (``.codex/``)               ``[mcp_servers]``   codex-cli
Windsurf               ``mcp_config.json`` (``~/.codeium/windsurf``) ``mcpServers``    windsurf
=====================  ==========================================  ==================  ===============
"""

from __future__ import annotations

import re
from pathlib import Path

SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE", re.I)

CLIENTS = {  # client id -> (name shown, default profile)
    "claude-code": ("Claude Code", "claude-code"),
    "claude-desktop": ("Claude Desktop", "claude-desktop"),
    "vscode": ("VS Code", "vscode-copilot"),
    "cursor": ("Cursor", "cursor"),
    "gemini-cli": ("Gemini CLI", "gemini-cli"),
    "codex": ("Codex", "codex-cli"),
    "windsurf": ("Windsurf", "windsurf"),
}


def detect_client(path: str, data) -> str | None:
    """The client a configuration file belongs to, from its name, folder and shape."""
    p = Path(path)
    name, parent = p.name.lower(), p.parent.name.lower()
    if name.endswith(".toml"):
        return "codex" if isinstance(data, dict) and "mcp_servers" in data else None
    if not isinstance(data, dict):
        return None
    if "mcpServers" in data:
        if parent == ".cursor":
            return "cursor"
        if name == "claude_desktop_config.json":
            return "claude-desktop"
        if name == "mcp_config.json":  # ~/.codeium/windsurf/mcp_config.json
            return "windsurf"
        if name == "settings.json" or parent == ".gemini":
            return "gemini-cli"
        return "claude-code"  # .mcp.json, and any other file with the same table
    if isinstance(data.get("servers"), dict) and (parent == ".vscode" or name == "mcp.json"):
        return "vscode"
    return None


def describe(client: str) -> str:
    return CLIENTS[client][0]


TABLE_KEY = {"vscode": "servers", "codex": "mcp_servers"}  # client -> its server table (else mcpServers)

# client -> the keys a server's settings may have, as each client's documentation lists them:
# Claude Code, code.claude.com/docs/en/mcp ("type" absent means stdio; remote servers say "http"
# or "sse"; cwd, headersHelper, oauth); VS Code, code.visualstudio.com/docs/copilot/reference/mcp-configuration
# (type, command, args, env, envFile, cwd, url, headers, dev, sandbox settings); Cursor,
# cursor.com/docs/context/mcp (command, args, env, envFile, url, headers, auth); Gemini CLI,
# google-gemini/gemini-cli docs/tools/mcp-server.md (MCPServerConfig); Codex, openai/codex
# docs/config.md ([mcp_servers.NAME]); Windsurf, docs.windsurf.com/windsurf/cascade/mcp.
SERVER_KEYS = {
    "claude-code": ("type", "command", "args", "env", "cwd", "url", "headers", "headersHelper", "oauth"),
    "vscode": ("type", "command", "args", "env", "envFile", "cwd", "url", "headers", "dev",
               "sandboxEnabled", "sandbox"),
    "cursor": ("type", "command", "args", "env", "envFile", "url", "headers", "auth"),
    "gemini-cli": ("command", "args", "env", "cwd", "url", "httpUrl", "headers", "type", "timeout", "trust",
                   "description", "includeTools", "excludeTools", "authProviderType", "oauth",
                   "targetAudience", "targetServiceAccount"),
    "codex": ("command", "args", "env", "env_vars", "cwd", "url", "bearer_token_env_var", "http_headers",
              "env_http_headers", "enabled", "required", "startup_timeout_sec", "startup_timeout_ms",
              "tool_timeout_sec", "enabled_tools", "disabled_tools", "scopes"),
    "windsurf": ("command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"),
}
URL_KEYS = ("url", "httpUrl", "serverUrl")
# Clients that read a server without "type" as stdio (Claude Code) or require "type" (VS Code):
# a remote server there needs "type": "http" (or "sse").
TYPE_REQUIRED = ("claude-code", "vscode")
# client -> how it writes a reference to an environment variable in a server's env or headers
# (None: Codex takes variable names in other keys: env_vars, env_http_headers, bearer_token_env_var)
ENV_REFERENCE = {"claude-code": "${{{}}}", "vscode": "${{env:{}}}", "cursor": "${{env:{}}}",
                 "gemini-cli": "${{{}}}", "windsurf": "${{env:{}}}", "codex": None}


def config_client(path: str, data) -> str | None:
    """:func:`detect_client`, and what :func:`read_config` takes besides: VS Code's ``servers``
    table in a file of another name; a ``.gemini/settings.json`` without servers (still Gemini
    CLI's settings, with nothing to check)."""
    client = detect_client(path, data)
    if client is None and isinstance(data, dict):
        p = Path(path)
        if isinstance(data.get("servers"), dict) and not isinstance(data.get("tools"), list):
            return "vscode"
        if p.name.lower() == "settings.json" and p.parent.name.lower() == ".gemini":
            return "gemini-cli"
    return client


def server_entries(client: str, data):
    """(name, settings, pointer tuple) of each server of a configuration whose settings are an object."""
    key = TABLE_KEY.get(client, "mcpServers")
    table = data.get(key) if isinstance(data, dict) else None
    if isinstance(table, dict):
        for name, entry in table.items():
            if isinstance(entry, dict):
                yield str(name), entry, (key, name)


_REFERENCE = re.compile(r"\$\{[^}]+\}")
_GEMINI_REFERENCE = re.compile(r"\$(?:[A-Za-z0-9_]+|\{[^}]+\})")
_SCHEME = re.compile(r"(?i)^(bearer|basic|token|apikey)\s+")
_TOKENISH = re.compile(r"[A-Za-z0-9_\-.+/=:~]{12,}")
_PLACEHOLDER = re.compile(r"(?i)your|xxx|example|placeholder|changeme|replace|dummy|redacted|\.\.\.|<|\*\*\*")


def is_reference(client: str, value: str) -> bool:
    """Does ``value`` take something from the environment (or a VS Code input) as ``client`` reads it?"""
    return bool((_GEMINI_REFERENCE if client == "gemini-cli" else _REFERENCE).search(value))


def literal_secrets(client: str, data):
    """(pointer tuple, member name, value) of each env or header value of a server that is
    written out literally, under a name that looks like a secret's, and looks like a credential
    (a run of token characters with a digit; not a placeholder such as ``your-api-key``)."""
    for ptr, k, v in secret_values(client, data):
        bare = _SCHEME.sub("", v.strip())
        if _TOKENISH.fullmatch(bare) and re.search(r"\d", bare) and not _PLACEHOLDER.search(bare):
            yield ptr, k, v


def secret_values(client: str, data):
    """(pointer tuple, member name, value) of every value of a server's env or headers (any of
    the clients' keys for them: Codex reads ``http_headers``, the others ``headers``) that is
    written out, under a name that looks like a secret's: what a report never shows."""
    for _, entry, ptr in server_entries(client, data):
        for key in ("env", "headers", "http_headers"):
            members = entry.get(key)
            if isinstance(members, dict):
                for k, v in members.items():
                    if isinstance(v, str) and v and SECRET_NAME.search(str(k)) and not is_reference(client, v):
                        yield (*ptr, key, k), str(k), v
        for key in URL_KEYS:  # a URL's password, and its query values named like secrets
            url = entry.get(key)
            if isinstance(url, str):
                for m in _URL_SECRET.finditer(url):
                    yield (*ptr, key), key, m.group(1) or m.group(2)


_URL_SECRET = re.compile(r"://[^/@:]*:([^/@]+)@|[?&][^=&#]*(?:key|token|secret|passw|auth)[^=&#]*=([^&#]+)", re.I)


def masked(value: str) -> str:
    """A secret as a report may show it: its first four characters when it is long enough that
    they say only what kind of credential it is, and its length."""
    bare = _SCHEME.sub("", value.strip())
    head = bare[:4] + "..." if len(bare) >= 20 else "..."
    return f"{head} ({len(value)} characters)"
