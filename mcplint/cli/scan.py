from __future__ import annotations

import sys

import click

from .common import build_config, emit, exit_code, lint_options


@click.command("scan")
@click.argument("paths", nargs=-1, required=True)
@lint_options
def scan(paths, fmt, output, verbose, color, **opts) -> None:
    """Lint tool definitions in PATHS (files, directories, or - for stdin).

    Exit status: 0 clean, 1 findings at or above --fail-on, 2 unreadable input or bad
    usage/configuration, 3 internal error.
    """
    from ..engine import lint_paths

    config = build_config(**opts)
    result = lint_paths(paths, config)
    emit(result, fmt, output, verbose, color)
    sys.exit(exit_code(result, config))
