"""``mcplint probe --from CONFIG``: every server an MCP client is configured with, one after the other."""

from __future__ import annotations

import sys

import click

from .common import build_config, emit, exit_code, terminate_as_interrupt


def probe_from(path: str, names, client, opts: dict, *, fmt, output, verbose, color, **probe_args) -> None:
    from ..engine import Result
    from ..errors import McplintError
    from ..model import Severity
    from ..probe.clients import CLIENTS, describe, read_config
    from ..probe.run import run_probe
    from ..profiles import check_names
    from ..versions import VERSIONS

    try:
        client, servers = read_config(path, client)
    except McplintError as e:
        click.echo(str(e), err=True)
        sys.exit(e.exit_code)
    known = [s.name for s in servers]
    if names:
        unknown = [n for n in names if n not in known]
        if unknown:
            raise click.UsageError(f"no server named {', '.join(map(repr, unknown))} in {path} "
                                   f"(it has: {', '.join(known) or 'none'})")
        servers = [s for s in servers if s.name in names]
    if not servers:
        click.echo(f"{path}: input error: the {describe(client)} configuration lists no servers", err=True)
        sys.exit(2)
    default = CLIENTS[client][1]
    if not opts.get("profiles"):  # the client's own profile, unless --profile says otherwise
        if check_names([default]) is None:
            opts = {**opts, "profiles": (default,)}
        else:
            click.echo(f"mcplint probe: note: {describe(client)}'s profile {default!r} is not available in this "
                       "mcplint; the servers are linted without a client profile (choose one with --profile)",
                       err=True)
    config = build_config(**opts)
    versions = tuple(opts.get("protocol_versions") or ()) or config.server_versions or VERSIONS
    total = Result()
    total.profiles = list(config.profiles)
    with terminate_as_interrupt():
        for s in servers:  # one at a time: each is bounded by the timeouts, and one failing stops no other
            entry = {"name": s.name, "client": client, "transport": "http" if s.url else "stdio",
                     "profiles": list(config.profiles)}
            try:
                if s.error is not None:
                    raise s.error
                result, notes = run_probe(command=s.command, url=s.url, headers=s.headers, env=s.env,
                                          versions=versions, config=config, name=s.name, cwd=s.cwd,
                                          **probe_args)
            except McplintError as e:
                e.message = f"server {s.name!r}: {e.message}"
                e.args = (e.message,)
                if e is not s.error:  # (a configuration error is already located in the file)
                    e.origin, e.line, e.col = path, None, None
                total.errors.append(e)
                total.servers.append({**entry, "status": "error", "error": str(e)})
                continue
            for note in notes:
                click.echo(f"mcplint probe: {s.name}: {note}", err=True)
            total.findings += result.findings
            total.files += result.files
            total.tools += result.tools
            total.tool_index += result.tool_index
            total.documents += result.documents
            total.servers.append({**entry, "status": "probed", "tools": result.tools,
                                  "errors": result.count(Severity.ERROR), "warnings": result.count(Severity.WARNING),
                                  "infos": result.count(Severity.INFO)})
    emit(total, fmt, output, verbose, color, quiet=opts.get("quiet", False), show_fixes=opts.get("show_fixes", False))
    sys.exit(exit_code(total, config, opts.get("exit_zero", False)))
