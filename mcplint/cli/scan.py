from __future__ import annotations

import sys

import click

from ..pipeline import exit_code
from .common import build_config, echo_err, emit, lint_options, shows_info


@click.command("scan")
@click.argument("paths", nargs=-1, metavar="PATHS...")  # required, but for the probe hook (below)
@lint_options
@click.option("--baseline", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline file (see --update-baseline).")
@click.option("--update-baseline", is_flag=True, help="Record every current finding in the --baseline file; exit 0.")
@click.option("--exclude", multiple=True,
              help="Skip files matching this glob when walking a directory (comma-separated; repeatable; "
                   "adds to the config's exclude and the built-in list of manifests such as package.json).")
@click.option("--statistics", is_flag=True,
              help="Print how many findings each rule produced, most first, instead of the findings "
                   "(text or json format).")
@click.option("--fix", is_flag=True,
              help="Apply the safe fixes of the findings to the files (JSON and YAML), rewriting only the text "
                   "each fix changes, then report what was fixed and what remains. To rewrite a schema for a "
                   "decoder, use `mcplint project` instead.")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix or --diff, apply unsafe fixes too (they change what a schema accepts, or remove "
                   "data; see `--show-fixes`); alone, count and mark ([*]) them as fixable in the report.")
@click.option("--exit-non-zero-on-fix", is_flag=True,
              help="With --fix, exit 1 when a file was changed, even if no finding remains (as ruff's flag: a "
                   "hook or CI step then fails on files that needed fixing).")
@click.option("--diff", is_flag=True,
              help="Print the fixes as a unified diff and write nothing (exit 1 when there is a diff).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes. Default: one per core when there are at least 4 files and 512 KiB "
                   "to read, else 1. The report is the same either way.")
@click.option("--python", "python", metavar="PATH",
              help="Interpreter that imports a Python server file (*.py) given in PATHS: the server's own, "
                   "with its SDK and dependencies. Default: $MCPLINT_SERVER_PYTHON, else the config's `python`, "
                   "else the first that has the MCP SDK of: the active virtual environment ($VIRTUAL_ENV), a .venv "
                   "beside the file or in its project root, python3/python on PATH; else the one running mcplint. "
                   "The summary says which was used.")
@click.option("--factory", metavar="NAME",
              help="In a Python server file with no server object at module level, call NAME() (a function "
                   "taking no arguments that returns a server), as FILE:NAME does for one file. Default: the "
                   "config's `factory`, else none (a function is called only when named).")
@click.option("--import-timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Seconds a Python server file may take to import and list its tools. Default: 30.")
def scan(paths, fmt, output, verbose, color, baseline=None, update_baseline=False, jobs=None, exclude=(),
         statistics=False, python=None, import_timeout=None, factory=None, fix=False, unsafe_fixes=False, diff=False,
         exit_zero=False, quiet=False, show_fixes=False, exit_non_zero_on_fix=False, **opts) -> None:
    """Lint tool definitions in PATHS (files, directories, or - for stdin).

    A Python MCP server file (*.py) is imported by --python (never as __main__, so
    mcp.run() under `if __name__ == "__main__":` does not run); the tools its SDK lists are
    linted and every finding points at the Python line that generated it. Importing runs the
    module's top-level code, as running its tests would: scan only files you would run.

    Exit status: 0 clean, 1 findings at or above --fail-on, 2 unreadable input or bad
    usage/configuration, 3 internal error.
    """
    from .. import pipeline

    obj = click.get_current_context().obj
    unsaved = obj.get("unsaved") if isinstance(obj, dict) else None
    if not paths and unsaved is None:
        ctx = click.get_current_context()
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "paths"))
    if statistics and fmt not in ("text", "full", "concise", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {fmt}")
    if fix and diff:
        raise click.UsageError("--fix writes the files and --diff only shows the changes: give one of them")
    stdin = (fix or diff) and "-" in paths  # as ruff: the fixed text (or the diff) on stdout
    if stdin and len(paths) > 1:
        raise click.UsageError("--fix and --diff take stdin (-) alone: the fixed text goes to stdout")
    if stdin and fix and not output and fmt in ("json", "sarif", "github", "markdown"):
        raise click.UsageError(f"--fix on stdin prints the fixed text on stdout: write the {fmt} report with -o FILE")
    import os

    # the server's interpreter: --python, else $MCPLINT_SERVER_PYTHON, else the config's `python`, else the
    # server's own, found per file (mcplint.pysource.interpreter)
    python = python or os.environ.get("MCPLINT_SERVER_PYTHON") or None
    if factory is not None and not all(part.isidentifier() for part in factory.split(".")):
        raise click.BadParameter("must be the name of a function in the server's module", param_hint="--factory")
    config = build_config(**opts).with_overrides(python=python, import_timeout=import_timeout, factory=factory)
    if exclude:
        from .common import comma_list

        config = config.with_overrides(exclude=config.exclude + tuple(comma_list(exclude)))
    result = pipeline.scan(paths, config, jobs=jobs, unsaved=unsaved)
    if fix or diff:
        from ..autofix.run import fix_stdin, run_fixes
        from .common import Terminal

        if stdin:
            result = fix_stdin(config, result, Terminal(), unsafe=unsafe_fixes, write=fix, quiet=quiet,
                               show_fixes=show_fixes)
        else:
            result = run_fixes(paths, config, result, Terminal(), jobs=jobs, unsafe=unsafe_fixes, write=fix,
                               quiet=quiet, show_fixes=show_fixes)
        if diff:
            for err in result.errors:  # the inputs that could not be read (and so not fixed)
                echo_err(str(err))
            # an input error exits 2 and a bug in mcplint 3, as without --diff
            sys.exit(max(getattr(e, "exit_code", 2) for e in result.errors) if result.errors else result.diff_exit)

    pipeline.describe_run(result, config, unsaved)
    if baseline or update_baseline:
        from .common import use_baseline

        if use_baseline(result, baseline, update_baseline):
            return
    if statistics:
        from ..report.statistics import render
        from .common import emit_text

        emit_text(render(result, "json" if fmt == "json" else "text", unsafe_fixes), output, result, quiet=quiet,
                  err=stdin)
    else:
        # (--fix on stdin: stdout holds the fixed text, the report goes to stderr)
        emit(result, fmt, output, verbose, color, quiet=quiet, show_fixes=show_fixes, unsafe_fixes=unsafe_fixes,
             err=stdin, show_info=shows_info(opts, config))
    code = exit_code(result, config, exit_zero)
    if exit_non_zero_on_fix and fix and result.changed_files:
        code = max(code, 1)
    sys.exit(code)

