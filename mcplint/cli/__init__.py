"""The command line: a click group whose subcommands load only when called.

Wiring only: each command parses its options into a Config and calls the pipeline.
"""

from __future__ import annotations

import importlib
import sys

import click

from .. import __version__
from ..errors import EXIT_INPUT, EXIT_INTERNAL, McplintError

COMMANDS = {
    "scan": ("mcplint.cli.scan", "scan", "Lint tool definitions in files, directories or stdin."),
    "probe": ("mcplint.cli.probe", "probe", "Lint the tools a live MCP server lists (stdio or HTTP), per protocol version."),
    "rules": ("mcplint.cli.rules", "rules", "List every rule, one line each."),
    "rule": ("mcplint.cli.rules", "rule", "Explain one rule: what, why, example, fix."),
    "verify": ("mcplint.cli.verify", "verify", "Check schemas and profiles against real local decoders."),
    "validate": ("mcplint.cli.validate", "validate", "Validate a tool call's arguments or result against its schemas."),
    "project": ("mcplint.cli.project", "project", "Project schemas for a decoder profile, or JSON Structure -> JSON Schema."),
    "profiles": ("mcplint.cli.profiles", "profiles", "List the decoder profiles."),
    "profile": ("mcplint.cli.profiles", "profile", "Show what one decoder profile enforces, rejects and drops."),
    "diff": ("mcplint.cli.diff", "diff", "Breaking changes between two versions of a server's tools."),
    "server": ("mcplint.cli.server", "server", "Language server for editors (LSP over stdio; needs mcplint[lsp])."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, help_) for name, (_, _, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx):
        import warnings

        with warnings.catch_warnings():
            if not sys.warnoptions and not _debug():
                # What a library warns its programmer about (Python's re on a pattern it may read
                # differently one day, a deprecation inside a dependency) is not a finding and not
                # the user's to act on: it never reaches stderr (python -W or MCPLINT_DEBUG=1 shows it).
                warnings.simplefilter("ignore")
            return self._invoke(ctx)

    def _invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except McplintError as e:
            from .common import echo_err

            echo_err(str(e))
            sys.exit(e.exit_code)
        except click.ClickException as e:  # click prints it: the input it quotes (a path, a server's name) made inert
            from ..textsafe import lines

            e.message = lines(e.message)
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # `mcplint ... | head`: the reader left; leave quietly
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as e:  # a bug in mcplint: say so plainly, never a traceback
            import os
            import traceback

            if os.environ.get("MCPLINT_DEBUG"):
                traceback.print_exc()
            from .common import echo_err

            echo_err(f"internal error: {type(e).__name__}: {e} "
                     "(this is a bug in mcplint; rerun with MCPLINT_DEBUG=1 for details)")
            sys.exit(EXIT_INTERNAL)


def _debug() -> bool:
    import os

    return bool(os.environ.get("MCPLINT_DEBUG"))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcplint")
def main():
    """Lint MCP tool definitions: the spec, JSON Schema validity, safety bounds,
    the JSON Structure binding, and what each constrained decoder can enforce."""


# Usage errors exit 2 too (click's default), so 2 always means "could not run as asked".
assert EXIT_INPUT == click.UsageError.exit_code
