"""Entry of the ``mcplint-probe`` pre-commit hook: probe live servers, then lint what they listed.

One server::

    python -m mcplint.precommit [--save FILE] [options] -- CMD [ARGS...]

runs ``mcplint probe --save FILE -- CMD ARGS...`` (the probe's own report is kept quiet
unless the probe fails), then ``mcplint scan [options] FILE``, whose report and exit code
are the hook's. FILE defaults to ``mcp-tools.json``.

Every server of a client's configuration::

    python -m mcplint.precommit --from CONFIG [--server NAME]... [--save DIR|TEMPLATE] [options]

runs ``mcplint probe --from CONFIG --save DIR`` (default ``mcp-tools/``, one ``SERVER.json``
each; or a file name with ``{server}`` in it), then scans the saved captures with the
client's profile, as ``probe --from`` lints them. A server that could not be probed is an
input error of that scan (exit 2) and the others are still reported, as ``probe --from``
reports them; so are the findings of a server that listed nothing to save. The configuration
may come from a change nobody has reviewed yet, so the probe runs with ``--env-expansion
allowed``: only the environment variables the hook's args name with ``--allow-env NAME`` are
expanded into its commands, URLs and headers (give ``--env-expansion client`` to expand as
``mcplint probe --from`` does by default).

Options that decide what is captured (``--protocol-version``, ``--config``, ``--no-config``,
``--profile``) go to the probe and the scan; ``--server``, ``--client``, ``--jobs``,
``--allow-env``, ``--env-expansion`` and the timeouts to the probe only; the others to the scan. Teams that commit no snapshot can list
the files in ``.gitignore``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass, field

from .textsafe import inline, lines

DEFAULT_SNAPSHOT = "mcp-tools.json"
DEFAULT_SNAPSHOTS = "mcp-tools"  # with --from: a directory, one capture per server
USAGE = ("usage: python -m mcplint.precommit [--save FILE] [options] -- CMD [ARGS...]\n"
         "       python -m mcplint.precommit --from CONFIG [--server NAME]... [--save DIR] [options]")
PROBE_ONLY = {"--server", "--client", "--jobs", "-j", "--timeout", "--startup-timeout", "--overall-timeout",
              "--allow-env", "--env-expansion"}
FROM_ONLY = {"--server", "--client", "--jobs", "-j", "--allow-env", "--env-expansion"}
BOTH = {"--protocol-version", "--config", "--profile"}  # each takes a value
BOTH_FLAGS = {"--no-config"}


@dataclass
class HookArgs:
    save: str
    scan: list = field(default_factory=list)  # options for `mcplint scan`
    probe: list = field(default_factory=list)  # options for `mcplint probe`
    cmd: list = field(default_factory=list)  # the server command (one server)
    config_file: str | None = None  # --from CONFIG
    profiles: bool = False  # whether --profile was given


def parse(argv: list[str]) -> HookArgs:
    """The hook's arguments, sorted out for the probe and the scan."""
    cmd: list = []
    if "--" in argv:
        i = argv.index("--")
        argv, cmd = argv[:i], argv[i + 1:]
        if not cmd:
            raise ValueError("the server command after `--` is empty")
    save, config_file, profiles = None, None, False
    scan: list = []
    probe: list = []
    named: list = []  # the options given, in order (a flag takes no value: probe[::2] would misread them)
    k = 0
    while k < len(argv):
        arg = argv[k]
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        takes_value = name in PROBE_ONLY | BOTH | {"--save", "--from"}
        if takes_value and not eq:
            if k + 1 >= len(argv):
                raise ValueError(f"{name} needs a value")
            value = argv[k + 1]
            k += 1
        k += 1
        named.append(name)
        if name == "--save":
            save = value
        elif name == "--from":
            config_file = value
        elif name in PROBE_ONLY:
            probe += [name, value]
        elif name in BOTH:
            probe += [name, value]
            scan += [name, value]
            profiles = profiles or name == "--profile"
        elif name in BOTH_FLAGS:
            probe.append(name)
            scan.append(name)
        else:
            scan.append(arg)
    if config_file is not None and cmd:
        raise ValueError("give either --from CONFIG or the server command after `--`, not both")
    if config_file is None and not cmd:
        raise ValueError("no server: put its command after `--` in the hook's args, or give --from CONFIG "
                         "for every server of a client's configuration")
    if config_file is None:
        given = [o for o in named if o in FROM_ONLY]
        if given:
            raise ValueError(f"{', '.join(dict.fromkeys(given))} go with --from CONFIG")
    return HookArgs(save=save or (DEFAULT_SNAPSHOT if cmd else DEFAULT_SNAPSHOTS), scan=scan, probe=probe,
                    cmd=cmd, config_file=config_file, profiles=profiles)


def split_args(argv: list[str]) -> tuple[str, list[str], list[str]]:
    """(snapshot file, scan options, server command) of a one-server hook's arguments."""
    a = parse(argv)
    if not a.cmd:
        raise ValueError("no server command: put it after `--` in the hook's args")
    return a.save, a.scan, a.cmd


def _invoke(args: list[str], obj: dict | None = None) -> int:
    from .cli import main

    try:
        main.main(args=args, prog_name="mcplint", standalone_mode=True, obj=obj)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    return 0


def run_quietly(args: list[str], obj: dict | None = None) -> tuple[int, str, str]:
    """Run the ``mcplint`` command line with ``args`` in this process and return its exit code,
    standard output and standard error (none of it printed)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _invoke(args, obj)
    return code, out.getvalue(), err.getvalue()


def split_probe_from(total) -> tuple[list[str], object]:
    """From ``probe --from``'s result: the captures it saved (in the configuration's order),
    and a Result with what a scan of them cannot see (servers that could not be probed, as
    input errors; the findings of a server that listed nothing to save; those on caps over
    every server of the client)."""
    from .capture import probe_origin
    from .engine import Result

    saved: list[str] = []
    rest = Result()
    errors = iter(total.errors)  # one per server in error, in the same order
    for entry in total.servers:
        if entry["status"] == "error":
            rest.errors.append(next(errors))
        elif "saved" in entry:
            saved.append(entry["saved"])
        else:
            origin = probe_origin(entry["name"])
            rest.findings += [f for f in total.findings if f.origin == origin]
            rest.tool_index += [t for t in total.tool_index if t[0] == origin]
            rest.tools += entry.get("tools", 0)
    kept = {id(f) for f in rest.findings}  # caps over all servers (mcplint.probe.caps), also on saved captures
    rest.findings += [f for f in getattr(total, "client_findings", ()) if id(f) not in kept]
    return saved, rest


def _stray_options(cmd: list[str]) -> list[str]:
    """Arguments after the server command that are options of the hook (``probe`` or ``scan``)."""
    from .cli.probe import misplaced, option_names, probe
    from .cli.scan import scan

    return misplaced(cmd[1:], option_names(probe, scan))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        a = parse(argv)
    except ValueError as e:
        print(lines(f"mcplint-probe: {e}") + f"\n{USAGE}", file=sys.stderr)
        return 2
    from .cli import COMMANDS

    if "probe" not in COMMANDS:
        print("mcplint-probe: this mcplint has no `probe` command", file=sys.stderr)
        return 2
    if a.cmd:
        stray = _stray_options(a.cmd)
        if stray:  # `--` is required here, so these never reach mcplint: say so, whatever the probe gives
            print(inline(f"mcplint-probe: warning: {', '.join(map(repr, stray))} after `--` "
                         f"{'goes' if len(stray) == 1 else 'go'} to the server, not to mcplint; the hook's own "
                         "options go before `--`"), file=sys.stderr)
        code, out, err = run_quietly(["probe", "--save", a.save, *a.probe, "--", *a.cmd])
        if code >= 2:  # the server could not be probed: show why
            sys.stdout.write(out)  # (mcplint's report: its formats make the input inert)
            sys.stderr.write(lines(err))
            print(inline(f"mcplint-probe: `mcplint probe --save {a.save} -- {' '.join(a.cmd)}` failed (exit {code})"),
                  file=sys.stderr)
            return code
        return _invoke(["scan", *a.scan, a.save])
    obj: dict = {}
    # a configuration may come from an untrusted change: expand only the variables the hook's args name
    safe = [] if "--env-expansion" in a.probe else ["--env-expansion", "allowed"]
    code, out, err = run_quietly(["probe", "--from", a.config_file, "--save", a.save, *safe, *a.probe], obj)
    total = obj.get("probe_from")
    if total is None or code >= 3:  # the configuration could not be used, or mcplint failed
        sys.stdout.write(out)  # (mcplint's report: its formats make the input inert)
        sys.stderr.write(lines(err))
        print(inline(f"mcplint-probe: `mcplint probe --from {a.config_file} --save {a.save}` failed (exit {code})"),
              file=sys.stderr)
        return code or 2
    saved, rest = split_probe_from(total)
    # the client's own profile, as probe --from lints with, unless --profile chose
    profiles = [] if a.profiles else [x for p in total.profiles for x in ("--profile", p)]
    return _invoke(["scan", *profiles, *a.scan, *saved], {"unsaved": rest})


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
