from __future__ import annotations

import os
import sys

import click

from ..pipeline import exit_code
from .common import build_config, echo_err, emit, lint_options, shows_info, terminate_as_interrupt


def _pairs(values, sep: str, flag: str) -> list[tuple[str, str]]:
    out = []
    for v in values:
        key, found, value = v.partition(sep)
        if not found or not key.strip():
            raise click.UsageError(f"{flag} expects KEY{sep}VALUE, got {v!r}")
        out.append((key.strip(), value.strip() if sep == ":" else value))
    return out


def server_entry(result, config, save) -> dict:
    """The JSON summary's account of one probed server (as ``probe --from`` gives for each)."""
    from ..model import Severity

    name = next((d.data.get("server") for d in result.documents if isinstance(d.data, dict)), None)
    return {"name": name, "status": "probed", "tools": result.tools, "profiles": list(config.profiles),
            **({"saved": save} if save and result.files else {}),
            "errors": result.count(Severity.ERROR), "warnings": result.count(Severity.WARNING),
            "infos": result.count(Severity.INFO)}


class _Progress:
    """One self-overwriting status line on stderr, only on a terminal."""

    def __init__(self):
        self.on = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        self.shown = False

    def __call__(self, msg: str) -> None:
        if self.on:
            from ..textsafe import inline  # (a server's name from a configuration is input)

            sys.stderr.write(f"\r\033[Kmcplint probe: {inline(msg)}...")
            sys.stderr.flush()
            self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


class _ProbeCommand(click.Command):
    """Remembers whether the command line separated the server command with ``--``."""

    def parse_args(self, ctx, args):
        ctx.meta["probe_dashdash"] = "--" in args
        return super().parse_args(ctx, args)


def option_names(*commands) -> set:
    names = {o for c in commands for p in c.params if isinstance(p, click.Option) for o in (*p.opts, *p.secondary_opts)}
    names.discard("-h")
    return names


def misplaced(args, names) -> list[str]:
    """The arguments (after a server command) that are one of ``names``, mcplint's options."""
    return [a for a in args if a.split("=", 1)[0] in names]


def _misplaced_options(ctx, command) -> list[str]:
    """Arguments after the server command that are mcplint probe options (without ``--``,
    they go to the server, silently)."""
    if ctx.meta.get("probe_dashdash") or len(command) < 2:
        return []
    return misplaced(command[1:], option_names(ctx.command))


@click.command("probe", cls=_ProbeCommand, context_settings={"allow_interspersed_args": False})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--url", help="Probe a Streamable HTTP endpoint instead of starting a command (a server on the "
                             "older HTTP+SSE transport is recognised and probed over it).")
@click.option("--header", "headers", multiple=True, metavar="'K: V'",
              help="HTTP header to send with every request (e.g. Authorization); repeatable.")
@click.option("--env", "envs", multiple=True, metavar="K=V",
              help="Environment variable for the server, on top of mcplint's own environment; repeatable.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds to wait for each response.")
@click.option("--startup-timeout", type=click.FloatRange(min=0.1), default=None,
              help="Seconds to wait for the server's first answer (default: --timeout).")
@click.option("--overall-timeout", type=click.FloatRange(min=1), default=300.0, show_default=True,
              help="Seconds the whole probe may take.")
@click.option("--save", type=click.Path(), metavar="FILE|DIR",
              help="Write the capture (every version probed, as `mcplint scan` reads it back) to this file. "
                   "With --from: a directory that gets one SERVER.json per server, or a file name with "
                   "{server} in it (--save 'snapshots/{server}.mcp.json').")
@click.option("--call", is_flag=True,
              help="Also send one invalid tools/call per read-only tool and check that the server rejects it.")
@click.option("--call-all", is_flag=True, help="With --call semantics, also call tools not marked read-only.")
@click.option("--schema-binding", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="When to list tools a second time under 2026-07-28 as a client advertising "
                   "org.json-structure/schema-binding. auto: when the server advertises it or sends JSON Structure.")
@click.option("--source-dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="The server's source: place each finding, best effort, where the tool's name is registered "
                   "in it (server.tool(\"name\", registerTool(\"name\", name: \"name\" in a tools array).")
@click.option("--from", "from_config", type=click.Path(dir_okay=False), default=None, metavar="CONFIG",
              help="Probe every server in an MCP client's configuration, side by side (Claude Code .mcp.json, "
                   "Claude Desktop, "
                   "VS Code .vscode/mcp.json, Cursor, Gemini CLI settings.json, Codex config.toml, Windsurf "
                   "mcp_config.json).")
@click.option("--server", "server_names", multiple=True, metavar="NAME",
              help="With --from: probe only this server; repeatable.")
@click.option("--client", "client", type=click.Choice(["claude-code", "claude-desktop", "vscode", "cursor",
                                                       "gemini-cli", "codex", "windsurf"]), default=None,
              help="With --from: the client the file belongs to (default: recognised from its name and shape).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="With --from: servers probed at once (default: up to 4).")
@click.option("--allow-env", "allow_env", multiple=True, metavar="NAME",
              help="With --from: let the configuration expand this environment variable (${NAME}) though its "
                   "name looks like a secret's (TOKEN, KEY, SECRET, PASSWORD, AUTH, CREDENTIAL...); repeatable.")
@click.option("--env-expansion", type=click.Choice(["client", "allowed"]), default="client", show_default=True,
              help="With --from: client expands any variable the configuration names except secret-looking ones "
                   "not allowed; allowed expands only the --allow-env names (for configurations from untrusted "
                   "changes: the Action's and the pre-commit hook's default).")
@lint_options
def probe(command, url, headers, envs, timeout, startup_timeout, overall_timeout, save, call, call_all,
          schema_binding, fmt, output, verbose, color, source_dir=None, from_config=None, server_names=(),
          client=None, jobs=None, allow_env=(), env_expansion="client", **opts) -> None:
    """Lint the tools a live MCP server lists, under every protocol version it supports.

    \b
      mcplint probe [OPTIONS] -- COMMAND [ARGS...]   start the server over stdio
      mcplint probe [OPTIONS] --url http://127.0.0.1:8000/mcp
      mcplint probe [OPTIONS] --from .mcp.json [--server NAME]   every server a client is set up with

    Exit status: 0 clean, 1 findings at or above --fail-on, 2 the server could not be
    probed (or bad usage), 3 internal error.
    """
    from ..versions import VERSIONS

    if from_config:
        if command or url:
            stray = misplaced(command[1:], option_names(click.get_current_context().command))
            raise click.UsageError(
                "--from probes the servers in the configuration: give no COMMAND or --url"
                + (f" (got {command[0]!r}; {', '.join(map(repr, stray))} after it "
                   f"{'was' if len(stray) == 1 else 'were'} taken as part of it, not as mcplint's: put every option "
                   "before any other argument)" if stray else f" (got {command[0]!r})" if command else ""))
        if save and "{server}" not in save and (os.path.isfile(save) or save.lower().endswith((".json", ".yaml"))):
            raise click.UsageError(f"--save {save}: with --from there is one capture per server; give a directory "
                                   "(--save snapshots/) or a file name with {server} in it "
                                   "(--save 'snapshots/{server}.json')")
        from .probe_from import probe_from

        probe_from(from_config, server_names, client, opts, fmt=fmt, output=output, verbose=verbose, color=color,
                   save=save, jobs=jobs, allow_env=allow_env, only_allowed_env=env_expansion == "allowed",
                   timeout=timeout, startup_timeout=startup_timeout or timeout,
                   overall_timeout=overall_timeout,
                   call=call, call_all=call_all, schema_binding=schema_binding)
        return
    if server_names or client or jobs or allow_env or env_expansion != "client":
        raise click.UsageError("--server, --client, --jobs, --allow-env and --env-expansion go with --from CONFIG")
    if save and os.path.isdir(save):
        raise click.UsageError(f"--save {save}: is a directory; give the file to write the capture to "
                               "(a directory is for --from, one file per server)")
    if bool(command) == bool(url):
        raise click.UsageError("give either -- COMMAND [ARGS...], --url URL or --from CONFIG")
    stray = _misplaced_options(click.get_current_context(), command)
    if stray:
        echo_err(f"mcplint probe: warning: {', '.join(repr(a) for a in stray)} after the server command "
                 f"{'is' if len(stray) == 1 else 'are'} passed to the server, not to mcplint; put mcplint's "
                 "options first and the server command after `--` (mcplint probe --format json -- python "
                 "server.py)")
    config = build_config(**opts)
    versions = tuple(opts.get("protocol_versions") or ()) or config.server_versions or VERSIONS
    header_pairs = _pairs(headers, ":", "--header")
    env_pairs = _pairs(envs, "=", "--env")

    from ..pipeline import run_probe

    progress = _Progress()
    try:
        with terminate_as_interrupt():
            result, notes = run_probe(
                command=list(command), url=url, headers=dict(header_pairs), env=dict(env_pairs), versions=versions,
                config=config, timeout=timeout, startup_timeout=startup_timeout or timeout,
                overall_timeout=overall_timeout, call=call, call_all=call_all, save=save, progress=progress,
                schema_binding=schema_binding, source_dir=source_dir)
    finally:
        progress.done()
    for note in notes:
        echo_err(f"mcplint probe: {note}")
    result.servers = [server_entry(result, config, save)]  # what was looked at: a server, not a file
    emit(result, fmt, output, verbose, color, quiet=opts.get("quiet", False), show_fixes=opts.get("show_fixes", False),
         show_info=shows_info(opts, config))
    sys.exit(exit_code(result, config, opts.get("exit_zero", False)))


for _param in probe.params:  # the shared option means something slightly different here
    if _param.name == "protocol_versions":
        _param.help = ("MCP revision to probe; repeatable. Default: `server-versions` from the configuration, "
                       "else every revision mcplint knows that the server supports.")
