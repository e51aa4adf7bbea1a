"""The servers an MCP client configuration starts or calls, ready to probe (``probe --from``).

Which file belongs to which client, and what each client reads of it, is
:mod:`mcplint.clientconfig`.

A server is stdio (``command``, ``args``, ``env``) or HTTP (``url``, or Gemini CLI's ``httpUrl``; ``headers``, Codex's ``http_headers`` and ``bearer_token_env_var``). ``"type":
"sse"``, and a Gemini CLI ``url`` without ``httpUrl``, is the HTTP+SSE transport of 2024-11-05
(mcplint.probe.sse).
``${VAR}`` (also ``${env:VAR}``, ``${VAR:-default}``) in a command, argument, env value,
working directory, URL or header is taken from mcplint's environment; a missing variable is
an error for that server, located in the file. Gemini CLI's own syntax is ``$VAR`` or
``${VAR}``, expanded in every string of its settings.json (``resolveEnvVarsInObject`` in
google-gemini/gemini-cli ``packages/cli/src/utils/envVarResolver.ts``, and "Environment
variables in settings" in its docs/get-started/configuration.md); Gemini CLI leaves a missing
one as written, mcplint says so as an error for that server rather than start it with a
literal ``$VAR``. Only the variables the user allows are expanded (:class:`EnvPolicy`): by
default any but those whose name looks like a secret (``*TOKEN*``, ``*KEY*``, ``*SECRET*``,
``*PASSW*``, ``*AUTH*``, ``*CREDENTIAL*``...), which need ``--allow-env NAME`` or ``allow-env:``;
with ``--env-expansion allowed`` (the Action's and the pre-commit hook's default) only those
``--allow-env`` names. A variable refused is an error for that server, which is not started. Every
value taken from the environment is kept in :attr:`Server.secrets`, so that it is redacted from
everything mcplint prints or saves. VS Code's ``${workspaceFolder}`` is the folder holding
``.vscode``; its ``${input:...}`` prompts cannot be answered here (an error for that server).
VS Code's file is JSON with comments, which are read as such.

A stdio server's ``cwd`` (Gemini CLI ``cwd``; Codex ``cwd``, "cwd that the command will be run
from" in openai/codex docs/config.md; VS Code ``cwd``, the working directory of its
``McpStdioServerDefinition``) is the directory the server starts in; a relative one is taken
from the folder the configuration belongs to (the one holding ``.vscode``, ``.gemini``,
``.codex``), and one that is not a directory is an error for that server.

A Codex server with ``enabled = false``, and a Windsurf one with ``"disabled": true``, is left
out, as the client leaves it out. Windsurf's remote servers take ``serverUrl`` (a ``url`` is read
too). The tools a Windsurf server's ``disabledTools`` names, those a Codex server's
``disabled_tools`` names or its ``enabled_tools`` leaves out, and those a Gemini CLI server's
``excludeTools`` names or its ``includeTools`` leaves out, are not linted (the client does not
show them to the model; Windsurf does not count them against its cap on enabled tools, and Gemini
CLI leaves them out before it names tools, so they collide with none); a capture it saves keeps
their names as ``disabledTools``.
Codex's TOML is read with the standard library's ``tomllib`` (Python 3.11+), or ``tomli``
when installed; on Python 3.10 without ``tomli`` it is refused with an error saying so.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..clientconfig import SECRET_NAME, TABLE_KEY, detect_client
from ..errors import InputError
from .wire import Redactor

@dataclass
class Server:
    name: str
    client: str
    command: list[str] = field(default_factory=list)
    url: str | None = None
    env: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    cwd: str | None = None  # the directory a stdio server starts in (None: mcplint's own)
    sse: bool = False  # an HTTP server on the HTTP+SSE transport of 2024-11-05
    disabled_tools: tuple = ()  # tools the configuration switches off (Windsurf's disabledTools): not linted
    include_tools: tuple | None = None  # Gemini CLI's includeTools: only these are used (None: every tool)
    error: InputError | None = None  # this server cannot be probed as configured
    line: int | None = None  # where the configuration starts it (its command or URL), for errors found later
    col: int | None = None
    secrets: list = field(default_factory=list)  # every value taken from the environment: redacted wherever shown


@dataclass(frozen=True)
class EnvPolicy:
    """Which environment variables a configuration may have expanded. ``allowed``: names the user
    allows (``--allow-env``, and ``allow-env:`` of mcplint's configuration unless ``only_allowed``);
    ``only_allowed``: expand nothing else; otherwise any variable whose name does not look like
    a secret is expanded too (as the client itself would)."""

    allowed: frozenset = frozenset()
    only_allowed: bool = False

    def refusal(self, var: str) -> str | None:
        """Why ``var`` is not expanded (None: it is)."""
        if var in self.allowed:
            return None
        how = f"allow it with --allow-env {var}"
        if self.only_allowed:
            return (f"environment variable {var} is not expanded: only the variables named with --allow-env are "
                    f"(--env-expansion allowed, the default of the Action and the pre-commit hook); {how}")
        if SECRET_NAME.search(var):
            return (f"environment variable {var} is not expanded: its name looks like a secret's, and a "
                    f"configuration could send it anywhere; {how} (or allow-env: [{var}] in .mcplint.yaml)")
        return None


# client -> the keys of a server's settings that keep some of its tools from the model: a deny
# list, and an allow list (only the tools it names are used); the deny list wins
TOOL_FILTERS = {"windsurf": ("disabledTools",), "gemini-cli": ("excludeTools", "includeTools"),
                "codex": ("disabled_tools", "enabled_tools")}


def switched_off(server: Server, served) -> list:
    """The names of ``served`` (the tools the server lists) that the configuration keeps from
    the model, and the names it switches off explicitly: Windsurf's ``disabledTools``; Codex's
    ``disabled_tools``, and every tool its ``enabled_tools`` does not name (``ToolFilter`` in
    codex-rs's MCP connection manager: exact names); Gemini CLI's ``excludeTools``, and every
    tool its ``includeTools`` does not name (an entry names a tool by its name, or by its name and
    a parenthesis: ``isEnabled`` in gemini-cli's ``packages/core/src/tools/mcp-client.ts``). A
    tool the deny list names stays out whatever the allow list says."""
    off = list(server.disabled_tools)
    if server.include_tools is not None:
        inc = server.include_tools
        paren = server.client == "gemini-cli"
        off += [n for n in dict.fromkeys(served) if n not in off
                and not any(t == n or paren and t.startswith(f"{n}(") for t in inc)]
    return off


# -- reading --------------------------------------------------------------------------------

def read_config(path: str, client: str | None = None, policy: EnvPolicy | None = None) -> tuple[str, list[Server]]:
    """(client id, servers) of a client configuration file; a file that is not one, or
    cannot be read, is an InputError. ``policy``: the variables that may be expanded
    (default: any whose name does not look like a secret)."""
    from ..load import Source, parse, strip_jsonc

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read the client configuration: {e.strerror or e}", origin=path) from None
    except UnicodeDecodeError as e:
        raise InputError(f"the client configuration is not UTF-8 text ({e.reason})", origin=path) from None
    doc = None
    if path.lower().endswith(".toml"):
        from ..tomlmap import loads

        data = loads(path, text)
    else:
        try:
            doc = parse(Source(path, text, "json"))
        except InputError:
            doc = parse(Source(path, strip_jsonc(text), "json"))  # JSONC (VS Code); else the error stands
        data = doc.data
    client = client or detect_client(path, data) or (  # VS Code's table in a file of another name
        "vscode" if isinstance(data, dict) and isinstance(data.get("servers"), dict) else None)
    if client is None:
        raise InputError("not an MCP client configuration: expected a file with \"mcpServers\" (Claude Code "
                         ".mcp.json, Claude Desktop, Cursor, Gemini CLI settings.json, Windsurf mcp_config.json), "
                         "\"servers\" (VS Code "
                         ".vscode/mcp.json) or [mcp_servers] (Codex config.toml)", origin=path)
    key = TABLE_KEY.get(client, "mcpServers")
    table = data.get(key) if isinstance(data, dict) else None
    if not isinstance(table, dict):
        raise _at(path, doc, (key,), f"{key!r} must be an object mapping server names to their settings")
    servers = []
    for name, entry in table.items():
        if isinstance(entry, dict) and (client == "codex" and entry.get("enabled") is False
                                        or client == "windsurf" and entry.get("disabled") is True):
            continue  # switched off in the file: the client does not start it either
        servers.append(_server(path, doc, client, key, str(name), entry, policy or EnvPolicy()))
    return client, servers


def _at(path: str, doc, ptr: tuple, message: str) -> InputError:
    span = None
    if doc is not None:
        from ..model import Pointer

        span = doc.locate(Pointer(ptr))
    return InputError(message, origin=path, line=span.line if span else None, col=span.col if span else None)


_VAR = re.compile(r"\$\{(workspaceFolder|input:[^}]*)\}|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
# Gemini CLI: $NAME (word characters) or ${NAME} (anything up to the brace), no defaults.
_GEMINI_VAR = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+)\})")


def _expand(value, path: str, doc, ptr: tuple, base: Path, client: str = "", policy: EnvPolicy = EnvPolicy(),
            taken: list | None = None):
    """``value`` with its variables expanded; each value taken from the environment is added
    to ``taken``. A variable ``policy`` refuses is an error located at ``ptr``."""
    if not isinstance(value, str):
        raise _at(path, doc, ptr, f"must be a string, found {type(value).__name__}")

    def env(var: str) -> str:
        why = policy.refusal(var)
        if why:
            raise _at(path, doc, ptr, why)
        if taken is not None:
            taken.append(os.environ[var])
        return os.environ[var]

    if client == "gemini-cli":
        def gemini(m):
            var = m.group(1) or m.group(2)
            if var in os.environ:
                return env(var)
            raise _at(path, doc, ptr, f"environment variable {var} is not set (the configuration uses "
                                      f"{m.group(0)}; Gemini CLI would pass it on as written)")

        return _GEMINI_VAR.sub(gemini, value)

    def sub(m):
        if m.group(1) == "workspaceFolder":
            return str(base)
        if m.group(1):
            raise _at(path, doc, ptr, f"${{{m.group(1)}}} is a VS Code input prompt, which mcplint cannot answer: "
                                      "put the value in an environment variable and use ${env:NAME}")
        var, default = m.group(2), m.group(3)
        if var in os.environ:
            return env(var)
        if default is not None:
            return default
        raise _at(path, doc, ptr, f"environment variable {var} is not set (the configuration uses ${{{var}}})")

    return _VAR.sub(sub, value)


def _server(path: str, doc, client: str, key: str, name: str, entry, policy: EnvPolicy) -> Server:
    s = Server(name, client)
    ptr = (key, name)
    if doc is not None and isinstance(entry, dict):
        from ..model import Pointer

        here = next((k for k in ("command", "httpUrl", "url", "serverUrl") if k in entry), None)
        span = doc.locate(Pointer((*ptr, here) if here else ptr))
        if span is not None:
            s.line, s.col = span.line, span.col

    def expand(value, where: tuple):
        return _expand(value, path, doc, (*ptr, *where), base, client, policy, s.secrets)

    try:
        if not isinstance(entry, dict):
            raise _at(path, doc, ptr, "a server's settings must be an object")
        base = Path(path).resolve().parent
        if base.name in (".vscode", ".cursor", ".gemini", ".codex"):
            base = base.parent
        for k in TOOL_FILTERS.get(client, ()):
            if k in entry:
                names = entry[k]
                if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
                    raise _at(path, doc, (*ptr, k), f"\"{k}\" must be an array of tool names")
                if k in ("includeTools", "enabled_tools"):
                    s.include_tools = tuple(names)
                else:
                    s.disabled_tools = tuple(names)
        kind = entry.get("type") or entry.get("transport")
        url = entry.get("httpUrl") or entry.get("url") or entry.get("serverUrl")
        if "command" in entry:
            s.command = [expand(entry["command"], ("command",))]
            args = entry.get("args", [])
            if not isinstance(args, list):
                raise _at(path, doc, (*ptr, "args"), "\"args\" must be an array of strings")
            s.command += [expand(a, ("args", i)) for i, a in enumerate(args)]
            env = entry.get("env") or {}
            if not isinstance(env, dict):
                raise _at(path, doc, (*ptr, "env"), "\"env\" must map names to strings")
            s.env = {str(k): expand(v, ("env", k)) for k, v in env.items()}
            if entry.get("cwd") is not None:
                cwd = Path(expand(entry["cwd"], ("cwd",))).expanduser()
                cwd = cwd if cwd.is_absolute() else base / cwd
                if not cwd.is_dir():
                    raise _at(path, doc, (*ptr, "cwd"), f"\"cwd\" is not a directory: {Redactor(s.secrets)(str(cwd))}")
                s.cwd = str(cwd)
        elif isinstance(url, str):
            # Gemini CLI: "url" is an SSE endpoint and "httpUrl" a Streamable HTTP one (its docs/tools/mcp-server.md)
            s.sse = kind == "sse" or (client == "gemini-cli" and "httpUrl" not in entry and kind != "http")
            s.url = expand(url, ("httpUrl" if "httpUrl" in entry else "url",))
            hkey = "http_headers" if client == "codex" else "headers"
            headers = entry.get(hkey) or {}
            if not isinstance(headers, dict):
                raise _at(path, doc, (*ptr, hkey), f"\"{hkey}\" must map header names to strings")
            s.headers = {str(k): expand(v, (hkey, k)) for k, v in headers.items()}
            token_var = entry.get("bearer_token_env_var") if client == "codex" else None
            if isinstance(token_var, str):
                if token_var not in os.environ:
                    raise _at(path, doc, (*ptr, "bearer_token_env_var"),
                              f"environment variable {token_var} is not set (bearer_token_env_var)")
                why = policy.refusal(token_var) or (None if token_var in policy.allowed else (
                    f"environment variable {token_var} is not expanded: bearer_token_env_var sends its value as a "
                    f"credential to the URL the configuration names; allow it with --allow-env {token_var}"))
                if why:
                    raise _at(path, doc, (*ptr, "bearer_token_env_var"), why)
                s.secrets.append(os.environ[token_var])
                s.headers["Authorization"] = f"Bearer {os.environ[token_var]}"
        else:
            raise _at(path, doc, ptr, "a server needs \"command\" (stdio) or \"url\" (HTTP)")
    except InputError as e:
        s.error = e
    return s


# -- what each client's format allows (the CFG rules) -----------------------------------------
