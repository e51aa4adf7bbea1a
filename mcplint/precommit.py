"""Entry of the ``mcplint-probe`` pre-commit hook: probe a live server, then lint what it listed.

``python -m mcplint.precommit [--save FILE] [scan options] -- CMD [ARGS...]`` runs
``mcplint probe --save FILE -- CMD ARGS...`` (the probe's own report is kept quiet unless
the probe fails), then ``mcplint scan [scan options] FILE``, whose report and exit code
are the hook's. FILE defaults to ``mcp-tools.json``; teams that commit no snapshot can
list it in ``.gitignore``.
"""

from __future__ import annotations

import contextlib
import io
import sys

DEFAULT_SNAPSHOT = "mcp-tools.json"
USAGE = "usage: python -m mcplint.precommit [--save FILE] [scan options] -- CMD [ARGS...]"


def split_args(argv: list[str]) -> tuple[str, list[str], list[str]]:
    """(snapshot file, scan options, server command) from the hook's arguments."""
    if "--" not in argv:
        raise ValueError("no server command: put it after `--` in the hook's args")
    i = argv.index("--")
    opts, cmd = argv[:i], argv[i + 1:]
    if not cmd:
        raise ValueError("the server command after `--` is empty")
    save = DEFAULT_SNAPSHOT
    rest: list[str] = []
    k = 0
    while k < len(opts):
        if opts[k] == "--save":
            if k + 1 >= len(opts):
                raise ValueError("--save needs a file name")
            save = opts[k + 1]
            k += 2
            continue
        if opts[k].startswith("--save="):
            save = opts[k].split("=", 1)[1]
        else:
            rest.append(opts[k])
        k += 1
    return save, rest, cmd


def _invoke(args: list[str]) -> int:
    from .cli import main

    try:
        main.main(args=args, prog_name="mcplint", standalone_mode=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        save, scan_opts, cmd = split_args(argv)
    except ValueError as e:
        print(f"mcplint-probe: {e}\n{USAGE}", file=sys.stderr)
        return 2
    from .cli import COMMANDS

    if "probe" not in COMMANDS:
        print("mcplint-probe: this mcplint has no `probe` command", file=sys.stderr)
        return 2
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _invoke(["probe", "--save", save, "--", *cmd])
    if code >= 2:  # the server could not be probed: show why
        sys.stdout.write(out.getvalue())
        sys.stderr.write(err.getvalue())
        print(f"mcplint-probe: `mcplint probe --save {save} -- {' '.join(cmd)}` failed (exit {code})",
              file=sys.stderr)
        return code
    return _invoke(["scan", *scan_opts, save])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
