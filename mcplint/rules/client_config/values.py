"""CFG004-CFG006: the values of a server's settings: secrets, packages, prompts."""

from __future__ import annotations

import re

from ...model import Pointer, Severity
from ...clientconfig import ENV_REFERENCE, literal_secrets, masked
from ...registry import rule
from .common import client_name, servers


@rule("CFG004", "literal-secret", severity=Severity.ERROR, scope="document", requires="client-config",
      fix="Reference an environment variable instead of writing the value (each client's syntax is named)")
def literal_secret(coll, ctx):
    """A server's `env` or `headers` holds a credential written out in the file.

    ## What it does
    Reports a value of a server's `env` or `headers` (Codex: `http_headers`) whose name looks
    like a secret's (`*TOKEN*`, `*KEY*`, `*SECRET*`, `*PASSWORD*`, `*AUTH*`, `*CREDENTIAL*`...)
    and whose value looks like a credential (a run of token characters with a digit, after a
    `Bearer ` scheme) rather than a reference to the environment (`${...}`) or a placeholder.
    The finding shows at most the value's first four characters and its length.

    ## Why is this bad?
    A configuration in a repository is read by everyone who can read the repository, and
    stays in its history after the value is removed. Every client checked here reads the
    value from the environment instead: Claude Code `${NAME}`, VS Code `${env:NAME}` (or an
    `${input:...}` prompt), Cursor and Windsurf `${env:NAME}`, Gemini CLI `$NAME`, Codex
    `env_vars`, `env_http_headers` and `bearer_token_env_var`.

    ## Example
    ```json
    {"mcpServers": {"gh": {"command": "github-mcp", "env": {"GITHUB_TOKEN": "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}}}}
    ```

    ## Use instead
    ```json
    {"mcpServers": {"gh": {"command": "github-mcp", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}}}}
    ```

    ## References
    Claude Code, "Environment variable expansion in .mcp.json" (code.claude.com/docs/en/mcp);
    VS Code, "MCP configuration reference" (code.visualstudio.com/docs/copilot/reference/mcp-configuration:
    input variables for sensitive information, `${env:...}`); Cursor, cursor.com/docs/context/mcp;
    Gemini CLI, docs/get-started/configuration.md ("Environment variables in settings");
    Codex, docs/config.md (`env_vars`, `bearer_token_env_var`, `env_http_headers`);
    Windsurf, docs.windsurf.com/windsurf/cascade/mcp; OWASP, "Secrets Management Cheat Sheet".
    """
    if coll.shape != "client-config" or coll.client not in ENV_REFERENCE:
        return
    for ptr, key, value in literal_secrets(coll.client, coll.doc.data):
        ref = ENV_REFERENCE[coll.client]
        where = "header" if ptr[-2] in ("headers", "http_headers") else "environment variable"
        if ref is not None:
            use = f"write {ref.format(_var(key))!r} and set {_var(key)} in the environment"
        elif where == "header":
            use = "name an environment variable in env_http_headers (or bearer_token_env_var for Authorization)"
        else:
            use = f"list {key!r} in env_vars, which Codex passes on from its own environment"
        yield ctx.finding(Pointer(ptr), f"server {ptr[1]!r}: {where} {key!r} holds a literal value that looks like "
                                        f"a credential ({masked(value)}); {client_name(coll.client)} can take it "
                                        f"from the environment: {use}")


def _var(key: str) -> str:
    """An environment variable name for a header or variable name (``Authorization`` -> ``AUTHORIZATION``)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", key).upper()


_EXACT_NPM = re.compile(r"@\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$")
_EXACT_PY = re.compile(r"(?:==|@)\d+(?:\.\d+)*(?:[-+._]?[0-9A-Za-z.+!-]*)?$")
_NPX_VALUE_OPTIONS = ("-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig")
_UVX_VALUE_OPTIONS = ("--from", "--with", "--python", "-p", "--index", "--index-url", "--extra-index-url",
                      "--with-requirements", "-w", "--directory", "--env-file")


def _package(command: str, args: list) -> tuple[str, int] | None:
    """(runner, index of the package argument) of an ``npx``/``uvx`` command line, else None."""
    runner = re.sub(r"(?i)\.(cmd|exe)$", "", command.replace("\\", "/").rsplit("/", 1)[-1])
    if runner not in ("npx", "uvx"):
        return None
    takes_value = _NPX_VALUE_OPTIONS if runner == "npx" else _UVX_VALUE_OPTIONS
    i = 0
    while i < len(args):
        a = args[i]
        if not isinstance(a, str):
            return None
        if a in ("--package", "-p", "--from") and i + 1 < len(args):
            return runner, i + 1  # the package is named by the option
        if a.startswith(("--package=", "--from=")):
            return runner, i
        if a.startswith("-"):
            i += 2 if a in takes_value else 1
            continue
        return runner, i
    return None


@rule("CFG005", "unpinned-package", severity=Severity.WARNING, scope="document", requires="client-config",
      fix="Pin the package to an exact version: `name@1.2.3` for npx, `name==1.2.3` (or `--from name==1.2.3`) for uvx")
def unpinned_package(coll, ctx):
    """A server is started with `npx` or `uvx` from a package without an exact version.

    ## What it does
    Reports the package argument of a server whose `command` is `npx` or `uvx` when it names
    no exact version (`@latest`, a range, or nothing). A local path or a URL is not checked.

    ## Why is this bad?
    `npx -y PACKAGE` and `uvx PACKAGE` download and run whatever version the registry serves
    when the client starts the server: a new release (or a compromised one) changes the tools
    a model is given, and what they do, without any change to the repository.

    ## Example
    ```json
    {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}
    ```

    ## Use instead
    ```json
    {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory@2025.8.4"]}}}
    ```

    ## References
    npm, "npx" (docs.npmjs.com/cli/commands/npx: a package spec without a version is resolved
    to the latest); uv, "Using tools" (docs.astral.sh/uv/guides/tools: `uvx tool@version`, `--from 'tool==version'`);
    OpenSSF, "npm Best Practices Guide" (pin dependencies).
    """
    for _, name, entry, ptr in servers(coll):
        args = entry.get("args", [])
        if not isinstance(entry.get("command"), str) or not isinstance(args, list):
            continue
        found = _package(entry["command"], args)
        if found is None:
            continue
        runner, i = found
        spec = args[i].split("=", 1)[1] if args[i].startswith(("--package=", "--from=")) else args[i]
        if spec.startswith((".", "/", "~", "git+", "http:", "https:", "file:")) or ":" in spec[:3]:
            continue
        exact = _EXACT_NPM if runner == "npx" else _EXACT_PY
        bare = spec[1:] if spec.startswith("@") else spec
        if exact.search(bare):
            continue
        yield ctx.finding(ptr / "args" / i, f"server {name!r}: {runner} runs {spec!r} at whatever version the "
                                            "registry serves when the client starts it")


_INPUT = re.compile(r"\$\{input:([^}]*)\}")


def _strings(value, ptr: Pointer):
    if isinstance(value, str):
        yield ptr, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, ptr / k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, ptr / i)


@rule("CFG006", "input-prompt", severity=Severity.INFO, scope="document", requires="client-config",
      fix="Take the value from the environment (`${env:NAME}`) where the server must start unattended "
          "(mcplint probe --from, CI), and declare every `${input:ID}` in `inputs`")
def input_prompt(coll, ctx):
    """A VS Code server asks for a value with `${input:...}` when it starts.

    ## What it does
    Reports each `${input:ID}` in a server of a VS Code configuration: information when the
    file declares the input in its `inputs`, a warning when it does not.

    ## Why is this bad?
    VS Code prompts for the value the first time it starts the server; nothing unattended
    can answer the prompt, so `mcplint probe --from` (and a CI job) cannot start the server,
    and Copilot's harness sessions leave such servers out. An `${input:ID}` with no input of
    that `id` in `inputs` is not resolved at all.

    ## Example
    ```json
    {"servers": {"api": {"type": "http", "url": "https://api.example.com/mcp",
                         "headers": {"Authorization": "Bearer ${input:token}"}}}}
    ```

    ## Use instead
    ```json
    {"servers": {"api": {"type": "http", "url": "https://api.example.com/mcp",
                         "headers": {"Authorization": "Bearer ${env:API_TOKEN}"}}}}
    ```

    ## References
    VS Code, "MCP configuration reference" (code.visualstudio.com/docs/copilot/reference/mcp-configuration:
    `inputs`, and servers that need interactive input are not forwarded to harness sessions);
    VS Code, "Variables reference" (code.visualstudio.com/docs/reference/variables-reference: input variables).
    """
    if coll.shape != "client-config" or coll.client != "vscode":
        return
    inputs = coll.doc.data.get("inputs")
    declared = {i.get("id") for i in inputs if isinstance(i, dict)} if isinstance(inputs, list) else set()
    for _, name, entry, ptr in servers(coll):
        for at, text in _strings(entry, ptr):
            for m in _INPUT.finditer(text):
                if m.group(1) in declared:
                    yield ctx.finding(at, f"server {name!r} prompts for input {m.group(1)!r} when it starts: "
                                          "mcplint probe --from cannot answer it, and skips the server")
                else:
                    yield ctx.finding(at, f"server {name!r} uses input {m.group(1)!r}, which \"inputs\" does not "
                                          "declare: VS Code cannot resolve it", severity=Severity.WARNING)
