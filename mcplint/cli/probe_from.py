"""``mcplint probe --from CONFIG``: every server an MCP client is configured with, side by side.

Each server is captured in a worker thread of its own (at most ``--jobs`` at once), bounded by
the same timeouts as a probe of that server alone; each capture is linted on the main thread
as soon as it is in, where ``--overall-timeout`` can interrupt a long lint. One server that
cannot be started, hangs or misbehaves is an error for it alone. A single subreaper around
all of them (mcplint.probe.reaper) ends, once the last capture is over, every process a server
left behind; Ctrl-C (or SIGTERM/SIGHUP) cancels every capture and stops every server.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
from pathlib import Path

import click

from ..errors import McplintError
from ..pipeline import exit_code
from .common import build_config, echo_err, emit, shows_info, terminate_as_interrupt

MAX_SERVERS = 4  # servers probed at once by default (each may start one process per legacy version)


def save_paths(save: str, names: list[str]) -> dict[str, str]:
    """Where each server's capture goes: ``save`` with ``{server}`` in it is a template, else a
    directory that gets ``<server>.json`` each (a name is made safe for a file name)."""
    out: dict[str, str] = {}
    taken: set = set()
    for name in names:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "server"
        base, n = stem, 2
        while stem.lower() in taken:  # two names that map to one file name
            stem, n = f"{base}-{n}", n + 1
        taken.add(stem.lower())
        out[name] = save.replace("{server}", stem) if "{server}" in save else str(Path(save) / f"{stem}.json")
    return out


def probe_from(path: str, names, client, opts: dict, *, fmt, output, verbose, color, save=None, jobs=None,
               allow_env=(), only_allowed_env=False, **probe_args) -> None:
    servers, client, known, opts = chosen_servers(path, names, client, opts, allow_env, only_allowed_env)
    config = build_config(**opts)
    saves = save_paths(save, [s.name for s in servers]) if save else {}
    if save:
        make_folders(save, saves)
    outcome = _probe_all(servers, config, opts, saves, jobs or min(MAX_SERVERS, len(servers)), probe_args)
    total = gathered(path, servers, client, config, saves, outcome)
    probed = [(s.name, outcome[s.name][0]) for s in servers if not isinstance(outcome[s.name], McplintError)]
    from ..probe.caps import client_caps

    # (a scan of the saved captures cannot see these: the hook and the Action take them from here)
    total.client_findings = client_caps(probed, config, path, len(known))
    total.findings += total.client_findings
    ctx = click.get_current_context(silent=True)
    if ctx is not None and isinstance(ctx.obj, dict):  # the hook and the Action, which scan what was saved
        ctx.obj["probe_from"] = total
    emit(total, fmt, output, verbose, color, quiet=opts.get("quiet", False), show_fixes=opts.get("show_fixes", False),
         show_info=shows_info(opts, config))
    sys.exit(exit_code(total, config, opts.get("exit_zero", False)))


def chosen_servers(path: str, names, client, opts: dict, allow_env, only_allowed_env: bool) -> tuple:
    """(the servers of the configuration ``path`` to probe, its client, the names of all its
    servers, ``opts`` with the client's profile unless ``--profile`` says otherwise). A file that
    cannot be read, or lists no server, ends the run (exit 2); an unknown ``--server`` is a usage error."""
    from ..clientconfig import describe
    from ..probe.clients import EnvPolicy, read_config

    allowed = {n for a in allow_env for n in a.replace(",", " ").split()}
    given_client = client
    if not only_allowed_env:  # the repository's own configuration cannot widen --env-expansion allowed
        allowed |= set(build_config(**opts).allow_env)
    try:
        client, servers = read_config(path, client, EnvPolicy(frozenset(allowed), only_allowed_env))
    except McplintError as e:
        echo_err(str(e))
        sys.exit(e.exit_code)
    if given_client is None:
        hint = name_hint(path, client)
        if hint:
            echo_err(f"mcplint probe: note: {hint}")
    known = [s.name for s in servers]
    if names:
        unknown = [n for n in names if n not in known]
        if unknown:
            raise click.UsageError(f"no server named {', '.join(map(repr, unknown))} in {path} "
                                   f"(it has: {', '.join(known) or 'none'})")
        servers = [s for s in servers if s.name in names]
    if not servers:
        echo_err(f"{path}: input error: the {describe(client)} configuration lists no servers")
        sys.exit(2)
    return servers, client, known, with_client_profile(client, opts)


def with_client_profile(client: str, opts: dict) -> dict:
    """``opts`` with the client's own profile, unless ``--profile`` says otherwise (or this mcplint lacks it)."""
    from ..clientconfig import CLIENTS, describe
    from ..profiles import check_names

    default = CLIENTS[client][1]
    if opts.get("profiles"):
        return opts
    if check_names([default]) is None:
        return {**opts, "profiles": (default,)}
    echo_err(f"mcplint probe: note: {describe(client)}'s profile {default!r} is not available in this "
             "mcplint; the servers are linted without a client profile (choose one with --profile)")
    return opts


def make_folders(save: str, saves: dict) -> None:
    """Make the directory ``--save`` names, or every directory its template names (exit 2 if one cannot be)."""
    from ..errors import InputError

    try:
        for folder in dict.fromkeys(Path(p).parent for p in saves.values()):
            folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        echo_err(str(InputError(f"cannot make the directory for the captures: {e.strerror or e}", origin=save)))
        sys.exit(2)


def gathered(path: str, servers, client: str, config, saves: dict, outcome: dict):
    """The servers' results (``outcome``) as one :class:`~mcplint.engine.Result`, in the file's
    order whichever finished first: each server's row, the errors of those not probed (located
    in the configuration), a problem of several servers once. A server's notes are told here."""
    from ..engine import Result
    from ..model import Severity
    from ..probe.wire import Redactor

    total = Result()
    total.profiles = list(config.profiles)
    found: list = []  # (server, its findings, whether they are in a saved capture, its data), in the file's order
    for s in servers:
        entry = {"name": s.name, "client": client, "transport": ("sse" if s.sse else "http") if s.url else "stdio",
                 "profiles": list(config.profiles)}
        got = outcome[s.name]
        redact = Redactor(s.secrets)  # what the configuration took from the environment, wherever it shows
        if isinstance(got, McplintError):
            e = got
            e.message = f"server {s.name!r}: {redact(e.message)}"
            e.args = (e.message,)
            if e is not s.error and not (s.name in saves and e.origin == saves[s.name]):
                e.origin, e.line, e.col = path, s.line, s.col  # the server's command or URL (a configuration error is already located)
            total.errors.append(e)
            total.servers.append({**entry, "status": "error", "error": str(e)})
            continue
        result, notes = got
        for note in notes:
            echo_err(f"mcplint probe: {s.name}: {redact(note)}")
        saved = s.name in saves and any(d.source.origin == saves[s.name] for d in result.documents)
        found.append((s.name, result.findings, saved, result.documents[0].data if result.documents else None))
        total.files += result.files
        total.tools += result.tools
        total.tool_index += result.tool_index
        total.documents += result.documents
        total.servers.append({**entry, "status": "probed", "tools": result.tools,
                              **({"saved": saves[s.name]} if saved else {}),  # (not when nothing was listed)
                              "errors": result.count(Severity.ERROR), "warnings": result.count(Severity.WARNING),
                              "infos": result.count(Severity.INFO)})
    total.findings = one_finding_per_problem(found)
    return total


def one_finding_per_problem(found: list) -> list:
    """The servers' findings (``found``: (name, findings, saved, the capture's data) in the
    configuration's order), a problem of several servers reported once, naming them
    (:func:`mcplint.capture.one_per_server`), whether their captures were saved or not: a scan of
    the saved captures (the ``mcplint-probe`` hook, the Action) merges them the same way
    (:func:`mcplint.capture.one_per_saved_server`). In the servers' order."""
    from ..capture import one_per_server

    return one_per_server([(name, findings, data) for name, findings, _saved, data in found])


# The file each client reads its servers from: (its name, the folder it must be in, or None)
CLIENT_FILES = {"claude-code": (".mcp.json", None), "claude-desktop": ("claude_desktop_config.json", None),
                "vscode": ("mcp.json", None), "cursor": ("mcp.json", ".cursor"),
                "gemini-cli": ("settings.json", None), "codex": ("config.toml", None),
                "windsurf": ("mcp_config.json", None)}


def name_hint(path: str, client: str) -> str | None:
    """What to say when the file's shape gave its client but its name is not one that client
    reads (Claude Code's ``.mcpServers`` table is every JSON client's but VS Code's): which
    client it was read as, and ``--client`` to say otherwise."""
    from ..clientconfig import CLIENTS, describe

    p = Path(path)
    name, folder = CLIENT_FILES[client]
    if p.name.lower() == name and (folder is None or p.parent.name.lower() == folder):
        return None
    if client == "claude-code" and p.name.lower() == ".claude.json":  # Claude Code's user configuration
        return None
    key = {"vscode": "servers", "codex": "[mcp_servers]"}.get(client, "mcpServers")
    where = f"{folder}/{name}" if folder else name
    hint = (f"{path} is not named as {describe(client)} names its MCP configuration ({where}); read as "
            f"{describe(client)}'s, whose {key if key.startswith('[') else repr(key).replace(chr(39), chr(34))} "
            f"table it has (--client {client} says so and silences this note)")
    if key == "mcpServers":
        others = [c for c in CLIENTS if c not in (client, "vscode", "codex")]
        hint += (f"; {', '.join(describe(c) for c in others)} keep the same table: if the file is one of theirs, "
                 f"say so with --client {' | '.join(others)} (the client decides the profile and how tool names "
                 "are judged)")
    return hint


def _switched_off(server):
    """For a server whose configuration keeps some of its tools from the model: served names ->
    (the names switched off, the configuration's words for it); None for any other."""
    from ..probe.clients import TOOL_FILTERS, switched_off

    if not server.disabled_tools and server.include_tools is None:
        return None
    deny, *allow = TOOL_FILTERS[server.client]
    keys = ([deny] if server.disabled_tools else []) + (allow if server.include_tools is not None else [])
    return lambda served: (switched_off(server, served), "/".join(keys))


def _probe_all(servers, config, opts, saves: dict, jobs: int, probe_args: dict) -> dict:
    """{server name: (result, notes) or the McplintError that stopped it}, probing up to
    ``jobs`` servers at once."""
    from ..errors import McplintError
    from ..pipeline import lint_probe
    from ..probe.reaper import ServerReaper
    from ..probe.run import ServerProbe
    from ..probe.wire import Cancelled
    from ..versions import VERSIONS

    versions = tuple(opts.get("protocol_versions") or ()) or config.server_versions or VERSIONS
    outcome: dict = {}
    pending = []
    for s in servers:
        if s.error is not None:
            outcome[s.name] = s.error
        else:
            pending.append((s.name, ServerProbe(command=s.command, url=s.url, headers=s.headers, env=s.env,
                                                versions=versions, config=config, name=s.name, cwd=s.cwd,
                                                save=saves.get(s.name), transport="sse" if s.sse else "auto",
                                                switched_off=_switched_off(s), secrets=s.secrets, **probe_args)))
    done: queue.Queue = queue.Queue()

    def work(name, probe) -> None:
        try:
            probe.capture()
            done.put((name, probe, None))
        except BaseException as e:  # handed to the main thread, which decides
            done.put((name, probe, e))

    running: dict = {}
    with terminate_as_interrupt(), ServerReaper():
        try:
            while pending or running:
                while pending and len(running) < jobs:
                    name, probe = pending.pop(0)
                    th = threading.Thread(target=work, args=(name, probe), daemon=True, name=f"probe {name}")
                    running[name] = (probe, th)
                    th.start()
                try:
                    name, probe, err = done.get(timeout=0.2)  # short waits keep Ctrl-C responsive
                except queue.Empty:
                    continue
                running.pop(name)
                if isinstance(err, Cancelled):
                    continue
                if err is not None and not isinstance(err, McplintError):
                    raise err  # a bug, not a server's fault: exit 3 as for one server
                try:
                    outcome[name] = err if err is not None else lint_probe(probe)
                except McplintError as e:  # over --overall-timeout while linting, or --save not writable
                    outcome[name] = e
        except BaseException:
            for _, (probe, _th) in running.items():
                probe.cancel()
            for _, (_probe, th) in running.items():  # each sees the cancel within a fraction of a second
                th.join(timeout=5)
            raise
    return outcome
