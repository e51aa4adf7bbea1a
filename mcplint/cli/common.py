"""Options and output shared by every command that lints (scan, probe, ...)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from pathlib import Path

import click

from ..config import Config, rule_selectors, Where, load_config
from ..errors import EXIT_INPUT
from ..model import Severity
from ..versions import VERSIONS


def comma_list(values) -> list[str]:
    """The items of repeatable, comma-separated option values (``--select A,B --select C``), blanks dropped."""
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def lint_options(f):
    """Decorate a command with the options shared by every linting command."""
    options = [
        click.option("--output-format", "--format", "fmt", type=click.Choice(FORMATS), default="text",
                     show_default=True,
                     help="Output format. text: grouped by file and tool, repeats folded; full: text with every "
                          "finding and its code frame; concise: one `path:line:col: RULE message` line each "
                          "(for editors and grep). --format is the same option."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
                     help="Write the report to a file instead of stdout."),
        click.option("--protocol-version", "protocol_versions", multiple=True, type=click.Choice(VERSIONS),
                     help=f"MCP revision to check against; repeatable. Default: {VERSIONS[-1]}."),
        click.option("--select", multiple=True, help="Only these rule IDs or prefixes (comma-separated)."),
        click.option("--extend-select", multiple=True, help="Add rule IDs or prefixes to the selection."),
        click.option("--ignore", multiple=True, help="Skip these rule IDs or prefixes."),
        click.option("--profile", "profiles", multiple=True,
                     help="Decoder profile to check against: `default` (the MCP clients people run, each as it "
                          "sends tools), `strict` (the providers' strict modes), a profile's name (`mcplint "
                          "profiles`) or a path to a YAML file; repeatable."),
        click.option("--server-name", metavar="NAME",
                     help="The name users give the server in their clients' configurations: clients that show "
                          "the model mcp_<server>_<tool> (Gemini CLI, Codex) are then judged on that name. "
                          "`probe --from` takes each server's own. Default: the config's `server-name`."),
        click.option("--fail-on", type=click.Choice(["error", "warning", "info"]),
                     help="Lowest severity that makes the exit code 1. Default: error."),
        click.option("--config", "config_path", type=click.Path(dir_okay=False),
                     help="Config file (default: .mcplint.yaml or [tool.mcplint] found upward)."),
        click.option("--no-config", is_flag=True, help="Ignore configuration files."),
        click.option("-v", "--verbose", is_flag=True, help="List every finding (no folding of repeats)."),
        click.option("--show-info", is_flag=True,
                     help="List every information finding; the text, concise, github and markdown reports "
                          "otherwise give one line per rule and file with the count (JSON and SARIF keep all). "
                          "Implied by --verbose and by --fail-on info."),
        click.option("--color/--no-color", default=None, help="Force colour on or off (default: on a terminal)."),
        click.option("--exit-zero", is_flag=True,
                     help="Exit 0 even when findings reach --fail-on (unreadable input still exits 2)."),
        click.option("-q", "--quiet", is_flag=True,
                     help="Print the findings only: no summary, no profile table, no warnings on stderr "
                          "(input errors are still printed)."),
        click.option("--show-fixes", is_flag=True,
                     help="Under each finding, the JSON Patch its fix applies and whether --fix applies it "
                          "(safe) or only --unsafe-fixes does (text formats); with --fix, also what was fixed, "
                          "per file and rule."),
        click.option("--max-file-bytes", type=click.IntRange(min=1), default=None,
                     help="Refuse an input larger than this many bytes (the config's bounds.max-file-bytes; "
                          "default 10 MiB)."),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f


# The text formats: "text" folds repeats, "full" is text with every finding, "concise" one line each.
TEXT_FORMATS = ("text", "full", "concise")


def _formats() -> list[str]:
    from ..report import REPORTERS

    return ["text", "full", "concise", *(f for f in REPORTERS if f not in TEXT_FORMATS)]


FORMATS = _formats()


def build_config(protocol_versions=(), select=(), extend_select=(), ignore=(), profiles=(), fail_on=None,
                 config_path=None, no_config=False, max_file_bytes=None, server_name=None, **_ignored) -> Config:
    config = Config() if no_config else load_config(config_path)
    where = Where("command line")
    changes = {}
    if select:
        changes["select"] = rule_selectors(comma_list(select), ("--select",), where)
    if extend_select:
        changes["extend_select"] = config.extend_select + rule_selectors(comma_list(extend_select), ("--extend-select",), where)
    if ignore:
        changes["ignore"] = config.ignore + rule_selectors(comma_list(ignore), ("--ignore",), where)
    if protocol_versions:
        changes["protocol_versions"] = tuple(v for v in VERSIONS if v in protocol_versions)
        changes["versions_chosen"] = True
    if profiles:
        changes["profiles"] = tuple(comma_list(profiles))
    if fail_on:
        changes["fail_on"] = Severity.parse(fail_on)
    if server_name is not None:
        if not server_name.strip():
            raise click.BadParameter("must be the name clients' configurations give the server",
                                     param_hint="--server-name")
        changes["server_name"] = server_name
    if max_file_bytes:
        from dataclasses import replace

        changes["bounds"] = replace(config.bounds, max_file_bytes=max_file_bytes)
    config = config.with_overrides(**changes)
    _selects_a_rule(config, "command line" if select or extend_select or ignore else config.origin)
    return config


def _selects_a_rule(config: Config, origin: str | None) -> None:
    """A selection that leaves no rule at all would check nothing and pass: a config error."""
    from ..config import is_selected
    from ..errors import ConfigError
    from ..registry import all_rules

    if not any(is_selected(m.id, m.default, config) for m in all_rules()):
        line = None
        if origin and origin != "command line":  # at the config file's select or ignore
            import re

            try:
                text = Path(origin).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            key = re.compile(r"\s*[\"']?(ignore|select|extend-select)[\"']?\s*[:=]")
            line = next((i for i, ln in enumerate(text.splitlines(), 1) if key.match(ln)), None)
        raise ConfigError(f"the rule selection (select {', '.join(config.select) or 'nothing'}"
                          + (f", extend-select {', '.join(config.extend_select)}" if config.extend_select else "")
                          + f", ignore {', '.join(config.ignore)}) leaves no rule to check", origin=origin,
                          line=line, col=1 if line else None, expected="a selection that keeps at least one rule")


def use_color(flag) -> bool:
    if flag is not None:
        return flag
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def encodable(text: str) -> str:
    """``text``, with any lone surrogate (which has no UTF-8 form: a file name in an undecodable
    encoding, say) written as its escape, so that printing or saving the report cannot fail."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def write_file(path: str, text) -> None:
    """Write a report (a string, or its pieces one after another) atomically: a failure, Ctrl-C
    or SIGTERM on the way leaves the previous report as it was. A path that cannot be written
    is a located usage error (exit 2), not a bug."""
    from ..atomicio import write_atomic
    from ..errors import InputError

    pieces = (text,) if isinstance(text, str) else text
    try:
        write_atomic(path, (encodable(piece) for piece in pieces))
    except OSError as e:
        raise InputError(f"cannot write the output file: {e.strerror or e}", origin=path,
                         expected="a writable file path") from None


def emit(result, fmt: str, output: str | None, verbose: bool, color, quiet: bool = False,
         show_fixes: bool = False, unsafe_fixes: bool = False, err: bool = False, show_info: bool = False) -> None:
    from ..report import Options, render_chunks

    colored = use_color(color) and not output and fmt in TEXT_FORMATS and not err
    if fmt == "full":
        fmt, verbose = "text", True
    options = Options(color=colored, verbose=verbose, quiet=quiet, show_fixes=show_fixes, unsafe_fixes=unsafe_fixes,
                      show_info=show_info)
    emit_text(render_chunks(fmt, result, options), output, result, colored, quiet, err)


def emit_text(text, output: str | None, result, colored: bool = False, quiet: bool = False,
              err: bool = False) -> None:
    """Write a rendered report (a string, or its pieces, each written as it comes: to ``output``,
    else stdout, or stderr with ``err``), then the run's input errors and notes (``quiet``: the
    errors only)."""
    if output:
        write_file(output, text)
    else:
        for piece in ((text,) if isinstance(text, str) else text):
            if piece:
                click.echo(encodable(piece), nl=False, color=colored, err=err)
    for err in result.errors:
        echo_err(str(err))
    if not quiet:
        for note in result.notes:  # (one line each: the input they quote shown as escapes)
            from ..textsafe import inline

            echo_err(inline(f"warning: {note}"))


def echo_err(text: str) -> None:
    """A message of mcplint's on stderr that may quote input (a path, a server's stderr, a value of
    the configuration): its lines kept, the input's control characters shown as escapes and no line
    of it read as a CI command (:func:`mcplint.textsafe.lines`)."""
    echo_text(text, err=True)


def echo_text(text: str, nl: bool = True, err: bool = False) -> None:
    """Text for people (stdout, or stderr with ``err``) that quotes input: made inert as
    :func:`echo_err` makes a message."""
    from ..textsafe import lines

    click.echo(encodable(lines(text)), nl=nl, err=err)


class Terminal:
    """The :class:`mcplint.autofix.run.Console` of the command line: messages made inert as
    :func:`echo_err` makes them, on stderr; a diff on stdout, made inert too; the fixed text as it is."""

    def err(self, text: str) -> None:
        echo_err(text)

    def text(self, text: str) -> None:
        echo_text(text, nl=False)

    def raw(self, text: str) -> None:
        click.echo(text, nl=False)


def echo_json(text: str, nl: bool = True, err: bool = False) -> None:
    """A JSON document of mcplint's: the same data, with what a CI log or a terminal would act on
    written as JSON escapes (:func:`mcplint.textsafe.json_text`)."""
    from ..textsafe import json_text

    click.echo(encodable(json_text(text)), nl=nl, err=err)


def shows_info(opts: dict, config: Config) -> bool:
    """Whether the report lists every information finding: ``--show-info``, or when information
    fails the run (``--fail-on info``, or the configuration's ``fail-on: info``)."""
    return bool(opts.get("show_info")) or config.fail_on <= Severity.INFO


def use_baseline(result, path: str | None, update: bool) -> bool:
    """Apply (or, with ``update``, write) a baseline; True when the command is done."""
    from ..pipeline import apply_baseline, record_baseline

    if not path:
        raise click.UsageError("--update-baseline needs --baseline FILE")
    if update:
        if result.errors:
            for err in result.errors:
                echo_err(str(err))
            sys.exit(EXIT_INPUT)
        echo_err(record_baseline(result, path))
        return True
    said = apply_baseline(result, path)
    if said is not None:
        echo_err(said)
    return False


@contextlib.contextmanager
def terminate_as_interrupt():
    """While a probe runs, SIGTERM and SIGHUP end it as Ctrl-C does (servers stopped, "interrupted",
    exit 130); the previous handlers come back afterwards."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt()

    old = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            old[sig] = signal.signal(sig, interrupt)
        except (ValueError, OSError):  # not the main thread, or no such signal here
            pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
